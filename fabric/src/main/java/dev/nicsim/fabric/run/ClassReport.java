package dev.nicsim.fabric.run;

import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.FlowSpec;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Throughput and latency per flow class ({@link FlowSpec#flowClass()}: {@code background} and
 * {@code hot} of a hotspot workload, the labels of a {@code flows} workload, else {@code flow}),
 * as the RCM paper Fig. 8 reports them, written to {@code classes.csv} and printed after the summary.
 *
 * <p>One row per class in order of first appearance (flow id order), then {@code all}:
 * <ul>
 * <li>{@code flows}: flows of the class; {@code started}: those whose start time is before the end
 *     of the run; {@code completed}: those that completed;</li>
 * <li>{@code delivered_bytes}: payload bytes of the class's data frames counted by
 *     {@link ThroughputSampler} (completed or not); {@code throughput_gbps}: {@code delivered_bytes x 8
 *     / simulated time}, Gb/s (the class's aggregate goodput over the whole run);</li>
 * <li>{@code mean_fct_us}, {@code p50_fct_us}, {@code p99_fct_us}: flow completion time of the completed
 *     flows (nearest-rank percentiles), us; {@code mean_slowdown}, {@code p99_slowdown}: FCT over
 *     the ideal FCT. Empty when no flow of the class completed.</li>
 * </ul>
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class ClassReport {
    /** Name of the output file. */
    public static final String FILE = "classes.csv";
    /** Name of the row over every flow. */
    public static final String ALL = "all";

    /**
     * One class's figures.
     *
     * @param name           class name
     * @param flows          flows of the class
     * @param started        flows started before the end of the run
     * @param completed      flows completed
     * @param deliveredBytes payload bytes delivered
     * @param throughputGbps delivered bits over the simulated time, Gb/s
     * @param meanFctUs      mean FCT of completed flows, us (NaN if none)
     * @param p50FctUs       median FCT, us (NaN if none)
     * @param p99FctUs       99th percentile FCT, us (NaN if none)
     * @param meanSlowdown   mean slowdown (NaN if none)
     * @param p99Slowdown    99th percentile slowdown (NaN if none)
     */
    public record Row(String name, int flows, int started, int completed, long deliveredBytes, double throughputGbps,
                      double meanFctUs, double p50FctUs, double p99FctUs, double meanSlowdown, double p99Slowdown) {
    }

    private final List<Row> rows;

    private ClassReport(final List<Row> rows) {
        this.rows = rows;
    }

    /**
     * Computes the figures.
     *
     * @param flows       the workload's flows by id
     * @param records     their outcome by id (same order)
     * @param throughput  the run's sampler (delivered bytes per flow)
     * @param simulatedPs simulated time of the run, ps, {@code > 0}
     * @return the report
     * @throws IllegalArgumentException if the lists differ in length or the time is not positive
     */
    public static ClassReport of(final List<FlowSpec> flows, final List<FlowRecord> records,
                                 final ThroughputSampler throughput, final long simulatedPs) {
        if (flows.size() != records.size()) {
            throw new IllegalArgumentException("flows (" + flows.size() + ") and records (" + records.size() + ") differ");
        }
        if (simulatedPs <= 0) {
            throw new IllegalArgumentException("simulatedPs must be > 0, got " + simulatedPs);
        }
        final Map<String, List<Integer>> byClass = new LinkedHashMap<>();
        for (final FlowSpec f : flows) {
            byClass.computeIfAbsent(f.flowClass(), k -> new ArrayList<>()).add(f.flowId());
        }
        final List<Integer> all = new ArrayList<>();
        for (final FlowSpec f : flows) {
            all.add(f.flowId());
        }
        byClass.put(ALL, all);
        final List<Row> rows = new ArrayList<>();
        for (final Map.Entry<String, List<Integer>> e : byClass.entrySet()) {
            rows.add(row(e.getKey(), e.getValue(), flows, records, throughput, simulatedPs));
        }
        return new ClassReport(rows);
    }

    private static Row row(final String name, final List<Integer> ids, final List<FlowSpec> flows,
                           final List<FlowRecord> records, final ThroughputSampler throughput, final long simulatedPs) {
        int started = 0;
        long bytes = 0;
        final List<Double> fct = new ArrayList<>();
        final List<Double> slow = new ArrayList<>();
        for (final int id : ids) {
            if (flows.get(id).startPs() < simulatedPs) {
                started++;
            }
            bytes += throughput.deliveredBytes(id);
            final FlowRecord r = records.get(id);
            if (r.completed()) {
                fct.add(Units.usFromNs(r.fctNs()));
                slow.add(r.slowdown());
            }
        }
        final double[] f = fct.stream().mapToDouble(Double::doubleValue).toArray();
        final double[] s = slow.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(f);
        Arrays.sort(s);
        final boolean any = f.length > 0;
        return new Row(name, ids.size(), started, f.length, bytes, bytes * 8e3 / simulatedPs,
            any ? Arrays.stream(f).average().orElse(Double.NaN) : Double.NaN,
            any ? Reports.percentile(f, 50) : Double.NaN, any ? Reports.percentile(f, 99) : Double.NaN,
            any ? Arrays.stream(s).average().orElse(Double.NaN) : Double.NaN,
            any ? Reports.percentile(s, 99) : Double.NaN);
    }

    /** @return the rows, classes in order of first appearance, then {@code all} */
    public List<Row> rows() {
        return rows;
    }

    /**
     * Writes {@code classes.csv}.
     *
     * @param dir output directory
     * @throws IOException on write failure
     */
    public void write(final Path dir) throws IOException {
        try (CSVPrinter p = TimeSeriesWriter.open(dir.resolve(FILE), "class", "flows", "started", "completed",
            "delivered_bytes", "throughput_gbps", "mean_fct_us", "p50_fct_us", "p99_fct_us", "mean_slowdown", "p99_slowdown")) {
            for (final Row r : rows) {
                p.printRecord(r.name(), r.flows(), r.started(), r.completed(), r.deliveredBytes(), fmt(r.throughputGbps()),
                    fmt(r.meanFctUs()), fmt(r.p50FctUs()), fmt(r.p99FctUs()), fmt(r.meanSlowdown()), fmt(r.p99Slowdown()));
            }
        }
    }

    /**
     * Prints the table (only when the workload has more than one class).
     *
     * @param out where to print
     */
    public void print(final PrintStream out) {
        if (rows.size() <= 2) {
            return;
        }
        out.printf(Locale.ROOT, "%-14s %7s %9s %10s %11s %11s %11s%n", "class", "flows", "completed", "tput_Gbps",
            "mean_fct_us", "p99_fct_us", "mean_slowdn");
        for (final Row r : rows) {
            out.printf(Locale.ROOT, "%-14s %7d %9d %10.2f %11s %11s %11s%n", r.name(), r.flows(), r.completed(),
                r.throughputGbps(), fmt(r.meanFctUs()), fmt(r.p99FctUs()), fmt(r.meanSlowdown()));
        }
    }

    private static String fmt(final double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
