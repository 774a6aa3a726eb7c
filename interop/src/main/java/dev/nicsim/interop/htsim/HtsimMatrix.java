package dev.nicsim.interop.htsim;

import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.ScenarioException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A uet-htsim connection matrix ({@code .cm} or {@code .tm}; htsim's {@code connection_matrix.cpp}):
 * {@code Nodes N}, {@code Connections C}, then C lines {@code SRC->DST [id I] start T size B}, with
 * T in microseconds and B in bytes (one message per connection). Blank lines are skipped.
 *
 * <p>Thread-safety: immutable.
 *
 * @param file  the file read
 * @param nodes hosts N, 2 ..
 * @param flows the connections in file order
 */
public record HtsimMatrix(Path file, int nodes, List<Flow> flows) {
    /** Largest host count accepted (htsim's largest fat tree here: k = 64, 65,536 hosts). */
    public static final int MAX_NODES = 65_536;
    /** Largest message accepted, bytes (nicsim's {@code size_bytes} range). */
    public static final long MAX_SIZE_BYTES = Integer.MAX_VALUE;
    /** Latest start accepted, us (nicsim's {@code start_us} range). */
    public static final double MAX_START_US = 1e9;

    /**
     * One connection.
     *
     * @param src       sending host, 0 .. nodes - 1
     * @param dst       receiving host, 0 .. nodes - 1, not {@code src}
     * @param id        htsim's flow id, or -1 when the line gives none
     * @param startUs   start time, us, 0 .. {@link #MAX_START_US}
     * @param sizeBytes message size, bytes, 1 .. {@link #MAX_SIZE_BYTES}
     * @param line      1-based line number in the file
     */
    public record Flow(int src, int dst, long id, double startUs, long sizeBytes, int line) {
    }

    /**
     * Copies the flows.
     */
    public HtsimMatrix {
        flows = List.copyOf(flows);
    }

    /**
     * Reads a connection matrix.
     *
     * @param file the file
     * @return its contents
     * @throws ScenarioException {@code file:line: ...} for a missing file or a line not of the form above
     */
    public static HtsimMatrix read(final Path file) {
        return parse(file, Ns3Lines.read(file, "connection matrix"));
    }

    /**
     * Parses a connection matrix already split into lines.
     *
     * @param file  the file name (for the result)
     * @param lines its non-blank lines
     * @return its contents
     * @throws ScenarioException {@code file:line: ...} for a line not of the form above
     */
    public static HtsimMatrix parse(final Path file, final Ns3Lines lines) {
        final List<Ns3Lines.Line> ls = lines.lines();
        if (ls.size() < 2) {
            throw lines.error(ls.isEmpty() ? 1 : ls.get(0).number(),
                "expected 'Nodes N' and 'Connections C' lines, then one 'SRC->DST [id I] start T size B' line per connection");
        }
        final int nodes = (int) header(lines, ls.get(0), "Nodes", 2, MAX_NODES);
        final int count = (int) header(lines, ls.get(1), "Connections", 1, 10_000_000);
        final List<Flow> flows = new ArrayList<>();
        for (int i = 2; i < ls.size(); i++) {
            final Ns3Lines.Line l = ls.get(i);
            if (flows.size() == count) {
                throw lines.error(l.number(), "expected " + count + " connections (line " + ls.get(1).number()
                    + "), found another: '" + String.join(" ", l.tokens()) + "'");
            }
            flows.add(flow(lines, l, nodes));
        }
        if (flows.size() < count) {
            final int last = ls.get(ls.size() - 1).number();
            throw lines.error(last, "expected " + count + " connections (line " + ls.get(1).number() + "), found "
                + flows.size());
        }
        return new HtsimMatrix(file, nodes, flows);
    }

    private static long header(final Ns3Lines lines, final Ns3Lines.Line l, final String key, final long min,
                               final long max) {
        if (!l.tokens()[0].equals(key)) {
            throw lines.error(l.number(), "expected '" + key + " N', got '" + String.join(" ", l.tokens()) + "'");
        }
        lines.expectTokens(l, 2, key + " N");
        return lines.integer(l, 1, key, min, max);
    }

    private static Flow flow(final Ns3Lines lines, final Ns3Lines.Line l, final int nodes) {
        final String[] t = l.tokens();
        final String form = "SRC->DST [id I] start T size B";
        final int arrow = t[0].indexOf("->");
        if (arrow <= 0 || arrow + 2 >= t[0].length()) {
            throw lines.error(l.number(), "expected '" + form + "', got '" + String.join(" ", t) + "'");
        }
        final int src = endpoint(lines, l, t[0].substring(0, arrow), "SRC", nodes);
        final int dst = endpoint(lines, l, t[0].substring(arrow + 2), "DST", nodes);
        if (src == dst) {
            throw lines.error(l.number(), "DST: expected a host other than SRC " + src + ", got " + dst);
        }
        long id = -1;
        double start = Double.NaN;
        long size = -1;
        int i = 1;
        while (i < t.length) {
            if (i + 1 >= t.length) {
                throw lines.error(l.number(), "expected '" + form + "': '" + t[i] + "' has no value");
            }
            switch (t[i]) {
                case "id" -> id = once(lines, l, id >= 0, "id", lines.integer(l, i + 1, "id", 0, Long.MAX_VALUE));
                case "start" -> {
                    if (!Double.isNaN(start)) {
                        throw lines.error(l.number(), "start: given twice");
                    }
                    start = lines.number(l, i + 1, "start (us)", 0, MAX_START_US);
                }
                case "size" -> size = once(lines, l, size >= 0, "size",
                    lines.integer(l, i + 1, "size (bytes)", 1, MAX_SIZE_BYTES));
                default -> throw lines.error(l.number(), "expected 'id', 'start' or 'size' after '" + t[0] + "', got '"
                    + t[i] + "' (" + form + ")");
            }
            i += 2;
        }
        if (Double.isNaN(start) || size < 0) {
            throw lines.error(l.number(), "expected '" + form + "': " + (size < 0 ? "no size" : "no start") + " in '"
                + String.join(" ", t) + "'");
        }
        return new Flow(src, dst, id, start, size, l.number());
    }

    private static long once(final Ns3Lines lines, final Ns3Lines.Line l, final boolean seen, final String key,
                             final long value) {
        if (seen) {
            throw lines.error(l.number(), key + ": given twice");
        }
        return value;
    }

    private static int endpoint(final Ns3Lines lines, final Ns3Lines.Line l, final String text, final String what,
                                final int nodes) {
        try {
            final int v = Integer.parseInt(text);
            if (v >= 0 && v < nodes) {
                return v;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw lines.error(l.number(), what + ": expected a host in [0, " + (nodes - 1) + "] (Nodes " + nodes + "), got '"
            + text + "'");
    }
}
