package dev.nicsim.fabric.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.FlowSpec;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;

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
 * A queue's line goes through every sampling interval (the greatest common divisor of the
 * sample times in {@code queues.csv}), 0 where the file has no row (the runner writes no row for
 * an empty queue after the first). Every line is reduced to the figure's width ({@link PixelColumns}:
 * per pixel column the first, last, least and greatest point, so peaks survive), so a figure costs
 * about the same to draw however many samples the files hold. Bad input (a missing file or column,
 * a malformed row, text that is not UTF-8) is one message naming the file and line, before any
 * figure is written.
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
    /** Flows drawn in {@code rates.png}. */
    public static final int MAX_RATE_FLOWS = 20;
    /** Width of every figure, pixels; also the number of columns each line is reduced to ({@link PixelColumns}). */
    public static final int WIDTH_PX = 1000;
    /** Height of every figure, pixels. */
    public static final int HEIGHT_PX = 560;
    /** Largest {@code time_ns} accepted: the simulator's clock counts picoseconds in a {@code long}. */
    static final long MAX_TIME_NS = Long.MAX_VALUE / Units.PS_PER_NS;

    private RunCharts() {
    }

    /**
     * Draws the four figures of a run directory written by {@code nicsim run} (the title is the
     * scenario name from {@code run.json}, else the directory's name; flows are named by id).
     *
     * @param dir the run's output directory
     * @return the four PNG files
     * @throws IOException if a CSV file is missing or unreadable, or a PNG cannot be written
     * @throws IllegalArgumentException if a CSV file is malformed (the message names file and line)
     */
    public static List<Path> writeAll(final Path dir) throws IOException {
        return writeAll(dir, title(dir), null, 0);
    }

    /**
     * Draws the four figures after a run. Every CSV file is read and every chart built before the
     * first PNG is written, and the PNGs are written to temporary files moved into place at the
     * end, so bad input leaves no figure behind (and no figure of an earlier run is replaced).
     *
     * @param dir        the run's output directory
     * @param title      chart title prefix (the scenario name)
     * @param flows      the run's flows by id (legend classes in {@code throughput.png}), or null
     * @param intervalPs {@code throughput.csv}'s sampling interval, ps, or 0 to infer it from the file
     *                   (the greatest common divisor of its times)
     * @return the four PNG files
     * @throws IOException if a CSV file is missing or unreadable, or a PNG cannot be written
     * @throws IllegalArgumentException if a CSV file is malformed (the message names file and line)
     */
    public static List<Path> writeAll(final Path dir, final String title, final List<FlowSpec> flows, final long intervalPs)
        throws IOException {
        final List<Map.Entry<Path, XYChart>> charts = charts(dir, title, flows, intervalPs);
        saveAll(charts);
        return charts.stream().map(Map.Entry::getKey).toList();
    }

    /**
     * The four charts, built from the CSV files without writing anything.
     *
     * @param dir        the run's output directory
     * @param title      chart title prefix
     * @param flows      the run's flows by id, or null
     * @param intervalPs {@code throughput.csv}'s sampling interval, ps, or 0 to infer it
     * @return each PNG file with its chart, in the order throughput, queues, rates, slowdown
     * @throws IOException if a CSV file is missing or unreadable
     * @throws IllegalArgumentException if a CSV file is malformed
     */
    static List<Map.Entry<Path, XYChart>> charts(final Path dir, final String title, final List<FlowSpec> flows,
                                                  final long intervalPs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        return List.of(Map.entry(dir.resolve(ThroughputChart.FILE), ThroughputChart.chart(dir, title, flows, intervalPs)),
            Map.entry(dir.resolve(QUEUES_FILE), queues(dir, title)),
            Map.entry(dir.resolve(RATES_FILE), rates(dir, title)),
            Map.entry(dir.resolve(SLOWDOWN_FILE), slowdown(dir, title)));
    }

    /**
     * Writes charts as PNG files: each to a temporary file beside it, then all moved into place, so
     * a failed write leaves none of them half-written or mixed with older ones.
     *
     * @param charts each PNG file with its chart
     * @throws IOException if a file cannot be written or moved (the temporary files are removed)
     */
    static void saveAll(final List<Map.Entry<Path, XYChart>> charts) throws IOException {
        final List<Path> tmps = new ArrayList<>();
        try {
            for (final Map.Entry<Path, XYChart> c : charts) {
                final Path tmp = c.getKey().resolveSibling(c.getKey().getFileName() + ".tmp");
                tmps.add(tmp);
                try (OutputStream o = Files.newOutputStream(tmp)) {
                    BitmapEncoder.saveBitmap(c.getValue(), o, BitmapEncoder.BitmapFormat.PNG);
                }
            }
            for (int i = 0; i < charts.size(); i++) {
                Files.move(tmps.get(i), charts.get(i).getKey(), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            for (final Path t : tmps) {
                Files.deleteIfExists(t);
            }
        }
    }

    /**
     * A grid of sample times: {@code n} times {@code time(0) = 0 < time(1) < ... < time(n - 1)}, ns.
     *
     * @param n             number of grid times, at least 1
     * @param time          the time of grid index i, ns
     * @param indexAtOrAfter the least grid index whose time is {@code >= t} (may be {@code n})
     */
    record Grid(long n, LongUnaryOperator time, LongUnaryOperator indexAtOrAfter) {
        /**
         * @param stepNs the interval, ns, at least 1
         * @param lastNs the last time, ns, {@code >= 0}
         * @return times {@code 0, step, 2 step, ...} up to {@code lastNs}
         */
        static Grid uniform(final long stepNs, final long lastNs) {
            return new Grid(lastNs / stepNs + 1, i -> i * stepNs, t -> RunCharts.ceilDiv(t, stepNs));
        }
    }

    /**
     * The line of one series sampled on a grid: its value at each grid time, 0 where it has no row,
     * times in us ({@link Units#usFromNs}), values times {@code scale}; reduced to {@link #WIDTH_PX}
     * columns over the grid's time range. Only the rows and the grid times next to them (their 0s,
     * when no row is there) are visited, which is the same polyline as every grid time; a row off
     * the grid is drawn at its own time.
     *
     * @param rows  time (ns) to value
     * @param grid  the grid
     * @param scale factor applied to every value
     * @return the reduced line
     */
    static PixelColumns gridLine(final TreeMap<Long, ? extends Number> rows, final Grid grid, final double scale) {
        final TreeMap<Long, Double> points = new TreeMap<>();
        final long lastNs;
        try {
            lastNs = grid.time().applyAsLong(grid.n() - 1);
            for (final Map.Entry<Long, ? extends Number> r : rows.entrySet()) {
                points.put(r.getKey(), r.getValue().doubleValue() * scale);
            }
            points.putIfAbsent(0L, 0.0);
            points.putIfAbsent(lastNs, 0.0);
            for (final long t : rows.keySet()) {
                final long i = grid.indexAtOrAfter().applyAsLong(t);
                if (i > 0 && i - 1 < grid.n()) {
                    points.putIfAbsent(grid.time().applyAsLong(i - 1), 0.0);
                }
                final long next = i < grid.n() && grid.time().applyAsLong(i) == t ? i + 1 : i;
                if (next < grid.n()) {
                    points.putIfAbsent(grid.time().applyAsLong(next), 0.0);
                }
            }
        } catch (final ArithmeticException e) {
            throw new IllegalArgumentException("time_ns: the sample times overflow the picosecond clock (at most "
                + MAX_TIME_NS + " ns)");
        }
        final PixelColumns line = new PixelColumns(0, Units.usFromNs(Math.max(lastNs, points.lastKey())), WIDTH_PX);
        for (final Map.Entry<Long, Double> p : points.entrySet()) {
            line.add(Units.usFromNs(p.getKey()), p.getValue());
        }
        return line;
    }

    private static XYChart queues(final Path dir, final String title) throws IOException {
        final Map<String, TreeMap<Long, Long>> byQueue = new TreeMap<>();
        final Map<String, Long> peak = new HashMap<>();
        final long[] last = {0};
        final long[] gcd = {0};
        read(dir.resolve("queues.csv"), List.of("time_ns", "switch", "port", "priority", "depth_bytes"), rec -> {
            final long t = timeField(rec, "time_ns");
            final String key = rec.get("switch") + " port " + rec.get("port") + " prio " + rec.get("priority");
            final long depth = longField(rec, "depth_bytes");
            byQueue.computeIfAbsent(key, k -> new TreeMap<>()).put(t, depth);
            peak.merge(key, depth, Math::max);
            last[0] = Math.max(last[0], t);
            gcd[0] = gcd(gcd[0], t);
        });
        final XYChart chart = chart(title + ": deepest egress queues", "time (us)", "queue depth (KB, 1 KB = 1000 bytes)");
        final List<String> drawn = top(peak, MAX_QUEUES);
        final Grid grid = Grid.uniform(Math.max(1, gcd[0]), last[0]);
        for (final String key : drawn) {
            final PixelColumns line = gridLine(byQueue.get(key), grid, 1 / 1000.0);
            chart.addSeries(key, line.xs(), line.ys()).setMarker(SeriesMarkers.NONE);
        }
        return chart(chart, drawn.isEmpty());
    }

    private static XYChart rates(final Path dir, final String title) throws IOException {
        final Map<Integer, Long> sizes = new HashMap<>();
        read(dir.resolve("flows.csv"), FLOWS_COLUMNS, rec -> sizes.put(intField(rec, "flow_id"), longField(rec, "size_bytes")));
        final List<Integer> drawn = top(sizes, MAX_RATE_FLOWS);
        final Map<Long, TreeMap<Long, Long>> byQpn = new TreeMap<>();
        for (final int id : drawn) {
            byQpn.put(id + 1L, new TreeMap<>());
        }
        read(dir.resolve("rates.csv"), List.of("time_ns", "qpn", "rate_bits_per_sec"), rec -> {
            final long t = timeField(rec, "time_ns");
            final TreeMap<Long, Long> pts = byQpn.get(longField(rec, "qpn"));
            final long rate = longField(rec, "rate_bits_per_sec");
            if (pts != null) {
                pts.put(t, rate);
            }
        });
        final XYChart chart = chart(title + ": CC rate of the " + drawn.size() + " largest flows", "time (us)", "rate (Gb/s)");
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        for (final TreeMap<Long, Long> pts : byQpn.values()) {
            if (!pts.isEmpty()) {
                xMin = Math.min(xMin, Units.usFromNs(pts.firstKey()));
                xMax = Math.max(xMax, Units.usFromNs(pts.lastKey()));
            }
        }
        boolean any = false;
        for (final int id : drawn) {
            final TreeMap<Long, Long> pts = byQpn.get(id + 1L);
            if (pts.isEmpty()) {
                continue;
            }
            any = true;
            final PixelColumns line = new PixelColumns(xMin, xMax, WIDTH_PX);
            for (final Map.Entry<Long, Long> p : pts.entrySet()) {
                line.add(Units.usFromNs(p.getKey()), p.getValue() / 1e9);
            }
            chart.addSeries("flow " + id + " (" + sizes.get(id) + " B)", line.xs(), line.ys()).setMarker(SeriesMarkers.NONE);
        }
        return chart(chart, !any);
    }

    private static XYChart slowdown(final Path dir, final String title) throws IOException {
        final List<FlowRecord> flows = new ArrayList<>();
        read(dir.resolve("flows.csv"), FLOWS_COLUMNS, rec -> {
            final String fct = rec.get("fct_ns");
            flows.add(new FlowRecord(intField(rec, "flow_id"), intField(rec, "src"), intField(rec, "dst"),
                longField(rec, "size_bytes"), longField(rec, "start_ns"), fct.isEmpty() ? -1 : atLeast(rec, "fct_ns", 0),
                // slowdown = fct / ideal: a completed flow's ideal of 0 would put an infinite value on the x axis
                fct.isEmpty() ? longField(rec, "ideal_fct_ns") : atLeast(rec, "ideal_fct_ns", 1)));
        });
        final XYChart chart = chart(title + ": FCT slowdown CDF by flow size", "FCT slowdown (FCT / ideal FCT, ratio)",
            "fraction of completed flows (CDF)");
        chart.getStyler().setYAxisMax(1.0);
        final List<double[]> buckets = new ArrayList<>();
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < Reports.SIZE_BUCKETS; b++) {
            final double[] s = Reports.sortedSlowdowns(flows, Reports.bucketLowBytes(b), Reports.bucketLowBytes(b + 1));
            buckets.add(s);
            if (s.length > 0) {
                xMin = Math.min(xMin, s[0]);
                xMax = Math.max(xMax, s[s.length - 1]);
            }
        }
        boolean any = false;
        for (int b = 0; b < Reports.SIZE_BUCKETS; b++) {
            final double[] s = buckets.get(b);
            if (s.length == 0) {
                continue;
            }
            any = true;
            final PixelColumns line = new PixelColumns(xMin, xMax, WIDTH_PX);
            for (int i = 0; i < s.length; i++) {
                line.add(s[i], (i + 1) / (double) s.length);
            }
            chart.addSeries(Reports.bucketName(b) + " (" + s.length + " flows)", line.xs(), line.ys())
                .setMarker(SeriesMarkers.NONE);
        }
        return chart(chart, !any);
    }

    /** The columns {@code rates.png} and {@code slowdown.png} read from {@code flows.csv}. */
    private static final List<String> FLOWS_COLUMNS = List.of("flow_id", "src", "dst", "size_bytes", "start_ns", "fct_ns",
        "ideal_fct_ns");

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
        final XYChart chart = new XYChartBuilder().width(WIDTH_PX).height(HEIGHT_PX).title(title).xAxisTitle(xTitle)
            .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    /** The chart, with a "no data" series when nothing was drawn (XChart cannot draw an empty chart). */
    private static XYChart chart(final XYChart chart, final boolean empty) {
        if (empty) {
            chart.addSeries("no data", new double[] {1}, new double[] {0}).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /**
     * @param a a value, {@code >= 0}
     * @param b a divisor, {@code > 0}
     * @return {@code a / b} rounded up (Java 17 has no {@code Math.ceilDiv})
     */
    static long ceilDiv(final long a, final long b) {
        return -Math.floorDiv(-a, b);
    }

    /**
     * @param a a value
     * @param b another
     * @return their greatest common divisor (a when b is 0)
     */
    static long gcd(final long a, final long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * An integer field.
     *
     * @param rec    a record
     * @param column its column (present: {@link #read} checks the header)
     * @return the value
     * @throws IllegalArgumentException {@code line N: column C: expected an integer, got 'X'}
     */
    static long longField(final CSVRecord rec, final String column) {
        try {
            return Long.parseLong(rec.get(column));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column " + column
                + ": expected an integer, got '" + rec.get(column) + "'");
        }
    }

    /** An integer field of at least {@code min}. */
    private static long atLeast(final CSVRecord rec, final String column, final long min) {
        final long v = longField(rec, column);
        if (v < min) {
            throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column " + column
                + ": expected an integer >= " + min + ", got " + v);
        }
        return v;
    }

    /** An integer field that must fit an int and not be negative (ids, host numbers). */
    private static int intField(final CSVRecord rec, final String column) {
        final long v = longField(rec, column);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column " + column
                + ": expected an integer in [0, " + Integer.MAX_VALUE + "], got " + v);
        }
        return (int) v;
    }

    /**
     * A time field, ns.
     *
     * @param rec    a record
     * @param column its column
     * @return the time, in {@code [0, MAX_TIME_NS]}
     * @throws IllegalArgumentException naming the line and column when it is not an integer in that range
     */
    static long timeField(final CSVRecord rec, final String column) {
        final long v = longField(rec, column);
        if (v < 0 || v > MAX_TIME_NS) {
            throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column " + column
                + ": expected a time in ns in [0, " + MAX_TIME_NS + "] (the simulator's picosecond clock), got " + v);
        }
        return v;
    }

    /**
     * Reads a CSV file with a header, one record at a time. Every error is an
     * {@link IllegalArgumentException} whose message starts with the file, then the line where known:
     * a missing column ({@code line 1: missing column C; expected columns ...}), a row with fewer or
     * more values than the header (a line cut short), text that is not valid CSV (a quoted field
     * the end of the file cuts off), text that is not UTF-8 (the line of the first malformed byte),
     * and whatever {@code row} throws.
     *
     * @param csv     the file
     * @param columns the columns the caller reads; each must be in the header
     * @param row     called with each record, in order
     * @throws NoSuchFileException ({@code FILE: no such file ...}) if the file is missing
     * @throws IOException if it cannot be read for another reason (named by the command)
     */
    static void read(final Path csv, final List<String> columns, final Consumer<CSVRecord> row) throws IOException {
        long recordLine = 1; // the line where the record being read starts: the header's, then each row's
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
            recordLine = p.getCurrentLineNumber() + 1;
            for (final String c : columns) {
                if (!p.getHeaderMap().containsKey(c)) {
                    throw new IllegalArgumentException("line 1: missing column " + c + "; expected columns "
                        + String.join(", ", columns));
                }
            }
            final int width = p.getHeaderNames().size();
            for (final CSVRecord rec : p) {
                if (rec.size() != width) {
                    throw new IllegalArgumentException("line " + recordLine + ": " + rec.size() + " values, expected "
                        + width + " (" + String.join(", ", p.getHeaderNames()) + ")" + (rec.size() < width
                        ? "; is the line cut short?" : ""));
                }
                row.accept(rec);
                recordLine = p.getCurrentLineNumber() + 1;
            }
        } catch (final NoSuchFileException e) {
            throw new NoSuchFileException(csv + ": no such file (is this a nicsim run directory?)");
        } catch (final IOException | UncheckedIOException | IllegalStateException e) {
            if (Utf8Lines.isDecodingError(e)) {
                final long line = Utf8Lines.firstMalformedLine(csv);
                throw new IllegalArgumentException(csv + ": " + (line > 0 ? "line " + line + ": " : "")
                    + "not UTF-8 text (a malformed byte sequence)", e);
            }
            final Throwable csvError = Causes.find(e, CSVException.class);
            if (csvError == null) {
                if (e instanceof UncheckedIOException u) {
                    throw u.getCause();
                }
                if (e instanceof IOException io) {
                    throw io;
                }
                throw new IllegalArgumentException(csv + ": " + e.getMessage(), e);
            }
            // the parser's text starts "(startline N) " (N counts the header); the line is said once, in our words
            throw new IllegalArgumentException(csv + ": line " + recordLine + ": not valid CSV: "
                + csvError.getMessage().replaceFirst("^\\(startline \\d+\\) ", ""), e);
        } catch (final IllegalArgumentException e) {
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
