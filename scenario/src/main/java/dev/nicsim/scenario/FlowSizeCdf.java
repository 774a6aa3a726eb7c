package dev.nicsim.scenario;

import dev.nicsim.nic.RoceNic;
import dev.nicsim.riscv.IoReasons;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A flow-size distribution read from a CDF file: one point per line, {@code flow_size_bytes
 * cumulative_probability}, probability in percent (0-100) or as a fraction (0-1), detected by the
 * last value (100 or 1); {@code #} starts a comment. Sizes between points are interpolated
 * linearly, as the HPCC and pFabric traffic generators do.
 *
 * <p>Thread-safety: immutable after loading.
 */
public final class FlowSizeCdf {
    private final String source;
    /** Largest flow size a CDF point may hold, bytes (2^31 - 1, as a workload's {@code size_bytes}). */
    public static final long MAX_FLOW_BYTES = RoceNic.MAX_MESSAGE_BYTES;

    private final double[] sizes;
    private final double[] probs;

    private FlowSizeCdf(final String source, final double[] sizes, final double[] probs) {
        this.source = source;
        this.sizes = sizes;
        this.probs = probs;
    }

    /**
     * Loads and validates a CDF file.
     *
     * @param file the file
     * @return the distribution
     * @throws ScenarioException naming file and line: unreadable file, a line that is not two
     *                           numbers, decreasing sizes or probabilities, a last probability that is
     *                           neither 100 nor 1, or fewer than two points
     */
    public static FlowSizeCdf load(final Path file) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read flow-size CDF: " + IoReasons.why(e));
        }
        return parse(file.toString(), lines);
    }

    /**
     * Parses CDF lines.
     *
     * @param source name for messages
     * @param lines  the lines
     * @return the distribution
     * @throws ScenarioException as {@link #load}
     */
    public static FlowSizeCdf parse(final String source, final List<String> lines) {
        final List<double[]> pts = new ArrayList<>();
        final List<Integer> lineNos = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            final int hash = l.indexOf('#');
            if (hash >= 0) {
                l = l.substring(0, hash);
            }
            l = l.trim();
            if (l.isEmpty()) {
                continue;
            }
            final String[] parts = l.split("[\\s,]+");
            if (parts.length != 2) {
                throw new ScenarioException(source + ":" + (i + 1) + ": expected 'flow_size_bytes cumulative_probability', got '" + l + "'");
            }
            final double size;
            final double prob;
            try {
                size = Double.parseDouble(parts[0]);
                prob = Double.parseDouble(parts[1]);
            } catch (final NumberFormatException e) {
                throw new ScenarioException(source + ":" + (i + 1) + ": expected two numbers, got '" + l + "'");
            }
            if (!(size >= 0) || !(prob >= 0) || !Double.isFinite(size) || !Double.isFinite(prob)) {
                throw new ScenarioException(source + ":" + (i + 1) + ": size and probability must be finite and >= 0, got '" + l + "'");
            }
            if (size > MAX_FLOW_BYTES) { // the same limit as a workload's size_bytes
                throw new ScenarioException(source + ":" + (i + 1) + ": flow size " + fmt(size) + " bytes exceeds the "
                    + MAX_FLOW_BYTES + "-byte limit of a flow");
            }
            if (!pts.isEmpty()) {
                final double[] prev = pts.get(pts.size() - 1);
                if (size < prev[0] || prob < prev[1]) {
                    throw new ScenarioException(source + ":" + (i + 1) + ": sizes and probabilities must not decrease, got '" + l + "' after '"
                        + fmt(prev[0]) + " " + fmt(prev[1]) + "'");
                }
            }
            pts.add(new double[] {size, prob});
            lineNos.add(i + 1);
        }
        if (pts.size() < 2) {
            throw new ScenarioException(source + ": a flow-size CDF needs at least two points, found " + pts.size());
        }
        if (pts.get(pts.size() - 1)[0] < 1) { // every size 0: it would turn into 1-byte flows
            throw new ScenarioException(source + ":" + lineNos.get(lineNos.size() - 1) + ": every flow size is "
                + fmt(pts.get(pts.size() - 1)[0]) + " bytes; a flow-size CDF must reach at least 1 byte");
        }
        final double last = pts.get(pts.size() - 1)[1];
        final double scale;
        if (last == 100.0) {
            scale = 100.0;
        } else if (last == 1.0) {
            scale = 1.0;
        } else {
            throw new ScenarioException(source + ":" + lineNos.get(lineNos.size() - 1)
                + ": the last cumulative probability must be 100 (percent) or 1 (fraction), got " + fmt(last));
        }
        final double[] s = new double[pts.size()];
        final double[] p = new double[pts.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = pts.get(i)[0];
            p[i] = pts.get(i)[1] / scale;
            if (p[i] > 1.0) {
                throw new ScenarioException(source + ":" + lineNos.get(i) + ": probability " + fmt(pts.get(i)[1]) + " exceeds " + fmt(scale));
            }
        }
        return new FlowSizeCdf(source, s, p);
    }

    /** @return where the distribution came from */
    public String source() {
        return source;
    }

    /**
     * Draws a flow size by inverse-transform sampling with linear interpolation.
     *
     * @param random the stream to draw from
     * @return size in bytes, at least 1
     */
    public long sample(final SplittableRandom random) {
        return sizeAt(random.nextDouble());
    }

    /**
     * The size at a cumulative probability.
     *
     * @param u probability in [0, 1)
     * @return size in bytes, at least 1
     */
    public long sizeAt(final double u) {
        if (u <= probs[0]) {
            return Math.max(1, Math.round(sizes[0]));
        }
        for (int i = 1; i < sizes.length; i++) {
            if (u <= probs[i]) {
                final double dp = probs[i] - probs[i - 1];
                final double f = dp == 0 ? 1.0 : (u - probs[i - 1]) / dp;
                return Math.max(1, Math.round(sizes[i - 1] + f * (sizes[i] - sizes[i - 1])));
            }
        }
        return Math.max(1, Math.round(sizes[sizes.length - 1]));
    }

    /**
     * Mean flow size of the interpolated distribution.
     *
     * @return mean in bytes
     */
    public double meanBytes() {
        double m = probs[0] * sizes[0];
        for (int i = 1; i < sizes.length; i++) {
            m += (probs[i] - probs[i - 1]) * (sizes[i] + sizes[i - 1]) / 2.0;
        }
        return m;
    }

    private static String fmt(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
