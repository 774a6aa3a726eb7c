package dev.nicsim.sw;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The congestion point of the RCM paper §3.2 on a given queue trace: which arrivals are sampled (an
 * interval that shortens as congestion grows) and F_b (Eq. (1)) at each sample, step by step.
 */
class CongestionDetectorTest {
    @Test
    void fbAlongAQueueTrace() {
        final RcmConfig c = new RcmConfig();
        c.qEqBytes = 20_000;
        c.wq = 2.0;
        c.sampleBytes = 5_000;
        final CongestionDetector cp = new CongestionDetector(1, c);
        // F_bmax = 20 000 x (1 + 4) = 100 000; code = ceil(F_b x 63 / 100 000)
        // Trace: 1000-byte packets join a queue that does not drain: after packet k, Q = 1000 k.
        final List<Integer> sampled = new ArrayList<>();
        final List<Double> fb = new ArrayList<>();
        final List<Integer> code = new ArrayList<>();
        for (int k = 1; k <= 31; k++) {
            if (cp.onArrival(0, 1000, 1000L * k)) {
                sampled.add(k);
                fb.add(cp.fbBytes(0));
                code.add(cp.fbQuantised(0));
            }
        }
        // countdown 5 000 bytes: sample at packet 5, Q = 5 000, Q_old = 0:
        //   F_b = (5 000 - 20 000) + 2 x 5 000 = -5 000 -> 0, next after 5 000 bytes
        // packet 10: Q = 10 000, Q_old = 5 000: -10 000 + 10 000 = 0 -> not congested, 5 000
        // packet 15: Q = 15 000: -5 000 + 10 000 = 5 000 -> ceil(3.15) = 4; 4 x 8 >> 6 = 0: 5 000
        // packet 20: Q = 20 000: 0 + 10 000 = 10 000 -> ceil(6.3) = 7; 56 >> 6 = 0: 5 000
        // packet 25: Q = 25 000: 5 000 + 10 000 = 15 000 -> ceil(9.45) = 10; 80 >> 6 = 1: 5 000 / 2 = 2 500
        // packets 26, 27 leave 1 500, 500; packet 28 reaches 0: Q = 28 000, Q_old = 25 000:
        //   8 000 + 6 000 = 14 000 -> ceil(8.82) = 9; 72 >> 6 = 1: 2 500
        // packet 31: Q = 31 000, Q_old = 28 000: 11 000 + 6 000 = 17 000 -> ceil(10.71) = 11; 2 500
        assertEquals(List.of(5, 10, 15, 20, 25, 28, 31), sampled);
        assertEquals(List.of(-5_000.0, 0.0, 5_000.0, 10_000.0, 15_000.0, 14_000.0, 17_000.0), fb);
        assertEquals(List.of(0, 0, 4, 7, 10, 9, 11), code);
        assertTrue(cp.congested(0));
        assertEquals(2_500, cp.countdownBytes(0));

        // the queue then drains to 20 000 while three more packets arrive: 32 and 33 leave 1 500 and 500,
        // packet 34 is sampled: Q = 20 000, Q_old = 31 000: 0 + 2 x (-11 000) = -22 000: not congested
        assertFalse(cp.onArrival(0, 1000, 20_000));
        assertFalse(cp.onArrival(0, 1000, 20_000));
        assertTrue(cp.onArrival(0, 1000, 20_000));
        assertEquals(-22_000.0, cp.fbBytes(0));
        assertEquals(0, cp.fbQuantised(0));
        assertFalse(cp.congested(0));
        assertEquals(5_000, cp.countdownBytes(0));
        assertEquals(8, cp.samples(0));
    }

    @Test
    void drainingEmptyClearsTheFlagButKeepsQold() {
        final RcmConfig c = new RcmConfig();
        c.qEqBytes = 1_000;
        c.wq = 0.0;
        c.sampleBytes = 1_000;
        final CongestionDetector cp = new CongestionDetector(2, c);
        // one 1000-byte packet, countdown 1000 -> sampled: F_b = 5 000 - 1 000 = 4 000 > 0 on queue 1 only
        assertTrue(cp.onArrival(1, 1000, 5_000));
        assertTrue(cp.congested(1));
        assertFalse(cp.congested(0));
        cp.clear(1);
        assertFalse(cp.congested(1));
        assertEquals(0, cp.fbQuantised(1));
        assertEquals(4_000.0, cp.fbBytes(1)); // the last measurement is still readable
    }
}
