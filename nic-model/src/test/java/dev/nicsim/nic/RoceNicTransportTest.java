package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.nicsim.nic.Bench.PROP_PS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RC transport of {@link RoceNic}: completion times, segmentation, pacer, window, go-back-N on NAK
 * and on timeout, READ. Timing numbers are derived in {@link Bench}'s description: 1106 B frame =
 * 90,080 ps, 1090 B = 88,800 ps, ACK 7,200 ps at 100 Gb/s, 1,000,000 ps propagation.
 */
class RoceNicTransportTest {

    @Test
    void writeOverDirectLinkCompletesAtSerialisationPlusPropagationPlusAck() {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry counters = new CounterRegistry();
        final RoceNic a = new RoceNic(sim, "a", 0, new NicConfig(), counters, pool);
        final RoceNic b = new RoceNic(sim, "b", 1, new NicConfig(), counters, pool);
        a.connect(Bench.RATE, PROP_PS, b, 0);
        b.connect(Bench.RATE, PROP_PS, a, 0);
        a.setCcProcessor(new DirectCcProcessor(new FixedAlgorithm(), 0, a));
        final List<long[]> done = new ArrayList<>();
        a.startFlow(7, 1, b, 2, MessageOp.WRITE, 4096, 2000, (id, ps) -> done.add(new long[] {id, ps}));
        sim.runUntil(Long.MAX_VALUE);

        // 4096 B = 4 packets: FIRST 90,080 ps then 3 x 88,800 ps back to back -> last bit out at
        // 356,480; + 1,000,000 propagation -> 1,356,480 at b; ACK 7,200 + 1,000,000 -> 2,363,680.
        assertEquals(1, done.size());
        assertEquals(7, done.get(0)[0]);
        assertEquals(2_363_680L, done.get(0)[1]);
        assertEquals(4, a.dataPacketsSent());
        assertEquals(4, counters.value("b", "rx_data_packets"));
        assertEquals(4, counters.value("b", "tx_ack_packets"));
        assertEquals(4, counters.value("a", "rx_ack_packets"));
        // frame bytes out of a: 1106 + 3 x 1090 = 4376; out of b: 4 ACKs x 70 = 280
        assertEquals(4376, counters.value("a", "tx_bytes"));
        assertEquals(280, counters.value("b", "tx_bytes"));
        assertEquals(4376, counters.value("b", "rx_bytes"));
        assertEquals(1, counters.value("a", "flows_completed"));
        assertTrue(a.unfinishedFlows().isEmpty());
        // every packet went back to the pool
        assertEquals(0, pool.outstanding());
    }

    @Test
    void writeIsSegmentedIntoFirstMiddleLastWithRethOnFirstAndAckReqOnLast() {
        final Bench t = new Bench();
        t.start(1, MessageOp.WRITE, 2500);
        t.run();
        final List<Tap.Seen> d = t.dataAtB();
        // 2500 B at MTU 1024: payloads 1024, 1024, 452
        assertEquals(List.of(0, 1, 2), d.stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(0x06, 0x07, 0x08), d.stream().map(Tap.Seen::opcode).toList());
        assertEquals(List.of(1024, 1024, 452), d.stream().map(Tap.Seen::payloadBytes).toList());
        // frames: 66 + 16 (RETH) + 1024 = 1106; 66 + 1024 = 1090; 66 + 452 = 518
        assertEquals(List.of(1106, 1090, 518), d.stream().map(Tap.Seen::frameBytes).toList());
        assertEquals(List.of(false, false, true), d.stream().map(Tap.Seen::ackReq).toList());
        for (final Tap.Seen s : d) {
            assertEquals(26, s.dscp());
            assertEquals(3, s.priority());
            assertEquals(Packet.ECN_ECT0, s.ecn());
            assertEquals(Bench.QPN_B, s.dstQpn());
            assertEquals(Bench.QPN_A, s.srcQpn());
            assertEquals(d.get(0).udpSrcPort(), s.udpSrcPort());
            assertTrue(s.udpSrcPort() >= 0xC000 && s.udpSrcPort() <= 0xFFFF);
        }
        // ACKs: opcode 0x11, 70 B frame, syndrome ACK, cumulative PSN, MSN 1 after the LAST packet
        final List<Tap.Seen> acks = t.acksAtA();
        assertEquals(List.of(0, 1, 2), acks.stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(0, 0, 1), acks.stream().map(Tap.Seen::msn).toList());
        for (final Tap.Seen s : acks) {
            assertEquals(0x11, s.opcode());
            assertEquals(70, s.frameBytes());
            assertEquals(Packet.AETH_ACK, s.syndrome());
            assertEquals(1, s.ackedPackets());
            assertEquals(Bench.QPN_A, s.dstQpn());
        }
    }

