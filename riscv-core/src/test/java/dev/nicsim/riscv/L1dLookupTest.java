package dev.nicsim.riscv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryHierarchy#extraCycles}'s L1D lookup, written out in that method rather than called
 * ({@code Tags.access}), against {@code Tags.access} itself as the oracle; and the reason it is
 * written out: the method's bytecode stays over C2's {@code FreqInlineSize} (325 bytes, HotSpot 17's
 * default), so C2 never inlines it into {@link Hart#run}'s loop (docs/performance.md, "RISC-V core").
 */
class L1dLookupTest {

    /** C2's FreqInlineSize default in OpenJDK 17 (x86_64 and aarch64): hot call sites inline callees up to this bytecode size. */
    private static final int FREQ_INLINE_SIZE = 325;

    /**
     * Random loads over 40 lines (more than the L1D holds, so hits, last-line and
     * line-before-last hits, and LRU evictions all occur) leave the L1D's tags, stamps, clock and
     * the L1 hit count exactly as one {@code Tags.access} per load would, except that a load to the
     * thread's most recent line changes nothing (its documented shortcut: LRU order unchanged).
     * Checked for a power-of-two set count (mask) and for 3 sets (remainder).
     */
    @Test
    void writtenOutLookupMatchesTagsAccess() {
        for (final int sets : new int[] {4, 3}) {
            final int ways = 2;
            final int line = 64;
            final MemoryHierarchy.Level l1d = new MemoryHierarchy.Level(sets * ways * line, ways, line, 1);
            final MemoryHierarchy.Level big = new MemoryHierarchy.Level(1 << 20, 8, 64, 10);
            final MemoryHierarchy.Level llc = new MemoryHierarchy.Level(1 << 22, 16, 64, 40);
            final MemoryHierarchy h = new MemoryHierarchy(new MemoryHierarchy.Config(l1d, l1d, big, llc, 100), 1, 1);
            final MemoryHierarchy.Tags ref = new MemoryHierarchy.Tags(l1d);
            final SplittableRandom rnd = new SplittableRandom(19);
            long last = -1;
            long refHits = 0;
            long prev = 0;
            for (int i = 0; i < 20_000; i++) {
                // mostly near the previous address (pairs of lines), sometimes anywhere in 40 lines
                final long a = rnd.nextInt(4) == 0 ? rnd.nextInt(40 * line) : Math.floorMod(prev + rnd.nextInt(-96, 97), 40 * line);
                prev = a;
                final long lineNo = a >>> 6;
                if (lineNo == last) {
                    refHits++;
                } else if (ref.access(a)) {
                    refHits++;
                }
                last = lineNo;
                h.extraCycles(a, 8, false, i);
                final MemoryHierarchy.Tags t = h.l1d[0];
                assertArrayEquals(ref.tag, t.tag, "tags after load " + i + " of 0x" + Long.toHexString(a) + ", " + sets + " sets");
                assertArrayEquals(ref.stamp, t.stamp, "LRU stamps after load " + i + ", " + sets + " sets");
                assertEquals(ref.clock, t.clock, "clock after load " + i);
            }
            assertEquals(refHits, h.servedLoads(0, 0, MemoryHierarchy.L1), "L1 hits, " + sets + " sets");
            final long below = h.servedLoads(0, 0, MemoryHierarchy.L2) + h.servedLoads(0, 0, MemoryHierarchy.LLC)
                + h.servedLoads(0, 0, MemoryHierarchy.DRAM);
            assertEquals(20_000 - refHits, below, "L1D misses, " + sets + " sets");
            assertTrue(below > 1000 && refHits > 1000, "the walk saw both hits and misses: " + refHits + " / " + below);
        }
    }

    /**
     * extraCycles' bytecode is longer than C2's FreqInlineSize, so the call in Hart.run's load path
     * is "hot method too big" in every compilation, never inlined depending on which compile
     * finished first. Read from the class file (Code attribute's code_length).
     */
    @Test
    void extraCyclesStaysOverC2sFreqInlineSize() throws IOException {
        final int len = codeLength(MemoryHierarchy.class, "extraCycles");
        assertTrue(len > FREQ_INLINE_SIZE, "MemoryHierarchy.extraCycles is " + len + " bytecode bytes; it must stay over "
            + FREQ_INLINE_SIZE + " (C2 would inline it into Hart.run's loop)");
    }

    /** code_length of the (single) method named {@code name} in {@code c}'s class file (JVMS 4.1, 4.7.3). */
    private static int codeLength(final Class<?> c, final String name) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            final DataInputStream d = new DataInputStream(in);
            d.readInt(); // magic
            d.readInt(); // minor, major
            final int cpCount = d.readUnsignedShort();
            final String[] utf8 = new String[cpCount];
            for (int i = 1; i < cpCount; i++) {
                final int tag = d.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = d.readUTF();
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> d.skipNBytes(4);
                    case 5, 6 -> {
                        d.skipNBytes(8);
                        i++; // a long or double takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> d.skipNBytes(2);
                    case 15 -> d.skipNBytes(3);
                    default -> throw new IOException("constant pool tag " + tag + " at entry " + i);
                }
            }
            d.skipNBytes(6); // access, this, super
            d.skipNBytes(2L * d.readUnsignedShort()); // interfaces
            for (int k = 0, n = d.readUnsignedShort(); k < n; k++) { // fields
                d.skipNBytes(6);
                skipAttributes(d);
            }
            for (int k = 0, n = d.readUnsignedShort(); k < n; k++) { // methods
                d.skipNBytes(2);
                final String m = utf8[d.readUnsignedShort()];
                d.skipNBytes(2);
                for (int a = 0, na = d.readUnsignedShort(); a < na; a++) {
                    final String an = utf8[d.readUnsignedShort()];
                    final int alen = d.readInt();
                    if (m.equals(name) && an.equals("Code")) {
                        d.skipNBytes(4); // max_stack, max_locals
                        return d.readInt();
                    }
                    d.skipNBytes(alen);
                }
            }
            throw new IOException(c.getName() + " has no method " + name + " with code");
        }
    }

    private static void skipAttributes(final DataInputStream d) throws IOException {
        for (int a = 0, na = d.readUnsignedShort(); a < na; a++) {
            d.skipNBytes(2);
            d.skipNBytes(d.readInt());
        }
    }
}
