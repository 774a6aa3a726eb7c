package dev.nicsim.nic;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccIntHop;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The reaction point (RP) of a NIC's requester QPs: it feeds PCC events to the congestion-control
 * processor and applies the processor's results to the QPs' pacer, window, fast-start budget,
 * timers and RTT probes (the DCQCN paper's RP driven by a programmable CC processor, as NVIDIA's
 * DOCA PCC runs one; event set of the LDCP draft, draft-dai-tsvwg-pfc-free-congestion-control,
 * §3.2).
 *
 * <h2>PCC events (flow id = requester QPN)</h2>
 * {@code TX_BURST} every {@link NicConfig#txBurstPackets} data packets or when the QP has sent its
 * last packet (payload bytes and packets since the previous burst, sn = PSN of the packet just
 * started); {@code ACK} for an ACK that acknowledges something new (sn = highest PSN acknowledged,
 * first sn = first newly acknowledged packet, {@link PccEventLayout#FLAG_ECE}, RTT request-send
 * field = echoed transmit timestamp); {@code NACK/OUT_OF_SEQUENCE} (sn = NAK PSN; RTT request-send field = the
 * transmit timestamp the NAK echoes, 0 when it echoes none); {@code CNP}
 * ({@code rp_cnp_handled}, {@link PccEventLayout#FLAG_BECN}); {@code RTT_RESPONSE} (the three
 * probe timestamps); {@code TIMER}. CNP, RTT_RESPONSE and TIMER carry sn = highest PSN sent
 * ({@link RequesterTransport#lastSentPsn}). The first event of a flow carries
 * {@link PccEventLayout#FLAG_FIRST_IN_FLOW}. The first TX_BURST of a flow after one of its RTT probes was
 * queued carries {@link PccEventLayout#FLAG_RTT_REQ_SENT} (DOCA's {@code DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT},
 * fact sheet A.7 step 3); control frames leave ahead of data, so the probe has started on the wire before
 * the data packet whose start emits that event. Every request sends a probe, also while an earlier probe
 * of the flow is unanswered (DOCA does not say it limits a flow to one; nicsim does not). After each offer the processor is advanced and a
 * wake-up is scheduled at the time it asks for.
 *
 * <h2>Results</h2>
 * A result takes effect at its effective time (FIFO per QP): rate to the pacer, window, fast-start
 * budget, an RTT probe (a {@link Packet#KIND_RTT_PROBE} frame, {@code tx_rtt_probes}), a PCC timer
 * (re-arming replaces the pending deadline). A QP with a processor waits for its flow's initial
 * result before sending; without a processor it sends at line rate with no window.
 *
 * <ul>
 * <li>Pacer: per QP, the rate of the last result (a 20-bit fraction of line rate,
 *     {@link FixedPoint#rateToBitsPerSec}); after a frame starts at time t the QP's next frame may
 *     start at {@code t + wire bits / rate}, wire bits including preamble and inter-frame gap
 *     ({@link RoceFraming#serializationPs}), so line rate sends back to back and half of it
 *     doubles the spacing. A new rate re-computes the gap from the last start.</li>
 * <li>Window: payload bytes between the oldest unacknowledged and the next packet, plus the next
 *     packet, may not exceed the window unless it is {@link PccResult#WINDOW_UNLIMITED}; one packet
 *     may always be in flight. Under selective repeat the bytes in flight are
 *     {@link SelectiveRepeat#outstandingBytes} (SACKed and known-lost packets do not count), and the
 *     resend of the oldest unacknowledged packet always goes: packets lost without a NACK stay
 *     outstanding until the cumulative point passes them, and the timeout resends only that one.</li>
 * </ul>
 *
 * <p>Times are ps of simulated time, event timestamps ns (32 bits). One event record is reused;
 * nothing is allocated per event (a QP's result queue grows only beyond its peak).
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class ReactionPoint {
    private static final long NEVER = Long.MAX_VALUE;

    private final Simulator sim;
    private final EventHandler handler;
    private final QpTable qps;
    private final TxArbiter tx;
    private final int txBurstPackets;
    private final int dataDscp;
    private final int dataPriority;
    /** HPCC INT_MULTI of the hop records in ACK events ({@link NicConfig#intMulti}). */
    private final int intMulti;
    private final int ecnCodepoint;
    /** IFA2 probes: the initial Hop Limit, or -1 for CCMAD probes ({@link NicConfig#probeIfa2HopLimit}). */
    private final int probeIfa2HopLimit;
    /** IFA2 probes: the GNS ({@link NicConfig#probeIfa2Gns}). */
    private final int probeIfa2Gns;

    private NicPort port;
    /** {@link RoceFraming#exactPsPerByte} of the line rate (0 if none): a QP pacing at line rate needs no division per packet. */
    private long linePsPerByte;
    private CcProcessor processor;
    private long processorWakeupAtPs = NEVER;

    private final UnsafeBuffer eventBuffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    private final PccEvent event = new PccEvent().wrap(eventBuffer, 0);
    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;

    /**
     * Creates the reaction point of a NIC.
     *
     * @param sim      simulator
     * @param handler  the NIC's event handler (processor wake-ups, results, PCC timers)
     * @param qps      the NIC's QP table
     * @param tx       the NIC's transmit arbiter (RTT probes, port kicks)
     * @param config   validated configuration (TX burst size, data DSCP/priority/ECN for probes)
     * @param counters the NIC's counters
     */
    ReactionPoint(final Simulator sim, final EventHandler handler, final QpTable qps, final TxArbiter tx,
                  final NicConfig config, final NicCounters counters) {
        this.sim = sim;
        this.handler = handler;
        this.qps = qps;
        this.tx = tx;
        this.txBurstPackets = config.txBurstPackets;
        this.dataDscp = config.dataDscp;
        this.dataPriority = config.dataPriority;
        this.ecnCodepoint = config.ecnCodepoint;
        this.intMulti = config.intMulti;
        this.probeIfa2HopLimit = config.probeIfa2HopLimit;
        this.probeIfa2Gns = config.probeIfa2Gns;
        this.cells = counters.cells;
    }

    /** @param port the NIC's port, once connected (line rate for results and the pacer) */
    void connect(final NicPort port) {
        this.port = port;
        linePsPerByte = RoceFraming.exactPsPerByte(port.rateBitsPerSec());
    }

    /** @param processor the CC processor, or null for none */
    void setProcessor(final CcProcessor processor) {
        this.processor = processor;
    }

    /** @return the CC processor, or null */
    CcProcessor processor() {
        return processor;
    }

    // ------------------------------------------------------------------------------------------
    // flows

    /**
     * Starts a requester QP's flow on the processor (if any); the QP then waits for its initial result.
     *
     * @param q         the requester QP
     * @param nowPs     now, ps
     * @param mtuBytes  MTU, bytes
     * @param baseRttNs base RTT of the path, ns
     */
    void startFlow(final Qp q, final long nowPs, final int mtuBytes, final int baseRttNs) {
        if (processor != null) {
            q.awaitingInit = true;
            processor.startFlow(q.qpn, nowPs, port.rateBitsPerSec(), mtuBytes, baseRttNs, q.initialPsn);
            runProcessor();
        }
    }

    /** @param qpn requester QPN of a flow that has completed */
    void endFlow(final int qpn) {
        if (processor != null) {
            processor.endFlow(qpn);
        }
    }

    // ------------------------------------------------------------------------------------------
    // pacer and window

    /**
     * @param q a QP with something to send
     * @return whether its window lets the next packet go (always for responders, READ and no window)
     */
    static boolean windowOpen(final Qp q) {
        if (q.role != Qp.REQUESTER || q.op == MessageOp.READ || q.windowBytes == PccResult.WINDOW_UNLIMITED) {
            return true;
        }
        if (q.srSender && q.sndNxt == q.sndUna) {
            return true; // the oldest unacknowledged packet may always go (else a timeout's resend could wait forever)
        }
        final long inFlight = q.srSender ? SelectiveRepeat.outstandingBytes(q)
            : q.byteOffset(q.sndNxt) - q.byteOffset(q.sndUna);
        return inFlight == 0 || inFlight + q.payloadBytes(q.sndNxt) <= q.windowBytes;
    }

    /**
     * Pacer: a requester frame starts now; the QP's next may start one frame time at its rate later.
     *
     * @param q          the requester QP
     * @param frameBytes the frame's bytes
     * @param nowPs      now, ps
     */
    void pace(final Qp q, final int frameBytes, final long nowPs) {
        q.lastTxStartPs = nowPs;
        q.lastFrameBytes = frameBytes;
        q.nextSendPs = nowPs + RoceFraming.serializationPs(frameBytes, q.rateBitsPerSec,
            q.rateBitsPerSec == port.rateBitsPerSec() ? linePsPerByte : 0);
    }

    // ------------------------------------------------------------------------------------------
    // events to the processor

    /**
     * A WRITE/SEND data packet of the QP started serialisation: TX_BURST when the burst is full or
     * the QP has sent its last packet.
     *
     * @param q   the requester QP
     * @param psn the packet's PSN
     */
    void onDataTransmitStart(final Qp q, final int psn) {
        if (q.burstPackets >= txBurstPackets || q.sndNxt >= q.totalPackets) {
            emitTxBurst(q, psn);
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
            // DOCA A.7 step 3: the first TX event after a probe was sent says so
            final int flags = q.rttReqSentPending ? PccEventLayout.FLAG_RTT_REQ_SENT : 0;
            q.rttReqSentPending = false;
            offer(q, flags);
        }
    }

    /**
     * ACK event for an ACK that acknowledged something new.
     *
     * @param q     the requester QP
     * @param p     the ACK (PSN, ECE, echoed timestamp)
     * @param first first newly acknowledged packet index
     */
    void onAck(final Qp q, final Packet p, final int first) {
        if (processor != null) {
            event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, q.qpn, p.psn, sim.nowNs32());
            event.firstSn(q.psn(first));
            event.rtt(p.txTimestampNs, 0, 0);
            int flags = p.ece ? PccEventLayout.FLAG_ECE : 0;
            if (p.intHopCount > 0) {
                // HPCC: the echoed INT hop records, packed into the ACK record (PccEventLayout "INT on ACK events")
                final int n = Math.min(p.intHopCount, PccEventLayout.INT_MAX_HOPS);
                for (int i = 0; i < n; i++) {
                    final int b = i * Packet.INT_HOP_FIELDS;
                    event.intHop(i, PccIntHop.pack(PccIntHop.rateCode(p.intHops[b + 3]), p.intHops[b], p.intHops[b + 1],
                        p.intHops[b + 2], intMulti));
                }
                flags |= PccEventLayout.FLAG_INT | n << PccEventLayout.FLAG_INT_HOPS_SHIFT;
            }
            offer(q, flags);
        }
    }

    /**
     * NACK/OUT_OF_SEQUENCE event for a PSN-sequence-error NAK (and the NACK of a trimmed packet), with the
     * transmit timestamp the NAK echoes (0 = none) as the RTT request-send field.
     *
     * @param q the requester QP
     * @param p the NAK
     */
    void onNak(final Qp q, final Packet p) {
        if (processor != null) {
            event.reset(PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, q.qpn, p.psn, sim.nowNs32());
            event.rtt(p.txTimestampNs, 0, 0);
            offer(q, 0);
        }
    }

    /**
     * A CNP arrived: CNP event for a requester QP ({@code rp_cnp_handled}), else {@code rp_cnp_ignored}.
     *
     * @param p the CNP (not kept)
     */
    void onCnp(final Packet p) {
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            cells[NicCounters.RP_CNP_IGNORED]++;
            return;
        }
        cells[NicCounters.RP_CNP_HANDLED]++;
        if (processor != null) {
            event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, q.qpn, RequesterTransport.lastSentPsn(q),
                sim.nowNs32());
            offer(q, p.becn ? PccEventLayout.FLAG_BECN : 0);
        }
    }

    /**
     * An RTT response arrived: RTT_RESPONSE event with the probe's three timestamps.
     *
     * @param p the response (not kept)
     */
    void onRttResponse(final Packet p) {
        final Qp q = qps.get(p.dstQpn);
        if (q == null || q.role != Qp.REQUESTER) {
            cells[NicCounters.RX_UNKNOWN_QP]++;
            return;
        }
        q.rttResponses++;
        if (processor != null) {
            event.reset(PccEventType.RTT_RESPONSE, PccEventType.SUBTYPE_NONE, q.qpn, RequesterTransport.lastSentPsn(q),
                sim.nowNs32());
            event.rtt(p.txTimestampNs, p.rttRequestReceiveNs, p.rttResponseSendNs);
            offer(q, 0);
        }
    }

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
            sim.schedule(Math.max(next, sim.nowPs()), handler, RoceNic.EV_PROCESSOR, 0, null);
        }
    }

    /** The processor's wake-up ({@link RoceNic#EV_PROCESSOR}) is due: advance it. */
    void onProcessorWakeup() {
        if (sim.nowPs() >= processorWakeupAtPs) {
            processorWakeupAtPs = NEVER;
        }
        if (processor != null) {
            runProcessor();
        }
    }

    // ------------------------------------------------------------------------------------------
    // results from the processor

    /**
     * A result of the CC processor for a flow: applied now if its effective time has come, else
     * queued in the QP and applied then ({@link RoceNic#onResult}).
     *
     * @param qpn         requester QPN
     * @param result      the result; copied, not kept
     * @param effectivePs time the result takes effect, ps
     */
    void onResult(final int qpn, final PccResult result, final long effectivePs) {
        final Qp q = qps.get(qpn);
        if (q == null || q.role != Qp.REQUESTER) {
            return;
        }
        final long now = sim.nowPs();
        if (effectivePs > now || q.pendingCount > 0) {
            q.pushResult(result, effectivePs);
            sim.schedule(Math.max(effectivePs, now), handler, RoceNic.EV_APPLY_RESULT, q.incarnation, q);
        } else {
            applyResult(q, result.rate(), result.windowBytes(), result.rttProbeRequest(), result.timerNs(),
                result.fastStartPackets());
        }
    }

    /**
     * Applies the QP's queued results whose time has come ({@link RoceNic#EV_APPLY_RESULT},
     * incarnation already checked).
     *
     * @param q the QP
     */
    void applyPending(final Qp q) {
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
        cells[NicCounters.CC_RESULTS_APPLIED]++;
        q.awaitingInit = false;
        q.lastResultPs = sim.nowPs();
        if (rate != PccResult.RATE_UNCHANGED) {
            final long bps = Math.max(1, FixedPoint.rateToBitsPerSec(rate, port.rateBitsPerSec()));
            if (bps != q.rateBitsPerSec) {
                q.rateSincePs = q.lastResultPs;
            }
            q.rateBitsPerSec = bps;
            q.lowestRateBitsPerSec = Math.min(q.lowestRateBitsPerSec, bps);
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
                sim.schedule(q.timerDeadlinePs, handler, RoceNic.EV_PCC_TIMER, q.incarnation, q);
            }
        }
        tx.kickPort();
    }

    private void sendRttProbe(final Qp q) {
        final Packet p = tx.controlFrame(Packet.KIND_RTT_PROBE, RoceOpcodes.RTT_PROBE, q.peerHost, q.qpn, q.peerQpn,
            dataDscp, dataPriority, ecnCodepoint, RoceNic.RTT_FRAME_BYTES, q.udpSrcPort, q.flowId);
        if (probeIfa2HopLimit >= 0 && p.intHops != null) { // IFA2 probe (Addendum B.2): headers now, records per hop
            p.ifa2HopLimit = probeIfa2HopLimit;
            p.ifa2Gns = probeIfa2Gns;
            p.frameBytes += Packet.IFA2_HEADER_BYTES;
        }
        cells[NicCounters.TX_RTT_PROBES]++;
        q.rttProbes++;
        q.rttReqSentPending = true;
        tx.enqueueControl(p);
    }

    /**
     * The PCC timer event of a QP is due ({@link RoceNic#EV_PCC_TIMER}, incarnation already
     * checked): ignored if overtaken, follows a later deadline, else offers a TIMER event.
     *
     * @param q the QP
     */
    void onPccTimer(final Qp q) {
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
            sim.schedule(q.timerDeadlinePs, handler, RoceNic.EV_PCC_TIMER, q.incarnation, q);
            return;
        }
        q.timerDeadlinePs = Long.MAX_VALUE;
        event.reset(PccEventType.TIMER, PccEventType.SUBTYPE_NONE, q.qpn, RequesterTransport.lastSentPsn(q),
            sim.nowNs32());
        offer(q, 0);
    }
}
