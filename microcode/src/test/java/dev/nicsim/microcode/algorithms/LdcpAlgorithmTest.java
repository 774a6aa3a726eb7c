package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.LdcpAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * LDCP uNIC form, the LDCP draft §2.2, §2.3, §3.1. Path: 100 Gb/s, MTU 1000 B, base RTT 10 us, so
 * BDP = 10^11 x 10^-5 / 8 = 125,000 B = 125 packets. 16.16: 1 packet = 65,536.
 */
class LdcpAlgorithmTest {

    @Test
    void initFlowStartsFastStartWithBdpWindow() {
        final Harness h = new Harness(new LdcpProvider());
        final PccResult r = h.init(0);
        // IW = BDP = 125,000 B = 125 packets: window 125 x 1000 B, line rate, 125 first-RTT packets
        assertEquals(125_000, r.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(125, r.fastStartPackets());
        assertEquals(0, h.word(W_FLAGS));
        assertEquals(125 << 16, h.word(W_CW)); // 8,192,000
        assertEquals(10_000, h.word(W_SRTT_NS)); // base RTT before any sample
        assertEquals(125, h.word(W_IW_PACKETS));
    }

    @Test
    void fastStartEndsWhenFullInitialWindowIsAcknowledged() {
        final Harness h = new Harness(new LdcpProvider());
        h.init(0);
        // ACK for PSN 0..119: 120 < 125 packets acknowledged, still fast start, nothing changes
        PccResult r = h.ack(0, 119, false);
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        assertEquals(PccResult.FAST_START_UNCHANGED, r.fastStartPackets());
        assertEquals(0, h.word(W_FLAGS));
        // coalesced ACK for PSN 120..126: 127 >= 125 acknowledged -> stable stage, cw = BDP/MTU
        // = 125 packets (8,192,000); the 2 packets beyond the IW go through Eq. (2) with alpha = 1:
        // cw = 8,192,000 + floor(2 x 65,536 x 65,536 / 8,192,000) = 8,192,000 + floor(1048.576)
        //    = 8,193,048 (125.016 packets); window = floor(8,193,048 x 1000 / 65,536) = 125,015 B
        r = h.ack(120, 126, false);
        assertEquals(FLAG_STABLE, h.word(W_FLAGS));
        assertEquals(8_193_048, h.word(W_CW));
        assertEquals(125_015, r.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(0, r.fastStartPackets());
        assertEquals(1, h.counter("ldcp_fast_start_exit_iw"));
    }

    @Test
    void fastStartEndsOnLossWithAcknowledgedPacketCountThenPawaUpdates() {
        final Harness h = new Harness(new LdcpProvider(), "alpha", 0.25, "beta", 0.5);
        h.init(0);
        // NACK OUT_OF_SEQUENCE expecting PSN 10: PSNs 0..9 = 10 packets acknowledged before the
        // loss -> cw = 10 packets = 655,360, window 10,000 B, fast start off (§3.1 transition 1)
        PccResult r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 10, 10, 5_000);
        assertEquals(FLAG_STABLE, h.word(W_FLAGS));
        assertEquals(655_360, h.word(W_CW));
        assertEquals(10_000, r.windowBytes());
        assertEquals(0, r.fastStartPackets());
        assertEquals(1, h.counter("ldcp_fast_start_exit_loss"));

        // unmarked ACK, n = 1, Eq. (1): cw = 10 + 0.25/10 = 10.025 packets
        // = 655,360 + floor(16,384 x 65,536 / 655,360) = 655,360 + floor(1638.4) = 656,998
        // window = floor(656,998 x 1000 / 65,536) = floor(10,024.99) = 10,024 B
        r = h.ack(10, 10, false);
        assertEquals(656_998, h.word(W_CW));
        assertEquals(10_024, r.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, r.rate());

        // marked ACK covering n = 3 packets (PSN 11..13), Eq. (2): cw = cw - 3 x 1/2
        // = 656,998 - 3 x 32,768 = 558,694 (8.525 packets); window floor(8,524.99) = 8,524 B
        r = h.ack(11, 13, true);
        assertEquals(558_694, h.word(W_CW));
        assertEquals(8_524, r.windowBytes());
        assertEquals(1, h.counter("ldcp_acks_unmarked"));
        assertEquals(1, h.counter("ldcp_acks_marked"));
    }

    @Test
    void windowBelowOnePacketUsesGammaEtaAndPacesOnePacketPerRttOverCw() {
        final Harness h = new Harness(new LdcpProvider()); // gamma 1/8 = 8,192, eta 1/2, beta 1/2
        h.init(0);
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 3, 3, 1_000); // cw = 3 packets = 196,608
        // marked ACK for n = 5 packets: 196,608 - 5 x 32,768 = 32,768 = 0.5 packet (>= gamma)
        PccResult r = h.ack(3, 7, true);
        assertEquals(32_768, h.word(W_CW));
        // cw < 1: window one MTU, paced at one MTU per RTT/cw: 0.5 x 8000 bit / 10 us = 400 Mb/s
        // = 400e6 / 100e9 x 2^20 = 4194.3 -> 32,768 x 8000 x 16 / (10^8 x 10^4 / 10^6) = 4194
        assertEquals(1_000, r.windowBytes());
        assertEquals(4_194, r.rate());
        // marked ACK below one packet: cw = max(gamma, eta x cw) = max(8,192, 16,384) = 16,384
        r = h.ack(8, 8, true);
        assertEquals(16_384, h.word(W_CW));
        assertEquals(2_097, r.rate()); // 0.25 x 8000 bit / 10 us = 200 Mb/s -> floor(2097.15)
        // marked again: max(8,192, 8,192) = 8,192; and again: max(8,192, 4,096) = 8,192 (gamma floor)
        h.ack(9, 9, true);
        assertEquals(8_192, h.word(W_CW));
        r = h.ack(10, 10, true);
        assertEquals(8_192, h.word(W_CW));
        assertEquals(1_048, r.rate()); // 1/8 x 8000 bit / 10 us = 100 Mb/s -> floor(1048.576)
        // unmarked below one packet: cw = cw + gamma = 16,384
        r = h.ack(11, 11, false);
        assertEquals(16_384, h.word(W_CW));
        assertEquals(1_000, r.windowBytes());
        assertEquals(4, h.counter("ldcp_acks_below_one"));
        // unmarked ACK covering 7 packets (coalesced): cw + 7 x gamma = 16,384 + 57,344 = 73,728
        // = 1.125 packets: back to a window (floor(1.125 x 1000) = 1,125 B) at line rate
        r = h.ack(12, 18, false);
        assertEquals(73_728, h.word(W_CW));
        assertEquals(1_125, r.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, r.rate());
    }

