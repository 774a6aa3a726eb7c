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
 * Behavioural model of a shared-buffer switch ASIC (ARCHITECTURE "Switch ASIC"): ports x 8
 * priorities, an MMU with ingress (PG) accounting for PFC and egress (queue) accounting for
 * ECN and drops, WRED/ECN on the instantaneous queue (spec 000 §2.1, §2.3 Eq. (3); spec 004),
 * PFC xoff/xon with headroom (spec 004), strict priority + DWRR scheduling, ECMP by 5-tuple hash
 * and CAM congestion-flow recognition per egress queue (spec 001 §3.3).
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
 * CAM's entries are invalidated. {@link #isCongestingFlow} asks whether a key is stored.
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
    private final int[] camNext;
    private final int[] camValid;
    private final int[] camCountdown;

    private final Counter noRouteDrops;
    private final Counter[] enqueuedPackets;
    private final Counter[] dequeuedPackets;
    private final Counter[] enqueuedBytes;
    private final Counter[] ecnMarked;
    private final Counter[] wredDrops;
    private final Counter[] tailDrops;
    private final Counter[] headroomDrops;
    private final Counter[] peakDepth;
    private final Counter[] pauseReceived;
    private final Counter[] xoffSent;
    private final Counter[] xonSent;
    private final Counter[] peakHeadroom;

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
     * @throws IllegalArgumentException if {@code numPorts < 1}, the name is empty or the config is
     *                                  invalid (message names the field)
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
        this.camNext = new int[queues];
        this.camValid = new int[queues];
        this.camCountdown = new int[queues];
        Arrays.fill(camCountdown, camSamplePeriod);

        this.noRouteDrops = counters.counter(name, "no_route_drops");
        this.enqueuedPackets = new Counter[queues];
        this.dequeuedPackets = new Counter[queues];
        this.enqueuedBytes = new Counter[queues];
        this.ecnMarked = new Counter[queues];
        this.wredDrops = new Counter[queues];
        this.tailDrops = new Counter[queues];
        this.headroomDrops = new Counter[queues];
        this.peakDepth = new Counter[queues];
        this.pauseReceived = new Counter[queues];
        this.xoffSent = new Counter[queues];
        this.xonSent = new Counter[queues];
        this.peakHeadroom = new Counter[queues];
        for (int p = 0; p < numPorts; p++) {
            for (int g = 0; g < PRIORITIES; g++) {
                final int i = p * PRIORITIES + g;
                final String q = name + "/port" + p + "/q" + g;
                enqueuedPackets[i] = counters.counter(q, "enqueued_packets");
                dequeuedPackets[i] = counters.counter(q, "dequeued_packets");
                enqueuedBytes[i] = counters.counter(q, "enqueued_bytes");
                ecnMarked[i] = counters.counter(q, "ecn_marked_packets");
                wredDrops[i] = counters.counter(q, "wred_drops");
                tailDrops[i] = counters.counter(q, "tail_drops");
                headroomDrops[i] = counters.counter(q, "headroom_drops");
                peakDepth[i] = counters.counter(q, "peak_depth_bytes");
                pauseReceived[i] = counters.counter(q, "pfc_pause_received");
                final String pg = name + "/port" + p + "/pg" + g;
                xoffSent[i] = counters.counter(pg, "pfc_xoff_sent");
                xonSent[i] = counters.counter(pg, "pfc_xon_sent");
                peakHeadroom[i] = counters.counter(pg, "peak_headroom_bytes");
            }
        }
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
        if (headroomReservedBytes + reserve >= bufferBytes) {
            throw new IllegalArgumentException("bufferBytes (" + bufferBytes + ") must exceed the headroom reserved ("
                + (headroomReservedBytes + reserve) + " bytes after connecting port " + port + " of " + name + ")");
        }
        headroomReservedBytes += reserve;
        sharedPoolBytes = bufferBytes - headroomReservedBytes;
        System.arraycopy(limits, 0, pgHeadroomLimitBytes, port * PRIORITIES, PRIORITIES);
        refreshIntervalPs[port] = Math.max(1, RoceFraming.pauseDurationPs(XOFF_QUANTA, rateBitsPerSec) / 2);
        sp.connect(peer, peerPort);
        ports[port] = sp;
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
        final int q = port * PRIORITIES + priority;
        final int base = q * camDepth;
        final int n = camValid[q];
        for (int i = 0; i < n; i++) {
            if (camKeys[base + i] == flowKey) {
                return true;
            }
        }
        return false;
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
        final int out = group.length == 1 ? group[0]
            : group[(int) Long.remainderUnsigned(RngStreams.mix((flowKey(p) & 0xFFFFFFFFL) ^ ecmpSalt), group.length)];
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
                    wredDrops[q].increment();
                    drop(p);
                    return;
                }
            }
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
                headroomDrops[q].increment();
                drop(p);
                return;
            }
        } else {
            final double limit = egressDynamic ? egressAlpha * (sharedPoolBytes - sharedUsedBytes) : queueLimitBytes[prio];
            if (sharedUsedBytes + bytes > sharedPoolBytes || depth + bytes > limit) {
                tailDrops[q].increment();
                drop(p);
                return;
            }
            pgSharedBytes[pgIdx] += bytes;
            sharedUsedBytes += bytes;
        }

        // enqueue
        if (mark) {
            p.ecn = Packet.ECN_CE;
            ecnMarked[q].increment();
            totalCeMarked++;
        }
        if (camDepth > 0 && depth >= camThresholdBytes[q]) {
            camSample(q, p);
        }
        p.enqueuePs = sim.nowPs();
        port.enqueue(p, prio);
        enqueuedPackets[q].increment();
        enqueuedBytes[q].add(bytes);
        final long newDepth = depth + bytes;
        peakDepth[q].max(newDepth);
        if (newDepth > peakQueueBytes) {
            peakQueueBytes = newDepth;
        }
        if (lossless && !xoffActive[pgIdx]
            && (pgHeadroomBytes[pgIdx] > 0 || pgSharedBytes[pgIdx] >= xoffThreshold(prio))) {
            sendXoff(inPort, prio);
        }
        port.kick();
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
        camKeys[q * camDepth + next] = flowKey(p);
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
        final int q = port * PRIORITIES + priority;
        camValid[q] = 0;
        camNext[q] = 0;
        camCountdown[q] = camSamplePeriod;
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
        final int pgIdx = frame.ingressPort * PRIORITIES + pg;
        dequeuedPackets[port * PRIORITIES + pg].increment();
        final long bytes = frame.frameBytes;
        final long fromHeadroom = Math.min(pgHeadroomBytes[pgIdx], bytes);
        pgHeadroomBytes[pgIdx] -= fromHeadroom;
        pgSharedBytes[pgIdx] -= bytes - fromHeadroom;
        sharedUsedBytes -= bytes - fromHeadroom;
        if (xoffActive[pgIdx] && xonCondition(pgIdx, pg)) {
            sendXon(frame.ingressPort, pg);
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
        f.pfcQuanta[pg] = quanta;
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
