package dev.nicsim.sw;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The arithmetic of the RCM paper §3.2 and §3.4, checked against hand-computed values. */
class CongestionMathTest {
    private static final long Q_EQ = 20_000;
    private static final double WQ = 2.0;

    @Test
    void eq1OffsetPlusWeightedGrowth() {
        // F_b = (Q - Q_eq) + w_q (Q - Q_old), Q_eq = 20 000, w_q = 2:
        // below equilibrium but filling fast: (10 000 - 20 000) + 2 (10 000 - 0) = -10 000 + 20 000 = 10 000
        assertEquals(10_000.0, CongestionMath.fbBytes(10_000, 0, Q_EQ, WQ));
        // above and growing: (25 000 - 20 000) + 2 (25 000 - 10 000) = 5 000 + 30 000 = 35 000
        assertEquals(35_000.0, CongestionMath.fbBytes(25_000, 10_000, Q_EQ, WQ));
        // above but draining: (24 000 - 20 000) + 2 (24 000 - 30 000) = 4 000 - 12 000 = -8 000 (not congested)
        assertEquals(-8_000.0, CongestionMath.fbBytes(24_000, 30_000, Q_EQ, WQ));
        // at equilibrium, steady: 0 + 0 = 0 (not congested: F_b > 0 is required)
        assertEquals(0.0, CongestionMath.fbBytes(20_000, 20_000, Q_EQ, WQ));
    }

    @Test
    void quantisationOnSixBits() {
        // F_bmax = Q_eq (1 + 2 w_q) = 20 000 x 5 = 100 000 bytes; code = ceil(F_b x 63 / 100 000), capped at 63
        final double max = CongestionMath.fbMaxBytes(Q_EQ, WQ);
        assertEquals(100_000.0, max);
        assertEquals(7, CongestionMath.quantiseFb(10_000, max, 63));   // ceil(6.3)
        assertEquals(23, CongestionMath.quantiseFb(35_000, max, 63));  // ceil(22.05)
        assertEquals(63, CongestionMath.quantiseFb(100_000, max, 63)); // 63 exactly
        assertEquals(63, CongestionMath.quantiseFb(250_000, max, 63)); // capped
        assertEquals(1, CongestionMath.quantiseFb(1, max, 63));        // any congestion carries at least 1
        assertEquals(0, CongestionMath.quantiseFb(0, max, 63));
        assertEquals(0, CongestionMath.quantiseFb(-8_000, max, 63));
    }

    @Test
    void eq2RegionalDegree() {
        // F_b' = (1 - w) F_b + w F_br, rounded half up
        assertEquals(43, CongestionMath.regionalFb(23, 63, 0.5));  // 11.5 + 31.5 = 43
        assertEquals(8, CongestionMath.regionalFb(7, 10, 0.25));   // 5.25 + 2.5 = 7.75 -> 8
        assertEquals(7, CongestionMath.regionalFb(13, 0, 0.5));    // 6.5 -> 7
        assertEquals(23, CongestionMath.regionalFb(23, 63, 0.0));  // w = 0: the neighbour is ignored
        assertEquals(63, CongestionMath.regionalFb(23, 63, 1.0));  // w = 1: only the neighbour counts
    }

    @Test
    void eq4To6DecreaseAndWindowSplit() {
        final RcmConfig c = new RcmConfig();
        // G_d = 1 / (2 x 63) = 1/126: F_bmax x G_d = 63/126 = 1/2 (the RCM paper §3.4)
        assertEquals(1.0 / 126.0, c.effectiveGd());
        assertEquals(0.5, CongestionMath.decreaseFactor(63, c.effectiveGd()), 1e-15);
        assertEquals(1.0, CongestionMath.decreaseFactor(0, c.effectiveGd()));
        // exact form: W_c (126 - F_b) / 126
        assertEquals(6_000, CongestionMath.decreasedWindowBytesAutoGd(12_000, 63, 63));  // halved
        assertEquals(10_000, CongestionMath.decreasedWindowBytesAutoGd(12_000, 21, 63)); // 12 000 x 105/126
        assertEquals(9_809, CongestionMath.decreasedWindowBytesAutoGd(12_000, 23, 63));  // floor(12 000 x 103/126 = 9 809.5)
        // a configured G_d of 1/100: W_c (1 - 50/100) = 5 000
        assertEquals(5_000, CongestionMath.decreasedWindowBytes(10_000, 50, 0.01));
        // Eq. (6): W_nc = W - W_c
        assertEquals(19_000, CongestionMath.nonCongestedWindowBytes(25_000, 6_000));
        // W = rate x T / 8: 100 Gb/s x 2 us / 8 = 25 000 bytes
        assertEquals(25_000, CongestionMath.windowBytes(100_000_000_000L, 2_000_000));
    }

    @Test
    void samplingIntervalShortensWithTheDegree() {
        // base / (1 + floor(F_b x 8 / 64)), 6 bits
        assertEquals(15_000, CongestionMath.sampleIntervalBytes(15_000, 0, 6));
        assertEquals(15_000, CongestionMath.sampleIntervalBytes(15_000, 7, 6));  // 56 >> 6 = 0
        assertEquals(7_500, CongestionMath.sampleIntervalBytes(15_000, 8, 6));   // 64 >> 6 = 1
        assertEquals(5_000, CongestionMath.sampleIntervalBytes(15_000, 23, 6));  // 184 >> 6 = 2
        assertEquals(1_875, CongestionMath.sampleIntervalBytes(15_000, 63, 6));  // 504 >> 6 = 7: 1/8
    }
}
