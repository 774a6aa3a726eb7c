package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;

/**
 * Integer helpers shared by the built-in algorithms: the conversions NIC microcode does between
 * windows, RTTs and the 20-bit rate fraction of line rate ({@link FixedPoint#RATE_ONE} = line
 * rate), with 64-bit intermediates and no floating point.
 *
 * <p>All methods are pure and allocation-free. Thread-safety: stateless.
 */
final class CcMath {
    /** Largest congestion window in packets as 16.16 (32767 packets), so window bytes stay in range. */
    static final int MAX_WINDOW_PACKETS_FIXED = 0x7FFF_0000;

    private CcMath() {
    }

    /**
     * Bits the line carries in one RTT: {@code lineRateBitsPerSec x rttNs / 10^9}, computed as
     * {@code (lineRateBitsPerSec / 1000) x rttNs / 10^6} so that it does not overflow for line
     * rates up to 8 Tb/s and RTTs below about 1 s.
     *
     * @param lineRateBitsPerSec line rate, bits/s, positive
     * @param rttNs              round-trip time, ns, non-negative
     * @return bits per RTT, 0 when the RTT is 0
     */
    static long lineBitsPerRtt(final long lineRateBitsPerSec, final int rttNs) {
        return (lineRateBitsPerSec / 1000L) * Math.max(0, rttNs) / 1_000_000L;
    }

    /**
     * The pacing rate that sends a window of {@code windowFixed} packets per RTT, the LDCP draft §2.2
     * (cw &lt; 1 ticked out at RTT/cw) and §3.2 (rate = window / RTT): {@code window x MTU x 8 / RTT}
     * as a 20-bit fraction of line rate.
     *
     * @param windowFixed        window in packets, 16.16, non-negative
     * @param mtuBytes           payload bytes per packet, positive
     * @param rttNs              round-trip time, ns
     * @param lineRateBitsPerSec line rate, bits/s, positive
     * @return rate in {@code [1, RATE_ONE]}; {@code RATE_ONE} if the RTT is too small to measure
     */
    static int rateForWindow(final int windowFixed, final int mtuBytes, final int rttNs,
                             final long lineRateBitsPerSec) {
        return rateForWindowBits(windowFixed, mtuBytes, lineBitsPerRtt(lineRateBitsPerSec, rttNs));
    }

    /**
     * {@link #rateForWindow} for a caller that already has the line's bits per RTT
     * ({@link #lineBitsPerRtt}), so that one RTT's conversion serves a window cap and a rate.
     *
     * @param windowFixed window in packets, 16.16, non-negative
     * @param mtuBytes    payload bytes per packet, positive
     * @param lineBits    {@link #lineBitsPerRtt} of the line rate and the RTT, non-negative
     * @return rate in {@code [1, RATE_ONE]}; {@code RATE_ONE} if lineBits is 0
     */
    static int rateForWindowBits(final int windowFixed, final int mtuBytes, final long lineBits) {
        if (lineBits <= 0) {
            return FixedPoint.RATE_ONE;
        }
        // window bits in 16.16, then x 2^4 turns 16.16 into the 20-bit rate fraction
        final long windowBitsFixed20 = ((long) windowFixed * mtuBytes * 8L) << 4;
        final long rate = windowBitsFixed20 / lineBits;
        return (int) Math.max(1, Math.min(FixedPoint.RATE_ONE, rate));
    }

    /**
     * The window (packets, 16.16) that fills the line for one RTT: line bits per RTT / (MTU x 8).
     *
     * @param mtuBytes           payload bytes per packet, positive
     * @param rttNs              round-trip time, ns
     * @param lineRateBitsPerSec line rate, bits/s, positive
     * @return window in packets, 16.16, at most {@link #MAX_WINDOW_PACKETS_FIXED}
     */
    static int lineWindowFixed(final int mtuBytes, final int rttNs, final long lineRateBitsPerSec) {
        final long w = (lineBitsPerRtt(lineRateBitsPerSec, rttNs) << 16) / (mtuBytes * 8L);
        return (int) Math.min(MAX_WINDOW_PACKETS_FIXED, w);
    }

