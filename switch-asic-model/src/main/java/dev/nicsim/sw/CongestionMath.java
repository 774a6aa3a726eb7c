package dev.nicsim.sw;

/**
 * The arithmetic of regional congestion mitigation (the RCM paper §3.2, §3.4) as pure functions, so
 * every step can be checked by hand: the congestion measure of Eq. (1), its quantisation, the
 * regional degree of Eq. (2), the decrease of Eq. (4)-(5), the window split of Eq. (6), and the
 * congestion point's sampling interval.
 *
 * <p>Units: queue lengths and windows in bytes; {@code F_b} in bytes before quantisation and in
 * quantised units ({@code 0..2^bits - 1}) after. Thread-safety: stateless.
 */
public final class CongestionMath {
    private CongestionMath() {
    }

    /**
     * Eq. (1): {@code F_b = Q_off + w_q x Q_delta} with {@code Q_off = Q - Q_eq} (the offset of the
     * queue length over the equilibrium length) and {@code Q_delta = Q - Q_old} (the change since
     * the previous sample, i.e. enqueue minus dequeue rate over the sampling interval). Positive
     * means congested (§3.2: "F_b > 0 means that the queue length is exceeding the equilibrium
     * length or the packets are accumulating").
     *
     * @param queueBytes    {@code Q}: queue length now, bytes, {@code >= 0}
     * @param oldQueueBytes {@code Q_old}: queue length at the previous sample, bytes, {@code >= 0}
     * @param qEqBytes      {@code Q_eq}, bytes
     * @param wq            {@code w_q}, {@code >= 0}
     * @return {@code F_b}, bytes (any sign)
     */
    public static double fbBytes(final long queueBytes, final long oldQueueBytes, final long qEqBytes, final double wq) {
        final long qOff = queueBytes - qEqBytes;
        final long qDelta = queueBytes - oldQueueBytes;
        return qOff + wq * qDelta;
    }

    /**
     * The cap of {@code F_b} used for quantisation, QCN's {@code F_bmax = Q_eq x (1 + 2 w_q)} (the
     * value of Eq. (1) at {@code Q = 2 Q_eq}, {@code Q_old = 0}: {@code Q_off = Q_eq},
     * {@code Q_delta = 2 Q_eq}).
     *
     * @param qEqBytes {@code Q_eq}, bytes, {@code > 0}
     * @param wq       {@code w_q}, {@code >= 0}
     * @return {@code F_bmax}, bytes
     */
    public static double fbMaxBytes(final long qEqBytes, final double wq) {
        return qEqBytes * (1.0 + 2.0 * wq);
    }

    /**
     * Quantises {@code F_b} for a congestion notification: 0 when {@code F_b <= 0} (not congested),
     * else {@code min(maxQuantised, ceil(F_b x maxQuantised / F_bmax))}, so every congested sample
     * carries at least 1.
     *
     * @param fbBytes      {@code F_b}, bytes
     * @param fbMaxBytes   {@code F_bmax}, bytes, {@code > 0}
     * @param maxQuantised largest code, {@code 2^bits - 1}
     * @return quantised {@code F_b}, {@code 0..maxQuantised}
     */
    public static int quantiseFb(final double fbBytes, final double fbMaxBytes, final int maxQuantised) {
        if (!(fbBytes > 0.0)) {
            return 0;
        }
        final double scaled = Math.ceil(fbBytes * maxQuantised / fbMaxBytes);
        return scaled >= maxQuantised ? maxQuantised : (int) scaled;
    }

    /**
     * Eq. (2): {@code F_b' = (1 - w) x F_b + w x F_br}, in quantised units, rounded half up.
     *
     * @param fbQuantised  {@code F_b}: the local degree, {@code >= 0}
     * @param fbrQuantised {@code F_br}: the degree the downstream neighbour sent, {@code >= 0}
     * @param w            weight of {@code F_br}, in [0, 1]
     * @return {@code F_b'}, quantised
     */
    public static int regionalFb(final int fbQuantised, final int fbrQuantised, final double w) {
        return (int) Math.floor((1.0 - w) * fbQuantised + w * fbrQuantised + 0.5);
    }

