package dev.nicsim.sweep;

import dev.nicsim.fabric.outputs.RunOutputs;
import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.run.Reports;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.Units;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * The metric columns of {@code points.csv}, computed from a finished run exactly as
 * {@code nicsim run} reports them:
 * <ul>
 * <li>{@code flows}, {@code flows_completed};</li>
 * <li>{@code slowdown_p50/p95/p99}: nearest-rank percentiles of FCT / ideal FCT over the completed
 *     flows ({@link Reports#percentile}), then the same per size bucket with suffixes
 *     {@code _lt10KB}, {@code _10KB_100KB}, {@code _100KB_1MB}, {@code _ge1MB} (the summary's
 *     buckets; empty when a bucket has no completed flow);</li>
 * <li>{@code drops}, {@code pfc_pause_frames}: summed over the switches; {@code cnps}: CNPs the
 *     NICs sent; {@code max_queue_bytes}: the largest switch peak queue;</li>
 * <li>{@code simulated_ns}; {@code wall_s}: the point's wall time (scenario load, run and output files), s;</li>
 * <li>{@code firmware_cycles_p50/p99}: the uNIC emulator's event latency in core cycles (dispatch,
 *     context, handler, write-back) when a firmware algorithm runs on the emulator, and
 *     {@code firmware_faults}: handler calls abandoned on a trap or at the instruction budget;
 *     empty for other runs.</li>
 * </ul>
 *
 * <p>Thread-safety: stateless.
 */
public final class PointMetrics {
    private static final String[] BUCKET_SUFFIXES = {"_lt10KB", "_10KB_100KB", "_100KB_1MB", "_ge1MB"};
    private static final int[] PERCENTILES = {50, 95, 99};

    /** Metric columns, in order. */
    public static final List<String> COLUMNS;
    /** The metric columns whose values are integers (the others are decimals). */
    public static final List<String> INTEGER_COLUMNS = List.of("flows", "flows_completed", "drops", "pfc_pause_frames",
        "cnps", "max_queue_bytes", "simulated_ns", "firmware_cycles_p50", "firmware_cycles_p99", "firmware_faults");

    static {
        final List<String> c = new ArrayList<>(List.of("flows", "flows_completed"));
        for (int b = -1; b < Reports.SIZE_BUCKETS; b++) {
            for (final int p : PERCENTILES) {
                c.add("slowdown_p" + p + (b < 0 ? "" : BUCKET_SUFFIXES[b]));
            }
        }
        c.addAll(List.of("drops", "pfc_pause_frames", "cnps", "max_queue_bytes", "simulated_ns", "wall_s",
            "firmware_cycles_p50", "firmware_cycles_p99", "firmware_faults"));
        COLUMNS = Collections.unmodifiableList(c);
    }

    private PointMetrics() {
    }

    /**
     * Every metric empty, for a failed point.
     *
     * @param wallNanos the point's wall time, ns (kept: how long it took to fail)
     * @return column to text
     */
    public static LinkedHashMap<String, String> empty(final long wallNanos) {
        final LinkedHashMap<String, String> m = new LinkedHashMap<>();
        for (final String c : COLUMNS) {
            m.put(c, "");
        }
        m.put("wall_s", wall(wallNanos));
        return m;
    }

    /**
     * The metrics of a finished run.
     *
     * @param o         the run
     * @param wallNanos the point's wall time, ns
     * @return column to text, in {@link #COLUMNS} order
     */
    public static LinkedHashMap<String, String> of(final RunOutputs.Outcome o, final long wallNanos) {
        final RunResult r = o.result();
        final LinkedHashMap<String, String> m = new LinkedHashMap<>();
        m.put("flows", Long.toString(r.flows().size()));
        m.put("flows_completed", Long.toString(r.completedFlows()));
        for (int b = -1; b < Reports.SIZE_BUCKETS; b++) {
            final List<FlowRecord> flows = r.flows();
            final double[] s = b < 0 ? Reports.sortedSlowdowns(flows, Long.MIN_VALUE, Long.MAX_VALUE)
                : Reports.sortedSlowdowns(flows, Reports.bucketLowBytes(b), Reports.bucketLowBytes(b + 1));
            for (final int p : PERCENTILES) {
                m.put("slowdown_p" + p + (b < 0 ? "" : BUCKET_SUFFIXES[b]),
                    s.length == 0 ? "" : String.format(Locale.ROOT, "%.4f", Reports.percentile(s, p)));
            }
        }
        long drops = 0;
        long pause = 0;
        long maxQueue = 0;
        for (final RunResult.SwitchFigures sw : r.switches()) {
            drops += sw.drops();
            pause += sw.pauseFramesSent();
            maxQueue = Math.max(maxQueue, sw.peakQueueBytes());
        }
        m.put("drops", Long.toString(drops));
        m.put("pfc_pause_frames", Long.toString(pause));
        m.put("cnps", Long.toString(r.cnpsSent()));
        m.put("max_queue_bytes", Long.toString(maxQueue));
        m.put("simulated_ns", Long.toString(r.simulatedPs() / Units.PS_PER_NS));
        m.put("wall_s", wall(wallNanos));
        final boolean firmware = o.runner().programs().provider() instanceof FirmwareProvider;
        final RunResult.EmulatorFigures e = r.emulator();
        m.put("firmware_cycles_p50", firmware && e != null ? Long.toString(e.latencyP50Cycles()) : "");
        m.put("firmware_cycles_p99", firmware && e != null ? Long.toString(e.latencyP99Cycles()) : "");
        m.put("firmware_faults", o.runner().programs().provider() instanceof FirmwareProvider fp
            ? Long.toString(fp.faults() + fp.budgetExceeded()) : "");
        return m;
    }

    private static String wall(final long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
