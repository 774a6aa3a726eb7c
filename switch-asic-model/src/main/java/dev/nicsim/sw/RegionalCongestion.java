package dev.nicsim.sw;

import dev.nicsim.sim.CounterLayout;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

/**
 * Regional congestion mitigation (RCM, the RCM paper §3) of one {@link SwitchAsic}: the hooks the
 * switch's packet path calls, wired to the paper's mechanisms, each a class of its own:
 * <ul>
 * <li>{@link RegionDetection}: congestion region detection (CRD, §3.2), the input and output
 *     congestion points, the CNs received and the regional congestion degree;</li>
 * <li>{@link CongestionNotifier}: the CNs a congested input sends upstream (§3.2);</li>
 * <li>{@link FlowRecognition}: congestion flow recognition (CFR, §3.3), which flows are harmful,
 *     from the switch's {@link CongestionCam} or the CN held, with the optional latched set;</li>
 * <li>{@link RegionalControl}: window-based regional congestion control (RCC, §3.4) and the gate
 *     of the input-output-queued output scheduler;</li>
 * <li>{@link AdaptiveRouting}: switch-level adaptive routing (SAR, §3.4).</li>
 * </ul>
 * Built only when {@link RcmConfig#anyEnabled()}; each mechanism's own flag then decides whether it
 * acts. This class never sees a packet it does not own except through the hooks.
 *
 * <h2>Counters</h2>
 * Component {@code <switch>/port<P>/rcm}, registered per port in this order: {@code rcm_cn_sent}
 * (CNs sent upstream through port P), {@code rcm_cn_received} (CNs arrived on P),
 * {@code rcm_flows_recognised} (CAM writes of an ID not in the queue's CAM, on P's output queues),
 * {@code rcm_held_bytes} (bytes of packets RCC held back at least once on their way to P),
 * {@code rcm_flows_detoured} (flows SAR moved away from P). One {@code long[]} of
 * {@code ports x RCM_ROW} cells, registered as one block with a layout shared by the run's switches.
 *
 * <p>Allocation-free after construction and port connection. Thread-safety: not thread-safe;
 * simulation thread only.
 */
final class RegionalCongestion {
    /** {@link #gate}: hold the packet in its VOQ. */
    static final int GATE_HOLD = 0;
    /** {@link #gate}: the packet may pass; it is not harmful (or RCC is idle). */
    static final int GATE_PASS = 1;
    /** {@link #gate}: the packet may pass; it is harmful and counts towards {@code W_c}. */
    static final int GATE_PASS_HARMFUL = 2;

    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** Cells per port of the RCM counters (one {@code long[]}, {@code [port x RCM_ROW + RCM_*]}). */
    static final int RCM_ROW = 5;
    /** Cell: {@code rcm_cn_sent}. */
    static final int RCM_CN_SENT = 0;
    /** Cell: {@code rcm_cn_received}. */
    static final int RCM_CN_RECEIVED = 1;
    /** Cell: {@code rcm_flows_recognised}. */
    static final int RCM_FLOWS_RECOGNISED = 2;
    /** Cell: {@code rcm_held_bytes}. */
    static final int RCM_HELD_BYTES = 3;
    /** Cell: {@code rcm_flows_detoured}. */
    static final int RCM_FLOWS_DETOURED = 4;
    private static final String[] RCM_NAMES = {"rcm_cn_sent", "rcm_cn_received", "rcm_flows_recognised",
        "rcm_held_bytes", "rcm_flows_detoured"};

    private final Simulator sim;
    private final RegionDetection crd;
    private final CongestionDetector input;
    private final CongestionDetector output;
    private final CongestionNotifier notifier;
    private final FlowRecognition cfr;
    private final RegionalControl rcc;
    private final AdaptiveRouting sar;

