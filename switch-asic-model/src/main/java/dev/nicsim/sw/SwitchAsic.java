package dev.nicsim.sw;

import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Behavioural model of a switch ASIC (ARCHITECTURE "Switch ASIC"), shared-buffer output-queued or
 * input-and-output-queued ({@link SwitchConfig#queueing}): ports x 8 priorities, an MMU with ingress (PG) accounting for PFC and egress (queue) accounting for
 * ECN and drops, WRED/ECN on the instantaneous queue (spec 000 §2.1, §2.3 Eq. (3); spec 004),
 * PFC xoff/xon with headroom (spec 004), strict priority + DWRR scheduling, ECMP by 5-tuple hash
 * and CAM congestion-flow recognition per egress queue (spec 001 §3.3), and optionally regional
 * congestion mitigation (spec 001 §3.2-3.4).
 *
 * <h2>A packet's way through {@link #receive}</h2>
 * <ol>
 * <li>PFC frames ({@link Packet#KIND_PFC}) pause/resume this switch's egress port on the link they
 *     came from ({@link EgressPort#applyPause}) and are released to the pool.</li>
 * <li>Classification: {@code priority = dscpToPriority[dscp]} (written to {@link Packet#priority});
 *     {@link Packet#ingressPort} is set.</li>
 * <li>Routing: the ECMP group of {@code dstHost}; member {@code mix(flowKey ^ salt) mod n} where the
 *     salt comes from {@code RngStreams.stream(seed, "switch/" + name + "/ecmp")}, so switches hash
 *     differently. Unknown destinations (or an unconnected egress port) are dropped and counted
 *     {@code no_route_drops}.</li>
 * <li>WRED/ECN with the egress queue's profile (the priority's profile from the configuration, or
 *     a per-queue override, {@link #setWredProfile}) on its instantaneous depth {@code q} (bytes
 *     queued before this packet): ECT packets get a CE decision with probability {@code p(q)};
 *     Not-ECT packets are dropped iff {@code q >= K} (Eq. (3)); a profile without ECN drops any
 *     packet with probability {@code p(q)}. <b>Lossless priorities never WRED-drop</b>: PFC already keeps their
 *     queues bounded and a drop there would defeat losslessness, so on a PFC-enabled priority the
 *     profile only marks ECT packets (DCQCN's use, spec 004). Random draws come from
 *     {@code RngStreams.stream(seed, "switch/" + name + "/wred")}, one draw per ECT packet with
 *     {@code 0 < p(q) < 1}.</li>
 * <li>Admission (bytes = {@link Packet#frameBytes}):
 *   <ul>
 *   <li>lossy priority: tail drop ({@code tail_drops}) if the shared pool cannot take the packet or
 *       {@code q + bytes} exceeds the queue limit (static {@code queueLimitBytes[prio]} or dynamic
 *       {@code egressAlpha x free shared});</li>
 *   <li>PFC-enabled priority: into the shared pool while the PG's shared part stays within xoff
 *       (static {@code xoffBytes[pg]} or dynamic {@code pfcAlpha x free shared}) and the pool has
 *       room; otherwise into the (ingress port, PG) headroom; dropped ({@code headroom_drops}) only
 *       when the headroom is exhausted. Lossless queues have no egress limit.</li>
 *   </ul></li>
 * <li>Enqueue: the CE mark is applied ({@code ecn_marked_packets}), the CAM may sample the flow, and
 *     if the PG now holds at least xoff bytes (or any headroom bytes) an XOFF is sent.</li>
 * </ol>
 * The buffer of a frame is freed when it starts serialisation on its egress port, headroom bytes of
 * its PG first (as the HPCC ns-3 MMU does); then an XON is sent if the PG has no headroom bytes and
 * holds at most xon bytes (dynamic: {@code PG == 0 || PG + pfcXonOffsetBytes <= pfcAlpha x free}).
 *
 * <h2>PFC frames</h2>
 * XOFF: {@link Packet#KIND_PFC}, class-enable bit of the PG, quanta {@code 0xFFFF}, 64 bytes, sent
 * to the upstream neighbour through this switch's egress port on the ingress link (ahead of data,
 * {@link EgressPort#sendControl}). While the PG stays in xoff the pause is refreshed every half
 * pause time ({@code 0xFFFF x 512} bit times at that link's rate / 2); at each refresh the xon
 * condition is re-checked (dynamic thresholds move as other PGs drain). XON: the same frame with
 * quanta 0. A PG whose ingress port is unconnected cannot send PFC.
 *
 * <h2>Counters</h2>
 * Registered in this order: {@code <name>}: {@code no_route_drops}; then for each port P and
 * priority i, component {@code <name>/port<P>/q<i>}: {@code enqueued_packets, dequeued_packets,
 * enqueued_bytes, ecn_marked_packets, wred_drops, tail_drops, headroom_drops, peak_depth_bytes,
 * pfc_pause_received}, and component {@code <name>/port<P>/pg<i>}: {@code pfc_xoff_sent (including
 * refreshes), pfc_xon_sent, peak_headroom_bytes}. {@code headroom_drops} is counted on the egress
 * queue the dropped packet was headed for.
 *
 * <h2>CAM (spec 001 §3.3)</h2>
 * Per egress queue a cyclic CAM of {@code camDepth} flow keys ({@link #flowKey}). A packet enqueued
 * while the queue is congested (depth at its arrival {@code >= camCongestedBytes}, default the
 * priority's WRED Kmin) counts towards sampling; every {@code camSamplePeriod}-th such packet
 * overwrites the oldest entry. When the queue drains empty its congestion episode is over and the
 * CAM's entries are invalidated (input-output queued: only when no VOQ holds a packet for the queue
 * either). Each entry also records the packet's ingress port (used by RCM to address CNs).
 * {@link #isCongestingFlow} asks whether a key is stored.
 *
 * <h2>Input-and-output queueing ({@link SwitchConfig.Queueing#INPUT_OUTPUT_QUEUED}, spec 001 §4.1)</h2>
 * Steps 1-4 are as above (the WRED/ECN decision uses the output queue's depth); then, instead of
 * the MMU, the packet joins the virtual output queue (input port, output port, priority) of
 * {@code voqBytes} (full: {@code tail_drops} on a lossy priority, {@code headroom_drops} on a lossless
 * one), PFC is checked on VOQ occupancy (XOFF when a VOQ of the PG reaches {@code voqBytes - headroom},
 * XON when every VOQ of the PG is at or below that minus {@code pfcXonOffsetBytes}), and the
 * output's scheduler ({@link #transferToOutput}) moves VOQ head packets into the output queue of
 * {@code outputQueueBytes}, round robin over the inputs, whenever the output queue has room: at
 * each arrival, each frame start on the port, and each RCC window end. The CAM writes at arrival
 * as above. {@code enqueued_*} count arrivals into VOQs, {@code peak_depth_bytes} the output queue;
 * component {@code <name>/port<P>/voq}: {@code peak_voq_bytes} (largest VOQ of input P).
 *
 * <h2>Regional congestion mitigation (spec 001 §3, {@link RcmConfig})</h2>
 * With any RCM mechanism on, a {@link RegionalCongestion} engine is built and the packet path calls
 * it: CNs ({@link Packet#KIND_RCM_CN}) received are handed to it and released; after ECMP, SAR may
 * replace the port; after enqueue, the output and input congestion points sample the queues (and a
 * congested input sends a CN upstream, queued at the notification priority on that port); in the
 * input-output-queued switch RCC gates each VOQ-to-output move. With every mechanism off none of
 * this runs, no RCM counter is registered, and the switch behaves exactly as without RCM.
 *
 * <p>The switch has no processing latency (store and forward, then the egress link) and never
 * allocates on the packet path: packets come from and return to the {@link PacketPool}, queues are
 * preallocated rings. Thread-safety: not thread-safe; simulation thread only.
 */
public final class SwitchAsic implements NetDevice {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** PFC pause quanta sent with an XOFF (the maximum, IEEE 802.1Qbb). */
    static final int XOFF_QUANTA = 0xFFFF;

    private final Simulator sim;
    private final String name;
    private final int numPorts;
    private final PacketPool pool;
    private final SplittableRandom wredRng;
    private final long ecmpSalt;

    private final long bufferBytes;
    private final int[] dscpToPriority;
    private final boolean[] pfcEnabled;
    private final boolean pfcDynamic;
    private final double pfcAlpha;
    private final long pfcXonOffsetBytes;
    private final long[] xoffBytes;
    private final long[] xonBytes;
    private final long[] headroomConfigBytes;
    private final int maxFrameBytes;
    private final WredProfile[] wred;           // [port * 8 + priority]
    private final long camCongestedBytes;
    private final boolean egressDynamic;
    private final double egressAlpha;
    private final long[] queueLimitBytes;
    private final int strictPriorityMask;
    private final int[] dwrrQuantumBytes;
    private final int camDepth;
    private final int camSamplePeriod;
    private final long[] camThresholdBytes;     // [port * 8 + priority]

    private final SwitchPort[] ports;
    private int[][] routes = new int[0][];

    // MMU, indexed [port * 8 + pg]
    private long headroomReservedBytes;
    private long sharedPoolBytes;
    private long sharedUsedBytes;
    private final long[] pgSharedBytes;
    private final long[] pgHeadroomBytes;
    private final long[] pgHeadroomLimitBytes;
    private final boolean[] xoffActive;
    private final int[] xoffGeneration;
    private final long[] refreshIntervalPs;
    private final EventHandler pfcRefresh = new PfcRefresh();

    // CAM, queue index = port * 8 + priority
    private final int[] camKeys;
    private final int[] camIngress;
    private final int[] camNext;
    private final int[] camValid;
    private final int[] camCountdown;

    private final Counter noRouteDrops;
    /**
     * The per-queue counters, row {@code q * QS_ROW} for queue {@code q = port * 8 + priority}, cells
     * {@code QS_*}: a queue's counters sit side by side, so an enqueue and a dequeue touch one cache
     * line of counters instead of one {@link Counter} object each. {@code counters.csv} reads them
     * through {@link Counter} views of the cells.
     */
    private final long[] queueStats;
    private static final int QS_ROW = 8;
    private static final int QS_ENQUEUED_PACKETS = 0;
    private static final int QS_ENQUEUED_BYTES = 1;
    private static final int QS_PEAK_DEPTH = 2;
    private static final int QS_DEQUEUED_PACKETS = 3;
    private static final int QS_ECN_MARKED = 4;
    private static final int QS_WRED_DROPS = 5;
    private static final int QS_TAIL_DROPS = 6;
    private static final int QS_HEADROOM_DROPS = 7;
    private final Counter[] pauseReceived;
    private final Counter[] xoffSent;
    private final Counter[] xonSent;
    private final Counter[] peakHeadroom;

    // input-output queueing (null / unused when output-queued)
    private final boolean ioq;
    private final long voqLimitBytes;
    private final long oqLimitBytes;
    private final VoqBuffer voqs;
    private final long[] voqXoffBytes;          // [port * 8 + pg]
    private final long[] voqXonBytes;           // [port * 8 + pg]
    private final int[] voqsAboveXon;           // [port * 8 + pg]: VOQs of the PG holding more than xon bytes
    private final Counter[] peakVoq;            // per input port

    /** Regional congestion mitigation (spec 001 §3), or null when every mechanism is off. */
    private final RegionalCongestion rcm;

    private long peakQueueBytes;
    private long totalCeMarked;
    private long totalDrops;
    private long totalPauseFramesSent;

    /**
     * Builds a switch with unconnected ports.
     *
     * @param sim      simulator
     * @param name     stable name, used in counters and RNG stream ids (e.g. {@code leaf0})
     * @param numPorts number of ports, {@code >= 1}
     * @param config   configuration; validated and copied (later changes have no effect)
     * @param counters registry the counters are allocated in
     * @param pool     packet pool (PFC frames are taken from it, dropped packets returned)
     * @param seed     scenario seed for the WRED and ECMP streams
     * @throws IllegalArgumentException if {@code numPorts < 1}, the name is empty, the config is
     *                                  invalid (message names the field), or RCM is on and the
     *                                  pool's packets have no room for RCM flow IDs
     */
    public SwitchAsic(final Simulator sim, final String name, final int numPorts, final SwitchConfig config,
                      final CounterRegistry counters, final PacketPool pool, final long seed) {
        if (numPorts < 1) {
            throw new IllegalArgumentException("numPorts must be >= 1, got " + numPorts);
        }
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name must be a non-empty string");
        }
        final SwitchConfig c = config.copy().validate();
        this.sim = sim;
        this.name = name;
        this.numPorts = numPorts;
        this.pool = pool;
        this.wredRng = RngStreams.stream(seed, "switch/" + name + "/wred");
        this.ecmpSalt = RngStreams.stream(seed, "switch/" + name + "/ecmp").nextLong();

        this.bufferBytes = c.bufferBytes;
        this.dscpToPriority = c.dscpToPriority;
        this.pfcEnabled = c.pfcEnabled;
        this.pfcDynamic = c.pfcThresholdMode == SwitchConfig.ThresholdMode.DYNAMIC;
        this.pfcAlpha = c.pfcAlpha;
        this.pfcXonOffsetBytes = c.pfcXonOffsetBytes;
        this.xoffBytes = c.xoffBytes;
        this.xonBytes = c.xonBytes;
        this.headroomConfigBytes = c.headroomBytes;
        this.maxFrameBytes = c.maxFrameBytes;
        final int queues = numPorts * PRIORITIES;
        this.wred = new WredProfile[queues];
        this.camCongestedBytes = c.camCongestedBytes;
        this.camThresholdBytes = new long[queues];
        this.egressDynamic = c.egressThresholdMode == SwitchConfig.ThresholdMode.DYNAMIC;
        this.egressAlpha = c.egressAlpha;
        this.queueLimitBytes = c.queueLimitBytes;
        this.strictPriorityMask = c.strictPriorityMask;
        this.dwrrQuantumBytes = c.dwrrQuantumBytes;
        this.camDepth = c.camDepth;
        this.camSamplePeriod = c.camSamplePeriod;
        for (int q = 0; q < queues; q++) {
            setQueueProfile(q, c.wredProfiles[q % PRIORITIES]);
        }

        this.ports = new SwitchPort[numPorts];
        this.sharedPoolBytes = bufferBytes;
        this.pgSharedBytes = new long[queues];
        this.pgHeadroomBytes = new long[queues];
        this.pgHeadroomLimitBytes = new long[queues];
        this.xoffActive = new boolean[queues];
        this.xoffGeneration = new int[queues];
        this.refreshIntervalPs = new long[numPorts];
        this.camKeys = new int[queues * camDepth];
        this.camIngress = new int[queues * camDepth];
        this.camNext = new int[queues];
        this.camValid = new int[queues];
        this.camCountdown = new int[queues];
        Arrays.fill(camCountdown, camSamplePeriod);

        this.noRouteDrops = counters.counter(name, "no_route_drops");
        this.queueStats = new long[queues * QS_ROW];
        this.pauseReceived = new Counter[queues];
        this.xoffSent = new Counter[queues];
        this.xonSent = new Counter[queues];
        this.peakHeadroom = new Counter[queues];
        for (int p = 0; p < numPorts; p++) {
            for (int g = 0; g < PRIORITIES; g++) {
                final int i = p * PRIORITIES + g;
                final String q = name + "/port" + p + "/q" + g;
                final int row = i * QS_ROW;
                counters.counter(q, "enqueued_packets", queueStats, row + QS_ENQUEUED_PACKETS);
                counters.counter(q, "dequeued_packets", queueStats, row + QS_DEQUEUED_PACKETS);
                counters.counter(q, "enqueued_bytes", queueStats, row + QS_ENQUEUED_BYTES);
                counters.counter(q, "ecn_marked_packets", queueStats, row + QS_ECN_MARKED);
                counters.counter(q, "wred_drops", queueStats, row + QS_WRED_DROPS);
                counters.counter(q, "tail_drops", queueStats, row + QS_TAIL_DROPS);
                counters.counter(q, "headroom_drops", queueStats, row + QS_HEADROOM_DROPS);
                counters.counter(q, "peak_depth_bytes", queueStats, row + QS_PEAK_DEPTH);
                pauseReceived[i] = counters.counter(q, "pfc_pause_received");
                final String pg = name + "/port" + p + "/pg" + g;
                xoffSent[i] = counters.counter(pg, "pfc_xoff_sent");
                xonSent[i] = counters.counter(pg, "pfc_xon_sent");
                peakHeadroom[i] = counters.counter(pg, "peak_headroom_bytes");
            }
        }

        this.ioq = c.queueing == SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        this.voqLimitBytes = c.voqBytes;
        this.oqLimitBytes = c.outputQueueBytes;
        if (ioq) {
            this.voqs = new VoqBuffer(numPorts);
            this.voqXoffBytes = new long[queues];
            this.voqXonBytes = new long[queues];
            this.voqsAboveXon = new int[queues];
            this.peakVoq = new Counter[numPorts];
            for (int p = 0; p < numPorts; p++) {
                peakVoq[p] = counters.counter(name + "/port" + p + "/voq", "peak_voq_bytes");
            }
        } else {
            this.voqs = null;
            this.voqXoffBytes = null;
            this.voqXonBytes = null;
            this.voqsAboveXon = null;
            this.peakVoq = null;
        }
        if (c.rcm.anyEnabled() && !pool.carriesRcmFlowIds()) {
            throw new IllegalArgumentException(name + ": regional congestion mitigation needs a packet pool whose packets carry RCM flow IDs");
        }
        this.rcm = c.rcm.anyEnabled()
            ? new RegionalCongestion(this, sim, pool, name, numPorts, c.rcm, camKeys, camIngress, camValid, camDepth, ports,
                counters)
            : null;
    }

    /**
     * Connects a port: creates its egress side (8 queues, scheduler) driving a link toward
     * {@code peer}, and reserves the port's headroom for every PFC-enabled PG (static
     * {@code headroomBytes[pg]}, or {@link SwitchConfig#requiredHeadroomBytes} of this link for
     * {@link SwitchConfig#HEADROOM_AUTO}) out of the shared pool. Set-up only.
     *
     * @param port            port number, 0..portCount()-1, not yet connected
     * @param rateBitsPerSec  link rate, bits/s, {@code > 0}
     * @param propagationPs   one-way propagation delay, ps, {@code >= 0}
     * @param peer            device at the other end
     * @param peerPort        the peer's port number the link arrives on
     * @throws IllegalArgumentException if the port is out of range or already connected, the peer is
     *                                  null, the link values are out of range, or the headroom
     *                                  reserved would leave no shared buffer
     */
    public void connectPort(final int port, final long rateBitsPerSec, final long propagationPs, final NetDevice peer,
                            final int peerPort) {
        checkPort(port);
        if (ports[port] != null) {
            throw new IllegalArgumentException("port " + port + " of " + name + " is already connected");
        }
        if (peer == null) {
            throw new IllegalArgumentException("peer of " + name + " port " + port + " must not be null");
        }
        final SwitchPort sp = new SwitchPort(sim, rateBitsPerSec, propagationPs, this, port, strictPriorityMask,
            dwrrQuantumBytes);
        long reserve = 0;
        final long[] limits = new long[PRIORITIES];
        for (int g = 0; g < PRIORITIES; g++) {
            if (pfcEnabled[g]) {
                limits[g] = headroomConfigBytes[g] == SwitchConfig.HEADROOM_AUTO
                    ? SwitchConfig.requiredHeadroomBytes(rateBitsPerSec, propagationPs, maxFrameBytes)
                    : headroomConfigBytes[g];
                reserve += limits[g];
            }
        }
        if (ioq) {
            // input-output queued: the headroom is the top of each VOQ; no shared pool is reserved from
            for (int g = 0; g < PRIORITIES; g++) {
                if (pfcEnabled[g]) {
                    if (limits[g] >= voqLimitBytes) {
                        throw new IllegalArgumentException("voqBytes (" + voqLimitBytes + ") must exceed the PFC headroom ("
                            + limits[g] + " bytes) of port " + port + " priority " + g + " of " + name);
                    }
                    final int i = port * PRIORITIES + g;
                    voqXoffBytes[i] = voqLimitBytes - limits[g];
                    voqXonBytes[i] = Math.max(0, voqXoffBytes[i] - pfcXonOffsetBytes);
                }
            }
        } else {
            if (headroomReservedBytes + reserve >= bufferBytes) {
                throw new IllegalArgumentException("bufferBytes (" + bufferBytes + ") must exceed the headroom reserved ("
                    + (headroomReservedBytes + reserve) + " bytes after connecting port " + port + " of " + name + ")");
            }
            headroomReservedBytes += reserve;
            sharedPoolBytes = bufferBytes - headroomReservedBytes;
        }
        System.arraycopy(limits, 0, pgHeadroomLimitBytes, port * PRIORITIES, PRIORITIES);
        refreshIntervalPs[port] = Math.max(1, RoceFraming.pauseDurationPs(XOFF_QUANTA, rateBitsPerSec) / 2);
        sp.connect(peer, peerPort);
        ports[port] = sp;
        if (rcm != null) {
            rcm.onPortConnected(port, rateBitsPerSec, peer instanceof SwitchAsic);
        }
    }

    /**
     * Sets the route to a destination host: an ECMP group of egress ports (one port = single path).
     * Replaces any earlier route. Set-up only.
     *
     * @param dstHost     destination host id, {@code >= 0}
     * @param egressPorts group members, non-empty, each 0..portCount()-1 (copied)
     * @throws IllegalArgumentException if the host id is negative, the group empty or a port out of range
     */
    public void setRoute(final int dstHost, final int[] egressPorts) {
        if (dstHost < 0) {
            throw new IllegalArgumentException("dstHost must be >= 0, got " + dstHost);
        }
        if (egressPorts == null || egressPorts.length == 0) {
            throw new IllegalArgumentException("egressPorts for host " + dstHost + " on " + name + " must be non-empty");
        }
        for (final int p : egressPorts) {
            checkPort(p);
        }
        if (dstHost >= routes.length) {
            routes = Arrays.copyOf(routes, Math.max(dstHost + 1, routes.length * 2));
        }
        routes[dstHost] = egressPorts.clone();
    }

    /**
     * Overrides the WRED/ECN profile of one egress queue (the configuration gives one profile per
     * priority for every port), e.g. to scale Kmin/Kmax with the port's link rate as the HPCC ns-3
     * reference does ({@code KMIN_MAP}/{@code KMAX_MAP}). With {@link SwitchConfig#CAM_THRESHOLD_KMIN}
     * the queue's CAM threshold follows the new profile's Kmin. Set-up only.
     *
     * @param port     port number
     * @param priority queue 0..7
     * @param profile  the profile, or null for none (no marking, no WRED drop)
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public void setWredProfile(final int port, final int priority, final WredProfile profile) {
        checkPort(port);
        checkPriority(priority);
        setQueueProfile(port * PRIORITIES + priority, profile);
    }

    /**
     * @param port     port number
     * @param priority queue 0..7
     * @return the queue's WRED/ECN profile, or null
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public WredProfile wredProfile(final int port, final int priority) {
        checkPort(port);
        checkPriority(priority);
        return wred[port * PRIORITIES + priority];
    }

    private void setQueueProfile(final int q, final WredProfile profile) {
        wred[q] = profile;
        if (camCongestedBytes != SwitchConfig.CAM_THRESHOLD_KMIN) {
            camThresholdBytes[q] = camCongestedBytes;
        } else {
            camThresholdBytes[q] = profile != null ? profile.kminBytes() : Long.MAX_VALUE;
        }
    }

    /** @return number of ports */
    public int portCount() {
        return numPorts;
    }

    /** @return the switch's stable name, used in counter components and RNG stream ids */
    @Override
    public String name() {
        return name;
    }

    /**
     * The egress side of a port (link statistics: {@link EgressPort#txBytes()},
     * {@link EgressPort#busyPs()}, pause state).
     *
     * @param port port number
     * @return the port, or null if not connected
     * @throws IllegalArgumentException if the port is out of range
     */
    public EgressPort egressPort(final int port) {
        checkPort(port);
        return ports[port];
    }

    /**
     * Instantaneous egress queue depth (frames waiting, not the one being serialised).
     *
     * @param port     port number
     * @param priority 0..7
     * @return bytes (0 for an unconnected port)
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public long queueDepthBytes(final int port, final int priority) {
        checkPort(port);
        checkPriority(priority);
        return ports[port] == null ? 0 : ports[port].depthBytes(priority);
    }

    /** @return the largest egress queue depth seen over all queues, bytes (after an enqueue) */
    public long peakQueueBytes() {
        return peakQueueBytes;
    }

    /** @return packets marked CE by this switch */
    public long totalCeMarked() {
        return totalCeMarked;
    }

    /** @return packets dropped by this switch (WRED, tail, headroom, no route) */
    public long totalDrops() {
        return totalDrops;
    }

    /** @return PFC frames sent by this switch (XOFF including refreshes, and XON) */
    public long totalPauseFramesSent() {
        return totalPauseFramesSent;
    }

    /** @return shared pool size, bytes ({@code bufferBytes} minus the headroom reserved so far) */
    public long sharedPoolBytes() {
        return sharedPoolBytes;
    }

    /** @return shared pool bytes in use */
    public long sharedUsedBytes() {
        return sharedUsedBytes;
    }

    /**
     * PG occupancy: bytes of packets that arrived on a port with a priority and are still queued.
     *
     * @param port port number
     * @param pg   priority group 0..7
     * @return shared + headroom bytes of the PG
     * @throws IllegalArgumentException if out of range
     */
    public long pgBytes(final int port, final int pg) {
        checkPort(port);
        checkPriority(pg);
        if (ioq) {
            return voqs.inputBytes(port, pg);
        }
        final int i = port * PRIORITIES + pg;
        return pgSharedBytes[i] + pgHeadroomBytes[i];
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return headroom bytes the PG uses now
     * @throws IllegalArgumentException if out of range
     */
    public long headroomUsedBytes(final int port, final int pg) {
        checkPort(port);
        checkPriority(pg);
        return pgHeadroomBytes[port * PRIORITIES + pg];
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return headroom reserved for the PG, bytes (0 if unconnected or lossy)
     * @throws IllegalArgumentException if out of range
     */
    public long headroomLimitBytes(final int port, final int pg) {
        checkPort(port);
        checkPriority(pg);
        return pgHeadroomLimitBytes[port * PRIORITIES + pg];
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return whether the PG has paused its upstream (XOFF sent, XON not yet)
     * @throws IllegalArgumentException if out of range
     */
    public boolean isXoff(final int port, final int pg) {
        checkPort(port);
        checkPriority(pg);
        return xoffActive[port * PRIORITIES + pg];
    }

    /**
     * CAM query (spec 001 §3.3): is a flow among the sampled congesting flows of an egress queue.
     * Scans the queue's valid CAM entries; allocation-free.
     *
     * @param port     egress port
     * @param priority queue 0..7
     * @param flowKey  key from {@link #flowKey(Packet)}
     * @return true iff the key is stored in the queue's CAM
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public boolean isCongestingFlow(final int port, final int priority, final int flowKey) {
        checkPort(port);
        checkPriority(priority);
        return camContains(port * PRIORITIES + priority, flowKey);
    }

    /**
     * Input-output queueing: bytes in one virtual output queue.
     *
     * @param inPort   input port
     * @param outPort  output port
     * @param priority 0..7
     * @return bytes waiting in VOQ (inPort, outPort, priority); 0 in the output-queued switch
     * @throws IllegalArgumentException if a port or the priority is out of range
     */
    public long voqDepthBytes(final int inPort, final int outPort, final int priority) {
        checkPort(inPort);
        checkPort(outPort);
        checkPriority(priority);
        return ioq ? voqs.bytes(voqs.index(inPort, outPort, priority)) : 0;
    }

    /** @return whether any RCM mechanism (spec 001 §3) is on in this switch */
    public boolean rcmEnabled() {
        return rcm != null;
    }

    /**
     * Chooses whether congestion notifications (spec 001 §3.2) go out on a port. Set at
     * {@link #connectPort} to "the peer is a {@link SwitchAsic}" (hosts are not part of a congestion
     * region); a fabric or test may override it. Set-up only; no effect with RCM off.
     *
     * @param port   a connected port
     * @param notify whether CNs are sent to the port's peer
     * @throws IllegalArgumentException if the port is out of range or not connected
     */
    public void setNotifyNeighbour(final int port, final boolean notify) {
        checkPort(port);
        if (ports[port] == null) {
            throw new IllegalArgumentException("port " + port + " of " + name + " is not connected");
        }
        if (rcm != null) {
            rcm.setNotifyNeighbour(port, notify);
        }
    }

    /**
     * The role of a port at a priority in a congestion region (spec 001 §3.2).
     *
     * @param port     port number
     * @param priority 0..7
     * @return the role; {@link CongestionRole#NONE} with RCM detection off
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public CongestionRole congestionRole(final int port, final int priority) {
        checkPort(port);
        checkPriority(priority);
        return rcm == null ? CongestionRole.NONE : rcm.role(port * PRIORITIES + priority);
    }

    /**
     * Regional congestion degree of an output queue (spec 001 §3.4 SAR, Eq. (2)): its own
     * quantised {@code F_b} while congested, combined with a valid received {@code F_br} as
     * {@code (1 - w) F_b + w F_br}.
     *
     * @param port     port number
     * @param priority 0..7
     * @return quantised degree, 0 when neither congested nor notified (or RCM off)
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public int regionalCongestionDegree(final int port, final int priority) {
        checkPort(port);
        checkPriority(priority);
        return rcm == null ? 0 : rcm.regionalDegree(port * PRIORITIES + priority, sim.nowPs());
    }

    /**
     * Is a flow harmful at an output queue now (spec 001 §3.3: in the queue's CAM at a root point,
     * among a valid received CN's IDs at an edge or inner point; every flow with CFR off)?
     *
     * @param port     output port
     * @param priority 0..7
     * @param flowKey  key from {@link #flowKey(Packet)}
     * @return true if harmful; false with RCM off
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public boolean isHarmfulFlow(final int port, final int priority, final int flowKey) {
        checkPort(port);
        checkPriority(priority);
        return rcm != null && rcm.isHarmful(port * PRIORITIES + priority, flowKey, sim.nowPs());
    }

    /** @return the RCM engine, or null when RCM is off (tests and the fabric's probes) */
    RegionalCongestion rcm() {
        return rcm;
    }

    /**
     * The flow id used by the CAM and ECMP: a SplitMix64 hash of the 5-tuple as RoCEv2 carries it
     * (source host = source IP, destination host = destination IP, UDP source port, UDP
     * destination port 4791 is constant, destination QPN). Pure function; allocation-free.
     *
     * @param p packet
     * @return 32-bit flow key
     */
    public static int flowKey(final Packet p) {
        long h = RngStreams.mix(((long) p.srcHost << 32) ^ (p.dstHost & 0xFFFFFFFFL));
        h = RngStreams.mix(h ^ (((long) p.udpSrcPort << 32) | (p.dstQpn & 0xFFFFFFFFL)));
        return (int) (h ^ (h >>> 32));
    }

    /**
     * A frame has fully arrived on a port: PFC frames are applied to the egress side of that port;
     * anything else is classified, routed, WRED/ECN-checked, admitted or dropped and enqueued, as
     * the class comment describes. The switch owns the packet from now on (dropped packets are
     * released to the pool). Allocation-free.
     *
     * @param p      the frame
     * @param inPort port it arrived on, 0..portCount()-1
     */
    @Override
    public void receive(final Packet p, final int inPort) {
        if (p.kind == Packet.KIND_PFC) {
            receivePfc(p, inPort);
            return;
        }
        if (p.kind == Packet.KIND_RCM_CN) {
            if (rcm != null) {
                rcm.onNotification(p, inPort);
            }
            pool.release(p);
            return;
        }
        final int prio = dscpToPriority[p.dscp & 63];
        p.priority = prio;
        p.ingressPort = inPort;

        // routing (ECMP)
        final int dst = p.dstHost;
        final int[] group = dst >= 0 && dst < routes.length ? routes[dst] : null;
        if (group == null) {
            dropNoRoute(p);
            return;
        }
        final int key = group.length > 1 || rcm != null ? flowKey(p) : 0;
        int out = group.length == 1 ? group[0]
            : group[ecmpIndex(RngStreams.mix((key & 0xFFFFFFFFL) ^ ecmpSalt), group.length)];
        if (rcm != null) {
            out = rcm.adaptiveRoute(key, prio, group, out); // SAR (spec 001 §3.4)
        }
        final SwitchPort port = ports[out];
        if (port == null) {
            dropNoRoute(p);
            return;
        }
        final int q = out * PRIORITIES + prio;
        final long depth = port.depthBytes(prio);
        final boolean lossless = pfcEnabled[prio];

        // WRED / ECN on the instantaneous queue (spec 000 §2.1, §2.3 Eq. (3))
        boolean mark = false;
        final WredProfile profile = wred[q];
        if (profile != null) {
            if (profile.ecnEnabled() && p.isEcnCapable()) {
                mark = decide(profile.markProbability(depth));
            } else if (!lossless) {
                final boolean drop = profile.ecnEnabled() ? profile.dropsNotEct(depth)
                    : decide(profile.markProbability(depth));
                if (drop) {
                    queueStats[q * QS_ROW + QS_WRED_DROPS]++;
                    drop(p);
                    return;
                }
            }
        }

        if (ioq) {
            receiveIoq(p, inPort, out, prio, key, mark);
            return;
        }

        // admission (MMU)
        final int bytes = p.frameBytes;
        final int pgIdx = inPort * PRIORITIES + prio;
        if (lossless) {
            if (pgSharedBytes[pgIdx] + bytes <= xoffThreshold(prio) && sharedUsedBytes + bytes <= sharedPoolBytes) {
                pgSharedBytes[pgIdx] += bytes;
                sharedUsedBytes += bytes;
            } else if (pgHeadroomBytes[pgIdx] + bytes <= pgHeadroomLimitBytes[pgIdx]) {
                pgHeadroomBytes[pgIdx] += bytes;
                peakHeadroom[pgIdx].max(pgHeadroomBytes[pgIdx]);
            } else {
                queueStats[q * QS_ROW + QS_HEADROOM_DROPS]++;
                drop(p);
                return;
            }
        } else {
            final double limit = egressDynamic ? egressAlpha * (sharedPoolBytes - sharedUsedBytes) : queueLimitBytes[prio];
            if (sharedUsedBytes + bytes > sharedPoolBytes || depth + bytes > limit) {
                queueStats[q * QS_ROW + QS_TAIL_DROPS]++;
                drop(p);
                return;
            }
            pgSharedBytes[pgIdx] += bytes;
            sharedUsedBytes += bytes;
        }

        // enqueue
        if (mark) {
            p.ecn = Packet.ECN_CE;
            queueStats[q * QS_ROW + QS_ECN_MARKED]++;
            totalCeMarked++;
        }
        if (camDepth > 0 && depth >= camThresholdBytes[q]) {
            camSample(q, p);
        }
        p.enqueuePs = sim.nowPs();
        port.enqueue(p, prio);
        queueStats[q * QS_ROW + QS_ENQUEUED_PACKETS]++;
        queueStats[q * QS_ROW + QS_ENQUEUED_BYTES] += bytes;
        final long newDepth = depth + bytes;
        peakDepthMax(q, newDepth);
        if (newDepth > peakQueueBytes) {
            peakQueueBytes = newDepth;
        }
        if (lossless && !xoffActive[pgIdx]
            && (pgHeadroomBytes[pgIdx] > 0 || pgSharedBytes[pgIdx] >= xoffThreshold(prio))) {
            sendXoff(inPort, prio);
        }
        if (rcm != null) {
            // output side first, so a CN sent at this arrival already names the flows of a queue it congested
            rcm.onForward(out, prio, key, inPort);
            rcm.onOutputEnqueue(out, prio, p, RegionalCongestion.GATE_PASS, false, newDepth);
            rcm.onInputArrival(inPort, prio, bytes, pgSharedBytes[pgIdx] + pgHeadroomBytes[pgIdx]);
        }
        port.kick();
    }

    /**
     * Input-output-queued admission and enqueue (after classification, routing and the WRED/ECN
     * decision): the VOQ (inPort, out, prio) takes the packet if it has room, PFC is checked on the
     * VOQ level, then the output's scheduler moves what it can into the output queue.
     */
    private void receiveIoq(final Packet p, final int inPort, final int out, final int prio, final int key,
                            final boolean mark) {
        final int bytes = p.frameBytes;
        final int q = out * PRIORITIES + prio;
        final int pgIdx = inPort * PRIORITIES + prio;
        final boolean lossless = pfcEnabled[prio];
        final int v = voqs.index(inPort, out, prio);
        final long before = voqs.bytes(v);
        if (before + bytes > voqLimitBytes) {
            queueStats[q * QS_ROW + (lossless ? QS_HEADROOM_DROPS : QS_TAIL_DROPS)]++;
            drop(p);
            return;
        }
        if (mark) {
            p.ecn = Packet.ECN_CE;
            queueStats[q * QS_ROW + QS_ECN_MARKED]++;
            totalCeMarked++;
        }
        if (camDepth > 0 && ports[out].depthBytes(prio) >= camThresholdBytes[q]) {
            camSample(q, p);
        }
        p.enqueuePs = sim.nowPs();
        voqs.enqueue(inPort, out, prio, p);
        queueStats[q * QS_ROW + QS_ENQUEUED_PACKETS]++;
        queueStats[q * QS_ROW + QS_ENQUEUED_BYTES] += bytes;
        final long after = before + bytes;
        peakVoq[inPort].max(after);
        if (lossless) {
            if (before <= voqXonBytes[pgIdx] && after > voqXonBytes[pgIdx]) {
                voqsAboveXon[pgIdx]++;
            }
            if (!xoffActive[pgIdx] && after >= voqXoffBytes[pgIdx]) {
                sendXoff(inPort, prio);
            }
        }
        if (rcm != null) {
            rcm.onForward(out, prio, key, inPort);
        }
        transferToOutput(out, prio);
        if (rcm != null) {
            rcm.onInputArrival(inPort, prio, bytes, voqs.inputBytes(inPort, prio));
        }
        ports[out].kick();
    }

    /**
     * The output scheduler of an input-output-queued switch for one output queue: moves VOQ head
     * packets into the output queue, round robin over the input ports (one packet per input per
     * turn, starting where the last turn stopped), while the output queue has room for the next
     * head; a head that RCC holds back (spec 001 §3.4) is skipped this turn. Does not start the
     * transmitter. Allocation-free.
     *
     * @param out      output port
     * @param priority priority
     */
    void transferToOutput(final int out, final int priority) {
        int pending = voqs.pendingPackets(out, priority);
        if (pending == 0) {
            return;
        }
        final SwitchPort port = ports[out];
        final int q = out * PRIORITIES + priority;
        int in = voqs.roundRobin(out, priority);
        int idle = 0;
        while (pending > 0 && idle < numPorts) {
            final int v = voqs.index(in, out, priority);
            final Packet head = voqs.head(v);
            boolean moved = false;
            if (head != null) {
                if (port.depthBytes(priority) + head.frameBytes > oqLimitBytes) {
                    break; // output queue full: this input is first in line next time
                }
                final int gate = rcm == null ? RegionalCongestion.GATE_PASS : rcm.gate(out, priority, head);
                if (gate == RegionalCongestion.GATE_HOLD) {
                    voqs.markHeadHeld(v);
                } else {
                    final boolean held = voqs.headHeld(v);
                    voqs.poll(in, out, priority);
                    onVoqDequeue(in, priority, v, head.frameBytes);
                    port.enqueue(head, priority);
                    final long depth = port.depthBytes(priority);
                    peakDepthMax(q, depth);
                    if (depth > peakQueueBytes) {
                        peakQueueBytes = depth;
                    }
                    if (rcm != null) {
                        rcm.onOutputEnqueue(out, priority, head, gate, held, depth);
                    }
                    pending--;
                    moved = true;
                }
            }
            in = in + 1 == numPorts ? 0 : in + 1;
            idle = moved ? 0 : idle + 1;
        }
        voqs.setRoundRobin(out, priority, in);
    }

    /** A packet left VOQ v of (in, prio): VOQ-level xon accounting and the input's drain. */
    private void onVoqDequeue(final int in, final int prio, final int v, final int bytes) {
        final int pgIdx = in * PRIORITIES + prio;
        if (pfcEnabled[prio]) {
            final long after = voqs.bytes(v);
            if (after + bytes > voqXonBytes[pgIdx] && after <= voqXonBytes[pgIdx]) {
                voqsAboveXon[pgIdx]--;
            }
            if (xoffActive[pgIdx] && voqsAboveXon[pgIdx] == 0) {
                sendXon(in, prio);
            }
        }
        if (rcm != null && voqs.inputBytes(in, prio) == 0) {
            rcm.onInputDrained(in, prio);
        }
    }

    private void peakDepthMax(final int q, final long depth) {
        final int cell = q * QS_ROW + QS_PEAK_DEPTH;
        if (depth > queueStats[cell]) {
            queueStats[cell] = depth;
        }
    }

    /**
     * ECMP member for a hash: the hash modulo the group size as an unsigned number; a mask when the
     * size is a power of two (the same value, without a 64-bit division per packet).
     *
     * @param hash    the flow's ECMP hash, all 64 bits
     * @param members group size, 1..number of ports
     * @return member index, 0..members-1
     */
    static int ecmpIndex(final long hash, final int members) {
        return (members & (members - 1)) == 0 ? (int) (hash & (members - 1)) : (int) Long.remainderUnsigned(hash, members);
    }

    private void receivePfc(final Packet pfc, final int inPort) {
        final SwitchPort port = inPort >= 0 && inPort < numPorts ? ports[inPort] : null;
        if (port != null) {
            for (int g = 0; g < PRIORITIES; g++) {
                if ((pfc.pfcClassEnable & (1 << g)) != 0) {
                    pauseReceived[inPort * PRIORITIES + g].increment();
                }
            }
            port.applyPause(pfc);
        }
        pool.release(pfc);
    }

    private boolean decide(final double probability) {
        if (probability <= 0.0) {
            return false;
        }
        if (probability >= 1.0) {
            return true;
        }
        return wredRng.nextDouble() < probability;
    }

    /** XOFF threshold of a PG's shared part now, bytes (static, or dynamic alpha x free shared). */
    private double xoffThreshold(final int pg) {
        return pfcDynamic ? pfcAlpha * (sharedPoolBytes - sharedUsedBytes) : xoffBytes[pg];
    }

    private boolean xonCondition(final int pgIdx, final int pg) {
        if (ioq) {
            return voqsAboveXon[pgIdx] == 0;
        }
        if (pgHeadroomBytes[pgIdx] > 0) {
            return false;
        }
        final long occupancy = pgSharedBytes[pgIdx];
        if (pfcDynamic) {
            return occupancy == 0 || occupancy + pfcXonOffsetBytes <= pfcAlpha * (sharedPoolBytes - sharedUsedBytes);
        }
        return occupancy <= xonBytes[pg];
    }

    private void camSample(final int q, final Packet p) {
        if (--camCountdown[q] > 0) {
            return;
        }
        camCountdown[q] = camSamplePeriod;
        final int next = camNext[q];
        final int key = flowKey(p);
        if (rcm != null) {
            rcm.onCamWrite(q, camContains(q, key));
        }
        camKeys[q * camDepth + next] = key;
        camIngress[q * camDepth + next] = p.ingressPort;
        camNext[q] = next + 1 == camDepth ? 0 : next + 1;
        if (camValid[q] < camDepth) {
            camValid[q]++;
        }
    }

    /**
     * Called by a port when one of its queues drains empty: the queue's congestion episode is over,
     * its CAM entries are invalidated (spec 001 §3.3; documented modelling choice).
     *
     * @param port     port number
     * @param priority queue
     */
    void onQueueEmpty(final int port, final int priority) {
        if (ioq && voqs.pendingPackets(port, priority) > 0) {
            return; // packets still wait in VOQs for this output: the episode goes on
        }
        final int q = port * PRIORITIES + priority;
        camValid[q] = 0;
        camNext[q] = 0;
        camCountdown[q] = camSamplePeriod;
        if (rcm != null) {
            rcm.onOutputDrained(port, priority);
        }
    }

    /**
     * @param q queue index ({@code port x 8 + priority})
     * @return the CAM entry of queue {@code q} the next sample will overwrite, {@code 0 .. camDepth - 1}
     *         (spec 001 §3.3: the CAM is written cyclically)
     */
    int camNextEntry(final int q) {
        return camNext[q];
    }

    private boolean camContains(final int q, final int key) {
        final int base = q * camDepth;
        final int n = camValid[q];
        for (int i = 0; i < n; i++) {
            if (camKeys[base + i] == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * Called by a port when a data frame starts serialisation: frees its buffer (PG headroom
     * first, then shared) and sends XON if the PG's xon condition now holds.
     *
     * @param port  egress port number
     * @param frame the frame
     */
    void onTransmitStart(final int port, final Packet frame) {
        final int pg = frame.priority;
        if (frame.kind == Packet.KIND_RCM_CN) {
            if (ioq) {
                transferToOutput(port, pg); // the CN's bytes left the output queue
            }
            return; // control frame: no MMU buffer, not a data dequeue
        }
        if (ioq) {
            queueStats[(port * PRIORITIES + pg) * QS_ROW + QS_DEQUEUED_PACKETS]++;
            transferToOutput(port, pg);
            return;
        }
        final int pgIdx = frame.ingressPort * PRIORITIES + pg;
        queueStats[(port * PRIORITIES + pg) * QS_ROW + QS_DEQUEUED_PACKETS]++;
        final long bytes = frame.frameBytes;
        final long fromHeadroom = Math.min(pgHeadroomBytes[pgIdx], bytes);
        pgHeadroomBytes[pgIdx] -= fromHeadroom;
        pgSharedBytes[pgIdx] -= bytes - fromHeadroom;
        sharedUsedBytes -= bytes - fromHeadroom;
        if (xoffActive[pgIdx] && xonCondition(pgIdx, pg)) {
            sendXon(frame.ingressPort, pg);
        }
        if (rcm != null && pgSharedBytes[pgIdx] + pgHeadroomBytes[pgIdx] == 0) {
            rcm.onInputDrained(frame.ingressPort, pg);
        }
    }

    private void sendXoff(final int inPort, final int pg) {
        final SwitchPort up = ports[inPort];
        if (up == null) {
            return;
        }
        final int pgIdx = inPort * PRIORITIES + pg;
        xoffActive[pgIdx] = true;
        final int gen = ++xoffGeneration[pgIdx];
        sendPfc(up, pg, XOFF_QUANTA);
        xoffSent[pgIdx].increment();
        sim.scheduleIn(refreshIntervalPs[inPort], pfcRefresh, 0, ((long) gen << 32) | pgIdx, null);
    }

    private void sendXon(final int inPort, final int pg) {
        final int pgIdx = inPort * PRIORITIES + pg;
        xoffActive[pgIdx] = false;
        xoffGeneration[pgIdx]++;
        sendPfc(ports[inPort], pg, 0);
        xonSent[pgIdx].increment();
    }

    private void sendPfc(final SwitchPort up, final int pg, final int quanta) {
        final Packet f = pool.acquire();
        f.kind = Packet.KIND_PFC;
        f.pfcClassEnable = 1 << pg;
        f.setPfcQuanta(pg, quanta);
        f.frameBytes = RoceFraming.PFC_FRAME_BYTES;
        f.priority = pg;
        totalPauseFramesSent++;
        up.sendControl(f);
    }

    private void dropNoRoute(final Packet p) {
        noRouteDrops.increment();
        drop(p);
    }

    private void drop(final Packet p) {
        totalDrops++;
        pool.release(p);
    }

    private void checkPort(final int port) {
        if (port < 0 || port >= numPorts) {
            throw new IllegalArgumentException("port must be in 0.." + (numPorts - 1) + " on " + name + ", got " + port);
        }
    }

    private static void checkPriority(final int priority) {
        if (priority < 0 || priority >= PRIORITIES) {
            throw new IllegalArgumentException("priority must be in 0..7, got " + priority);
        }
    }

    /** Pause refresh timer: arg = (generation << 32) | pgIdx; stale generations are ignored. */
    private final class PfcRefresh implements EventHandler {
        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            final int pgIdx = (int) arg;
            final int gen = (int) (arg >>> 32);
            if (!xoffActive[pgIdx] || xoffGeneration[pgIdx] != gen) {
                return;
            }
            final int port = pgIdx / PRIORITIES;
            final int pg = pgIdx % PRIORITIES;
            if (xonCondition(pgIdx, pg)) {
                sendXon(port, pg);
                return;
            }
            final int next = ++xoffGeneration[pgIdx];
            sendPfc(ports[port], pg, XOFF_QUANTA);
            xoffSent[pgIdx].increment();
            sim.scheduleIn(refreshIntervalPs[port], this, 0, ((long) next << 32) | pgIdx, null);
        }
    }
}
