package dev.nicsim.nic;

import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RingArrays;

import java.util.Arrays;

/**
 * State of one RC queue pair on one NIC, in one of two roles: the requester end of a flow (sends
 * the WRITE/SEND data or the READ request, receives ACK/NAK/CNP/RTT responses, runs the pacer,
 * window and go-back-N) or the responder end (checks PSNs, acknowledges, runs the notification
 * point, and for READ streams the READ RESPONSE packets).
 *
 * <p>Packet indexes ({@code sndUna}, {@code sndNxt}, ...) count packets of the message from 0 and
 * do not wrap; the PSN on the wire is {@link #psn(int) (initialPsn + index) modulo 2^24}, where the
 * first PSN is chosen at connection setup (IBTA vol. 1 §9.7.1: any 24-bit value; both ends of the
 * pair agree on it, as the CM exchange makes them), and a PSN on the wire maps back to an index by
 * 24-bit serial arithmetic (RFC 1982) against a nearby index. Objects
 * are pooled by their NIC and reused for later flows; {@link #incarnation} changes on every release
 * so events scheduled for an earlier flow are recognised and ignored.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class Qp {
    /** Role: requester end of a flow. */
    static final int REQUESTER = 1;
    /** Role: responder end of a flow. */
    static final int RESPONDER = 2;
    /** {@link #lastTxStartPs} value before the first transmission. */
    static final long NEVER_SENT = Long.MIN_VALUE;

    // ---- identity
    /** Changes on every release; scheduled events carry it. */
    int incarnation;
    /** {@link #REQUESTER} or {@link #RESPONDER}; 0 while pooled. */
    int role;
    /** Local QPN, 24 bits. */
    int qpn;
    /** Remote QPN, 24 bits. */
    int peerQpn;
    /** Remote host id. */
    int peerHost;
    /** Simulation flow id. */
    int flowId;
    /** Operation of the flow. */
    MessageOp op;
    /** Message size, bytes, {@code 1 .. 2^31-1}. */
    int sizeBytes;
    /** Path MTU, payload bytes per full packet. */
    int mtuBytes;
    /** Packets in the message: ceil(size / MTU). */
    int totalPackets;
    /** UDP source port (flow entropy for ECMP). */
    int udpSrcPort;
    /** Requester with a spraying path policy: the per-packet EV choice; null otherwise. Kept across pooled flows. */
    PathSelector path;
    /** Completion listener (requester). */
    FlowListener listener;
    /** NIC of the other end. */
    RoceNic peerNic;
    /** QP object of the other end, and its incarnation when the flow started. */
    Qp peerQp;
    /** Incarnation of {@link #peerQp} when the flow started. */
    int peerIncarnation;

    // ---- round-robin list of QPs with something to send
    Qp nextActive;
    Qp prevActive;
    boolean inActiveList;

    // ---- requester: go-back-N send state (packet indexes)
    /** Oldest unacknowledged packet. */
    int sndUna;
    /** Next packet to send. */
    int sndNxt;
    /** One past the highest packet ever sent (packets below it are retransmissions). */
    int sndMax;
    /** Whether the QP waits for its flow's first PCC result before sending. */
    boolean awaitingInit;
    /** Pacer rate, bits/s. */
    long rateBitsPerSec;
    /** Window, payload bytes; {@link PccResult#WINDOW_UNLIMITED} = none. */
    long windowBytes;
    /** First-RTT packets left in the fast-start budget. */
    int fastStartRemaining;
    /** Earliest time the pacer lets the next packet go, ps. */
    long nextSendPs;
    /** Start of the last transmission, ps, or {@link #NEVER_SENT}. */
    long lastTxStartPs;
    /** Frame bytes of the last transmission (the pacer gap is recomputed from it on a rate change). */
    int lastFrameBytes;
    /** Payload bytes since the last TX_BURST event. */
    int burstBytes;
    /** Data packets since the last TX_BURST event. */
    int burstPackets;
    /** PCC events offered for this flow (the first carries FLAG_FIRST_IN_FLOW). */
    long eventsOffered;
    /** Retransmission timeout deadline, ps; {@link Long#MAX_VALUE} = disarmed. */
    long rtoDeadlinePs;
    /** Whether an RTO event is scheduled (one at a time; it re-schedules itself to the deadline). */
    boolean rtoEventPending;
    /** PCC timer deadline, ps; {@link Long#MAX_VALUE} = disarmed. Re-arming replaces it. */
    long timerDeadlinePs = Long.MAX_VALUE;
    /**
     * Time of the earliest scheduled PCC timer event, ps, or {@link Long#MAX_VALUE}: re-arming to a
     * later deadline schedules nothing (the pending event re-schedules itself), so an algorithm that
     * re-arms on every event does not fill the kernel's heap with stale timers.
     */
    long timerEventAtPs = Long.MAX_VALUE;

    // ---- requester: progress, for the end-of-run report of unfinished flows (FlowProgress)
    /** Last time a byte of the message was newly acknowledged (or READ data accepted in order), or the start, ps. */
    long progressPs;
    /** Time the pacer rate last changed value (or the start), ps. */
    long rateSincePs;
    /** Lowest pacer rate the CC results set (line rate until one does), bits/s. */
    long lowestRateBitsPerSec;
    /** Time the last CC result took effect, ps; {@link #NEVER_SENT} if none. */
    long lastResultPs;
    /** RTT probes sent for the flow. */
    int rttProbes;
    /**
     * An RTT probe was sent since the flow's last TX_BURST event: the next one carries
     * {@link PccEventLayout#FLAG_RTT_REQ_SENT}.
     */
    boolean rttReqSentPending;
    /** RTT responses received for the flow. */
    int rttResponses;

    // ---- requester: READ
    /** Whether a READ request is waiting to be sent. */
    boolean readRequestPending;
    /** First packet index the pending READ request asks for. */
    int readRequestIndex;
    /** READ requests sent (more than one means re-issues). */
    int readRequestsSent;
    /** Next READ RESPONSE packet index expected. */
    int readExpectedIndex;
    /** Whether the current gap in the READ responses has already caused a re-issue. */
    boolean readGapReissued;

    // ---- requester: results waiting for their effective time (FIFO)
    int[] pendingRate = new int[4];
    long[] pendingWindow = new long[4];
    boolean[] pendingProbe = new boolean[4];
    int[] pendingTimerNs = new int[4];
    int[] pendingFastStart = new int[4];
    long[] pendingEffectivePs = new long[4];
    int pendingHead;
    int pendingCount;

    // ---- responder
    /** Expected PSN (24 bits). */
    int ePsn;
    /** PSN of the flow's first packet (24 bits): the requester's first PSN and the responder's first expected one. */
    int initialPsn;
    /** Message sequence number (24 bits): messages completed. */
    int msn;
    /** Whether a NAK was sent for the current gap (one NAK per gap). */
    boolean nakSent;
    /** DCTCP.CE state, the DCTCP draft §3.2. */
    boolean ceState;
    /** In-order packets accepted and not yet acknowledged. */
    int unacked;
    /** Responder with INT: the hop count of the last accepted data packet, echoed in the next ACK. */
    int ackIntHopCount;
    /** Responder with INT: its hop records ({@link Packet#intHops} layout); allocated on first use. */
    long[] ackIntHops;
    /** Transmit timestamp of the last unacknowledged packet (echoed in the ACK). */
    int unackedTxTimestampNs;
    /** Delayed-ACK deadline, ps; {@link Long#MAX_VALUE} = none. */
    long delayedAckDeadlinePs;
    /** Whether a delayed-ACK event is scheduled. */
    boolean delayedAckEventPending;
    /** Frame bytes accepted since the last ACK ({@link NicConfig#ackCoalesceBytes}). */
    int unackedBytes;
    /** UDP source port of the last accepted data packet, echoed by the next ACK ({@link Packet#echoUdpSrcPort}). */
    int unackedUdpSrcPort;
    /** Whether a data packet of the flow has been accepted (the first one is acknowledged at once when coalescing). */
    boolean rxStarted;
    /** Selective repeat: an AckReq packet arrived while out-of-order packets were held; ACK again when they drain. */
    boolean srAckRequest;

    // ---- selective repeat ({@link SelectiveRepeat}); null / 0 under go-back-N
    /** Responder: received PSNs beyond {@link #ePsn}, a ring of window bits indexed by PSN. */
    long[] srRx;
    /** Responder: packets held in {@link #srRx}. */
    int srRxCount;
    /** Requester: SACKed packets, a ring of window bits indexed by packet index. */
    long[] srAcked;
    /** Requester: packets waiting to be resent, same ring. */
    long[] srRtx;
    /** Requester: packets already resent because a SACK showed them lost (at most once each), same ring. */
    long[] srLost;
    /** Requester: bits set in {@link #srRtx}. */
    int srRtxCount;
    /** Requester under selective repeat: the window counts bytes outstanding ({@link SelectiveRepeat#outstandingBytes}). */
    boolean srSender;
    /** Requester: payload bytes of the packets set in {@link #srAcked} (SACKed, at or past {@code sndUna}). */
    long srSackedBytes;
    /** Requester: payload bytes of the packets set in {@link #srRtx} (known lost, waiting to be resent). */
    long srRtxBytes;

    /** READ RESPONSE stream: next PSN. */
    int respPsn;
    /** READ RESPONSE stream: index of the next packet in the stream. */
    int respIndex;
    /** READ RESPONSE stream: packets in the stream. */
    int respPackets;
    /** READ RESPONSE stream: bytes not yet sent. */
    int respBytesLeft;

    // ---- notification point (either role)
    /** Time the last CNP for this QP was sent, ps. */
    long lastCnpPs;

    /** Creates a pooled (unused) QP. */
    Qp() {
    }

    /**
     * Sets every per-flow field to its starting value (the incarnation is kept).
     *
     * @param role          {@link #REQUESTER} or {@link #RESPONDER}
     * @param qpn           local QPN
     * @param peerQpn       remote QPN
     * @param peerHost      remote host id
     * @param flowId        flow id
     * @param op            operation
     * @param sizeBytes     message size, bytes
     * @param mtuBytes      path MTU, bytes
     * @param udpSrcPort    UDP source port
     * @param lineRateBitsPerSec initial pacer rate, bits/s
     * @param initialPsn    PSN of the first packet, 24 bits
     */
    void init(final int role, final int qpn, final int peerQpn, final int peerHost, final int flowId,
              final MessageOp op, final int sizeBytes, final int mtuBytes, final int udpSrcPort,
              final long lineRateBitsPerSec, final int initialPsn) {
        this.role = role;
        this.initialPsn = initialPsn;
        this.qpn = qpn;
        this.peerQpn = peerQpn;
        this.peerHost = peerHost;
        this.flowId = flowId;
        this.op = op;
        this.sizeBytes = sizeBytes;
        this.mtuBytes = mtuBytes;
        this.totalPackets = (int) ((sizeBytes + (long) mtuBytes - 1) / mtuBytes);
        this.udpSrcPort = udpSrcPort;
        listener = null;
        peerNic = null;
        peerQp = null;
        peerIncarnation = 0;
        nextActive = null;
        prevActive = null;
        inActiveList = false;
        sndUna = 0;
        sndNxt = 0;
        sndMax = 0;
        awaitingInit = false;
        rateBitsPerSec = lineRateBitsPerSec;
        windowBytes = PccResult.WINDOW_UNLIMITED;
        fastStartRemaining = 0;
        nextSendPs = 0;
        lastTxStartPs = NEVER_SENT;
        lastFrameBytes = 0;
        burstBytes = 0;
        burstPackets = 0;
        eventsOffered = 0;
        rtoDeadlinePs = Long.MAX_VALUE;
        rtoEventPending = false;
        timerDeadlinePs = Long.MAX_VALUE;
        timerEventAtPs = Long.MAX_VALUE;
        progressPs = 0;
        rateSincePs = 0;
        lowestRateBitsPerSec = lineRateBitsPerSec;
        lastResultPs = NEVER_SENT;
        rttProbes = 0;
        rttReqSentPending = false;
        rttResponses = 0;
        readRequestPending = false;
        readRequestIndex = 0;
        readRequestsSent = 0;
        readExpectedIndex = 0;
        readGapReissued = false;
        pendingHead = 0;
        pendingCount = 0;
        ePsn = initialPsn;
        msn = 0;
        nakSent = false;
        ceState = false;
        unacked = 0;
        unackedTxTimestampNs = 0;
        delayedAckDeadlinePs = Long.MAX_VALUE;
        delayedAckEventPending = false;
        unackedBytes = 0;
        unackedUdpSrcPort = -1;
        rxStarted = false;
        srAckRequest = false;
        srRxCount = 0;
        srRtxCount = 0;
        srSender = false;
        srSackedBytes = 0;
        srRtxBytes = 0;
        respPsn = 0;
        respIndex = 0;
        respPackets = 0;
        respBytesLeft = 0;
        lastCnpPs = Long.MIN_VALUE / 4;
    }

    /**
     * Selective repeat: gives the QP cleared bitmaps of {@code windowPackets} bits (its role's),
     * allocated the first time the pooled object needs them, zeroed after.
     *
     * @param windowPackets {@link NicConfig#srWindowPackets}, a power of two {@code >= 64}
     */
    void initSelectiveRepeat(final int windowPackets) {
        final int words = windowPackets >>> 6;
        if (role == RESPONDER) {
            srRx = cleared(srRx, words);
        } else {
            srAcked = cleared(srAcked, words);
            srRtx = cleared(srRtx, words);
            srLost = cleared(srLost, words);
            srSender = true;
        }
    }

    private static long[] cleared(final long[] a, final int words) {
        if (a == null || a.length != words) {
            return new long[words];
        }
        Arrays.fill(a, 0L);
        return a;
    }

    /**
     * The PSN on the wire of a packet index of this flow.
     *
     * @param index packet index from the flow's start (may be -1: "before the first packet")
     * @return {@code (initialPsn + index) mod 2^24}
     */
    int psn(final int index) {
        return (initialPsn + index) & 0xFF_FFFF;
    }

    /** Forgets references to other objects and bumps the incarnation (on release to the pool). */
    void release() {
        incarnation++;
        role = 0;
        listener = null;
        peerNic = null;
        peerQp = null;
        nextActive = null;
        prevActive = null;
        inActiveList = false;
        pendingCount = 0;
    }

    /**
     * Payload bytes of a packet of this QP's message.
     *
     * @param index packet index, {@code 0 .. totalPackets-1}
     * @return MTU, or the remainder for the last packet
     */
    int payloadBytes(final int index) {
        return index < totalPackets - 1 ? mtuBytes : sizeBytes - (totalPackets - 1) * mtuBytes;
    }

    /**
     * Message byte offset at which a packet starts.
     *
     * @param index packet index, {@code 0 .. totalPackets}
     * @return {@code min(index x MTU, size)}
     */
    long byteOffset(final int index) {
        return Math.min((long) index * mtuBytes, sizeBytes);
    }

    /**
     * Queues a result to apply at a later time. Grows the queue (allocating) only when more results
     * are in flight than ever before.
     *
     * @param r           the result to copy
     * @param effectivePs when it takes effect, ps
     */
    void pushResult(final PccResult r, final long effectivePs) {
        if (pendingCount == pendingRate.length) {
            growPending();
        }
        final int i = (pendingHead + pendingCount) % pendingRate.length;
        pendingRate[i] = r.rate();
        pendingWindow[i] = r.windowBytes();
        pendingProbe[i] = r.rttProbeRequest();
        pendingTimerNs[i] = r.timerNs();
        pendingFastStart[i] = r.fastStartPackets();
        pendingEffectivePs[i] = effectivePs;
        pendingCount++;
    }

    private void growPending() {
        final int n = pendingRate.length * 2;
        pendingRate = RingArrays.unwrap(pendingRate, pendingHead, pendingCount, new int[n]);
        pendingWindow = RingArrays.unwrap(pendingWindow, pendingHead, pendingCount, new long[n]);
        pendingProbe = RingArrays.unwrap(pendingProbe, pendingHead, pendingCount, new boolean[n]);
        pendingTimerNs = RingArrays.unwrap(pendingTimerNs, pendingHead, pendingCount, new int[n]);
        pendingFastStart = RingArrays.unwrap(pendingFastStart, pendingHead, pendingCount, new int[n]);
        pendingEffectivePs = RingArrays.unwrap(pendingEffectivePs, pendingHead, pendingCount, new long[n]);
        pendingHead = 0;
    }

    @Override
    public String toString() {
        return "Qp{qpn=" + qpn + ", role=" + role + ", op=" + op + ", flow=" + flowId + ", una=" + sndUna
            + ", nxt=" + sndNxt + ", max=" + sndMax + ", of=" + totalPackets + ", ePsn=" + ePsn
            + ", pendingResults=" + pendingCount + "}";
    }
}
