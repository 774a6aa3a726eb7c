package dev.nicsim.fabric.fct;

import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.ScenarioException;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The HPCC ns-3 simulator's per-flow output ({@code FCT_OUTPUT_FILE}, written by {@code qp_finish}
 * of {@code third.cc} when a flow completes): one line per completed flow, in completion order,
 * <pre>
 *   %08x %08x %u %u %lu %lu %lu %lu
 *   src_ip dst_ip src_port dst_port size_bytes start_ns fct_ns standalone_fct_ns
 * </pre>
 * with IPs as {@code Settings::node_id_to_ip} makes them: {@code 0x0b000001 + (id / 256) x 0x10000
 * + (id % 256) x 0x100} (node 192 is {@code 0b00c001}).
 *
 * <p>Thread-safety: stateless.
 */
public final class FctFile {
    /** File name nicsim writes beside {@code flows.csv}. */
    public static final String FILE = "fct.txt";

    /**
     * One line.
     *
     * @param srcIp            source IPv4 address
     * @param dstIp            destination IPv4 address
     * @param srcPort          UDP source port
     * @param dstPort          UDP destination port
     * @param sizeBytes        flow size, bytes
     * @param startNs          start time, ns
     * @param fctNs            completion time, ns
     * @param standaloneFctNs  completion time alone on the empty network, ns
     * @param line             1-based line (0 when built, not read)
     */
    public record Row(int srcIp, int dstIp, int srcPort, int dstPort, long sizeBytes, long startNs, long fctNs,
                      long standaloneFctNs, int line) {
        /** @return fct / standalone_fct, at least 1 (the reference's slowdown) */
        public double slowdown() {
            return Math.max(1.0, fctNs / (double) Math.max(1, standaloneFctNs));
        }

        /**
         * The line as the reference writes it: {@code String.format(Locale.ROOT, "%08x %08x %d %d %d %d %d %d", ...)}
         * of the fields in order, built directly (the formatter parsed its pattern again for each of a
         * run's rows: 45-60 ms for 3,160 rows on a fresh JVM).
         *
         * @return the line, without a line end
         */
        public String format() {
            final StringBuilder b = new StringBuilder(80);
            hex8(b, srcIp).append(' ');
            hex8(b, dstIp).append(' ');
            return b.append(srcPort).append(' ').append(dstPort).append(' ').append(sizeBytes).append(' ').append(startNs)
                .append(' ').append(fctNs).append(' ').append(standaloneFctNs).toString();
        }

        /** Appends {@code v} as {@code %08x} does: lower-case hex of its 32 bits, zero-padded to 8 digits. */
        private static StringBuilder hex8(final StringBuilder b, final int v) {
            final String h = Integer.toHexString(v);
            for (int i = h.length(); i < 8; i++) {
                b.append('0');
            }
            return b.append(h);
        }
    }

    private FctFile() {
    }

    /**
     * The IPv4 address the reference gives an ns-3 node.
     *
     * @param node ns-3 node id, non-negative
     * @return the address as an int
     */
    public static int nodeIp(final int node) {
        return 0x0b000001 + (node / 256) * 0x00010000 + (node % 256) * 0x00000100;
    }

    /**
     * Writes rows.
     *
     * @param file the file
     * @param rows rows in the order to write
     * @throws IOException on write failure
     */
    public static void write(final Path file, final List<Row> rows) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            for (final Row r : rows) {
                w.write(r.format());
                w.write('\n');
            }
        }
    }

    /**
     * Reads a file.
     *
     * @param file the file
     * @return its rows in file order
     * @throws ScenarioException naming file and line for a missing file or a malformed line
     */
    public static List<Row> read(final Path file) {
        return rows(Ns3Lines.read(file, "fct file"));
    }

    /**
     * Parses a file's text already in memory (what {@link #read} does after reading the file).
     *
     * @param file the file name, for messages only (not opened)
     * @param text the file's text
     * @return its rows in file order
     * @throws ScenarioException naming file and line for a malformed line
     */
    public static List<Row> parse(final Path file, final String text) {
        return rows(Ns3Lines.parse(file.toString(), text));
    }

    private static List<Row> rows(final Ns3Lines in) {
        final List<Row> out = new ArrayList<>(in.lines().size());
        for (final Ns3Lines.Line l : in.lines()) {
            in.expectTokens(l, 8, "src_ip dst_ip src_port dst_port size_bytes start_ns fct_ns standalone_fct_ns");
            out.add(new Row(hex(in, l, 0, "src_ip"), hex(in, l, 1, "dst_ip"),
                (int) in.integer(l, 2, "src_port", 0, 65535), (int) in.integer(l, 3, "dst_port", 0, 65535),
                in.integer(l, 4, "size_bytes", 1, Long.MAX_VALUE), in.integer(l, 5, "start_ns", 0, Long.MAX_VALUE),
                in.integer(l, 6, "fct_ns", 0, Long.MAX_VALUE), in.integer(l, 7, "standalone_fct_ns", 1, Long.MAX_VALUE),
                l.number()));
        }
        return out;
    }

    private static int hex(final Ns3Lines in, final Ns3Lines.Line l, final int i, final String what) {
        final String t = l.tokens()[i];
        if (t.length() != 8) {
            throw in.error(l.number(), what + ": expected 8 hex digits such as 0b00c001, got '" + t + "'");
        }
        try {
            return (int) Long.parseLong(t, 16);
        } catch (final NumberFormatException e) {
            throw in.error(l.number(), what + ": expected 8 hex digits such as 0b00c001, got '" + t + "'");
        }
    }
}
