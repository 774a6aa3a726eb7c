package dev.nicsim.sw;

import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

/**
 * Regional congestion mitigation (RCM, spec 001 §3) of one {@link SwitchAsic}: the state and
 * decisions of congestion region detection (CRD, §3.2), congestion flow recognition (CFR, §3.3),
 * regional congestion control (RCC, §3.4) and switch-level adaptive routing (SAR, §3.4). The switch
 * calls the hooks below from its packet path; this class never sees a packet it does not own except
 * through those calls. Built only when {@link RcmConfig#anyEnabled()}.
 *
 * <h2>State, per port and priority ({@code q = port x 8 + priority})</h2>
 * <ul>
 * <li>Input congestion point: {@code F_b} of the input queue (the PG's bytes in the output-queued
 *     switch, the bytes of all the input's VOQs at that priority in the input-output-queued
 *     switch), sampled at arrivals.</li>
 * <li>Output congestion point: {@code F_b} of the output queue, sampled at the packets entering it.</li>
 * <li>Remote state: the last CN received on the port (from the downstream neighbour the port's
 *     output leads to): {@code F_br}, its harmful flow IDs, the ingress port each ID was last seen
 *     arriving on, and the time it stops being valid.</li>
 * <li>The RCC window of the output ({@link RccWindow}).</li>
 * </ul>
 * The local flag of a port is "input congested or output congested", the remote flag "a valid CN",
 * giving its {@link CongestionRole}.
 *
 * <h2>Harmful flows of an output queue</h2>
 * With CFR on: if the port holds a valid CN, the CN's IDs ("The harmful congestion flow IDs at the
 * edge and inner congestion points will be replaced by the ones getting from root congestion
 * point"); otherwise (root) the flows with at least {@link RcmConfig#harmfulMinEntries} entries in
 * the output queue's CAM. With CFR off every flow counts as harmful.
 *
 * <p>With {@link RcmConfig#latchHarmfulSet} (and CFR and RCC on), the root's set is latched per
 * output queue for a congestion episode: at the first {@link #gate} call that finds the queue's RCC
 * window {@code CONTROLLING} and the port holding no valid CN (a root point), the flows then meeting {@link RcmConfig#harmfulMinEntries} (with the
 * ingress port of their newest CAM entry) are copied, and until RCC quits that copy replaces the
 * live CAM both in the harmful test and in the IDs of the CNs this switch sends (spec 001 §3.2
 * "Once a RCP is reported, it starts congestion control (RCC) to the flows recognized by CFR";
 * §3.4 "Once the congestion state disappears, the window-based congestion control will quit"). An
 * empty copy is not latched: the next gate tries again.
 *
 * <h2>Congestion notifications (§3.2)</h2>
 * At every sample that finds an input queue congested ({@code F_b > 0}), the input port sends a CN
 * to its upstream neighbour (if that is a switch): degree {@code F_b' = (1 - w) F_b + w F_br}
 * (Eq. (2)) where {@code F_br} is the largest degree among the valid CNs held by outputs that
 * flows from this input feed (an output whose CN IDs include a flow last seen arriving on this
 * input, or whose CN carried no ID), or {@code F_b' = F_b} when there is none; IDs: the harmful
 * flows of congested or notified outputs at that priority that arrived on this input (CAM entries
 * record their ingress port; CN IDs learn it from the packets forwarded), at most
 * {@link Packet#RCM_MAX_FLOW_IDS}, in output-port order.
 *
 * <h2>RCC (§3.4)</h2>
 * Congestion events for an output queue: a sample finding it congested (with its {@code F_b}) and a
 * CN received on its port (with the CN's {@code F_br}); each goes to the queue's {@link RccWindow}.
 * The window quits when the output is no longer congested (a sample with {@code F_b <= 0}, or the
 * output and its VOQs drained) and holds no valid CN. The input-output-queued switch asks
 * {@link #gate} before moving a VOQ's head packet into the output queue: a harmful packet past
 * {@code W_c} stays in its VOQ (the output serves the other inputs), and a timer re-runs the output
 * scheduler when the window's period ends.
 *
 * <h2>SAR (§3.4)</h2>
 * {@link #adaptiveRoute}: when the ECMP-chosen port has a regional congestion degree above 0
 * ({@code (1 - w) F_b + w F_br} with the output's own quantised {@code F_b} while congested, else 0,
 * and {@code F_br} of a valid CN, else Eq. (2) is not applied) and the flow is not harmful there,
 * the flow moves to the member of its ECMP group with the lowest degree if that is strictly lower
 * (ties keep the ECMP port); the choice is pinned in a direct-mapped detour table while the flow's
 * packets keep arriving within {@link RcmConfig#detourIdlePs}. A harmful flow, a flow with a single
 * path, or a flow whose port is not congested never moves.
 *
 * <h2>Counters</h2>
 * Component {@code <switch>/port<P>/rcm}: {@code rcm_cn_sent} (CNs sent upstream through port P),
 * {@code rcm_cn_received} (CNs arrived on P), {@code rcm_flows_recognised} (CAM writes of an ID not
 * in the queue's CAM, on P's output queues), {@code rcm_held_bytes} (bytes of packets RCC held back
 * at least once on their way to P), {@code rcm_flows_detoured} (flows SAR moved away from P).
 *
 * <p>Allocation-free after construction and port connection. Thread-safety: not thread-safe;
 * simulation thread only.
 */
