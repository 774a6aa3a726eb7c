package dev.nicsim.sw;

/**
 * Parameters of regional congestion mitigation (RCM, the RCM paper §3) for one {@link SwitchAsic}, held
 * in {@link SwitchConfig#rcm}. The four mechanisms are switched separately and are all off by
 * default; with all four off the switch behaves exactly as without RCM (no RCM state is built, no
 * RCM counter is registered, no RCM frame is sent).
 *
 * <ul>
 * <li>{@link #detection} — congestion region detection, CRD (§3.2): a QCN-like congestion point on
 *     every input queue and output queue of the priorities in {@link #priorityMask}, computing
 *     {@code F_b = Q_off + w_q x Q_delta} (Eq. (1)) at sampled arrivals; local and remote congestion
 *     flags per port and priority; congestion notifications (CN, {@link CongestionNotification}) to
 *     the upstream neighbour switch with {@code F_b' = (1 - w) F_b + w F_br} (Eq. (2)).</li>
 * <li>{@link #flowRecognition} — congestion flow recognition, CFR (§3.3): the per-output-queue
 *     cyclic CAM ({@link SwitchConfig#camDepth}, {@link SwitchConfig#camSamplePeriod},
 *     {@link SwitchConfig#camCongestedBytes}) names the harmful flows; edge and inner points take the
 *     root's flow IDs from the CN. Off: no flow is told apart, every flow of a congested queue counts
 *     as harmful and CNs carry no flow ID.</li>
 * <li>{@link #regionalControl} — regional congestion control, RCC (§3.4, Eq. (3)-(6)): a window per
 *     output queue that holds harmful flows back once {@code W_c} of the window {@code W} is used.
 *     Needs {@link SwitchConfig.Queueing#INPUT_OUTPUT_QUEUED} (harmful packets wait in their virtual
 *     output queues while the output serves the other inputs) and {@link #detection}.</li>
 * <li>{@link #adaptiveRouting} — switch-level adaptive routing, SAR (§3.4): a flow that misses the
 *     CAM moves to the equal-cost port with the lowest regional congestion degree. Needs
 *     {@link #detection} and {@link #flowRecognition}.</li>
 * </ul>
 *
 * <p>Defaults: the paper gives no value for any of these parameters (§4.1 only fixes 100 KB
 * queues and 100 Gb/s links); the defaults below are this model's choices, stated with their
 * reason. Thread-safety: plain mutable bean; configure on one thread before building switches.
 */
public final class RcmConfig implements Cloneable {
    /** {@link #gd} value: derive {@code G_d = 1 / (2 x F_bmax)} from the quantisation (Eq. (4)). */
    public static final double GD_AUTO = 0.0;

    /** CRD (§3.2) on. Default false. */
    public boolean detection = false;
    /** CFR (§3.3) on. Default false. */
    public boolean flowRecognition = false;
    /** RCC (§3.4) on; needs {@link #detection} and input-output queueing. Default false. */
    public boolean regionalControl = false;
    /** SAR (§3.4) on; needs {@link #detection} and {@link #flowRecognition}. Default false. */
    public boolean adaptiveRouting = false;

    /**
     * Data priorities RCM watches and acts on (bit i = priority i), 1..0xFF; must not include
     * {@link #notificationPriority}. Default {@code 0x7F} (every priority but 7, which carries CNs).
     */
    public int priorityMask = 0x7F;

    /**
     * {@code w_q} of Eq. (1): weight of the queue growth {@code Q_delta}, finite, {@code >= 0}.
     * Default 2, QCN's {@code w} (the spec's CP follows QCN, §3.2).
     */
    public double wq = 2.0;

    /**
     * {@code Q_eq} of Eq. (1): equilibrium queue length, bytes, {@code > 0}. Default 20 000 bytes
     * (20 % of the 100 KB queues of §4.1; 1.6 us of line time at 100 Gb/s).
     */
    public long qEqBytes = 20_000;

    /**
     * Quantisation of {@code F_b} carried in a CN: {@code F_b} in {@code (0, F_bmax]} bytes maps to
     * {@code 1..2^fbBits - 1}, where {@code F_bmax = Q_eq x (1 + 2 w_q)} (QCN's cap). 1..16. Default 6
     * (QCN's 6-bit {@code Fb}).
     */
    public int fbBits = 6;

    /**
     * {@code w} of Eq. (2): weight of the downstream neighbour's degree {@code F_br}, in [0, 1].
     * Default 0.5 (equal weight; the paper gives none).
     */
    public double w = 0.5;

