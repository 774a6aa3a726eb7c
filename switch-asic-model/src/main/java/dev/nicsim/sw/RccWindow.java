package dev.nicsim.sw;

/**
 * The window of regional congestion control (RCC, the RCM paper §3.4, Eq. (3)-(6)) of one output queue:
 * {@code W = W_c + W_nc}, where harmful (congestion) flows may pass the output scheduler with at most
 * {@code W_c} bytes per window and the rest of the window belongs to the other flows.
 *
 * <h2>Windows</h2>
 * "The send window is running periodically": windows are consecutive periods of {@code T}
 * ({@link RcmConfig#windowPeriodPs}) starting when congestion is detected; {@code W} is what the
 * port's link carries in {@code T} ({@code W = rate x T / 8} bytes), so "until the whole window W has
 * been sent" is "until the period ends". A harmful flow held at {@code W_c} thus gets at most
 * {@code W_c / T}: the rate {@code R} of Eq. (4).
 *
 * <h2>States</h2>
 * <ul>
 * <li>{@code IDLE}: no congestion; nothing is held, nothing counted.</li>
 * <li>{@code MEASURING}: congestion was detected ({@link #onCongestion}); for one window nothing is
 *     held and the harmful bytes that pass are counted. This is the estimate of §3.4: "The W_nc and
 *     W are estimated by the corresponding data amount sent in a time period from a given start when
 *     a congestion detected". At the end of the first window with harmful bytes {@code H > 0}:
 *     {@code W_c0 = H}, {@code W_c = W_c0 x (1 - F_b G_d)} (Eq. (4)-(5)) with the latest
 *     {@code F_b}, {@code W_nc = W - W_c} (Eq. (6)), and the window goes {@code CONTROLLING}. A
 *     window without harmful bytes measures again.</li>
 * <li>{@code CONTROLLING}: a harmful packet may pass only while the harmful bytes of the current
 *     window are below {@code W_c} ("Once the amount of data that congestion flow has been sent
 *     reaches its window limit W_c, it cannot continue to send until the whole window W has been
 *     sent"); the last packet let through may overshoot {@code W_c} by less than one frame. Every
 *     further congestion event recomputes {@code W_c = W_c0 x (1 - F_b G_d)} from the estimate (or,
 *     with compounding, {@code W_c <- W_c x (1 - F_b G_d)}).</li>
 * </ul>
 * {@link #quit} returns to {@code IDLE} ("Once the congestion state disappears, the window-based
 * congestion control will quit"). With the default {@code G_d} ({@link RcmConfig#GD_AUTO}) Eq. (5) is
 * computed exactly in integers ({@link CongestionMath#decreasedWindowBytesAutoGd}).
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; simulation thread only.
 */
final class RccWindow {
    /** State: no congestion control. */
    static final int IDLE = 0;
    /** State: first window after detection, counting harmful bytes. */
    static final int MEASURING = 1;
    /** State: harmful flows limited to {@code W_c} per window. */
    static final int CONTROLLING = 2;

    private final long windowBytes;
    private final long periodPs;
    private final double gd;
    private final int fbMaxQuantised;
    private final boolean compound;
    private int state = IDLE;
    private int fbQuantised;
    private long windowStartPs;
    private long passedBytes;
    private long harmfulBytes;
    private long estimateBytes;
    private long wcBytes;

    /**
     * @param windowBytes    {@code W}, bytes, {@code > 0}
     * @param periodPs       {@code T}, ps, {@code > 0}
     * @param gd             {@code G_d} per quantised unit of {@code F_b}, or {@link RcmConfig#GD_AUTO}
     * @param fbMaxQuantised {@code F_bmax} quantised (used with {@link RcmConfig#GD_AUTO})
     * @param compound       whether Eq. (5) compounds at every event ({@link RcmConfig#compoundWindowDecrease})
     */
    RccWindow(final long windowBytes, final long periodPs, final double gd, final int fbMaxQuantised,
              final boolean compound) {
        this.windowBytes = windowBytes;
        this.periodPs = periodPs;
        this.gd = gd;
        this.fbMaxQuantised = fbMaxQuantised;
        this.compound = compound;
    }