final class RegionalCongestion implements EventHandler {
    /** {@link #gate}: hold the packet in its VOQ. */
    static final int GATE_HOLD = 0;
    /** {@link #gate}: the packet may pass; it is not harmful (or RCC is idle). */
    static final int GATE_PASS = 1;
    /** {@link #gate}: the packet may pass; it is harmful and counts towards {@code W_c}. */
    static final int GATE_PASS_HARMFUL = 2;

    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    private static final int MAX_IDS = Packet.RCM_MAX_FLOW_IDS;

    private final SwitchAsic owner;
    private final Simulator sim;
    private final PacketPool pool;
    private final int numPorts;
    private final boolean detection;
    private final boolean cfr;
    private final boolean rcc;
    private final boolean sar;
    private final int priorityMask;
    private final int cnPriority;
    private final double w;
    private final double gd;
    private final long lifetimePs;
    private final long windowPeriodPs;
    private final boolean compound;
    private final int harmfulMin;
    private final int fbMaxQuantised;
    private final boolean latch;

    private final CongestionCam cam;
    private final int camDepth;
    private final SwitchPort[] ports;

    private final CongestionDetector input;
    private final CongestionDetector output;
    private final boolean[] notifyNeighbour;
    private final long[] remoteExpiryPs;
    private final int[] remoteFb;
    private final int[] remoteCount;
    private final int[] remoteKeys;
    private final int[] remoteIngress;
    private final RccWindow[] windows;
    private final boolean[] timerPending;
    /** Latched harmful flows per queue ({@code [q x camDepth + i]}), their ingress, and count (-1: not latched). */
    private final int[] latchedKeys;
    private final int[] latchedIngress;
    private final int[] latchedCount;

    private final int detourMask;
    private final long detourIdlePs;
    private final int[] detourKey;
    private final int[] detourPort;
    private final long[] detourExpiryPs;

    private final int[] scratchKeys = new int[MAX_IDS];
    private final int[] scratchIngress = new int[MAX_IDS];

    private final Counter[] cnSent;
    private final Counter[] cnReceived;
    private final Counter[] flowsRecognised;
    private final Counter[] heldBytes;
    private final Counter[] flowsDetoured;

