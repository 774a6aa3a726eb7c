package dev.nicsim.fabric.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.nicsim.fabric.workload.FlowSpec;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The four figures of a run, drawn from its CSV files ({@code nicsim plot RUN_DIR}, or after a run
 * with {@code sampling.charts: true}), with XChart, headless, 1000 x 560 pixels each:
 * <ul>
 * <li>{@code throughput.png}: per-flow delivered throughput over time ({@link ThroughputChart});</li>
 * <li>{@code queues.png}: the {@value #MAX_QUEUES} deepest switch egress queues (switch, port,
 *     priority; deepest by their largest sample in {@code queues.csv}, ties by name) over time,
 *     KB (1 KB = 1000 bytes) against us;</li>
 * <li>{@code rates.png}: the CC pacing rate of the {@value #MAX_RATE_FLOWS} largest flows (by
 *     {@code size_bytes} in {@code flows.csv}, ties by flow id; QPN = flow id + 1, as the runner
 *     numbers QPs) from {@code rates.csv}, Gb/s against us, one point per sample while the QP was active;</li>
 * <li>{@code slowdown.png}: the CDF of FCT slowdown (FCT / ideal FCT) of the completed flows of
 *     {@code flows.csv}, one line per size bucket of the summary ({@link Reports#bucketName}).</li>
 * </ul>
 * A queue's line has a point at every sampling interval (the greatest common divisor of the
 * sample times in {@code queues.csv}), 0 where the file has no row (the runner writes no row for
 * an empty queue after the first).
 *
 * <p>Thread-safety: stateless; call after the run's files are closed.
 */
public final class RunCharts {
    /** Name of the queue chart. */
    public static final String QUEUES_FILE = "queues.png";
    /** Name of the rate chart. */
    public static final String RATES_FILE = "rates.png";
    /** Name of the slowdown CDF chart. */
    public static final String SLOWDOWN_FILE = "slowdown.png";
    /** Queues drawn in {@code queues.png}. */
    public static final int MAX_QUEUES = 8;
    /** Most sample times one queue's line may have (the grid of {@code queues.csv}); more is refused as bad input. */
    static final long MAX_SAMPLES = 1_000_000;
    /** Flows drawn in {@code rates.png}. */
    public static final int MAX_RATE_FLOWS = 20;

    private RunCharts() {
    }

    /**
     * Draws the four figures of a run directory written by {@code nicsim run} (the title is the
     * scenario name from {@code run.json}, else the directory's name; flows are named by id).
     *
     * @param dir the run's output directory
     * @return the four PNG files
     * @throws IOException if a CSV file is missing or unreadable, or a PNG cannot be written
     * @throws IllegalArgumentException if a CSV row is malformed (the message names file and line)
     */
    public static List<Path> writeAll(final Path dir) throws IOException {
        return writeAll(dir, title(dir), null, 0);
    }

    /**
     * Draws the four figures after a run.
     *
     * @param dir        the run's output directory
     * @param title      chart title prefix (the scenario name)
     * @param flows      the run's flows by id (legend classes in {@code throughput.png}), or null
     * @param intervalPs {@code throughput.csv}'s sampling interval, ps, or 0 to infer it from the file
     * @return the four PNG files
     * @throws IOException if a CSV file is missing or unreadable, or a PNG cannot be written
     * @throws IllegalArgumentException if a CSV row is malformed (the message names file and line)
     */
    public static List<Path> writeAll(final Path dir, final String title, final List<FlowSpec> flows, final long intervalPs)
        throws IOException {
        System.setProperty("java.awt.headless", "true");
        final List<Path> files = new ArrayList<>();
        final long tputIntervalPs = intervalPs > 0 ? intervalPs
            : Math.max(1, gcdTimesNs(dir.resolve(TimeSeriesWriter.THROUGHPUT_FILE))) * 1000;
        files.add(ThroughputChart.write(dir, title, flows, tputIntervalPs));
        files.add(queues(dir, title));
        files.add(rates(dir, title));
        files.add(slowdown(dir, title));
        return files;
    }

    private static Path queues(final Path dir, final String title) throws IOException {
        final Map<String, TreeMap<Long, Long>> byQueue = new TreeMap<>();
        final Map<String, Long> peak = new HashMap<>();
        final long[] last = {0};
        final long[] gcd = {0};
        read(dir.resolve("queues.csv"), rec -> {
            final long t = longField(rec, "time_ns");
            final String key = rec.get("switch") + " port " + rec.get("port") + " prio " + rec.get("priority");
            final long depth = longField(rec, "depth_bytes");
            byQueue.computeIfAbsent(key, k -> new TreeMap<>()).put(t, depth);
            peak.merge(key, depth, Math::max);
            last[0] = Math.max(last[0], t);
            gcd[0] = gcd(gcd[0], t);
        });
        final XYChart chart = chart(title + ": deepest egress queues", "time (us)", "queue depth (KB, 1 KB = 1000 bytes)");
        final List<String> drawn = top(peak, MAX_QUEUES);
        final long step = Math.max(1, gcd[0]);
        if (last[0] / step > MAX_SAMPLES) {
            throw new IllegalArgumentException(dir.resolve("queues.csv") + ": time_ns: " + (last[0] / step + 1)
                + " sample times on one grid (last " + last[0] + " ns, step " + step + " ns); expected at most " + MAX_SAMPLES);
        }
        for (final String key : drawn) {
            final TreeMap<Long, Long> rows = byQueue.get(key);
            final int n = (int) (last[0] / step) + 1;
            final double[] x = new double[n];
            final double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = i * step / 1000.0;
                y[i] = rows.getOrDefault(i * step, 0L) / 1000.0;
            }
            chart.addSeries(key, x, y).setMarker(SeriesMarkers.NONE);
        }
        return save(chart, drawn.isEmpty(), dir.resolve(QUEUES_FILE));
    }

    private static Path rates(final Path dir, final String title) throws IOException {
        final Map<Integer, Long> sizes = new HashMap<>();
        read(dir.resolve("flows.csv"), rec -> sizes.put((int) longField(rec, "flow_id"), longField(rec, "size_bytes")));
        final List<Integer> drawn = top(sizes, MAX_RATE_FLOWS);
        final Map<Integer, List<double[]>> byQpn = new TreeMap<>();
        for (final int id : drawn) {
            byQpn.put(id + 1, new ArrayList<>());
        }
        read(dir.resolve("rates.csv"), rec -> {
            final List<double[]> pts = byQpn.get((int) longField(rec, "qpn"));
            if (pts != null) {
                pts.add(new double[] {longField(rec, "time_ns") / 1000.0, longField(rec, "rate_bits_per_sec") / 1e9});
            }
        });
        final XYChart chart = chart(title + ": CC rate of the " + drawn.size() + " largest flows", "time (us)", "rate (Gb/s)");
        boolean any = false;
        for (final int id : drawn) {
            final List<double[]> pts = byQpn.get(id + 1);
            if (pts.isEmpty()) {
                continue;
            }
            any = true;
            final double[] x = pts.stream().mapToDouble(p -> p[0]).toArray();
            final double[] y = pts.stream().mapToDouble(p -> p[1]).toArray();
            chart.addSeries("flow " + id + " (" + sizes.get(id) + " B)", x, y).setMarker(SeriesMarkers.NONE);
        }
        return save(chart, !any, dir.resolve(RATES_FILE));
    }

    private static Path slowdown(final Path dir, final String title) throws IOException {
        final List<FlowRecord> flows = new ArrayList<>();
        read(dir.resolve("flows.csv"), rec -> {
            final String fct = rec.get("fct_ns");
            flows.add(new FlowRecord((int) longField(rec, "flow_id"), (int) longField(rec, "src"), (int) longField(rec, "dst"),
                longField(rec, "size_bytes"), longField(rec, "start_ns"), fct.isEmpty() ? -1 : longField(rec, "fct_ns"),
                longField(rec, "ideal_fct_ns")));
        });
        final XYChart chart = chart(title + ": FCT slowdown CDF by flow size", "FCT slowdown (FCT / ideal FCT, ratio)",
            "fraction of completed flows (CDF)");
        chart.getStyler().setYAxisMax(1.0);
        boolean any = false;
        for (int b = 0; b < Reports.SIZE_BUCKETS; b++) {
            final double[] s = Reports.sortedSlowdowns(flows, Reports.bucketLowBytes(b), Reports.bucketLowBytes(b + 1));
            if (s.length == 0) {
                continue;
            }
            any = true;
            final double[] x = new double[s.length];
            final double[] y = new double[s.length];
            for (int i = 0; i < s.length; i++) {
                x[i] = s[i];
                y[i] = (i + 1) / (double) s.length;
            }
            chart.addSeries(Reports.bucketName(b) + " (" + s.length + " flows)", x, y).setMarker(SeriesMarkers.NONE);
        }
        return save(chart, !any, dir.resolve(SLOWDOWN_FILE));
    }

    /**
     * The {@code n} keys of largest score (ties: the smaller key first), in key order.
     *
     * @param score a score per key
     * @param n     most keys returned
     * @param <K>   key type
     * @return at most {@code n} keys, ascending
     */
    static <K extends Comparable<K>> List<K> top(final Map<K, Long> score, final int n) {
        final List<K> all = new ArrayList<>(score.keySet());
        all.sort(Comparator.comparingLong((K k) -> -score.get(k)).thenComparing(Comparator.naturalOrder()));
        final List<K> chosen = new ArrayList<>(all.subList(0, Math.min(n, all.size())));
        chosen.sort(Comparator.naturalOrder());
        return chosen;
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle) {
        final XYChart chart = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle)
            .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    private static Path save(final XYChart chart, final boolean empty, final Path png) throws IOException {
        if (empty) {
            chart.addSeries("no data", new double[] {1}, new double[] {0}).setMarker(SeriesMarkers.NONE);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return png;
    }

    private static long gcd(final long a, final long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static long gcdTimesNs(final Path csv) throws IOException {
        final long[] g = {0};
        read(csv, rec -> {
            g[0] = gcd(g[0], longField(rec, "time_ns"));
            longField(rec, "flow_id"); // checked here, so a bad row is named before ThroughputChart reads the file
            longField(rec, "bits_per_sec");
        });
        return g[0];
    }

    private static long longField(final CSVRecord rec, final String column) {
        try {
            return Long.parseLong(rec.get(column));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column " + column
                + ": expected an integer, got '" + (rec.isMapped(column) ? rec.get(column) : "") + "'");
        }
    }

    /** Reads a CSV file with a header, one record at a time; errors name the file (and line). */
    private static void read(final Path csv, final Consumer<CSVRecord> row) throws IOException {
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
            for (final CSVRecord rec : p) {
                row.accept(rec);
            }
        } catch (final NoSuchFileException e) {
            throw new NoSuchFileException(csv + ": no such file (is this a nicsim run directory?)");
        } catch (final IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw new IllegalArgumentException(csv + ": " + e.getMessage(), e);
        }
    }

    /** The scenario name from {@code run.json}, else the directory's name. */
    private static String title(final Path dir) throws IOException {
        final Path json = dir.resolve("run.json");
        final Path name = dir.toAbsolutePath().normalize().getFileName();
        final String fallback = name == null ? "run" : name.toString();
        if (!Files.isRegularFile(json)) {
            return fallback;
        }
        try (JsonParser p = new JsonFactory().createParser(json.toFile())) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && "scenario".equals(p.currentName()) && p.getParsingContext().getParent().inRoot()) {
                    p.nextToken();
                    return p.getText();
                }
            }
        } catch (final com.fasterxml.jackson.core.JsonProcessingException e) {
            return fallback;
        }
        return fallback;
    }
}