    /**
     * @param owner    the switch
     * @param sim      simulator
     * @param pool     packet pool CN frames come from
     * @param name     switch name (counter components)
     * @param numPorts ports of the switch
     * @param c        validated RCM configuration (read now; later changes have no effect)
     * @param cam      the switch's CAM (read only)
     * @param ports    the switch's ports array (shared; filled as ports connect)
     * @param counters registry for the RCM counters
     */
    RegionalCongestion(final SwitchAsic owner, final Simulator sim, final PacketPool pool, final String name,
                       final int numPorts, final RcmConfig c, final CongestionCam cam,
                       final SwitchPort[] ports, final CounterRegistry counters) {
        this.sim = sim;
        final long[] rcmStats = new long[numPorts * RCM_ROW];
        counters.register(name, counters.shared("switch-rcm/" + numPorts, () -> layout(numPorts)), rcmStats, 0);
        final int queues = numPorts * PRIORITIES;
        this.crd = new RegionDetection(sim, queues, c, rcmStats);
        this.input = crd.input();
        this.output = crd.output();
        this.cfr = new FlowRecognition(queues, c, cam, crd, rcmStats);
        this.notifier = new CongestionNotifier(sim, pool, ports, c, crd, cfr, rcmStats);
        this.rcc = new RegionalControl(owner, sim, ports, c, crd, cfr, rcmStats);
        this.sar = new AdaptiveRouting(sim, ports, c, crd, cfr, rcmStats);
    }

    /**
     * The names of the RCM counters of a switch, in the order of the class comment.
     *
     * @param numPorts ports, {@code >= 1}
     * @return the layout over {@code [port x RCM_ROW + RCM_*]}
     */
    static CounterLayout layout(final int numPorts) {
        final CounterLayout.Builder b = CounterLayout.builder(numPorts * RCM_ROW);
        for (int p = 0; p < numPorts; p++) {
            final String comp = "/port" + p + "/rcm";
            for (int k = 0; k < RCM_ROW; k++) {
                b.row(comp, RCM_NAMES[k], p * RCM_ROW + k);
            }
        }
        return b.build();
    }

    /**
     * A port was connected: records whether CNs go to its peer and builds its RCC windows
     * ({@code W = rate x T / 8}). Set-up only.
     *
     * @param port           port number
     * @param rateBitsPerSec the port's link rate
     * @param notify         whether the peer is a switch that takes CNs
     */
    void onPortConnected(final int port, final long rateBitsPerSec, final boolean notify) {
        notifier.setNotifyNeighbour(port, notify);
        rcc.onPortConnected(port, rateBitsPerSec);
    }

    /**
     * @param port   port number
     * @param notify whether CNs are sent to the port's peer
     */
    void setNotifyNeighbour(final int port, final boolean notify) {
        notifier.setNotifyNeighbour(port, notify);
    }

    // ---------------------------------------------------------------- hooks of the packet path

    /**
     * A CN arrived on a port (from the downstream neighbour): CRD stores it
     * ({@link RegionDetection#onNotification}) and its degree is a congestion event for RCC. The
     * caller releases the frame.
     *
     * @param cn     the frame ({@link Packet#KIND_RCM_CN})
     * @param inPort port it arrived on
     */
    void onNotification(final Packet cn, final int inPort) {
        final int q = crd.onNotification(cn, inPort);
        if (q >= 0) {
            rcc.onRemoteCongestion(q, cn.rcmFb, sim.nowPs());
        }
    }

    /**
     * A packet of a flow is forwarded from {@code inPort} to {@code out} ({@link RegionDetection#onForward}).
     *
     * @param out      output port
     * @param priority priority
     * @param key      the flow's key
     * @param inPort   ingress port
     */
    void onForward(final int out, final int priority, final int key, final int inPort) {
        crd.onForward(out, priority, key, inPort);
    }

    /**
     * A packet joined an input queue: samples it (Eq. (1)) and sends a CN upstream at a congested
     * sample.
     *
     * @param inPort         input port
     * @param priority       priority
     * @param bytes          frame bytes
     * @param occupancyBytes the input queue's bytes with the packet
     */
    void onInputArrival(final int inPort, final int priority, final int bytes, final long occupancyBytes) {
        if (!crd.enabled() || !crd.watched(priority)) {
            return;
        }
        final int idx = inPort * PRIORITIES + priority;
        if (input.onArrival(idx, bytes, occupancyBytes) && input.congested(idx)) {
            notifier.send(inPort, priority);
        }
    }

    /**
     * An input queue drained empty: its congestion is over.
     *
     * @param inPort   input port
     * @param priority priority
     */
    void onInputDrained(final int inPort, final int priority) {
        input.clear(inPort * PRIORITIES + priority);
    }