    /**
     * A congestion event for this output (local output congestion with its {@code F_b}, or a CN
     * received with {@code F_br}): starts measuring when idle, else applies Eq. (4)-(6).
     *
     * @param fbQuantised the degree, quantised, {@code >= 0}
     * @param nowPs       now, ps
     */
    void onCongestion(final int fbQuantised, final long nowPs) {
        this.fbQuantised = fbQuantised;
        if (state == IDLE) {
            state = MEASURING;
            windowStartPs = nowPs;
            passedBytes = 0;
            harmfulBytes = 0;
        } else if (state == CONTROLLING) {
            wcBytes = decrease(compound ? wcBytes : estimateBytes, fbQuantised);
        }
    }

    /**
     * W_c after a decrease (the RCM paper Eq. 4, 5), at least 1 byte: a W_c of 0 would hold harmful
     * flows for good (nothing drains, so congestion never clears and RCC never quits); with 1 byte
     * one harmful packet still passes per window.
     */
    private long decrease(final long bytes, final int fb) {
        return Math.max(1, gd == RcmConfig.GD_AUTO ? CongestionMath.decreasedWindowBytesAutoGd(bytes, fb, fbMaxQuantised)
            : CongestionMath.decreasedWindowBytes(bytes, fb, gd));
    }

    /** Congestion has cleared: back to {@code IDLE}. */
    void quit() {
        state = IDLE;
        passedBytes = 0;
        harmfulBytes = 0;
    }

    /**
     * May a harmful packet pass now? Moves to the current window first.
     *
     * @param nowPs now, ps
     * @return true unless {@code CONTROLLING} with {@code W_c} used up in this window
     */
    boolean allowsHarmful(final long nowPs) {
        if (state == IDLE) {
            return true;
        }
        advance(nowPs);
        return state != CONTROLLING || harmfulBytes < wcBytes;
    }

    /**
     * A packet passed the output scheduler: counts it in the current window.
     *
     * @param bytes   frame bytes
     * @param harmful whether the packet belongs to a harmful flow
     * @param nowPs   now, ps
     */
    void onPassed(final int bytes, final boolean harmful, final long nowPs) {
        if (state == IDLE) {
            return;
        }
        advance(nowPs);
        passedBytes += bytes;
        if (harmful) {
            harmfulBytes += bytes;
        }
    }

    /** Ends the window (and any idle windows after it) if its period is over. */
    private void advance(final long nowPs) {
        final long elapsed = nowPs - windowStartPs;
        if (elapsed < periodPs) {
            return;
        }
        if (state == MEASURING && harmfulBytes > 0) {
            estimateBytes = harmfulBytes;
            wcBytes = decrease(estimateBytes, fbQuantised);
            state = CONTROLLING;
        }
        windowStartPs += elapsed / periodPs * periodPs;
        passedBytes = 0;
        harmfulBytes = 0;
    }

    /**
     * Is the window controlling now? Moves to the current window first, so a measuring window whose
     * period has ended becomes {@code CONTROLLING} here rather than at the next packet.
     *
     * @param nowPs now, ps
     * @return true if {@code CONTROLLING}
     */
    boolean controlling(final long nowPs) {
        if (state == IDLE) {
            return false;
        }
        advance(nowPs);
        return state == CONTROLLING;
    }

    /** @return {@link #IDLE}, {@link #MEASURING} or {@link #CONTROLLING} */
    int state() {
        return state;
    }

    /** @return {@code W}, bytes */
    long windowBytes() {
        return windowBytes;
    }

    /** @return {@code W_c}, bytes (meaningful when {@code CONTROLLING}) */
    long wcBytes() {
        return wcBytes;
    }

    /** @return {@code W_nc = W - W_c}, bytes (Eq. (6)) */
    long wncBytes() {
        return CongestionMath.nonCongestedWindowBytes(windowBytes, wcBytes);
    }

    /** @return {@code W_c0}: harmful bytes measured in the first window after detection */
    long estimateBytes() {
        return estimateBytes;
    }

    /** @return bytes passed in the current window */
    long passedBytes() {
        return passedBytes;
    }

    /** @return harmful bytes passed in the current window */
    long harmfulBytes() {
        return harmfulBytes;
    }

    /** @return when the current window's period ends, ps */
    long windowEndPs() {
        return windowStartPs + periodPs;
    }
}
