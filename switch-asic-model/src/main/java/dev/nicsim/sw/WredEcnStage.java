package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

import java.util.SplittableRandom;

/**
 * WRED/ECN stage of the {@link SwitchAsic} pipeline, on the instantaneous depth {@code q} of the
 * egress queue (bytes queued before this packet; input-output queued: the output queue), with the
 * queue's {@link WredProfile} (the priority's profile from the configuration, or a per-queue
 * override):
 * <ul>
 * <li>ECT packets get a CE decision with probability {@code p(q)} (the LDCP draft §2.1);</li>
 * <li>Not-ECT packets are dropped iff {@code q >= K} (the LDCP draft §2.3, Eq. (3));</li>
 * <li>a profile without ECN drops any packet with probability {@code p(q)}.</li>
 * </ul>
 * <b>Lossless priorities never WRED-drop</b>: PFC already keeps their queues bounded and a drop
 * there would defeat losslessness, so on a PFC-enabled priority the profile only marks ECT packets
 * (DCQCN's use, "Understanding DCQCN"). Random draws come from
 * {@code RngStreams.stream(seed, "switch/" + name + "/wred")}, one draw per decision with
 * {@code 0 < p(q) < 1}, none otherwise. The mark is only applied once the packet is admitted.
 *
 * <p>With ECN at dequeue ({@link SwitchConfig#ecnAtDequeue}, uet-htsim's rule) ECT packets get no mark
 * decision at arrival; instead {@link #onDequeue} decides as a data packet leaves its queue to start
 * serialisation, with {@code p(q)} on the queue's depth after the packet's removal (uet-htsim: mark
 * above Kmax, with probability {@code (q - Kmin)/(Kmax - Kmin)} between, the profile's rule with
 * Pmax = 1; at {@code q = Kmax} both give 1). Not-ECT packets keep the arrival rules. With trimming on
 * ({@link SwitchConfig#trimmingEnabled}) a packet that arrives already trimmed gets no decision (it goes
 * to the header queue), and headers are never marked at dequeue.
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; simulation thread only.
 */
final class WredEcnStage {
    /** {@link #decide}: no mark, no drop. */
    static final int PASS = 0;
    /** {@link #decide}: mark CE if admitted. */
    static final int MARK = 1;
    /** {@link #decide}: WRED drop. */
    static final int DROP = 2;

    private final WredProfile[] profiles;   // [port * 8 + priority]
    private final SplittableRandom rng;
    private final boolean atDequeue;
    private final boolean trimming;

    /**
     * A stage that marks at arrival, without trimming.
     *
     * @param queues number of egress queues ({@code ports x 8})
     * @param rng    the switch's WRED stream
     */
    WredEcnStage(final int queues, final SplittableRandom rng) {
        this(queues, rng, false, false);
    }

    /**
     * A stage with the switch's ECN placement ({@link SwitchConfig#ecnAtDequeue}) and trimming
     * ({@link SwitchConfig#trimmingEnabled}: trimmed arrivals pass).
     *
     * @param queues number of egress queues ({@code ports x 8})
     * @param rng    the switch's WRED stream
     * @param c      the switch's validated configuration
     */
    WredEcnStage(final int queues, final SplittableRandom rng, final SwitchConfig c) {
        this(queues, rng, c.ecnAtDequeue, c.trimmingEnabled);
    }

    private WredEcnStage(final int queues, final SplittableRandom rng, final boolean atDequeue, final boolean trimming) {
        this.profiles = new WredProfile[queues];
        this.rng = rng;
        this.atDequeue = atDequeue;
        this.trimming = trimming;
    }

    /**
     * ECN at dequeue (nothing when it is off): an ECN-capable data packet (not a trimmed header) that
     * starts serialisation from its priority's queue on {@code port} is marked CE
     * ({@code ecn_marked_packets}) with probability {@code p(q)} of the queue's profile (with ECN) on
     * the queue's depth left after its removal. One draw when {@code 0 < p < 1}.
     *
     * @param frame     the frame leaving its queue (already removed)
     * @param port      the egress port's number
     * @param egress    the egress port
     * @param stats     the switch's counters
     */
    void onDequeue(final Packet frame, final int port, final SwitchPort egress, final SwitchCounters stats) {
        if (!atDequeue || frame.kind != Packet.KIND_DATA || frame.trimmed || !frame.isEcnCapable()) {
            return;
        }
        final int q = port * SwitchConfig.PRIORITIES + frame.priority;
        final WredProfile profile = profiles[q];
        if (profile != null && profile.ecnEnabled() && draw(profile.markProbability(egress.depthBytes(frame.priority)))) {
            stats.markCe(frame, q);
        }
    }

    /**
     * @param q       queue index {@code port x 8 + priority}
     * @param profile the queue's profile, or null for none (no marking, no WRED drop)
     */
    void setProfile(final int q, final WredProfile profile) {
        profiles[q] = profile;
    }

    /**
     * @param q queue index
     * @return the queue's profile, or null
     */
    WredProfile profile(final int q) {
        return profiles[q];
    }

    /**
     * The WRED/ECN decision for a packet headed for queue {@code q}.
     *
     * @param p          the packet (read only)
     * @param q          queue index
     * @param depthBytes the queue's instantaneous depth before the packet, bytes
     * @param lossless   whether the priority is PFC-enabled
     * @return {@link #PASS}, {@link #MARK} or {@link #DROP}
     */
    int decide(final Packet p, final int q, final long depthBytes, final boolean lossless) {
        final WredProfile profile = profiles[q];
        if (trimming && p.trimmed) {
            return PASS;
        }
        if (profile != null) {
            if (profile.ecnEnabled() && p.isEcnCapable()) {
                return !atDequeue && draw(profile.markProbability(depthBytes)) ? MARK : PASS;
            } else if (!lossless) {
                final boolean drop = profile.ecnEnabled() ? profile.dropsNotEct(depthBytes)
                    : draw(profile.markProbability(depthBytes));
                if (drop) {
                    return DROP;
                }
            }
        }
        return PASS;
    }

    private boolean draw(final double probability) {
        if (probability <= 0.0) {
            return false;
        }
        if (probability >= 1.0) {
            return true;
        }
        return rng.nextDouble() < probability;
    }
}
