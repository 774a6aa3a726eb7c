package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.DcqcnAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DCQCN reaction point, the RoCE ECN/DCQCN article §7 with Mellanox defaults. Line rate 100 Gb/s = 100,000,000 kb/s;
 * rates in context words are kb/s; the result rate is kb/s x 1000 x 2^20 / 10^11.
 */
class DcqcnAlgorithmTest {
    private static final int LINE_KBPS = 100_000_000;

    @Test
    void firstCnpThenFirstDecreaseWithMellanoxDefaults() {
        final Harness h = new Harness(new DcqcnProvider());
        PccResult r = h.init(0);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(PccResult.WINDOW_UNLIMITED, r.windowBytes());
        assertEquals(0, h.word(W_FLAGS)); // no rate limiter before the first CNP

        // first CNP at 10 us: Rc = Rt = line rate (rate_on_first_cnp 1), alpha = 1023/1024 = 65,472,
        // alpha ticks from 11 us, decrease due at 10 + 4 = 14 us: timer armed in 4,000 ns
        r = h.cnp(10_000);
        assertEquals(FLAG_ACTIVE | FLAG_DECREASE_PENDING, h.word(W_FLAGS));
        assertEquals(LINE_KBPS, h.word(W_RC_KBPS));
        assertEquals(LINE_KBPS, h.word(W_RT_KBPS));
        assertEquals(65_472, h.word(W_ALPHA));
        assertEquals(11_000, h.word(W_NEXT_ALPHA_NS));
        assertEquals(4_000, r.timerNs());
        assertEquals(FixedPoint.RATE_ONE, r.rate());

        // TIMER at 14 us: alpha ticks at 11, 12, 13, 14 us with no CNP (the first CNP is in
        // initial_alpha): g = 5/1024 = 320, 1 - g = 65,216/65,536.
        //   tick 1: floor(65,472 x 65,216 / 65,536) = floor(4,269,821,952 / 65,536) = 65,152
        //   ticks 2-4: x (65,216/65,536)^3 = 65,216^3 / 2^48 in 0.32: 4,232,359,436 / 2^32
        //   alpha = floor(65,152 x 4,232,359,436 / 2^32) = 64,202  (real 65,472 x 0.99512^4 = 64,202.6)
        // Rc = 10^8 - floor(10^8 x 64,202 / 2^17) = 10^8 - 48,982,238 = 51,017,762 kb/s;
        // Rt stays at line rate (no increase since the decrease, clamp_tgt_rate 0)
        r = h.timer(14_000);
        assertEquals(64_202, h.word(W_ALPHA));
        assertEquals(51_017_762, h.word(W_RC_KBPS));
        assertEquals(LINE_KBPS, h.word(W_RT_KBPS));
        assertEquals(FLAG_ACTIVE | FLAG_INCREASING, h.word(W_FLAGS));
        // rate = 51,017,762,000 x 2^20 / 10^11 = floor(534,960.3) = 534,960; increase timer in 300 us
        assertEquals(534_960, r.rate());
        assertEquals(300_000, r.timerNs());
        assertEquals(1, h.counter("dcqcn_rate_decreases"));
    }

    /** Parameters giving one alpha tick per decrease boundary and Rt below line rate. */
    private static Harness stagesHarness(final int threshold, final int haiScaling, final int byteReset) {
        return new Harness(new DcqcnProvider(), "g", 1.0 / 256, "initial_alpha", 1.0,
            "alpha_update_period_ns", 4_000, "rate_on_first_cnp", 0.5, "clamp_tgt_rate", 1,
            "rpg_threshold", threshold, "rpg_ai_rate_mbps", 5, "rpg_hai_rate_mbps", 50,
            "rpg_byte_reset_bytes", byteReset, "hai_scaling", haiScaling);
    }

