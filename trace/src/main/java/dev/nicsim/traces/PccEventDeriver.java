package dev.nicsim.traces;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.Units;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Turns the decoded packets of a capture into the PCC event stream the requester NICs in it would
 * have seen, written to a {@link PccEventSink} as {@link PccEvent} records in time order. The event
 * set is the PCC contract of {@link dev.nicsim.pcc} (the events of NVIDIA's DOCA PCC device model: TX at
 * the end of a burst with bytes and packets sent; ACK; NACK with subtype; CNP; RTT response with
 * request-send, request-receive and response-send timestamps); the field semantics follow the
 * simulator's {@code RoceNic} so that imported and simulated traces mean the same; CNPs name the
 * reaction point's QP as the RoCE ECN/DCQCN article §4 and §5 (steps 8-10) describe.
 *
 * <h2>Who is the requester</h2>
 * Inferred from the opcodes ({@link IbOpcodes}): connected-service requests (SEND, RDMA WRITE,
 * RDMA READ Request, atomics; RC, UC, RD, XRC) come from a requester and carry the responder's QPN;
 * responses (RDMA READ Response, Acknowledge, ATOMIC Acknowledge) and CNPs go to the requester and
 * carry the requester's QPN. A <em>flow</em> is a requester QP: (requester address, requester QPN);
 * the event's flow id is that QPN and its port is the requester address's index in order of first
 * appearance (0..255; later addresses share 255), so (port, flow id) names a QP even when two hosts
 * use the same QPN. The request stream (requester address, responder address, responder QPN) is
 * paired with its flow by the first response whose PSN is within 2^22 of the stream's last sent
 * PSN (closest wins). UD, management (QP0/QP1) and manufacturer-specific packets give no events
 * (counted in {@link #packetsWithoutFlow()}).
 *
 * <h2>Events</h2>
 * <ul>
 *   <li>{@code TX_BURST}: the request packets of a stream, cut into bursts where two consecutive
 *       packets are more than {@code burstGapNs} apart (or a burst would exceed 2^31-1 bytes);
 *       emitted at the burst's last packet: sn = that packet's PSN, first sn / first timestamp =
 *       the burst's first packet, bytes = payload bytes summed (without headers, pad and ICRC, as
 *       the simulator counts), packets = request packets summed.</li>
 *   <li>{@code ACK}: an Acknowledge or ATOMIC Acknowledge whose AETH is an ACK and whose PSN
 *       acknowledges something new for the flow (24-bit serial comparison): sn = its PSN, first sn
 *       = first newly acknowledged PSN, RTT request-send field = the capture time of the request
 *       packet with that PSN (0 when not seen). Duplicate ACKs are counted, not emitted. READ
 *       responses carry an AETH too but give no ACK event (as in the simulator).</li>
 *   <li>{@code NACK}: AETH RNR NAK -> subtype {@link PccEventType#NACK_RNR}; NAK code 0 (PSN
 *       sequence error) -> {@link PccEventType#NACK_OUT_OF_SEQUENCE}; sn = the NAK's PSN. NAKs with
 *       other codes (invalid request, access or operational errors) are counted, not emitted.</li>
 *   <li>{@code CNP}: BTH opcode 0x81, for the flow (CNP destination address, CNP destination QP);
 *       sn = the flow's highest PSN sent (0 if unknown); flag {@link PccEventLayout#FLAG_BECN} when
 *       the BECN bit is set.</li>
 *   <li>{@code RTT_RESPONSE}: a request packet with AckReq set that is answered by a response with
 *       the same PSN (an Acknowledge, or the first packet of a READ response): request-send = the
 *       request's capture time; a single capture point cannot see the responder's turnaround, so
 *       request-receive = response-send = the midpoint of request and response (turnaround taken as
 *       0); sn = the flow's highest PSN sent. Disabled with {@code rttFromAckReq = false}. The
 *       sample is the round trip as seen at the capture point (a capture at the requester gives
 *       the full RTT).</li>
 * </ul>
 * The first event of each flow carries {@link PccEventLayout#FLAG_FIRST_IN_FLOW}.
 *
 * <h2>Time and order</h2>
 * {@code timePs} is the time since the capture's first RoCE or InfiniBand packet (skipped frames
 * such as ARP do not count; {@link CaptureDecoder} hands each interface's packets on in timestamp
 * order, and a timestamp that still goes backwards, across pcapng interfaces or sections, is clamped
 * to the previous one and counted); the record's 32-bit timestamps are {@code timePs/1000}
 * ns, wrapping. Events reach the sink in non-decreasing time: events generated while a burst is open
 * wait in a reorder ring until the burst closes, and a TX_BURST whose stream is not yet paired with
 * its flow waits up to {@code pairingWaitNs} for the first response (after that, or at
 * {@link #finish()}, it is emitted with the responder QPN as its flow id and counted in
 * {@link #txBurstsUnpaired()}).
 *
 * <p>Allocation: none per packet or event in steady state (tables and the ring grow by doubling
 * when a peak is exceeded). Thread-safety: not thread-safe; one capture per instance, fed on one
 * thread, then {@link #finish()}.
 */
public final class PccEventDeriver implements RocePacketHandler {
    /** Default gap that ends a TX burst, ns. */
    public static final long DEFAULT_BURST_GAP_NS = 10_000;
    /** Default time a TX_BURST may wait for its stream to be paired with a flow, ns. */
    public static final long DEFAULT_PAIRING_WAIT_NS = 1_000_000;

    private static final int MASK24 = PccEventLayout.MASK_24;
    private static final int REC = PccEventLayout.RECORD_LENGTH;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final long MAX_DELTA_NS = Long.MAX_VALUE / Units.PS_PER_NS;

    private final PccEventSink sink;
    private final long burstGapPs;
    private final long pairingWaitPs;
    private final boolean rttFromAckReq;
    private final PccEvent event = new PccEvent();
    private final FlowTable table = new FlowTable();
    private final EventRing ring = new EventRing();

    // time
    private boolean started;
    private long baseNs;
    private long nowPs;
    private long seq;

    // streams with an open burst
    private int[] open = new int[16];
    private int openCount;

    // counts
    private final long[] eventsByType = new long[PccEventType.COUNT];
    private long duplicateAcks;
    private long naksOtherCode;
    private long txBurstsUnpaired;
    private long packetsWithoutFlow;
    private long timeRegressions;
    private long pauseFrames;
    private long ceMarkedRequests;

    /**
     * Creates a deriver with the default burst gap ({@value #DEFAULT_BURST_GAP_NS} ns), pairing wait
     * ({@value #DEFAULT_PAIRING_WAIT_NS} ns) and RTT samples from AckReq round trips.
     *
     * @param sink receives the events
     */
    public PccEventDeriver(final PccEventSink sink) {
        this(sink, DEFAULT_BURST_GAP_NS, DEFAULT_PAIRING_WAIT_NS, true);
    }

    /**
     * Creates a deriver.
     *
     * @param sink          receives the events
     * @param burstGapNs    a TX burst ends when the stream's next request packet is more than this
     *                      later, ns, 1 .. 10^9 (one second)
     * @param pairingWaitNs how long a TX_BURST may wait for its stream's first response, ns,
     *                      0 .. 10^12 (1000 s)
     * @param rttFromAckReq whether AckReq request/response pairs give RTT_RESPONSE events
     * @throws IllegalArgumentException if a value is out of range or the sink is null
     */
    public PccEventDeriver(final PccEventSink sink, final long burstGapNs, final long pairingWaitNs,
                           final boolean rttFromAckReq) {
        if (sink == null) {
            throw new IllegalArgumentException("sink: expected a PccEventSink, got null");
        }
        if (burstGapNs < 1 || burstGapNs > 1_000_000_000L) {
            throw new IllegalArgumentException("burstGapNs: expected 1..1000000000 ns, got " + burstGapNs);
        }
        if (pairingWaitNs < 0 || pairingWaitNs > 1_000_000_000_000L) {
            throw new IllegalArgumentException("pairingWaitNs: expected 0..1000000000000 ns, got " + pairingWaitNs);
        }
        this.sink = sink;
        this.burstGapPs = burstGapNs * Units.PS_PER_NS;
        this.pairingWaitPs = pairingWaitNs * Units.PS_PER_NS;
        this.rttFromAckReq = rttFromAckReq;
    }

    /**
     * Decodes a capture with {@code decoder} into this deriver and {@link #finish() finishes}.
     *
     * @param decoder the capture decoder (strict or lenient)
     * @param file    the capture
     * @return the decoder's counts
     * @throws CaptureException on bad input; the events derived from the packets before the problem
     *                          have been emitted (the deriver is finished either way)
     */
    public CaptureStats derive(final CaptureDecoder decoder, final Path file) throws CaptureException {
        try {
            return decoder.decode(file, this);
        } finally {
            finish();
        }
    }

    /**
     * Takes one decoded packet, in capture order.
     *
     * @param p a transport packet or pause frame from {@link CaptureDecoder}
     */
    @Override
    public void onPacket(final RocePacket p) {
        final long t = toPs(p.timeNs);
        nowPs = t;
        seq++;
        closeExpiredBursts(t);
        if (p.kind == RocePacket.KIND_PAUSE) {
            pauseFrames++;
        } else if (p.kind == RocePacket.KIND_ROCE) {
            final int op = p.opcode;
            if (IbOpcodes.isConnectedRequest(op)) {
                onRequest(p, t);
            } else if (IbOpcodes.isResponse(op)) {
                onResponse(p, t);
            } else if (op == IbOpcodes.CNP) {
                onCnp(p, t);
            } else {
                packetsWithoutFlow++;
            }
        }
        release(false);
    }

    /**
     * Ends the capture: closes every open burst and emits everything still held (unpaired TX bursts
     * with their responder QPN). Call once, after the last packet.
     */
    public void finish() {
        while (openCount > 0) {
            closeBurst(open[openCount - 1]);
        }
        release(true);
    }

    private long toPs(final long timeNs) {
        if (!started) {
            started = true;
            baseNs = timeNs;
            return 0;
        }
        long d = timeNs - baseNs;
        if (((timeNs ^ baseNs) & (timeNs ^ d)) < 0) {
            d = timeNs < baseNs ? -1 : MAX_DELTA_NS; // overflow of the subtraction
        }
        if (d > MAX_DELTA_NS) {
            d = MAX_DELTA_NS;
        }
        final long ps = d < 0 ? -1 : d * Units.PS_PER_NS;
        if (ps < nowPs) {
            timeRegressions++;
            return nowPs;
        }
        return ps;
    }

    private static int ns32(final long ps) {
        return (int) (ps / Units.PS_PER_NS);
    }

    // ------------------------------------------------------------------ requests

    private void onRequest(final RocePacket p, final long t) {
        if (p.ecn == 3) {
            ceMarkedRequests++;
        }
        final FlowTable s = table;
        final int h = s.half(p);
        if (s.burstOpen[h] && (s.burstBytes[h] + p.payloadBytes > Integer.MAX_VALUE || s.burstPackets[h] == Integer.MAX_VALUE)) {
            closeBurst(h);
        }
        if (!s.burstOpen[h]) {
            s.burstOpen[h] = true;
            s.burstFirstPs[h] = t;
            s.burstFirstPsn[h] = p.psn;
            s.burstBytes[h] = 0;
            s.burstPackets[h] = 0;
            if (openCount == open.length) {
                open = Arrays.copyOf(open, openCount * 2);
            }
            open[openCount++] = h;
        }
        s.burstLastPs[h] = t;
        s.burstLastPsn[h] = p.psn;
        s.burstBytes[h] += p.payloadBytes;
        s.burstPackets[h]++;
        s.burstLastSeq[h] = seq;
        s.sent(h, p.psn, t, p.ackReq);
    }

    // ------------------------------------------------------------------ responses and CNPs

    private void onResponse(final RocePacket p, final long t) {
        final FlowTable s = table;
        // the requester is the response's destination
        final int f = s.flow(p.dstAddrHi, p.dstAddrLo, p.destQp);
        int h = s.flowHalf[f];
        if (h < 0) {
            h = s.pairStream(p.dstAddrHi, p.dstAddrLo, p.srcAddrHi, p.srcAddrLo, p.psn);
            if (h >= 0) {
                s.halfFlow[h] = f;
                s.flowHalf[f] = h;
            }
        }
        final int op = p.opcode & 0x1F;
        if (op == 17 || op == 18) {
            if (!p.hasAeth) {
                return;
            }
            switch (p.aethClass) {
                case RocePacket.AETH_ACK -> onAck(p, t, f, h);
                case RocePacket.AETH_RNR_NAK -> appendSimple(PccEventType.NACK, PccEventType.NACK_RNR, p.psn, t, f, 0);
                case RocePacket.AETH_NAK -> {
                    if (p.aethValue == RocePacket.NAK_PSN_SEQUENCE_ERROR) {
                        appendSimple(PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, p.psn, t, f, 0);
                    } else {
                        naksOtherCode++;
                    }
                }
                default -> {
                    // reserved syndromes never reach here (the decoder rejects them)
                }
            }
        } else if ((op == 13 || op == 16) && h >= 0) {
            rttSample(p.psn, t, f, h); // first packet of a READ response answers the READ request
        }
    }

    private void onAck(final RocePacket p, final long t, final int f, final int h) {
        final FlowTable s = table;
        final int psn = p.psn;
        if (s.flowHasAcked[f] && FixedPoint.psnDelta(s.flowLastAcked[f], psn) <= 0) {
            duplicateAcks++;
            return;
        }
        final int firstSn = s.flowHasAcked[f] ? (s.flowLastAcked[f] + 1) & MASK24 : s.firstUnackedGuess(h, psn);
        s.flowHasAcked[f] = true;
        s.flowLastAcked[f] = psn;
        final int k = h >= 0 ? s.findHistory(h, psn) : -1;
        final int echoNs = k >= 0 ? ns32(s.histTimePs[k]) : 0;
        final int i = ring.append(t, seq, f, -1);
        event.wrap(ring.records(), i * REC).reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 0, psn, ns32(t))
            .firstSn(firstSn).rtt(echoNs, 0, 0);
        eventsByType[PccEventType.ACK]++;
        if (k >= 0) {
            rttSample(psn, t, f, h);
        }
    }

    private void rttSample(final int psn, final long t, final int f, final int h) {
        if (!rttFromAckReq) {
            return;
        }
        final FlowTable s = table;
        final int k = s.findHistory(h, psn);
        if (k < 0 || s.histState[k] != FlowTable.SENT_ACK_REQ) {
            return;
        }
        s.histState[k] = FlowTable.ANSWERED;
        final long sentPs = s.histTimePs[k];
        final int midNs = ns32(sentPs + (t - sentPs) / 2);
        final int sn = s.hasSent[h] ? s.lastSentPsn[h] : psn;
        final int i = ring.append(t, seq, f, -1);
        event.wrap(ring.records(), i * REC).reset(PccEventType.RTT_RESPONSE, PccEventType.SUBTYPE_NONE, 0, sn, ns32(t))
            .rtt(ns32(sentPs), midNs, midNs);
        eventsByType[PccEventType.RTT_RESPONSE]++;
    }

    private void onCnp(final RocePacket p, final long t) {
        final FlowTable s = table;
        // the CNP goes from the notification point to the reaction point: its destination is the requester
        final int f = s.flow(p.dstAddrHi, p.dstAddrLo, p.destQp);
        final int h = s.flowHalf[f];
        final int sn = h >= 0 && s.hasSent[h] ? s.lastSentPsn[h] : 0;
        appendSimple(PccEventType.CNP, PccEventType.SUBTYPE_NONE, sn, t, f, p.becn ? PccEventLayout.FLAG_BECN : 0);
    }

    private void appendSimple(final int type, final int subtype, final int sn, final long t, final int f, final int flags) {
        final int i = ring.append(t, seq, f, -1);
        event.wrap(ring.records(), i * REC).reset(type, subtype, 0, sn, ns32(t)).flags(flags);
        eventsByType[type]++;
    }

    // ------------------------------------------------------------------ bursts

    private void closeExpiredBursts(final long t) {
        for (int j = openCount - 1; j >= 0; j--) {
            final int h = open[j];
            if (t - table.burstLastPs[h] > burstGapPs) {
                closeBurst(h);
            }
        }
    }

    private void closeBurst(final int h) {
        for (int j = 0; j < openCount; j++) {
            if (open[j] == h) {
                open[j] = open[--openCount];
                break;
            }
        }
        final FlowTable s = table;
        s.burstOpen[h] = false;
        final int i = ring.insertAfterSeq(s.burstLastSeq[h], s.burstLastPs[h], s.halfFlow[h], h);
        final int offset = i * REC;
        final UnsafeBuffer records = ring.records();
        event.wrap(records, offset).reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, 0, s.burstLastPsn[h],
            ns32(s.burstLastPs[h])).firstSn(s.burstFirstPsn[h]).tx((int) s.burstBytes[h], s.burstPackets[h]);
        records.putInt(offset + PccEventLayout.FIRST_TIMESTAMP_OFFSET, ns32(s.burstFirstPs[h]), LE);
        eventsByType[PccEventType.TX_BURST]++;
    }

    private long minOpenLastSeq() {
        long min = Long.MAX_VALUE;
        for (int j = 0; j < openCount; j++) {
            min = Math.min(min, table.burstLastSeq[open[j]]);
        }
        return min;
    }

    // ------------------------------------------------------------------ reorder ring

    /**
     * Hands the held events on in ring order, each with its flow id, port and first-in-flow flag
     * filled in, up to the first one that must still wait: after the last packet of a burst still
     * open, or (unless finishing) a TX_BURST of an unpaired stream within the pairing wait.
     */
    private void release(final boolean finishing) {
        final FlowTable s = table;
        final long limit = finishing ? Long.MAX_VALUE : minOpenLastSeq();
        while (ring.count() > 0) {
            final int i = ring.head();
            if (ring.seq(i) > limit) {
                return;
            }
            int f = ring.flow(i);
            if (f < 0) {
                final int h = ring.half(i);
                f = s.halfFlow[h];
                if (f < 0) {
                    if (!finishing && nowPs - ring.timePs(i) <= pairingWaitPs) {
                        return;
                    }
                    final int src = s.halfSrcEndpoint[h];
                    f = s.flow(s.endpointHi[src], s.endpointLo[src], (1L << 32) | s.halfRespQpn[h]);
                    txBurstsUnpaired++;
                }
            }
            final int offset = i * REC;
            final UnsafeBuffer records = ring.records();
            records.putInt(offset + PccEventLayout.FLOW_ID_OFFSET, s.flowQpn[f] & MASK24, LE);
            final int endpointIndex = s.flowEndpoint[f];
            records.putByte(offset + PccEventLayout.PORT_OFFSET, (byte) Math.min(endpointIndex, 255));
            if (!s.flowSeen[f]) {
                s.flowSeen[f] = true;
                final int flags = records.getByte(offset + PccEventLayout.FLAGS_OFFSET) | PccEventLayout.FLAG_FIRST_IN_FLOW;
                records.putByte(offset + PccEventLayout.FLAGS_OFFSET, (byte) flags);
            }
            ring.removeHead();
            sink.onEvent(event.wrap(records, offset), ring.timePs(i));
        }
    }

    // ------------------------------------------------------------------ counts

    /**
     * @param type a {@link PccEventType} code
     * @return events of that type derived so far (emitted or still held)
     * @throws ArrayIndexOutOfBoundsException if the type is out of range
     */
    public long events(final int type) {
        return eventsByType[type];
    }

    /** @return ACKs that acknowledged nothing new (no event) */
    public long duplicateAcks() {
        return duplicateAcks;
    }

    /** @return NAKs with codes other than PSN sequence error (no event) */
    public long naksOtherCode() {
        return naksOtherCode;
    }

    /** @return TX bursts emitted with the responder QPN because no response paired their stream */
    public long txBurstsUnpaired() {
        return txBurstsUnpaired;
    }

    /** @return transport packets outside any flow (UD, management, manufacturer-specific opcodes) */
    public long packetsWithoutFlow() {
        return packetsWithoutFlow;
    }

    /** @return packets whose timestamp went backwards (clamped) */
    public long timeRegressions() {
        return timeRegressions;
    }

    /** @return pause frames seen (no PCC event) */
    public long pauseFrames() {
        return pauseFrames;
    }

    /** @return request packets marked CE (ECN 11) */
    public long ceMarkedRequests() {
        return ceMarkedRequests;
    }

    /** @return number of distinct addresses seen as requesters or CNP targets (ports 0..n-1) */
    public int endpointCount() {
        return table.endpointCount();
    }

    /**
     * The address behind an event's port (allocates).
     *
     * @param port a port value from an event, 0..{@link #endpointCount()}-1 (255 is shared by all
     *             addresses from the 256th on)
     * @return the address as {@link RocePacket#formatAddress} prints it
     * @throws IllegalArgumentException if no address has that port
     */
    public String endpointAddress(final int port) {
        final int n = table.endpointCount();
        if (port < 0 || port >= n) {
            throw new IllegalArgumentException("port: expected 0.." + (n - 1) + ", got " + port);
        }
        return RocePacket.formatAddress(table.endpointHi[port], table.endpointLo[port]);
    }
}
