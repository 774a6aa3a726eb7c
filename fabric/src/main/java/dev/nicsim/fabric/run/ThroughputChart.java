package dev.nicsim.fabric.run;

import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.FlowSpec;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
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
 * the legend names each as {@code flow <id> (<class>)}. Each line is reduced to the chart's width
 * ({@link PixelColumns}: at most 4 points per pixel column, the column's first, last, least and
 * greatest), so drawing takes the same time however many samples the file has. Drawn with XChart,
 * headless ({@code java.awt.headless=true} is set before the first AWT use), 1000 x 560 pixels.
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
     * @throws IllegalArgumentException if the interval is not positive, or a row of the CSV file is
     *         malformed (the message names the file and line; nothing is written then)
     */
    public static Path write(final Path dir, final String title, final List<FlowSpec> flows, final long intervalPs)
        throws IOException {
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("intervalPs must be > 0, got " + intervalPs);
        }
        final Path png = dir.resolve(FILE);
        RunCharts.saveAll(List.of(Map.entry(png, chart(dir, title, flows, intervalPs))));
        return png;
    }

    /**
     * Builds the chart of {@code dir/throughput.csv} without writing anything. A flow's line is the
     * polyline through every grid time (k x interval, in ns as the sampler stamps rows) with its
     * value, or 0 where the file has no row, reduced to the chart's width ({@link PixelColumns});
     * the grid is never materialised: a flow's zeros are drawn at the grid times next to its rows,
     * which is the same line.
     *
     * @param dir        the run's output directory
     * @param title      chart title (the scenario name)
     * @param flows      the run's flows by id, or null
     * @param intervalPs the sampling interval, ps, or 0 to use the greatest common divisor of the file's times
     * @return the chart
     * @throws IOException if the CSV cannot be read
     * @throws IllegalArgumentException if a row is malformed (naming the file and line)
     */
    static XYChart chart(final Path dir, final String title, final List<FlowSpec> flows, final long intervalPs)
        throws IOException {
        System.setProperty("java.awt.headless", "true");
        final Path csv = dir.resolve(TimeSeriesWriter.THROUGHPUT_FILE);
        final Map<Integer, TreeMap<Long, Double>> byFlow = new TreeMap<>();
        final Map<Integer, Double> totals = new TreeMap<>();
        final long[] lastNs = {0};
        final long[] gcd = {0};
        RunCharts.read(csv, List.of("time_ns", "flow_id", "bits_per_sec"), rec -> {
            final long t = RunCharts.timeField(rec, "time_ns");
            final long id = RunCharts.longField(rec, "flow_id");
            if (id < 0 || id > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("line " + (rec.getRecordNumber() + 1) + ": column flow_id: expected an"
                    + " integer in [0, " + Integer.MAX_VALUE + "], got " + id);
            }
            final double gbps = RunCharts.longField(rec, "bits_per_sec") / 1e9;
            byFlow.computeIfAbsent((int) id, k -> new TreeMap<>()).put(t, gbps);
            totals.merge((int) id, gbps, Double::sum);
            lastNs[0] = Math.max(lastNs[0], t);
            gcd[0] = RunCharts.gcd(gcd[0], t);
        });
        final XYChart chart = new XYChartBuilder().width(RunCharts.WIDTH_PX).height(RunCharts.HEIGHT_PX)
            .title(title + ": per-flow throughput").xAxisTitle("time (us)").yAxisTitle("throughput (Gb/s)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisMin(0.0);
        final List<Integer> chosen = new ArrayList<>(totals.keySet());
        chosen.sort(Comparator.comparingDouble((Integer id) -> -totals.get(id)).thenComparingInt(id -> id));
        final List<Integer> drawn = new ArrayList<>(chosen.subList(0, Math.min(MAX_SERIES, chosen.size())));
        drawn.sort(Comparator.naturalOrder());
        final RunCharts.Grid grid;
        if (intervalPs > 0) {
            final long n = Math.round(lastNs[0] * (double) Units.PS_PER_NS / intervalPs) + 1;
            // the sampler stamps rows with k x interval in ns, rounded down
            grid = new RunCharts.Grid(n, i -> Math.multiplyExact(i, intervalPs) / Units.PS_PER_NS,
                t -> RunCharts.ceilDiv(Math.multiplyExact(t, Units.PS_PER_NS), intervalPs));
        } else {
            grid = RunCharts.Grid.uniform(Math.max(1, gcd[0]), lastNs[0]);
        }
        for (final int id : drawn) {
            final String name = flows == null ? "flow " + id
                : "flow " + id + " (" + (id < flows.size() ? flows.get(id).flowClass() : FlowSpec.DEFAULT_CLASS) + ")";
            final PixelColumns line = RunCharts.gridLine(byFlow.get(id), grid, 1.0);
            chart.addSeries(name, line.xs(), line.ys()).setMarker(SeriesMarkers.NONE);
        }
        if (drawn.isEmpty()) {
            chart.addSeries("no data delivered", new double[] {0}, new double[] {0}).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }
}
