package dev.nicsim.pcc;

/**
 * What an algorithm asks of the NIC after one event: a rate, optionally a window, an RTT probe, a
 * timer, and (for LDCP-style fast start) how many of the next packets go out as first-RTT packets.
 *
 * <p>The processor calls {@link #reset()} before each handler call; every field starts "unchanged"
 * and the algorithm sets only what it changes. Rate is a 20-bit fixed-point fraction of line rate
 * in {@code [1, 1 << 20]} ({@link FixedPoint#RATE_ONE} = line rate).
 *
 * <p>Thread-safety: not thread-safe; one instance per processing thread.
 */
public final class PccResult {
    /** Rate value meaning "keep the current rate". */
    public static final int RATE_UNCHANGED = -1;
    /** Window value meaning "keep the current window". */
    public static final long WINDOW_UNCHANGED = -1;
    /** Window value meaning "no window limit" (rate-only control). */
    public static final long WINDOW_UNLIMITED = 0;
    /** Fast-start value meaning "keep the current first-RTT packet budget". */
    public static final int FAST_START_UNCHANGED = -1;

    private int rate = RATE_UNCHANGED;
    private long windowBytes = WINDOW_UNCHANGED;
    private boolean rttProbeRequest;
    private int timerNs;
    private int fastStartPackets = FAST_START_UNCHANGED;

    /** Creates a result with everything unchanged. */
    public PccResult() {
    }

    /**
     * Marks every field unchanged.
     *
     * @return this
     */
    public PccResult reset() {
        rate = RATE_UNCHANGED;
        windowBytes = WINDOW_UNCHANGED;
        rttProbeRequest = false;
        timerNs = 0;
        fastStartPackets = FAST_START_UNCHANGED;
        return this;
    }

    /**
     * Sets the flow's rate.
     *
     * @param rate 20-bit fixed-point fraction of line rate; clamped to {@code [1, 1 << 20]}
     * @return this
     */
    public PccResult rate(final int rate) {
        this.rate = Math.max(1, Math.min(FixedPoint.RATE_ONE, rate));
        return this;
    }

    /** @return the rate asked for, or {@link #RATE_UNCHANGED} */
    public int rate() {
        return rate;
    }

    /**
     * Sets the flow's window.
     *
     * @param windowBytes bytes in flight allowed, or {@link #WINDOW_UNLIMITED}; must be non-negative
     * @return this
     * @throws IllegalArgumentException if negative
     */
    public PccResult windowBytes(final long windowBytes) {
        if (windowBytes < 0) {
            throw new IllegalArgumentException("window must be >= 0 bytes, got " + windowBytes);
        }
        this.windowBytes = windowBytes;
        return this;
    }

    /** @return the window asked for in bytes, {@link #WINDOW_UNLIMITED}, or {@link #WINDOW_UNCHANGED} */
    public long windowBytes() {
        return windowBytes;
    }

    /**
     * Asks the NIC to send an RTT probe now; its response arrives as an
     * {@link PccEventType#RTT_RESPONSE} event.
     *
     * @return this
     */
    public PccResult requestRttProbe() {
        this.rttProbeRequest = true;
        return this;
    }

    /** @return whether an RTT probe was asked for */
    public boolean rttProbeRequest() {
        return rttProbeRequest;
    }

    /**
     * Arms (or re-arms) the flow's timer: a {@link PccEventType#TIMER} event arrives after the delay.
     *
     * @param delayNs delay in ns, positive
     * @return this
     * @throws IllegalArgumentException if not positive
     */
    public PccResult armTimerNs(final int delayNs) {
        if (delayNs <= 0) {
            throw new IllegalArgumentException("timer delay must be > 0 ns, got " + delayNs);
        }
        this.timerNs = delayNs;
        return this;
    }

    /** @return the timer delay in ns, or 0 when no timer was armed */
    public int timerNs() {
        return timerNs;
    }

    /**
     * Sets the first-RTT (fast start) packet budget, LDCP the LDCP draft §2.3 and §3.1: the NIC sends the
     * next {@code packets} data packets Not-ECT, except the {@code packets}-th one and the last
     * packet of a message, which go ECT(0) so the receiver can detect loss; after the budget all
     * packets are ECT(0). Zero ends fast start at once.
     *
     * @param packets budget in packets, non-negative
     * @return this
     * @throws IllegalArgumentException if negative
     */
    public PccResult fastStartPackets(final int packets) {
        if (packets < 0) {
            throw new IllegalArgumentException("fast-start packets must be >= 0, got " + packets);
        }
        this.fastStartPackets = packets;
        return this;
    }

    /** @return the fast-start budget asked for, or {@link #FAST_START_UNCHANGED} */
    public int fastStartPackets() {
        return fastStartPackets;
    }

    /**
     * Copies another result.
     *
     * @param other the source
     * @return this
     */
    public PccResult copyFrom(final PccResult other) {
        rate = other.rate;
        windowBytes = other.windowBytes;
        rttProbeRequest = other.rttProbeRequest;
        timerNs = other.timerNs;
        fastStartPackets = other.fastStartPackets;
        return this;
    }

    @Override
    public String toString() {
        return "PccResult{rate=" + rate + ", windowBytes=" + windowBytes + ", rttProbe=" + rttProbeRequest
            + ", timerNs=" + timerNs + ", fastStartPackets=" + fastStartPackets + "}";
    }
}
