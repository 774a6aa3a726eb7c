package dev.nicsim.fabric.run;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws {@code throughput.png}: per-flow throughput over time from a run's {@code throughput.csv}
 * (see {@link ThroughputSampler}), one line per flow, x in microseconds, y in Gb/s, so a run can be
 * compared by eye with the RCM paper Fig. 6 and 7. A flow's line has a point at every interval, 0 where
 * {@code throughput.csv} has no row, from time 0 to the last row of the file. At most
 * {@link #MAX_SERIES} flows are drawn: those that delivered the most bytes (ties by flow id);
 * the legend names each as {@code flow <id> (<class>)}. Drawn with XChart, headless
 * ({@code java.awt.headless=true} is set before the first AWT use), 1000 x 560 pixels.
 *
 * <p>Thread-safety: stateless; call after the run, once {@code throughput.csv} is closed.
 */
public final class ThroughputChart {
    /** Name of the chart file. */
    public static final String FILE = "throughput.png";
    /** Most flows drawn. */
    public static final int MAX_SERIES = 20;

    private ThroughputChart() {
    }

    /**
     * Reads {@code dir/throughput.csv} and writes {@code dir/throughput.png}.
     *
     * @param dir   the run's output directory
     * @param title chart title (the scenario name)
     * @param flows the run's flows by id (for the legend's classes), or null to name flows by id only
     * @param intervalPs the sampling interval of {@code throughput.csv}, ps, {@code > 0}
     * @return the PNG file
     * @throws IOException if the CSV cannot be read or the PNG written
     * @throws IllegalArgumentException if the interval is not positive
     */
    public static Path write(final Path dir, final String title, final List<FlowSpec> flows, final long intervalPs)
        throws IOException {
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("intervalPs must be > 0, got " + intervalPs);
        }
        System.setProperty("java.awt.headless", "true");
        final Map<Integer, TreeMap<Long, Double>> byFlow = new TreeMap<>();
        final Map<Integer, Double> totals = new TreeMap<>();
        final double intervalNs = intervalPs / 1000.0;
        long lastNs = 0;
        try (Reader r = Files.newBufferedReader(dir.resolve(TimeSeriesWriter.THROUGHPUT_FILE), StandardCharsets.UTF_8);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
            for (final CSVRecord rec : p) {
                final long t = Long.parseLong(rec.get("time_ns"));
                final int id = Integer.parseInt(rec.get("flow_id"));
                final double gbps = Long.parseLong(rec.get("bits_per_sec")) / 1e9;
                byFlow.computeIfAbsent(id, k -> new TreeMap<>()).put(t, gbps);
                totals.merge(id, gbps, Double::sum);
                lastNs = Math.max(lastNs, t);
            }
        }
        final XYChart chart = new XYChartBuilder().width(1000).height(560).title(title + ": per-flow throughput")
            .xAxisTitle("time (us)").yAxisTitle("throughput (Gb/s)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisMin(0.0);
        final List<Integer> chosen = new ArrayList<>(totals.keySet());
        chosen.sort(Comparator.comparingDouble((Integer id) -> -totals.get(id)).thenComparingInt(id -> id));
        final List<Integer> drawn = new ArrayList<>(chosen.subList(0, Math.min(MAX_SERIES, chosen.size())));
        drawn.sort(Comparator.naturalOrder());
        for (final int id : drawn) {
            final TreeMap<Long, Double> rows = byFlow.get(id);
            final int n = (int) Math.round(lastNs / intervalNs) + 1;
            final double[] x = new double[n];
            final double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                final long t = i * intervalPs / 1000; // the sampler stamps rows with k x interval, in ns
                x[i] = t / 1000.0;
                y[i] = rows.getOrDefault(t, 0.0);
            }
            final String name = flows == null ? "flow " + id
                : "flow " + id + " (" + (id < flows.size() ? flows.get(id).flowClass() : FlowSpec.DEFAULT_CLASS) + ")";
            chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
        }
        if (drawn.isEmpty()) {
            chart.addSeries("no data delivered", new double[] {0}, new double[] {0}).setMarker(SeriesMarkers.NONE);
        }
        final Path png = dir.resolve(FILE);
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return png;
    }
}
