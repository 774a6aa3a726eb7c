package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.TimelyAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TIMELY's gradient steps (Mittal et al. Algorithm 1, HPCC ns-3 {@code UpdateRateTimely}) with the
 * ns-3 defaults alpha 0.875 (57,344 in 16.16), beta 0.8 (round(0.8 x 65,536) = 52,429), T_low 50 us,
 * T_high 500 us, min RTT 20 us; AI 10 Mb/s, HAI 100 Mb/s, min rate 1,000 Mb/s. Line rate 100 Gb/s =
 * 100,000,000 kb/s. An ACK's RTT is its time minus the echoed transmit time.
 */
class TimelyAlgorithmTest {
    private static final int LINE_KBPS = 100_000_000;

    private static Harness harness() {
        return new Harness(new TimelyProvider(), "rate_ai_mbps", 10, "rate_hai_mbps", 100, "min_rate_mbps", 1000);
    }

    @Test
    void gradientStepsDecreaseIncreaseAndTHigh() {
        final Harness h = harness();
        PccResult r = h.init(0);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(LINE_KBPS, h.word(W_RATE_KBPS));

        // first sample at 100 us, sent at 40 us: RTT 60 us recorded, no rate change
        r = h.ack(0, 0, false, 100_000, 40_000);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(60_000, h.word(W_PREV_RTT_NS));
        assertEquals(100_000, h.word(W_LAST_UPDATE_NS));

        // a packet sent before the last update (99 us < 100 us) is not a full RTT of feedback
        r = h.ack(1, 1, false, 100_500, 99_000);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(60_000, h.word(W_PREV_RTT_NS));

        // RTT 70 us (sent at 100 us): new_diff = 10 us = 10^7 ps; rtt_diff = 57,344 x 10^7 >> 16 = 8,750,000 ps;
        // 50 us <= RTT <= 500 us and rtt_diff > 0: c = 65,536 - floor(52,429 x 8,750,000 / 20,000,000)
        // = 65,536 - 22,937 = 42,599 (0.65001...; ns-3: 1 - 0.8 x 0.4375 = 0.65);
        // rate = floor(10^8 x 42,599 / 65,536) = 65,000,915 kb/s; fraction floor(65,000,915,000 x 2^20 / 10^11) = 681,583
        r = h.ack(2, 2, false, 170_000, 100_000);
        assertEquals(8_750_000, h.word(W_RTT_DIFF_PS));
        assertEquals(65_000_915, h.word(W_RATE_KBPS));
        assertEquals(681_583, r.rate());
        assertEquals(0, h.word(W_STAGE));
        assertEquals(1, h.counter("timely_gradient_decreases"));

        // RTT 70 us again: new_diff 0, rtt_diff = 8,192 x 8,750,000 >> 16 = 1,093,750 ps, still > 0:
        // c = 65,536 - floor(52,429 x 1,093,750 / 2 x 10^7) = 65,536 - 2,867 = 62,669;
        // rate = floor(65,000,915 x 62,669 / 65,536) = 62,157,323 kb/s
        h.ack(3, 3, false, 240_000, 170_000);
        assertEquals(1_093_750, h.word(W_RTT_DIFF_PS));
        assertEquals(62_157_323, h.word(W_RATE_KBPS));

        // RTT 40 us < T_low: increase by AI whatever the gradient; new_diff = -30 us:
        // rtt_diff = (8,192 x 1,093,750 - 57,344 x 3 x 10^7) >> 16 = floor(-26,113,281.25) = -26,113,282 ps
        h.ack(4, 4, false, 300_000, 260_000);
        assertEquals(-26_113_282, h.word(W_RTT_DIFF_PS));
        assertEquals(62_167_323, h.word(W_RATE_KBPS));
        assertEquals(1, h.word(W_STAGE));

        // RTT 600 us > T_high: c = 65,536 - floor(52,429 x 100,000 / 600,000) = 65,536 - 8,738 = 56,798
        // (ns-3: 1 - 0.8 (1 - 500/600) = 0.8667); rate = floor(62,167,323 x 56,798 / 65,536) = 53,878,473 kb/s
        h.ack(5, 5, false, 1_000_000, 400_000);
        assertEquals(53_878_473, h.word(W_RATE_KBPS));
        assertEquals(0, h.word(W_STAGE));
        assertEquals(1, h.counter("timely_t_high_decreases"));
    }

    @Test
    void hyperIncreaseAfterFiveIncreasesAndFloorAtMinRate() {
        final Harness h = harness();
        h.init(0);
        h.ack(0, 0, false, 10_000, 1);
        // one large decrease first: RTT 60 us after 10 us gives new_diff 50 us = 5 x 10^7 ps,
        // rtt_diff = 57,344 x 5 x 10^7 >> 16 = 43,750,000 ps, gradient 2.19: c = max(0, 65,536 - 114,688) = 0
        // -> rate = max(min rate, 0) = 1,000,000 kb/s
        h.ack(1, 1, false, 80_000, 20_000);
        assertEquals(1_000_000, h.word(W_RATE_KBPS));
        // six increases at RTT 10 us (< T_low) one RTT apart: stages 0..4 add AI (10,000 kb/s), stage 5 adds HAI
        int t = 80_000;
        for (int i = 0; i < 6; i++) {
            h.ack(2 + i, 2 + i, false, t + 10_000, t);
            t += 10_000;
        }
        assertEquals(1_000_000 + 5 * 10_000 + 100_000, h.word(W_RATE_KBPS));
        assertEquals(6, h.word(W_STAGE));
        assertEquals(1, h.counter("timely_hai_increases"));
    }

    @Test
    void ackWithoutTimestampIsCountedAndIgnored() {
        final Harness h = harness();
        h.init(0);
        final PccResult r = h.ack(0, 0, false, 5_000, 0);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(0, h.word(W_FLAGS));
        assertEquals(1, h.counter("timely_acks_without_timestamp"));
    }

    @Test
    void tLowAboveTHighIsRejected() {
        final TimelyProvider p = new TimelyProvider();
        assertThrows(IllegalArgumentException.class,
            () -> p.create(p.defaults().set("t_low_ns", 600_000).set("t_high_ns", 500_000)));
    }
}