    @Test
    void fastRecoveryThenAdditiveThenHyperIncreaseByTimer() {
        final Harness h = stagesHarness(2, 0, 0);
        h.init(0);
        h.cnp(0); // Rc = Rt = 0.5 x line = 50,000,000 kb/s
        assertEquals(50_000_000, h.word(W_RC_KBPS));
        // decrease at 4 us: one alpha tick: alpha = 1 x 255/256 = 65,280; Rt = Rc = 5 x 10^7 (clamp);
        // Rc = 5 x 10^7 - floor(5 x 10^7 x 65,280 / 2^17) = 5 x 10^7 - 24,902,343 = 25,097,657
        PccResult r = h.timer(4_000);
        assertEquals(65_280, h.word(W_ALPHA));
        assertEquals(25_097_657, h.word(W_RC_KBPS));
        assertEquals(50_000_000, h.word(W_RT_KBPS));
        assertEquals(263_168, r.rate()); // 25,097,657,000 x 2^20 / 10^11 = 263,168.3
        // F = 2 fast-recovery steps, Rc = (Rt + Rc) / 2 rounded up:
        // 304 us: (25,097,657 + 50,000,000 + 1) / 2 = 37,548,829; 604 us: 43,774,415
        h.timer(304_000);
        assertEquals(37_548_829, h.word(W_RC_KBPS));
        h.timer(604_000);
        assertEquals(43_774_415, h.word(W_RC_KBPS));
        assertEquals(50_000_000, h.word(W_RT_KBPS));
        // stage 2 = F: additive increase Rt = 50,000,000 + 5,000 = 50,005,000;
        // Rc = (43,774,415 + 50,005,000 + 1) / 2 = 46,889,708
        h.timer(904_000);
        assertEquals(50_005_000, h.word(W_RT_KBPS));
        assertEquals(46_889_708, h.word(W_RC_KBPS));
        // stage 3, 4 > F: hyper increase Rt += 50,000 each: 50,055,000 / Rc 48,472,354;
        // 50,105,000 / Rc (48,472,354 + 50,105,000 + 1) / 2 = 49,288,677
        h.timer(1_204_000);
        assertEquals(50_055_000, h.word(W_RT_KBPS));
        assertEquals(48_472_354, h.word(W_RC_KBPS));
        r = h.timer(1_504_000);
        assertEquals(50_105_000, h.word(W_RT_KBPS));
        assertEquals(49_288_677, h.word(W_RC_KBPS));
        assertEquals(5, h.word(W_STAGES)); // T = 5, BC = 0
        assertEquals(516_829, r.rate()); // 49,288,677,000 x 2^20 / 10^11 = 516,829.6
        assertEquals(300_000, r.timerNs());
        assertEquals(2, h.counter("dcqcn_fast_recovery"));
        assertEquals(1, h.counter("dcqcn_additive_increase"));
        assertEquals(2, h.counter("dcqcn_hyper_increase"));
    }

    @Test
    void hyperIncreaseScaledByStageWhenConfigured() {
        final Harness h = stagesHarness(2, 1, 0);
        h.init(0);
        h.cnp(0);
        for (int t = 4_000; t <= 904_000; t += 300_000) {
            h.timer(t); // decrease, FR, FR, AI as above: Rt 50,005,000, Rc 46,889,708
        }
        // i = stage - F = 1: Rt += 50,000 -> 50,055,000, Rc = 48,472,354
        h.timer(1_204_000);
        assertEquals(50_055_000, h.word(W_RT_KBPS));
        // i = 2: Rt += 100,000 -> 50,155,000, Rc = (48,472,354 + 50,155,000 + 1) / 2 = 49,313,677
        h.timer(1_504_000);
        assertEquals(50_155_000, h.word(W_RT_KBPS));
        assertEquals(49_313_677, h.word(W_RC_KBPS));
    }

    @Test
    void byteCounterRaisesStagesAndStageIsMaxOfTimerAndByteStages() {
        final Harness h = stagesHarness(1, 0, 32_767);
        h.init(0);
        h.cnp(0);
        h.timer(4_000); // Rc 25,097,657, Rt 50,000,000
        // 70,000 B sent: two byte-counter events (70,000 - 2 x 32,767 = 4,466 B left)
        //  stage max(T 0, BC 0) = 0 < F 1: fast recovery Rc = 37,548,829, BC = 1
        //  stage 1 = F: additive Rt = 50,005,000, Rc = (37,548,829 + 50,005,000 + 1) / 2 = 43,776,915, BC = 2
        PccResult r = h.tx(100, 70_000, 70, 5_000);
        assertEquals(43_776_915, h.word(W_RC_KBPS));
        assertEquals(50_005_000, h.word(W_RT_KBPS));
        assertEquals(2 << 16, h.word(W_STAGES));
        assertEquals(4_466, h.word(W_BYTE_COUNTER));
        assertEquals(299_000, r.timerNs()); // increase timer still due at 304 us
        // timer at 304 us: stage max(T 0, BC 2) = 2 > F: hyper Rt = 50,055,000,
        // Rc = (43,776,915 + 50,055,000 + 1) / 2 = 46,915,958; T = 1
        h.timer(304_000);
        assertEquals(50_055_000, h.word(W_RT_KBPS));
        assertEquals(46_915_958, h.word(W_RC_KBPS));
        assertEquals((2 << 16) | 1, h.word(W_STAGES));
        assertEquals(2, h.counter("dcqcn_byte_increase_events"));
        assertEquals(1, h.counter("dcqcn_timer_increase_events"));
    }

