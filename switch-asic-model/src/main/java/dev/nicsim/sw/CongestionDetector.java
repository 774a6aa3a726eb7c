package dev.nicsim.sw;

import java.util.Arrays;

/**
 * The congestion points of a set of queues (the RCM paper §3.2, Fig. 4): QCN-like sampling of the
 * queue's arrivals and the congestion measure {@code F_b} of Eq. (1) at each sample. One instance
 * watches all input queues of a switch, another all its output queues; a queue is addressed by its
 * index ({@code port x 8 + priority}).
 *
 * <p>Per queue: a byte countdown to the next sample (starting at {@link RcmConfig#sampleBytes}),
 * {@code Q_old} (the queue length at the previous sample, initially 0), the last {@code F_b} in
 * bytes and quantised, and the congestion flag. At a sample:
 * <pre>
 *   F_b   = (Q - Q_eq) + w_q x (Q - Q_old)                    Eq. (1)
 *   F_bq  = quantised F_b (0 if F_b &lt;= 0)                    {@link CongestionMath#quantiseFb}
 *   congested = F_b &gt; 0;   Q_old = Q
 *   next sample after sampleBytes / (1 + floor(F_bq x 8 / 2^bits)) bytes of arrivals
 * </pre>
 * where {@code Q} is the queue length just after the sampled packet joined it. {@link #clear}
 * (the queue drained empty) clears the flag and degree; {@code Q_old} and the countdown stay.
 *
 * <p>Allocation-free after construction. Thread-safety: not thread-safe; simulation thread only.
 */
final class CongestionDetector {
    private final long qEqBytes;
    private final double wq;
    private final double fbMaxBytes;
    private final int fbMaxQuantised;
    private final int fbBits;
    private final long sampleBytes;
    private final long[] countdownBytes;
    private final long[] oldQueueBytes;
    private final double[] fbBytes;
    private final int[] fbQuantised;
    private final boolean[] congested;
    private final long[] samples;

    /**
     * @param queues number of queues watched, {@code >= 1}
     * @param c      validated RCM configuration ({@code qEqBytes, wq, fbBits, sampleBytes})
     */
    CongestionDetector(final int queues, final RcmConfig c) {
        this.qEqBytes = c.qEqBytes;
        this.wq = c.wq;
        this.fbMaxBytes = CongestionMath.fbMaxBytes(c.qEqBytes, c.wq);
        this.fbMaxQuantised = c.fbMaxQuantised();
        this.fbBits = c.fbBits;
        this.sampleBytes = c.sampleBytes;
        this.countdownBytes = new long[queues];
        Arrays.fill(countdownBytes, sampleBytes);
        this.oldQueueBytes = new long[queues];
        this.fbBytes = new double[queues];
        this.fbQuantised = new int[queues];
        this.congested = new boolean[queues];
        this.samples = new long[queues];
    }

    /**
     * A packet joined the queue: counts its bytes towards the next sample and, when the countdown
     * runs out, samples the queue (Eq. (1)).
     *
     * @param idx        queue index
     * @param bytes      the packet's frame bytes, {@code > 0}
     * @param queueBytes queue length with the packet, bytes
     * @return true iff this arrival was sampled
     */
    boolean onArrival(final int idx, final int bytes, final long queueBytes) {
        final long left = countdownBytes[idx] - bytes;
        if (left > 0) {
            countdownBytes[idx] = left;
            return false;
        }
        final double fb = CongestionMath.fbBytes(queueBytes, oldQueueBytes[idx], qEqBytes, wq);
        final int q = CongestionMath.quantiseFb(fb, fbMaxBytes, fbMaxQuantised);
        oldQueueBytes[idx] = queueBytes;
        fbBytes[idx] = fb;
        fbQuantised[idx] = q;
        congested[idx] = fb > 0.0;
        countdownBytes[idx] = CongestionMath.sampleIntervalBytes(sampleBytes, q, fbBits);
        samples[idx]++;
        return true;
    }

    /**
     * The queue drained empty: congestion there is over (flag and degree cleared).
     *
     * @param idx queue index
     */
    void clear(final int idx) {
        congested[idx] = false;
        fbQuantised[idx] = 0;
    }

    /**
     * @param idx queue index
     * @return whether the last sample found {@code F_b > 0} (and the queue has not drained since)
     */
    boolean congested(final int idx) {
        return congested[idx];
    }

    /**
     * @param idx queue index
     * @return {@code F_b} of the last sample, bytes (0 before the first)
     */
    double fbBytes(final int idx) {
        return fbBytes[idx];
    }

    /**
     * @param idx queue index
     * @return quantised {@code F_b} of the last sample (0 when cleared)
     */
    int fbQuantised(final int idx) {
        return fbQuantised[idx];
    }

    /**
     * @param idx queue index
     * @return bytes of arrivals still to come before the next sample
     */
    long countdownBytes(final int idx) {
        return countdownBytes[idx];
    }

    /**
     * @param idx queue index
     * @return samples taken so far
     */
    long samples(final int idx) {
        return samples[idx];
    }
}
