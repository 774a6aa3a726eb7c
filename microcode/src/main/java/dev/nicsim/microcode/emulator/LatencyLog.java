package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.Units;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * The event latencies of an emulator, arrival of the first merged event to result, in two
 * HdrHistograms (2 significant digits: exact below 256, within 1 % above): ns rounded up and core
 * cycles rounded down, values clamped to 0..{@link UnicEmulator#LATENCY_HIGHEST}. Recording
 * appends to a batch and the histograms take a whole batch at once: one sequential write per event
 * instead of two cold histogram updates. Histogram counts do not depend on recording order, so
 * every figure is exactly what per-event recording gives.
 *
 * <p>The histograms are made at the first sample (most NICs of a large fabric never record one)
 * and resize themselves to the largest value recorded (HdrHistogram auto-resize): a bucket holds
 * the same values whatever the range, so every count, percentile and maximum is that of a
 * histogram made for the whole range, at a third of its memory for latencies up to ~100 us. They
 * count in ints ({@link IntCountsHistogram}, half the memory again) while fewer than
 * {@link #INT_COUNTS_LIMIT} values are in them, so no bucket can overflow, and move to long
 * counts ({@link Histogram}, the same buckets) before a batch could pass that.
 *
 * <p>Allocation-free when recording. Thread-safety: one thread (the stepped simulation thread).
 */
final class LatencyLog {
    private static final int BATCH = 256;
    /** Values an int-count histogram may hold before a batch: no bucket can pass {@code Integer.MAX_VALUE}. */
    static final long INT_COUNTS_LIMIT = Integer.MAX_VALUE - BATCH;

    private final long clockHz;
    /** The histograms of a log with no sample: empty, never written (so shared, read only). */
    private static final Histogram EMPTY = new Histogram(2);
    /** Null until the first sample, then auto-resizing from 1 with 2 significant digits; int counts at first. */
    private AbstractHistogram latencyNs;
    private AbstractHistogram latencyCycles;
    /** Latencies (ps) not yet in the two histograms; null until the first sample. */
    private long[] logPs;
    private int logged;
    private final long intCountsLimit;

    /** @param clockHz the cores' clock, Hz, at least 1 */
    LatencyLog(final long clockHz) {
        this(clockHz, INT_COUNTS_LIMIT);
    }

    /**
     * @param clockHz        the cores' clock, Hz, at least 1
     * @param intCountsLimit values the histograms hold in int counts before they move to long
     *                       counts, at most {@link #INT_COUNTS_LIMIT} (smaller in tests)
     */
    LatencyLog(final long clockHz, final long intCountsLimit) {
        this.clockHz = clockHz;
        this.intCountsLimit = Math.min(intCountsLimit, INT_COUNTS_LIMIT);
    }

    /**
     * Records one event's latency.
     *
     * @param latencyPs latency, ps
     */
    void record(final long latencyPs) {
        if (logPs == null) {
            logPs = new long[BATCH];
            latencyNs = new IntCountsHistogram(2);
            latencyCycles = new IntCountsHistogram(2);
        }
        logPs[logged++] = latencyPs;
        if (logged == BATCH) {
            flush();
        }
    }

    /**
     * @return the ns histogram with every recorded latency in it (auto-resizing; an empty shared
     *         one before the first sample); the live one, do not modify
     */
    AbstractHistogram ns() {
        flush();
        return latencyNs == null ? EMPTY : latencyNs;
    }

    /**
     * @return the cycles histogram with every recorded latency in it (auto-resizing; an empty shared
     *         one before the first sample); the live one, do not modify
     */
    AbstractHistogram cycles() {
        flush();
        return latencyCycles == null ? EMPTY : latencyCycles;
    }

    /**
     * @param live a histogram of this log
     * @return a copy with the range an emulator reports: 1..{@link UnicEmulator#LATENCY_HIGHEST}, 2
     *         significant digits (allocates)
     */
    static Histogram copy(final AbstractHistogram live) {
        final Histogram h = new Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
        h.add(live);
        return h;
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
        if (logged > 0 && latencyNs.getTotalCount() > intCountsLimit && latencyNs instanceof IntCountsHistogram) {
            latencyNs = longCounts(latencyNs);
            latencyCycles = longCounts(latencyCycles);
        }
        for (int i = 0; i < logged; i++) {
            final long latencyPs = logPs[i];
            final long ns = (latencyPs + Units.PS_PER_NS - 1) / Units.PS_PER_NS;
            latencyNs.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, Math.max(0, ns)));
            latencyCycles.recordValue(Math.min(UnicEmulator.LATENCY_HIGHEST, Math.max(0, psToCycles(latencyPs))));
        }
        logged = 0;
    }

    /** @return whether the histograms count in longs now (after {@code intCountsLimit} values) */
    boolean longCounts() {
        return latencyNs instanceof Histogram;
    }

    /** @param h a histogram @return a long-count auto-resizing histogram with the same counts */
    private static Histogram longCounts(final AbstractHistogram h) {
        final Histogram l = new Histogram(2);
        l.add(h);
        return l;
    }
}
