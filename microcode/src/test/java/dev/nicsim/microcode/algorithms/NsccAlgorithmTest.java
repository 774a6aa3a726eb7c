package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.nicsim.microcode.algorithms.NsccAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NSCC's per-ACK cases, per-window application, multiplicative decrease, quick adapt and NACK with
 * numbers worked out by hand from uet-htsim's formulas ({@code uec.cpp initNsccParams}), for one
 * flow at 100 Gb/s with a base (= network) RTT of 12,000 ns and MSS 4,086 B, header 64 B:
 * <ul>
 *   <li>network BDP = 12 us x 12.5 GB/s = 150,000 B, so a = 150,000 / 150,000 = 1;</li>
 *   <li>target T = 0.75 x 12,000,000 ps = 9,000,000 ps; b = 9 / 12 = 0.75;</li>
 *   <li>alpha = 4 x 4,086 x 1 x 0.75 / 9,000,000 = 12,258 / 9,000,000 B/ps (0.001362);</li>
 *   <li>fi = 5 x 4,086 = 20,430 B; eta = 0.15 x 4,086 = 612.9 B; fast-increase scale 0.25;</li>
 *   <li>a packet is 4,150 B; maxwnd = 1.5 x 150,000 = 225,000 B; adjust after 8 x 4,150 = 33,200 B;
 *       quick-adapt threshold 4 T = 36,000,000 ps, gate maxwnd / 8 = 28,125 B;</li>
 *   <li>the window result is floor(cwnd x 4,086 / 4,150) payload bytes; the EWMA weight w = 0.0125.</li>
 * </ul>
 * An ACK at time t echoing send time e has RTT t - e (ns); delay = RTT - 12,000 ns.
 */
class NsccAlgorithmTest {
    private static final int MSS = 4086;
    private static final int RTT_NS = 12_000;

    private static Harness harness(final Object... pairs) {
        final Harness h = new Harness(new NsccProvider(), pairs);
        h.attributes.set(Harness.LINE_BPS, 0, false, MSS, RTT_NS);
        return h;
    }

    private static long window(final long cwnd) {
        return cwnd * MSS / 4150;
    }

    @Test
    void firstWindowIsMaxwndAtLineRate() {
        final Harness h = harness();
        final PccResult r = h.init(0);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(225_000, h.word(W_MAXWND_BYTES));
        assertEquals(225_000, h.word(W_CWND_BYTES));
        assertEquals(221_530, r.windowBytes()); // 225,000 x 4,086 / 4,150 = 221,530.1
        assertEquals(RTT_NS, h.word(W_BASE_RTT_NS));
    }

    /** No ECN, delay >= target: fair increase, applied per 8 packets or per RTT, eta once per RTT. */
    @Test
    void fairIncreaseAccumulatesAndIsAppliedPerWindowWithEtaOncePerRtt() {
        final Harness h = harness("initial_window_bytes", 100_000);
        h.init(0);
        // delay 9 us = T: fair, inc = 20,430 x 4,150 = 84,784,500; 22 us > 12 us since the start:
        // cwnd = 100,000 + floor(84,784,500 / 100,000) + eta = 100,847 + 612.9 -> 101,459
        PccResult r = h.ack(0, 0, false, 22_000, 1_000);
        assertEquals(101_459, h.word(W_CWND_BYTES));
        assertEquals(window(101_459), r.windowBytes());
        assertEquals(99_894, r.windowBytes());
        assertEquals(112_500, readLong(h.context, W_AVG_DELAY_PS)); // w x 9,000,000 (not above T)
        // 4 + 4 packets (33,200 B, not above the 33,200 B threshold), 8 us after: accumulate only
        r = h.ack(1, 4, false, 26_000, 5_000);
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        r = h.ack(5, 8, false, 30_000, 9_000);
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        assertEquals(101_459, h.word(W_CWND_BYTES));
        assertEquals(2 * 339_138_000L, readLong(h.context, W_INC_BYTES)); // 20,430 x 16,600 twice
        // one more packet: 37,350 B > 33,200 B: cwnd += floor((678,276,000 + 84,784,500) / 101,459) = 7,520;
        // 9 us since the last eta: none
        r = h.ack(9, 9, false, 31_000, 10_000);
        assertEquals(108_979, h.word(W_CWND_BYTES));
        assertEquals(107_298, r.windowBytes());
        assertEquals(1, h.counter("nscc_eta_increases"));
        // 12.5 us since the last eta: cwnd += floor(84,784,500 / 108,979) = 777, + 612.9 -> 110,368
        r = h.ack(10, 10, false, 34_500, 13_500);
        assertEquals(110_368, h.word(W_CWND_BYTES));
        assertEquals(108_665, r.windowBytes());
        assertEquals(2, h.counter("nscc_eta_increases"));
        assertEquals(5, h.counter("nscc_fair_increases"));
        assertEquals(3, h.counter("nscc_fulfil_adjustments"));
    }

