package dev.nicsim.riscv;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Jazzer target (issue 23): any 32-bit word (or 16-bit parcel) is decoded, executed on a fresh
 * hart (RV32 and RV64) and disassembled with no Java exception escaping; the disassembler agrees
 * with the decoder on what is illegal, and an illegal word traps with itself in mtval.
 * {@code mvn test} replays the committed corpus; {@code -Pfuzz} fuzzes (docs/reliability.md).
 */
class IsaJazzerTest {
    private static final long CODE = 0x8000_0000L;

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyWordDecodesExecutesAndDisassembles(final byte[] data) {
        int word = 0; // the first 4 bytes, little-endian (missing bytes are 0)
        for (int i = 0; i < Math.min(4, data.length); i++) {
            word |= (data[i] & 0xff) << (8 * i);
        }
        final boolean compressed = (word & 3) != 3;
        final int w = compressed ? word & 0xffff : word;
        for (final int xlen : new int[] {32, 64}) {
            final Memory m = new Memory();
            m.addRegion("code", CODE, 8192, 0);
            m.addRegion("data", 0, 1 << 16, 0);
            m.store(CODE, 4, compressed ? w | 0x0013_0000 : w); // a parcel followed by a nop half
            final Hart h = new Hart(m, xlen, CycleModelTest.distinctOccupancies(), 0);
            h.setPc(CODE);
            h.setStopAfterTrap(true);
            h.run(1);
            final boolean illegal = (Isa.decode(w, xlen) & 0xff) == Isa.ILLEGAL;
            final String dis = Isa.disassemble(w, xlen, CODE);
            if (illegal) {
                assertEquals("unknown", dis, Integer.toHexString(w));
                assertEquals(Hart.CAUSE_ILLEGAL, h.mcause(), Integer.toHexString(w));
                assertEquals(w & 0xffffffffL, h.mtval() & 0xffffffffL);
            } else {
                assertNotEquals("unknown", dis, Integer.toHexString(w));
            }
        }
    }
}
