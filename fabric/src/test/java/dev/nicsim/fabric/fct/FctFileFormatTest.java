package dev.nicsim.fabric.fct;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link FctFile.Row#format}: a line written by hand, and 100,000 random rows (negative and
 * extreme values included) against its oracle, the {@code String.format} pattern the reference's
 * line was written with before.
 */
class FctFileFormatTest {
    private static String oracle(final FctFile.Row r) {
        return String.format(Locale.ROOT, "%08x %08x %d %d %d %d %d %d", r.srcIp(), r.dstIp(), r.srcPort(), r.dstPort(),
            r.sizeBytes(), r.startNs(), r.fctNs(), r.standaloneFctNs());
    }

    @Test
    void oneLineByHand() {
        // node 1 is 11.0.1.1, node 300 is 11.1.44.1
        final FctFile.Row r = new FctFile.Row(FctFile.nodeIp(1), FctFile.nodeIp(300), 10000, 100, 1000, 2_000_000_000L, 5_432, 4_321, 0);
        assertEquals("0b000101 0b012c01 10000 100 1000 2000000000 5432 4321", r.format());
    }

    @Test
    void randomRowsMatchTheFormatter() {
        final SplittableRandom rnd = new SplittableRandom(3160);
        final int[] ints = {0, 1, -1, 15, 16, 0x0fffffff, 0x10000000, Integer.MAX_VALUE, Integer.MIN_VALUE};
        final long[] longs = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE};
        for (final int i : ints) {
            for (final long l : longs) {
                final FctFile.Row r = new FctFile.Row(i, ~i, i, -i, l, -l, l / 3, l ^ i, 0);
                assertEquals(oracle(r), r.format());
            }
        }
        for (int k = 0; k < 100_000; k++) {
            final FctFile.Row r = new FctFile.Row(rnd.nextInt(), rnd.nextInt() >>> rnd.nextInt(32), rnd.nextInt(65536),
                rnd.nextInt(65536), rnd.nextLong(), rnd.nextLong(1L << 40), rnd.nextLong() >> rnd.nextInt(64), rnd.nextLong(), 0);
            assertEquals(oracle(r), r.format());
        }
    }
}