    /**
     * @param owner      the switch
     * @param sim        simulator
     * @param pool       packet pool CN frames come from
     * @param name       switch name (counter components)
     * @param numPorts   ports of the switch
     * @param c          validated RCM configuration (read now; later changes have no effect)
     * @param cam        the switch's CAM (read only)
     * @param ports      the switch's ports array (shared; filled as ports connect)
     * @param counters   registry for the RCM counters
     */
    RegionalCongestion(final SwitchAsic owner, final Simulator sim, final PacketPool pool, final String name,
                       final int numPorts, final RcmConfig c, final CongestionCam cam,
                       final SwitchPort[] ports, final CounterRegistry counters) {
        this.owner = owner;
        this.sim = sim;
        this.pool = pool;
        this.numPorts = numPorts;
        this.detection = c.detection;
        this.cfr = c.flowRecognition;
        this.rcc = c.regionalControl;
        this.sar = c.adaptiveRouting;
        this.priorityMask = c.priorityMask;
        this.cnPriority = c.notificationPriority;
        this.w = c.w;
        this.gd = c.gd;
        this.lifetimePs = c.notificationLifetimePs;
        this.windowPeriodPs = c.windowPeriodPs;
        this.compound = c.compoundWindowDecrease;
        this.harmfulMin = c.harmfulMinEntries;
        this.fbMaxQuantised = c.fbMaxQuantised();
        this.latch = c.latchHarmfulSet && cfr && rcc;
        this.cam = cam;
        this.camDepth = cam.depth();
        this.ports = ports;
        final int queues = numPorts * PRIORITIES;
        this.input = new CongestionDetector(queues, c);
        this.output = new CongestionDetector(queues, c);
        this.notifyNeighbour = new boolean[numPorts];
        this.remoteExpiryPs = new long[queues];
        this.remoteFb = new int[queues];
        this.remoteCount = new int[queues];
        this.remoteKeys = new int[queues * MAX_IDS];
        this.remoteIngress = new int[queues * MAX_IDS];
        this.windows = new RccWindow[queues];
        this.timerPending = new boolean[queues];
        final int latchSlots = latch ? queues * camDepth : 0;
        this.latchedKeys = new int[latchSlots];
        this.latchedIngress = new int[latchSlots];
        this.latchedCount = new int[latch ? queues : 0];
        java.util.Arrays.fill(latchedCount, -1);
        this.detourMask = c.detourTableEntries - 1;
        this.detourIdlePs = c.detourIdlePs;
        final int tableSize = sar ? c.detourTableEntries : 1;
        this.detourKey = new int[tableSize];
        this.detourPort = new int[tableSize];
        this.detourExpiryPs = new long[tableSize];
        this.cnSent = new Counter[numPorts];
        this.cnReceived = new Counter[numPorts];
        this.flowsRecognised = new Counter[numPorts];
        this.heldBytes = new Counter[numPorts];
        this.flowsDetoured = new Counter[numPorts];
        for (int p = 0; p < numPorts; p++) {
            final String comp = name + "/port" + p + "/rcm";
            cnSent[p] = counters.counter(comp, "rcm_cn_sent");
            cnReceived[p] = counters.counter(comp, "rcm_cn_received");
            flowsRecognised[p] = counters.counter(comp, "rcm_flows_recognised");
            heldBytes[p] = counters.counter(comp, "rcm_held_bytes");
            flowsDetoured[p] = counters.counter(comp, "rcm_flows_detoured");
        }
    }

    /**
     * A port was connected: builds its RCC windows ({@code W = rate x T / 8}) and records whether
     * CNs go to its peer. Set-up only.
     *
     * @param port           port number
     * @param rateBitsPerSec the port's link rate
     * @param notify         whether the peer is a switch that takes CNs
     */
    void onPortConnected(final int port, final long rateBitsPerSec, final boolean notify) {
        notifyNeighbour[port] = notify;
        if (rcc) {
            final long wBytes = CongestionMath.windowBytes(rateBitsPerSec, windowPeriodPs);
            for (int g = 0; g < PRIORITIES; g++) {
                if (watched(g)) {
                    windows[port * PRIORITIES + g] = new RccWindow(wBytes, windowPeriodPs, gd, fbMaxQuantised, compound);
                }
            }
        }
    }

