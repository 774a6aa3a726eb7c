package dev.nicsim.fabric.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.CounterRegistry;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Writes the end-of-run files ({@code flows.csv}, {@code counters.csv}, {@code run.json}) and
 * prints the summary table. {@code flows.csv} and {@code counters.csv} depend only on the scenario
 * and seed (byte-identical across runs); {@code run.json} also records wall time.
 *
 * <p>Thread-safety: stateless.
 */
public final class Reports {
    /** Version written to {@code run.json}. */
    public static final String VERSION = "0.1.0";
    private static final long[] BUCKET_EDGES = {10_000, 100_000, 1_000_000};
    private static final String[] BUCKET_NAMES = {"<10KB", "10-100KB", "100KB-1MB", ">=1MB"};

    /** Number of flow-size buckets of the summary ({@code <10KB, 10-100KB, 100KB-1MB, >=1MB}). */
    public static final int SIZE_BUCKETS = BUCKET_NAMES.length;

    private Reports() {
    }

    /**
     * Writes {@code flows.csv}: {@code flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown};
     * unfinished flows have empty {@code fct_ns} and {@code slowdown}.
     *
     * @param dir   output directory
     * @param flows flows by id
     * @throws IOException on write failure
     */
    public static void writeFlows(final Path dir, final List<FlowRecord> flows) throws IOException {
        try (CSVPrinter p = TimeSeriesWriter.open(dir.resolve("flows.csv"),
            "flow_id", "src", "dst", "size_bytes", "start_ns", "fct_ns", "ideal_fct_ns", "slowdown")) {
            for (final FlowRecord f : flows) {
                p.printRecord(f.flowId(), f.src(), f.dst(), f.sizeBytes(), f.startNs(),
                    f.completed() ? Long.toString(f.fctNs()) : "", f.idealFctNs(),
                    f.completed() ? fixed4(f.slowdown()) : "");
            }
        }
    }