    /**
     * {@link #lineWindowFixed} for a caller that already has the line's bits per RTT and the
     * reciprocal of the MTU in bits: the same floor of the quotient, by {@link #floorDivide}.
     *
     * @param lineBits       {@link #lineBitsPerRtt} of the line rate and the RTT, below 2^47
     * @param mtuBits        MTU x 8, positive
     * @param inverseMtuBits {@code 1.0 / mtuBits}
     * @return window in packets, 16.16, at most {@link #MAX_WINDOW_PACKETS_FIXED}
     */
    static int lineWindowFixedBits(final long lineBits, final long mtuBits, final double inverseMtuBits) {
        final long w = floorDivide(lineBits << 16, mtuBits, inverseMtuBits);
        return (int) Math.min(MAX_WINDOW_PACKETS_FIXED, w);
    }

    /**
     * Window in bytes for a window in packets: {@code floor(windowFixed x MTU)}.
     *
     * @param windowFixed window in packets, 16.16, non-negative
     * @param mtuBytes    payload bytes per packet
     * @return bytes
     */
    static long windowBytes(final int windowFixed, final int mtuBytes) {
        return ((long) windowFixed * mtuBytes) >>> 16;
    }

    /**
     * Window in packets (16.16) for a window in bytes: {@code bytes / MTU}, rounded down.
     *
     * @param bytes    window in bytes, non-negative
     * @param mtuBytes payload bytes per packet, positive
     * @return packets, 16.16, at most {@link #MAX_WINDOW_PACKETS_FIXED}
     */
    static int packetsFixed(final long bytes, final int mtuBytes) {
        return (int) Math.min(MAX_WINDOW_PACKETS_FIXED, (bytes << 16) / mtuBytes);
    }

    /**
     * Exponentially weighted moving average of an RTT in ns:
     * {@code srtt + (sample - srtt) x gain}, the product floored.
     *
     * @param srttNs   current average, ns
     * @param sampleNs new sample, ns
     * @param gain     gain in 16.16, {@code (0, 1]}; 1 gives the latest sample
     * @return new average, ns
     */
    static int ewmaNs(final int srttNs, final int sampleNs, final int gain) {
        return srttNs + (int) (((long) (sampleNs - srttNs) * gain) >> 16);
    }

    /**
     * Whether a 32-bit wrapping timestamp is at or after another (less than 2^31 ns apart).
     *
     * @param timeNs      timestamp to test
     * @param referenceNs reference timestamp
     * @return {@code timeNs >= referenceNs} in wrapping arithmetic
     */
    static boolean atOrAfter(final int timeNs, final int referenceNs) {
        return FixedPoint.nsSince(referenceNs, timeNs) >= 0;
    }

    /**
     * The port's line rate in kb/s, the unit the rate-based algorithms (DCQCN, TIMELY, rate-based
     * DCTCP) keep their rates in as 32-bit ints.
     *
     * @param attributes the flow's attributes
     * @param algorithm  the algorithm's name, for the error message
     * @return line rate, kb/s, 1 .. 2^31 - 1
     * @throws IllegalArgumentException if the line rate is below 1 kb/s or above 2^31 - 1 kb/s
     */
    static int lineKbps(final PccAttributes attributes, final String algorithm) {
        final long kbps = attributes.lineRateBitsPerSec() / 1000L;
        if (kbps <= 0 || kbps > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(algorithm + " line rate must be in 1 kb/s .. 2^31-1 kb/s, got "
                + attributes.lineRateBitsPerSec() + " bit/s");
        }
        return (int) kbps;
    }

