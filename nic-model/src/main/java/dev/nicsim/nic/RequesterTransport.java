package dev.nicsim.nic;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

/**
 * The requester side of RC transport (IBTA spec vol. 1 §9.7, reliable service, as RoCEv2 carries
 * it, IBTA Annex A17): segmentation, PSNs, acknowledgement processing and go-back-N
 * retransmission for the sender of WRITE/SEND data and READ requests.
 *
 * <ul>
 * <li>Segmentation: a message is cut into packets of {@link NicConfig#mtuBytes} payload;
 *     WRITE FIRST/MIDDLE/LAST/ONLY (RETH on FIRST and ONLY) or SEND FIRST/MIDDLE/LAST/ONLY
 *     ({@link RoceOpcodes}); frame sizes from {@link RoceFraming#frameBytes}; AckReq on the last
 *     packet.</li>
 * <li>PSNs: a packet's PSN is its index in the message modulo 2^24; the QP's send state
 *     ({@code sndUna}, {@code sndNxt}, {@code sndMax}) counts packet indexes, which do not wrap.</li>
 * <li>ECN: ECT(0) ({@link NicConfig#ecnCodepoint}); while the fast-start budget lasts, new packets
 *     go Not-ECT except the budget's last one and the message's last packet (the LDCP draft,
 *     draft-dai-tsvwg-pfc-free-congestion-control, §2.3 and §3.1). Retransmissions never use the
 *     budget.</li>
 * <li>Go-back-N (the LDCP draft §3.1; IBTA spec vol. 1 §9.7): a NAK (PSN sequence error) makes the
 *     requester resend from the NAK's PSN ({@code packet_seq_err}); when no ACK advances the oldest
 *     unacknowledged packet for {@link NicConfig#rtoNs}, it resends from there
 *     ({@code local_ack_timeout_err}). Every resent packet counts {@code roce_adp_retrans}.</li>
 * <li>READ: one READ REQUEST (RETH, frame {@link RoceNic#READ_REQUEST_FRAME_BYTES}) asks for the
 *     whole message; the flow completes when the last READ RESPONSE arrives. A response PSN beyond
 *     the expected one counts {@code implied_nak_seq_err} and re-issues the request from the
 *     expected PSN (once per gap); the timeout re-issues it too.</li>
 * <li>Spraying: with a path policy other than ECMP ({@link NicConfig#pathPolicy}) each WRITE/SEND data
 *     packet, first sent or resent, takes its UDP source port from the QP's {@link PathSelector}; the EV an
 *     ACK or NAK echoes ({@link Packet#echoUdpSrcPort}) and every retransmission timeout are its feedback.</li>
 * </ul>
 * With {@link NicConfig#LOSS_RECOVERY_SELECTIVE_REPEAT} the WRITE/SEND send state is
 * {@link SelectiveRepeat}'s instead of go-back-N: ACKs carry SACKs, a NAK names the one packet to
 * resend, the timeout resends the oldest unacknowledged packet only. With
 * {@link NicConfig#ackCoalesceBytes} &gt; 0 a packet that fills the window also carries AckReq
 * (uet-htsim {@code UecSrc::sendNewPacket}); under selective repeat "fills" counts
 * {@link SelectiveRepeat#outstandingBytes} as the window does, and every resent packet carries
 * AckReq ({@code UecSrc::sendRtxPacket}).
 * The congestion-control side of ACKs and NAKs (PCC events) is the {@link ReactionPoint}'s; the
 * window and pacer that gate sending are its too.
 *
 * <p>Times are ps of simulated time. Allocates nothing.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class RequesterTransport {
    private static final long NEVER = Long.MAX_VALUE;

    private final Simulator sim;
    private final EventHandler handler;
    private final RoceNic nic;
    private final QpTable qps;
    private final TxArbiter tx;
    private final ReactionPoint rp;
    private final long rtoPs;
    /** HPCC INT header bytes on every data packet ({@link NicConfig#intHeaderBytes}). */
    private final int intHeaderBytes;
    private final int ecnCodepoint;
    /** Selective repeat, or null for go-back-N. */
    private final SelectiveRepeat sr;
    /** Whether AckReq also marks a packet that fills the window ({@link NicConfig#ackCoalesceBytes} &gt; 0). */
    private final boolean ackReqOnFullWindow;
    private final int pathPolicy;
    private final int pathEntropies;
    private final long pathSeed;

    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;

    /**
     * Creates the requester side of a NIC.
     *
     * @param sim      simulator
     * @param handler  the NIC's event handler ({@link RoceNic#EV_RTO})
     * @param nic      the NIC (flow completion)
     * @param qps      the NIC's QP table
     * @param tx       the NIC's transmit arbiter
     * @param rp       the NIC's reaction point
     * @param config   validated configuration (RTO, ECN codepoint)
     * @param counters the NIC's counters
     */
    RequesterTransport(final Simulator sim, final EventHandler handler, final RoceNic nic, final QpTable qps,
                       final TxArbiter tx, final ReactionPoint rp, final NicConfig config, final NicCounters counters) {
        this.sim = sim;
        this.handler = handler;
        this.nic = nic;
        this.qps = qps;
        this.tx = tx;
        this.rp = rp;
        this.rtoPs = config.rtoNs * 1000L;
        this.ecnCodepoint = config.ecnCodepoint;
        this.intHeaderBytes = config.intHeaderBytes;
        this.sr = config.lossRecovery == NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT ? new SelectiveRepeat(config, counters) : null;
        this.ackReqOnFullWindow = config.ackCoalesceBytes > 0;
        this.pathPolicy = config.pathPolicy;
        this.pathEntropies = config.pathEntropies;
        this.pathSeed = config.pathSeed;
        cells = counters.cells;
    }

    /**
     * Starts a requester QP's path selector for its new flow (spraying policies only; the selector is
     * allocated once per pooled QP), seeded from {@link NicConfig#pathSeed}, the host, the QPN and the flow.
     *
     * @param q      the requester QP, initialised
     * @param hostId the NIC's host id
     */
    void startPath(final Qp q, final int hostId) {
        if (pathPolicy == NicConfig.PATH_ECMP) {
            return;
        }
        if (q.path == null) {
            q.path = new PathSelector(pathPolicy, pathEntropies, cells);
        }
        q.path.start(q.udpSrcPort, RngStreams.mix(pathSeed ^ (((long) hostId << 32) | q.qpn)) ^ q.flowId);
    }

    /**
     * PSN of the highest packet sent (the sn of CNP, RTT_RESPONSE and TIMER events).
     *
     * @param q a requester QP
     * @return the PSN (24 bits): of the pending READ request for READ, else of packet
     *         {@code sndMax - 1} (the first PSN before the first packet)
     */
    static int lastSentPsn(final Qp q) {
        if (q.op == MessageOp.READ) {
            return q.psn(q.readRequestIndex);
        }
        return q.psn(q.sndMax == 0 ? 0 : q.sndMax - 1);
    }

    // ------------------------------------------------------------------------------------------
    // transmit

    /**
     * Whether a requester QP of a WRITE/SEND flow has a data packet to send (window and pacer aside).
     *
     * @param q the requester QP
     * @return go-back-N: packets left from {@code sndNxt}; selective repeat: a waiting resend or a new
     *         packet inside the window
     */
    boolean hasDataToSend(final Qp q) {
        return sr == null ? q.sndNxt < q.totalPackets : sr.hasDataToSend(q);
    }

    /**
     * Fills a requester frame whose common header the arbiter has set: the pending READ request,
     * or the data packet at {@code sndNxt} (arming the RTO if disarmed).
     *
     * @param q the QP (requester, with work)
     * @param p the frame
     * @return true for a WRITE/SEND data packet (the TX_BURST accounting applies), false for a READ request
     */
    boolean fillFrame(final Qp q, final Packet p) {
        if (q.op == MessageOp.READ) {
            p.kind = Packet.KIND_READ_REQUEST;
            p.opcode = RoceOpcodes.READ_REQUEST;
            p.psn = q.psn(q.readRequestIndex);
            p.payloadBytes = (int) (q.sizeBytes - q.byteOffset(q.readRequestIndex));
            p.frameBytes = RoceNic.READ_REQUEST_FRAME_BYTES;
            p.ackReq = true;
            p.lastOfMessage = true;
            q.readRequestPending = false;
            if (q.readRequestsSent > 0) {
                cells[NicCounters.ROCE_ADP_RETRANS]++;
            }
            q.readRequestsSent++;
            cells[NicCounters.TX_READ_REQUESTS]++;
            if (q.rtoDeadlinePs == NEVER) {
                armRto(q);
            }
            return false;
        }
        final int index = q.sndNxt;
        final boolean last = index == q.totalPackets - 1;
        final int payload = q.payloadBytes(index);
        p.kind = Packet.KIND_DATA;
        p.opcode = RoceOpcodes.dataOpcode(q.op, index, q.totalPackets);
        p.psn = q.psn(index);
        p.payloadBytes = payload;
        p.frameBytes = RoceFraming.frameBytes(payload, RoceOpcodes.extHeaderBytes(p.opcode)) + intHeaderBytes;
        final boolean retransmission = index < q.sndMax;
        p.ackReq = last || ackReqOnFullWindow && (q.srSender ? retransmission || fillsWindow(q, payload)
            : q.windowBytes != PccResult.WINDOW_UNLIMITED
                && q.byteOffset(index + 1) - q.byteOffset(q.sndUna) + q.mtuBytes >= q.windowBytes);
        p.lastOfMessage = last;
        if (q.path != null) {
            p.udpSrcPort = q.path.nextPort();
        }
        if (retransmission) {
            cells[NicCounters.ROCE_ADP_RETRANS]++;
        } else if (q.fastStartRemaining > 0) {
            // LDCP draft §2.3/§3.1: first-RTT packets Not-ECT, the budget's last and the message's last ECT
            q.fastStartRemaining--;
            p.ecn = q.fastStartRemaining == 0 || last ? ecnCodepoint : Packet.ECN_NOT_ECT;
        }
        if (sr != null) {
            sr.onSent(q, index);
        } else {
            q.sndNxt = index + 1;
            if (q.sndNxt > q.sndMax) {
                q.sndMax = q.sndNxt;
            }
        }
        q.burstBytes += payload;
        q.burstPackets++;
        if (q.rtoDeadlinePs == NEVER) {
            armRto(q);
        }
        cells[NicCounters.TX_DATA_PACKETS]++;
        return true;
    }

    /**
     * Selective repeat: whether a packet of {@code payload} bytes leaves the window no room for a
     * full packet after it (uet-htsim sets AckReq when {@code in_flight + MTU >= cwnd} after the
     * send).
     */
    private static boolean fillsWindow(final Qp q, final int payload) {
        return q.windowBytes != PccResult.WINDOW_UNLIMITED
            && SelectiveRepeat.outstandingBytes(q) + payload + q.mtuBytes >= q.windowBytes;
    }

    // ------------------------------------------------------------------------------------------
    // receive

    /**
     * An ACK or NAK arrived ({@code rx_ack_packets} / {@code rx_nak_packets}); for a requester QP
     * an ACK advances the send state, a PSN-sequence-error NAK goes back to its PSN. RNR NAKs are
     * not generated by this model and are ignored.
     *
     * @param p the frame (not kept)
     */
    void onAck(final Packet p) {
        final boolean ack = p.aethSyndrome == Packet.AETH_ACK;
        if (ack) {
            cells[NicCounters.RX_ACK_PACKETS]++;
        } else {
            cells[NicCounters.RX_NAK_PACKETS]++;
        }
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            cells[NicCounters.RX_UNKNOWN_QP]++;
            return;
        }
        if (q.path != null && p.echoUdpSrcPort >= 0) {
            q.path.onFeedback(p.echoUdpSrcPort, ack ? (p.ece ? PathSelector.ECN : PathSelector.GOOD) : PathSelector.NACK,
                sim.nowPs());
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
        final int ackIndex = q.sndUna + FixedPoint.psnDelta(q.psn(q.sndUna), p.psn);
        if (sr != null) {
            selectiveAck(q, p, ackIndex);
            return;
        }
        if (ackIndex < q.sndUna || ackIndex >= q.sndMax) {
            return; // acknowledges nothing new (re-ACK of a duplicate) or nothing sent
        }
        final int first = q.sndUna;
        q.sndUna = ackIndex + 1;
        q.progressPs = sim.nowPs();
        if (q.sndNxt < q.sndUna) {
            q.sndNxt = q.sndUna;
        }
        final boolean done = q.sndUna >= q.totalPackets;
        if (done || q.sndUna >= q.sndMax) {
            q.rtoDeadlinePs = NEVER;
        } else {
            armRto(q);
        }
        rp.onAck(q, p, first);
        if (done) {
            nic.complete(q);
        } else {
            tx.kickPort(); // the window may have opened
        }
    }

    /** Selective repeat: cumulative progress as go-back-N, SACKs and inferred losses in {@link SelectiveRepeat}. */
    private void selectiveAck(final Qp q, final Packet p, final int ackIndex) {
        if (ackIndex < q.sndUna - 1 || ackIndex >= q.sndMax) {
            return; // older than the cumulative point already known, or nothing sent
        }
        final int first = q.sndUna;
        sr.onAck(q, ackIndex, p.sackBitmap);
        final boolean done = q.sndUna >= q.totalPackets;
        if (q.sndUna > first) {
            q.progressPs = sim.nowPs();
            if (done || q.sndUna >= q.sndMax) {
                q.rtoDeadlinePs = NEVER;
            } else {
                armRto(q);
            }
            rp.onAck(q, p, first);
        }
        if (done) {
            nic.complete(q);
            return;
        }
        if (sr.hasDataToSend(q)) {
            tx.addActive(q);
        }
        tx.kickPort();
    }

    private void requesterNak(final Qp q, final Packet p) {
        cells[NicCounters.PACKET_SEQ_ERR]++;
        if (q.op == MessageOp.READ) {
            reissueRead(q);
        } else if (sr != null) {
            // selective repeat: the NAK names the one packet to resend
            if (sr.onNack(q, q.sndUna + FixedPoint.psnDelta(q.psn(q.sndUna), p.psn))) {
                tx.addActive(q);
            }
        } else {
            final int nakIndex = q.sndUna + FixedPoint.psnDelta(q.psn(q.sndUna), p.psn);
            if (nakIndex < q.sndUna || nakIndex >= q.sndMax) {
                return; // stale
            }
            if (nakIndex > q.sndUna) {
                q.progressPs = sim.nowPs();
            }
            q.sndUna = nakIndex; // a NAK acknowledges every packet before its PSN
            q.sndNxt = nakIndex; // go-back-N
            tx.addActive(q);
        }
        rp.onNak(q, p);
        tx.kickPort();
    }

    /**
     * A READ RESPONSE arrived for a READ requester QP: the expected one advances (and completes
     * the flow after the last), one beyond it re-issues the request once per gap, an earlier one
     * (from a re-executed request) is dropped; a trimmed one ({@code rx_trimmed_packets}) at or
     * beyond the expected PSN re-issues the request once per gap.
     *
     * @param q the requester QP of a READ flow
     * @param p the response (not kept)
     */
    void onReadResponse(final Qp q, final Packet p) {
        final int d = FixedPoint.psnDelta(q.psn(q.readExpectedIndex), p.psn);
        if (p.trimmed) {
            // the payload is gone: re-issue the request from the expected PSN (once per gap)
            cells[NicCounters.RX_TRIMMED_PACKETS]++;
            if (d >= 0 && !q.readGapReissued) {
                reissueRead(q);
            }
            return;
        }
        if (d == 0) {
            q.readExpectedIndex++;
            q.readGapReissued = false;
            q.progressPs = sim.nowPs();
            if (q.readExpectedIndex >= q.totalPackets) {
                q.rtoDeadlinePs = NEVER;
                nic.complete(q);
            } else {
                armRto(q);
            }
        } else if (d > 0 && !q.readGapReissued) {
            cells[NicCounters.IMPLIED_NAK_SEQ_ERR]++;
            reissueRead(q);
        }
        // d < 0: duplicate response (from a re-executed request), dropped
    }

    private void reissueRead(final Qp q) {
        q.readGapReissued = true;
        q.readRequestIndex = q.readExpectedIndex;
        q.readRequestPending = true;
        tx.addActive(q);
        tx.kickPort();
    }

    // ------------------------------------------------------------------------------------------
    // retransmission timeout

    private void armRto(final Qp q) {
        q.rtoDeadlinePs = sim.nowPs() + rtoPs;
        if (!q.rtoEventPending) {
            q.rtoEventPending = true;
            sim.schedule(q.rtoDeadlinePs, handler, RoceNic.EV_RTO, q.incarnation, q);
        }
    }

    /**
     * The RTO event of a QP is due ({@link RoceNic#EV_RTO}, incarnation already checked): follows
     * a later deadline, else re-issues the READ request or goes back to {@code sndUna}.
     *
     * @param q the QP
     */
    void onRtoEvent(final Qp q) {
        q.rtoEventPending = false;
        if (q.role != Qp.REQUESTER || q.rtoDeadlinePs == NEVER) {
            return;
        }
        final long now = sim.nowPs();
        if (q.rtoDeadlinePs > now) {
            q.rtoEventPending = true;
            sim.schedule(q.rtoDeadlinePs, handler, RoceNic.EV_RTO, q.incarnation, q);
            return;
        }
        q.rtoDeadlinePs = NEVER;
        if (q.op == MessageOp.READ) {
            if (q.readExpectedIndex < q.totalPackets) {
                cells[NicCounters.LOCAL_ACK_TIMEOUT_ERR]++;
                reissueRead(q);
            }
        } else if (q.sndUna < q.sndMax) {
            cells[NicCounters.LOCAL_ACK_TIMEOUT_ERR]++;
            if (q.path != null) {
                q.path.onTimeout(now);
            }
            if (sr != null) {
                sr.onTimeout(q); // selective repeat: the oldest unacknowledged packet only
            } else {
                q.sndNxt = q.sndUna; // go-back-N from the oldest unacknowledged packet
            }
            tx.addActive(q);
            tx.kickPort();
        }
    }
}
