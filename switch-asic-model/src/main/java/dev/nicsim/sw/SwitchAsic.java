package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.Simulator;

/**
 * Behavioural model of a switch ASIC: ports x 8 priorities, shared-buffer output-queued or
 * input-and-output-queued ({@link SwitchConfig#queueing}), built as a pipeline of stages, each a
 * small class of this package that documents its own rules and the document it follows:
 * <ol>
 * <li>{@link IngressStage}: PFC frames pause/resume this switch's egress port on their link; data
 *     frames get {@code priority = dscpToPriority[dscp]} and their ingress port.</li>
 * <li>{@link EcmpRouter}: the ECMP group of {@code dstHost} and the member the flow hashes to
 *     (no route or an unconnected egress port: dropped, {@code no_route_drops}); RCM's adaptive
 *     routing may move the flow.</li>
 * <li>{@link WredEcnStage}: WRED/ECN on the egress queue's instantaneous depth (the LDCP draft
 *     §2.1, §2.3 Eq. (3); "Understanding DCQCN"); lossless priorities never WRED-drop.</li>
 * <li>MMU admission with PFC xoff/xon and headroom (or trimming: {@link PacketTrimmer}), then enqueue: {@link SharedBufferMmu}
 *     (output queued: shared pool, ingress PG and egress queue accounting) or {@link VoqStage}
 *     (input-output queued: VOQs, PFC on VOQ occupancy, the output scheduler), both sending PFC
 *     frames through {@link PfcController}.</li>
 * <li>Egress scheduling: {@link SwitchPort}, strict priority then DWRR among the other
 *     priorities, skipping priorities paused by PFC; the buffer is freed when a frame starts serialisation.</li>
 * </ol>
 * Hooks: CAM congestion-flow recognition ({@link CongestionCam}, the RCM paper §3.3) samples at enqueue;
 * regional congestion mitigation ({@link RegionalCongestion}, §3, built only when a mechanism is on) takes
 * CNs, may replace the ECMP port, samples queues and gates VOQ-to-output moves; {@link SwitchTelemetry}
 * stamps HPCC's INT or IFA2 records as frames start serialisation. Counters: {@link SwitchCounters}.
 *
 * <p>The switch has no processing latency (store and forward, then the egress link) and never
 * allocates on the packet path: packets come from and return to the {@link PacketPool}, queues are
 * preallocated rings. Thread-safety: not thread-safe; simulation thread only.
 */
