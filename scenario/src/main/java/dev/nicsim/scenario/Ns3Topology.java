package dev.nicsim.scenario;

import dev.nicsim.pcc.Units;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An HPCC ns-3 topology file ({@code simulation/mix/topology.txt} format, read by {@code third.cc}):
 * <pre>
 *   NODES SWITCHES LINKS
 *   SWITCH_ID ... (SWITCHES node ids)
 *   SRC DST RATE DELAY ERROR_RATE      (LINKS lines, e.g. 0 320 100Gbps 1000ns 0.000000)
 * </pre>
 * Nodes are {@code 0 .. NODES-1}; the ones not listed as switches are hosts. nicsim numbers the
 * hosts {@code 0 .. hosts-1} in ascending ns-3 node id (so a file whose hosts come first keeps
 * their ids) and names switch node {@code n} {@code sw<n>}. A host has exactly one link (nicsim
 * hosts have one port), a link joins two different nodes, no pair is linked twice, and a delay
 * carries its unit (ns-3 reads a bare number as seconds, so {@code 1000} is refused rather than
 * taken as 1000 s).
 *
 * <p>Thread-safety: immutable.
 */
public final class Ns3Topology {
    /**
     * One link line.
     *
     * @param a              ns-3 node id of one end
     * @param b              ns-3 node id of the other end
     * @param rateBitsPerSec rate, bits/s
     * @param delayPs        one-way propagation delay, ps
     * @param errorRate      per-packet error rate of the line (nicsim models none; the scenario loader
     *                       rejects a non-zero one with {@link Ns3Topology#requireModelled})
     * @param line           1-based line in the file
     */
    public record Link(int a, int b, long rateBitsPerSec, long delayPs, double errorRate, int line) {
    }

    private final Path file;
    private final int nodes;
    private final boolean[] isSwitch;
    private final int[] hostIndex;   // ns-3 node id -> nicsim host, -1 for a switch
    private final int[] hostNode;    // nicsim host -> ns-3 node id
    private final int switches;
    private final List<Link> links;

    private Ns3Topology(final Path file, final int nodes, final boolean[] isSwitch, final List<Link> links) {
        this.file = file;
        this.nodes = nodes;
        this.isSwitch = isSwitch;
        this.links = Collections.unmodifiableList(links);
        this.hostIndex = new int[nodes];
        int hosts = 0;
        for (int n = 0; n < nodes; n++) {
            if (!isSwitch[n]) {
                hosts++;
            }
        }
        hostNode = new int[hosts];
        this.switches = nodes - hosts;
        int h = 0;
        for (int n = 0; n < nodes; n++) {
            if (isSwitch[n]) {
                hostIndex[n] = -1;
            } else {
                hostIndex[n] = h;
                hostNode[h++] = n;
            }
        }
    }

    /**
     * Reads and checks a topology file.
     *
     * @param file the file
     * @return the topology
     * @throws ScenarioException naming file and line for a missing file, a malformed or
     *                           inconsistent line, or a count that does not match the lines
     */
    public static Ns3Topology read(final Path file) {
        return parse(file, Ns3Lines.read(file, "topology file"));
    }

    /**
     * Parses topology text already in memory (tests).
     *
     * @param file name used in messages
     * @param text the file's text
     * @return the topology
     * @throws ScenarioException as {@link #read}
     */
    public static Ns3Topology parse(final Path file, final String text) {
        return parse(file, Ns3Lines.parse(file.toString(), text));
    }

    private static Ns3Topology parse(final Path file, final Ns3Lines in) {
        final List<Ns3Lines.Line> lines = in.lines();
        if (lines.isEmpty()) {
            throw in.error(1, "expected 'nodes switches links' on the first line, the file is empty");
        }
        final Ns3Lines.Line head = lines.get(0);
        in.expectTokens(head, 3, "nodes switches links");
        final int nodes = (int) in.integer(head, 0, "nodes", 2, 1_000_000);
        final int switches = (int) in.integer(head, 1, "switches", 0, nodes - 1);
        final long linkCount = in.integer(head, 2, "links", 1, 10_000_000);
        final boolean[] isSwitch = new boolean[nodes];
        int next = 1;
        if (switches > 0) {
            if (lines.size() < 2) {
                throw in.error(head.number() + 1, "expected the " + switches + " switch node ids, found the end of the file");
            }
            final Ns3Lines.Line ids = lines.get(1);
            in.expectTokens(ids, switches, "the " + switches + " switch node ids");
            for (int i = 0; i < switches; i++) {
                final int id = (int) in.integer(ids, i, "switch id", 0, nodes - 1);
                if (isSwitch[id]) {
                    throw in.error(ids.number(), "switch id " + id + " is listed twice");
                }
                isSwitch[id] = true;
            }
            next = 2;
        }
        if (lines.size() - next != linkCount) {
            final int at = lines.size() - next > linkCount ? lines.get(next + (int) linkCount).number()
                : lines.get(lines.size() - 1).number() + 1;
            throw in.error(at, "expected " + linkCount + " link lines 'src dst rate delay error_rate' (line 1), found "
                + (lines.size() - next));
        }
        final int[] degree = new int[nodes];
        final Set<Long> pairs = new HashSet<>();
        final List<Link> links = new ArrayList<>((int) linkCount);
        for (int i = next; i < lines.size(); i++) {
            final Ns3Lines.Line l = lines.get(i);
            in.expectTokens(l, 5, "src dst rate delay error_rate");
            final int a = (int) in.integer(l, 0, "src", 0, nodes - 1);
            final int b = (int) in.integer(l, 1, "dst", 0, nodes - 1);
            if (a == b) {
                throw in.error(l.number(), "dst: expected a node other than src (" + a + "), got " + b);
            }
            if (!isSwitch[a] && !isSwitch[b]) {
                throw in.error(l.number(), "link " + a + "-" + b + " joins two hosts; nicsim hosts connect to switches only");
            }
            if (!pairs.add(Math.min(a, b) * (long) nodes + Math.max(a, b))) {
                throw in.error(l.number(), "nodes " + a + " and " + b + " are linked twice; nicsim models one link per pair");
            }
            final long rate = in.rate(l, 2, "rate");
            if (!Character.isLetter(l.tokens()[3].charAt(l.tokens()[3].length() - 1))) {
                // ns-3 reads a bare number as seconds: "1000" meant as ns becomes 1000 s, a fabric nothing can fill
                throw in.error(l.number(), "delay: expected a time with a unit such as 1000ns or 1us, got '"
                    + l.tokens()[3] + "' (without a unit ns-3 reads it as seconds)");
            }
            final long delay = in.time(l, 3, "delay");
            final double err = in.number(l, 4, "error_rate", 0, 1);
            degree[a]++;
            degree[b]++;
            for (final int n : new int[] {a, b}) {
                if (!isSwitch[n] && degree[n] > 1) {
                    throw in.error(l.number(), "host " + n + " has a second link; nicsim hosts have one port");
                }
            }
            links.add(new Link(a, b, rate, delay, err, l.number()));
        }
        for (int n = 0; n < nodes; n++) {
            if (degree[n] == 0) {
                throw in.error(head.number(), "node " + n + " has no link");
            }
        }
        return new Ns3Topology(file, nodes, isSwitch, links);
    }

