package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.Units;

import org.HdrHistogram.Histogram;

/**
 * The event latencies of an emulator, arrival of the first merged event to result, in two
 * HdrHistograms (2 significant digits: exact below 256, within 1 % above): ns rounded up and core
 * cycles rounded down, values clamped to 0..{@link UnicEmulator#LATENCY_HIGHEST}. Recording
 * appends to a batch and the histograms take a whole batch at once: one sequential write per event
 * instead of two cold histogram updates. Histogram counts do not depend on recording order, so
 * every figure is exactly what per-event recording gives.
 *
 * <p>Allocation-free when recording. Thread-safety: one thread (the stepped simulation thread).
 */
final class LatencyLog {
    private static final int BATCH = 256;

    private final long clockHz;
    private final Histogram latencyNs = new Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
    private final Histogram latencyCycles = new Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
    /** Latencies (ps) not yet in the two histograms. */
    private final long[] logPs = new long[BATCH];
    private int logged;

    /** @param clockHz the cores' clock, Hz, at least 1 */
    LatencyLog(final long clockHz) {
        this.clockHz = clockHz;
    }

    /**
     * Records one event's latency.
     *
     * @param latencyPs latency, ps
     */
    void record(final long latencyPs) {
        logPs[logged++] = latencyPs;
        if (logged == BATCH) {
            flush();
        }
    }

    /** @return the ns histogram with every recorded latency in it; the live one, do not modify */
    Histogram ns() {
        flush();
        return latencyNs;
    }

    /** @return the cycles histogram with every recorded latency in it; the live one, do not modify */
    Histogram cycles() {
        flush();
        return latencyCycles;
    }

    /**
     * @param ps a time, ps, at least 0
     * @return the core cycles it spans, rounded down (via a double above {@code Long.MAX_VALUE / clockHz})
     */
    long psToCycles(final long ps) {
        if (ps <= Long.MAX_VALUE / clockHz) {
            return ps * clockHz / 1_000_000_000_000L;
        }
        return (long) (ps * (clockHz / 1e12));
    }

    private void flush() {
        for (int i = 0; i < logged; i++) {
            final long latencyPs = logPs[i];
            final long ns = (latencyPs + Units.PS_PER_NS - 1) / Units.PS_PER_NS;
            latencyNs.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, Math.max(0, ns)));
            latencyCycles.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, Math.max(0, psToCycles(latencyPs))));
        }
        logged = 0;
    }
}