public final class SwitchAsic implements NetDevice {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final Simulator sim;
    private final String name;
    private final int numPorts;
    private final PacketPool pool;
    private final boolean[] pfcEnabled;
    private final SwitchPort[] ports;
    private final int strictPriorityMask;
    private final int[] dwrrQuantumBytes;
    private final SwitchTelemetry telemetry;
    /** The counters (package-private: {@link PortStatistics} reads them for end-of-run reports). */
    final SwitchCounters stats;
    private final long[] queueStats;
    private final IngressStage ingress;
    private final EcmpRouter router;
    private final WredEcnStage wred;
    private final CongestionCam cam;
    private final PfcController pfc;
    private final SharedBufferMmu mmu;
    /** Input-output queueing stage, or null when output-queued. */
    private final VoqStage voq;
    /** Regional congestion mitigation (the RCM paper §3), or null when every mechanism is off. */
    private final RegionalCongestion rcm;

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
        this.pfcEnabled = c.pfcEnabled;
        this.strictPriorityMask = c.strictPriorityMask;
        this.dwrrQuantumBytes = c.dwrrQuantumBytes;
        this.telemetry = new SwitchTelemetry(c.intEnabled, c.ifa2Enabled);
        final int queues = numPorts * PRIORITIES;
        this.wred = new WredEcnStage(queues, RngStreams.stream(seed, "switch/" + name + "/wred"), c);
        this.router = new EcmpRouter(RngStreams.stream(seed, "switch/" + name + "/ecmp").nextLong());
        this.cam = new CongestionCam(queues, c.camDepth, c.camSamplePeriod, c.camCongestedBytes);
        for (int q = 0; q < queues; q++) {
            setQueueProfile(q, c.wredProfiles[q % PRIORITIES]);
        }
        this.ports = new SwitchPort[numPorts];
        this.stats = new SwitchCounters(counters, name, numPorts, c.trimmingEnabled);
        this.queueStats = stats.queueStats;
        this.ingress = new IngressStage(c.dscpToPriority, ports, pool, stats);
        final boolean ioq = c.queueing == SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        long[] peakVoq = null;
        if (ioq) { // peak_voq_bytes of component <name>/port<P>/voq, per input port P, one block
            peakVoq = new long[numPorts];
            counters.register(name, counters.shared("switch-voq/" + numPorts, () -> SwitchCounters.voqLayout(numPorts)), peakVoq, 0);
        }
        if (c.rcm.anyEnabled() && !pool.carriesRcmFlowIds()) {
            throw new IllegalArgumentException(name + ": regional congestion mitigation needs a packet pool whose packets carry RCM flow IDs");
        }
        this.rcm = c.rcm.anyEnabled() ? new RegionalCongestion(this, sim, pool, name, numPorts, c.rcm, cam, ports, counters)
            : null;
        cam.setRcm(rcm);
        this.pfc = new PfcController(this, sim, pool, ports, stats);
        this.mmu = new SharedBufferMmu(c, numPorts, sim, stats, pfc, cam, rcm, PacketTrimmer.of(c, name, seed, pool, stats));
        this.voq = ioq ? new VoqStage(c, sim, ports, stats, peakVoq, pfc, cam, rcm) : null;
    }

    /**
     * Connects a port: creates its egress side (8 queues, scheduler) driving a link toward
     * {@code peer}, and reserves the port's headroom for every PFC-enabled PG (static
     * {@code headroomBytes[pg]}, or {@link SwitchConfig#requiredHeadroomBytes} of this link for
     * {@link SwitchConfig#HEADROOM_AUTO}) out of the shared pool (input-output queued: the headroom
     * is the top of each VOQ instead). Set-up only.
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
        final long[] limits = mmu.headroomLimits(rateBitsPerSec, propagationPs);
        if (voq != null) {
            voq.onPortConnected(port, limits, name);
        } else {
            mmu.reserveHeadroom(port, limits, name);
        }
        mmu.setHeadroomLimits(port, limits);
        pfc.onPortConnected(port, rateBitsPerSec);
        sp.connect(peer, peerPort);
        ports[port] = sp;
        if (rcm != null) {
            rcm.onPortConnected(port, rateBitsPerSec, peer instanceof SwitchAsic);
        }
    }

    /** Sets the route to one destination host: {@link #setRoutes}{@code (dstHost, dstHost + 1, egressPorts)}. */
    public void setRoute(final int dstHost, final int[] egressPorts) {
        setRoutes(dstHost, dstHost + 1, egressPorts);
    }

    /**
     * Sets the route to the destination hosts {@code firstHost .. endHost - 1}: an ECMP group of egress ports (one
     * port = single path). Replaces any earlier route. The switch keeps one entry per run of consecutive hosts with
     * the same group ({@link EcmpRouter}). Set-up only.
     *
     * @param firstHost   first destination host id, {@code >= 0}
     * @param endHost     one past the last, {@code > firstHost}
     * @param egressPorts group members, non-empty, each 0..portCount()-1 (copied)
     * @throws IllegalArgumentException if the host range is empty or negative, the group empty or a port out of range
     */
    public void setRoutes(final int firstHost, final int endHost, final int[] egressPorts) {
        router.setRoutes(firstHost, endHost, egressPorts == null ? null : egressPorts.clone(), numPorts, name);
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
        setQueueProfile(queue(port, priority), profile);
    }

    /**
     * @param port     port number
     * @param priority queue 0..7
     * @return the queue's WRED/ECN profile, or null
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public WredProfile wredProfile(final int port, final int priority) {
        return wred.profile(queue(port, priority));
    }

    private void setQueueProfile(final int q, final WredProfile profile) {
        wred.setProfile(q, profile);
        cam.onProfile(q, profile);
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
     * The egress side of a port (link statistics: {@link EgressPort#txBytes()}, {@link EgressPort#txFrames()}, pause state).
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
        return stats.peakQueueBytes;
    }

    /** @return packets marked CE by this switch */
    public long totalCeMarked() {
        return stats.totalCeMarked;
    }

    /** @return packets dropped by this switch (WRED, tail, headroom, no route) */
    public long totalDrops() {
        return stats.totalDrops;
    }

    /** @return PFC frames sent by this switch (XOFF including refreshes, and XON) */
    public long totalPauseFramesSent() {
        return stats.totalPauseFramesSent;
    }

    /** @return shared pool size, bytes ({@code bufferBytes} minus the headroom reserved so far) */
    public long sharedPoolBytes() {
        return mmu.sharedPoolBytes();
    }

    /** @return shared pool bytes in use */
    public long sharedUsedBytes() {
        return mmu.sharedUsedBytes();
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
        final int i = queue(port, pg);
        return voq != null ? voq.inputBytes(port, pg) : mmu.pgBytes(i);
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return headroom bytes the PG uses now
     * @throws IllegalArgumentException if out of range
     */
    public long headroomUsedBytes(final int port, final int pg) {
        return mmu.headroomUsedBytes(queue(port, pg));
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return headroom reserved for the PG, bytes (0 if unconnected or lossy)
     * @throws IllegalArgumentException if out of range
     */
    public long headroomLimitBytes(final int port, final int pg) {
        return mmu.headroomLimitBytes(queue(port, pg));
    }

    /**
     * @param port port number
     * @param pg   priority group 0..7
     * @return whether the PG has paused its upstream (XOFF sent, XON not yet)
     * @throws IllegalArgumentException if out of range
     */
    public boolean isXoff(final int port, final int pg) {
        return pfc.xoffActive(queue(port, pg));
    }

    /**
     * CAM query (the RCM paper §3.3): is a flow among the sampled congesting flows of an egress queue.
     * Scans the queue's valid CAM entries; allocation-free.
     *
     * @param port     egress port
     * @param priority queue 0..7
     * @param flowKey  key from {@link #flowKey(Packet)}
     * @return true iff the key is stored in the queue's CAM
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public boolean isCongestingFlow(final int port, final int priority, final int flowKey) {
        return cam.contains(queue(port, priority), flowKey);
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
        return voq != null ? voq.voqBytes(inPort, outPort, priority) : 0;
    }

    /** @return whether any RCM mechanism (the RCM paper §3) is on in this switch */
    public boolean rcmEnabled() {
        return rcm != null;
    }

    /**
     * Chooses whether congestion notifications (the RCM paper §3.2) go out on a port. Set at
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
     * The role of a port at a priority in a congestion region (the RCM paper §3.2).
     *
     * @param port     port number
     * @param priority 0..7
     * @return the role; {@link CongestionRole#NONE} with RCM detection off
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public CongestionRole congestionRole(final int port, final int priority) {
        final int q = queue(port, priority);
        return rcm == null ? CongestionRole.NONE : rcm.role(q);
    }

    /**
     * Regional congestion degree of an output queue (the RCM paper §3.4 SAR, Eq. (2)): its own
     * quantised {@code F_b} while congested, combined with a valid received {@code F_br} as
     * {@code (1 - w) F_b + w F_br}.
     *
     * @param port     port number
     * @param priority 0..7
     * @return quantised degree, 0 when neither congested nor notified (or RCM off)
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public int regionalCongestionDegree(final int port, final int priority) {
        final int q = queue(port, priority);
        return rcm == null ? 0 : rcm.regionalDegree(q, sim.nowPs());
    }

    /**
     * Is a flow harmful at an output queue now (the RCM paper §3.3: in the queue's CAM at a root point,
     * among a valid received CN's IDs at an edge or inner point; every flow with CFR off)?
     *
     * @param port     output port
     * @param priority 0..7
     * @param flowKey  key from {@link #flowKey(Packet)}
     * @return true if harmful; false with RCM off
     * @throws IllegalArgumentException if the port or priority is out of range
     */
    public boolean isHarmfulFlow(final int port, final int priority, final int flowKey) {
        final int q = queue(port, priority);
        return rcm != null && rcm.isHarmful(q, flowKey, sim.nowPs());
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
     * anything else goes through the stages of the class comment (classified, routed,
     * WRED/ECN-checked, admitted or dropped and enqueued). The switch owns the packet from now on
     * (dropped packets are released to the pool). Allocation-free.
     *
     * @param p      the frame
     * @param inPort port it arrived on, 0..portCount()-1
     */
    @Override
    public void receive(final Packet p, final int inPort) {
        if (p.kind == Packet.KIND_PFC) {
            ingress.receivePfc(p, inPort);
            return;
        }
        if (p.kind == Packet.KIND_RCM_CN) {
            if (rcm != null) {
                rcm.onNotification(p, inPort);
            }
            pool.release(p);
            return;
        }
        final int prio = ingress.classify(p, inPort);

        final int[] group = router.group(p.dstHost);
        if (group == null) {
            stats.onNoRoute();
            drop(p);
            return;
        }
        final int key = group.length > 1 || rcm != null ? flowKey(p) : 0;
        int out = router.select(group, key);
        if (rcm != null) {
            out = rcm.adaptiveRoute(key, prio, group, out); // SAR (the RCM paper §3.4)
        }
        final SwitchPort port = ports[out];
        if (port == null) {
            stats.onNoRoute();
            drop(p);
            return;
        }
        final int q = out * PRIORITIES + prio;
        final long depth = port.depthBytes(prio);

        final int verdict = wred.decide(p, q, depth, pfcEnabled[prio]);
        if (verdict == WredEcnStage.DROP) {
            dropCounted(p, q, SwitchCounters.QS_WRED_DROPS);
            return;
        }
        final boolean mark = verdict == WredEcnStage.MARK;

        final int dropCell = voq != null ? voq.receive(p, inPort, out, prio, key, mark)
            : mmu.receive(p, port, inPort, out, prio, key, depth, mark);
        if (dropCell != SharedBufferMmu.ADMITTED) {
            dropCounted(p, q, dropCell);
        }
    }

    /**
     * Look-ahead hint ({@link NetDevice#touch}): the route, then what {@link SharedBufferMmu#touch} reads
     * for the port ECMP picks (the group's first member under RCM) at the frame's last priority.
     */
    @Override
    public int touch(final Packet p, final int inPort) {
        final int[] group = router.group(p.dstHost);
        final int out = group == null ? -1 : group.length > 1 && rcm == null ? router.select(group, flowKey(p)) : group[0];
        return out < 0 || ports[out] == null ? 0 : mmu.touch(ports[out], inPort, out, p.priority & (PRIORITIES - 1));
    }

    /**
     * The output scheduler of an input-output-queued switch for one output queue
     * ({@link VoqStage#transferToOutput}), called by RCC's window timer; does not start the transmitter.
     *
     * @param out      output port
     * @param priority priority
     */
    void transferToOutput(final int out, final int priority) {
        voq.transferToOutput(out, priority);
    }

    /**
     * Called by a port when one of its queues drains empty: the queue's congestion episode is over, its CAM
     * entries are invalidated (the RCM paper §3.3; documented modelling choice) unless VOQs still hold packets for it.
     *
     * @param port     port number
     * @param priority queue
     */
    void onQueueEmpty(final int port, final int priority) {
        if (voq != null && voq.pendingPackets(port, priority) > 0) {
            return; // packets still wait in VOQs for this output: the episode goes on
        }
        cam.clear(port * PRIORITIES + priority);
        if (rcm != null) {
            rcm.onOutputDrained(port, priority);
        }
    }

    /** @return the per-hop telemetry (INT, IFA2) this switch stamps, for its IFA2 device ID */
    public SwitchTelemetry telemetry() {
        return telemetry;
    }

    /**
     * Called by a port when a frame (not PFC) starts serialisation: ECN at dequeue decides (when on),
     * the buffer stage frees it and may send XON (input-output queued: the output scheduler runs). A regional congestion
     * notification holds no MMU buffer and is not a data dequeue.
     *
     * @param port  egress port number
     * @param frame the frame
     */
    void onTransmitStart(final int port, final Packet frame) {
        wred.onDequeue(frame, port, ports[port], stats); // ECN at dequeue, before the VOQ stage refills the queue
        if (voq != null) {
            voq.onTransmitStart(port, frame);
        } else if (frame.kind != Packet.KIND_RCM_CN) {
            mmu.onTransmitStart(port, frame);
        }
        telemetry.onTransmitStart(ports[port], port, frame, sim.nowPs());
    }

    /**
     * The xon condition of a PG now (asked at each pause refresh).
     *
     * @param pgIdx {@code ingress port x 8 + pg}
     * @param pg    priority group
     * @return whether XON may be sent
     */
    boolean xonCondition(final int pgIdx, final int pg) {
        return voq != null ? voq.xonCondition(pgIdx) : mmu.xonCondition(pgIdx, pg);
    }

    private void dropCounted(final Packet p, final int q, final int cell) {
        queueStats[q * SwitchCounters.QS_ROW + cell]++;
        drop(p);
    }

    private void drop(final Packet p) {
        stats.totalDrops++;
        pool.release(p);
    }

    /** Checks a port and a priority and returns their queue (or PG) index {@code port x 8 + priority}. */
    private int queue(final int port, final int priority) {
        checkPort(port);
        checkPriority(priority);
        return port * PRIORITIES + priority;
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
}
