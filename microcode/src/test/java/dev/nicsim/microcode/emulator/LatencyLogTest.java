package dev.nicsim.microcode.emulator;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency log's histograms (made at the first sample, auto-resizing, int counts until a
 * limit, then long counts) hold what full-range long-count histograms hold: the oracle is a
 * {@code Histogram(LATENCY_HIGHEST, 2)} fed the same values one by one.
 */
class LatencyLogTest {

    /** No sample: every figure 0, and the reported copies are empty full-range histograms. */
    @Test
    void anEmptyLogReportsZeros() {
        final LatencyLog log = new LatencyLog(1_000_000_000L);
        assertEquals(0, log.ns().getTotalCount());
        assertEquals(0, log.ns().getValueAtPercentile(99));
        assertEquals(0, log.cycles().getMaxValue());
        assertEquals(new Histogram(UnicEmulator.LATENCY_HIGHEST, 2), LatencyLog.copy(log.ns()));
    }

    /**
     * 2,000 latencies from 1 ps to ~10 ms (and one clamped at LATENCY_HIGHEST) at 1.8 GHz, with the
     * int-count limit set to 700 so the log moves to long counts part way: every count, percentile
     * and maximum equals the oracle's.
     */
    @Test
    void countsEqualAFullRangeHistogramAcrossTheMoveToLongCounts() {
        final long clockHz = 1_800_000_000L;
        final LatencyLog log = new LatencyLog(clockHz, 700);
        final Histogram ns = new Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
        final Histogram cycles = new Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
        long lcg = 3;
        for (int i = 0; i < 2_000; i++) {
            lcg = lcg * 6364136223846793005L + 1442695040888963407L;
            final long ps = i == 1_000 ? Long.MAX_VALUE / 2 : 1 + ((lcg >>> 20) % (1L << (1 + i % 34)));
            log.record(ps);
            ns.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, (ps + 999) / 1000));
            cycles.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, log.psToCycles(ps)));
            if (i == 500) {
                assertEquals(ns, LatencyLog.copy(log.ns()));
                assertFalse(log.longCounts());
            }
        }
        assertTrue(log.longCounts());
        assertEquals(ns, LatencyLog.copy(log.ns()));
        assertEquals(cycles, LatencyLog.copy(log.cycles()));
        for (final double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
            assertEquals(ns.getValueAtPercentile(p), log.ns().getValueAtPercentile(p), "ns p" + p);
            assertEquals(cycles.getValueAtPercentile(p), log.cycles().getValueAtPercentile(p), "cycles p" + p);
        }
        assertEquals(ns.getMaxValue(), log.ns().getMaxValue());
        assertEquals(cycles.getMaxValue(), log.cycles().getMaxValue());
        assertEquals(2_000, log.ns().getTotalCount());
    }
}
