package dev.nicsim.pcc;

/**
 * One in-band network telemetry (INT) hop record as an ACK event carries it for HPCC (Li et al.,
 * SIGCOMM 2019 §4; HPCC ns-3 {@code IntHop}): what a switch egress stamped on the data packet when
 * it left, packed into 51 bits of a {@code long}:
 * <pre>
 *   bits  0..2   line-rate code ({@link #lineRateBitsPerSec}: 25, 50, 100, 200, 400, 800, 10, 40 Gb/s)
 *   bits  3..22  timestamp, ns, modulo 2^20 (wraps after 1.05 ms; ns-3 keeps 24 bits)
 *   bits 23..38  transmitted bytes of the egress port / (128 x multi), modulo 2^16 (ns-3: 20 bits)
 *   bits 39..50  egress queue length / (80 x multi), saturating at 4095 (ns-3: 17 bits)
 * </pre>
 * {@code multi} is ns-3's {@code INT_MULTI}, agreed between switches and the algorithm. Deltas
 * between two records of the same hop ({@link #timeDeltaNs}, {@link #bytesDelta}) wrap as ns-3's
 * {@code GetTimeDelta}/{@code GetBytesDelta} do. Fewer bits than ns-3 so that five hops fit the
 * 32 bytes an ACK record has free (see {@link PccEventLayout}).
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class PccIntHop {
    /** Bits of one packed record. */
    public static final int BITS = 51;
    /** Timestamp bits. */
    public static final int TIME_BITS = 20;
    /** Transmitted-bytes bits. */
    public static final int BYTES_BITS = 16;
    /** Queue-length bits. */
    public static final int QLEN_BITS = 12;
    /** Bytes per transmitted-bytes unit at multi 1 (ns-3 {@code byteUnit}). */
    public static final int BYTE_UNIT = 128;
    /** Bytes per queue-length unit at multi 1 (ns-3 {@code qlenUnit}). */
    public static final int QLEN_UNIT = 80;
    private static final long[] RATES = {25_000_000_000L, 50_000_000_000L, 100_000_000_000L, 200_000_000_000L,
        400_000_000_000L, 800_000_000_000L, 10_000_000_000L, 40_000_000_000L};
    private static final long TIME_MASK = (1L << TIME_BITS) - 1;
    private static final long BYTES_MASK = (1L << BYTES_BITS) - 1;
    private static final long QLEN_MAX = (1L << QLEN_BITS) - 1;

    private PccIntHop() {
    }

    /**
     * The code of a line rate.
     *
     * @param bitsPerSec a link rate
     * @return its 3-bit code, or -1 if the rate has none (INT cannot describe that link)
     */
    public static int rateCode(final long bitsPerSec) {
        for (int i = 0; i < RATES.length; i++) {
            if (RATES[i] == bitsPerSec) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Packs a record as a switch egress stamps it.
     *
     * @param rateCode    {@link #rateCode} of the egress link
     * @param timeNs      dequeue time, ns (any width; the low 20 bits are kept)
     * @param txBytes     bytes the egress port has transmitted so far (free-running)
     * @param qlenBytes   the egress port's queued bytes
     * @param multi       INT_MULTI, at least 1
     * @return the packed record
     */
    public static long pack(final int rateCode, final long timeNs, final long txBytes, final long qlenBytes, final int multi) {
        final long bytes = (txBytes / ((long) BYTE_UNIT * multi)) & BYTES_MASK;
        final long qlen = Math.min(QLEN_MAX, qlenBytes / ((long) QLEN_UNIT * multi));
        return (rateCode & 7L) | (timeNs & TIME_MASK) << 3 | bytes << 23 | qlen << 39;
    }

    /**
     * @param hop packed record
     * @return the egress line rate, bits/s
     */
    public static long lineRateBitsPerSec(final long hop) {
        return RATES[(int) (hop & 7)];
    }

    /**
     * @param hop packed record
     * @return the timestamp, ns modulo 2^20
     */
    public static int timeNs(final long hop) {
        return (int) ((hop >>> 3) & TIME_MASK);
    }

    /**
     * @param hop   packed record
     * @param multi INT_MULTI
     * @return the queue length, bytes (a multiple of 80 x multi)
     */
    public static long qlenBytes(final long hop, final int multi) {
        return ((hop >>> 39) & QLEN_MAX) * QLEN_UNIT * multi;
    }

    /**
     * ns per {@code GetTimeDelta}: {@code now - before} modulo 2^20.
     *
     * @param now    the newer record
     * @param before the older record of the same hop
     * @return ns, {@code 0 .. 2^20 - 1}
     */
    public static long timeDeltaNs(final long now, final long before) {
        return (timeNs(now) - timeNs(before)) & TIME_MASK;
    }

    /**
     * Bytes per {@code GetBytesDelta}: the transmitted-bytes difference modulo 2^16 units, in bytes.
     *
     * @param now    the newer record
     * @param before the older record of the same hop
     * @param multi  INT_MULTI
     * @return bytes, a multiple of 128 x multi
     */
    public static long bytesDelta(final long now, final long before, final int multi) {
        return (((now >>> 23) - (before >>> 23)) & BYTES_MASK) * BYTE_UNIT * multi;
    }
}
