package dev.nicsim.nic;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A RoCEv2 NIC with one port (RoCEv2 per IBTA Annex A17; RC transport per IBTA spec vol. 1 §9.7):
 * RC queue pairs as requester and responder, the notification point (NP) that turns CE marks into
 * CNPs, and the reaction point (RP) whose pacer and window are driven by a congestion-control
 * processor through PCC events. The NIC is a set of pipeline stages, each a class of its own:
 *
 * <ul>
 * <li>{@link QpTable}: QPs by QPN, the pool of QP objects, requester QPs in QPN order.</li>
 * <li>{@link RequesterTransport}: segmentation, PSNs, ACK/NAK processing, go-back-N and the
 *     retransmission timeout; READ requests and responses on the requester side.</li>
 * <li>{@link Responder}: expected-PSN check, ACK/NAK generation (per packet or delayed, DCTCP CE
 *     echo), READ RESPONSE streams, RTT probe answers.</li>
 * <li>{@link NotificationPoint}: CE-marked packets to CNPs, at most one per QP per interval.</li>
 * <li>{@link ReactionPoint}: PCC events to the processor and its results to the pacer, window,
 *     fast-start budget, PCC timer and RTT probes.</li>
 * <li>{@link TxArbiter}: the port's next frame: control frames (ACK/NAK/CNP/RTT) before data,
 *     skipping paused priorities, then QPs round-robin among those eligible now.</li>
 * </ul>
 * This class wires them, holds the public API (flows, processor, counters) and sends received
 * frames to the stage that handles them. A flow is one message on a fresh QP pair
 * ({@link #startFlow}); the UDP source port of a QP is a per-QP entropy hash; DSCP/priority come
 * from the configuration. Received PFC frames pause the port ({@code pfc_pause_received}).
 *
 * <h2>Allocation</h2>
 * Frames come from the shared {@link PacketPool}; QP objects are pooled and reused; nothing is
 * allocated per packet or per event in steady state (rings grow by doubling when a peak is
 * exceeded).
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
public final class RoceNic implements NetDevice, CcResultSink {
    /** Event kind: pacer wake-up ({@link TxArbiter}). */
    static final int EV_WAKEUP = 1;
    /** Event kind: the CC processor asked to be advanced ({@link ReactionPoint}). */
    static final int EV_PROCESSOR = 2;
    /** Event kind: a queued CC result takes effect ({@link ReactionPoint}). */
    static final int EV_APPLY_RESULT = 3;
    /** Event kind: retransmission timeout ({@link RequesterTransport}). */
    static final int EV_RTO = 4;
    /** Event kind: PCC timer ({@link ReactionPoint}). */
    static final int EV_PCC_TIMER = 5;
    /** Event kind: delayed ACK ({@link Responder}). */
    static final int EV_DELAYED_ACK = 6;
    /** Event kind: a notification-point program's RTT response is due ({@link Responder}). */
    static final int EV_NP_RESPONSE = 7;

    private static final int MASK = PccEventLayout.MASK_24;

    /** Frame bytes of an ACK/NAK: BTH + AETH, no payload (70). */
    public static final int ACK_FRAME_BYTES = RoceFraming.frameBytes(0, RoceFraming.AETH_BYTES);
    /** Frame bytes of a CNP: BTH + 16 reserved bytes (82). */
    public static final int CNP_FRAME_BYTES = RoceFraming.frameBytes(RoceFraming.CNP_PAYLOAD_BYTES, 0);
    /** Frame bytes of a READ request: BTH + RETH (82). */
    public static final int READ_REQUEST_FRAME_BYTES = RoceFraming.frameBytes(0, RoceFraming.RETH_BYTES);
    /** Frame bytes of an RTT probe request or response: BTH only (66). */
    public static final int RTT_FRAME_BYTES = RoceFraming.frameBytes(0, 0);
    /** Largest message size, bytes (IBTA: 2^31). */
    public static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    private final Simulator sim;
    private final String name;
    private final int hostId;
    private final PacketPool pool;
    private final NicCounters c;
    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;
    private final Handler handler = new Handler();
    private final int mtuBytes;
    private final int dataPriority;
    /** {@link NicConfig#srWindowPackets} under selective repeat, 0 under go-back-N. */
    private final int srWindowPackets;

    private final QpTable qps = new QpTable();
    private final TxArbiter tx;
    private final ReactionPoint rp;
    private final RequesterTransport requester;
    private final NotificationPoint np;
    private final Responder responder;

    private NicPort port;
    private boolean npProgramSet;
    /** Partition of a partitioned run (0 otherwise) and its deferred peer releases (null when not partitioned). */
    private int partition;
    private PeerQpReleases peerReleases;

    /**
     * Creates a NIC. Its counters are allocated in {@code counters} under component {@code name}
     * (mlx5 names, see {@link NicCounters}).
     *
     * @param sim      simulator
     * @param name     device name, e.g. {@code host3}, used as counter component
     * @param hostId   host id (stands for the IP address), non-negative
     * @param config   configuration; validated and copied
     * @param counters registry for the NIC's counters
     * @param pool     packet pool shared by the simulation
     * @throws IllegalArgumentException if the configuration is invalid or the host id negative
     */
    public RoceNic(final Simulator sim, final String name, final int hostId, final NicConfig config,
                   final CounterRegistry counters, final PacketPool pool) {
        if (hostId < 0) {
            throw new IllegalArgumentException("hostId must be >= 0, got " + hostId);
        }
        config.validate();
        this.sim = sim;
        this.name = name;
        this.hostId = hostId;
        this.pool = pool;
        this.mtuBytes = config.mtuBytes;
        this.dataPriority = config.dataPriority;
        this.srWindowPackets = config.lossRecovery == NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT ? config.srWindowPackets : 0;
        this.c = new NicCounters(counters, name);
        this.cells = c.cells;
        tx = new TxArbiter(sim, pool, handler, hostId, config, c);
        rp = new ReactionPoint(sim, handler, qps, tx, config, c);
        requester = new RequesterTransport(sim, handler, this, qps, tx, rp, config, c);
        np = new NotificationPoint(sim, tx, config, c);
        responder = new Responder(sim, handler, qps, tx, np, config, c);
        tx.attach(requester, responder, rp);
        if (config.pathPolicy != NicConfig.PATH_ECMP) {
            c.registerPath();
        }
    }

    // ------------------------------------------------------------------------------------------
    // set-up

    /**
     * Connects the NIC's one port to a link.
     *
     * @param rateBitsPerSec link rate, bits/s, positive (also the line rate PCC rates are fractions of)
     * @param propagationPs  one-way propagation delay, ps, non-negative
     * @param peer           device at the other end
     * @param peerPort       the peer's port number the link arrives on
     * @throws IllegalArgumentException if the rate is not positive or the delay negative
     * @throws IllegalStateException    if the port is already connected
     */
    public void connect(final long rateBitsPerSec, final long propagationPs, final NetDevice peer, final int peerPort) {
        if (port != null) {
            throw new IllegalStateException(name + ": port already connected");
        }
        final NicPort p = new NicPort(sim, rateBitsPerSec, propagationPs, tx);
        p.connect(peer, peerPort);
        port = p;
        tx.connect(p);
        rp.connect(p);
    }

    /**
     * Sets the congestion-control processor whose results drive the QPs' pacers and windows; the
     * processor must deliver its results to this NIC (e.g. {@code new DirectCcProcessor(algorithm,
     * 0, nic)}).
     *
     * @param processor the processor, or null for none (QPs send at line rate without a window)
     * @throws IllegalStateException if requester flows are running
     */
    public void setCcProcessor(final CcProcessor processor) {
        if (qps.requesterCount() > 0) {
            throw new IllegalStateException(name + ": cannot change the CC processor while " + qps.requesterCount()
                + " flows are running");
        }
        rp.setProcessor(processor);
    }

    /**
     * Sets a notification-point program that answers the RTT probes arriving at this NIC instead of
     * the hardware responder (DOCA PCC {@code doca_pcc_dev_np_user_packet_handler}, fact sheet
     * Addendum A.7): each probe runs {@link NpProgram#handle} when it has fully arrived, and the RTT
     * response, carrying the program's 12 bytes as its three RTT words, is queued when the handler's
     * time has passed. A handler that faults or exceeds its budget sends no response. Registers the
     * counters {@code np_program_calls}, {@code np_program_failed}, {@code np_program_faults},
     * {@code np_program_budget_exceeded} and {@code np_program_cycles} under the NIC's name (so a run
     * without NP programs keeps its counter set).
     *
     * @param program the program
     * @throws IllegalStateException if one is already set
     * @throws NullPointerException  if program is null
     */
    public void setNpProgram(final NpProgram program) {
        Objects.requireNonNull(program, "program");
        if (npProgramSet) {
            throw new IllegalStateException(name + ": a notification-point program is already set");
        }
        npProgramSet = true;
        c.registerNpProgram();
        responder.setNpProgram(program);
    }

    // ------------------------------------------------------------------------------------------
    // flows

    /**
     * Starts a flow now (the caller schedules this call at the flow's start time): creates the RC
     * QP pair (requester here, responder on {@code responder}), starts the flow on the CC processor
     * ({@link CcProcessor#startFlow}) and begins sending.
     *
     * @param flowId       simulation flow id, reported to the listener and carried by packets
     * @param requesterQpn requester QPN on this NIC, {@code 0 .. 2^24-1}, not in use here
     * @param responder    NIC of the responder (may be this NIC)
     * @param responderQpn responder QPN on {@code responder}, {@code 0 .. 2^24-1}, not in use there
     * @param op           WRITE, SEND or READ
     * @param sizeBytes    message size, {@code 1 .. 2^31-1} bytes
     * @param baseRttNs    unloaded RTT of the path, ns, non-negative (passed to the algorithm)
     * @param listener     told when the flow completes, or null
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IllegalStateException    if the port is not connected or a QPN is in use
     */
    public void startFlow(final int flowId, final int requesterQpn, final RoceNic responder, final int responderQpn,
                          final MessageOp op, final long sizeBytes, final int baseRttNs, final FlowListener listener) {
        startFlow(flowId, requesterQpn, responder, responderQpn, op, sizeBytes, baseRttNs, 0, listener);
    }

    /**
     * Starts a flow now whose PSNs start at {@code initialPsn}, as agreed at connection setup
     * (IBTA vol. 1 §9.7.1: the requester's first PSN is the responder's first expected PSN); PSNs
     * wrap at 2^24. Otherwise as {@link #startFlow(int, int, RoceNic, int, MessageOp, long, int,
     * FlowListener)}; the CC processor learns the first PSN in
     * {@link CcProcessor#startFlow(int, long, long, int, int, int)}.
     *
     * @param flowId       simulation flow id, reported to the listener and carried by packets
     * @param requesterQpn requester QPN on this NIC, {@code 0 .. 2^24-1}, not in use here
     * @param responder    NIC of the responder (may be this NIC)
     * @param responderQpn responder QPN on {@code responder}, {@code 0 .. 2^24-1}, not in use there
     * @param op           WRITE, SEND or READ
     * @param sizeBytes    message size, {@code 1 .. 2^31-1} bytes
     * @param baseRttNs    unloaded RTT of the path, ns, non-negative (passed to the algorithm)
     * @param initialPsn   PSN of the flow's first packet, {@code 0 .. 2^24-1}
     * @param listener     told when the flow completes, or null
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IllegalStateException    if the port is not connected or a QPN is in use
     */
    public void startFlow(final int flowId, final int requesterQpn, final RoceNic responder, final int responderQpn,
                          final MessageOp op, final long sizeBytes, final int baseRttNs, final int initialPsn,
                          final FlowListener listener) {
        if (port == null) {
            throw new IllegalStateException(name + ": port not connected");
        }
        if (responder == null || op == null) {
            throw new IllegalArgumentException("responder and op must not be null");
        }
        if (sizeBytes < 1 || sizeBytes > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("sizeBytes must be in 1.." + MAX_MESSAGE_BYTES + ", got " + sizeBytes);
        }
        if ((requesterQpn & ~MASK) != 0 || (responderQpn & ~MASK) != 0) {
            throw new IllegalArgumentException("QPNs must be in 0..16777215, got " + requesterQpn + " and " + responderQpn);
        }
        if (baseRttNs < 0) {
            throw new IllegalArgumentException("baseRttNs must be >= 0, got " + baseRttNs);
        }
        if ((initialPsn & ~MASK) != 0) {
            throw new IllegalArgumentException("initialPsn must be in 0..16777215, got " + initialPsn);
        }
        if (qps.contains(requesterQpn)) {
            throw new IllegalStateException(name + ": QPN " + requesterQpn + " is in use");
        }
        if (responder.qps.contains(responderQpn) || (responder == this && responderQpn == requesterQpn)) {
            throw new IllegalStateException(responder.name + ": QPN " + responderQpn + " is in use");
        }
        final long now = sim.nowPs();
        final int size = (int) sizeBytes;

        final Qp rq = responder.qps.acquire();
        rq.init(Qp.RESPONDER, responderQpn, requesterQpn, hostId, flowId, op, size, mtuBytes,
            entropy(responder.hostId, responderQpn), responder.lineRateOrZero(), initialPsn);
        if (responder.srWindowPackets > 0 && op != MessageOp.READ) {
            rq.initSelectiveRepeat(responder.srWindowPackets);
        }
        responder.qps.put(rq);

        final Qp q = qps.acquire();
        q.init(Qp.REQUESTER, requesterQpn, responderQpn, responder.hostId, flowId, op, size, mtuBytes,
            entropy(hostId, requesterQpn), port.rateBitsPerSec(), initialPsn);
        if (srWindowPackets > 0 && op != MessageOp.READ) {
            q.initSelectiveRepeat(srWindowPackets);
        }
        q.listener = listener;
        q.peerNic = responder;
        q.peerQp = rq;
        q.peerIncarnation = rq.incarnation;
        q.nextSendPs = now;
        q.progressPs = now;
        q.rateSincePs = now;
        q.readRequestPending = op == MessageOp.READ;
        qps.put(q);
        requester.startPath(q, hostId);
        cells[NicCounters.FLOWS_STARTED]++;

        rp.startFlow(q, now, mtuBytes, baseRttNs);
        tx.addActive(q);
        tx.kickPort();
    }

    /**
     * Completes a requester QP's flow (its last packet acknowledged, or its last READ response
     * received): ends it on the processor, releases both QPs and tells the listener.
     *
     * @param q the requester QP
     */
    void complete(final Qp q) {
        final long now = sim.nowPs();
        final int flowId = q.flowId;
        final FlowListener listener = q.listener;
        rp.endFlow(q.qpn);
        final Qp peer = q.peerQp;
        if (peer != null && peerReleases != null && q.peerNic.partition != partition) {
            peerReleases.add(q.peerNic, peer, q.peerIncarnation); // the peer NIC may be running: at the barrier
        } else if (peer != null && peer.incarnation == q.peerIncarnation) {
            q.peerNic.releaseQp(peer);
        }
        releaseQp(q);
        cells[NicCounters.FLOWS_COMPLETED]++;
        if (listener != null) {
            listener.onFlowComplete(flowId, now);
        }
    }

    /**
     * Puts the NIC in a partition of a partitioned run: a completing flow whose responder NIC is in
     * another partition leaves the responder QP's release to {@code releases}, done at the next
     * barrier ({@link PeerQpReleases}). Set-up only, before the run.
     *
     * @param partitionIndex the NIC's partition, {@code >= 0}
     * @param releases       the partition's deferred releases, shared by its NICs
     */
    public void setPartition(final int partitionIndex, final PeerQpReleases releases) {
        this.partition = partitionIndex;
        this.peerReleases = releases;
    }

    void releaseQp(final Qp q) {
        tx.removeActive(q);
        qps.release(q);
    }

    /**
     * Visits every requester QP still sending, in ascending QPN order, with its pacer rate and
     * window. Allocation-free.
     *
     * @param visitor receives (QPN, rate bits/s, window bytes or 0 = unlimited)
     */
    public void forEachActiveQp(final QpRateVisitor visitor) {
        for (int i = 0; i < qps.requesterCount(); i++) {
            final Qp q = qps.requester(i);
            visitor.accept(q.qpn, q.rateBitsPerSec, q.windowBytes);
        }
    }

    /**
     * The requester flows still running on this NIC, in ascending QPN order, with what they did so
     * far ({@link FlowProgress}): for the end-of-run report of unfinished flows. Allocates (not for
     * hot paths).
     *
     * @return a new list, empty when every flow started here has completed
     */
    public List<FlowProgress> unfinishedFlows() {
        final List<FlowProgress> out = new ArrayList<>(qps.requesterCount());
        for (int i = 0; i < qps.requesterCount(); i++) {
            final Qp q = qps.requester(i);
            final long acked = q.byteOffset(q.op == MessageOp.READ ? q.readExpectedIndex : q.sndUna);
            out.add(new FlowProgress(q.flowId, q.qpn, q.sizeBytes, acked, q.rateBitsPerSec, q.lowestRateBitsPerSec,
                q.rateSincePs, q.progressPs, q.lastResultPs == Qp.NEVER_SENT ? -1 : q.lastResultPs, q.rttProbes,
                q.rttResponses, q.awaitingInit));
        }
        out.sort(Comparator.comparingInt(FlowProgress::qpn));
        return out;
    }

    /**
     * Copies the CC processor's counters (and its algorithm's) into the counter registry (one block
     * per NIC, names shared by NICs whose processors name the same counters), under component {@code <name>/cc}, with the processor's counter names, and sets the NIC's
     * {@code rx_pause_duration_us} (time its port's data priority was paused by received PFC, as
     * mlx5's {@code rx_prio<p>_pause_duration} counts it for that priority). Call at the end of a run (or whenever a snapshot is
     * wanted); values are set, not added. Allocates (not for hot paths).
     */
    public void publishProcessorCounters() {
        c.publishEnd(port != null ? port.pausedDurationPs(dataPriority) / 1_000_000 : -1, rp.processor());
    }

    // ------------------------------------------------------------------------------------------
    // accessors

    /** @return line rate of the port, bits/s */
    public long lineRateBitsPerSec() {
        if (port == null) {
            throw new IllegalStateException(name + ": port not connected");
        }
        return port.rateBitsPerSec();
    }

    private long lineRateOrZero() {
        return port == null ? 0 : port.rateBitsPerSec();
    }

    /** @return host id (stands for the IP address) */
    public int hostId() {
        return hostId;
    }

    /** @return the NIC's name, also the component of its counters */
    @Override
    public String name() {
        return name;
    }

    /** @return the NIC's port (transmit side of its link), or null before {@link #connect} */
    public EgressPort port() {
        return port;
    }

    /** @return path MTU, payload bytes per full data packet */
    public int mtuBytes() {
        return mtuBytes;
    }

    /** @return data packets sent (WRITE/SEND packets and READ responses), including retransmissions */
    public long dataPacketsSent() {
        return cells[NicCounters.TX_DATA_PACKETS];
    }

    // ------------------------------------------------------------------------------------------
    // receive path

    /**
     * A frame has fully arrived on the NIC's port: a PFC frame pauses the port's priorities; data
     * packets, READ requests, ACK/NAK, CNPs and RTT frames go to their stage and QP (a frame for a
     * QPN without a QP counts {@code rx_unknown_qp_packets}, a CNP counts {@code rp_cnp_ignored}).
     * The frame is released to the pool before this returns.
     *
     * @param packet the frame; owned by the NIC from now on
     * @param inPort port number; the NIC has one port (0)
     */
    @Override
    public void receive(final Packet packet, final int inPort) {
        final long[] f = cells;
        f[NicCounters.RX_BYTES] += packet.frameBytes;
        if (packet.ecn == Packet.ECN_CE) {
            f[NicCounters.ECN_CE_RECEIVED]++;
        }
        switch (packet.kind) {
            case Packet.KIND_PFC -> {
                cells[NicCounters.PFC_PAUSE_RECEIVED]++;
                if (port != null) {
                    port.applyPause(packet);
                }
            }
            case Packet.KIND_DATA -> onData(packet);
            case Packet.KIND_READ_REQUEST -> responder.onReadRequest(packet);
            case Packet.KIND_ACK -> requester.onAck(packet);
            case Packet.KIND_CNP -> rp.onCnp(packet);
            case Packet.KIND_RTT_PROBE -> responder.onRttProbe(packet);
            case Packet.KIND_RTT_RESPONSE -> rp.onRttResponse(packet);
            default -> cells[NicCounters.RX_UNKNOWN_QP]++;
        }
        pool.release(packet);
    }

    /**
     * Look-ahead hint ({@link NetDevice#touch}): reads the receive counters {@link #receive} updates
     * first and, for a frame of a QP (data, ACK, CNP, RTT), the QP's table slot and its PSN state.
     * Reads only.
     *
     * @param packet the frame about to arrive (read only)
     * @param inPort port it will arrive on (unused)
     * @return a value of the touched state
     */
    @Override
    public int touch(final Packet packet, final int inPort) {
        final int t = (int) cells[NicCounters.RX_BYTES];
        if (packet.kind == Packet.KIND_PFC) {
            return t;
        }
        final Qp q = qps.get(packet.dstQpn);
        return q == null ? t : t + q.ePsn + q.sndUna;
    }

    /** A data packet: the NP sees it, then the responder (WRITE/SEND) or requester (READ response). */
    private void onData(final Packet p) {
        cells[NicCounters.RX_DATA_PACKETS]++;
        final Qp q = qps.get(p.dstQpn);
        if (q == null) {
            cells[NicCounters.RX_UNKNOWN_QP]++;
            return;
        }
        np.onPacket(q, p);
        if (q.role == Qp.RESPONDER) {
            if (q.op == MessageOp.READ) {
                cells[NicCounters.RX_UNKNOWN_QP]++; // a READ responder takes READ requests only
            } else {
                responder.onData(q, p);
            }
        } else if (q.op == MessageOp.READ && RoceOpcodes.isReadResponse(p.opcode)) {
            requester.onReadResponse(q, p);
        } else {
            cells[NicCounters.RX_UNKNOWN_QP]++;
        }
    }

    // ------------------------------------------------------------------------------------------
    // CC processor results and timed events

    /**
     * A result of the CC processor for a flow: applied now if its effective time has come, else
     * queued in the QP (FIFO; results of one flow take effect in order) and applied then. Results
     * for flows that are not running here are ignored.
     *
     * @param qpn         requester QPN
     * @param result      the result; copied, not kept
     * @param effectivePs time the result takes effect, ps
     * @param cycles      processor cycles the event took (not used by the NIC)
     */
    @Override
    public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
        rp.onResult(qpn, result, effectivePs);
    }

    /** The NIC's timed events, each for the stage that scheduled it; per-QP events carry the QP's incarnation. */
    private final class Handler implements EventHandler {
        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            switch (kind) {
                case EV_WAKEUP -> tx.onWakeupEvent();
                case EV_PROCESSOR -> rp.onProcessorWakeup();
                case EV_APPLY_RESULT -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        rp.applyPending(q);
                    }
                }
                case EV_RTO -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        requester.onRtoEvent(q);
                    }
                }
                case EV_PCC_TIMER -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        rp.onPccTimer(q);
                    }
                }
                case EV_DELAYED_ACK -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        responder.onDelayedAckEvent(q);
                    }
                }
                case EV_NP_RESPONSE -> responder.sendNpResponse((Packet) ref);
                default -> throw new IllegalStateException("unknown NIC event " + kind);
            }
        }
    }

    /** RoCEv2 UDP source port as flow entropy: 49152 + a 14-bit hash of (host, QPN). */
    private static int entropy(final int host, final int qpn) {
        return 0xC000 | (int) (RngStreams.mix(((long) host << 32) | (qpn & 0xFFFF_FFFFL)) & 0x3FFF);
    }

    @Override
    public String toString() {
        return "RoceNic{" + name + ", host=" + hostId + ", flows=" + qps.requesterCount() + "}";
    }
}
