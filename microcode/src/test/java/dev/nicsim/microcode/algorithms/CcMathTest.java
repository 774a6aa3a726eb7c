package dev.nicsim.microcode.algorithms;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CcMath#floorDivide} and {@link CcMath#divideByMultiplier}: the divide-free quotients equal
 * Java's {@code /} bit for bit.
 */
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
                    (int) Math.max(1, Math.min(dev.nicsim.pcc.FixedPoint.RATE_ONE, CcMath.divideByMultiplier(n,
                        CcMath.divisionMultiplier(line), CcMath.multiplierShift(line)))));
            }
        }
    }

    private static void checkMultiplier(final long n, final long d, final long m, final int shift) {
        assertEquals(n / d, CcMath.divideByMultiplier(n, m, shift), () -> n + " / " + d + " by multiplier " + m);
    }

    @Test
    void multiplierQuotientIsExactAtTheEdgesOfItsRange() {
        // the line rates the scenarios use, powers of two and their neighbours, the smallest and the largest divisors
        final long[] divisors = {5, 6, 7, 8, 9, 1_000, 1_000_000_000L, 10_000_000_000L, 25_000_000_000L,
            40_000_000_000L, 100_000_000_000L, 200_000_000_000L, 400_000_000_000L, 999_999_999_989L,
            (1L << 31) * 1000 - 1, 1L << 40, (1L << 40) - 1, (1L << 40) + 1, (1L << 61) - 1, 1L << 61,
            Long.MAX_VALUE / 3, Long.MAX_VALUE};
        final long top = (1L << CcMath.MULTIPLIER_DIVIDEND_BITS) - 1;
        for (final long d : divisors) {
            final long m = CcMath.divisionMultiplier(d);
            final int shift = CcMath.multiplierShift(d);
            assertTrue(m > 0 && m <= 1L << 62, () -> "multiplier of " + d + " is " + m);
            for (final long n : new long[] {0, 1, d - 1, d, d + 1, top, top - 1, top - d, top / d * d, top / d * d - 1}) {
                if (n >= 0 && n <= top) {
                    checkMultiplier(n, d, m, shift);
                }
            }
            for (long k = 1; k <= top / d; k = k * 3 + 1) { // exact multiples and their neighbours
                checkMultiplier(k * d, d, m, shift);
                checkMultiplier(k * d - 1, d, m, shift);
                if (k * d + 1 <= top) {
                    checkMultiplier(k * d + 1, d, m, shift);
                }
            }
            for (final int rc : new int[] {0, 1, 999, 1000, 1_234_567, 100_000_000, Integer.MAX_VALUE}) {
                checkMultiplier(((long) rc * 1000L) << 20, d, m, shift);
            }
        }
    }

    @Test
    void multiplierQuotientIsExactOnRandomDividendsAndDivisors() {
        final SplittableRandom r = new SplittableRandom(2126);
        for (int i = 0; i < 20_000; i++) {
            final long d = 5 + (r.nextLong(Long.MAX_VALUE - 5) >>> r.nextInt(64)); // every magnitude
            final long m = CcMath.divisionMultiplier(d);
            final int shift = CcMath.multiplierShift(d);
            for (int j = 0; j < 20; j++) {
                final long n = r.nextLong(1L << CcMath.MULTIPLIER_DIVIDEND_BITS) >>> r.nextInt(62);
                checkMultiplier(n, d, m, shift);
                final long k = n / d;
                checkMultiplier(k * d, d, m, shift); // the multiple at or below n, and the last value below it
                if (k > 0) {
                    checkMultiplier(k * d - 1, d, m, shift);
                }
            }
        }
    }

    @Test
    void multiplierRefusesDivisorsBelowFive() {
        for (final long d : new long[] {Long.MIN_VALUE, -1, 0, 1, 4}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CcMath.divisionMultiplier(d));
            assertEquals("divisor must be at least 5, got " + d, e.getMessage());
        }
    }
}
