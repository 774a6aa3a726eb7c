package dev.nicsim.sweep;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.apache.commons.csv.CSVPrinter;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a validated sweep on Spark and writes its outputs: {@code points.csv} (rows appended as
 * points finish), {@code points.parquet} (written by Spark), {@code summary.csv} and
 * {@code sweep.png}, and with {@code keepRuns} every point's run directory under {@code runs/}.
 *
 * <h2>Engine</h2>
 * Each point and seed is one Spark job of one task ({@link PointExecutor#run} on an executor);
 * the driver submits them from a pool of threads (twice the cluster's default parallelism), so the
 * cluster runs as many at once as it has cores and each row reaches {@code points.csv} as soon as
 * its task ends. The scheduler's order is FIFO by submission, i.e. by point, then seed.
 *
 * <p>{@link #check} tests the output directory (and with {@code resume} reads {@code points.csv})
 * without writing anything; the command calls it before it starts Spark.
 *
 * <p>Thread-safety: one sweep per instance, from one thread.
 */
public final class SweepRun {
    /** Exit code when every point is ok. */
    public static final int EXIT_OK = 0;
    /** Exit code when some point failed. */
    public static final int EXIT_SOME_FAILED = 4;
    /** Name of the per-point summary over seeds. */
    public static final String SUMMARY_FILE = "summary.csv";
    /** Name of the Parquet copy of {@code points.csv} (a directory, as Spark writes it). */
    public static final String PARQUET_DIR = "points.parquet";

    private final SweepSpec spec;
    private final Path out;
    private final boolean resume;
    private final boolean keepRuns;
    private final double pointTimeoutSeconds;
    private final boolean progress;
    private final PrintStream messages;
    private final int partitions;
    /** Set by {@link #check}: the ok rows kept from {@code points.csv} ({@code resume}), and the runs still to do. */
    private Map<String, PointRow> kept;
    private List<PointTask> tasks;

    /**
     * @param spec                the sweep, validated ({@link SweepSpec#validate})
     * @param out                 output directory, created if missing
     * @param resume              keep the ok rows of an existing {@code points.csv} and run only the
     *                            missing or failed points; without it an existing {@code points.csv} is an error
     * @param keepRuns            keep each point's run directory as {@code runs/p<point>-s<seed>}
     * @param pointTimeoutSeconds a point still running after this wall time fails, s; 0 for none
     * @param progress            show a progress bar (only on a terminal)
     * @param messages            where the closing line goes
     */
    public SweepRun(final SweepSpec spec, final Path out, final boolean resume, final boolean keepRuns,
                    final double pointTimeoutSeconds, final boolean progress, final PrintStream messages) {
        this(spec, out, resume, keepRuns, pointTimeoutSeconds, progress, messages, 1);
    }

    /**
     * A sweep whose every point runs as {@code nicsim run --partitions N} ({@link PointTask#partitions()}).
     *
     * @param spec                the sweep, validated ({@link SweepSpec#validate})
     * @param out                 output directory, created if missing
     * @param resume              as {@link #SweepRun(SweepSpec, Path, boolean, boolean, double, boolean, PrintStream)}
     * @param keepRuns            keep each point's run directory as {@code runs/p<point>-s<seed>}
     * @param pointTimeoutSeconds a point still running after this wall time fails, s; 0 for none
     * @param progress            show a progress bar (only on a terminal)
     * @param messages            where the closing line goes
     * @param partitions          N, 1 or more (a point whose fabric cannot be split so fails with the reason)
     * @throws IllegalArgumentException if {@code partitions} is below 1
     */
    public SweepRun(final SweepSpec spec, final Path out, final boolean resume, final boolean keepRuns,
                    final double pointTimeoutSeconds, final boolean progress, final PrintStream messages, final int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        this.partitions = partitions;
        this.spec = spec;
        this.out = out.toAbsolutePath().normalize();
        this.resume = resume;
        this.keepRuns = keepRuns;
        this.pointTimeoutSeconds = pointTimeoutSeconds;
        this.progress = progress;
        this.messages = messages;
    }

    /**
     * Checks everything about the output directory that can be checked without Spark and plans
     * the runs; writes nothing. {@link #run} calls it when it has not been called; the command calls
     * it before it starts Spark, so bad input never waits for (or is buried under) Spark's start.
     *
     * @throws SweepException if {@code out} (or the first of its ancestors that exists) is not a
     *                        writable directory; if {@code points.csv}, {@code summary.csv}, {@code sweep.png}
     *                        or (with {@code keepRuns}) {@code runs} exist as the other kind of file;
     *                        if {@code points.csv} exists without {@code resume}; with {@code resume},
     *                        if it is another sweep's ({@link PointsFile#readOk}) or not UTF-8 text
     *                        (naming its line)
     * @throws IOException    if {@code points.csv} cannot be read
     */
    public void check() throws IOException {
        if (tasks != null) {
            return;
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new SweepException(out + ": exists and is not a directory; give a directory for --out");
        }
        Path existing = out;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !existing.equals(out) && !Files.isDirectory(existing)) {
            throw new SweepException(out + ": cannot be created: " + existing + " is not a directory; give another --out");
        }
        if (existing != null && !Files.isWritable(existing)) {
            throw new SweepException(out + ": cannot be written: " + existing + " is not writable (permission denied);"
                + " give another --out");
        }
        final Path pointsCsv = out.resolve(PointsFile.FILE);
        for (final Path f : List.of(pointsCsv, out.resolve(SUMMARY_FILE), out.resolve(SweepChart.FILE))) {
            if (Files.exists(f) && !Files.isRegularFile(f)) {
                throw new SweepException(f + ": exists and is not a file; the sweep writes a file there; give another --out");
            }
        }
        if (keepRuns && Files.exists(out.resolve("runs")) && !Files.isDirectory(out.resolve("runs"))) {
            throw new SweepException(out.resolve("runs") + ": exists and is not a directory; --keep-runs writes run"
                + " directories in it; give another --out");
        }
        if (!resume && Files.exists(pointsCsv)) {
            throw new SweepException(pointsCsv + ": exists; add --resume to run only its missing or failed points,"
                + " or give another --out");
        }
        final Map<String, PointRow> ok = resume ? new PointsFile(spec, out, partitions).readOk() : Map.of();
        final List<PointTask> planned = new ArrayList<>();
        for (int p = 0; p < spec.pointCount(); p++) {
            for (final long seed : spec.seeds()) {
                if (!ok.containsKey(PointsFile.key(p, seed))) {
                    final String runDir = keepRuns ? out.resolve("runs").resolve("p" + p + "-s" + seed).toString() : null;
                    planned.add(new PointTask(p, seed, spec.scenario().toString(), spec.overrides(p), runDir,
                        pointTimeoutSeconds, partitions));
                }
            }
        }
        kept = ok;
        tasks = planned;
    }

    /**
     * Runs every point and seed not already done, then writes the outputs.
     *
     * @param spark the session to run on (not stopped here)
     * @return {@link #EXIT_OK} or {@link #EXIT_SOME_FAILED}
     * @throws SweepException as {@link #check}, when it was not called before
     * @throws IOException    if an output file cannot be written
     */
    public int run(final SparkSession spark) throws IOException {
        check();
        Files.createDirectories(out);
        final Map<String, PointRow> rows = new ConcurrentHashMap<>(kept);
        try (PointsFile points = new PointsFile(spec, out, partitions)) {
            points.rewrite(rows.values());
            runAll(spark, tasks, rows, points);
            points.rewrite(rows.values());
        }
        final List<PointRow> all = sorted(rows.values());
        writeParquet(spark, all);
        writeSummary(all);
        SweepChart.write(spec, all, out.resolve(SweepChart.FILE));
        final long failed = all.stream().filter(r -> !r.ok()).count();
        messages.printf(Locale.ROOT, "sweep %s: %d points x %d seeds, %d run now, %d kept; %d ok, %d failed; output in %s%n",
            spec.name(), spec.pointCount(), spec.seeds().size(), tasks.size(), all.size() - tasks.size(), all.size() - failed,
            failed, out);
        return failed == 0 ? EXIT_OK : EXIT_SOME_FAILED;
    }

    /** The Spark function of a task: serializable, static, no captured state. */
    private static final class RunPoint implements Function<PointTask, PointRow> {
        private static final long serialVersionUID = 1L;

        @Override
        public PointRow call(final PointTask task) {
            return PointExecutor.run(task);
        }
    }

    private void runAll(final SparkSession spark, final List<PointTask> tasks, final Map<String, PointRow> rows,
                        final PointsFile points) throws IOException {
        if (tasks.isEmpty()) {
            return;
        }
        final JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        final int threads = Math.max(1, Math.min(tasks.size(), 2 * jsc.defaultParallelism()));
        final ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            final Thread t = new Thread(r, "sweep-submit");
            t.setDaemon(true);
            return t;
        });
        final AtomicInteger failed = new AtomicInteger();
        final ProgressBar bar = progress && System.console() != null
            ? new ProgressBarBuilder().setTaskName(spec.name()).setInitialMax(tasks.size()).setUnit(" points", 1)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500)
                .setConsumer(new ConsoleProgressBarConsumer(System.err)).build()
            : null;
        try {
            final List<Future<?>> futures = new ArrayList<>();
            for (final PointTask t : tasks) {
                futures.add(pool.submit(() -> {
                    jsc.setJobDescription("point " + t.point() + " seed " + t.seed());
                    final PointRow row = jsc.parallelize(List.of(t), 1).map(new RunPoint()).collect().get(0);
                    rows.put(PointsFile.key(row.point(), row.seed()), row);
                    try {
                        points.append(row);
                    } catch (final IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    if (!row.ok()) {
                        failed.incrementAndGet();
                    }
                    if (bar != null) {
                        bar.step();
                        bar.setExtraMessage(failed.get() + " failed");
                    }
                    return null;
                }));
            }
            for (final Future<?> f : futures) {
                try {
                    f.get();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                } catch (final ExecutionException e) {
                    if (e.getCause() instanceof UncheckedIOException u) {
                        throw u.getCause();
                    }
                    throw new IllegalStateException("a Spark job failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
            if (bar != null) {
                bar.close();
            }
        }
    }

    private static List<PointRow> sorted(final Collection<PointRow> rows) {
        final List<PointRow> s = new ArrayList<>(rows);
        s.sort(Comparator.comparingInt(PointRow::point).thenComparingLong(PointRow::seed));
        return s;
    }

    private void writeParquet(final SparkSession spark, final List<PointRow> rows) {
        final List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("point", DataTypes.IntegerType, false));
        fields.add(DataTypes.createStructField("seed", DataTypes.LongType, false));
        fields.add(DataTypes.createStructField("partitions", DataTypes.IntegerType, false));
        for (final String k : spec.axisKeys()) {
            fields.add(DataTypes.createStructField(k, DataTypes.StringType, false));
        }
        fields.add(DataTypes.createStructField("status", DataTypes.StringType, false));
        fields.add(DataTypes.createStructField("error", DataTypes.StringType, false));
        for (final String c : PointMetrics.COLUMNS) {
            fields.add(DataTypes.createStructField(c, type(c), true));
        }
        final StructType schema = DataTypes.createStructType(fields);
        final List<Row> data = new ArrayList<>();
        for (final PointRow r : rows) {
            final List<Object> v = new ArrayList<>();
            v.add(r.point());
            v.add(r.seed());
            v.add(partitions);
            v.addAll(spec.axisValues(r.point()).values());
            v.add(r.status());
            v.add(r.error());
            for (final String c : PointMetrics.COLUMNS) {
                final String text = r.metrics().getOrDefault(c, "");
                v.add(text.isEmpty() ? null : type(c) == DataTypes.LongType ? (Object) Long.parseLong(text) : Double.parseDouble(text));
            }
            data.add(RowFactory.create(v.toArray()));
        }
        spark.createDataFrame(data, schema).coalesce(1).write().mode(SaveMode.Overwrite).parquet(out.resolve(PARQUET_DIR).toString());
    }

    private static DataType type(final String column) {
        return PointMetrics.INTEGER_COLUMNS.contains(column) ? DataTypes.LongType : DataTypes.DoubleType;
    }

    /**
     * {@code summary.csv}: per point, its axis values, {@code seeds_ok}, {@code seeds_failed}, and
     * for every metric its mean, minimum and maximum over the ok seeds ({@code <metric>_mean},
     * {@code _min}, {@code _max}; empty when no ok seed has the metric).
     */
    private void writeSummary(final List<PointRow> rows) throws IOException {
        final Map<Integer, List<PointRow>> byPoint = new TreeMap<>();
        for (final PointRow r : rows) {
            byPoint.computeIfAbsent(r.point(), k -> new ArrayList<>()).add(r);
        }
        final List<String> header = new ArrayList<>(List.of("point"));
        header.addAll(spec.axisKeys());
        header.add("seeds_ok");
        header.add("seeds_failed");
        for (final String c : PointMetrics.COLUMNS) {
            header.add(c + "_mean");
            header.add(c + "_min");
            header.add(c + "_max");
        }
        try (CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(out.resolve(SUMMARY_FILE), StandardCharsets.UTF_8),
            org.apache.commons.csv.CSVFormat.DEFAULT.builder().setHeader(header.toArray(new String[0])).setRecordSeparator('\n').get())) {
            for (final Map.Entry<Integer, List<PointRow>> e : byPoint.entrySet()) {
                final List<Object> v = new ArrayList<>();
                v.add(e.getKey());
                v.addAll(spec.axisValues(e.getKey()).values());
                final List<PointRow> ok = e.getValue().stream().filter(PointRow::ok).toList();
                v.add(ok.size());
                v.add(e.getValue().size() - ok.size());
                for (final String c : PointMetrics.COLUMNS) {
                    final double[] x = ok.stream().map(r -> r.metrics().getOrDefault(c, "")).filter(s -> !s.isEmpty())
                        .mapToDouble(Double::parseDouble).toArray();
                    if (x.length == 0) {
                        v.add("");
                        v.add("");
                        v.add("");
                    } else {
                        final DoubleSummaryStatistics st = Arrays.stream(x).summaryStatistics();
                        v.add(fmt(st.getAverage()));
                        v.add(fmt(st.getMin()));
                        v.add(fmt(st.getMax()));
                    }
                }
                p.printRecord(v);
            }
        }
    }

    private static String fmt(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4f", v);
    }
}