    /**
     * @param port port number
     * @param notify whether CNs are sent to the port's peer
     */
    void setNotifyNeighbour(final int port, final boolean notify) {
        notifyNeighbour[port] = notify;
    }

    /**
     * @param port port number
     * @return whether CNs are sent to the port's peer
     */
    boolean notifyNeighbour(final int port) {
        return notifyNeighbour[port];
    }

    private boolean watched(final int priority) {
        return (priorityMask & (1 << priority)) != 0;
    }

    private boolean remoteValid(final int q, final long nowPs) {
        return remoteExpiryPs[q] > nowPs;
    }

    // ---------------------------------------------------------------- CRD: notifications received

    /**
     * A CN arrived on a port (from the downstream neighbour): sets the port's remote flag for the
     * CN's priority, stores {@code F_br} and replaces the harmful IDs (keeping the learned ingress
     * of IDs it already had), and passes the degree to RCC. The caller releases the frame.
     *
     * @param cn     the frame ({@link Packet#KIND_RCM_CN})
     * @param inPort port it arrived on
     */
    void onNotification(final Packet cn, final int inPort) {
        cnReceived[inPort].increment();
        final int g = cn.rcmPriority;
        if (!detection || g < 0 || g >= PRIORITIES || !watched(g)) {
            return;
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
        if (rcc && windows[q] != null) {
            windows[q].onCongestion(cn.rcmFb, now);
        }
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

    // ---------------------------------------------------------------- CRD: congestion points

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
        if (!detection || !watched(priority)) {
            return;
        }
        final int idx = inPort * PRIORITIES + priority;
        if (input.onArrival(idx, bytes, occupancyBytes) && input.congested(idx)) {
            sendNotification(inPort, priority);
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
        if (!detection || !watched(priority)) {
            return;
        }
        final long now = sim.nowPs();
        final int q = out * PRIORITIES + priority;
        final RccWindow win = windows[q];
        if (win != null) {
            win.onPassed(p.frameBytes, gateResult == GATE_PASS_HARMFUL, now);
            if (wasHeld) {
                heldBytes[out].add(p.frameBytes);
            }
        }
        if (output.onArrival(q, p.frameBytes, depthBytes) && win != null) {
            if (output.congested(q)) {
                win.onCongestion(output.fbQuantised(q), now);
            } else if (!remoteValid(q, now)) {
                quit(q, win);
            }
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
        final RccWindow win = windows[q];
        if (win != null && !remoteValid(q, sim.nowPs())) {
            quit(q, win);
        }
    }

    // ---------------------------------------------------------------- CFR

    /**
     * The CAM of an output queue is about to store a flow's ID: counts a recognition when the ID
     * is new to the CAM.
     *
     * @param q          queue index
     * @param alreadyIn  whether the ID is among the queue's valid CAM entries
     */
    void onCamWrite(final int q, final boolean alreadyIn) {
        if (cfr && !alreadyIn) {
            flowsRecognised[q / PRIORITIES].increment();
        }
    }

    /**
     * Is a flow harmful at an output queue (see the class comment)?
     *
     * @param q     queue index
     * @param key   flow key
     * @param nowPs now
     * @return true if harmful
     */
    boolean isHarmful(final int q, final int key, final long nowPs) {
        if (!cfr) {
            return true;
        }
        if (remoteValid(q, nowPs)) {
            final int base = q * MAX_IDS;
            final int n = remoteCount[q];
            for (int i = 0; i < n; i++) {
                if (remoteKeys[base + i] == key) {
                    return true;
                }
            }
            return false;
        }
        if (latch && latchedCount[q] >= 0) {
            final int base = q * camDepth;
            final int n = latchedCount[q];
            for (int i = 0; i < n; i++) {
                if (latchedKeys[base + i] == key) {
                    return true;
                }
            }
            return false;
        }
        return cam.count(q, key) >= harmfulMin;
    }

    /**
     * Copies the flows of queue {@code q}'s CAM with at least {@link RcmConfig#harmfulMinEntries}
     * entries (each once, with the ingress port of its newest entry) into the queue's latched set;
     * leaves the queue unlatched when none qualifies. Allocation-free.
     */
    private void latchHarmfulSet(final int q) {
        final int base = q * camDepth;
        final int n = cam.validEntries(q);
        int count = 0;
        for (int i = 0; i < n; i++) {
            final int key = cam.key(q, i);
            if (cam.count(q, key) < harmfulMin) {
                continue;
            }
            int j = 0;
            while (j < count && latchedKeys[base + j] != key) {
                j++;
            }
            if (j == count) {
                latchedKeys[base + count] = key;
                latchedIngress[base + count] = cam.ingress(q, cam.newestEntry(q, key));
                count++;
            }
        }
        if (count > 0) {
            latchedCount[q] = count;
        }
    }

    /** RCC of queue {@code q} quits: the window goes idle and the latched harmful set is released. */
    private void quit(final int q, final RccWindow win) {
        win.quit();
        if (latch) {
            latchedCount[q] = -1;
        }
    }

    /**
     * @param q queue index
     * @return flows in the queue's latched harmful set, or -1 when none is latched (or latching is off)
     */
    int latchedFlowCount(final int q) {
        return latch ? latchedCount[q] : -1;
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. latchedFlowCount(q) - 1}
     * @return the i-th latched harmful flow key
     */
    int latchedFlowKey(final int q, final int i) {
        return latchedKeys[q * camDepth + i];
    }

    // ---------------------------------------------------------------- CN sending

    private void sendNotification(final int inPort, final int priority) {
        final SwitchPort up = ports[inPort];
        if (up == null || !notifyNeighbour[inPort]) {
            return;
        }
        final long now = sim.nowPs();
        final Packet f = pool.acquire();
        int ids = 0;
        int fbr = -1;
        for (int o = 0; o < numPorts; o++) {
            final int q = o * PRIORITIES + priority;
            if (remoteValid(q, now)) {
                final int base = q * MAX_IDS;
                final int n = remoteCount[q];
                boolean feeds = n == 0;
                for (int i = 0; i < n; i++) {
                    if (remoteIngress[base + i] == inPort) {
                        feeds = true;
                        if (cfr) {
                            ids = addId(f, ids, remoteKeys[base + i]);
                        }
                    }
                }
                if (feeds && remoteFb[q] > fbr) {
                    fbr = remoteFb[q];
                }
            } else if (latch && output.congested(q) && latchedCount[q] >= 0) {
                final int base = q * camDepth;
                final int n = latchedCount[q];
                for (int i = 0; i < n; i++) {
                    if (latchedIngress[base + i] == inPort) {
                        ids = addId(f, ids, latchedKeys[base + i]);
                    }
                }
            } else if (cfr && output.congested(q)) {
                final int n = cam.validEntries(q);
                for (int i = 0; i < n; i++) {
                    if (cam.ingress(q, i) == inPort && cam.count(q, cam.key(q, i)) >= harmfulMin) {
                        ids = addId(f, ids, cam.key(q, i));
                    }
                }
            }
        }
        final int fb = input.fbQuantised(inPort * PRIORITIES + priority);
        f.kind = Packet.KIND_RCM_CN;
        f.priority = cnPriority;
        f.rcmPriority = priority;
        f.rcmFb = fbr >= 0 ? CongestionMath.regionalFb(fb, fbr, w) : fb;
        f.rcmFlowCount = ids;
        f.frameBytes = CongestionNotification.frameBytes(ids);
        f.enqueuePs = now;
        cnSent[inPort].increment();
        up.enqueue(f, cnPriority);
        up.kick();
    }

    private static int addId(final Packet f, final int count, final int key) {
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

    // ---------------------------------------------------------------- RCC

    /**
     * The output scheduler asks whether a VOQ's head packet may enter the output queue now. Quits
     * the window first if the output's congestion has cleared.
     *
     * @param out      output port
     * @param priority priority
     * @param head     the packet
     * @return {@link #GATE_HOLD}, {@link #GATE_PASS} or {@link #GATE_PASS_HARMFUL}
     */
    int gate(final int out, final int priority, final Packet head) {
        final int q = out * PRIORITIES + priority;
        final RccWindow win = windows[q];
        if (win == null || win.state() == RccWindow.IDLE) {
            return GATE_PASS;
        }
        final long now = sim.nowPs();
        if (!output.congested(q) && !remoteValid(q, now)) {
            quit(q, win);
            return GATE_PASS;
        }
        if (latch && latchedCount[q] < 0 && !remoteValid(q, now) && win.controlling(now)) {
            latchHarmfulSet(q);
        }
        if (!isHarmful(q, SwitchAsic.flowKey(head), now)) {
            return GATE_PASS;
        }
        if (win.allowsHarmful(now)) {
            return GATE_PASS_HARMFUL;
        }
        if (!timerPending[q]) {
            timerPending[q] = true;
            final long at = Math.max(now, win.windowEndPs());
            sim.schedule(at, this, 0, q, null);
        }
        return GATE_HOLD;
    }

    /** Window timer: the period of a window holding harmful packets ended; run the output scheduler again. */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        final int q = (int) arg;
        timerPending[q] = false;
        final int out = q / PRIORITIES;
        owner.transferToOutput(out, q % PRIORITIES);
        ports[out].kick();
    }

    /**
     * @param out      output port
     * @param priority priority
     * @return the RCC window of the output queue, or null (RCC off, priority not watched, port unconnected)
     */
    RccWindow window(final int out, final int priority) {
        return windows[out * PRIORITIES + priority];
    }

    // ---------------------------------------------------------------- SAR

    /**
     * Switch-level adaptive routing (see the class comment).
     *
     * @param key      the flow's key
     * @param priority the packet's priority
     * @param group    the ECMP group of the destination
     * @param ecmpOut  the port ECMP chose
     * @return the port to use
     */
    int adaptiveRoute(final int key, final int priority, final int[] group, final int ecmpOut) {
        if (!sar || group.length < 2 || !watched(priority)) {
            return ecmpOut;
        }
        final long now = sim.nowPs();
        final int slot = key & detourMask;
        if (detourExpiryPs[slot] > now && detourKey[slot] == key) {
            final int pinned = detourPort[slot];
            for (final int m : group) {
                if (m == pinned) { // a 32-bit key collision across destinations must not misroute
                    detourExpiryPs[slot] = now + detourIdlePs;
                    return pinned;
                }
            }
        }
        final int q = ecmpOut * PRIORITIES + priority;
        final int current = regionalDegree(q, now);
        if (current == 0 || isHarmful(q, key, now)) {
            return ecmpOut;
        }
        int best = ecmpOut;
        int bestDegree = current;
        for (final int m : group) {
            if (ports[m] == null) {
                continue;
            }
            final int d = regionalDegree(m * PRIORITIES + priority, now);
            if (d < bestDegree) {
                best = m;
                bestDegree = d;
            }
        }
        if (best != ecmpOut) {
            detourKey[slot] = key;
            detourPort[slot] = best;
            detourExpiryPs[slot] = now + detourIdlePs;
            flowsDetoured[ecmpOut].increment();
        }
        return best;
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

    // ---------------------------------------------------------------- views

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
     * @return {@code F_br} of the valid CN held, or -1
     */
    int remoteDegree(final int q) {
        return remoteValid(q, sim.nowPs()) ? remoteFb[q] : -1;
    }

    /**
     * @param q queue index
     * @return harmful IDs of the valid CN held (0 if none)
     */
    int remoteFlowCount(final int q) {
        return remoteValid(q, sim.nowPs()) ? remoteCount[q] : 0;
    }

    /**
     * @param q queue index
     * @param i entry
     * @return the i-th harmful ID of the CN held
     */
    int remoteFlowKey(final int q, final int i) {
        return remoteKeys[q * MAX_IDS + i];
    }
}