    /**
     * A number with four decimals, exactly as {@code String.format(Locale.ROOT, "%.4f", x)} writes it
     * (the {@code slowdown} column of {@code flows.csv}): the shortest decimal of {@code x}
     * ({@link Double#toString}, the digits {@link java.util.Formatter} rounds) rounded half-up to
     * four places. A quarter of {@code String.format}'s cost on a fresh JVM (3,160 values: 20 against
     * 78 ms), which is where {@code flows.csv} is written. Zero, negative and non-finite values (never
     * a slowdown, which is at least 1) and values of 10^15 and more go through {@code String.format}.
     *
     * @param x the value
     * @return its text, e.g. {@code 1.0000}, {@code 12.3457}
     */
    static String fixed4(final double x) {
        if (!(x > 0) || x >= 1e15) { // also NaN and infinities
            return String.format(Locale.ROOT, "%.4f", x);
        }
        return new java.math.BigDecimal(Double.toString(x)).setScale(4, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    /**
     * Writes {@code counters.csv}: {@code component,counter,value}, the NIC, CC processor and switch
     * counters in registration order ({@link CounterRegistry#forEach}); with {@code all} false
     * ({@code sampling.counters: nonzero}, the default) a counter whose value is 0 is not a row,
     * with {@code all} true every counter is. The rows written are the same text either way.
     *
     * @param dir      output directory
     * @param counters the run's counters
     * @param all      whether counters whose value is 0 are written too
     * @throws IOException on write failure
     */
    public static void writeCounters(final Path dir, final CounterRegistry counters, final boolean all) throws IOException {
        try (CSVPrinter p = TimeSeriesWriter.open(dir.resolve("counters.csv"), "component", "counter", "value")) {
            counters.forEach(all, (component, name, value) -> p.printRecord(component, name, value));
        }
    }

    /**
     * Writes {@code run.json}.
     *
     * @param dir      output directory
     * @param scenario the scenario
     * @param r        the outcome
     * @throws IOException on write failure
     */
    public static void writeRunJson(final Path dir, final Scenario scenario, final RunResult r) throws IOException {
        final java.io.StringWriter text = new java.io.StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(text)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("scenario", scenario.name());
            g.writeStringField("scenario_file", scenario.file().toString());
            g.writeNumberField("seed", r.seed());
            g.writeStringField("version", VERSION);
            g.writeStringField("algorithm", scenario.algorithm().name());
            g.writeNumberField("simulated_ns", r.simulatedPs() / Units.PS_PER_NS);
            g.writeNumberField("wall_s", r.wallNanos() / 1e9);
            g.writeNumberField("events", r.events());
            g.writeNumberField("events_per_sec", Math.round(r.eventsPerSecond()));
            g.writeNumberField("data_packets", r.dataPackets());
            g.writeNumberField("wall_ns_per_data_packet", Math.round(r.wallNsPerDataPacket() * 10) / 10.0);
            g.writeNumberField("flows", r.flows().size());
            g.writeNumberField("flows_completed", r.completedFlows());
            final RunResult.PartitionFigures pf = r.partitioning();
            if (pf != null) { // a partitioned run only: a sequential run's run.json is unchanged
                g.writeObjectFieldStart("partitions");
                g.writeNumberField("count", pf.partitions());
                g.writeNumberField("threads", pf.threads());
                g.writeArrayFieldStart("hosts_per_partition");
                for (final int h : pf.hostsPerPartition()) {
                    g.writeNumber(h);
                }
                g.writeEndArray();
                g.writeNumberField("cut_links", pf.cutLinks());
                g.writeNumberField("window_ps", pf.lookAheadPs());
                g.writeNumberField("windows", pf.windows());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        java.nio.file.Files.writeString(dir.resolve("run.json"), text + "\n");
    }

    /**
     * Percentile by nearest rank.
     *
     * @param sorted ascending values, non-empty
     * @param p      percentile in (0, 100]
     * @return the value at rank ceil(p/100 x n)
     */
    public static double percentile(final double[] sorted, final double p) {
        final int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * Prints the summary table.
     *
     * @param out where to print
     * @param r   the outcome
     */
    public static void printSummary(final PrintStream out, final RunResult r) {
        out.printf(Locale.ROOT, "%nscenario %s (seed %d)%n", r.scenarioName(), r.seed());
        out.printf(Locale.ROOT, "flows done          %d / %d%n", r.completedFlows(), r.flows().size());
        out.printf(Locale.ROOT, "%-20s %7s %9s %9s %9s%n", "FCT slowdown", "flows", "p50", "p95", "p99");
        printRow(out, "all", r.flows(), Long.MIN_VALUE, Long.MAX_VALUE);
        for (int b = 0; b < SIZE_BUCKETS; b++) {
            printRow(out, BUCKET_NAMES[b], r.flows(), bucketLowBytes(b), bucketLowBytes(b + 1));
        }
        // the trimmed column only when a switch trims, so the table of a run without trimming is as it was
        final boolean trims = r.switches().stream().anyMatch(s -> s.trimmedPackets() >= 0);
        out.printf(Locale.ROOT, "%-20s %14s %10s %10s %10s" + (trims ? " %10s" : "") + "%n", "switch", "peak_queue_B",
            "ce_marked", "drops", "pfc_sent", "trimmed");
        for (final RunResult.SwitchFigures s : r.switches()) {
            out.printf(Locale.ROOT, "%-20s %14d %10d %10d %10d%s%n", s.name(), s.peakQueueBytes(), s.ceMarked(), s.drops(),
                s.pauseFramesSent(), trims ? String.format(Locale.ROOT, " %10d", Math.max(0, s.trimmedPackets())) : "");
        }
        out.printf(Locale.ROOT, "NIC CNPs sent       %d%n", r.cnpsSent());
        out.printf(Locale.ROOT, "NIC retransmissions %d (timeouts %d)%n", r.retransmissions(), r.timeouts());
        final RunResult.EmulatorFigures e = r.emulator();
        if (e != null) {
            out.printf(Locale.ROOT, "uNIC emulator       %d events handled, %d coalesced, %d dropped "
                    + "(tx %d, ack %d, nack %d, cnp %d, rtt %d, timer %d)%n", e.handled(), e.coalesced(), e.droppedTotal(),
                e.dropped()[0], e.dropped()[1], e.dropped()[2], e.dropped()[3], e.dropped()[4], e.dropped()[5]);
            out.printf(Locale.ROOT, "                    utilisation %.1f %% mean per NIC, %.1f %% busiest core; "
                    + "latency p50 %d ns (%d cycles), p99 %d ns (%d cycles)%n", 100 * e.meanUtilisation(),
                100 * e.maxCoreUtilisation(), e.latencyP50Ns(), e.latencyP50Cycles(), e.latencyP99Ns(), e.latencyP99Cycles());
        } else {
            out.printf(Locale.ROOT, "CC processor        direct (no processing delay)%n");
        }
        out.printf(Locale.ROOT, "simulated time      %.3f us%n", r.simulatedPs() / 1e6);
        out.printf(Locale.ROOT, "wall time           %.3f s%n", r.wallNanos() / 1e9);
        out.printf(Locale.ROOT, "events              %d (%.2f M events/s)%n", r.events(), r.eventsPerSecond() / 1e6);
        out.printf(Locale.ROOT, "data packets        %d (%.3f us wall per data packet)%n", r.dataPackets(),
            r.wallNsPerDataPacket() / Units.NS_PER_US);
        final RunResult.PartitionFigures pf = r.partitioning();
        if (pf != null) {
            out.printf(Locale.ROOT, "partitions          %d on %d threads, hosts %s, %d cut links, window %.3f ns, %d windows%n",
                pf.partitions(), pf.threads(), Arrays.toString(pf.hostsPerPartition()), pf.cutLinks(),
                Units.nsFromPs(pf.lookAheadPs()), pf.windows());
        }
        if (r.kernelEpochs() > 0) { // which way the kernel's self-timed look-ahead went (speed only)
            out.printf(Locale.ROOT, "kernel look-ahead   on in %d of %d epochs of 65536 events%n", r.lookAheadEpochs(),
                r.kernelEpochs());
        }
    }

    /**
     * Name of a flow-size bucket as the summary prints it.
     *
     * @param bucket bucket index, {@code 0 .. SIZE_BUCKETS-1}
     * @return {@code <10KB}, {@code 10-100KB}, {@code 100KB-1MB} or {@code >=1MB}
     * @throws ArrayIndexOutOfBoundsException if the index is out of range
     */
    public static String bucketName(final int bucket) {
        return BUCKET_NAMES[bucket];
    }

    /**
     * Lower bound of a flow-size bucket (inclusive); the bucket ends where the next begins.
     *
     * @param bucket bucket index, {@code 0 .. SIZE_BUCKETS} ({@code SIZE_BUCKETS} gives {@link Long#MAX_VALUE})
     * @return bytes: 0, 10 000, 100 000, 1 000 000 (decimal kB and MB, as the HPCC paper's buckets)
     */
    public static long bucketLowBytes(final int bucket) {
        return bucket == 0 ? 0 : bucket > BUCKET_EDGES.length ? Long.MAX_VALUE : BUCKET_EDGES[bucket - 1];
    }

    /**
     * The slowdowns (FCT / ideal FCT) of the completed flows of sizes in {@code [loBytes, hiBytes)}.
     *
     * @param flows   flows of a run
     * @param loBytes smallest size, inclusive
     * @param hiBytes largest size, exclusive
     * @return a new array, ascending; empty when no such flow completed
     */
    public static double[] sortedSlowdowns(final List<FlowRecord> flows, final long loBytes, final long hiBytes) {
        final double[] a = flows.stream().filter(f -> f.completed() && f.sizeBytes() >= loBytes && f.sizeBytes() < hiBytes)
            .mapToDouble(FlowRecord::slowdown).toArray();
        Arrays.sort(a);
        return a;
    }

    private static void printRow(final PrintStream out, final String name, final List<FlowRecord> flows, final long lo,
                                 final long hi) {
        final double[] a = sortedSlowdowns(flows, lo, hi);
        if (a.length == 0) {
            out.printf(Locale.ROOT, "%-20s %7d %9s %9s %9s%n", name, 0, "-", "-", "-");
            return;
        }
        out.printf(Locale.ROOT, "%-20s %7d %9.3f %9.3f %9.3f%n", name, a.length, percentile(a, 50), percentile(a, 95),
            percentile(a, 99));
    }
}
