package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

/**
 * The sending side of congestion notification (the RCM paper §3.2: a congested input "send[s] a
 * feedback message" upstream) of one {@link SwitchAsic}. At every sample that finds an input queue
 * congested ({@code F_b > 0}), the input port sends a CN ({@link CongestionNotification}) to its
 * upstream neighbour, if that is a switch ({@link #setNotifyNeighbour}):
 * <ul>
 * <li>degree {@code F_b' = (1 - w) F_b + w F_br} (Eq. (2)) where {@code F_br} is the largest degree
 *     among the valid CNs held by outputs that flows from this input feed (an output whose CN IDs
 *     include a flow last seen arriving on this input, or whose CN carried no ID), or
 *     {@code F_b' = F_b} when there is none;</li>
 * <li>IDs: the harmful flows of congested or notified outputs at that priority that arrived on this
 *     input (CAM entries record their ingress port; CN IDs learn it from the packets forwarded), at
 *     most {@link Packet#RCM_MAX_FLOW_IDS}, in output-port order, each once; none with CFR off.</li>
 * </ul>
 * The CN joins the queue of {@link RcmConfig#notificationPriority} on the input port's egress side
 * (served by that port's scheduler like data, but holding no MMU buffer) and the transmitter is
 * kicked.
 *
 * <p>Counter: {@code rcm_cn_sent} per port. Allocation-free: CN frames come from the
 * {@link PacketPool}. Thread-safety: not thread-safe; simulation thread only.
 */
final class CongestionNotifier {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    private static final int MAX_IDS = Packet.RCM_MAX_FLOW_IDS;

    private final Simulator sim;
    private final PacketPool pool;
    private final SwitchPort[] ports;
    private final int numPorts;
    private final boolean cfr;
    private final int cnPriority;
    private final double w;
    private final RegionDetection crd;
    private final FlowRecognition recognition;
    private final boolean[] notifyNeighbour;
    /** The switch's RCM counters, {@code [port x RCM_ROW + RCM_*]} ({@link RegionalCongestion}). */
    private final long[] rcmStats;

    /**
     * @param sim         simulator
     * @param pool        packet pool CN frames come from
     * @param ports       the switch's ports (shared; filled as ports connect)
     * @param c           validated RCM configuration
     * @param crd         region detection (congestion points, CNs held)
     * @param recognition flow recognition (local harmful flows)
     * @param rcmStats     the switch's RCM counters ({@code rcm_cn_sent} at {@code [port x RCM_ROW + RCM_CN_SENT]})
     */
    CongestionNotifier(final Simulator sim, final PacketPool pool, final SwitchPort[] ports, final RcmConfig c,
                       final RegionDetection crd, final FlowRecognition recognition, final long[] rcmStats) {
        this.sim = sim;
        this.pool = pool;
        this.ports = ports;
        this.numPorts = ports.length;
        this.cfr = c.flowRecognition;
        this.cnPriority = c.notificationPriority;
        this.w = c.w;
        this.crd = crd;
        this.recognition = recognition;
        this.notifyNeighbour = new boolean[numPorts];
        this.rcmStats = rcmStats;
    }

    /**
     * @param port   port number
     * @param notify whether CNs are sent to the port's peer
     */
    void setNotifyNeighbour(final int port, final boolean notify) {
        notifyNeighbour[port] = notify;
    }

    /**
     * Sends a CN upstream through an input port (see the class comment); nothing if the port is
     * unconnected or its peer takes no CNs.
     *
     * @param inPort   the congested input port
     * @param priority its priority
     */
    void send(final int inPort, final int priority) {
        final SwitchPort up = ports[inPort];
        if (up == null || !notifyNeighbour[inPort]) {
            return;
        }
        final long now = sim.nowPs();
        final CongestionDetector output = crd.output();
        final Packet f = pool.acquire();
        int ids = 0;
        int fbr = -1;
        for (int o = 0; o < numPorts; o++) {
            final int q = o * PRIORITIES + priority;
            if (crd.remoteValid(q, now)) {
                final int n = crd.remoteCount(q);
                boolean feeds = n == 0;
                for (int i = 0; i < n; i++) {
                    if (crd.remoteIngress(q, i) == inPort) {
                        feeds = true;
                        if (cfr) {
                            ids = addId(f, ids, crd.remoteKey(q, i));
                        }
                    }
                }
                if (feeds && crd.remoteFb(q) > fbr) {
                    fbr = crd.remoteFb(q);
                }
            } else if (output.congested(q)) {
                ids = recognition.addLocalHarmfulIds(q, inPort, f, ids);
            }
        }
        final int fb = crd.input().fbQuantised(inPort * PRIORITIES + priority);
        f.kind = Packet.KIND_RCM_CN;
        f.priority = cnPriority;
        f.rcmPriority = priority;
        f.rcmFb = fbr >= 0 ? CongestionMath.regionalFb(fb, fbr, w) : fb;
        f.rcmFlowCount = ids;
        f.frameBytes = CongestionNotification.frameBytes(ids);
        f.enqueuePs = now;
        rcmStats[inPort * RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_CN_SENT]++;
        up.enqueue(f, cnPriority);
        up.kick();
    }

    /**
     * Appends a flow ID to a CN being built unless it is already there or the CN is full.
     *
     * @param f     the CN frame
     * @param count IDs in the frame
     * @param key   flow key
     * @return IDs in the frame now
     */
    static int addId(final Packet f, final int count, final int key) {
        if (count == MAX_IDS) {
            return count;
        }
        for (int i = 0; i < count; i++) {
            if (f.rcmFlowIds[i] == key) {
                return count;
            }
        }
        f.rcmFlowIds[count] = key;
        return count + 1;
    }
}
