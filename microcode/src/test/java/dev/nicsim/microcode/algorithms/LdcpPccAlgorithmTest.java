package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.LdcpPccAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LDCP rate form, the LDCP draft §3.2. Path: 100 Gb/s, MTU 1000 B, base RTT 10 us (BDP 125 packets).
 * rate = W x 1000 B x 8 / RTT as a fraction of line rate: with lineBits(RTT) = 10^8 x RTT / 10^6
 * bits per RTT, rate = W(16.16) x 8000 x 16 / lineBits.
 */
class LdcpPccAlgorithmTest {

    @Test
    void aiPerRttResponseMdPerCnpRateIsWindowOverRtt() {
        final Harness h = new Harness(new LdcpPccProvider()); // alpha 1, beta 1/2
        PccResult r = h.init(1_000);
        // W = BDP = 125 packets = 8,192,000; rate = 125 x 8000 bit / 10 us = 100 Gb/s = line rate
        assertEquals(8_192_000, h.word(W_WINDOW));
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(PccResult.WINDOW_UNLIMITED, r.windowBytes());
        assertTrue(r.rttProbeRequest());
        assertEquals(1_000_000, r.timerNs());
        assertEquals(1_000, h.word(W_PROBE_REQUEST_NS));

        // CNP: W = 125 - 0.5 = 124.5 packets = 8,159,232; rate = 124.5/125 of line
        // = 8,159,232 x 128,000 / 1,000,000 = floor(1,044,381.7) = 1,044,381
        r = h.cnp(5_000);
        assertEquals(8_159_232, h.word(W_WINDOW));
        assertEquals(1_044_381, r.rate());
        assertFalse(r.rttProbeRequest());

        // RTT response: (13,500 - 2,000) - (7,500 - 7,000) = 11,000 ns (first sample replaces base RTT)
        // W = 124.5 + 1 = 125.5 = 8,224,768 (below the line window at 11 us: 137.5 packets)
        // rate = 8,224,768 x 128,000 / 1,100,000 = floor(957,063.9) = 957,063 (125.5 x 8000 / 11 us = 91.3 Gb/s)
        r = h.rttResponse(13_500, 2_000, 7_000, 7_500);
        assertEquals(11_000, h.word(W_SRTT_NS));
        assertEquals(FLAG_RTT_SAMPLED, h.word(W_FLAGS));
        assertEquals(8_224_768, h.word(W_WINDOW));
        assertEquals(957_063, r.rate());
        assertTrue(r.rttProbeRequest()); // back-to-back probes
        assertEquals(1_000_000, r.timerNs());
        assertEquals(13_500, h.word(W_PROBE_REQUEST_NS));
        assertEquals(1, h.counter("ldcp_pcc_rtt_responses"));
    }

    @Test
    void probeTimeoutReprobesAndLateResponsesAreIgnored() {
        final Harness h = new Harness(new LdcpPccProvider());
        h.init(1_000);
        h.rttResponse(13_500, 2_000, 7_000, 7_500); // W 126 packets, probe requested at 13,500
        final int w = h.word(W_WINDOW);
        assertEquals(126 << 16, w);
        // a timer that fires before the timeout elapsed (an old arming) does nothing
        PccResult r = h.timer(13_500 + 999_999);
        assertFalse(r.rttProbeRequest());
        // 1 ms after the probe request: timeout, new probe, no AI
        r = h.timer(1_013_500);
        assertTrue(r.rttProbeRequest());
        assertEquals(1_000_000, r.timerNs());
        assertEquals(1_013_500, h.word(W_PROBE_REQUEST_NS));
        assertEquals(w, h.word(W_WINDOW));
        assertEquals(1, h.counter("ldcp_pcc_probe_timeouts"));
        // the answer to the given-up probe (sent at 14,000, before the re-probe) arrives: ignored
        r = h.rttResponse(1_020_000, 14_000, 1_010_000, 1_010_100);
        assertFalse(r.rttProbeRequest());
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(w, h.word(W_WINDOW));
        assertEquals(1, h.counter("ldcp_pcc_stale_responses"));
    }

    @Test
    void windowIsCappedAtLineRateAndFlooredAtMinWindow() {
        final Harness h = new Harness(new LdcpPccProvider(), "init_window_bytes", 137_000);
        h.init(0);
        assertEquals(137 << 16, h.word(W_WINDOW)); // 8,978,432
        // RTT 11 us: the line window is 10^8 x 11,000 / 10^6 = 1,100,000 bit / 8000 = 137.5 packets
        // = 9,011,200; W + 1 = 138 is capped to 137.5, rate = exactly line rate
        final PccResult r = h.rttResponse(11_000, 0, 0, 0);
        assertEquals(9_011_200, h.word(W_WINDOW));
        assertEquals(FixedPoint.RATE_ONE, r.rate());

        final Harness low = new Harness(new LdcpPccProvider(), "init_window_bytes", 500);
        low.init(0);
        assertEquals(32_768, low.word(W_WINDOW)); // 0.5 packet
        // CNP: 0.5 - 0.5 = 0 -> floor min_window 1/8 = 8,192; rate = 8,192 x 128,000 / 10^6 = 1,048
        final PccResult r2 = low.cnp(100);
        assertEquals(8_192, low.word(W_WINDOW));
        assertEquals(1_048, r2.rate());
    }
}