    /** No ECN, delay < target: proportional increase, and fast increase once under 1 us for a window. */
    @Test
    void proportionalThenFastIncrease() {
        final Harness h = harness("initial_window_bytes", 20_000);
        h.init(0);
        // 4 packets (16,600 B) at delay 501 ns: under 1 us, but fi_count 16,600 <= cwnd 20,000: proportional,
        // inc = 12,258 / 9e6 x 16,600 x (9,000,000 - 501,000) = 192,155,590.8 -> 192,155,590;
        // 13.5 us since the start: cwnd = 20,000 + 9,607 + 612.9 -> 30,219
        h.ack(0, 3, false, 13_501, 1_000);
        assertEquals(30_219, h.word(W_CWND_BYTES));
        assertEquals(1, h.counter("nscc_proportional_increases"));
        // fi_count 33,200 > 30,219: fast increase at once, cwnd += 0.25 x 16,600 = 4,150
        PccResult r = h.ack(4, 7, false, 14_501, 2_000);
        assertEquals(34_369, h.word(W_CWND_BYTES));
        assertEquals(33_838, r.windowBytes());
        h.ack(8, 11, false, 15_501, 3_000); // still increasing: another 4,150
        assertEquals(38_519, h.word(W_CWND_BYTES));
        assertEquals(2, h.counter("nscc_fast_increases"));
        assertEquals(8_300, h.counter("nscc_fast_increase_bytes"));
        // delay 2,001 ns: fast increase ends; proportional inc = 12,258 / 9e6 x 4,150 x 6,999,000 = 39,560,447.7;
        // 37,350 B received > 33,200 B: cwnd += floor(39,560,447 / 38,519) = 1,027; 3 us since eta: none
        r = h.ack(12, 12, false, 16_501, 2_500);
        assertEquals(39_546, h.word(W_CWND_BYTES));
        assertEquals(38_936, r.windowBytes());
        assertEquals(0, h.word(W_FLAGS) & FLAG_INCREASING);
        assertEquals(2, h.counter("nscc_proportional_increases"));
    }

    /** ECN, delay >= target: decrease by the average delay, at most once per base RTT, not below half. */
    @Test
    void multiplicativeDecreaseAtMostOncePerBaseRtt() {
        final Harness h = harness("initial_window_bytes", 200_001);
        h.init(0);
        // delay 1 ms = 10^9 ps, marked: avg = 0.0125 x 10^9 = 12,500,000 > T;
        // factor = 1 - 0.8 x 3,500,000 / 12,500,000 = 0.776: cwnd = floor(200,001 x 0.776) = 155,200; then eta: 155,812
        h.ack(0, 0, true, 1_013_000, 1_000);
        assertEquals(12_500_000, readLong(h.context, W_AVG_DELAY_PS));
        assertEquals(155_812, h.word(W_CWND_BYTES));
        assertEquals(44_801, h.counter("nscc_multiplicative_decrease_bytes"));
        // 1 us later: avg = 12,500,000 + 0.9875 x 12,500,000 = 24,843,750, but under one base RTT: no decrease
        h.ack(1, 1, true, 1_014_000, 2_000);
        assertEquals(24_843_750, readLong(h.context, W_AVG_DELAY_PS));
        assertEquals(155_812, h.word(W_CWND_BYTES));
        assertEquals(1, h.counter("nscc_multiplicative_decreases"));
        // 12,001 ns after the first: avg = 12,500,000 + 0.9875 x 24,843,750 = 37,033,203;
        // 1 - 0.8 x 28,033,203 / 37,033,203 = 0.394 < 0.5: halve to 77,906; eta (12,001 ns): 78,518
        final PccResult r = h.ack(2, 2, true, 1_025_001, 13_001);
        assertEquals(37_033_203, readLong(h.context, W_AVG_DELAY_PS));
        assertEquals(78_518, h.word(W_CWND_BYTES));
        assertEquals(77_307, r.windowBytes());
        assertEquals(2, h.counter("nscc_multiplicative_decreases"));
    }

    /** ECN, delay < target: the window does not move (a path signal only). */
    @Test
    void markedAckBelowTargetChangesNothing() {
        final Harness h = harness("initial_window_bytes", 100_000);
        h.init(5_000);
        final PccResult r = h.ack(0, 0, true, 15_000, 1_000); // delay 2 us; 10 us since the start: no adjustment
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        assertEquals(100_000, h.word(W_CWND_BYTES));
        assertEquals(25_000, readLong(h.context, W_AVG_DELAY_PS)); // marked: the sample is the delay, w x 2,000,000
        assertEquals(1, h.counter("nscc_ecn_below_target"));
    }