    /**
     * {@code G_d} of Eq. (4)-(5), per quantised unit of {@code F_b}: {@link #GD_AUTO} (default) for
     * {@code 1 / (2 x (2^fbBits - 1))} so that {@code F_bmax x G_d = 1/2} as §3.4 requires; else
     * {@code > 0} with {@code (2^fbBits - 1) x G_d <= 1} (a decrease never exceeds 100 %).
     */
    public double gd = GD_AUTO;

    /**
     * Congestion-point sampling: bytes of arrivals between two samples of a queue while it is not
     * congested, {@code >= 64}. After a sample of quantised degree {@code F_b}, the next comes after
     * {@code sampleBytes / (1 + floor(F_b x 8 / 2^fbBits))} bytes: the interval shortens in 8 steps
     * down to 1/8 as congestion grows (§3.2 "a predefined sampling interval depending on the degree
     * of congestion"; QCN's sampling also speeds up about eightfold with {@code |Fb|}). Default
     * 15 000 bytes: 1.2 us of line time at 100 Gb/s, so a queue that builds at line rate is sampled
     * within about a microsecond (the paper gives no value).
     */
    public long sampleBytes = 15_000;

    /** 802.1p priority CNs are sent with, 0..7, not in {@link #priorityMask}. Default 7 (network control). */
    public int notificationPriority = 7;

    /**
     * How long a received CN keeps the remote congestion flag set (and its {@code F_br} and flow IDs
     * valid), ps, {@code > 0}. Default 10 us (several CN intervals: a congested input sends a CN at
     * least every {@link #sampleBytes} of arrivals).
     */
    public long notificationLifetimePs = 10_000_000;

    /**
     * RCC window period {@code T}, ps, {@code > 0}: windows are consecutive periods of {@code T} from
     * the detection of congestion, and the window {@code W} of Eq. (3) is the bytes the port's link
     * carries in {@code T} ({@code W = rate x T / 8}); harmful flows pass at most {@code W_c} per
     * period (see {@link RccWindow}). Default 2 us (25 000 bytes at 100 Gb/s).
     */
    public long windowPeriodPs = 2_000_000;

    /**
     * RCC Eq. (5) literally compounding: false (default) computes {@code W_c = W_c0 x (1 - F_b G_d)}
     * from the estimate {@code W_c0} measured when congestion was detected, at every congestion
     * event; true multiplies the current {@code W_c} again at every event.
     */
    public boolean compoundWindowDecrease = false;

    /**
     * CFR: a flow counts as harmful at a root congestion point when at least this many of its
     * output queue's CAM entries hold its ID, 1..{@link SwitchConfig#camDepth}. Default 1 (the
     * spec: "the flows whose IDs are being stored in the CAM").
     */
    public int harmfulMinEntries = 1;

    /**
     * CFR with RCC: latch (freeze) the harmful set of an output queue for a congestion episode. When
     * the queue's RCC window starts controlling ({@link RccWindow}), the flows that count as harmful
     * at a root point at that moment (at least {@link #harmfulMinEntries} CAM entries) become the
     * queue's harmful set until RCC quits (congestion cleared); later CAM writes do not change it.
     * If no flow qualifies at that moment, the set is latched at the first later gate where one
     * does. False: "harmful" is read from the live CAM at every decision. The latch follows the RCM paper
     * §3.2 "Once a RCP is reported, it starts congestion control (RCC) to the flows recognized by
     * CFR" and §3.4 "Once the congestion state disappears, the window-based congestion control will
     * quit": the flows recognised when control starts are the ones controlled until congestion
     * clears (with the live CAM a held flow, paced by PFC, loses CAM share and the harmful set flips
     * between flows within one episode). Default false nevertheless: when several equal flows share
     * the congested queue (the incast of the RCM paper's Fig. 7), the snapshot names whichever of them happened
     * to hold enough CAM entries at that instant and holds those for the whole episode, while the
     * others go free. Has no effect at edge and inner points, which take the received CN's IDs
     * (§3.2), nor without {@link #flowRecognition} and {@link #regionalControl}.
     */
    public boolean latchHarmfulSet = false;

    /** SAR: entries of the direct-mapped detour table (flow to port pinning), a power of two, 1..2^20. Default 4096. */
    public int detourTableEntries = 4096;

    /**
     * SAR: a detoured flow stays on its new port while its packets arrive less than this far apart,
     * ps, {@code > 0} (flowlet-style pinning, so a flow is not reordered back and forth). Default 20 us.
     */
    public long detourIdlePs = 20_000_000;

    /** Creates a configuration with every mechanism off and the documented defaults. */
    public RcmConfig() {
    }

    /** @return whether any of the four mechanisms is on */
    public boolean anyEnabled() {
        return detection || flowRecognition || regionalControl || adaptiveRouting;
    }

    /** @return the largest quantised {@code F_b}, {@code 2^fbBits - 1} */
    public int fbMaxQuantised() {
        return (1 << fbBits) - 1;
    }

