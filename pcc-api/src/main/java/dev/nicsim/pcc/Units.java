package dev.nicsim.pcc;

/**
 * The simulator's units and the conversions between them, in one place. Simulated time is held in
 * picoseconds ({@code long}, ...Ps), PCC event timestamps and NIC timers in nanoseconds (...Ns),
 * user-facing fields in microseconds (..._us); sizes in bytes (...Bytes), link rates in bits per
 * second (...BitsPerSec). SI prefixes throughout (1 us = 1,000 ns = 1,000,000 ps; 1 Gb/s = 10^9 b/s).
 *
 * <p>The {@code double} conversions multiply or divide by the constant in one operation, so
 * {@code Math.round(us * PS_PER_US)} and {@link #psFromUs(double)} give the same value bit for bit.
 *
 * <p>Thread-safety: constants and pure functions.
 */
public final class Units {
    /** Picoseconds per nanosecond. */
    public static final long PS_PER_NS = 1_000L;
    /** Picoseconds per microsecond. */
    public static final long PS_PER_US = 1_000_000L;
    /** Nanoseconds per microsecond. */
    public static final long NS_PER_US = 1_000L;
    /** Bits per byte. */
    public static final int BITS_PER_BYTE = 8;
    /** Bits per second in one Gb/s (SI, 10^9). */
    public static final double BITS_PER_SEC_PER_GBPS = 1e9;
    /** Hertz in one GHz (10^9). */
    public static final double HZ_PER_GHZ = 1e9;

    private Units() {
    }

    /**
     * Microseconds to picoseconds, rounded to the nearest picosecond.
     *
     * @param us a time, us (finite)
     * @return the time, ps
     */
    public static long psFromUs(final double us) {
        return Math.round(us * PS_PER_US);
    }

    /**
     * Nanoseconds to picoseconds, rounded to the nearest picosecond.
     *
     * @param ns a time, ns (finite)
     * @return the time, ps
     */
    public static long psFromNs(final double ns) {
        return Math.round(ns * PS_PER_NS);
    }

    /**
     * Picoseconds to microseconds.
     *
     * @param ps a time, ps
     * @return the time, us (exact up to double precision)
     */
    public static double usFromPs(final long ps) {
        return ps / (double) PS_PER_US;
    }

    /**
     * Picoseconds to nanoseconds.
     *
     * @param ps a time, ps
     * @return the time, ns (exact up to double precision)
     */
    public static double nsFromPs(final long ps) {
        return ps / (double) PS_PER_NS;
    }

    /**
     * Nanoseconds to microseconds.
     *
     * @param ns a time, ns
     * @return the time, us (exact up to double precision)
     */
    public static double usFromNs(final long ns) {
        return ns / (double) NS_PER_US;
    }

    /**
     * Picoseconds to whole nanoseconds, truncated toward zero (as a 32-bit PCC timestamp source).
     *
     * @param ps a time, ps
     * @return the time, ns, truncated
     */
    public static long wholeNsFromPs(final long ps) {
        return ps / PS_PER_NS;
    }

    /**
     * Gb/s to bits per second, rounded to the nearest bit per second.
     *
     * @param gbps a rate, Gb/s (finite)
     * @return the rate, bits/s
     */
    public static long bitsPerSecFromGbps(final double gbps) {
        return Math.round(gbps * BITS_PER_SEC_PER_GBPS);
    }

    /**
     * Bits per second to Gb/s.
     *
     * @param bitsPerSec a rate, bits/s
     * @return the rate, Gb/s
     */
    public static double gbpsFromBitsPerSec(final long bitsPerSec) {
        return bitsPerSec / BITS_PER_SEC_PER_GBPS;
    }

    /**
     * Bytes to bits.
     *
     * @param bytes a size, bytes
     * @return the size, bits
     */
    public static long bitsFromBytes(final long bytes) {
        return bytes * BITS_PER_BYTE;
    }
}