    /** Quick adapt on a delay above 4 T with achieved bytes under maxwnd / 8, then marked ACKs ignored. */
    @Test
    void quickAdaptOnLargeDelaySetsTheWindowToTheBytesAchieved() {
        final Harness h = harness("initial_window_bytes", 100_000);
        h.init(0);
        h.ack(0, 0, false, 22_000, 1_000); // starts the quick-adapt period: ends at 22,000 + 12,000 + 9,000 = 43,000 ns
        assertEquals(43_000, h.word(W_QA_END_NS));
        assertEquals(101_459, h.word(W_CWND_BYTES));
        h.tx(20, 0, 0, 23_000); // PSNs up to 20 sent
        // after the period: 2 packets achieved (8,300 B < 28,125 B), delay 36,001 ns > 4 T: cwnd = 8,300;
        // the 18 packets after PSN 2 are in flight: 74,700 B to ignore
        final PccResult r = h.ack(1, 2, false, 50_001, 2_000);
        assertEquals(8_300, h.word(W_CWND_BYTES));
        assertEquals(8_172, r.windowBytes()); // two packets of payload
        assertEquals(74_700, h.word(W_TO_IGNORE_BYTES));
        assertEquals(71_001, h.word(W_QA_END_NS));
        assertEquals(1, h.counter("nscc_quick_adapts"));
        assertEquals(93_159, h.counter("nscc_quick_adapt_bytes"));
        // a marked ACK while fewer bytes than that came back is ignored: no change
        h.ack(3, 3, true, 51_000, 39_000);
        assertEquals(8_300, h.word(W_CWND_BYTES));
        assertEquals(1, h.counter("nscc_acks_ignored"));
    }

    /** A NACK removes one packet; the NACK's RTT lowers the base RTT; a NACK after the period quick-adapts. */
    @Test
    void nackRemovesOnePacketAndTriggersQuickAdapt() {
        final Harness h = harness("initial_window_bytes", 100_000);
        h.init(0);
        // RTT 10,000 ns < 12,000: base 10 us, maxwnd 1.5 x 125,000 = 187,500; cwnd 100,000 - 4,150;
        // the average takes the network RTT, 12,000,000 ps: 150,000
        PccResult r = h.nackEcho(PccEventType.NACK_OUT_OF_SEQUENCE, 5, 11_000, 1_000);
        assertEquals(10_000, h.word(W_BASE_RTT_NS));
        assertEquals(187_500, h.word(W_MAXWND_BYTES));
        assertEquals(95_850, h.word(W_CWND_BYTES));
        assertEquals(94_371, r.windowBytes());
        assertEquals(150_000, readLong(h.context, W_AVG_DELAY_PS));
        assertEquals(30_000, h.word(W_QA_END_NS)); // 11,000 + 10,000 + 9,000
        h.nackEcho(PccEventType.NACK_OUT_OF_SEQUENCE, 6, 12_000, 0);
        assertEquals(91_700, h.word(W_CWND_BYTES));
        assertEquals(298_125, readLong(h.context, W_AVG_DELAY_PS)); // 150,000 + 0.9875 x 150,000
        // after the period, nothing achieved (0 < 187,500 / 8): quick adapt to one packet, no further decrease
        r = h.nackEcho(PccEventType.NACK_OUT_OF_SEQUENCE, 7, 30_001, 0);
        assertEquals(4_150, h.word(W_CWND_BYTES));
        assertEquals(4_086, r.windowBytes());
        assertEquals(3, h.counter("nscc_nacks"));
        assertEquals(8_300, h.counter("nscc_nack_decrease_bytes"));
        assertEquals(87_550, h.counter("nscc_quick_adapt_bytes"));
        // an RNR NACK is not a trim: ignored
        h.nackEcho(PccEventType.NACK_RNR, 8, 31_000, 0);
        assertEquals(3, h.counter("nscc_nacks"));
    }

    @Test
    void registeredWithSourcedParameters() {
        assertInstanceOf(NsccProvider.class, dev.nicsim.pcc.PccAlgorithms.byName("nscc"));
        final List<PccParameter> params = new NsccProvider().parameters();
        assertEquals(22, params.size());
        for (final PccParameter p : params) {
            assertTrue(p.description().contains("uec.cpp"), p.name() + ": " + p.description());
        }
        // the defaults are htsim's constants exactly (parts per million of doubles htsim writes as literals)
        final var v = new NsccProvider().defaults();
        assertEquals(150_000, v.raw("reference_bdp_bytes")); // 100 Gb/s x 12 us
        assertEquals(800_000, v.raw("gamma_ppm"));
        assertEquals(12_500, v.raw("delay_ewma_ppm"));
        assertEquals(3, v.raw("qa_gate"));
        assertTrue(new NsccProvider().create(v).contextWords() == CONTEXT_WORDS);
    }
}
