package dev.nicsim.nic;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.sim.Packet;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.function.ObjLongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Congestion side of {@link RoceNic}: notification point (CNP pacing), DCTCP delayed-ACK CE state
 * machine, fast-start ECN codepoints, PFC pause, PCC event contents, RTT probes, timers and
 * results that take effect later. Timing numbers as in {@link Bench}.
 */
class RoceNicCongestionTest {

    private static long arrivalAtB(final int psn) {
        // p0 (1106 B) ends at 90,080; each later 1090 B packet adds 88,800; + 1 us propagation
        return 90_080L + psn * 88_800L + Bench.PROP_PS;
    }

    @Test
    void notificationPointSendsAtMostOneCnpPerQpPerInterval() {
        final Bench t = new Bench(); // cnpIntervalNs = 4000 by default
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA ? Tap.MARK_CE : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 100 * 1024);
        t.run();
        // marked packets reach b 88,800 ps apart: packet i at t0 + i x 88,800. A CNP goes out when
        // 4,000,000 ps have passed since the last: i x 88,800 >= 4,000,000 -> i = 46 (45 gives
        // 3,996,000). CNPs for packets 0, 46, 92.
        assertEquals(100, t.counter("b", "np_ecn_marked_roce_packets"));
        assertEquals(100, t.counter("b", "ecn_ce_received"));
        assertEquals(3, t.counter("b", "np_cnp_sent"));
        assertEquals(3, t.counter("a", "rp_cnp_handled"));
        assertEquals(0, t.counter("a", "rp_cnp_ignored"));
        assertEquals(3, t.alg.events(PccEventType.CNP).size());
        final List<Tap.Seen> cnps = t.ba.ofKind(Packet.KIND_CNP);
        // CNP leaves b when the marked packet arrives, before its ACK: + 8,160 (82 B) + 1 us
        assertEquals(List.of(arrivalAtB(0) + 1_008_160L, arrivalAtB(46) + 1_008_160L, arrivalAtB(92) + 1_008_160L),
            cnps.stream().map(Tap.Seen::timePs).toList());
        for (final Tap.Seen c : cnps) {
            assertEquals(0x81, c.opcode());
            assertEquals(82, c.frameBytes());
            assertEquals(48, c.dscp());
            assertEquals(6, c.priority());
            assertEquals(Packet.ECN_ECT1, c.ecn());
            assertTrue(c.becn());
            assertEquals(Bench.QPN_A, c.dstQpn());
        }
        // the ACK of packet 0 follows the CNP: leaves b at arrival + 8,160, + 7,200 + 1 us
        assertEquals(arrivalAtB(0) + 8_160 + 7_200 + Bench.PROP_PS, t.acksAtA().get(0).timePs());
        assertEquals(PccEventLayout.FLAG_BECN, t.alg.events(PccEventType.CNP).get(0).flags() & PccEventLayout.FLAG_BECN);
    }

    @Test
    void aCnpExactlyOneIntervalAfterThePreviousIsAllowed() {
        final NicConfig cb = new NicConfig();
        cb.cnpIntervalNs = 3_552; // = 40 x 88.8 ns: exactly 40 packet spacings
        final Bench t = new Bench(new NicConfig(), cb, new FixedAlgorithm());
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA ? Tap.MARK_CE : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 81 * 1024);
        t.run();
        // i x 88,800 >= 3,552,000 at i = 40 exactly: CNPs for packets 0, 40, 80 (a strict
        // comparison would give 0, 41 only)
        assertEquals(3, t.counter("b", "np_cnp_sent"));
        assertEquals(List.of(arrivalAtB(0) + 1_008_160L, arrivalAtB(40) + 1_008_160L, arrivalAtB(80) + 1_008_160L),
            t.ba.ofKind(Packet.KIND_CNP).stream().map(Tap.Seen::timePs).toList());
    }

    @Test
    void zeroIntervalSendsACnpForEveryMarkedPacket() {
        final NicConfig cb = new NicConfig();
        cb.cnpIntervalNs = 0;
        final Bench t = new Bench(new NicConfig(), cb, new FixedAlgorithm());
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA ? Tap.MARK_CE : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 100 * 1024);
        t.run();
        assertEquals(100, t.counter("b", "np_cnp_sent"));
        assertEquals(100, t.counter("a", "rp_cnp_handled"));
        // per packet b sends CNP (8,160) then ACK (7,200): the last ACK leaves at
        // arrivalAtB(99) + 8,160 and reaches a 7,200 + 1 us later
        assertEquals(arrivalAtB(99) + 8_160 + 7_200 + Bench.PROP_PS, t.completionPs());
    }

    @Test
    void disabledNotificationPointCountsMarksButSendsNoCnp() {
        final NicConfig cb = new NicConfig();
        cb.npEnabled = false;
        final Bench t = new Bench(new NicConfig(), cb, new FixedAlgorithm());
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA ? Tap.MARK_CE : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        assertEquals(10, t.counter("b", "np_ecn_marked_roce_packets"));
        assertEquals(0, t.counter("b", "np_cnp_sent"));
        assertTrue(t.ba.ofKind(Packet.KIND_CNP).isEmpty());
    }

    @Test
    void cnpForAnUnknownQpIsIgnored() {
        final Bench t = new Bench();
        final Packet cnp = t.pool.acquire();
        cnp.kind = Packet.KIND_CNP;
        cnp.opcode = 0x81;
        cnp.dstQpn = 999;
        cnp.frameBytes = 82;
        t.a.receive(cnp, 0);
        assertEquals(1, t.counter("a", "rp_cnp_ignored"));
        assertEquals(0, t.counter("a", "rp_cnp_handled"));
    }

    @Test
    void delayedAckFollowsTheDctcpCeStateMachine() {
        final NicConfig cb = new NicConfig();
        cb.ackEveryPackets = 4;
        cb.npEnabled = false;
        final Bench t = new Bench(new NicConfig(), cb, new FixedAlgorithm());
        final Set<Integer> marked = Set.of(2, 3, 4);
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && marked.contains(p.psn) ? Tap.MARK_CE : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        // the DCTCP draft §3.2, m = 4, CE on PSN 2, 3, 4:
        //  p0, p1 unmarked: 2 unacked (CE state false)
        //  p2 CE, state false -> ACK PSN 1 (ECE 0, 2 packets), state true
        //  p3, p4 CE: 3 unacked; p5 unmarked, state true -> ACK PSN 4 (ECE 1, 3 packets), state false
        //  p6, p7, p8: 4 unacked = m -> ACK PSN 8 (ECE 0, 4 packets)
        //  p9 (AckReq) -> ACK PSN 9 (ECE 0, 1 packet)
        final List<Tap.Seen> acks = t.acksAtA();
        assertEquals(List.of(1, 4, 8, 9), acks.stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(false, true, false, false), acks.stream().map(Tap.Seen::ece).toList());
        assertEquals(List.of(2, 3, 4, 1), acks.stream().map(Tap.Seen::ackedPackets).toList());
        // each ACK leaves b when the triggering packet (p2, p5, p8, p9) arrives, + 7,200 + 1 us
        assertEquals(List.of(arrivalAtB(2) + 1_007_200L, arrivalAtB(5) + 1_007_200L, arrivalAtB(8) + 1_007_200L,
            arrivalAtB(9) + 1_007_200L), acks.stream().map(Tap.Seen::timePs).toList());
        // the requester's PCC ACK events: sn = highest PSN acked, firstSn = first newly acked,
        // ECE flag, echoed tx timestamp of the last covered packet (start of p1 = 90,080 ps ->
        // 90 ns; p4 = 356,480 -> 356; p8 = 711,680 -> 711; p9 = 800,480 -> 800)
        final List<FixedAlgorithm.Ev> ev = t.alg.events(PccEventType.ACK);
        assertEquals(List.of(1, 4, 8, 9), ev.stream().map(FixedAlgorithm.Ev::sn).toList());
        assertEquals(List.of(0, 2, 5, 9), ev.stream().map(FixedAlgorithm.Ev::firstSn).toList());
        assertEquals(List.of(0, 1, 0, 0), ev.stream().map(e -> e.flags() & PccEventLayout.FLAG_ECE).toList());
        assertEquals(List.of(90, 356, 711, 800), ev.stream().map(FixedAlgorithm.Ev::rttSendNs).toList());
        assertEquals(arrivalAtB(9) + 1_007_200L, t.completionPs());
    }

    @Test
    void delayedAckTimerAcknowledgesAWindowLimitedSender() {
        final NicConfig cb = new NicConfig();
        cb.ackEveryPackets = 4;
        cb.delayedAckTimeoutNs = 2_000;
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.windowBytes = 2048;
        final Bench t = new Bench(new NicConfig(), cb, alg);
        t.start(1, MessageOp.WRITE, 3 * 1024);
        t.run();
        // p0 at b at 1,090,080 starts the 2 us delayed-ACK timer -> ACK PSN 1 (2 packets) at
        // 3,090,080, at a at 4,097,280; p2 (AckReq) leaves then, at b at 5,186,080, ACKed at once
        // -> 6,193,280.
        final List<Tap.Seen> acks = t.acksAtA();
        assertEquals(List.of(1, 2), acks.stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(2, 1), acks.stream().map(Tap.Seen::ackedPackets).toList());
        assertEquals(4_097_280L, acks.get(0).timePs());
        assertEquals(5_186_080L, t.dataAtB().get(2).timePs());
        assertEquals(6_193_280L, t.completionPs());
    }

    @Test
    void fastStartSendsFirstRttPacketsNotEctExceptTheBudgetsLastAndTheMessagesLast() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.fastStartPackets = 4;
        final Bench t = new Bench(alg);
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        // the LDCP draft §3.1: budget 4 -> packets 0..2 Not-ECT, packet 3 (the IW-th) ECT(0), then ECT(0)
        final int n = Packet.ECN_NOT_ECT;
        final int e = Packet.ECN_ECT0;
        assertEquals(List.of(n, n, n, e, e, e, e, e, e, e), t.dataAtB().stream().map(Tap.Seen::ecn).toList());

        final FixedAlgorithm big = new FixedAlgorithm();
        big.fastStartPackets = 8;
        final Bench s = new Bench(big);
        s.start(1, MessageOp.WRITE, 3 * 1024);
        s.run();
        // message smaller than the budget: its last packet goes ECT(0)
        assertEquals(List.of(n, n, e), s.dataAtB().stream().map(Tap.Seen::ecn).toList());
    }

    @Test
    void retransmissionsAreNotFirstRttPackets() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.fastStartPackets = 6;
        final Bench t = new Bench(alg);
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 1 && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 4 * 1024);
        t.run();
        // first round: p0..p3 all inside the budget of 6, p3 is the message's last -> N N N E;
        // go-back-N resends p1..p3 as ECT(0)
        final int n = Packet.ECN_NOT_ECT;
        final int e = Packet.ECN_ECT0;
        assertEquals(List.of(0, 1, 2, 3, 1, 2, 3), t.dataAtB().stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(n, n, n, e, e, e, e), t.dataAtB().stream().map(Tap.Seen::ecn).toList());
    }

    @Test
    void pfcPauseStopsDataOfThatPriorityForTheQuanta() {
        final Bench t = new Bench();
        final Packet pfc = t.pool.acquire();
        pfc.kind = Packet.KIND_PFC;
        pfc.frameBytes = 64;
        pfc.pfcClassEnable = 1 << 3;
        pfc.setPfcQuanta(3, 1000);
        t.sim.schedule(100_000, (k, arg, ref) -> t.a.receive(pfc, 0), 0, 0, null);
        t.start(1, MessageOp.WRITE, 4 * 1024);
        t.run();
        // pause at 100,000 ps for 1000 x 512 bits at 100 Gb/s = 5,120,000 ps -> until 5,220,000.
        // p1 (90,080..178,880) finishes; p2 starts at 5,220,000 -> at b at + 88,800 + 1 us.
        assertEquals(List.of(1_090_080L, 1_178_880L, 6_308_800L, 6_397_600L),
            t.dataAtB().stream().map(Tap.Seen::timePs).toList());
        assertEquals(1, t.counter("a", "pfc_pause_received"));
        assertEquals(1, t.a.port().pauseFramesReceived(3));

        final Bench other = new Bench();
        final Packet pfc6 = other.pool.acquire();
        pfc6.kind = Packet.KIND_PFC;
        pfc6.frameBytes = 64;
        pfc6.pfcClassEnable = 1 << 6;
        pfc6.setPfcQuanta(6, 1000);
        other.sim.schedule(100_000, (k, arg, ref) -> other.a.receive(pfc6, 0), 0, 0, null);
        other.start(1, MessageOp.WRITE, 4 * 1024);
        other.run();
        // priority 6 paused, data is priority 3: unaffected
        assertEquals(List.of(arrivalAtB(0), arrivalAtB(1), arrivalAtB(2), arrivalAtB(3)),
            other.dataAtB().stream().map(Tap.Seen::timePs).toList());
    }

    @Test
    void txBurstAndAckEventsCarryTheTransportState() {
        final Bench t = new Bench(); // txBurstPackets = 8
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        // TX_BURST after the 8th packet (PSN 7, starts at 90,080 + 6 x 88,800 = 622,880 ps) with
        // 8 x 1024 B, and when the QP has sent its last packet (PSN 9, starts at 800,480): 2 x 1024 B
        final List<FixedAlgorithm.Ev> tx = t.alg.events(PccEventType.TX_BURST);
        assertEquals(2, tx.size());
        assertEquals(List.of(7, 9), tx.stream().map(FixedAlgorithm.Ev::sn).toList());
        assertEquals(List.of(8192, 2048), tx.stream().map(FixedAlgorithm.Ev::txBytes).toList());
        assertEquals(List.of(8, 2), tx.stream().map(FixedAlgorithm.Ev::txPackets).toList());
        assertEquals(List.of(622, 800), tx.stream().map(FixedAlgorithm.Ev::timestampNs).toList());
        assertEquals(List.of(Bench.QPN_A, Bench.QPN_A), tx.stream().map(FixedAlgorithm.Ev::flowId).toList());
        // the flow's first event carries FLAG_FIRST_IN_FLOW, later ones do not
        assertEquals(PccEventLayout.FLAG_FIRST_IN_FLOW, tx.get(0).flags());
        assertEquals(0, tx.get(1).flags());
        // per-packet ACK events: sn = firstSn = i; echo = start of packet i in ns
        final List<FixedAlgorithm.Ev> acks = t.alg.events(PccEventType.ACK);
        assertEquals(10, acks.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(i, acks.get(i).sn());
            assertEquals(i, acks.get(i).firstSn());
            final long startPs = i == 0 ? 0 : 90_080L + (i - 1) * 88_800L;
            assertEquals((int) (startPs / 1000), acks.get(i).rttSendNs());
            // event time = ACK arrival at a: arrival at b + 7,200 + 1 us
            assertEquals((int) ((arrivalAtB(i) + 1_007_200L) / 1000), acks.get(i).timestampNs());
        }
        t.a.publishProcessorCounters();
        assertEquals(10, t.counters.value("a/cc", "ack_events_handled"));
        assertEquals(2, t.counters.value("a/cc", "tx_events_handled"));
    }

    @Test
    void rttProbeIsAnsweredWithTheResponderTimestamps() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.probeAtStart = true;
        final Bench t = new Bench(alg);
        t.start(1, MessageOp.WRITE, 1024);
        t.run();
        // the probe (66 B, 86 wire B = 6,880 ps) goes ahead of data at t = 0, reaches b at
        // 1,006,880; b answers at once (6,880 ps) -> a at 2,013,760.
        final List<Tap.Seen> probes = t.ab.ofKind(Packet.KIND_RTT_PROBE);
        assertEquals(1, probes.size());
        assertEquals(1_006_880L, probes.get(0).timePs());
        // data follows the probe: p0 starts at 6,880, arrives 6,880 + 90,080 + 1 us
        assertEquals(6_880L + 90_080 + Bench.PROP_PS, t.dataAtB().get(0).timePs());
        final List<FixedAlgorithm.Ev> rtt = t.alg.events(PccEventType.RTT_RESPONSE);
        assertEquals(1, rtt.size());
        assertEquals(0, rtt.get(0).rttSendNs());
        assertEquals(1006, rtt.get(0).rttReceiveNs());
        assertEquals(1006, rtt.get(0).rttResponseNs());
        assertEquals(2013, rtt.get(0).timestampNs());
        assertEquals(1, t.counter("a", "tx_rtt_probes"));
        assertEquals(1, t.counter("b", "tx_rtt_responses"));
    }

    @Test
    void theFirstTxEventAfterAProbeCarriesRttReqSent() {
        // DOCA A.7 step 3: rtt_req = 1 -> the NIC sends a probe and a later TX event carries RTT_REQ_SENT.
        // 32 x 1024 B, bursts of 8: TX_BURST events after packets 8, 16, 24, 32 (PSN 7, 15, 23, 31).
        // Probe 1 at flow start (before any data) -> burst 0 carries the flag (with FIRST_IN_FLOW);
        // burst 1's result asks for probe 2, queued ahead of packet 17 -> burst 2 carries it; bursts 1 and 3 not.
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.probeAtStart = true;
        alg.probeOnTxEvent = 1;
        final Bench t = new Bench(alg);
        t.start(1, MessageOp.WRITE, 32 * 1024);
        t.run();
        final List<FixedAlgorithm.Ev> tx = t.alg.events(PccEventType.TX_BURST);
        assertEquals(List.of(7, 15, 23, 31), tx.stream().map(FixedAlgorithm.Ev::sn).toList());
        assertEquals(List.of(PccEventLayout.FLAG_FIRST_IN_FLOW | PccEventLayout.FLAG_RTT_REQ_SENT, 0,
            PccEventLayout.FLAG_RTT_REQ_SENT, 0), tx.stream().map(FixedAlgorithm.Ev::flags).toList());
        assertEquals(2, t.counter("a", "tx_rtt_probes"));
        // the flag is a TX flag: no other event of the flow carries it
        assertTrue(t.alg.events.stream().filter(e -> e.type() != PccEventType.TX_BURST)
            .noneMatch(e -> (e.flags() & PccEventLayout.FLAG_RTT_REQ_SENT) != 0));
    }

    @Test
    void rearmingTheTimerReplacesThePendingOne() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.timerAtStartNs = 5_000;     // would fire at 5,000,000 ps
        alg.timerOnFirstAckNs = 1_000;  // first ACK at 2,097,280 -> fires at 3,097,280 instead
        final Bench t = new Bench(alg);
        t.start(1, MessageOp.WRITE, 100 * 1024); // runs until ~10.9 us
        t.run();
        final List<FixedAlgorithm.Ev> timers = t.alg.events(PccEventType.TIMER);
        assertEquals(1, timers.size());
        assertEquals(3097, timers.get(0).timestampNs());
        assertEquals(Bench.QPN_A, timers.get(0).flowId());
    }

    /** A processor whose results take effect a fixed delay after the event (initial result included). */
    private static final class DelayedProcessor implements CcProcessor {
        private final FixedAlgorithm alg;
        private final CcResultSink sink;
        private final long delayPs;
        private final PccContext context = new PccContext().wrap(new UnsafeBuffer(new byte[4]), 0, 1);
        private final PccResult result = new PccResult();
        private final PccAttributes attributes = new PccAttributes();

        DelayedProcessor(final FixedAlgorithm alg, final CcResultSink sink, final long delayPs) {
            this.alg = alg;
            this.sink = sink;
            this.delayPs = delayPs;
        }

        @Override
        public void startFlow(final int qpn, final long nowPs, final long lineRate, final int mtu, final int baseRttNs,
                              final int initialPsn) {
            attributes.set(lineRate, 0, false, mtu, baseRttNs).initialPsn(initialPsn);
            alg.initFlow(context, (int) (nowPs / 1000), attributes, result.reset());
            sink.onResult(qpn, result, nowPs + delayPs, 0);
        }

        @Override
        public void endFlow(final int qpn) {
        }

        @Override
        public boolean offer(final PccEvent event, final long nowPs) {
            return true;
        }

        @Override
        public long advance(final long nowPs) {
            return Long.MAX_VALUE;
        }

        @Override
        public void forEachCounter(final ObjLongConsumer<String> visitor) {
        }
    }

    @Test
    void resultsTakeEffectAtTheirEffectiveTime() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.rate = 1 << 19;
        final Bench t = new Bench(new NicConfig(), new NicConfig(), null);
        t.a.setCcProcessor(new DelayedProcessor(alg, t.a, 1_000_000));
        t.start(1, MessageOp.WRITE, 2 * 1024);
        t.run();
        // the QP waits for its initial result (effective at 1,000,000 ps): p0 starts then and
        // arrives at + 90,080 + 1 us; p1 is paced at 50 Gb/s: + 180,160 after p0's start
        assertEquals(List.of(2_090_080L, 2_268_960L), t.dataAtB().stream().map(Tap.Seen::timePs).toList());
        assertEquals(1, t.counter("a", "cc_results_applied"));
    }
}
