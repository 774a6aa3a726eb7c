package dev.nicsim.nic;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

/**
 * The responder side of RC transport (IBTA spec vol. 1 §9.7, reliable service; RoCEv2 per IBTA
 * Annex A17): the expected-PSN check, ACK/NAK generation, READ RESPONSE streams, and the answer to
 * RTT probes.
 *
 * <ul>
 * <li>WRITE/SEND data: an in-order packet is accepted and acknowledged per packet or delayed
 *     ({@link NicConfig#ackEveryPackets}, {@link NicConfig#delayedAckTimeoutNs}; the CE echo state
 *     machine of the DCTCP draft, draft-bensley-tcpm-dctcp, §3.2: a change of CE state first
 *     acknowledges the packets of the old state). An out-of-order packet is dropped and counts
 *     {@code out_of_sequence}; the first of a gap sends one NAK (AETH
 *     {@link Packet#AETH_NAK_PSN_SEQ_ERR}, PSN = expected PSN). A duplicate counts
 *     {@code duplicate_request} and is re-acknowledged. Pending coalesced ACKs go before a NAK or
 *     re-ACK. ACKs carry the cumulative PSN, MSN, ECE = CE state, the echoed transmit timestamp of
 *     the last covered packet and the number of covered packets.</li>
 * <li>Selective repeat ({@link NicConfig#LOSS_RECOVERY_SELECTIVE_REPEAT}): a packet past the
 *     expected PSN inside the window is held and acknowledged like an in-order one; ACKs carry the
 *     SACK bitmap ({@link SelectiveRepeat}).</li>
 * <li>ACK coalescing by bytes ({@link NicConfig#ackCoalesceBytes} &gt; 0, UET as uet-htsim's
 *     {@code UecSink::processData}): an ACK every that many accepted frame bytes, at once for a
 *     CE-marked packet (ECE = its CE bit), the flow's first packet, or AckReq (under selective
 *     repeat, once more when the held packets drain); no delayed-ACK timer.</li>
 * <li>Trimmed packets ({@link Packet#trimmed}, {@code rx_trimmed_packets}) are NAKed at once
 *     ({@code tx_trim_nak_packets}; the NAK echoes the packet's transmit timestamp): under
 *     go-back-N the expected one with a PSN-sequence-error NAK from its PSN as RoCE does (a later
 *     one is out of sequence, an earlier one a duplicate, as untrimmed), under selective repeat any
 *     missing one with a NAK naming its PSN (a held or earlier one is re-acknowledged).</li>
 * <li>Every ACK and NAK echoes the UDP source port of the data packet that triggered it
 *     ({@link Packet#echoUdpSrcPort}; for a timer-driven ACK, the last accepted packet's).</li>
 * <li>READ: a READ request at the expected PSN (or a duplicate, re-executed) starts a READ
 *     RESPONSE FIRST/MIDDLE/LAST/ONLY stream, sent at line rate round-robin with the NIC's other
 *     QPs (no pacer, window or PCC flow on this side); a request beyond the expected PSN is a gap
 *     (one NAK).</li>
 * <li>RTT probes ({@link Packet#KIND_RTT_PROBE}) are answered with an RTT response carrying the
 *     probe's transmit timestamp and its receive time (ns, 32 bits), as a ConnectX PCC responder
 *     does; the response's send time is written when it starts serialisation. With a
 *     notification-point program ({@link #setNpProgram}) the program's handler runs instead, and its
 *     12 bytes leave in the response when its handler time has passed (DOCA PCC fact sheet A.7).</li>
 * </ul>
 *
 * <p>PSNs are 24 bits and compared with {@link FixedPoint#psnDelta}. Times are ps of simulated time.
 * Allocates nothing (frames come from the pool through the {@link TxArbiter}).
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class Responder {
    private static final int MASK = PccEventLayout.MASK_24;
    private static final long NEVER = Long.MAX_VALUE;

    private final Simulator sim;
    private final EventHandler handler;
    private final QpTable qps;
    private final TxArbiter tx;
    private final NotificationPoint np;
    /** HPCC INT header bytes on ACKs; &gt; 0 also echoes hop records ({@link NicConfig#intHeaderBytes}). */
    private final int intHeaderBytes;
    private final int ackEveryPackets;
    private final long delayedAckTimeoutPs;
    private final int ackDscp;
    private final int ackPriority;
    private final int ackEcnCodepoint;
    /** {@link NicConfig#ackCoalesceBytes}: 0 = the {@link #ackEveryPackets} policy. */
    private final int ackCoalesceBytes;
    /** Selective repeat, or null for go-back-N. */
    private final SelectiveRepeat sr;

    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;
    /** The notification-point program answering RTT probes, or null for the hardware responder. */
    private NpProgram npProgram;
    private final NpProbe npProbe = new NpProbe();

    /**
     * Creates the responder side of a NIC.
     *
     * @param sim      simulator
     * @param handler  the NIC's event handler ({@link RoceNic#EV_DELAYED_ACK})
     * @param qps      the NIC's QP table
     * @param tx       the NIC's transmit arbiter
     * @param np       the NIC's notification point (READ requests pass it)
     * @param config   validated configuration (ACK policy, ACK DSCP/priority/ECN)
     * @param counters the NIC's counters
     */
    Responder(final Simulator sim, final EventHandler handler, final QpTable qps, final TxArbiter tx,
              final NotificationPoint np, final NicConfig config, final NicCounters counters) {
        this.sim = sim;
        this.handler = handler;
        this.qps = qps;
        this.tx = tx;
        this.np = np;
        this.ackEveryPackets = config.ackEveryPackets;
        this.delayedAckTimeoutPs = config.delayedAckTimeoutNs * 1000L;
        this.ackDscp = config.ackDscp;
        this.intHeaderBytes = config.intHeaderBytes;
        this.ackPriority = config.ackPriority;
        this.ackEcnCodepoint = config.ackEcnCodepoint;
        this.ackCoalesceBytes = config.ackCoalesceBytes;
        this.sr = config.lossRecovery == NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT ? new SelectiveRepeat(config, counters) : null;
        cells = counters.cells;
    }

    // ------------------------------------------------------------------------------------------
    // WRITE/SEND data

    /**
     * Responder PSN check and ACK policy for a WRITE/SEND data packet.
     *
     * @param q the responder QP of a WRITE/SEND flow
     * @param p the data packet (not kept)
     */
    void onData(final Qp q, final Packet p) {
        final int d = FixedPoint.psnDelta(q.ePsn, p.psn);
        if (p.trimmed) {
            onTrimmed(q, p, d);
            return;
        }
        final int verdict = sr != null ? sr.classify(q, p.psn, d)
            : d > 0 ? SelectiveRepeat.BEYOND_WINDOW : d < 0 ? SelectiveRepeat.DUPLICATE : SelectiveRepeat.ACCEPT;
        if (verdict == SelectiveRepeat.BEYOND_WINDOW) {
            cells[NicCounters.OUT_OF_SEQUENCE]++;
            if (sr == null) {
                nakGap(q, -1); // a gap NAK echoes no EV: the early packet's path is not the lossy one
            }
            return;
        }
        if (verdict == SelectiveRepeat.DUPLICATE) {
            cells[NicCounters.DUPLICATE_REQUEST]++;
            reAck(q, p.udpSrcPort);
            return;
        }
        // accepted: the DCTCP draft's CE state machine (§3.2) under the per-packet policy
        final boolean ce = p.ecn == Packet.ECN_CE;
        if (ackCoalesceBytes == 0 && ce != q.ceState) {
            if (q.unacked > 0) {
                flushAck(q, q.unackedUdpSrcPort); // ACK previously unacknowledged packets with the old state
            }
            q.ceState = ce;
        }
        if (sr != null) {
            sr.accept(q, p.psn, d);
        } else {
            q.ePsn = (q.ePsn + 1) & MASK;
        }
        q.nakSent = false;
        if (RoceOpcodes.endsMessage(p.opcode)) {
            q.msn = (q.msn + 1) & MASK;
        }
        q.unacked++;
        q.unackedTxTimestampNs = p.txTimestampNs;
        q.unackedUdpSrcPort = p.udpSrcPort;
        if (intHeaderBytes > 0 && p.intHops != null) {
            if (q.ackIntHops == null) {
                q.ackIntHops = new long[Packet.INT_MAX_HOPS * Packet.INT_HOP_FIELDS]; // once per QP
            }
            q.ackIntHopCount = p.intHopCount;
            System.arraycopy(p.intHops, 0, q.ackIntHops, 0, p.intHopCount * Packet.INT_HOP_FIELDS);
        }
        final boolean ackNow;
        if (ackCoalesceBytes > 0) {
            // UET (uet-htsim UecSink::processData): CE, the first packet, AckReq, or the byte threshold
            q.unackedBytes += p.frameBytes;
            boolean now = ce || !q.rxStarted || q.unackedBytes >= ackCoalesceBytes;
            if (p.ackReq) {
                now = true;
                q.srAckRequest = true;
            }
            if (q.srAckRequest && q.srRxCount == 0) {
                now = true;
                q.srAckRequest = false;
            }
            q.ceState = ce;
            ackNow = now;
        } else {
            ackNow = q.unacked >= ackEveryPackets || p.ackReq;
        }
        q.rxStarted = true;
        if (ackNow) {
            flushAck(q, p.udpSrcPort);
        } else if (q.unacked == 1 && delayedAckTimeoutPs > 0 && ackCoalesceBytes == 0) {
            // UET's coalescing has no timer (uet-htsim's sink ACKs only on the rules above)
            q.delayedAckDeadlinePs = sim.nowPs() + delayedAckTimeoutPs;
            if (!q.delayedAckEventPending) {
                q.delayedAckEventPending = true;
                sim.schedule(q.delayedAckDeadlinePs, handler, RoceNic.EV_DELAYED_ACK, q.incarnation, q);
            }
        }
    }

    /** Go-back-N: the first packet of a gap sends one NAK from the expected PSN (pending ACKs first). */
    private void nakGap(final Qp q, final int echoUdpSrcPort) {
        if (!q.nakSent) {
            q.nakSent = true;
            if (q.unacked > 0) {
                flushAck(q, q.unackedUdpSrcPort);
            }
            sendAck(q, q.ePsn, false, 0, 0, Packet.AETH_NAK_PSN_SEQ_ERR, echoUdpSrcPort);
        }
    }

    /** A duplicate: pending ACKs go now, else the cumulative PSN is re-acknowledged. */
    private void reAck(final Qp q, final int echoUdpSrcPort) {
        if (q.unacked > 0) {
            flushAck(q, echoUdpSrcPort);
        } else {
            sendAck(q, (q.ePsn - 1) & MASK, false, 0, 0, Packet.AETH_ACK, echoUdpSrcPort);
        }
    }

    /** A trimmed data packet: NAKed at once if it is missing (see the class description). */
    private void onTrimmed(final Qp q, final Packet p, final int d) {
        cells[NicCounters.RX_TRIMMED_PACKETS]++;
        if (sr == null) {
            if (d < 0) {
                cells[NicCounters.DUPLICATE_REQUEST]++;
                reAck(q, p.udpSrcPort);
            } else if (d > 0) {
                cells[NicCounters.OUT_OF_SEQUENCE]++;
                if (!q.nakSent) {
                    cells[NicCounters.TX_TRIM_NAK_PACKETS]++;
                    nakGap(q, -1); // a gap NAK echoes no EV: the early packet's path is not the lossy one
                }
            } else {
                // the expected packet lost its payload: go back to it now, even if this gap was NAKed
                if (q.unacked > 0) {
                    flushAck(q, q.unackedUdpSrcPort);
                }
                q.nakSent = true;
                cells[NicCounters.TX_TRIM_NAK_PACKETS]++;
                sendAck(q, q.ePsn, false, p.txTimestampNs, 0, Packet.AETH_NAK_PSN_SEQ_ERR, p.udpSrcPort);
            }
            return;
        }
        final int verdict = sr.classify(q, p.psn, d);
        if (verdict == SelectiveRepeat.DUPLICATE) {
            reAck(q, p.udpSrcPort);
        } else if (verdict == SelectiveRepeat.BEYOND_WINDOW) {
            cells[NicCounters.OUT_OF_SEQUENCE]++;
        } else {
            cells[NicCounters.TX_TRIM_NAK_PACKETS]++;
            sendAck(q, p.psn, false, p.txTimestampNs, 0, Packet.AETH_NAK_PSN_SEQ_ERR, p.udpSrcPort);
        }
    }

    /**
     * The delayed-ACK event of a QP is due ({@link RoceNic#EV_DELAYED_ACK}, incarnation already
     * checked): follows a later deadline, else acknowledges what is pending.
     *
     * @param q the QP
     */
    void onDelayedAckEvent(final Qp q) {
        q.delayedAckEventPending = false;
        if (q.role != Qp.RESPONDER || q.unacked == 0) {
            return;
        }
        if (q.delayedAckDeadlinePs > sim.nowPs()) {
            q.delayedAckEventPending = true;
            sim.schedule(q.delayedAckDeadlinePs, handler, RoceNic.EV_DELAYED_ACK, q.incarnation, q);
            return;
        }
        flushAck(q, q.unackedUdpSrcPort);
    }

    /** Acknowledges the accepted, not yet acknowledged packets (ECE = DCTCP.CE, or the trigger's CE when coalescing by bytes). */
    private void flushAck(final Qp q, final int echoUdpSrcPort) {
        sendAck(q, (q.ePsn - 1) & MASK, q.ceState, q.unackedTxTimestampNs, q.unacked, Packet.AETH_ACK, echoUdpSrcPort);
        q.unacked = 0;
        q.unackedBytes = 0;
        q.delayedAckDeadlinePs = NEVER;
    }

    private void sendAck(final Qp q, final int psn, final boolean ece, final int echoTxNs, final int covered,
                         final int syndrome, final int echoUdpSrcPort) {
        final Packet a = tx.controlFrame(Packet.KIND_ACK, RoceOpcodes.ACKNOWLEDGE, q.peerHost, q.qpn, q.peerQpn, ackDscp,
            ackPriority, ackEcnCodepoint, RoceNic.ACK_FRAME_BYTES, q.udpSrcPort, q.flowId);
        a.psn = psn;
        a.aethSyndrome = syndrome;
        a.msn = q.msn;
        a.ece = ece;
        a.txTimestampNs = echoTxNs;
        a.ackedPackets = covered;
        a.echoUdpSrcPort = echoUdpSrcPort;
        if (sr != null && syndrome == Packet.AETH_ACK) {
            a.sackBitmap = sr.sack(q);
        }
        if (intHeaderBytes > 0) {
            a.frameBytes += intHeaderBytes;
            if (q.ackIntHopCount > 0 && a.intHops != null) {
                a.intHopCount = q.ackIntHopCount;
                System.arraycopy(q.ackIntHops, 0, a.intHops, 0, q.ackIntHopCount * Packet.INT_HOP_FIELDS);
            }
        }
        if (syndrome == Packet.AETH_ACK) {
            cells[NicCounters.TX_ACK_PACKETS]++;
        } else {
            cells[NicCounters.TX_NAK_PACKETS]++;
        }
        tx.enqueueControl(a);
    }

    // ------------------------------------------------------------------------------------------
    // READ

    /**
     * A READ request arrived ({@code rx_read_requests}): for a READ responder QP, after the
     * notification point, the PSN check and the start of the response stream.
     *
     * @param p the request (not kept)
     */
    void onReadRequest(final Packet p) {
        cells[NicCounters.RX_READ_REQUESTS]++;
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.RESPONDER || q.op != MessageOp.READ) {
            cells[NicCounters.RX_UNKNOWN_QP]++;
            return;
        }
        np.onPacket(q, p);
        final int d = FixedPoint.psnDelta(q.ePsn, p.psn);
        if (d > 0) {
            cells[NicCounters.OUT_OF_SEQUENCE]++;
            if (!q.nakSent) {
                q.nakSent = true;
                sendAck(q, q.ePsn, false, 0, 0, Packet.AETH_NAK_PSN_SEQ_ERR, p.udpSrcPort);
            }
            return;
        }
        if (d < 0) {
            cells[NicCounters.DUPLICATE_REQUEST]++; // re-executed: the stream restarts at the requested PSN
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
        tx.addActive(q);
        tx.kickPort();
    }

    /**
     * Fills the next READ RESPONSE packet of a responder QP's stream (common header already set
     * by the arbiter; sent at line rate, not paced).
     *
     * @param q the responder QP, with packets left in its stream
     * @param p the frame
     */
    void fillReadResponse(final Qp q, final Packet p) {
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
        cells[NicCounters.TX_DATA_PACKETS]++;
    }

    // ------------------------------------------------------------------------------------------
    // RTT probes

    /**
     * Answers an RTT probe ({@code tx_rtt_responses}), QP or not.
     *
     * @param p the probe (not kept)
     */
    void onRttProbe(final Packet p) {
        if (npProgram != null) {
            answerByProgram(p);
            return;
        }
        final Packet r = tx.controlFrame(Packet.KIND_RTT_RESPONSE, RoceOpcodes.RTT_RESPONSE, p.srcHost, p.dstQpn,
            p.srcQpn, ackDscp, ackPriority, ackEcnCodepoint, RoceNic.RTT_FRAME_BYTES, p.udpSrcPort, p.flowId);
        r.txTimestampNs = p.txTimestampNs;
        r.rttRequestReceiveNs = sim.nowNs32();
        cells[NicCounters.TX_RTT_RESPONSES]++;
        tx.enqueueControl(r);
    }

    /**
     * Installs a notification-point program that answers RTT probes instead of the hardware
     * responder; it counts into the NIC's {@code np_program_*} cells ({@link NicCounters#NP_PROGRAM}).
     *
     * @param program the program
     */
    void setNpProgram(final NpProgram program) {
        this.npProgram = program;
    }

    /**
     * A probe for the NP program: its handler runs now; an OK or FAIL answer leaves as an RTT response
     * carrying the handler's 12 bytes when the handler's time has passed; a fault or a budget overrun
     * sends nothing (counted).
     */
    private void answerByProgram(final Packet p) {
        final NpProbe q = npProbe;
        q.port = 0;
        q.srcHost = p.srcHost;
        q.dstHost = p.dstHost;
        q.srcQpn = p.srcQpn;
        q.dstQpn = p.dstQpn;
        q.udpSrcPort = p.udpSrcPort;
        q.dscp = p.dscp;
        q.ecn = p.ecn;
        q.requestSendNs = p.txTimestampNs;
        q.ifa2HopLimit = p.ifa2HopLimit;
        q.ifa2Gns = p.ifa2Gns;
        q.ifa2RecordCount = p.ifa2HopLimit >= 0 ? p.intHopCount : 0;
        q.ifa2Records = q.ifa2RecordCount > 0 ? p.intHops : null;
        q.nowPs = sim.nowPs();
        q.word0 = 0;
        q.word1 = 0;
        q.word2 = 0;
        q.handlerPs = 0;
        q.cycles = 0;
        cells[NicCounters.NP_PROGRAM_CALLS]++;
        final int outcome = npProgram.handle(q);
        q.ifa2Records = null; // the probe goes back to its pool
        cells[NicCounters.NP_PROGRAM_CYCLES] += q.cycles;
        if (outcome == NpProgram.FAULT) {
            cells[NicCounters.NP_PROGRAM_FAULTS]++;
            return;
        }
        if (outcome == NpProgram.BUDGET) {
            cells[NicCounters.NP_PROGRAM_BUDGET_EXCEEDED]++;
            return;
        }
        if (outcome == NpProgram.FAILED) {
            cells[NicCounters.NP_PROGRAM_FAILED]++;
        }
        final Packet r = tx.controlFrame(Packet.KIND_RTT_RESPONSE, RoceOpcodes.RTT_RESPONSE, p.srcHost, p.dstQpn,
            p.srcQpn, ackDscp, ackPriority, ackEcnCodepoint, RoceNic.RTT_FRAME_BYTES, p.udpSrcPort, p.flowId);
        r.txTimestampNs = q.word0;
        r.rttRequestReceiveNs = q.word1;
        r.rttResponseSendNs = q.word2;
        r.rttRawFromNp = true;
        if (q.handlerPs <= 0) {
            sendNpResponse(r);
        } else {
            sim.schedule(sim.nowPs() + q.handlerPs, handler, RoceNic.EV_NP_RESPONSE, 0, r);
        }
    }

    /**
     * Sends an NP program's RTT response whose handler time has passed ({@link RoceNic#EV_NP_RESPONSE}).
     *
     * @param r the response frame
     */
    void sendNpResponse(final Packet r) {
        cells[NicCounters.TX_RTT_RESPONSES]++;
        tx.enqueueControl(r);
    }
}