    /**
     * {@code n / d} for {@code n >= 0} and {@code d > 0}, exactly as the integer division gives it,
     * without a divide instruction: the quotient estimated with {@code inverse} (= {@code 1.0 / d},
     * computed once by the caller for a divisor that repeats) is off by at most
     * {@code n / d x 2^-51 + 1} (one or two units for the rate quotients, which stay below 2^51),
     * and is corrected step by step by the remainder until {@code 0 <= n - q d < d}, so the result
     * is exact for every input; only the number of correction steps grows for huge quotients.
     *
     * @param n       dividend, non-negative
     * @param d       divisor, positive
     * @param inverse {@code 1.0 / d}
     * @return {@code n / d}
     */
    static long floorDivide(final long n, final long d, final double inverse) {
        long q = (long) (n * inverse);
        long r = n - q * d;
        while (r < 0) {
            q--;
            r += d;
        }
        while (r >= d) {
            q++;
            r -= d;
        }
        return q;
    }

    /**
     * Bits of the dividends {@link #divideByMultiplier} takes: {@code 0 <= n < 2^61}, which holds
     * every rate quotient's dividend {@code rc_kbps x 1000 x 2^20} for rc below 2^31 kb/s.
     */
    static final int MULTIPLIER_DIVIDEND_BITS = 61;

    /**
     * The multiplier that turns a floor division by the constant {@code d} into a multiply:
     * {@code m = ceil(2^(61 + l) / d)} with {@code l = ceil(log2 d)}, so that
     * {@code floor(n / d) = floor(n x m / 2^(61 + l))} for every {@code 0 <= n < 2^61} (Granlund and
     * Montgomery, "Division by invariant integers using multiplication", PLDI 1994, Thm 4.2: with
     * {@code m d = 2^(61+l) + e}, {@code 0 <= e < d <= 2^l}, and {@code n = q d + r}, {@code n m /
     * 2^(61+l) = q + r/d + n e / (d 2^(61+l))}, where {@code r/d <= 1 - 1/d} and the last term is
     * below {@code 2^61 d / (d 2^(61+l)) = 2^-l <= 1/d}, so the floor is q). {@code m < 2^62}. Found
     * by a bit-serial long division (about 100 steps; for a caller's cold path, allocation-free).
     *
     * @param d divisor, at least 5 (so that {@code 61 + l >= 64})
     * @return the multiplier {@code m}, for {@link #divideByMultiplier} with {@link #multiplierShift}
     * @throws IllegalArgumentException if d is below 5
     */
    static long divisionMultiplier(final long d) {
        final int exponent = MULTIPLIER_DIVIDEND_BITS + ceilLog2(d);
        long q = 0;
        long r = 0;
        for (int bit = exponent; bit >= 0; bit--) { // the dividend 2^exponent, one bit at a time
            r = (r << 1) | (bit == exponent ? 1 : 0); // r < d < 2^63, so r << 1 fits in 64 bits unsigned
            q <<= 1;
            if (Long.compareUnsigned(r, d) >= 0) {
                r -= d;
                q |= 1;
            }
        }
        return r == 0 ? q : q + 1;
    }

    /**
     * The right shift that goes with {@link #divisionMultiplier}: {@code 61 + l - 64}.
     *
     * @param d divisor, at least 5
     * @return shift, 0..60
     * @throws IllegalArgumentException if d is below 5
     */
    static int multiplierShift(final long d) {
        return MULTIPLIER_DIVIDEND_BITS + ceilLog2(d) - 64;
    }

    /**
     * {@code n / d} for {@code 0 <= n < 2^61}, exactly, with one 64 x 64 -> 128-bit multiply
     * instead of a divide: {@code multiplyHigh(n, m) >>> shift} (proof at
     * {@link #divisionMultiplier}).
     *
     * @param n          dividend, {@code 0 <= n < 2^61}
     * @param multiplier {@link #divisionMultiplier} of d
     * @param shift      {@link #multiplierShift} of d
     * @return {@code n / d}
     */
    static long divideByMultiplier(final long n, final long multiplier, final int shift) {
        return Math.multiplyHigh(n, multiplier) >>> shift;
    }

    /** @return {@code ceil(log2 d)} for d at least 5 */
    private static int ceilLog2(final long d) {
        if (d < 5) {
            throw new IllegalArgumentException("divisor must be at least 5, got " + d);
        }
        return 64 - Long.numberOfLeadingZeros(d - 1);
    }
}