    @Test
    void markedAckBelowOneAppliesEtaOncePerCoveredPacket() {
        final Harness h = new Harness(new LdcpProvider(), "gamma", 1.0 / 16);
        h.init(0);
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 1, 1, 1_000); // cw = 1 packet = 65,536
        h.ack(1, 1, true); // cw >= 1, Eq. (1): 65,536 - 32,768 = 32,768
        assertEquals(32_768, h.word(W_CW));
        // n = 2 marked below one: 32,768 x 1/2 x 1/2 = 8,192 (> gamma 4,096)
        h.ack(2, 3, true);
        assertEquals(8_192, h.word(W_CW));
    }

    @Test
    void rttSamplesFromAckEchoesAreAveragedAndDriveTheBelowOneRate() {
        final Harness h = new Harness(new LdcpProvider()); // rtt_gain 1/8
        h.init(0);
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 1, 1, 1_000); // cw 1 packet
        // first sample replaces the base RTT: 25,000 - 13,000 = 12,000 ns
        h.ack(1, 1, false, 25_000, 13_000);
        assertEquals(12_000, h.word(W_SRTT_NS));
        assertEquals(FLAG_STABLE | FLAG_RTT_SAMPLED, h.word(W_FLAGS));
        // second sample 40,000 - 20,000 = 20,000: srtt = 12,000 + (20,000 - 12,000) / 8 = 13,000
        h.ack(2, 2, true, 40_000, 20_000);
        assertEquals(13_000, h.word(W_SRTT_NS));
        // cw after the two ACKs: 65,536 + 65,536^2/65,536 = 131,072; - 32,768 = 98,304 (1.5)
        assertEquals(98_304, h.word(W_CW));
        // two marked ACKs: 98,304 - 65,536 = 32,768 (0.5): rate = 0.5 x 8000 bit / 13 us
        // = 307.69 Mb/s -> 32,768 x 128,000 / (10^8 x 13,000 / 10^6 = 1,300,000) = floor(3226.4)
        h.ack(3, 4, true, 0, 0);
        final PccResult r = h.result;
        assertEquals(32_768, h.word(W_CW));
        assertEquals(3_226, r.rate());
        assertEquals(2, h.counter("ldcp_rtt_samples"));
    }

    @Test
    void stableStageLossCountsAsOneMarkedAckAndOtherEventsAreIgnored() {
        final Harness h = new Harness(new LdcpProvider());
        h.init(0);
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 20, 20, 1_000); // cw = 20 packets = 1,310,720
        PccResult r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 25, 25, 2_000); // -beta: 19.5 packets
        assertEquals(1_277_952, h.word(W_CW));
        assertEquals(19_500, r.windowBytes());
        r = h.nack(PccEventType.NACK_RNR, 25, 25, 3_000); // RNR is not congestion
        assertEquals(1_277_952, h.word(W_CW));
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        r = h.cnp(4_000);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        r = h.ack(30, 29, false); // firstSn after sn: stale, ignored
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        assertEquals(1, h.counter("ldcp_stale_acks"));
        assertEquals(3, h.counter("ldcp_nacks"));
        assertFalse(r.rttProbeRequest());
    }

    @Test
    void explicitInitialWindowIsRoundedUpToPackets() {
        final Harness h = new Harness(new LdcpProvider(), "iw_bytes", 4_500);
        final PccResult r = h.init(0);
        // ceil(4,500 / 1000) = 5 packets
        assertEquals(5_000, r.windowBytes());
        assertEquals(5, r.fastStartPackets());
        // full IW acknowledged: cw = BDP = 125 packets regardless of the IW (§3.1 "cw is set to BDP")
        h.ack(0, 4, false);
        assertEquals(125 << 16, h.word(W_CW));
    }

    @Test
    void handlerCyclesAreDefinedForEveryEventType() {
        final Harness h = new Harness(new LdcpProvider());
        assertEquals(80, h.algorithm.handlerCycles(PccEventType.ACK));
        assertEquals(4, h.algorithm.handlerCycles(PccEventType.TX_BURST));
        assertEquals(40, h.algorithm.handlerCycles(PccEventType.NACK));
        assertEquals(20, h.algorithm.handlerCycles(PccEventType.RTT_RESPONSE));
        assertEquals(CONTEXT_WORDS, h.algorithm.contextWords());
    }
}