    /** Largest link delay nicsim models, ps: 1 s, the range of a scenario's {@code delay_ns}. */
    public static final long MAX_DELAY_PS = 1_000_000_000_000L;

    /**
     * Checks that every link is one nicsim can model: error rate 0 (no link errors), a rate of
     * 1 Mb/s to 1.6 Tb/s and a delay of at most 1 s ({@link #MAX_DELAY_PS}, as a scenario's
     * {@code delay_ns}); and that the fabric is connected (nicsim routes every host from every
     * switch, so every node must reach every other).
     *
     * @throws ScenarioException {@code file:line: field: ...} for the first link that is not, or
     *                           naming the first link line of a node the first link's node cannot reach
     */
    public void requireModelled() {
        requireConnected();
        for (final Link l : links) {
            if (l.delayPs() > MAX_DELAY_PS) {
                throw new ScenarioException(file + ":" + l.line() + ": delay: expected at most 1s (1000000000ns), got "
                    + l.delayPs() / Units.PS_PER_NS + " ns");
            }
            if (l.errorRate() != 0) {
                throw new ScenarioException(file + ":" + l.line() + ": error_rate: nicsim models no link errors,"
                    + " expected 0, got " + l.errorRate());
            }
            if (l.rateBitsPerSec() < 1_000_000 || l.rateBitsPerSec() > 1_600_000_000_000L) {
                throw new ScenarioException(file + ":" + l.line() + ": rate: expected 0.001 to 1600 Gb/s, got "
                    + l.rateBitsPerSec() + " bit/s");
            }
        }
    }

    private void requireConnected() {
        final List<List<Integer>> adjacent = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            adjacent.add(new ArrayList<>());
        }
        for (final Link l : links) {
            adjacent.get(l.a()).add(l.b());
            adjacent.get(l.b()).add(l.a());
        }
        final boolean[] seen = new boolean[nodes];
        final int start = links.get(0).a();
        final ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
        seen[start] = true;
        while (!queue.isEmpty()) {
            for (final int next : adjacent.get(queue.poll())) {
                if (!seen[next]) {
                    seen[next] = true;
                    queue.add(next);
                }
            }
        }
        for (final Link l : links) {
            if (!seen[l.a()]) {
                throw new ScenarioException(file + ":" + l.line() + ": link " + l.a() + "-" + l.b() + " is not connected to"
                    + " node " + start + " (line " + links.get(0).line() + "); nicsim routes between every pair of hosts,"
                    + " so every node must be reachable from every other");
            }
        }
    }

    /** @return the file it was read from */
    public Path file() {
        return file;
    }

    /** @return number of ns-3 nodes (hosts + switches) */
    public int nodes() {
        return nodes;
    }

    /** @return number of hosts */
    public int hosts() {
        return hostNode.length;
    }

    /** @return number of switches */
    public int switches() {
        return switches;
    }

    /**
     * @param node ns-3 node id
     * @return whether it is a switch
     * @throws ArrayIndexOutOfBoundsException if the id is not a node
     */
    public boolean isSwitch(final int node) {
        return isSwitch[node];
    }

    /**
     * @param node ns-3 node id, {@code 0 .. nodes-1}
     * @return its nicsim host id, or -1 for a switch or an id outside the topology
     */
    public int hostOf(final int node) {
        return node >= 0 && node < nodes ? hostIndex[node] : -1;
    }

    /**
     * @param host nicsim host id
     * @return its ns-3 node id
     */
    public int hostNode(final int host) {
        return hostNode[host];
    }

    /** @return the links in file order */
    public List<Link> links() {
        return links;
    }

    /** @return the distinct link rates, ascending, bits/s */
    public long[] linkRates() {
        return links.stream().mapToLong(Link::rateBitsPerSec).distinct().sorted().toArray();
    }
}
