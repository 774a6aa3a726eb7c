package dev.nicsim.sweep;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sweep.png}: p95 (left) and p99 (right) FCT slowdown against the sweep's first dimension,
 * one line per value of the second dimension (one line when there is none). Each point is the
 * mean over the ok rows with those two values (its seeds, and the values of any further
 * dimensions), with a band from their minimum to their maximum. The x axis is numeric when every
 * value of the first dimension is a number, else the values are placed at 1, 2, ... and labelled
 * with their text. Two 800 x 520 charts side by side, XChart, headless.
 *
 * <p>Thread-safety: stateless.
 */
final class SweepChart {
    /** Name of the figure. */
    static final String FILE = "sweep.png";
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    private SweepChart() {
    }

    static void write(final SweepSpec spec, final List<PointRow> rows, final Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final BufferedImage left = BitmapEncoder.getBufferedImage(chart(spec, rows, "slowdown_p95", "p95"));
        final BufferedImage right = BitmapEncoder.getBufferedImage(chart(spec, rows, "slowdown_p99", "p99"));
        final BufferedImage both = new BufferedImage(left.getWidth() + right.getWidth(), Math.max(left.getHeight(),
            right.getHeight()), BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = both.createGraphics();
        g.drawImage(left, 0, 0, null);
        g.drawImage(right, left.getWidth(), 0, null);
        g.dispose();
        ImageIO.write(both, "png", png.toFile());
    }

    private static XYChart chart(final SweepSpec spec, final List<PointRow> rows, final String metric, final String label) {
        final List<SweepSpec.Dimension> dims = spec.dimensions();
        final SweepSpec.Dimension xDim = dims.isEmpty() ? null : dims.get(0);
        final SweepSpec.Dimension lineDim = dims.size() < 2 ? null : dims.get(1);
        final int nx = xDim == null ? 1 : xDim.size();
        final int nl = lineDim == null ? 1 : lineDim.size();
        boolean numeric = xDim != null;
        final double[] xs = new double[nx];
        for (int i = 0; i < nx && xDim != null; i++) {
            try {
                xs[i] = Double.parseDouble(xDim.label(i));
            } catch (final NumberFormatException e) {
                numeric = false;
            }
        }
        if (!numeric) {
            for (int i = 0; i < nx; i++) {
                xs[i] = i + 1;
            }
        }
        final String xTitle = xDim == null ? "(no axis)" : xDim.name();
        final XYChart chart = new XYChartBuilder().width(800).height(520)
            .title(spec.name() + ": " + label + " FCT slowdown (mean over seeds, band min-max)")
            .xAxisTitle(xTitle).yAxisTitle(label + " FCT slowdown (FCT / ideal FCT, ratio)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisMin(0.0);
        if (!numeric && xDim != null) {
            chart.getStyler().setxAxisTickLabelsFormattingFunction(v -> {
                final int i = (int) Math.round(v) - 1;
                return Math.abs(v - (i + 1)) < 1e-9 && i >= 0 && i < nx ? xDim.label(i) : "";
            });
        }
        boolean any = false;
        for (int l = 0; l < nl; l++) {
            final List<Double> px = new ArrayList<>();
            final List<double[]> stats = new ArrayList<>();
            for (int i = 0; i < nx; i++) {
                final List<Double> v = new ArrayList<>();
                for (final PointRow r : rows) {
                    final int[] idx = spec.indices(r.point());
                    final String text = r.metrics().getOrDefault(metric, "");
                    if (r.ok() && !text.isEmpty() && (xDim == null || idx[0] == i) && (lineDim == null || idx[1] == l)) {
                        v.add(Double.parseDouble(text));
                    }
                }
                if (!v.isEmpty()) {
                    px.add(xs[i]);
                    stats.add(new double[] {v.stream().mapToDouble(Double::doubleValue).average().orElse(0),
                        v.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                        v.stream().mapToDouble(Double::doubleValue).max().orElse(0)});
                }
            }
            if (px.isEmpty()) {
                continue;
            }
            any = true;
            final int n = px.size();
            final Color color = COLORS[l % COLORS.length];
            final double[] bx = new double[2 * n];
            final double[] by = new double[2 * n];
            for (int i = 0; i < n; i++) {
                bx[i] = px.get(i);
                by[i] = stats.get(i)[2];
                bx[2 * n - 1 - i] = px.get(i);
                by[2 * n - 1 - i] = stats.get(i)[1];
            }
            final String name = lineDim == null ? label : lineDim.name() + "=" + lineDim.label(l);
            final XYSeries band = chart.addSeries(name + " min-max", bx, by);
            band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
            band.setFillColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 50));
            band.setLineColor(new Color(0, 0, 0, 0));
            band.setMarker(SeriesMarkers.NONE);
            band.setShowInLegend(false);
            final XYSeries mean = chart.addSeries(name, px.stream().mapToDouble(Double::doubleValue).toArray(),
                stats.stream().mapToDouble(s -> s[0]).toArray());
            mean.setLineColor(color);
            mean.setMarkerColor(color);
            mean.setMarker(SeriesMarkers.CIRCLE);
        }
        if (!any) {
            chart.addSeries("no ok point", new double[] {xs[0]}, new double[] {0}).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }
}
