package dev.nicsim.scenario;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An HPCC ns-3 flow file ({@code simulation/mix/flow.txt} format, read by {@code third.cc}):
 * <pre>
 *   COUNT
 *   SRC DST PRIORITY_GROUP DST_PORT SIZE_BYTES START_TIME_S     (COUNT lines)
 * </pre>
 * {@code SRC}/{@code DST} are ns-3 node ids, the start time is seconds. The start is turned into
 * nanoseconds as ns-3's {@code Seconds(double)} does: the exact binary value of the double times
 * 10^9 (ns-3.17 multiplies in 64.64 fixed point), truncated ({@code 2.000006128} is
 * 2.00000612799999992... and becomes {@code 2000006127} ns, as the reference's
 * {@code fct.txt} shows). Each flow's UDP source port is what {@code third.cc} gives it: 10000 plus
 * the number of earlier flows of the same (src, dst) pair.
 *
 * <p>Thread-safety: immutable.
 */
public final class Ns3Flows {
    /** First UDP source port {@code third.cc} gives a (src, dst) pair. */
    public static final int FIRST_SOURCE_PORT = 10000;

    /**
     * One flow line.
     *
     * @param srcNode       ns-3 node id of the sender
     * @param dstNode       ns-3 node id of the receiver
     * @param priorityGroup priority group (queue index) of its packets
     * @param dstPort       UDP destination port
     * @param sizeBytes     message size, bytes
     * @param startNs       start time, ns (ns-3's truncation of the seconds value)
     * @param srcPort       UDP source port as {@code third.cc} assigns it
     * @param line          1-based line in the file
     */
    public record Flow(int srcNode, int dstNode, int priorityGroup, int dstPort, long sizeBytes, long startNs,
                       int srcPort, int line) {
    }

    private final Path file;
    private final List<Flow> flows;

    private Ns3Flows(final Path file, final List<Flow> flows) {
        this.file = file;
        this.flows = Collections.unmodifiableList(flows);
    }

    /**
     * Reads and checks a flow file.
     *
     * @param file     the file
     * @param maxBytes largest accepted flow size, bytes (one RDMA message)
     * @return the flows in file order
     * @throws ScenarioException naming file and line for a missing file, a malformed line or a
     *                           count that does not match the lines
     */
    public static Ns3Flows read(final Path file, final long maxBytes) {
        return parse(file, Ns3Lines.read(file, "flow file"), maxBytes);
    }

    /**
     * Parses flow text already in memory (tests).
     *
     * @param file     name used in messages
     * @param text     the file's text
     * @param maxBytes largest accepted flow size, bytes
     * @return the flows
     * @throws ScenarioException as {@link #read}
     */
    public static Ns3Flows parse(final Path file, final String text, final long maxBytes) {
        return parse(file, Ns3Lines.parse(file.toString(), text), maxBytes);
    }

    private static Ns3Flows parse(final Path file, final Ns3Lines in, final long maxBytes) {
        final List<Ns3Lines.Line> lines = in.lines();
        if (lines.isEmpty()) {
            throw in.error(1, "expected the flow count on the first line, the file is empty");
        }
        final Ns3Lines.Line head = lines.get(0);
        in.expectTokens(head, 1, "flow_count");
        final long count = in.integer(head, 0, "flow count", 1, 100_000_000);
        if (lines.size() - 1 != count) {
            final int at = lines.size() - 1 > count ? lines.get((int) count + 1).number()
                : lines.get(lines.size() - 1).number() + 1;
            throw in.error(at, "expected " + count + " flow lines 'src dst priority_group dst_port size_bytes start_time_s'"
                + " (line 1), found " + (lines.size() - 1));
        }
        final Map<Long, Integer> ports = new HashMap<>();
        final List<Flow> out = new ArrayList<>((int) count);
        for (int i = 1; i < lines.size(); i++) {
            final Ns3Lines.Line l = lines.get(i);
            in.expectTokens(l, 6, "src dst priority_group dst_port size_bytes start_time_s");
            final int src = (int) in.integer(l, 0, "src", 0, Integer.MAX_VALUE);
            final int dst = (int) in.integer(l, 1, "dst", 0, Integer.MAX_VALUE);
            if (src == dst) {
                throw in.error(l.number(), "dst: expected a node other than src (" + src + "), got " + dst);
            }
            final int pg = (int) in.integer(l, 2, "priority_group", 0, 7);
            final int dport = (int) in.integer(l, 3, "dst_port", 0, 65535);
            final long size = in.integer(l, 4, "size_bytes", 1, maxBytes);
            final double startS = in.number(l, 5, "start_time_s", 0, 1e6);
            final long startNs = new BigDecimal(startS).movePointRight(9).longValue();
            final long pair = ((long) src << 32) | dst;
            final int sport = ports.merge(pair, 1, Integer::sum) - 1 + FIRST_SOURCE_PORT;
            if (sport > 65535) {
                throw in.error(l.number(), "more than " + (65536 - FIRST_SOURCE_PORT) + " flows from " + src + " to " + dst
                    + " (ns-3 gives each a source port from 10000)");
            }
            out.add(new Flow(src, dst, pg, dport, size, startNs, sport, l.number()));
        }
        return new Ns3Flows(file, out);
    }

    /** @return the file it was read from */
    public Path file() {
        return file;
    }

    /** @return the flows in file order (flow id = index) */
    public List<Flow> flows() {
        return flows;
    }
}