    /**
     * A packet entered an output queue (output-queued: at arrival; input-output-queued: when it
     * passed the output scheduler from its VOQ): counts it in the RCC window and samples the queue;
     * a congested sample is a congestion event for RCC, a non-congested one may end RCC.
     *
     * @param out         output port
     * @param priority    priority
     * @param p           the packet
     * @param gateResult  {@link #GATE_PASS} or {@link #GATE_PASS_HARMFUL}
     * @param wasHeld     whether RCC held the packet back before
     * @param depthBytes  the output queue's bytes with the packet
     */
    void onOutputEnqueue(final int out, final int priority, final Packet p, final int gateResult, final boolean wasHeld,
                         final long depthBytes) {
        if (!crd.enabled() || !crd.watched(priority)) {
            return;
        }
        final long now = sim.nowPs();
        final int q = out * PRIORITIES + priority;
        rcc.onPassed(q, out, p.frameBytes, gateResult == GATE_PASS_HARMFUL, wasHeld, now);
        if (output.onArrival(q, p.frameBytes, depthBytes)) {
            rcc.onOutputSample(q, now);
        }
    }

    /**
     * An output queue (and, input-output-queued, every VOQ feeding it) drained empty: its
     * congestion is over; RCC quits unless a valid CN holds the port.
     *
     * @param out      output port
     * @param priority priority
     */
    void onOutputDrained(final int out, final int priority) {
        final int q = out * PRIORITIES + priority;
        output.clear(q);
        rcc.onOutputDrained(q, sim.nowPs());
    }

    /**
     * The CAM of an output queue is about to store a flow's ID ({@link FlowRecognition#onCamWrite}).
     *
     * @param q         queue index
     * @param alreadyIn whether the ID is among the queue's valid CAM entries
     */
    void onCamWrite(final int q, final boolean alreadyIn) {
        cfr.onCamWrite(q, alreadyIn);
    }

    /**
     * The output scheduler asks whether a VOQ's head packet may enter the output queue now
     * ({@link RegionalControl#gate}).
     *
     * @param out      output port
     * @param priority priority
     * @param head     the packet
     * @return {@link #GATE_HOLD}, {@link #GATE_PASS} or {@link #GATE_PASS_HARMFUL}
     */
    int gate(final int out, final int priority, final Packet head) {
        return rcc.gate(out, priority, head);
    }

    /**
     * Switch-level adaptive routing ({@link AdaptiveRouting#route}).
     *
     * @param key      the flow's key
     * @param priority the packet's priority
     * @param group    the ECMP group of the destination
     * @param ecmpOut  the port ECMP chose
     * @return the port to use
     */
    int adaptiveRoute(final int key, final int priority, final int[] group, final int ecmpOut) {
        return sar.route(key, priority, group, ecmpOut);
    }

    // ---------------------------------------------------------------- views

    /**
     * @param q     queue index
     * @param key   flow key
     * @param nowPs now
     * @return whether the flow is harmful at the output queue ({@link FlowRecognition#isHarmful})
     */
    boolean isHarmful(final int q, final int key, final long nowPs) {
        return cfr.isHarmful(q, key, nowPs);
    }

    /**
     * @param q     queue index
     * @param nowPs now
     * @return the output's regional congestion degree ({@link RegionDetection#regionalDegree})
     */
    int regionalDegree(final int q, final long nowPs) {
        return crd.regionalDegree(q, nowPs);
    }

    /**
     * @param q queue index
     * @return the port's role at the priority
     */
    CongestionRole role(final int q) {
        return crd.role(q);
    }

    /**
     * @param out      output port
     * @param priority priority
     * @return the RCC window of the output queue, or null (RCC off, priority not watched, port unconnected)
     */
    RccWindow window(final int out, final int priority) {
        return rcc.window(out, priority);
    }

    /**
     * @param q queue index
     * @return flows in the queue's latched harmful set, or -1 when none is latched (or latching is off)
     */
    int latchedFlowCount(final int q) {
        return cfr.latchedFlowCount(q);
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. latchedFlowCount(q) - 1}
     * @return the i-th latched harmful flow key
     */
    int latchedFlowKey(final int q, final int i) {
        return cfr.latchedFlowKey(q, i);
    }
}
