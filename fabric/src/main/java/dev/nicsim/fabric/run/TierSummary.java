package dev.nicsim.fabric.run;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sw.PortStatistics;
import dev.nicsim.sw.SwitchAsic;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The run summarised per tier of the fabric ({@code tiers.csv}) and its hottest egress ports
 * ({@code hot_ports.csv}): what an 8,192-host run's per-queue time series are too large to show.
 *
 * <p><b>Tiers.</b> A switch's tier is its hop distance from the nearest host over the topology's
 * links (1: a switch with hosts, a fat tree's edge or a leaf; 2: aggregation or spine; 3: core), so
 * fat trees, leaf-spine and file topologies are summarised alike; a switch no host reaches has no
 * tier and is left out. Hosts are tier 0. An egress port's direction is {@code up} when its link goes
 * to a switch of a higher tier, {@code down} when it goes to a lower tier or a host, {@code across}
 * to a switch of the same tier (a dumbbell's middle link); unconnected ports are left out. The NICs'
 * ports are the row {@code 0,host,up}.
 *
 * <p><b>Queue samples.</b> Every queue sample of the run ({@code sampling.queue_interval_us}, the
 * samples {@code queues.csv} is written from) reads every egress queue (port x 8 priorities); only the
 * non-empty ones are {@link #record}ed (the others are counted as zeros), so memory and time are
 * O(ports + non-empty queue samples) and nothing is allocated per sample but the growth of one
 * {@code long[]} per tier and direction. Percentiles are nearest-rank: of n values in ascending
 * order, the p-th is the value at rank ceil(p/100 x n) ({@link Reports#percentile}).
 *
 * <p>Thread-safety: not thread-safe; the run's thread (the coordinator of a partitioned run).
 */
public final class TierSummary {
    /** Name of the per-tier file. */
    public static final String FILE = "tiers.csv";
    /** Name of the hottest-ports file. */
    public static final String HOT_FILE = "hot_ports.csv";
    /** Ports listed in {@code hot_ports.csv}. */
    public static final int HOT_PORTS = 20;
    /** Egress queues (priorities) per port. */
    static final int PRIORITIES = 8;
    /** Directions of an egress port, the {@code direction} column. */
    static final String[] DIRECTIONS = {"up", "down", "across"};
    private static final int UP = 0;
    private static final int DOWN = 1;
    private static final int ACROSS = 2;

    private final TopologyGraph graph;
    private final SwitchAsic[] switches;
    private final RoceNic[] nics;
    private final String topologyType;
    /** Per switch, its tier (1..), 0 when no host reaches it. */
    private final int[] tier;
    /** Per switch, the index of its port 0 in the per-port arrays. */
    private final int[] portBase;
    /** Per port (all switches'), its group {@code tier x 3 + direction}, or -1 (unconnected, no tier). */
    private final int[] group;
    /** Per port, the node at the other end of its link, or -1. */
    private final int[] peer;
    /** Per port, the largest sampled depth of its queues, bytes. */
    private final long[] sampledMax;
    /** Per group, the non-empty queue depths sampled (the first {@link #depthCount} entries), bytes. */
    private final long[][] depths;
    private final int[] depthCount;
    /** Queue samples taken (each reads every queue). */
    private long samples;

    /**
     * Derives the tiers and the ports' directions from the graph.
     *
     * @param graph        the fabric's graph (switch {@code s} is node {@code hosts + s})
     * @param switches     the switches, in topology order
     * @param nics         the NICs, by host id
     * @param topologyType {@code scenario.topology().type()}: names the tiers of {@code fat_tree}
     *                     (edge, agg, core) and {@code leaf_spine} (leaf, spine); others are {@code tier<N>}
     */
    public TierSummary(final TopologyGraph graph, final SwitchAsic[] switches, final RoceNic[] nics,
                       final String topologyType) {
        this.graph = graph;
        this.switches = switches;
        this.nics = nics;
        this.topologyType = topologyType;
        final int hosts = graph.hosts();
        final int[] dist = hopsFromHosts(graph);
        tier = new int[switches.length];
        portBase = new int[switches.length + 1];
        int maxTier = 0;
        for (int s = 0; s < switches.length; s++) {
            tier[s] = dist[hosts + s] == Integer.MAX_VALUE ? 0 : dist[hosts + s];
            maxTier = Math.max(maxTier, tier[s]);
            portBase[s + 1] = portBase[s] + graph.ports(hosts + s);
        }
        final int ports = portBase[switches.length];
        group = new int[ports];
        peer = new int[ports];
        sampledMax = new long[ports];
        Arrays.fill(group, -1);
        Arrays.fill(peer, -1);
        for (final TopologyGraph.Edge e : graph.edges()) {
            classify(e.a(), e.portA(), e.b(), hosts);
            classify(e.b(), e.portB(), e.a(), hosts);
        }
        depths = new long[(maxTier + 1) * DIRECTIONS.length][];
        depthCount = new int[depths.length];
        for (int g = 0; g < depths.length; g++) {
            depths[g] = new long[64];
        }
    }

    /** Sets the group and peer of {@code node}'s port {@code port}, whose link goes to {@code other}. */
    private void classify(final int node, final int port, final int other, final int hosts) {
        if (node < hosts || tier[node - hosts] == 0) {
            return;
        }
        final int here = tier[node - hosts];
        final int there = other < hosts ? 0 : tier[other - hosts];
        final int dir = there > here ? UP : there < here ? DOWN : ACROSS;
        final int i = portBase[node - hosts] + port;
        group[i] = here * DIRECTIONS.length + dir;
        peer[i] = other;
    }

    /**
     * Hop distance of every node from the nearest host: hosts 0, then a breadth-first search through
     * switches only (hosts do not forward).
     *
     * @param graph the graph
     * @return per node, hops, or {@link Integer#MAX_VALUE} when no host reaches it
     */
    static int[] hopsFromHosts(final TopologyGraph graph) {
        final int n = graph.nodeCount();
        final int hosts = graph.hosts();
        final int[] degree = new int[n + 1];
        final List<TopologyGraph.Edge> edges = graph.edges();
        for (final TopologyGraph.Edge e : edges) {
            degree[e.a() + 1]++;
            degree[e.b() + 1]++;
        }
        for (int v = 0; v < n; v++) {
            degree[v + 1] += degree[v];
        }
        final int[] adj = new int[degree[n]];
        final int[] fill = Arrays.copyOf(degree, n);
        for (final TopologyGraph.Edge e : edges) {
            adj[fill[e.a()]++] = e.b();
            adj[fill[e.b()]++] = e.a();
        }
        final int[] dist = new int[n];
        Arrays.fill(dist, Integer.MAX_VALUE);
        final int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int h = 0; h < hosts; h++) {
            dist[h] = 0;
            queue[tail++] = h;
        }
        while (head < tail) {
            final int v = queue[head++];
            for (int i = degree[v]; i < degree[v + 1]; i++) {
                final int u = adj[i];
                if (u >= hosts && dist[u] == Integer.MAX_VALUE) {
                    dist[u] = dist[v] + 1;
                    queue[tail++] = u;
                }
            }
        }
        return dist;
    }

    /** A queue sample was taken (every queue read once): counts it. */
    void sampleTaken() {
        samples++;
    }

    /**
     * One queue's depth at a sample; a depth of 0 is ignored (empty queues are counted from the
     * number of samples).
     *
     * @param sw         switch index
     * @param port       egress port
     * @param depthBytes depth, bytes
     */
    void record(final int sw, final int port, final long depthBytes) {
        if (depthBytes == 0) {
            return;
        }
        final int i = portBase[sw] + port;
        if (depthBytes > sampledMax[i]) {
            sampledMax[i] = depthBytes;
        }
        final int g = group[i];
        if (g < 0) {
            return;
        }
        long[] d = depths[g];
        if (depthCount[g] == d.length) {
            d = Arrays.copyOf(d, d.length * 2);
            depths[g] = d;
        }
        d[depthCount[g]++] = depthBytes;
    }

    /** @return queue samples taken so far */
    long samples() {
        return samples;
    }

    /**
     * The tier's name: {@code host} for 0, the topology's names where it has them, else {@code tier<N>}.
     *
     * @param tierNumber the tier
     * @return its name
     */
    String tierName(final int tierNumber) {
        if (tierNumber == 0) {
            return "host";
        }
        final String[] names = switch (topologyType) {
            case "fat_tree" -> new String[] {"edge", "agg", "core"};
            case "leaf_spine" -> new String[] {"leaf", "spine"};
            default -> new String[0];
        };
        return tierNumber <= names.length ? names[tierNumber - 1] : "tier" + tierNumber;
    }

    /**
     * The p-th nearest-rank percentile of {@code zeros} zeros and the positive values
     * {@code sorted[0 .. n)}: of the {@code zeros + n} values in ascending order, the one at rank
     * ceil(p/100 x (zeros + n)).
     *
     * @param zeros  how many values are 0, {@code >= 0}
     * @param sorted the other values, ascending
     * @param n      how many of them, {@code zeros + n >= 1}
     * @param p      percentile in (0, 100]
     * @return the value
     */
    static long percentileWithZeros(final long zeros, final long[] sorted, final int n, final double p) {
        final long total = zeros + n;
        final long rank = Math.max(1, Math.min(total, (long) Math.ceil(p / 100.0 * total)));
        return rank <= zeros ? 0 : sorted[(int) (rank - zeros - 1)];
    }

    /**
     * Utilisation of an egress link over the run: bytes transmitted (frames without preamble and
     * inter-frame gap, PFC frames included) x 8 / (link rate x simulated time).
     *
     * @param txBytes        bytes transmitted
     * @param rateBitsPerSec link rate
     * @param simulatedPs    the run's simulated time, ps
     * @return 0 .. 1 (0 when no time passed)
     */
    static double utilisation(final long txBytes, final long rateBitsPerSec, final long simulatedPs) {
        return simulatedPs <= 0 ? 0 : txBytes * 8.0 * 1e12 / ((double) rateBitsPerSec * simulatedPs);
    }

    /**
     * Writes {@code tiers.csv} and {@code hot_ports.csv} from the samples recorded and the devices'
     * counters now (after the run).
     *
     * @param dir         output directory
     * @param simulatedPs the run's simulated time, ps
     * @throws IOException on write failure
     */
    public void write(final Path dir, final long simulatedPs) throws IOException {
        try (CSVPrinter p = TimeSeriesWriter.open(dir.resolve(FILE), "tier", "name", "direction", "ports", "tx_bytes",
            "util_mean", "util_p50", "util_p99", "util_max", "queue_samples", "nonempty_samples", "queue_p50_bytes",
            "queue_p99_bytes", "queue_max_bytes", "nonempty_p50_bytes", "nonempty_p99_bytes", "peak_depth_bytes",
            "ecn_marked_packets", "pfc_pauses_sent", "drops")) {
            for (final List<Object> row : tierRows(simulatedPs)) {
                p.printRecord(row);
            }
        }
        try (CSVPrinter p = TimeSeriesWriter.open(dir.resolve(HOT_FILE), "rank", "switch", "port", "tier", "direction",
            "peer", "peak_depth_bytes", "sampled_max_bytes", "utilisation", "tx_bytes", "ecn_marked_packets",
            "pfc_pauses_sent", "drops")) {
            for (final List<Object> row : hotRows(simulatedPs)) {
                p.printRecord(row);
            }
        }
    }

    /**
     * The rows of {@code tiers.csv}: {@code 0,host,up} first, then every (tier, direction) with ports,
     * by tier then up, down, across.
     *
     * @param simulatedPs the run's simulated time, ps
     * @return the rows' cells
     */
    List<List<Object>> tierRows(final long simulatedPs) {
        final List<List<Object>> rows = new ArrayList<>();
        final double[] hostUtil = new double[nics.length];
        long hostTx = 0;
        for (int h = 0; h < nics.length; h++) {
            final EgressPort port = nics[h].port();
            hostTx += port.txBytes();
            hostUtil[h] = utilisation(port.txBytes(), port.rateBitsPerSec(), simulatedPs);
        }
        if (nics.length > 0) {
            final List<Object> row = new ArrayList<>(List.of(0, tierName(0), DIRECTIONS[UP], nics.length, hostTx));
            row.addAll(utilCells(hostUtil));
            for (int c = 0; c < 11; c++) {
                row.add(""); // no queue samples or switch counters for NIC ports
            }
            rows.add(row);
        }
        final int groups = depths.length;
        final int[] ports = new int[groups];
        for (final int g : group) {
            if (g >= 0) {
                ports[g]++;
            }
        }
        final double[][] util = new double[groups][];
        final long[][] sums = new long[groups][5]; // tx, peak, ecn, pauses, drops
        for (int g = 0; g < groups; g++) {
            util[g] = new double[ports[g]];
        }
        final int[] filled = new int[groups];
        for (int s = 0; s < switches.length; s++) {
            for (int port = 0; port < portBase[s + 1] - portBase[s]; port++) {
                final int g = group[portBase[s] + port];
                if (g < 0) {
                    continue;
                }
                final EgressPort e = switches[s].egressPort(port);
                util[g][filled[g]++] = utilisation(e.txBytes(), e.rateBitsPerSec(), simulatedPs);
                sums[g][0] += e.txBytes();
                sums[g][1] = Math.max(sums[g][1], PortStatistics.peakDepthBytes(switches[s], port));
                sums[g][2] += PortStatistics.ecnMarkedPackets(switches[s], port);
                sums[g][3] += PortStatistics.pauseFramesSent(switches[s], port);
                sums[g][4] += PortStatistics.drops(switches[s], port);
            }
        }
        for (int g = 0; g < groups; g++) {
            if (ports[g] == 0) {
                continue;
            }
            final List<Object> row = new ArrayList<>(List.of(g / DIRECTIONS.length, tierName(g / DIRECTIONS.length),
                DIRECTIONS[g % DIRECTIONS.length], ports[g], sums[g][0]));
            row.addAll(utilCells(util[g]));
            final int n = depthCount[g];
            final long[] d = depths[g];
            Arrays.sort(d, 0, n);
            final long all = samples * ports[g] * PRIORITIES;
            row.add(all);
            row.add(n);
            if (all == 0) {
                row.addAll(List.of("", "", ""));
            } else {
                row.add(percentileWithZeros(all - n, d, n, 50));
                row.add(percentileWithZeros(all - n, d, n, 99));
                row.add(n == 0 ? 0 : d[n - 1]);
            }
            if (n == 0) {
                row.addAll(List.of("", ""));
            } else {
                row.add(percentileWithZeros(0, d, n, 50));
                row.add(percentileWithZeros(0, d, n, 99));
            }
            row.addAll(List.of(sums[g][1], sums[g][2], sums[g][3], sums[g][4]));
            rows.add(row);
        }
        return rows;
    }

    /** The mean, p50, p99 and max of utilisations (sorts them), six decimals. */
    private static List<Object> utilCells(final double[] util) {
        Arrays.sort(util);
        double sum = 0;
        for (final double u : util) {
            sum += u;
        }
        return List.of(fixed6(sum / util.length), fixed6(Reports.percentile(util, 50)), fixed6(Reports.percentile(util, 99)),
            fixed6(util[util.length - 1]));
    }

    private static String fixed6(final double x) {
        return String.format(Locale.ROOT, "%.6f", x);
    }

    /**
     * The rows of {@code hot_ports.csv}: the {@value #HOT_PORTS} switch egress ports with the largest
     * {@code peak_depth_bytes} (over their priorities), ports that never queued a byte left out;
     * ties by switch name, then port number.
     *
     * @param simulatedPs the run's simulated time, ps
     * @return the rows' cells, rank 1 first
     */
    List<List<Object>> hotRows(final long simulatedPs) {
        final int[] top = new int[HOT_PORTS]; // global port indices, hottest first
        final long[] topPeak = new long[HOT_PORTS];
        final int[] topSwitch = new int[HOT_PORTS];
        int n = 0;
        for (int s = 0; s < switches.length; s++) {
            for (int port = 0; port < portBase[s + 1] - portBase[s]; port++) {
                if (peer[portBase[s] + port] < 0) {
                    continue;
                }
                final long peak = PortStatistics.peakDepthBytes(switches[s], port);
                if (peak == 0) {
                    continue;
                }
                int at = n;
                while (at > 0 && hotter(peak, s, port, topPeak[at - 1], topSwitch[at - 1], top[at - 1] - portBase[topSwitch[at - 1]])) {
                    at--;
                }
                if (at >= HOT_PORTS) {
                    continue;
                }
                final int last = Math.min(n, HOT_PORTS - 1);
                System.arraycopy(top, at, top, at + 1, last - at);
                System.arraycopy(topPeak, at, topPeak, at + 1, last - at);
                System.arraycopy(topSwitch, at, topSwitch, at + 1, last - at);
                top[at] = portBase[s] + port;
                topPeak[at] = peak;
                topSwitch[at] = s;
                n = Math.min(n + 1, HOT_PORTS);
            }
        }
        final List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            final int s = topSwitch[r];
            final int port = top[r] - portBase[s];
            final EgressPort e = switches[s].egressPort(port);
            final int other = peer[top[r]];
            final int g = group[top[r]];
            rows.add(List.of(r + 1, switches[s].name(), port, tier[s], g < 0 ? "" : DIRECTIONS[g % DIRECTIONS.length],
                other < graph.hosts() ? nics[other].name() : graph.switchName(other - graph.hosts()), topPeak[r],
                sampledMax[top[r]], fixed6(utilisation(e.txBytes(), e.rateBitsPerSec(), simulatedPs)), e.txBytes(),
                PortStatistics.ecnMarkedPackets(switches[s], port), PortStatistics.pauseFramesSent(switches[s], port),
                PortStatistics.drops(switches[s], port)));
        }
        return rows;
    }

    /** Whether port (s, port) of peak {@code peak} ranks before port (s2, port2) of peak {@code peak2}. */
    private boolean hotter(final long peak, final int s, final int port, final long peak2, final int s2, final int port2) {
        if (peak != peak2) {
            return peak > peak2;
        }
        final int byName = switches[s].name().compareTo(switches[s2].name());
        return byName != 0 ? byName < 0 : port < port2;
    }
}