    @Test
    void sendAndSmallMessagesUseSendOpcodesAndOnlyOpcodes() {
        final Bench send = new Bench();
        send.start(1, MessageOp.SEND, 2500);
        send.run();
        // SEND carries no RETH: 1090, 1090, 66 + 452 = 518
        assertEquals(List.of(0x00, 0x01, 0x02), send.dataAtB().stream().map(Tap.Seen::opcode).toList());
        assertEquals(List.of(1090, 1090, 518), send.dataAtB().stream().map(Tap.Seen::frameBytes).toList());

        final Bench writeOnly = new Bench();
        writeOnly.start(1, MessageOp.WRITE, 100);
        writeOnly.run();
        // WRITE ONLY 0x0A with RETH: 66 + 16 + 100 = 182
        assertEquals(List.of(0x0A), writeOnly.dataAtB().stream().map(Tap.Seen::opcode).toList());
        assertEquals(List.of(182), writeOnly.dataAtB().stream().map(Tap.Seen::frameBytes).toList());
        assertTrue(writeOnly.dataAtB().get(0).ackReq());

        final Bench sendOnly = new Bench();
        sendOnly.start(1, MessageOp.SEND, 10);
        sendOnly.run();
        // SEND ONLY 0x04: 66 + 10 = 76
        assertEquals(List.of(0x04), sendOnly.dataAtB().stream().map(Tap.Seen::opcode).toList());
        assertEquals(List.of(76), sendOnly.dataAtB().stream().map(Tap.Seen::frameBytes).toList());
    }

    @Test
    void readSendsOneRequestAndCompletesWhenTheLastResponseArrives() {
        final Bench t = new Bench();
        t.start(3, MessageOp.READ, 2500);
        t.run();
        final List<Tap.Seen> req = t.ab.ofKind(Packet.KIND_READ_REQUEST);
        assertEquals(1, req.size());
        assertEquals(0x0C, req.get(0).opcode());
        assertEquals(82, req.get(0).frameBytes()); // 66 + 16 (RETH)
        assertEquals(2500, req.get(0).payloadBytes()); // requested length
        assertEquals(0, req.get(0).psn());
        final List<Tap.Seen> resp = t.ba.ofKind(Packet.KIND_DATA);
        assertEquals(List.of(0x0D, 0x0E, 0x0F), resp.stream().map(Tap.Seen::opcode).toList());
        assertEquals(List.of(0, 1, 2), resp.stream().map(Tap.Seen::psn).toList());
        // FIRST and LAST carry AETH: 66 + 4 + 1024 = 1094; 1090; 66 + 4 + 452 = 522
        assertEquals(List.of(1094, 1090, 522), resp.stream().map(Tap.Seen::frameBytes).toList());
        // request 102 wire B = 8,160 ps, + 1 us -> b at 1,008,160; responses 1114, 1110, 542 wire B
        // = 89,120 + 88,800 + 43,360 = 221,280 ps; + 1 us -> 2,229,440
        assertEquals(2_229_440L, t.completionPs());
        assertEquals(3, t.b.dataPacketsSent());
        assertEquals(0, t.a.dataPacketsSent());
        assertTrue(t.ab.ofKind(Packet.KIND_ACK).isEmpty());
    }

    @Test
    void pacerAtHalfRateDoublesTheSpacing() {
        final FixedAlgorithm full = new FixedAlgorithm();
        final Bench f = new Bench(full);
        f.start(1, MessageOp.WRITE, 4096);
        f.run();
        // line rate: starts 0, 90,080, 178,880, 267,680; arrivals = start + serialisation + 1 us
        assertEquals(List.of(1_090_080L, 1_178_880L, 1_267_680L, 1_356_480L),
            f.dataAtB().stream().map(Tap.Seen::timePs).toList());

        final FixedAlgorithm half = new FixedAlgorithm();
        half.rate = 1 << 19; // 0.5 x 100 Gb/s = 50 Gb/s
        final Bench h = new Bench(half);
        h.start(1, MessageOp.WRITE, 4096);
        h.run();
        // pacer gap = wire bits / 50 Gb/s: 9008 bits -> 180,160 ps; 8880 bits -> 177,600 ps.
        // starts 0, 180,160, 357,760, 535,360; arrival = start + link serialisation + 1 us
        assertEquals(List.of(1_090_080L, 1_268_960L, 1_446_560L, 1_624_160L),
            h.dataAtB().stream().map(Tap.Seen::timePs).toList());
        // spacing of MIDDLE packets: 177,600 = 2 x 88,800
        assertEquals(2 * (f.dataAtB().get(2).timePs() - f.dataAtB().get(1).timePs()),
            h.dataAtB().get(2).timePs() - h.dataAtB().get(1).timePs());
    }

