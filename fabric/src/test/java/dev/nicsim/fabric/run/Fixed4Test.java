package dev.nicsim.fabric.run;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Reports#fixed4} against its oracle {@code String.format(Locale.ROOT, "%.4f", x)} (what
 * {@code flows.csv}'s slowdown column was written with): hand-picked values, including halfway
 * cases of the shortest decimal (1.00005 rounds up to 1.0001, as Formatter rounds the digits of
 * {@code Double.toString}), and 200,000 random slowdown-like and wide-range values.
 */
class Fixed4Test {
    private static void same(final double x) {
        assertEquals(String.format(Locale.ROOT, "%.4f", x), Reports.fixed4(x), "x = " + x);
    }

    @Test
    void handPicked() {
        assertEquals("1.0000", Reports.fixed4(1.0));
        assertEquals("1.0001", Reports.fixed4(1.00005));
        assertEquals("10.0000", Reports.fixed4(9.99995));
        assertEquals("12.3457", Reports.fixed4(12.345678));
        assertEquals("0.0000", Reports.fixed4(1e-5));
        for (final double x : new double[] {1.0, 1.00005, 1.00015, 2.00025, 9.99995, 0.99995, 1e-5, 5e-5, 4.9999e-5,
            123456.78905, 1e14, 999_999_999_999_999.0, 1e15, 1e20, 0.0, -0.0, -1.23455, Double.NaN,
            Double.POSITIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 1.0 + Math.ulp(1.0)}) {
            same(x);
        }
    }

    @Test
    void randomValuesMatchTheFormatter() {
        final SplittableRandom rnd = new SplittableRandom(27);
        for (int i = 0; i < 100_000; i++) {
            same(1 + rnd.nextDouble() * rnd.nextInt(1, 1000)); // slowdowns
            same(Double.longBitsToDouble(rnd.nextLong() >>> 2)); // positive, any magnitude up to ~1e-77..1e77
            final long tenThousandths = rnd.nextLong(1, 100_000_000);
            same(tenThousandths / 10_000.0 + 0.00005); // near-halfway
        }
    }
}
