package dev.nicsim.sw;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RCC window of the RCM paper §3.4 on its own: the estimate at detection, W_c and W_nc after a given
 * F_b (Eq. (4)-(6)), the hold once W_c is used, the next window, and quitting.
 */
class RccWindowTest {
    private static final long T = 2_000_000;   // 2 us
    private static final long W = 25_000;      // 100 Gb/s x 2 us / 8

    private static RccWindow window(final boolean compound) {
        return new RccWindow(W, T, RcmConfig.GD_AUTO, 63, compound);
    }

    /** Passes one measuring window of 25 packets of 1000 bytes, every second one harmful (12 of 25). */
    private static void measure(final RccWindow win) {
        win.onCongestion(63, 0);
        assertEquals(RccWindow.MEASURING, win.state());
        for (int k = 0; k < 25; k++) {
            assertTrue(win.allowsHarmful(k * 10_000L), "nothing is held while measuring");
            win.onPassed(1000, k % 2 == 1, k * 10_000L);
        }
        assertEquals(12_000, win.harmfulBytes());
        assertEquals(25_000, win.passedBytes());
    }

    @Test
    void wcAndWncAfterAGivenFb() {
        final RccWindow win = window(false);
        measure(win);
        // the first window ends at T: W_c0 = 12 000 harmful bytes measured;
        // Eq. (5) with F_b = 63, G_d = 1/126: W_c = 12 000 x (1 - 63/126) = 6 000; Eq. (6): W_nc = 25 000 - 6 000 = 19 000
        assertTrue(win.allowsHarmful(T));
        assertEquals(RccWindow.CONTROLLING, win.state());
        assertEquals(12_000, win.estimateBytes());
        assertEquals(6_000, win.wcBytes());
        assertEquals(19_000, win.wncBytes());
        assertEquals(W, win.wcBytes() + win.wncBytes(), "Eq. (3): W = W_c + W_nc");
        // a later event with F_b = 21 recomputes from the estimate: 12 000 x (1 - 21/126) = 12 000 x 105/126 = 10 000
        win.onCongestion(21, T + 1);
        assertEquals(10_000, win.wcBytes());
        assertEquals(15_000, win.wncBytes());
        // F_b = 0 (a notification of no congestion) gives back the whole estimate
        win.onCongestion(0, T + 2);
        assertEquals(12_000, win.wcBytes());
    }

    @Test
    void aFullCutStillLetsOneHarmfulPacketPassPerWindow() {
        // G_d = 1/63 with F_b = F_bmax = 63 cuts W_c by 63/63: 12 000 x 0 = 0 bytes, which would hold
        // harmful flows for good; W_c is floored at 1 byte, so the first harmful packet of a window
        // passes (0 < 1) and the next is held (1000 >= 1)
        final RccWindow win = new RccWindow(W, T, 1.0 / 63, 63, false);
        measure(win);
        assertTrue(win.allowsHarmful(T));
        assertEquals(1, win.wcBytes());
        win.onPassed(1000, true, T);
        assertFalse(win.allowsHarmful(T + 1));
        assertTrue(win.allowsHarmful(2 * T), "the next window lets one through again");
    }

    @Test
    void compoundingMultipliesTheCurrentWindow() {
        final RccWindow win = window(true);
        measure(win);
        win.allowsHarmful(T);
        assertEquals(6_000, win.wcBytes());
        // W_c <- W_c (1 - 21/126): 6 000 x 105/126 = 5 000, then 5 000 x 105/126 = 4 166.67 -> 4 166
        win.onCongestion(21, T + 1);
        assertEquals(5_000, win.wcBytes());
        win.onCongestion(21, T + 2);
        assertEquals(4_166, win.wcBytes());
    }

    @Test
    void harmfulFlowsWaitOnceWcIsUsedUntilTheWindowEnds() {
        final RccWindow win = window(false);
        measure(win);
        // window 2 = [T, 2T), W_c = 6 000: harmful packets pass while the harmful bytes are below 6 000
        long t = T;
        int harmfulPassed = 0;
        for (int k = 0; k < 20; k++) {
            if (win.allowsHarmful(t)) {
                win.onPassed(1000, true, t);
                harmfulPassed++;
            } else {
                win.onPassed(1000, false, t); // the output serves a non-harmful flow instead
            }
            t += 10_000;
        }
        // 0, 1 000, ..., 5 000 < 6 000: six harmful packets, then held for the rest of the window
        assertEquals(6, harmfulPassed);
        assertEquals(6_000, win.harmfulBytes());
        assertFalse(win.allowsHarmful(2 * T - 1));
        assertEquals(2 * T, win.windowEndPs());
        // the whole window has been sent at 2T: harmful flows may pass again, counts start from zero
        assertTrue(win.allowsHarmful(2 * T));
        assertEquals(0, win.harmfulBytes());
        assertEquals(3 * T, win.windowEndPs());
        // windows are periods from the detection: after an idle gap the window is the one containing now
        assertTrue(win.allowsHarmful(7 * T + 5));
        assertEquals(8 * T, win.windowEndPs());
    }

    @Test
    void aWindowWithoutHarmfulBytesMeasuresAgainAndQuitEndsControl() {
        final RccWindow win = window(false);
        win.onCongestion(40, 0);
        win.onPassed(1000, false, 1);
        assertTrue(win.allowsHarmful(T));
        assertEquals(RccWindow.MEASURING, win.state(), "no harmful bytes: nothing to estimate yet");
        win.onPassed(1000, true, T + 1);
        assertTrue(win.allowsHarmful(2 * T));
        assertEquals(RccWindow.CONTROLLING, win.state());
        // W_c0 = 1 000; 1 000 x (126 - 40) / 126 = 682.5 -> 682
        assertEquals(682, win.wcBytes());
        win.quit();
        assertEquals(RccWindow.IDLE, win.state());
        assertTrue(win.allowsHarmful(2 * T + 1));
        win.onPassed(1000, true, 2 * T + 1);
        assertEquals(0, win.harmfulBytes(), "an idle window counts nothing");
    }
}
