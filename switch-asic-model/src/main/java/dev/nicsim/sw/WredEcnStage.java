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

    /**
     * @param queues number of egress queues ({@code ports x 8})
     * @param rng    the switch's WRED stream
     */
    WredEcnStage(final int queues, final SplittableRandom rng) {
        this.profiles = new WredProfile[queues];
        this.rng = rng;
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
        if (profile != null) {
            if (profile.ecnEnabled() && p.isEcnCapable()) {
                return draw(profile.markProbability(depthBytes)) ? MARK : PASS;
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
