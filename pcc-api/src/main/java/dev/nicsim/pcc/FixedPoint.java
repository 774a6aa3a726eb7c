package dev.nicsim.pcc;

/**
 * Fixed-point helpers as NIC microcode uses them: 16.16 numbers for fractions (alpha, g, cw in
 * packets) and the 20-bit rate fraction of line rate.
 *
 * <p>All methods are pure and allocation-free. Thread-safety: stateless.
 */
public final class FixedPoint {
    /** 1.0 in 16.16 fixed point. */
    public static final int ONE = 1 << 16;
    /** Line rate as a 20-bit rate fraction. */
    public static final int RATE_ONE = 1 << 20;

    private FixedPoint() {
    }

    /**
     * Converts a double to 16.16, rounding to nearest.
     *
     * @param value value in {@code [-32768, 32768)}
     * @return the 16.16 value
     */
    public static int toFixed(final double value) {
        return (int) Math.round(value * ONE);
    }

    /**
     * Converts 16.16 to double.
     *
     * @param fixed 16.16 value
     * @return the value
     */
    public static double toDouble(final int fixed) {
        return fixed / (double) ONE;
    }

    /**
     * Multiplies two 16.16 numbers, truncating toward negative infinity.
     *
     * @param a 16.16
     * @param b 16.16
     * @return a x b in 16.16
     */
    public static int mul(final int a, final int b) {
        return (int) (((long) a * b) >> 16);
    }

    /**
     * Divides two 16.16 numbers, truncating toward zero.
     *
     * @param a dividend, 16.16
     * @param b divisor, 16.16, non-zero
     * @return a / b in 16.16
     * @throws ArithmeticException if b is zero
     */
    public static int div(final int a, final int b) {
        return (int) (((long) a << 16) / b);
    }

    /**
     * Converts a 20-bit rate fraction to bits per second.
     *
     * @param rate               20-bit fraction, {@code 0 .. 1 << 20}
     * @param lineRateBitsPerSec line rate, bits/s, at most 8 x 10^12
     * @return rate in bits/s, rounded down
     */
    public static long rateToBitsPerSec(final int rate, final long lineRateBitsPerSec) {
        return (lineRateBitsPerSec * rate) >>> 20; // exact up to 8 Tb/s line rate (2^43 x 2^20 < 2^63)
    }

    /**
     * Converts bits per second to a 20-bit rate fraction of line rate, rounded down, clamped to
     * {@code [1, 1 << 20]}.
     *
     * @param bitsPerSec         rate in bits/s, non-negative
     * @param lineRateBitsPerSec line rate in bits/s, positive
     * @return 20-bit fraction
     */
    public static int bitsPerSecToRate(final long bitsPerSec, final long lineRateBitsPerSec) {
        final long r = (long) ((double) bitsPerSec / lineRateBitsPerSec * RATE_ONE);
        return (int) Math.max(1, Math.min(RATE_ONE, r));
    }

    /**
     * Nanoseconds elapsed between two 32-bit wrapping timestamps, assuming less than 2^31 ns
     * (about 2.1 s) passed.
     *
     * @param earlierNs earlier timestamp
     * @param laterNs   later timestamp
     * @return {@code laterNs - earlierNs} as a signed int
     */
    public static int nsSince(final int earlierNs, final int laterNs) {
        return laterNs - earlierNs;
    }

    /**
     * Distance from one 24-bit PSN to another, modulo 2^24, in {@code [-2^23, 2^23)}.
     *
     * @param fromPsn earlier PSN
     * @param toPsn   later PSN
     * @return {@code toPsn - fromPsn} modulo 2^24, sign-extended
     */
    public static int psnDelta(final int fromPsn, final int toPsn) {
        return ((toPsn - fromPsn) << 8) >> 8;
    }
}
