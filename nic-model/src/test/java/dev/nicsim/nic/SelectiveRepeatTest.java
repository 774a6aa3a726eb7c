package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Selective repeat, ACK coalescing by bytes and the answer to trimmed packets, on two NICs joined by
 * scripted wires (100 Gb/s, 1 us each way, MTU 1024, no window: {@link Bench}'s numbers). A
 * 10-packet WRITE (10,240 B) leaves a back to back: packet k's last bit leaves at
 * 90,080 + 88,800 k ps (WRITE FIRST 1106 B = 90,080 ps, MIDDLE/LAST 1090 B = 88,800 ps) and
 * reaches the wire's far end 1 us later: p0 1,090,080, p1 1,178,880, ... p9 1,889,280. An ACK
 * (70 B) takes 7,200 ps plus 1 us back. Every ACK/NAK echoes the data packets' UDP source port.
 */
class SelectiveRepeatTest {
    private static final long TEN_PACKETS = 10 * 1024;

    /** What the wire does with a frame; {@code n} counts frames of the same kind and PSN, from 1. */
    interface Rule {
        int decide(Packet p, int n);
    }

    static final int FORWARD = 0;
    static final int DROP = 1;
    /** Keep the frame until the next data frame has been passed on, then pass it on (a swap). */
    static final int HOLD = 2;
    /** Cut the data frame to its 64-byte header and mark it trimmed, as a trimming switch does. */
    static final int TRIM = 3;
    static final int MARK_CE = 4;

    /** A frame as it left the wire towards its target (after the rule). */
    record Seen(long timePs, int kind, int psn, int syndrome, long sack, int echo, boolean ece, int udpSrcPort,
                boolean trimmed, int acked) {
    }

    /** One direction of the link: applies its rule, records what it passes on, at once. */
    static final class Wire implements NetDevice {
        final Simulator sim;
        final PacketPool pool;
        final Map<Long, Integer> occurrences = new HashMap<>();
        final List<Seen> passed = new ArrayList<>();
        NetDevice target;
        Rule rule = (p, n) -> FORWARD;
        Packet held;

        Wire(final Simulator sim, final PacketPool pool) {
            this.sim = sim;
            this.pool = pool;
        }

        @Override
        public void receive(final Packet p, final int inPort) {
            final int n = occurrences.merge(((long) p.kind << 32) | p.psn, 1, Integer::sum);
            final int action = rule.decide(p, n);
            switch (action) {
                case DROP -> pool.release(p);
                case HOLD -> held = p;
                default -> {
                    if (action == TRIM) {
                        p.trimmed = true;
                        p.frameBytes = 64;
                        p.payloadBytes = 0;
                    } else if (action == MARK_CE) {
                        p.ecn = Packet.ECN_CE;
                    }
                    pass(p);
                    if (held != null && p.kind == Packet.KIND_DATA) {
                        final Packet h = held;
                        held = null;
                        pass(h);
                    }
                }
            }
        }

        private void pass(final Packet p) {
            passed.add(new Seen(sim.nowPs(), p.kind, p.psn, p.aethSyndrome, p.sackBitmap, p.echoUdpSrcPort, p.ece,
                p.udpSrcPort, p.trimmed, p.ackedPackets));
            target.receive(p, 0);
        }

        List<Seen> ofKind(final int kind) {
            return passed.stream().filter(s -> s.kind() == kind).toList();
        }

        @Override
        public String name() {
            return "wire";
        }
    }

    /** NIC a sends to NIC b over two wires. */
    static final class Rig {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry counters = new CounterRegistry();
        final RoceNic a;
        final RoceNic b;
        final Wire ab;
        final Wire ba;
        final List<Long> done = new ArrayList<>();

        Rig(final NicConfig config) {
            a = new RoceNic(sim, "a", 0, config.copy(), counters, pool);
            b = new RoceNic(sim, "b", 1, config.copy(), counters, pool);
            ab = new Wire(sim, pool);
            ba = new Wire(sim, pool);
            ab.target = b;
            ba.target = a;
            a.connect(Bench.RATE, Bench.PROP_PS, ab, 0);
            b.connect(Bench.RATE, Bench.PROP_PS, ba, 0);
            a.setCcProcessor(new DirectCcProcessor(new FixedAlgorithm(), 0, a));
        }

        long run(final long sizeBytes) {
            return run(sizeBytes, 0);
        }

        long run(final long sizeBytes, final int initialPsn) {
            a.startFlow(1, Bench.QPN_A, b, Bench.QPN_B, MessageOp.WRITE, sizeBytes, 2_000, initialPsn, (id, ps) -> done.add(ps));
            sim.runUntil(Long.MAX_VALUE);
            assertEquals(1, done.size());
            assertEquals(0, pool.outstanding());
            return done.get(0);
        }

        long c(final String nic, final String name) {
            return counters.value(nic, name);
        }

        List<Integer> dataPsns() {
            return ab.ofKind(Packet.KIND_DATA).stream().map(Seen::psn).toList();
        }

        List<Seen> acks() {
            return ba.ofKind(Packet.KIND_ACK);
        }

        /** Every ACK/NAK echoes the UDP source port of the data packets (one per flow here). */
        void assertEchoes() {
            final int port = ab.ofKind(Packet.KIND_DATA).get(0).udpSrcPort();
            final boolean trimming = ab.passed.stream().anyMatch(Seen::trimmed);
            for (final Seen s : acks()) {
                // a gap NAK echoes no EV (the early packet's path is not the lossy one); a trimmed packet's NAK does
                final boolean gapNak = s.syndrome() == Packet.AETH_NAK_PSN_SEQ_ERR && !trimming;
                assertEquals(gapNak ? -1 : port, s.echo(), "ACK/NAK " + s);
            }
            for (final Seen s : ab.passed) {
                assertEquals(-1, s.echo(), "data " + s);
            }
        }
    }

    private static NicConfig selectiveRepeat() {
        final NicConfig c = new NicConfig();
        c.lossRecovery = NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT;
        return c;
    }

    /** PSN 3 lost, 5 and 6 swapped: one resend (PSN 3, on SACK evidence), SACKs as derived. */
    private static int dropThreeSwapFiveSix(final Packet p, final int n) {
        if (p.kind != Packet.KIND_DATA || n != 1) {
            return FORWARD;
        }
        return p.psn == 3 ? DROP : p.psn == 5 ? HOLD : FORWARD;
    }

    @Test
    void selectiveRepeatResendsOnlyTheLostPacketAndToleratesTheSwap() {
        final Rig r = new Rig(selectiveRepeat());
        r.ab.rule = SelectiveRepeatTest::dropThreeSwapFiveSix;
        final long done = r.run(TEN_PACKETS);

        // b takes 0 1 2, holds 4 6 5 7 8 9 beyond the hole at 3, then 3 (resent) completes it
        assertEquals(List.of(0, 1, 2, 4, 6, 5, 7, 8, 9, 3), r.dataPsns());
        // one ACK per accepted packet: cumulative PSN = last in-order PSN; SACK bit i = PSN psn + 1 + i.
        // After 4: {4} = bit 1; after 6: {4, 6} = 0b1010; after 5: {4, 5, 6} = 0b1110; then 7, 8, 9
        // extend the run; the resent 3 fills the hole: cumulative 9, nothing held.
        final List<Seen> acks = r.acks();
        assertEquals(List.of(0, 1, 2, 2, 2, 2, 2, 2, 2, 9), acks.stream().map(Seen::psn).toList());
        assertEquals(List.of(0L, 0L, 0L, 0b10L, 0b1010L, 0b1110L, 0b11110L, 0b111110L, 0b1111110L, 0L),
            acks.stream().map(Seen::sack).toList());
        assertTrue(acks.stream().allMatch(s -> s.syndrome() == Packet.AETH_ACK));
        // the ACKs of 6 and 5 leave b back to back (both arrive at 1,622,880): 5's reaches a at
        // 1,622,880 + 2 x 7,200 + 1 us = 2,637,280, the first with 3 SACKed packets above PSN 3
        // (DupThresh 3): a resends 3 at once (its port idle since 889,280) -> b at + 88,800 + 1 us
        // = 3,726,080; its ACK (cumulative 9) reaches a at + 7,200 + 1 us.
        assertEquals(2_637_280L, acks.get(5).timePs()); // the wire b->a passes frames on as they reach a
        assertEquals(3_726_080L, r.ab.ofKind(Packet.KIND_DATA).get(9).timePs());
        assertEquals(4_733_280L, done);

        assertEquals(11, r.c("a", "tx_data_packets"));
        assertEquals(1, r.c("a", "roce_adp_retrans"));
        assertEquals(1, r.c("a", "sr_sack_resends"));
        assertEquals(0, r.c("a", "sr_nack_resends"));
        assertEquals(0, r.c("a", "local_ack_timeout_err"));
        assertEquals(10, r.c("a", "rx_ack_packets"));
        assertEquals(0, r.c("a", "rx_nak_packets"));
        assertEquals(6, r.c("b", "sr_out_of_order_accepted"));
        assertEquals(0, r.c("b", "out_of_sequence"));
        assertEquals(0, r.c("b", "duplicate_request"));
        assertEquals(10, r.c("b", "tx_ack_packets"));
        assertEquals(0, r.c("b", "tx_nak_packets"));
        r.assertEchoes();
    }

    @Test
    void theSameAcrossThePsnWrap() {
        // PSNs 0xFFFFFD, 0xFFFFFE, 0xFFFFFF, 0 (lost), 1, 2 <-> 3 swapped, 4 .. 6: bitmaps indexed by PSN
        // and by packet index agree across 2^24
        final int first = 0xFF_FFFD;
        final Rig r = new Rig(selectiveRepeat());
        r.ab.rule = (p, n) -> {
            if (p.kind != Packet.KIND_DATA || n != 1) {
                return FORWARD;
            }
            final int k = (p.psn - first) & 0xFF_FFFF;
            return k == 3 ? DROP : k == 5 ? HOLD : FORWARD;
        };
        assertEquals(4_733_280L, r.run(TEN_PACKETS, first));
        assertEquals(List.of(0L, 0L, 0L, 0b10L, 0b1010L, 0b1110L, 0b11110L, 0b111110L, 0b1111110L, 0L),
            r.acks().stream().map(Seen::sack).toList());
        assertEquals(List.of(first, first + 1, first + 2, first + 2, first + 2, first + 2, first + 2, first + 2,
            first + 2, 6), r.acks().stream().map(Seen::psn).toList());
        assertEquals(1, r.c("a", "roce_adp_retrans"));
        assertEquals(1, r.c("a", "sr_sack_resends"));
    }

    @Test
    void goBackNResendsEverythingFromTheLostPacketForTheSameLoss() {
        final Rig r = new Rig(new NicConfig());
        r.ab.rule = SelectiveRepeatTest::dropThreeSwapFiveSix;
        final long done = r.run(TEN_PACKETS);
        // 4 arrives at 1,445,280 out of sequence: one NAK (PSN 3) reaches a at + 7,200 + 1 us =
        // 2,452,480; 6 5 7 8 9 are dropped too. a goes back to 3 and resends 3..9: 9 reaches b at
        // 2,452,480 + 7 x 88,800 + 1 us = 4,074,080, its ACK a at 5,081,280.
        assertEquals(List.of(0, 1, 2, 4, 6, 5, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9), r.dataPsns());
        assertEquals(5_081_280L, done);
        assertEquals(7, r.c("a", "roce_adp_retrans"));
        assertEquals(17, r.c("a", "tx_data_packets"));
        assertEquals(6, r.c("b", "out_of_sequence"));
        assertEquals(1, r.c("b", "tx_nak_packets"));
        assertEquals(0, r.c("b", "sr_out_of_order_accepted"));
        assertEquals(0, r.c("a", "sr_sack_resends"));
        final List<Seen> naks = r.acks().stream().filter(s -> s.syndrome() == Packet.AETH_NAK_PSN_SEQ_ERR).toList();
        assertEquals(1, naks.size());
        assertEquals(3, naks.get(0).psn());
        assertTrue(r.acks().stream().allMatch(s -> s.sack() == 0)); // go-back-N ACKs carry no SACK
        r.assertEchoes();
    }

    @Test
    void aSwapAloneCostsSelectiveRepeatNothing() {
        final Rig r = new Rig(selectiveRepeat());
        r.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 5 && n == 1 ? HOLD : FORWARD;
        final long done = r.run(TEN_PACKETS);
        // 6 is held for an instant (its ACK: cumulative 4, SACK bit 1 = PSN 6), 5 then completes the
        // run; no resend; 9's ACK at 1,889,280 + 1,007,200, as without the swap
        assertEquals(List.of(0, 1, 2, 3, 4, 6, 5, 7, 8, 9), r.dataPsns());
        assertEquals(List.of(0, 1, 2, 3, 4, 4, 6, 7, 8, 9), r.acks().stream().map(Seen::psn).toList());
        assertEquals(0b10L, r.acks().get(5).sack());
        assertEquals(2_896_480L, done);
        assertEquals(0, r.c("a", "roce_adp_retrans"));
        assertEquals(1, r.c("b", "sr_out_of_order_accepted"));
    }

    @Test
    void timeoutResendsOnlyTheOldestUnacknowledgedPacket() {
        final NicConfig sr = selectiveRepeat();
        sr.rtoNs = 100_000; // 100 us
        final Rig r = new Rig(sr);
        r.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && (p.psn == 8 || p.psn == 9) && n == 1 ? DROP : FORWARD;
        final long done = r.run(TEN_PACKETS);
        // last progress: ACK of 7 at a at 1,711,680 + 1,007,200 = 2,718,880; the timeout at
        // 102,718,880 resends 8 only (-> b at + 88,800 + 1 us = 103,807,680, ACK at a 104,814,880);
        // the next, 100 us after that progress, resends 9 -> b at 205,903,680, ACK at 206,910,880.
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), r.dataPsns());
        assertEquals(103_807_680L, r.ab.ofKind(Packet.KIND_DATA).get(8).timePs());
        assertEquals(206_910_880L, done);
        assertEquals(2, r.c("a", "local_ack_timeout_err"));
        assertEquals(2, r.c("a", "roce_adp_retrans"));
    }

    @Test
    void trimmedPacketIsNackedAtOnceAndOnlyItIsResent() {
        final Rig r = new Rig(selectiveRepeat());
        r.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 3 && n == 1 ? TRIM : FORWARD;
        final long done = r.run(TEN_PACKETS);
        // the trimmed 3 reaches b at 1,356,480: a NAK naming PSN 3 leaves at once and reaches a at
        // 2,363,680; a resends exactly 3 (-> b at 3,452,480); the SACKs of 4..9 arriving meanwhile
        // do not resend it again. The filled hole's ACK (cumulative 9) reaches a at 4,459,680.
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3), r.dataPsns());
        assertTrue(r.ab.ofKind(Packet.KIND_DATA).get(3).trimmed());
        final List<Seen> naks = r.acks().stream().filter(s -> s.syndrome() == Packet.AETH_NAK_PSN_SEQ_ERR).toList();
        assertEquals(1, naks.size());
        assertEquals(3, naks.get(0).psn());
        assertEquals(2_363_680L, naks.get(0).timePs());
        assertEquals(3_452_480L, r.ab.ofKind(Packet.KIND_DATA).get(10).timePs());
        assertEquals(4_459_680L, done);
        assertEquals(1, r.c("b", "rx_trimmed_packets"));
        assertEquals(1, r.c("b", "tx_trim_nak_packets"));
        assertEquals(1, r.c("b", "tx_nak_packets"));
        assertEquals(1, r.c("a", "sr_nack_resends"));
        assertEquals(0, r.c("a", "sr_sack_resends"));
        assertEquals(1, r.c("a", "roce_adp_retrans"));
        assertEquals(6, r.c("b", "sr_out_of_order_accepted"));
        r.assertEchoes();
    }

    @Test
    void trimmedExpectedPacketUnderGoBackNIsNakedAtOnce() {
        final Rig r = new Rig(new NicConfig());
        r.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 3 && n == 1 ? TRIM : FORWARD;
        final long done = r.run(TEN_PACKETS);
        // NAK (PSN 3) at b at 1,356,480, one packet earlier than a drop's NAK (sent when 4 arrives):
        // a at 2,363,680 goes back to 3; 9 reaches b at 2,363,680 + 7 x 88,800 + 1 us = 3,985,280,
        // its ACK a at 4,992,480. 4..9 of the first round are out of sequence, no second NAK.
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9), r.dataPsns());
        assertEquals(4_992_480L, done);
        assertEquals(1, r.c("b", "rx_trimmed_packets"));
        assertEquals(1, r.c("b", "tx_trim_nak_packets"));
        assertEquals(1, r.c("b", "tx_nak_packets"));
        assertEquals(6, r.c("b", "out_of_sequence"));
        assertEquals(7, r.c("a", "roce_adp_retrans"));
        r.assertEchoes();
    }

    @Test
    void ackCoalescingByBytesAcksOnTheThresholdTheFirstPacketCeAndAckReq() {
        final NicConfig c = new NicConfig();
        c.ackCoalesceBytes = 4096;
        c.delayedAckTimeoutNs = 0;
        final Rig plain = new Rig(c);
        final long done = plain.run(TEN_PACKETS);
        // 0 (first packet) at once; then 1090 B frames: 1..4 reach 4,360 >= 4,096, 5..8 again;
        // 9 carries AckReq. Each ACK covers the packets since the last.
        assertEquals(List.of(0, 4, 8, 9), plain.acks().stream().map(Seen::psn).toList());
        assertEquals(List.of(1, 4, 4, 1), plain.acks().stream().map(Seen::acked).toList());
        assertEquals(4, plain.c("b", "tx_ack_packets"));
        assertEquals(2_896_480L, done);
        plain.assertEchoes();

        final Rig ce = new Rig(c);
        ce.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 2 ? MARK_CE : FORWARD;
        ce.run(TEN_PACKETS);
        // 0 first; 2 CE-marked: at once with ECE (covering 1 and 2); 3..6 reach the threshold; 7, 8
        // wait; 9 AckReq. Only the ACK a CE packet triggered echoes CE.
        assertEquals(List.of(0, 2, 6, 9), ce.acks().stream().map(Seen::psn).toList());
        assertEquals(List.of(false, true, false, false), ce.acks().stream().map(Seen::ece).toList());
        assertEquals(List.of(1, 2, 4, 3), ce.acks().stream().map(Seen::acked).toList());
    }

    @Test
    void ackCoalescingRunsNoDelayedAckTimer() {
        final NicConfig c = new NicConfig();
        c.ackCoalesceBytes = 4096; // the 2 us delayed-ACK timer keeps its default
        final Rig slow = new Rig(c);
        final FixedAlgorithm thirtySecond = new FixedAlgorithm();
        thirtySecond.rate = 1 << 15; // 1/32 of line rate: a 1090 B frame every 2.84 us, slower than the timer
        slow.a.setCcProcessor(new DirectCcProcessor(thirtySecond, 0, slow.a));
        slow.run(TEN_PACKETS);
        // the same ACKs as back to back (uet-htsim's sink has no timer): first, 4, 8, AckReq on 9.
        // A 2 us timer would ACK every packet, as each waits 2.84 us for the next
        assertEquals(List.of(0, 4, 8, 9), slow.acks().stream().map(Seen::psn).toList());
        assertEquals(4, slow.c("b", "tx_ack_packets"));
    }

    @Test
    void defaultsAreGoBackNWithPerPacketAcks() {
        final NicConfig c = new NicConfig();
        assertEquals(NicConfig.LOSS_RECOVERY_GO_BACK_N, c.lossRecovery);
        assertEquals(0, c.ackCoalesceBytes);
        final NicConfig bad = selectiveRepeat();
        bad.srWindowPackets = 100;
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, bad::validate)
            .getMessage().contains("srWindowPackets"));
    }
}