    /** @return {@code G_d} per quantised unit: {@link #gd}, or {@code 1 / (2 x fbMaxQuantised())} for {@link #GD_AUTO} */
    public double effectiveGd() {
        return gd == GD_AUTO ? 1.0 / (2.0 * fbMaxQuantised()) : gd;
    }

    /**
     * Checks every field (also when all mechanisms are off, so a scenario's bad value is reported
     * early).
     *
     * @param queueing the switch's queueing mode (RCC needs input-output queueing)
     * @param camDepth the switch's CAM depth (CFR needs a CAM)
     * @return this, for chaining
     * @throws IllegalArgumentException with a one-line message naming the first bad field ({@code rcm.<field>})
     *                                  and what was expected
     */
    public RcmConfig validate(final SwitchConfig.Queueing queueing, final int camDepth) {
        if (priorityMask < 1 || priorityMask > 0xFF) {
            throw new IllegalArgumentException("rcm.priorityMask must be in 1..0xFF, got " + priorityMask);
        }
        if (notificationPriority < 0 || notificationPriority > 7) {
            throw new IllegalArgumentException("rcm.notificationPriority must be in 0..7, got " + notificationPriority);
        }
        if ((priorityMask & (1 << notificationPriority)) != 0) {
            throw new IllegalArgumentException("rcm.priorityMask must not include rcm.notificationPriority ("
                + notificationPriority + "), got 0x" + Integer.toHexString(priorityMask));
        }
        if (!(wq >= 0.0) || Double.isInfinite(wq)) {
            throw new IllegalArgumentException("rcm.wq must be a finite number >= 0, got " + wq);
        }
        if (qEqBytes <= 0) {
            throw new IllegalArgumentException("rcm.qEqBytes must be > 0, got " + qEqBytes);
        }
        if (fbBits < 1 || fbBits > 16) {
            throw new IllegalArgumentException("rcm.fbBits must be in 1..16, got " + fbBits);
        }
        if (!(w >= 0.0 && w <= 1.0)) {
            throw new IllegalArgumentException("rcm.w must be in [0, 1], got " + w);
        }
        if (gd != GD_AUTO && (!(gd > 0.0) || gd * fbMaxQuantised() > 1.0)) {
            throw new IllegalArgumentException("rcm.gd must be 0 (auto) or > 0 with (2^fbBits - 1) x gd <= 1 ("
                + fbMaxQuantised() + " x gd), got " + gd);
        }
        if (sampleBytes < 64) {
            throw new IllegalArgumentException("rcm.sampleBytes must be >= 64, got " + sampleBytes);
        }
        if (notificationLifetimePs <= 0) {
            throw new IllegalArgumentException("rcm.notificationLifetimePs must be > 0, got " + notificationLifetimePs);
        }
        if (windowPeriodPs <= 0) {
            throw new IllegalArgumentException("rcm.windowPeriodPs must be > 0, got " + windowPeriodPs);
        }
        if (harmfulMinEntries < 1 || (camDepth > 0 && harmfulMinEntries > camDepth)) {
            throw new IllegalArgumentException("rcm.harmfulMinEntries must be in 1..camDepth (" + camDepth + "), got "
                + harmfulMinEntries);
        }
        if (detourTableEntries < 1 || detourTableEntries > (1 << 20) || Integer.bitCount(detourTableEntries) != 1) {
            throw new IllegalArgumentException("rcm.detourTableEntries must be a power of two in 1..1048576, got "
                + detourTableEntries);
        }
        if (detourIdlePs <= 0) {
            throw new IllegalArgumentException("rcm.detourIdlePs must be > 0, got " + detourIdlePs);
        }
        if (flowRecognition && camDepth < 1) {
            throw new IllegalArgumentException("rcm.flowRecognition needs camDepth >= 1, got camDepth " + camDepth);
        }
        if (regionalControl && !detection) {
            throw new IllegalArgumentException("rcm.regionalControl needs rcm.detection = true (RCC reacts to detected congestion)");
        }
        if (regionalControl && queueing != SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED) {
            throw new IllegalArgumentException("rcm.regionalControl needs queueing = INPUT_OUTPUT_QUEUED, got " + queueing);
        }
        if (adaptiveRouting && !(detection && flowRecognition)) {
            throw new IllegalArgumentException(
                "rcm.adaptiveRouting needs rcm.detection and rcm.flowRecognition = true (SAR moves flows that miss the CAM)");
        }
        return this;
    }

    /**
     * A copy of this configuration.
     *
     * @return a new configuration equal to this one
     */
    public RcmConfig copy() {
        try {
            return (RcmConfig) super.clone(); // every field is a primitive: the shallow copy is whole
        } catch (final CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
