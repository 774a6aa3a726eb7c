package dev.nicsim.microcode.algorithms;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link CcMath#floorDivide}: the divide-free quotient equals Java's {@code /} bit for bit. */
class CcMathTest {
    private static void check(final long n, final long d) {
        assertEquals(n / d, CcMath.floorDivide(n, d, 1.0 / d), () -> n + " / " + d);
    }

    @Test
    void exactAtTheRateQuotientsEdges() {
        final long[] lines = {1_000, 1_000_000_000L, 10_000_000_000L, 25_000_000_000L, 40_000_000_000L,
            100_000_000_000L, 200_000_000_000L, 400_000_000_000L, 3, 7, 999_999_999_989L};
        for (final long d : lines) {
            for (final long rcKbps : new long[] {0, 1, 999, 1000, Integer.MAX_VALUE}) {
                final long n = (rcKbps * 1000L) << 20;
                check(n, d);
                check(n + 1, d);
                if (n > 0) {
                    check(n - 1, d);
                }
            }
            for (long k = 1; k < 1 << 20; k = k * 3 + 1) { // exact multiples and their neighbours
                check(k * d, d);
                check(k * d - 1, d);
                check(k * d + 1, d);
            }
        }
    }

    @Test
    void exactOnRandomRateQuotients() {
        final SplittableRandom r = new SplittableRandom(21);
        for (int i = 0; i < 200_000; i++) {
            final long d = 1_000 + r.nextLong(1_000_000_000_000L);
            final long n = (r.nextLong(1L << 31) * 1000L) << 20;
            check(n, d);
            check(n + r.nextLong(d), d);
        }
    }

    @Test
    void dcqcnRateEqualsTheDivision() {
        // the rate DCQCN publishes is toRate's, whatever the line rate (the cache follows a change)
        for (final long line : new long[] {100_000_000_000L, 25_000_000_000L, 100_000_000_000L}) {
            for (final int rc : new int[] {1, 1000, 1_234_567, 25_000_000, 99_999_999, 100_000_000, Integer.MAX_VALUE}) {
                final long n = ((long) rc * 1000L) << 20;
                assertEquals(DcqcnAlgorithm.toRate(rc, line),
                    (int) Math.max(1, Math.min(dev.nicsim.pcc.FixedPoint.RATE_ONE, CcMath.floorDivide(n, line, 1.0 / line))));
            }
        }
    }
}
