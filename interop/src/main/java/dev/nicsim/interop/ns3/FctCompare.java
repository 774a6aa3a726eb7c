package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;
import dev.nicsim.fabric.run.Reports;
import dev.nicsim.scenario.ScenarioException;
import org.apache.commons.csv.CSVPrinter;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Side-by-side comparison of two {@code fct.txt} files ({@code nicsim compare}): flows are matched
 * by (source IP, destination IP, size, start ns) (a start 1 ns apart also matches, for start
 * times rounded differently), and for the matched flows the FCT slowdown ({@code fct /
 * standalone_fct}, at least 1, each side's own standalone FCT) is summarised by nearest-rank
 * p50/p95/p99, overall ({@code all}) and per size bucket ({@code <10KB}, {@code 10-100KB},
 * {@code 100KB-1MB}, {@code >=1MB}; KB = 1000 bytes, as the run summary). Ratio = nicsim /
 * reference.
 *
 * <p>Thread-safety: a result is immutable.
 */
public final class FctCompare {
    /** Bucket names, {@code all} first. */
    public static final List<String> BUCKETS = List.of("all", "<10KB", "10-100KB", "100KB-1MB", ">=1MB");
    /** Percentiles reported. */
    public static final double[] PERCENTILES = {50, 95, 99};
    private static final long[] EDGES = {10_000, 100_000, 1_000_000};

    /**
     * One row of {@code compare.csv}.
     *
     * @param bucket     bucket name
     * @param percentile {@code p50}, {@code p95} or {@code p99}
     * @param nicsim     nicsim's slowdown at that percentile (NaN if the bucket is empty)
     * @param reference  the reference's
     * @param flows      matched flows in the bucket
     */
    public record Row(String bucket, String percentile, double nicsim, double reference, int flows) {
        /** @return nicsim / reference */
        public double ratio() {
            return nicsim / reference;
        }
    }

    /**
     * The comparison.
     *
     * @param rows               rows by bucket then percentile
     * @param matched            flows found in both files
     * @param unmatchedNicsim    flows of the run's file with no partner in the reference
     * @param unmatchedReference flows of the reference with no partner in the run's file
     * @param nicsimSlowdowns    slowdowns of the matched flows (run), in match order
     * @param referenceSlowdowns slowdowns of the same flows (reference)
     * @param sizes              their sizes, bytes
     */
    public record Result(List<Row> rows, int matched, int unmatchedNicsim, int unmatchedReference, double[] nicsimSlowdowns,
                         double[] referenceSlowdowns, long[] sizes) {
        /**
         * Writes {@code compare.csv} ({@code bucket,percentile,nicsim,reference,ratio}) and
         * {@code compare.png} (slowdown CDFs of both, and p95 per bucket).
         *
         * @param dir output directory (created if missing)
         * @throws IOException on write failure
         */
        public void write(final Path dir) throws IOException {
            Files.createDirectories(dir);
            try (CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(dir.resolve("compare.csv"),
                java.nio.charset.StandardCharsets.UTF_8), org.apache.commons.csv.CSVFormat.DEFAULT.builder()
                .setHeader("bucket", "percentile", "nicsim", "reference", "ratio").setRecordSeparator('\n').get())) {
                for (final Row r : rows) {
                    p.printRecord(r.bucket(), r.percentile(), f3(r.nicsim()), f3(r.reference()), f3(r.ratio()));
                }
            }
            chart(dir.resolve("compare.png"));
        }

        /**
         * Prints the table and the match counts.
         *
         * @param out where to print
         */
        public void print(final PrintStream out) {
            out.printf(Locale.ROOT, "flows matched %d; unmatched: %d in the run, %d in the reference%n", matched,
                unmatchedNicsim, unmatchedReference);
            out.printf(Locale.ROOT, "%-10s %7s %4s %9s %9s %7s%n", "bucket", "flows", "pct", "nicsim", "reference", "ratio");
            for (final Row r : rows) {
                out.printf(Locale.ROOT, "%-10s %7d %4s %9s %9s %7s%n", r.bucket(), r.flows(), r.percentile(), f3(r.nicsim()),
                    f3(r.reference()), f3(r.ratio()));
            }
        }

        private void chart(final Path png) throws IOException {
            System.setProperty("java.awt.headless", "true");
            final XYChart cdf = new XYChartBuilder().width(700).height(500)
                .title("FCT slowdown CDF (" + matched + " flows matched, " + unmatchedNicsim + " + " + unmatchedReference
                    + " unmatched)").xAxisTitle("slowdown (fct / standalone fct)").yAxisTitle("flows (%)").build();
            cdf.getStyler().setMarkerSize(0);
            cdf.getStyler().setXAxisLogarithmic(true);
            addCdf(cdf, "nicsim", nicsimSlowdowns);
            addCdf(cdf, "reference", referenceSlowdowns);
            final CategoryChart p95 = new CategoryChartBuilder().width(700).height(500).title("p95 slowdown per size bucket")
                .xAxisTitle("flow size").yAxisTitle("p95 slowdown").build();
            final List<String> names = new ArrayList<>();
            final List<Double> ns = new ArrayList<>();
            final List<Double> ref = new ArrayList<>();
            for (final Row r : rows) {
                if ("p95".equals(r.percentile()) && r.flows() > 0) {
                    names.add(r.bucket());
                    ns.add(r.nicsim());
                    ref.add(r.reference());
                }
            }
            if (!names.isEmpty()) {
                p95.addSeries("nicsim", names, ns);
                p95.addSeries("reference", names, ref);
            }
            final List<Chart<?, ?>> charts = List.of(cdf, p95);
            BitmapEncoder.saveBitmap(charts, 1, 2, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        }

        private static void addCdf(final XYChart chart, final String name, final double[] values) {
            if (values.length == 0) {
                return;
            }
            final double[] sorted = values.clone();
            Arrays.sort(sorted);
            // the CDF at every half percent (nearest rank): a smooth curve of 201 points
            final double[] x = new double[201];
            final double[] y = new double[201];
            for (int i = 0; i <= 200; i++) {
                y[i] = i / 2.0;
                final int rank = (int) Math.ceil(y[i] / 100.0 * sorted.length);
                x[i] = sorted[Math.max(0, rank - 1)];
            }
            chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
        }
    }

    private FctCompare() {
    }

    /**
     * Compares two fct files.
     *
     * @param nicsimFct    the run's {@code fct.txt}
     * @param referenceFct the reference's
     * @return the comparison, at least one flow matched
     * @throws ScenarioException for a missing file, a malformed line, or
     *                                                      when no flow of one file matches a flow
     *                                                      of the other (nothing to compare)
     */
    public static Result compare(final Path nicsimFct, final Path referenceFct) {
        final List<FctFile.Row> run = FctFile.read(nicsimFct);
        final List<FctFile.Row> reference = FctFile.read(referenceFct);
        final Result r = compare(run, reference);
        if (r.matched() == 0) {
            throw new ScenarioException(referenceFct + ": no flow matches one of " + nicsimFct
                + " by (src_ip, dst_ip, size, start_ns) (" + run.size() + " flows in the run, " + reference.size()
                + " in the reference)");
        }
        return r;
    }

    /**
     * Compares two sets of rows.
     *
     * @param run       the run's rows
     * @param reference the reference's rows
     * @return the comparison
     */
    public static Result compare(final List<FctFile.Row> run, final List<FctFile.Row> reference) {
        final Map<List<Long>, ArrayDeque<FctFile.Row>> refByKey = new HashMap<>();
        for (final FctFile.Row r : reference) {
            refByKey.computeIfAbsent(key(r, 0), k -> new ArrayDeque<>()).add(r);
        }
        // exact starts first, for every run flow, then starts 1 ns apart: a flow without an exact
        // partner must not take the exact partner of a later flow (greedy matching in one pass would)
        final FctFile.Row[] partner = new FctFile.Row[run.size()];
        for (final long[] pass : new long[][] {{0}, {-1, 1}}) {
            for (int i = 0; i < partner.length; i++) {
                for (int k = 0; k < pass.length && partner[i] == null; k++) {
                    final ArrayDeque<FctFile.Row> q = refByKey.get(key(run.get(i), pass[k]));
                    if (q != null && !q.isEmpty()) {
                        partner[i] = q.poll();
                    }
                }
            }
        }
        final List<double[]> pairs = new ArrayList<>();
        final List<Long> sizes = new ArrayList<>();
        int unmatched = 0;
        for (int i = 0; i < partner.length; i++) {
            if (partner[i] == null) {
                unmatched++;
            } else {
                pairs.add(new double[] {run.get(i).slowdown(), partner[i].slowdown()});
                sizes.add(run.get(i).sizeBytes());
            }
        }
        int refLeft = 0;
        for (final ArrayDeque<FctFile.Row> q : refByKey.values()) {
            refLeft += q.size();
        }
        final double[] a = new double[pairs.size()];
        final double[] b = new double[pairs.size()];
        final long[] s = new long[pairs.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = pairs.get(i)[0];
            b[i] = pairs.get(i)[1];
            s[i] = sizes.get(i);
        }
        final List<Row> rows = new ArrayList<>();
        for (int bucket = 0; bucket < BUCKETS.size(); bucket++) {
            final long lo = bucket == 0 ? Long.MIN_VALUE : bucket == 1 ? Long.MIN_VALUE : EDGES[bucket - 2];
            final long hi = bucket == 0 ? Long.MAX_VALUE : bucket - 1 < EDGES.length ? EDGES[bucket - 1] : Long.MAX_VALUE;
            final double[] x = select(a, s, lo, hi);
            final double[] y = select(b, s, lo, hi);
            for (final double p : PERCENTILES) {
                rows.add(new Row(BUCKETS.get(bucket), "p" + (int) p, x.length == 0 ? Double.NaN : Reports.percentile(x, p),
                    y.length == 0 ? Double.NaN : Reports.percentile(y, p), x.length));
            }
        }
        return new Result(List.copyOf(rows), a.length, unmatched, refLeft, a, b, s);
    }

    private static double[] select(final double[] v, final long[] sizes, final long lo, final long hi) {
        final double[] out = new double[v.length];
        int n = 0;
        for (int i = 0; i < v.length; i++) {
            if (sizes[i] >= lo && sizes[i] < hi) {
                out[n++] = v[i];
            }
        }
        final double[] r = Arrays.copyOf(out, n);
        Arrays.sort(r);
        return r;
    }

    private static List<Long> key(final FctFile.Row r, final long startDelta) {
        return List.of((long) r.srcIp(), (long) r.dstIp(), r.sizeBytes(), r.startNs() + startDelta);
    }

    private static String f3(final double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
