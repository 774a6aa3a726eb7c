package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * Congestion region detection (CRD, the RCM paper §3.2) of one {@link SwitchAsic}: the local and
 * remote congestion state of every port at every priority ({@code q = port x 8 + priority}).
 * <ul>
 * <li>Input congestion points ({@link #input()}): {@code F_b} of the input queue (the PG's bytes in
 *     the output-queued switch, the bytes of all the input's VOQs at that priority in the
 *     input-output-queued switch), sampled at arrivals (Eq. (1), {@link CongestionDetector}).</li>
 * <li>Output congestion points ({@link #output()}): {@code F_b} of the output queue, sampled at the
 *     packets entering it.</li>
 * <li>Remote state: the last CN received on the port (from the downstream neighbour the port's
 *     output leads to): {@code F_br}, its harmful flow IDs, the ingress port each ID was last seen
 *     arriving on ({@link #onForward}; -1 until seen), and the time it stops being valid
 *     ({@link RcmConfig#notificationLifetimePs} after arrival).</li>
 * </ul>
 * The local flag of a port is "input congested or output congested", the remote flag "a valid CN",
 * giving its {@link CongestionRole}. The regional congestion degree of an output (Eq. (2)) is
 * {@code (1 - w) F_b + w F_br} with its own quantised {@code F_b} while congested (else 0) and the
 * {@code F_br} of a valid CN; without a valid CN it is the local degree.
 *
 * <p>Counter: {@code rcm_cn_received} per port. Allocation-free after construction. Thread-safety:
 * not thread-safe; simulation thread only.
 */
final class RegionDetection {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    private static final int MAX_IDS = Packet.RCM_MAX_FLOW_IDS;

    private final Simulator sim;
    private final boolean enabled;
    private final int priorityMask;
    private final double w;
    private final long lifetimePs;
    private final CongestionDetector input;
    private final CongestionDetector output;
    private final long[] remoteExpiryPs;
    private final int[] remoteFb;
    private final int[] remoteCount;
    private final int[] remoteKeys;      // [q * MAX_IDS + i]
    private final int[] remoteIngress;   // [q * MAX_IDS + i]
    private final int[] scratchKeys = new int[MAX_IDS];
    private final int[] scratchIngress = new int[MAX_IDS];
    /** The switch's RCM counters, {@code [port x RCM_ROW + RCM_*]} ({@link RegionalCongestion}). */
    private final long[] rcmStats;

    /**
     * @param sim        simulator
     * @param queues     {@code ports x 8}
     * @param c          validated RCM configuration
     * @param rcmStats  the switch's RCM counters ({@code rcm_cn_received} at {@code [port x RCM_ROW + RCM_CN_RECEIVED]})
     */
    RegionDetection(final Simulator sim, final int queues, final RcmConfig c, final long[] rcmStats) {
        this.sim = sim;
        this.enabled = c.detection;
        this.priorityMask = c.priorityMask;
        this.w = c.w;
        this.lifetimePs = c.notificationLifetimePs;
        this.input = new CongestionDetector(queues, c);
        this.output = new CongestionDetector(queues, c);
        this.remoteExpiryPs = new long[queues];
        this.remoteFb = new int[queues];
        this.remoteCount = new int[queues];
        this.remoteKeys = new int[queues * MAX_IDS];
        this.remoteIngress = new int[queues * MAX_IDS];
        this.rcmStats = rcmStats;
    }

    /** @return whether detection is on ({@link RcmConfig#detection}) */
    boolean enabled() {
        return enabled;
    }

    /**
     * @param priority 0..7
     * @return whether RCM watches the priority ({@link RcmConfig#priorityMask})
     */
    boolean watched(final int priority) {
        return (priorityMask & (1 << priority)) != 0;
    }

    /**
     * @param q     queue index
     * @param nowPs now
     * @return whether the port holds a valid CN at the priority
     */
    boolean remoteValid(final int q, final long nowPs) {
        return remoteExpiryPs[q] > nowPs;
    }

    /**
     * A CN arrived on a port (from the downstream neighbour): counts it and, with detection on and
     * a watched priority, sets the port's remote flag for the CN's priority, stores {@code F_br} and
     * replaces the harmful IDs (keeping the learned ingress of IDs it already had).
     *
     * @param cn     the frame ({@link Packet#KIND_RCM_CN}; not released here)
     * @param inPort port it arrived on
     * @return the queue index the CN was stored for, or -1 if it was ignored
     */
    int onNotification(final Packet cn, final int inPort) {
        rcmStats[inPort * RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_CN_RECEIVED]++;
        final int g = cn.rcmPriority;
        if (!enabled || g < 0 || g >= PRIORITIES || !watched(g)) {
            return -1;
        }
        final long now = sim.nowPs();
        final int q = inPort * PRIORITIES + g;
        final int base = q * MAX_IDS;
        final int oldCount = remoteValid(q, now) ? remoteCount[q] : 0;
        System.arraycopy(remoteKeys, base, scratchKeys, 0, oldCount);
        System.arraycopy(remoteIngress, base, scratchIngress, 0, oldCount);
        final int n = Math.min(cn.rcmFlowCount, MAX_IDS);
        for (int i = 0; i < n; i++) {
            final int key = cn.rcmFlowIds[i];
            int ingress = -1;
            for (int j = 0; j < oldCount; j++) {
                if (scratchKeys[j] == key) {
                    ingress = scratchIngress[j];
                    break;
                }
            }
            remoteKeys[base + i] = key;
            remoteIngress[base + i] = ingress;
        }
        remoteCount[q] = n;
        remoteFb[q] = cn.rcmFb;
        remoteExpiryPs[q] = now + lifetimePs;
        return q;
    }

    /**
     * A packet of a flow is forwarded from {@code inPort} to {@code out}: if the output holds a valid
     * CN naming the flow, remembers the ingress port for the CNs this switch sends upstream.
     *
     * @param out      output port
     * @param priority priority
     * @param key      the flow's key
     * @param inPort   ingress port
     */
    void onForward(final int out, final int priority, final int key, final int inPort) {
        final int q = out * PRIORITIES + priority;
        final int n = remoteCount[q];
        if (n == 0 || !remoteValid(q, sim.nowPs())) {
            return;
        }
        final int base = q * MAX_IDS;
        for (int i = 0; i < n; i++) {
            if (remoteKeys[base + i] == key) {
                remoteIngress[base + i] = inPort;
                return;
            }
        }
    }

    /**
     * Regional congestion degree of an output (Eq. (2) when a valid CN is held).
     *
     * @param q     queue index
     * @param nowPs now
     * @return quantised degree, 0 when neither congested nor notified
     */
    int regionalDegree(final int q, final long nowPs) {
        final int local = output.congested(q) ? output.fbQuantised(q) : 0;
        return remoteValid(q, nowPs) ? CongestionMath.regionalFb(local, remoteFb[q], w) : local;
    }

    /**
     * @param q queue index
     * @return the port's role at the priority
     */
    CongestionRole role(final int q) {
        return CongestionRole.of(input.congested(q) || output.congested(q), remoteValid(q, sim.nowPs()));
    }

    /** @return the input queues' congestion points */
    CongestionDetector input() {
        return input;
    }

    /** @return the output queues' congestion points */
    CongestionDetector output() {
        return output;
    }

    /**
     * @param q queue index
     * @return {@code F_br} of the last CN stored (valid or not)
     */
    int remoteFb(final int q) {
        return remoteFb[q];
    }

    /**
     * @param q queue index
     * @return harmful IDs of the last CN stored (valid or not)
     */
    int remoteCount(final int q) {
        return remoteCount[q];
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. remoteCount(q) - 1}
     * @return the i-th harmful ID of the CN
     */
    int remoteKey(final int q, final int i) {
        return remoteKeys[q * MAX_IDS + i];
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. remoteCount(q) - 1}
     * @return the ingress port the i-th ID was last seen arriving on, or -1
     */
    int remoteIngress(final int q, final int i) {
        return remoteIngress[q * MAX_IDS + i];
    }

    /**
     * @param q   queue index
     * @param key flow key
     * @return whether the key is among the IDs of the last CN stored (the caller checks validity)
     */
    boolean remoteNames(final int q, final int key) {
        return CongestionCam.holds(remoteKeys, q * MAX_IDS, remoteCount[q], key);
    }
}