    @Test
    void cnpsWithinOneMonitorPeriodGiveOneDecreaseAndOneAlphaIncrement() {
        final Harness h = stagesHarness(1, 0, 0);
        h.init(0);
        h.cnp(0);
        h.timer(4_000); // alpha 65,280, Rc 25,097,657; next boundary 8 us, next alpha tick 8 us
        PccResult r = h.cnp(5_000);
        assertEquals(3_000, r.timerNs()); // decrease due at the 8 us boundary
        h.cnp(6_000); // same period: nothing more
        assertEquals(FLAG_ACTIVE | FLAG_ALPHA_CNP | FLAG_DECREASE_PENDING | FLAG_INCREASING, h.word(W_FLAGS));
        // 8 us: alpha tick with a CNP: floor((65,280 x 65,280 + 256 x 65,536) / 65,536) = 65,281;
        // Rt = Rc (clamp) = 25,097,657; Rc = 25,097,657 - floor(25,097,657 x 65,281 / 2^17) = 12,597,656
        h.timer(8_000);
        assertEquals(65_281, h.word(W_ALPHA));
        assertEquals(25_097_657, h.word(W_RT_KBPS));
        assertEquals(12_597_656, h.word(W_RC_KBPS));
        assertEquals(2, h.counter("dcqcn_rate_decreases"));
        assertEquals(3, h.counter("dcqcn_cnp_handled"));
    }

    @Test
    void lateTimerActsAtTheDeadlineAndCnpRunsOverdueWorkFirst() {
        final Harness h = new Harness(new DcqcnProvider(), "g", 1.0 / 256, "initial_alpha", 1.0);
        h.init(0);
        h.cnp(0);
        // TIMER delivered 500 ns late: the decrease is the one due at 4 us; the increase timer
        // runs from 4 us (due 304 us), re-armed 304,000 - 4,500 = 299,500 ns after this event
        PccResult r = h.timer(4_500);
        assertEquals(304_000, h.word(W_NEXT_INCREASE_NS));
        assertEquals(5_000, h.word(W_NEXT_ALPHA_NS)); // ticks at 1..4 us applied
        assertEquals(299_500, r.timerNs());
        // a CNP at 9 us: the next decrease boundary after it is 12 us
        r = h.cnp(9_000);
        assertEquals(12_000, h.word(W_NEXT_DECREASE_NS));
        assertEquals(3_000, r.timerNs());
        // a CNP at 20 us without the 12 us TIMER having arrived: the overdue decrease runs first
        h.cnp(20_000);
        assertEquals(2, h.counter("dcqcn_rate_decreases"));
        assertEquals(24_000, h.word(W_NEXT_DECREASE_NS)); // pending again for the 24 us boundary
        assertTrue((h.word(W_FLAGS) & FLAG_DECREASE_PENDING) != 0);
    }

    @Test
    void increaseTimerStopsOnceBackAtLineRate() {
        final Harness h = new Harness(new DcqcnProvider(), "initial_alpha", 0.0);
        h.init(0);
        h.cnp(0);
        // alpha 0: the decrease leaves Rc = line rate; the increase timer starts
        PccResult r = h.timer(4_000);
        assertEquals(LINE_KBPS, h.word(W_RC_KBPS));
        assertEquals(300_000, r.timerNs());
        // first increase: Rc = Rt = line rate -> nothing left to increase, no timer armed
        r = h.timer(304_000);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(0, r.timerNs());
        assertEquals(FLAG_ACTIVE, h.word(W_FLAGS));
    }

    @Test
    void minimumRateAndMinimumDecreaseFactorBoundTheDecrease() {
        // gd = 10: Rc (1 - alpha) would be ~0; min_dec_fac 50 keeps half
        final Harness h = new Harness(new DcqcnProvider(), "rpg_gd", 10, "initial_alpha", 1.0,
            "alpha_update_period_ns", 4_000, "g", 1.0 / 256);
        h.init(0);
        h.cnp(0);
        h.timer(4_000); // alpha 65,280: 10^8 - 10^8 x 65,280 / 2^16 = 390,625 < 50% of 10^8
        assertEquals(50_000_000, h.word(W_RC_KBPS));
        // min rate 60 Gb/s is above Rc (1 - alpha/2): Rc = 60,000,000
        final Harness m = new Harness(new DcqcnProvider(), "rpg_min_rate_mbps", 60_000);
        m.init(0);
        m.cnp(0);
        m.timer(4_000);
        assertEquals(60_000_000, m.word(W_RC_KBPS));
    }

    @Test
    void powerInFixedPointMatchesRepeatedMultiplication() {
        // g = 5/1024: (1 - g) = 65,216 / 65,536 in 0.16, so the base in 0.32 is 65,216 << 16
        final DcqcnAlgorithm a = (DcqcnAlgorithm) new DcqcnProvider().create(new DcqcnProvider().defaults().set("g", 5.0 / 1024));
        final long base = 65_216L << 16;
        assertEquals(1L << 32, a.powOneMinusG32(0));
        assertEquals(base, a.powOneMinusG32(1));
        // base^2 = 65,216^2 = 4,253,126,656 exactly (65,216^2 x 2^32 / 2^32)
        assertEquals(4_253_126_656L, a.powOneMinusG32(2));
        // (1 - 5/1024)^1000 = e^(1000 ln 0.99512) = 0.0074923; 0.32 result within 2^-20 of it
        final double p = a.powOneMinusG32(1000) / 4294967296.0;
        assertEquals(Math.pow(65_216 / 65_536.0, 1000), p, 1.0 / (1 << 20));
    }
}