    @Test
    void windowLimitsBytesInFlight() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.windowBytes = 2048; // two packets
        final Bench t = new Bench(alg);
        t.start(1, MessageOp.WRITE, 6144);
        t.run();
        // p0, p1 back to back (arrive 1,090,080 and 1,178,880). p2 waits for the ACK of p0:
        // 1,090,080 + 7,200 + 1,000,000 = 2,097,280, arrives 2,097,280 + 88,800 + 1 us = 3,186,080.
        // p3 after ACK of p1 at 2,186,080 (= end of p2) -> arrives 3,274,880. p4 after ACK of p2
        // at 4,193,280 -> 5,282,080; p5 after ACK of p3 at 4,282,080 -> 5,370,880.
        assertEquals(List.of(1_090_080L, 1_178_880L, 3_186_080L, 3_274_880L, 5_282_080L, 5_370_880L),
            t.dataAtB().stream().map(Tap.Seen::timePs).toList());
        // ACK of p5: 5,370,880 + 1,007,200
        assertEquals(6_378_080L, t.completionPs());
        // never more than 2048 B unacknowledged: every data packet k >= 2 leaves a after the ACK
        // of packet k - 2 arrives at a
        final List<Tap.Seen> acks = t.acksAtA();
        final List<Tap.Seen> data = t.dataAtB();
        for (int k = 2; k < 6; k++) {
            final long sentPs = data.get(k).timePs() - PROP_PS - 88_800;
            assertTrue(sentPs >= acks.get(k - 2).timePs(), "packet " + k + " sent before ACK of " + (k - 2));
        }
    }

    @Test
    void nakCausesGoBackNFromTheMissingPsn() {
        final Bench t = new Bench();
        // drop the first transmission of PSN 3
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 3 && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        // all 10 packets leave a by 889,280 ps, long before the NAK returns, so p4..p9 reach b out
        // of order: out_of_sequence = 6, one NAK (PSN 3). p4 arrives at 90,080 + 4 x 88,800 + 1 us
        // = 1,445,280; NAK at a at 1,445,280 + 7,200 + 1 us = 2,452,480; a resends p3..p9
        // (7 x 88,800) -> p9 at b at 2,452,480 + 621,600 + 1 us = 4,074,080; ACK -> 5,081,280.
        assertEquals(6, t.counter("b", "out_of_sequence"));
        assertEquals(1, t.counter("b", "tx_nak_packets"));
        assertEquals(1, t.counter("a", "packet_seq_err"));
        assertEquals(7, t.counter("a", "roce_adp_retrans"));
        assertEquals(17, t.a.dataPacketsSent());
        assertEquals(0, t.counter("b", "duplicate_request"));
        assertEquals(0, t.counter("a", "local_ack_timeout_err"));
        final List<Tap.Seen> naks = t.ba.seen.stream()
            .filter(s -> s.kind() == Packet.KIND_ACK && s.syndrome() == Packet.AETH_NAK_PSN_SEQ_ERR).toList();
        assertEquals(1, naks.size());
        assertEquals(3, naks.get(0).psn());
        assertEquals(2_452_480L, naks.get(0).timePs());
        // PSNs on the wire: 0..9, then 3..9
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9),
            t.dataAtB().stream().map(Tap.Seen::psn).toList());
        assertEquals(3_541_280L, t.dataAtB().get(10).timePs()); // 2,452,480 + 88,800 + 1 us
        assertEquals(5_081_280L, t.completionPs());
        // the NAK reaches the algorithm as NACK/OUT_OF_SEQUENCE with sn = 3
        final List<FixedAlgorithm.Ev> nacks = t.alg.events(dev.nicsim.pcc.PccEventType.NACK);
        assertEquals(1, nacks.size());
        assertEquals(dev.nicsim.pcc.PccEventType.NACK_OUT_OF_SEQUENCE, nacks.get(0).subtype());
        assertEquals(3, nacks.get(0).sn());
    }

    @Test
    void lostLastPacketIsResentAfterTheRetransmissionTimeout() {
        final NicConfig ca = new NicConfig();
        ca.rtoNs = 100_000; // 100 us = 100,000,000 ps
        final Bench t = new Bench(ca, new NicConfig(), new FixedAlgorithm());
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 9 && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 10 * 1024);
        t.run();
        // last progress: ACK of p8 at a at 90,080 + 8 x 88,800 + 2 us + 7,200 = 2,807,680; the RTO
        // is re-armed then and fires at 102,807,680; p9 resent -> b at + 88,800 + 1 us =
        // 103,896,480; ACK at a at 104,903,680.
        assertEquals(1, t.counter("a", "local_ack_timeout_err"));
        assertEquals(1, t.counter("a", "roce_adp_retrans"));
        assertEquals(0, t.counter("b", "out_of_sequence"));
        assertEquals(0, t.counter("a", "packet_seq_err"));
        assertEquals(103_896_480L, t.dataAtB().get(10).timePs());
        assertEquals(104_903_680L, t.completionPs());
    }

    @Test
    void lostReadResponseCausesImpliedNakAndReissuedRequest() {
        final Bench t = new Bench();
        t.ba.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 1 && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.READ, 4096);
        t.run();
        // request at b at 1,008,160; responses FIRST 89,120, MIDDLE 88,800 (dropped), MIDDLE psn 2
        // ends 1,274,880 -> at a at 2,274,880: gap -> implied_nak_seq_err, READ request re-issued
        // for PSN 1 (3072 B) -> b at 2,274,880 + 8,160 + 1 us = 3,283,040 (duplicate request);
        // new stream FIRST 89,120 + MIDDLE 88,800 + LAST 89,120 -> a at 4,550,080.
        assertEquals(1, t.counter("a", "implied_nak_seq_err"));
        assertEquals(1, t.counter("b", "duplicate_request"));
        assertEquals(1, t.counter("a", "roce_adp_retrans"));
        final List<Tap.Seen> req = t.ab.ofKind(Packet.KIND_READ_REQUEST);
        assertEquals(List.of(0, 1), req.stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(4096, 3072), req.stream().map(Tap.Seen::payloadBytes).toList());
        assertEquals(3_283_040L, req.get(1).timePs()); // the tap sees it when it reaches b
        assertEquals(List.of(0, 1, 2, 3, 1, 2, 3), t.ba.ofKind(Packet.KIND_DATA).stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(0x0D, 0x0E, 0x0E, 0x0F, 0x0D, 0x0E, 0x0F),
            t.ba.ofKind(Packet.KIND_DATA).stream().map(Tap.Seen::opcode).toList());
        assertEquals(4_550_080L, t.completionPs());
    }

    @Test
    void qpnsAreReusableAfterCompletionAndActiveQpsAreVisitedInQpnOrder() {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.rate = 1 << 19;
        alg.windowBytes = 8192;
        final Bench t = new Bench(alg);
        final List<long[]> done = new ArrayList<>();
        t.a.startFlow(1, 7, t.b, 70, MessageOp.WRITE, 4096, 2000, (id, ps) -> done.add(new long[] {id, ps}));
        t.a.startFlow(2, 3, t.b, 30, MessageOp.WRITE, 4096, 2000, (id, ps) -> done.add(new long[] {id, ps}));
        final List<long[]> visited = new ArrayList<>();
        t.a.forEachActiveQp((qpn, rate, window) -> visited.add(new long[] {qpn, rate, window}));
        assertEquals(2, visited.size());
        assertEquals(3, visited.get(0)[0]);
        assertEquals(7, visited.get(1)[0]);
        assertEquals(50_000_000_000L, visited.get(0)[1]); // (1e11 x 2^19) >> 20
        assertEquals(8192, visited.get(0)[2]);
        assertThrows(IllegalStateException.class,
            () -> t.a.startFlow(9, 7, t.b, 71, MessageOp.WRITE, 10, 0, null));
        t.run();
        assertEquals(2, done.size());
        visited.clear();
        t.a.forEachActiveQp((qpn, rate, window) -> visited.add(new long[] {qpn, rate, window}));
        assertTrue(visited.isEmpty());
        // the same QPNs again, from a later time: completes, with pooled QP objects
        final long start = t.sim.nowPs();
        t.a.startFlow(3, 7, t.b, 70, MessageOp.WRITE, 1024, 2000, (id, ps) -> done.add(new long[] {id, ps}));
        t.run();
        // WRITE ONLY 1024 B: 66 + 16 + 1024 = 1106 B = 90,080 ps; + 1 us + ACK 7,200 + 1 us
        assertEquals(start + 2_097_280L, done.get(2)[1]);
    }

    @Test
    void badArgumentsAreRejected() {
        final Bench t = new Bench();
        assertThrows(IllegalArgumentException.class, () -> t.start(1, MessageOp.WRITE, 0));
        assertThrows(IllegalArgumentException.class,
            () -> t.a.startFlow(1, 1 << 24, t.b, 1, MessageOp.WRITE, 10, 0, null));
        final RoceNic unconnected = new RoceNic(t.sim, "u", 5, new NicConfig(), t.counters, t.pool);
        assertThrows(IllegalStateException.class,
            () -> unconnected.startFlow(1, 1, t.b, 1, MessageOp.WRITE, 10, 0, null));
        final NicConfig bad = new NicConfig();
        bad.cnpPriority = 8;
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new RoceNic(t.sim, "x", 6, bad, t.counters, t.pool));
        assertTrue(e.getMessage().contains("cnpPriority"), e.getMessage());
    }
}
