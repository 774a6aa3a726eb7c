package dev.nicsim.nic;

import dev.nicsim.microcode.CcProcessor;
import dev.nicsim.microcode.CcResultSink;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
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
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * A RoCEv2 NIC with one port: RC queue pairs as requester and responder, the notification point
 * (NP) that turns CE marks into CNPs, and the reaction point (RP) whose pacer and window are driven
 * by a congestion-control processor through PCC events (ARCHITECTURE "One packet's way through").
 *
 * <h2>Requester (sender of WRITE/SEND data and READ requests)</h2>
 * <ul>
 * <li>A flow is one message on a fresh QP pair ({@link #startFlow}). The message is cut into
 *     packets of {@link NicConfig#mtuBytes} payload with PSNs from 0: WRITE FIRST/MIDDLE/LAST/ONLY
 *     (RETH on FIRST and ONLY) or SEND FIRST/MIDDLE/LAST/ONLY ({@link RoceOpcodes}); frame sizes
 *     from {@link RoceFraming#frameBytes}; AckReq on the last packet; the UDP source port is a
 *     per-QP entropy hash; DSCP/priority from the configuration; the transmit timestamp (ns,
 *     32 bits) is written when the frame starts serialisation.</li>
 * <li>ECN: ECT(0) ({@link NicConfig#ecnCodepoint}); while the fast-start budget set by the PCC
 *     result ({@link PccResult#fastStartPackets()}) lasts, new packets go Not-ECT except the
 *     budget's last one and the message's last packet, which go ECT(0) so that the receiver can
 *     detect tail loss (spec 000 §2.3 and §3.1). Retransmissions never use the budget.</li>
 * <li>Pacer: per QP, the rate of the last PCC result (a 20-bit fraction of line rate,
 *     {@link FixedPoint#rateToBitsPerSec}); after a frame starts at time t the QP's next frame may
 *     start at {@code t + wire bits / rate}, where wire bits include preamble and inter-frame gap
 *     ({@link RoceFraming#serializationPs}), so rate = line rate sends back to back and half the
 *     line rate doubles the spacing. A new rate re-computes the gap from the last start.</li>
 * <li>Window: payload bytes between the oldest unacknowledged and the next packet to send, plus
 *     the next packet, may not exceed the PCC window unless it is
 *     {@link PccResult#WINDOW_UNLIMITED}; one packet may always be in flight.</li>
 * <li>Go-back-N (spec 000 §3.1): a NAK (PSN sequence error) makes the requester resend from the
 *     NAK's PSN (counter {@code packet_seq_err}); when no ACK advances the oldest unacknowledged
 *     packet for {@link NicConfig#rtoNs}, the requester resends from it ({@code local_ack_timeout_err}).
 *     Every resent packet counts {@code roce_adp_retrans}.</li>
 * <li>READ: one READ REQUEST (opcode 0x0C, RETH, frame {@code frameBytes(0, 16)}) asks for the
 *     whole message; the responder returns READ RESPONSE FIRST/MIDDLE/LAST/ONLY data packets at
 *     its own line rate (round-robin with its other QPs, without congestion control: no pacer, no
 *     window, no PCC flow on the responder side); the flow completes when the last response
 *     arrives. A response PSN beyond the expected one counts {@code implied_nak_seq_err} and
 *     re-issues the READ request from the expected PSN (once per gap); the timeout re-issues it
 *     too. The requester's PCC flow sees its initial result, CNP/RTT/TIMER events only.</li>
 * </ul>
 *
 * <h2>Responder</h2>
 * Expected-PSN check: an in-order packet is accepted and acknowledged per packet or delayed
 * ({@link NicConfig#ackEveryPackets}, DCTCP CE state machine of spec 002 §3.2); an out-of-order
 * packet is dropped and counts {@code out_of_sequence}, the first of a gap sends one NAK (AETH
 * {@link Packet#AETH_NAK_PSN_SEQ_ERR}, PSN = expected PSN); a duplicate counts
 * {@code duplicate_request} and is re-acknowledged. Pending coalesced ACKs are sent before a NAK or
 * re-ACK. ACKs carry the cumulative PSN, MSN, ECE = DCTCP.CE, the echoed transmit timestamp of the
 * last covered packet and the number of covered packets.
 *
 * <h2>Notification point</h2>
 * Every CE-marked data packet or READ request for a known QP counts
 * {@code np_ecn_marked_roce_packets}; if {@link NicConfig#npEnabled}, a CNP (opcode 0x81, BECN,
 * CNP DSCP/priority/ECN, 16-byte reserved payload, destination QPN = the marked packet's source
 * QPN) is sent unless one was sent for the same local QP less than {@link NicConfig#cnpIntervalNs}
 * ago (spec 003 §4; mlx5 {@code min_time_between_cnps}); counter {@code np_cnp_sent}. The CNP is
 * queued before the packet's ACK. CNPs for READ responses reach the responder QP, which is not
 * congestion controlled, and count {@code rp_cnp_ignored} there.
 *
 * <h2>PCC events (flow id = requester QPN)</h2>
 * {@code TX_BURST} every {@link NicConfig#txBurstPackets} data packets or when the QP has sent its
 * last packet (payload bytes and packets since the previous burst, sn = PSN of the packet just
 * started); {@code ACK} for an ACK that acknowledges something new (sn = highest PSN acknowledged,
 * first sn = first newly acknowledged PSN, {@link PccEventLayout#FLAG_ECE}, RTT request-send field
 * = echoed transmit timestamp); {@code NACK/OUT_OF_SEQUENCE} (sn = NAK PSN); {@code CNP}
 * ({@code rp_cnp_handled}, {@link PccEventLayout#FLAG_BECN}); {@code RTT_RESPONSE} (the three
 * probe timestamps); {@code TIMER}. CNP, RTT_RESPONSE and TIMER carry sn = highest PSN sent. The
 * first event of a flow carries {@link PccEventLayout#FLAG_FIRST_IN_FLOW}. After each offer the
 * processor is advanced and a wake-up is scheduled at the time it asks for. Results take effect
 * at their effective time: rate to the pacer, window, fast-start budget, an RTT probe (a
 * {@link Packet#KIND_RTT_PROBE} frame answered by the peer NIC with a
 * {@link Packet#KIND_RTT_RESPONSE}), a timer (re-arming replaces the pending one). A QP with a
 * processor waits for its flow's initial result before sending; without a processor it sends at
 * line rate with no window.
 *
 * <h2>Port</h2>
 * The port sends PFC frames first (from {@link EgressPort}), then ACK/NAK/CNP/RTT frames in FIFO
 * order skipping paused priorities, then data: QPs with something to send are served round-robin
 * among those eligible now (pacer time reached, window open, data priority not paused); when none
 * is eligible yet, a wake-up is scheduled at the earliest pacer time. Received PFC frames pause the
 * port ({@code pfc_pause_received}).
 *
 * <h2>Allocation</h2>
 * Frames come from the shared {@link PacketPool}; QP objects are pooled and reused; nothing is
 * allocated per packet or per event in steady state (rings grow by doubling when a peak is
 * exceeded).
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
public final class RoceNic implements NetDevice, CcResultSink {
    private static final int EV_WAKEUP = 1;
    private static final int EV_PROCESSOR = 2;
    private static final int EV_APPLY_RESULT = 3;
    private static final int EV_RTO = 4;
    private static final int EV_PCC_TIMER = 5;
    private static final int EV_DELAYED_ACK = 6;

    private static final int MASK = PccEventLayout.MASK_24;
    private static final long NEVER = Long.MAX_VALUE;

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
    private final CounterRegistry counters;
    private final Handler handler = new Handler();

    // configuration copies
    private final int mtuBytes;
    private final int ackEveryPackets;
    private final long delayedAckTimeoutPs;
    private final long cnpIntervalPs;
    private final boolean npEnabled;
    private final long rtoPs;
    private final int txBurstPackets;
    private final int dataDscp;
    private final int dataPriority;
    private final int ackDscp;
    private final int ackPriority;
    private final int cnpDscp;
    private final int cnpPriority;
    private final int ecnCodepoint;
    private final int ackEcnCodepoint;
    private final int cnpEcnCodepoint;

    private NicPort port;
    /** {@link RoceFraming#exactPsPerByte} of the line rate (0 if none): a QP pacing at line rate needs no division per packet. */
    private long linePsPerByte;
    private CcProcessor processor;

    // QPs by local QPN, the pool of unused QP objects, requester QPs sorted by QPN
    private final Int2ObjectHashMap<Qp> qps = new Int2ObjectHashMap<>();
    private Qp[] freeQps = new Qp[16];
    private int freeQpCount;
    private int[] requesterQpns = new int[16];
    private Qp[] requesterQps = new Qp[16];
    private int requesterCount;

    // circular doubly-linked round-robin list of QPs with something to send
    private Qp cursor;
    private int activeCount;

    // FIFO of ACK/NAK/CNP/RTT frames (capacity a power of two)
    private Packet[] control = new Packet[64];
    private int controlHead;
    private int controlCount;
    /** Control frames queued per priority (to skip a scan when all of them are paused). */
    private final int[] controlPerPriority = new int[8];

    private boolean selecting;
    private Qp selectedQp;
    private long wakeupAtPs = NEVER;
    private long processorWakeupAtPs = NEVER;

    private final UnsafeBuffer eventBuffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    private final PccEvent event = new PccEvent().wrap(eventBuffer, 0);

    private final Counter npCnpSent;
    private final Counter npEcnMarked;
    private final Counter rpCnpHandled;
    private final Counter rpCnpIgnored;
    private final Counter outOfSequence;
    private final Counter packetSeqErr;
    private final Counter duplicateRequest;
    private final Counter localAckTimeoutErr;
    private final Counter impliedNakSeqErr;
    private final Counter roceAdpRetrans;
    private final Counter txDataPackets;
    private final Counter rxDataPackets;
    private final Counter txBytes;
    private final Counter rxBytes;
    private final Counter ecnCeReceived;
    private final Counter pfcPauseReceived;
    private final Counter txAckPackets;
    private final Counter txNakPackets;
    private final Counter rxAckPackets;
    private final Counter rxNakPackets;
    private final Counter txReadRequests;
    private final Counter rxReadRequests;
    private final Counter txRttProbes;
    private final Counter txRttResponses;
    private final Counter rxUnknownQp;
    private final Counter ccResultsApplied;
    private final Counter flowsStarted;
    private final Counter flowsCompleted;

    /**
     * Creates a NIC. Its counters are allocated in {@code counters} under component {@code name}
     * (mlx5 names, see the class description).
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
        this.counters = counters;
        this.mtuBytes = config.mtuBytes;
        this.ackEveryPackets = config.ackEveryPackets;
        this.delayedAckTimeoutPs = config.delayedAckTimeoutNs * 1000L;
        this.cnpIntervalPs = config.cnpIntervalNs * 1000L;
        this.npEnabled = config.npEnabled;
        this.rtoPs = config.rtoNs * 1000L;
        this.txBurstPackets = config.txBurstPackets;
        this.dataDscp = config.dataDscp;
        this.dataPriority = config.dataPriority;
        this.ackDscp = config.ackDscp;
        this.ackPriority = config.ackPriority;
        this.cnpDscp = config.cnpDscp;
        this.cnpPriority = config.cnpPriority;
        this.ecnCodepoint = config.ecnCodepoint;
        this.ackEcnCodepoint = config.ackEcnCodepoint;
        this.cnpEcnCodepoint = config.cnpEcnCodepoint;

        npCnpSent = counters.counter(name, "np_cnp_sent");
        npEcnMarked = counters.counter(name, "np_ecn_marked_roce_packets");
        rpCnpHandled = counters.counter(name, "rp_cnp_handled");
        rpCnpIgnored = counters.counter(name, "rp_cnp_ignored");
        outOfSequence = counters.counter(name, "out_of_sequence");
        packetSeqErr = counters.counter(name, "packet_seq_err");
        duplicateRequest = counters.counter(name, "duplicate_request");
        localAckTimeoutErr = counters.counter(name, "local_ack_timeout_err");
        impliedNakSeqErr = counters.counter(name, "implied_nak_seq_err");
        roceAdpRetrans = counters.counter(name, "roce_adp_retrans");
        txDataPackets = counters.counter(name, "tx_data_packets");
        rxDataPackets = counters.counter(name, "rx_data_packets");
        txBytes = counters.counter(name, "tx_bytes");
        rxBytes = counters.counter(name, "rx_bytes");
        ecnCeReceived = counters.counter(name, "ecn_ce_received");
        pfcPauseReceived = counters.counter(name, "pfc_pause_received");
        txAckPackets = counters.counter(name, "tx_ack_packets");
        txNakPackets = counters.counter(name, "tx_nak_packets");
        rxAckPackets = counters.counter(name, "rx_ack_packets");
        rxNakPackets = counters.counter(name, "rx_nak_packets");
        txReadRequests = counters.counter(name, "tx_read_requests");
        rxReadRequests = counters.counter(name, "rx_read_requests");
        txRttProbes = counters.counter(name, "tx_rtt_probes");
        txRttResponses = counters.counter(name, "tx_rtt_responses");
        rxUnknownQp = counters.counter(name, "rx_unknown_qp_packets");
        ccResultsApplied = counters.counter(name, "cc_results_applied");
        flowsStarted = counters.counter(name, "flows_started");
        flowsCompleted = counters.counter(name, "flows_completed");
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
        final NicPort p = new NicPort(sim, rateBitsPerSec, propagationPs, this);
        p.connect(peer, peerPort);
        port = p;
        linePsPerByte = RoceFraming.exactPsPerByte(rateBitsPerSec);
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
        if (requesterCount > 0) {
            throw new IllegalStateException(name + ": cannot change the CC processor while " + requesterCount
                + " flows are running");
        }
        this.processor = processor;
    }

    /** @return the congestion-control processor, or null */
    public CcProcessor ccProcessor() {
        return processor;
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
        if (qps.containsKey(requesterQpn)) {
            throw new IllegalStateException(name + ": QPN " + requesterQpn + " is in use");
        }
        if (responder.qps.containsKey(responderQpn) || (responder == this && responderQpn == requesterQpn)) {
            throw new IllegalStateException(responder.name + ": QPN " + responderQpn + " is in use");
        }
        final long now = sim.nowPs();
        final int size = (int) sizeBytes;

        final Qp rq = responder.acquireQp();
        rq.init(Qp.RESPONDER, responderQpn, requesterQpn, hostId, flowId, op, size, mtuBytes,
            entropy(responder.hostId, responderQpn), responder.lineRateOrZero());
        responder.qps.put(responderQpn, rq);

        final Qp q = acquireQp();
        q.init(Qp.REQUESTER, requesterQpn, responderQpn, responder.hostId, flowId, op, size, mtuBytes,
            entropy(hostId, requesterQpn), port.rateBitsPerSec());
        q.listener = listener;
        q.peerNic = responder;
        q.peerQp = rq;
        q.peerIncarnation = rq.incarnation;
        q.nextSendPs = now;
        q.readRequestPending = op == MessageOp.READ;
        qps.put(requesterQpn, q);
        insertRequester(q);
        flowsStarted.increment();

        if (processor != null) {
            q.awaitingInit = true;
            processor.startFlow(requesterQpn, now, port.rateBitsPerSec(), mtuBytes, baseRttNs);
            runProcessor();
        }
        addActive(q);
        kickPort();
    }

    /**
     * Visits every requester QP still sending, in ascending QPN order, with its pacer rate and
     * window. Allocation-free.
     *
     * @param visitor receives (QPN, rate bits/s, window bytes or 0 = unlimited)
     */
    public void forEachActiveQp(final QpRateVisitor visitor) {
        for (int i = 0; i < requesterCount; i++) {
            final Qp q = requesterQps[i];
            visitor.accept(q.qpn, q.rateBitsPerSec, q.windowBytes);
        }
    }

    /** @return number of requester flows running on this NIC */
    public int activeFlows() {
        return requesterCount;
    }

    /**
     * Copies the CC processor's counters (and its algorithm's) into the counter registry, under
     * component {@code <name>/cc}, with the processor's counter names, and sets the NIC's
     * {@code rx_pause_duration_us} (time its port's data priority was paused by received PFC, as
     * mlx5's {@code rx_prio<p>_pause_duration} counts it for that priority). Call at the end of a run (or whenever a snapshot is
     * wanted); values are set, not added. Allocates (not for hot paths).
     */
    public void publishProcessorCounters() {
        if (port != null) {
            counters.counter(name, "rx_pause_duration_us").set(port.pausedDurationPs(dataPriority) / 1_000_000);
        }
        if (processor == null) {
            return;
        }
        final String component = name + "/cc";
        processor.forEachCounter((counterName, value) -> counters.counter(component, counterName).set(value));
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
        return txDataPackets.get();
    }

    // ------------------------------------------------------------------------------------------
    // receive path

    /**
     * A frame has fully arrived on the NIC's port: a PFC frame pauses the port's priorities; data
     * packets, READ requests, ACK/NAK, CNPs and RTT frames go to their QP (a frame for a QPN
     * without a QP counts {@code rx_unknown_qp_packets}, a CNP counts {@code rp_cnp_ignored}).
     * The frame is released to the pool before this returns.
     *
     * @param packet the frame; owned by the NIC from now on
     * @param inPort port number; the NIC has one port (0)
     */
    @Override
    public void receive(final Packet packet, final int inPort) {
        rxBytes.add(packet.frameBytes);
        if (packet.ecn == Packet.ECN_CE) {
            ecnCeReceived.increment();
        }
        switch (packet.kind) {
            case Packet.KIND_PFC -> {
                pfcPauseReceived.increment();
                if (port != null) {
                    port.applyPause(packet);
                }
            }
            case Packet.KIND_DATA -> onData(packet);
            case Packet.KIND_READ_REQUEST -> onReadRequest(packet);
            case Packet.KIND_ACK -> onAck(packet);
            case Packet.KIND_CNP -> onCnp(packet);
            case Packet.KIND_RTT_PROBE -> onRttProbe(packet);
            case Packet.KIND_RTT_RESPONSE -> onRttResponse(packet);
            default -> rxUnknownQp.increment();
        }
        pool.release(packet);
    }

    private void onData(final Packet p) {
        rxDataPackets.increment();
        final Qp q = qps.get(p.dstQpn);
        if (q == null) {
            rxUnknownQp.increment();
            return;
        }
        notificationPoint(q, p);
        if (q.role == Qp.RESPONDER) {
            if (q.op == MessageOp.READ) {
                rxUnknownQp.increment(); // a READ responder takes READ requests only
            } else {
                responderData(q, p);
            }
        } else if (q.op == MessageOp.READ && RoceOpcodes.isReadResponse(p.opcode)) {
            readResponse(q, p);
        } else {
            rxUnknownQp.increment();
        }
    }

    /** NP (spec 003 §4): CE-marked RoCE packet -> at most one CNP per QP per interval. */
    private void notificationPoint(final Qp q, final Packet p) {
        if (p.ecn != Packet.ECN_CE) {
            return;
        }
        npEcnMarked.increment();
        if (!npEnabled) {
            return;
        }
        final long now = sim.nowPs();
        if (now - q.lastCnpPs < cnpIntervalPs) {
            return;
        }
        q.lastCnpPs = now;
        final Packet c = controlFrame(Packet.KIND_CNP, RoceOpcodes.CNP, p.srcHost, q.qpn, p.srcQpn, cnpDscp,
            cnpPriority, cnpEcnCodepoint, CNP_FRAME_BYTES, q.udpSrcPort, p.flowId);
        c.becn = true;
        npCnpSent.increment();
        enqueueControl(c);
    }

    /** Responder PSN check and ACK policy for a WRITE/SEND data packet. */
    private void responderData(final Qp q, final Packet p) {
        final int d = FixedPoint.psnDelta(q.ePsn, p.psn);
        if (d > 0) {
            outOfSequence.increment();
            if (!q.nakSent) {
                q.nakSent = true;
                if (q.unacked > 0) {
                    flushAck(q);
                }
                sendAck(q, q.ePsn, false, 0, 0, Packet.AETH_NAK_PSN_SEQ_ERR);
            }
            return;
        }
        if (d < 0) {
            duplicateRequest.increment();
            if (q.unacked > 0) {
                flushAck(q);
            } else {
                sendAck(q, (q.ePsn - 1) & MASK, false, 0, 0, Packet.AETH_ACK);
            }
            return;
        }
        // in order: DCTCP CE state machine, spec 002 §3.2
        final boolean ce = p.ecn == Packet.ECN_CE;
        if (ce != q.ceState) {
            if (q.unacked > 0) {
                flushAck(q); // ACK previously unacknowledged packets with the old state
            }
            q.ceState = ce;
        }
        q.ePsn = (q.ePsn + 1) & MASK;
        q.nakSent = false;
        if (RoceOpcodes.endsMessage(p.opcode)) {
            q.msn = (q.msn + 1) & MASK;
        }
        q.unacked++;
        q.unackedTxTimestampNs = p.txTimestampNs;
        if (q.unacked >= ackEveryPackets || p.ackReq) {
            flushAck(q);
        } else if (q.unacked == 1 && delayedAckTimeoutPs > 0) {
            q.delayedAckDeadlinePs = sim.nowPs() + delayedAckTimeoutPs;
            if (!q.delayedAckEventPending) {
                q.delayedAckEventPending = true;
                sim.schedule(q.delayedAckDeadlinePs, handler, EV_DELAYED_ACK, q.incarnation, q);
            }
        }
    }

    /** Acknowledges the accepted, not yet acknowledged packets (ECE = DCTCP.CE). */
    private void flushAck(final Qp q) {
        sendAck(q, (q.ePsn - 1) & MASK, q.ceState, q.unackedTxTimestampNs, q.unacked, Packet.AETH_ACK);
        q.unacked = 0;
        q.delayedAckDeadlinePs = NEVER;
    }

    private void sendAck(final Qp q, final int psn, final boolean ece, final int echoTxNs, final int covered,
                         final int syndrome) {
        final Packet a = controlFrame(Packet.KIND_ACK, RoceOpcodes.ACKNOWLEDGE, q.peerHost, q.qpn, q.peerQpn, ackDscp,
            ackPriority, ackEcnCodepoint, ACK_FRAME_BYTES, q.udpSrcPort, q.flowId);
        a.psn = psn;
        a.aethSyndrome = syndrome;
        a.msn = q.msn;
        a.ece = ece;
        a.txTimestampNs = echoTxNs;
        a.ackedPackets = covered;
        if (syndrome == Packet.AETH_ACK) {
            txAckPackets.increment();
        } else {
            txNakPackets.increment();
        }
        enqueueControl(a);
    }

    private void onReadRequest(final Packet p) {
        rxReadRequests.increment();
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.RESPONDER || q.op != MessageOp.READ) {
            rxUnknownQp.increment();
            return;
        }
        notificationPoint(q, p);
        final int d = FixedPoint.psnDelta(q.ePsn, p.psn);
        if (d > 0) {
            outOfSequence.increment();
            if (!q.nakSent) {
                q.nakSent = true;
                sendAck(q, q.ePsn, false, 0, 0, Packet.AETH_NAK_PSN_SEQ_ERR);
            }
            return;
        }
        if (d < 0) {
            duplicateRequest.increment(); // re-executed: the stream restarts at the requested PSN
        }
        final int len = p.payloadBytes;
        final int packets = Math.max(1, (int) ((len + (long) q.mtuBytes - 1) / q.mtuBytes));
        q.respPsn = p.psn;
        q.respIndex = 0;
        q.respPackets = packets;
        q.respBytesLeft = len;
        final int end = (p.psn + packets) & MASK;
        if (FixedPoint.psnDelta(q.ePsn, end) > 0) {
            q.ePsn = end;
        }
        q.nakSent = false;
        addActive(q);
        kickPort();
    }

    private void readResponse(final Qp q, final Packet p) {
        final int d = FixedPoint.psnDelta(q.readExpectedIndex & MASK, p.psn);
        if (d == 0) {
            q.readExpectedIndex++;
            q.readGapReissued = false;
            if (q.readExpectedIndex >= q.totalPackets) {
                q.rtoDeadlinePs = NEVER;
                complete(q);
            } else {
                armRto(q);
            }
        } else if (d > 0 && !q.readGapReissued) {
            impliedNakSeqErr.increment();
            reissueRead(q);
        }
        // d < 0: duplicate response (from a re-executed request), dropped
    }

    private void reissueRead(final Qp q) {
        q.readGapReissued = true;
        q.readRequestIndex = q.readExpectedIndex;
        q.readRequestPending = true;
        addActive(q);
        kickPort();
    }

    private void onAck(final Packet p) {
        final boolean ack = p.aethSyndrome == Packet.AETH_ACK;
        if (ack) {
            rxAckPackets.increment();
        } else {
            rxNakPackets.increment();
        }
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            rxUnknownQp.increment();
            return;
        }
        if (ack) {
            requesterAck(q, p);
        } else if ((p.aethSyndrome & 0xE0) == Packet.AETH_NAK_PSN_SEQ_ERR) {
            requesterNak(q, p);
        }
        // RNR NAKs are not generated by this model; ignored
    }

    private void requesterAck(final Qp q, final Packet p) {
        if (q.op == MessageOp.READ) {
            return;
        }
        final int ackIndex = q.sndUna + FixedPoint.psnDelta(q.sndUna & MASK, p.psn);
        if (ackIndex < q.sndUna || ackIndex >= q.sndMax) {
            return; // acknowledges nothing new (re-ACK of a duplicate) or nothing sent
        }
        final int first = q.sndUna;
        q.sndUna = ackIndex + 1;
        if (q.sndNxt < q.sndUna) {
            q.sndNxt = q.sndUna;
        }
        final boolean done = q.sndUna >= q.totalPackets;
        if (done || q.sndUna >= q.sndMax) {
            q.rtoDeadlinePs = NEVER;
        } else {
            armRto(q);
        }
        if (processor != null) {
            event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, q.qpn, p.psn, sim.nowNs32());
            event.firstSn(first);
            event.rtt(p.txTimestampNs, 0, 0);
            offer(q, p.ece ? PccEventLayout.FLAG_ECE : 0);
        }
        if (done) {
            complete(q);
        } else {
            kickPort(); // the window may have opened
        }
    }

    private void requesterNak(final Qp q, final Packet p) {
        packetSeqErr.increment();
        if (q.op == MessageOp.READ) {
            reissueRead(q);
        } else {
            final int nakIndex = q.sndUna + FixedPoint.psnDelta(q.sndUna & MASK, p.psn);
            if (nakIndex < q.sndUna || nakIndex >= q.sndMax) {
                return; // stale
            }
            q.sndUna = nakIndex; // a NAK acknowledges every packet before its PSN
            q.sndNxt = nakIndex; // go-back-N
            addActive(q);
        }
        if (processor != null) {
            event.reset(PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, q.qpn, p.psn, sim.nowNs32());
            offer(q, 0);
        }
        kickPort();
    }

    private void onCnp(final Packet p) {
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            rpCnpIgnored.increment();
            return;
        }
        rpCnpHandled.increment();
        if (processor != null) {
            event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, q.qpn, lastSentPsn(q), sim.nowNs32());
            offer(q, p.becn ? PccEventLayout.FLAG_BECN : 0);
        }
    }

    private void onRttProbe(final Packet p) {
        final Packet r = controlFrame(Packet.KIND_RTT_RESPONSE, RoceOpcodes.RTT_RESPONSE, p.srcHost, p.dstQpn, p.srcQpn,
            ackDscp, ackPriority, ackEcnCodepoint, RTT_FRAME_BYTES, p.udpSrcPort, p.flowId);
        r.txTimestampNs = p.txTimestampNs;
        r.rttRequestReceiveNs = sim.nowNs32();
        txRttResponses.increment();
        enqueueControl(r);
    }

    private void onRttResponse(final Packet p) {
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            rxUnknownQp.increment();
            return;
        }
        if (processor != null) {
            event.reset(PccEventType.RTT_RESPONSE, PccEventType.SUBTYPE_NONE, q.qpn, lastSentPsn(q), sim.nowNs32());
            event.rtt(p.txTimestampNs, p.rttRequestReceiveNs, p.rttResponseSendNs);
            offer(q, 0);
        }
    }

    private static int lastSentPsn(final Qp q) {
        if (q.op == MessageOp.READ) {
            return q.readRequestIndex & MASK;
        }
        return q.sndMax == 0 ? 0 : (q.sndMax - 1) & MASK;
    }

    // ------------------------------------------------------------------------------------------
    // transmit path

    /** @return whether control frames or sending QPs may want the port (for {@link NicPort#hasBacklog()}) */
    boolean hasTxBacklog() {
        return controlCount > 0 || activeCount > 0;
    }

    /**
     * Picks the next frame for the port (called by {@link NicPort#nextDataPacket()}): a queued
     * ACK/NAK/CNP/RTT frame whose priority is not paused, else a data packet (or READ request) of
     * the next eligible QP in round-robin order; schedules a pacer wake-up when QPs wait only for
     * their pacer.
     *
     * @return the frame, or null if none is eligible now
     */
    Packet nextFrame() {
        selecting = true;
        selectedQp = null;
        try {
            final Packet c = pollControl();
            if (c != null) {
                return c;
            }
            if (activeCount == 0 || port.isPaused(dataPriority)) {
                return null; // a PFC resume kicks the port again
            }
            final long now = sim.nowPs();
            long earliest = NEVER;
            Qp q = cursor;
            final int n = activeCount;
            for (int i = 0; i < n && q != null; i++) {
                final Qp next = q.nextActive;
                if (!hasWork(q)) {
                    removeActive(q);
                    q = activeCount == 0 ? null : next;
                    continue;
                }
                if (q.awaitingInit || !windowOpen(q)) {
                    q = next;
                    continue;
                }
                if (q.nextSendPs > now) {
                    earliest = Math.min(earliest, q.nextSendPs);
                    q = next;
                    continue;
                }
                cursor = next;
                final Packet p = buildFrame(q, now);
                if (!hasWork(q)) {
                    removeActive(q);
                }
                return p;
            }
            if (earliest != NEVER) {
                scheduleWakeup(earliest);
            }
            return null;
        } finally {
            selecting = false;
        }
    }

    private static boolean hasWork(final Qp q) {
        if (q.role == Qp.RESPONDER) {
            return q.respIndex < q.respPackets;
        }
        if (q.op == MessageOp.READ) {
            return q.readRequestPending;
        }
        return q.sndNxt < q.totalPackets;
    }

    private static boolean windowOpen(final Qp q) {
        if (q.role != Qp.REQUESTER || q.op == MessageOp.READ || q.windowBytes == PccResult.WINDOW_UNLIMITED) {
            return true;
        }
        final long inFlight = q.byteOffset(q.sndNxt) - q.byteOffset(q.sndUna);
        return inFlight == 0 || inFlight + q.payloadBytes(q.sndNxt) <= q.windowBytes;
    }

    private Packet buildFrame(final Qp q, final long now) {
        final Packet p = pool.acquire();
        p.srcHost = hostId;
        p.dstHost = q.peerHost;
        p.srcQpn = q.qpn;
        p.dstQpn = q.peerQpn;
        p.flowId = q.flowId;
        p.udpSrcPort = q.udpSrcPort;
        p.dscp = dataDscp;
        p.priority = dataPriority;
        p.ecn = ecnCodepoint;
        if (q.role == Qp.RESPONDER) {
            // READ RESPONSE stream, at line rate
            final int payload = Math.min(q.mtuBytes, q.respBytesLeft);
            p.kind = Packet.KIND_DATA;
            p.opcode = RoceOpcodes.dataOpcode(MessageOp.READ, q.respIndex, q.respPackets);
            p.psn = q.respPsn;
            p.payloadBytes = payload;
            p.frameBytes = RoceFraming.frameBytes(payload, RoceOpcodes.extHeaderBytes(p.opcode));
            q.respPsn = (q.respPsn + 1) & MASK;
            q.respIndex++;
            q.respBytesLeft -= payload;
            p.lastOfMessage = q.respIndex == q.respPackets;
            txDataPackets.increment();
            return p;
        }
        if (q.op == MessageOp.READ) {
            p.kind = Packet.KIND_READ_REQUEST;
            p.opcode = RoceOpcodes.READ_REQUEST;
            p.psn = q.readRequestIndex & MASK;
            p.payloadBytes = (int) (q.sizeBytes - q.byteOffset(q.readRequestIndex));
            p.frameBytes = READ_REQUEST_FRAME_BYTES;
            p.ackReq = true;
            p.lastOfMessage = true;
            q.readRequestPending = false;
            if (q.readRequestsSent > 0) {
                roceAdpRetrans.increment();
            }
            q.readRequestsSent++;
            txReadRequests.increment();
            if (q.rtoDeadlinePs == NEVER) {
                armRto(q);
            }
        } else {
            final int index = q.sndNxt;
            final boolean last = index == q.totalPackets - 1;
            final int payload = q.payloadBytes(index);
            p.kind = Packet.KIND_DATA;
            p.opcode = RoceOpcodes.dataOpcode(q.op, index, q.totalPackets);
            p.psn = index & MASK;
            p.payloadBytes = payload;
            p.frameBytes = RoceFraming.frameBytes(payload, RoceOpcodes.extHeaderBytes(p.opcode));
            p.ackReq = last;
            p.lastOfMessage = last;
            final boolean retransmission = index < q.sndMax;
            if (retransmission) {
                roceAdpRetrans.increment();
            } else if (q.fastStartRemaining > 0) {
                // spec 000 §2.3/§3.1: first-RTT packets Not-ECT, the budget's last and the message's last ECT
                q.fastStartRemaining--;
                p.ecn = q.fastStartRemaining == 0 || last ? ecnCodepoint : Packet.ECN_NOT_ECT;
            }
            q.sndNxt = index + 1;
            if (q.sndNxt > q.sndMax) {
                q.sndMax = q.sndNxt;
            }
            q.burstBytes += payload;
            q.burstPackets++;
            if (q.rtoDeadlinePs == NEVER) {
                armRto(q);
            }
            txDataPackets.increment();
            selectedQp = q;
        }
        q.lastTxStartPs = now;
        q.lastFrameBytes = p.frameBytes;
        q.nextSendPs = now + RoceFraming.serializationPs(p.frameBytes, q.rateBitsPerSec,
            q.rateBitsPerSec == port.rateBitsPerSec() ? linePsPerByte : 0);
        return p;
    }

    /**
     * Hook from the port when a frame starts serialisation: transmit timestamps, byte counters and
     * the TX_BURST event.
     *
     * @param f the frame
     */
    void onTransmitStart(final Packet f) {
        txBytes.add(f.frameBytes);
        switch (f.kind) {
            case Packet.KIND_DATA -> {
                f.txTimestampNs = sim.nowNs32();
                final Qp q = selectedQp;
                selectedQp = null;
                if (q != null && (q.burstPackets >= txBurstPackets || q.sndNxt >= q.totalPackets)) {
                    emitTxBurst(q, f.psn);
                }
            }
            case Packet.KIND_READ_REQUEST, Packet.KIND_RTT_PROBE -> f.txTimestampNs = sim.nowNs32();
            case Packet.KIND_RTT_RESPONSE -> f.rttResponseSendNs = sim.nowNs32();
            default -> {
            }
        }
    }

    private void emitTxBurst(final Qp q, final int psn) {
        final int bytes = q.burstBytes;
        final int packets = q.burstPackets;
        q.burstBytes = 0;
        q.burstPackets = 0;
        if (processor != null) {
            event.reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, q.qpn, psn, sim.nowNs32());
            event.tx(bytes, packets);
            offer(q, 0);
        }
    }

    private void sendRttProbe(final Qp q) {
        final Packet p = controlFrame(Packet.KIND_RTT_PROBE, RoceOpcodes.RTT_PROBE, q.peerHost, q.qpn, q.peerQpn, dataDscp,
            dataPriority, ecnCodepoint, RTT_FRAME_BYTES, q.udpSrcPort, q.flowId);
        txRttProbes.increment();
        enqueueControl(p);
    }

    /** A pooled frame from this host with the header fields every control frame sets. */
    private Packet controlFrame(final int kind, final int opcode, final int dstHost, final int srcQpn, final int dstQpn,
                                final int dscp, final int priority, final int ecn, final int frameBytes,
                                final int udpSrcPort, final int flowId) {
        final Packet f = pool.acquire();
        f.kind = kind;
        f.opcode = opcode;
        f.srcHost = hostId;
        f.dstHost = dstHost;
        f.srcQpn = srcQpn;
        f.dstQpn = dstQpn;
        f.dscp = dscp;
        f.priority = priority;
        f.ecn = ecn;
        f.frameBytes = frameBytes;
        f.udpSrcPort = udpSrcPort;
        f.flowId = flowId;
        return f;
    }

    private void enqueueControl(final Packet p) {
        if (controlCount == control.length) {
            final Packet[] n = new Packet[control.length * 2];
            for (int i = 0; i < controlCount; i++) {
                n[i] = control[(controlHead + i) & (control.length - 1)];
            }
            control = n;
            controlHead = 0;
        }
        control[(controlHead + controlCount) & (control.length - 1)] = p;
        controlCount++;
        controlPerPriority[p.priority & 7]++;
        kickPort();
    }

    private Packet pollControl() {
        // under PFC, ACKs of a paused priority pile up: answer "nothing to send" without a scan
        boolean sendable = false;
        for (int prio = 0; prio < 8 && !sendable; prio++) {
            sendable = controlPerPriority[prio] > 0 && !port.isPaused(prio);
        }
        if (!sendable) {
            return null;
        }
        final int m = control.length - 1;
        for (int i = 0; i < controlCount; i++) {
            final int idx = (controlHead + i) & m;
            final Packet p = control[idx];
            if (port.isPaused(p.priority)) {
                continue;
            }
            if (i == 0) {
                control[idx] = null;
                controlHead = (controlHead + 1) & m;
            } else {
                for (int j = i; j < controlCount - 1; j++) {
                    control[(controlHead + j) & m] = control[(controlHead + j + 1) & m];
                }
                control[(controlHead + controlCount - 1) & m] = null;
            }
            controlCount--;
            controlPerPriority[p.priority & 7]--;
            return p;
        }
        return null;
    }

    private void kickPort() {
        if (port != null && !selecting) {
            port.kick();
        }
    }

    private void scheduleWakeup(final long atPs) {
        if (atPs < wakeupAtPs) {
            wakeupAtPs = atPs;
            sim.schedule(atPs, handler, EV_WAKEUP, 0, null);
        }
    }

    // ------------------------------------------------------------------------------------------
    // CC processor

    private void offer(final Qp q, final int flags) {
        event.flags(q.eventsOffered == 0 ? flags | PccEventLayout.FLAG_FIRST_IN_FLOW : flags);
        event.port(0);
        q.eventsOffered++;
        processor.offer(event, sim.nowPs());
        runProcessor();
    }

    private void runProcessor() {
        final long next = processor.advance(sim.nowPs());
        if (next != NEVER && next < processorWakeupAtPs) {
            processorWakeupAtPs = next;
            sim.schedule(Math.max(next, sim.nowPs()), handler, EV_PROCESSOR, 0, null);
        }
    }

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
        final Qp q = qps.get(qpn);
        if (q == null || q.role != Qp.REQUESTER) {
            return;
        }
        final long now = sim.nowPs();
        if (effectivePs > now || q.pendingCount > 0) {
            q.pushResult(result, effectivePs);
            sim.schedule(Math.max(effectivePs, now), handler, EV_APPLY_RESULT, q.incarnation, q);
        } else {
            applyResult(q, result.rate(), result.windowBytes(), result.rttProbeRequest(), result.timerNs(),
                result.fastStartPackets());
        }
    }

    private void applyPending(final Qp q) {
        final long now = sim.nowPs();
        while (q.pendingCount > 0 && q.pendingEffectivePs[q.pendingHead] <= now && q.role == Qp.REQUESTER) {
            final int i = q.pendingHead;
            q.pendingHead = (q.pendingHead + 1) % q.pendingRate.length;
            q.pendingCount--;
            applyResult(q, q.pendingRate[i], q.pendingWindow[i], q.pendingProbe[i], q.pendingTimerNs[i],
                q.pendingFastStart[i]);
        }
    }

    private void applyResult(final Qp q, final int rate, final long windowBytes, final boolean probe,
                             final int timerNs, final int fastStart) {
        ccResultsApplied.increment();
        q.awaitingInit = false;
        if (rate != PccResult.RATE_UNCHANGED) {
            q.rateBitsPerSec = Math.max(1, FixedPoint.rateToBitsPerSec(rate, port.rateBitsPerSec()));
            if (q.lastTxStartPs != Qp.NEVER_SENT) {
                q.nextSendPs = q.lastTxStartPs + RoceFraming.serializationPs(q.lastFrameBytes, q.rateBitsPerSec);
            }
        }
        if (windowBytes != PccResult.WINDOW_UNCHANGED) {
            q.windowBytes = windowBytes;
        }
        if (fastStart != PccResult.FAST_START_UNCHANGED) {
            q.fastStartRemaining = fastStart;
        }
        if (probe) {
            sendRttProbe(q);
        }
        if (timerNs > 0) {
            q.timerDeadlinePs = sim.nowPs() + timerNs * 1000L;
            if (q.timerDeadlinePs < q.timerEventAtPs) {
                q.timerEventAtPs = q.timerDeadlinePs;
                sim.schedule(q.timerDeadlinePs, handler, EV_PCC_TIMER, q.incarnation, q);
            }
        }
        kickPort();
    }

    // ------------------------------------------------------------------------------------------
    // timers

    private void armRto(final Qp q) {
        q.rtoDeadlinePs = sim.nowPs() + rtoPs;
        if (!q.rtoEventPending) {
            q.rtoEventPending = true;
            sim.schedule(q.rtoDeadlinePs, handler, EV_RTO, q.incarnation, q);
        }
    }

    private void onRtoEvent(final Qp q) {
        q.rtoEventPending = false;
        if (q.role != Qp.REQUESTER || q.rtoDeadlinePs == NEVER) {
            return;
        }
        final long now = sim.nowPs();
        if (q.rtoDeadlinePs > now) {
            q.rtoEventPending = true;
            sim.schedule(q.rtoDeadlinePs, handler, EV_RTO, q.incarnation, q);
            return;
        }
        q.rtoDeadlinePs = NEVER;
        if (q.op == MessageOp.READ) {
            if (q.readExpectedIndex < q.totalPackets) {
                localAckTimeoutErr.increment();
                reissueRead(q);
            }
        } else if (q.sndUna < q.sndMax) {
            localAckTimeoutErr.increment();
            q.sndNxt = q.sndUna; // go-back-N from the oldest unacknowledged packet
            addActive(q);
            kickPort();
        }
    }

    private void onDelayedAckEvent(final Qp q) {
        q.delayedAckEventPending = false;
        if (q.role != Qp.RESPONDER || q.unacked == 0) {
            return;
        }
        if (q.delayedAckDeadlinePs > sim.nowPs()) {
            q.delayedAckEventPending = true;
            sim.schedule(q.delayedAckDeadlinePs, handler, EV_DELAYED_ACK, q.incarnation, q);
            return;
        }
        flushAck(q);
    }

    private void onPccTimer(final Qp q) {
        final long now = sim.nowPs();
        if (now != q.timerEventAtPs) {
            return; // an event of an earlier arming that a nearer deadline overtook
        }
        q.timerEventAtPs = Long.MAX_VALUE;
        if (q.role != Qp.REQUESTER || processor == null || q.timerDeadlinePs == Long.MAX_VALUE) {
            return;
        }
        if (q.timerDeadlinePs > now) {
            // re-armed to a later deadline since this event was scheduled: follow it
            q.timerEventAtPs = q.timerDeadlinePs;
            sim.schedule(q.timerDeadlinePs, handler, EV_PCC_TIMER, q.incarnation, q);
            return;
        }
        q.timerDeadlinePs = Long.MAX_VALUE;
        event.reset(PccEventType.TIMER, PccEventType.SUBTYPE_NONE, q.qpn, lastSentPsn(q), sim.nowNs32());
        offer(q, 0);
    }

    private final class Handler implements EventHandler {
        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            switch (kind) {
                case EV_WAKEUP -> {
                    if (sim.nowPs() >= wakeupAtPs) {
                        wakeupAtPs = NEVER;
                    }
                    kickPort();
                }
                case EV_PROCESSOR -> {
                    if (sim.nowPs() >= processorWakeupAtPs) {
                        processorWakeupAtPs = NEVER;
                    }
                    if (processor != null) {
                        runProcessor();
                    }
                }
                case EV_APPLY_RESULT -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        applyPending(q);
                    }
                }
                case EV_RTO -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        onRtoEvent(q);
                    }
                }
                case EV_PCC_TIMER -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        onPccTimer(q);
                    }
                }
                case EV_DELAYED_ACK -> {
                    final Qp q = (Qp) ref;
                    if (q.incarnation == (int) arg) {
                        onDelayedAckEvent(q);
                    }
                }
                default -> throw new IllegalStateException("unknown NIC event " + kind);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // QP bookkeeping

    private void complete(final Qp q) {
        final long now = sim.nowPs();
        final int flowId = q.flowId;
        final FlowListener listener = q.listener;
        if (processor != null) {
            processor.endFlow(q.qpn);
        }
        final Qp peer = q.peerQp;
        if (peer != null && peer.incarnation == q.peerIncarnation) {
            q.peerNic.releaseQp(peer);
        }
        releaseQp(q);
        flowsCompleted.increment();
        if (listener != null) {
            listener.onFlowComplete(flowId, now);
        }
    }

    private Qp acquireQp() {
        if (freeQpCount == 0) {
            return new Qp();
        }
        final Qp q = freeQps[--freeQpCount];
        freeQps[freeQpCount] = null;
        return q;
    }

    private void releaseQp(final Qp q) {
        qps.remove(q.qpn);
        removeActive(q);
        if (q.role == Qp.REQUESTER) {
            removeRequester(q);
        }
        q.release();
        if (freeQpCount == freeQps.length) {
            freeQps = Arrays.copyOf(freeQps, freeQps.length * 2);
        }
        freeQps[freeQpCount++] = q;
    }

    private void insertRequester(final Qp q) {
        if (requesterCount == requesterQpns.length) {
            requesterQpns = Arrays.copyOf(requesterQpns, requesterCount * 2);
            requesterQps = Arrays.copyOf(requesterQps, requesterCount * 2);
        }
        int pos = Arrays.binarySearch(requesterQpns, 0, requesterCount, q.qpn);
        pos = pos < 0 ? -pos - 1 : pos;
        System.arraycopy(requesterQpns, pos, requesterQpns, pos + 1, requesterCount - pos);
        System.arraycopy(requesterQps, pos, requesterQps, pos + 1, requesterCount - pos);
        requesterQpns[pos] = q.qpn;
        requesterQps[pos] = q;
        requesterCount++;
    }

    private void removeRequester(final Qp q) {
        final int pos = Arrays.binarySearch(requesterQpns, 0, requesterCount, q.qpn);
        if (pos < 0 || requesterQps[pos] != q) {
            return;
        }
        System.arraycopy(requesterQpns, pos + 1, requesterQpns, pos, requesterCount - pos - 1);
        System.arraycopy(requesterQps, pos + 1, requesterQps, pos, requesterCount - pos - 1);
        requesterCount--;
        requesterQps[requesterCount] = null;
    }

    private void addActive(final Qp q) {
        if (q.inActiveList) {
            return;
        }
        if (cursor == null) {
            q.nextActive = q;
            q.prevActive = q;
            cursor = q;
        } else {
            final Qp tail = cursor.prevActive; // insert at the end of the round-robin order
            tail.nextActive = q;
            q.prevActive = tail;
            q.nextActive = cursor;
            cursor.prevActive = q;
        }
        q.inActiveList = true;
        activeCount++;
    }

    private void removeActive(final Qp q) {
        if (!q.inActiveList) {
            return;
        }
        if (q.nextActive == q) {
            cursor = null;
        } else {
            q.prevActive.nextActive = q.nextActive;
            q.nextActive.prevActive = q.prevActive;
            if (cursor == q) {
                cursor = q.nextActive;
            }
        }
        q.nextActive = null;
        q.prevActive = null;
        q.inActiveList = false;
        activeCount--;
    }

    /** RoCEv2 UDP source port as flow entropy: 49152 + a 14-bit hash of (host, QPN). */
    private static int entropy(final int host, final int qpn) {
        return 0xC000 | (int) (RngStreams.mix(((long) host << 32) | (qpn & 0xFFFF_FFFFL)) & 0x3FFF);
    }

    @Override
    public String toString() {
        return "RoceNic{" + name + ", host=" + hostId + ", flows=" + requesterCount + "}";
    }
}