    /**
     * Eq. (4)'s factor: a rate (or window) is multiplied by {@code 1 - F_b x G_d}.
     *
     * @param fbQuantised {@code F_b}, quantised, {@code >= 0}
     * @param gd          {@code G_d} per quantised unit ({@code F_bmax x G_d = 1/2} by default)
     * @return the factor, in [0, 1] for valid parameters
     */
    public static double decreaseFactor(final int fbQuantised, final double gd) {
        return 1.0 - fbQuantised * gd;
    }

    /**
     * Eq. (5): {@code W_c <- W_c x (1 - F_b x G_d)}, rounded down to whole bytes.
     *
     * @param wcBytes     {@code W_c} before, bytes, {@code >= 0}
     * @param fbQuantised {@code F_b}, quantised
     * @param gd          {@code G_d} per quantised unit
     * @return {@code W_c} after, bytes
     */
    public static long decreasedWindowBytes(final long wcBytes, final int fbQuantised, final double gd) {
        return (long) Math.floor(wcBytes * decreaseFactor(fbQuantised, gd));
    }

    /**
     * Eq. (5) with the default {@code G_d = 1 / (2 F_bmax)} ({@link RcmConfig#GD_AUTO}) in exact
     * integer arithmetic: {@code W_c x (1 - F_b / (2 F_bmax)) = floor(W_c x (2 F_bmax - F_b) / (2 F_bmax))}.
     *
     * @param wcBytes        {@code W_c} before, bytes, {@code >= 0}
     * @param fbQuantised    {@code F_b}, quantised, {@code 0..fbMaxQuantised}
     * @param fbMaxQuantised {@code F_bmax}, quantised ({@code 2^bits - 1})
     * @return {@code W_c} after, bytes, at least {@code floor(W_c / 2)}
     */
    public static long decreasedWindowBytesAutoGd(final long wcBytes, final int fbQuantised, final int fbMaxQuantised) {
        final long den = 2L * fbMaxQuantised;
        return wcBytes * (den - fbQuantised) / den;
    }

    /**
     * Eq. (6) (with Eq. (3)): {@code W_nc = W - W_c}.
     *
     * @param windowBytes {@code W}, bytes
     * @param wcBytes     {@code W_c}, bytes, {@code <= W}
     * @return {@code W_nc}, bytes
     */
    public static long nonCongestedWindowBytes(final long windowBytes, final long wcBytes) {
        return windowBytes - wcBytes;
    }

    /**
     * The congestion point's next sampling interval (§3.2: "samples incoming packets with a
     * predefined sampling interval depending on the degree of congestion"):
     * {@code baseBytes / (1 + floor(F_b x 8 / 2^bits))}, from {@code baseBytes} when not congested
     * down to {@code baseBytes / 8} at the largest degree.
     *
     * @param baseBytes   interval when not congested, bytes
     * @param fbQuantised {@code F_b} of the sample just taken, quantised, {@code 0..2^bits - 1}
     * @param fbBits      quantisation bits
     * @return bytes of arrivals until the next sample, {@code >= baseBytes / 8}
     */
    public static long sampleIntervalBytes(final long baseBytes, final int fbQuantised, final int fbBits) {
        return baseBytes / (1 + ((fbQuantised * 8) >> fbBits));
    }

    /**
     * The bytes a link carries in a period (the RCC window {@code W} of Eq. (3)):
     * {@code rate x period / 8}, rounded down, at least 1.
     *
     * @param rateBitsPerSec link rate, bits/s, {@code > 0}
     * @param periodPs       period, ps, {@code > 0}
     * @return bytes
     */
    public static long windowBytes(final long rateBitsPerSec, final long periodPs) {
        final long bytes = java.math.BigInteger.valueOf(rateBitsPerSec).multiply(java.math.BigInteger.valueOf(periodPs))
            .divide(java.math.BigInteger.valueOf(8_000_000_000_000L)).longValueExact();
        return Math.max(1, bytes);
    }
}
