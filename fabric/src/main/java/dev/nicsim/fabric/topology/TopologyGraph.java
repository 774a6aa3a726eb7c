package dev.nicsim.fabric.topology;

import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A topology as a graph: hosts are nodes {@code 0 .. hosts-1} (one port each), switches are nodes
 * {@code hosts .. hosts+switches-1}; every edge is a full-duplex link between two ports. Builds the
 * four shipped shapes (star, dumbbell, leaf-spine, k-ary fat tree) or the graph of an HPCC ns-3
 * topology file (hosts in ascending ns-3 node id, switch node {@code n} named {@code sw<n>}, a
 * switch's ports numbered in the order its links appear in the file), and derives shortest-path ECMP
 * routes and per-path delays from the graph, so every shape routes the same way.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class TopologyGraph {
    /**
     * One full-duplex link.
     *
     * @param a     node at one end
     * @param portA its port
     * @param b     node at the other end
     * @param portB its port
     * @param link  rate and delay
     */
    public record Edge(int a, int portA, int b, int portB, Scenario.Link link) {
    }

    private final int hosts;
    private final List<String> switchNames = new ArrayList<>();
    private final List<Integer> switchPorts = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private int[][] neighbour;     // [node][port] -> node
    private int[][] edgeOf;        // [node][port] -> edge index
    /** [host] -> the switch node its port links to, or -1 (unconnected, or linked to a host). */
    private int[] attachment;
    /** [switch] -> its index among the attachment switches, or -1 when no host hangs off it. */
    private int[] attachmentIndex;
    /** [attachment index][switch] -> switch-only hops from that attachment switch (MAX_VALUE: unreachable). */
    private int[][] switchDist;

    private TopologyGraph(final int hosts) {
        this.hosts = hosts;
    }

    /**
     * Builds the graph of a scenario's topology.
     *
     * @param t topology spec
     * @return the graph with routes computed
     */
    public static TopologyGraph build(final Scenario.Topology t) {
        final Scenario.Link h = t.hostLink();
        final Scenario.Link f = t.fabricLink();
        final TopologyGraph g;
        switch (t.type()) {
            case "star" -> {
                g = new TopologyGraph(t.hosts());
                final int sw = g.addSwitch("sw0", t.hosts());
                for (int i = 0; i < t.hosts(); i++) {
                    g.connect(i, 0, sw, i, h);
                }
            }
            case "dumbbell" -> {
                final int n = t.hostsPerSide();
                g = new TopologyGraph(2 * n);
                final int left = g.addSwitch("left", n + 1);
                final int right = g.addSwitch("right", n + 1);
                for (int i = 0; i < n; i++) {
                    g.connect(i, 0, left, i, h);
                    g.connect(n + i, 0, right, i, h);
                }
                g.connect(left, n, right, n, f);
            }
            case "leaf_spine" -> {
                final int leaves = t.leaves();
                final int spines = t.spines();
                final int per = t.hostsPerLeaf();
                g = new TopologyGraph(leaves * per);
                final int[] leaf = new int[leaves];
                final int[] spine = new int[spines];
                for (int i = 0; i < leaves; i++) {
                    leaf[i] = g.addSwitch("leaf" + i, per + spines);
                }
                for (int j = 0; j < spines; j++) {
                    spine[j] = g.addSwitch("spine" + j, leaves);
                }
                for (int i = 0; i < leaves; i++) {
                    for (int p = 0; p < per; p++) {
                        g.connect(i * per + p, 0, leaf[i], p, h);
                    }
                    for (int j = 0; j < spines; j++) {
                        g.connect(leaf[i], per + j, spine[j], i, f);
                    }
                }
            }
            case "fat_tree" -> {
                final int k = t.k();
                final int half = k / 2;
                g = new TopologyGraph(k * k * k / 4);
                final int[][] edge = new int[k][half];
                final int[][] agg = new int[k][half];
                final int[] core = new int[half * half];
                for (int pod = 0; pod < k; pod++) {
                    for (int i = 0; i < half; i++) {
                        edge[pod][i] = g.addSwitch("edge" + pod + "_" + i, k);
                    }
                    for (int i = 0; i < half; i++) {
                        agg[pod][i] = g.addSwitch("agg" + pod + "_" + i, k);
                    }
                }
                for (int c = 0; c < half * half; c++) {
                    core[c] = g.addSwitch("core" + c, k);
                }
                int host = 0;
                for (int pod = 0; pod < k; pod++) {
                    for (int e = 0; e < half; e++) {
                        for (int p = 0; p < half; p++) {
                            g.connect(host++, 0, edge[pod][e], p, h);
                        }
                        for (int a = 0; a < half; a++) {
                            g.connect(edge[pod][e], half + a, agg[pod][a], e, f);
                        }
                    }
                    for (int a = 0; a < half; a++) {
                        for (int c = 0; c < half; c++) {
                            g.connect(agg[pod][a], half + c, core[a * half + c], pod, f);
                        }
                    }
                }
            }
            case "file" -> {
                final Scenario.Graph nf = t.file();
                g = new TopologyGraph(nf.hosts());
                final int[] degree = new int[nf.nodes()];
                for (final Scenario.GraphLink l : nf.links()) {
                    degree[l.a()]++;
                    degree[l.b()]++;
                }
                final int[] node = new int[nf.nodes()];
                for (int n = 0; n < nf.nodes(); n++) {
                    node[n] = nf.isSwitch(n) ? g.addSwitch("sw" + n, degree[n]) : nf.hostOf(n);
                }
                final int[] nextPort = new int[nf.nodes()];
                for (final Scenario.GraphLink l : nf.links()) {
                    g.connect(node[l.a()], nextPort[l.a()]++, node[l.b()], nextPort[l.b()]++,
                        new Scenario.Link(l.rateBitsPerSec(), l.delayPs()));
                }
            }
            default -> throw new IllegalArgumentException("unknown topology type " + t.type());
        }
        g.finish();
        return g;
    }

    private int addSwitch(final String name, final int ports) {
        switchNames.add(name);
        switchPorts.add(ports);
        return hosts + switchNames.size() - 1;
    }

    private void connect(final int a, final int portA, final int b, final int portB, final Scenario.Link link) {
        edges.add(new Edge(a, portA, b, portB, link));
    }

    private void finish() {
        final int n = nodeCount();
        neighbour = new int[n][];
        edgeOf = new int[n][];
        for (int v = 0; v < n; v++) {
            neighbour[v] = new int[ports(v)];
            edgeOf[v] = new int[ports(v)];
            Arrays.fill(neighbour[v], -1);
        }
        for (int e = 0; e < edges.size(); e++) {
            final Edge x = edges.get(e);
            if (neighbour[x.a()][x.portA()] != -1 || neighbour[x.b()][x.portB()] != -1) {
                throw new IllegalStateException("port used twice in topology: " + x);
            }
            neighbour[x.a()][x.portA()] = x.b();
            neighbour[x.b()][x.portB()] = x.a();
            edgeOf[x.a()][x.portA()] = e;
            edgeOf[x.b()][x.portB()] = e;
        }
        // hosts never forward, so every host hanging off switch a sees the switches at a's switch-only
        // distance + 1: one BFS per attachment switch (k^2/2 of them in a fat tree) over the switches
        attachment = new int[hosts];
        final int switches = switches();
        attachmentIndex = new int[switches];
        Arrays.fill(attachmentIndex, -1);
        int attachments = 0;
        for (int h = 0; h < hosts; h++) {
            final int a = neighbour[h][0];
            attachment[h] = a >= hosts ? a : -1;
            if (a >= hosts && attachmentIndex[a - hosts] < 0) {
                attachmentIndex[a - hosts] = attachments++;
            }
        }
        switchDist = new int[attachments][];
        final int[] queue = new int[switches];
        for (int s = 0; s < switches; s++) {
            if (attachmentIndex[s] >= 0) {
                switchDist[attachmentIndex[s]] = switchBfs(s, queue);
            }
        }
    }

    /** Hop counts from switch {@code from} to every switch over switch-to-switch links only (MAX_VALUE: unreachable). */
    private int[] switchBfs(final int from, final int[] queue) {
        final int[] dist = new int[switches()];
        Arrays.fill(dist, Integer.MAX_VALUE);
        dist[from] = 0;
        queue[0] = from;
        int head = 0;
        int tail = 1;
        while (head < tail) {
            final int v = queue[head++];
            for (final int u : neighbour[hosts + v]) {
                if (u >= hosts && dist[u - hosts] == Integer.MAX_VALUE) {
                    dist[u - hosts] = dist[v] + 1;
                    queue[tail++] = u - hosts;
                }
            }
        }
        return dist;
    }

    /**
     * Hops from node {@code v} to host {@code d} on the graph where only {@code d} and switches forward
     * (what a BFS from {@code d} gives), from the distances of {@code d}'s attachment switch.
     *
     * @return hops, or MAX_VALUE when unreachable
     */
    private int dist(final int d, final int v) {
        if (v == d) {
            return 0;
        }
        final int a = attachment[d];
        if (a < 0) {
            return v == neighbour[d][0] ? 1 : Integer.MAX_VALUE; // unconnected, or linked to a host, which does not forward
        }
        if (v >= hosts) {
            final int x = switchDist[attachmentIndex[a - hosts]][v - hosts];
            return x == Integer.MAX_VALUE ? x : x + 1;
        }
        final int u = neighbour[v][0]; // another host: one hop past its own neighbour, if that forwards
        if (u == d) {
            return 1;
        }
        final int x = u >= hosts ? dist(d, u) : Integer.MAX_VALUE;
        return x == Integer.MAX_VALUE ? x : x + 1;
    }

    /** @return number of hosts */
    public int hosts() {
        return hosts;
    }

    /** @return number of switches */
    public int switches() {
        return switchNames.size();
    }

    /** @return hosts + switches */
    public int nodeCount() {
        return hosts + switchNames.size();
    }

    /**
     * @param sw switch index, 0-based (node id = hosts + sw)
     * @return its name
     */
    public String switchName(final int sw) {
        return switchNames.get(sw);
    }

    /**
     * @param node node id
     * @return number of ports (1 for a host)
     */
    public int ports(final int node) {
        return node < hosts ? 1 : switchPorts.get(node - hosts);
    }

    /** @return all links */
    public List<Edge> edges() {
        return edges;
    }

    /**
     * The ECMP group of a switch toward a host: every port whose neighbour is one hop closer.
     *
     * @param switchNode switch node id
     * @param dstHost    destination host
     * @return ports, ascending; empty if unreachable
     */
    public int[] ecmpPorts(final int switchNode, final int dstHost) {
        final int here = dist(dstHost, switchNode);
        if (here == Integer.MAX_VALUE) {
            return new int[0];
        }
        // two passes over the ports, count then fill: no boxed list
        final int[] ports = neighbour[switchNode];
        int n = 0;
        for (int p = 0; p < ports.length; p++) {
            if (nextHop(ports[p], here, dstHost)) {
                n++;
            }
        }
        final int[] out = new int[n];
        n = 0;
        for (int p = 0; p < ports.length; p++) {
            if (nextHop(ports[p], here, dstHost)) {
                out[n++] = p;
            }
        }
        return out;
    }

    /** Whether neighbour {@code u} is one hop closer to {@code dstHost} and may carry its traffic (a switch, or the host itself). */
    private boolean nextHop(final int u, final int here, final int dstHost) {
        return u >= 0 && (u >= hosts || u == dstHost) && dist(dstHost, u) == here - 1;
    }

    /** Receives a switch's routes run by run ({@link #routeRuns}). */
    @FunctionalInterface
    public interface RouteRunSink {
        /**
         * One run of consecutive destination hosts that share a group.
         *
         * @param firstHost first destination host of the run
         * @param endHost   one past its last host
         * @param ports     the group of every host of the run, exactly {@link #ecmpPorts}; empty if they are
         *                  unreachable; the same array for equal groups of one switch; not to be modified
         */
        void accept(int firstHost, int endHost, int[] ports);
    }

    /**
     * A switch's whole route table as maximal runs of consecutive destination hosts with equal
     * {@link #ecmpPorts} groups, in ascending host order, covering hosts {@code 0 .. hosts-1}: a few
     * runs per port on the shipped shapes (a fat tree's core switch has one per pod, an edge switch one
     * per local host and one or two for the rest). Costs one group per attachment switch, not one per host.
     *
     * @param switchNode switch node id
     * @param sink       receives the runs
     */
    public void routeRuns(final int switchNode, final RouteRunSink sink) {
        final int here = switchNode - hosts;
        final int[] ports = neighbour[switchNode];
        final Map<GroupKey, int[]> distinct = new HashMap<>();
        final int[][] byAttachment = new int[switchDist.length][];
        final int[] scratch = new int[ports.length];
        final int[] none = intern(distinct, new int[0]);
        int first = 0;
        int[] run = null;
        for (int d = 0; d < hosts; d++) {
            final int a = attachment[d];
            final int[] group;
            if (a == switchNode) {
                final Edge e = edges.get(edgeOf[d][0]);
                group = intern(distinct, new int[] {e.a() == d ? e.portB() : e.portA()});
            } else if (a < 0) {
                group = none;
            } else {
                final int i = attachmentIndex[a - hosts];
                if (byAttachment[i] == null) {
                    // toward a host of another switch: the switches one hop closer to its attachment
                    final int[] dist = switchDist[i];
                    int n = 0;
                    if (dist[here] != Integer.MAX_VALUE) {
                        for (int p = 0; p < ports.length; p++) {
                            final int u = ports[p];
                            if (u >= hosts && dist[u - hosts] == dist[here] - 1) {
                                scratch[n++] = p;
                            }
                        }
                    }
                    byAttachment[i] = intern(distinct, Arrays.copyOf(scratch, n));
                }
                group = byAttachment[i];
            }
            if (group != run) {
                if (run != null) {
                    sink.accept(first, d, run);
                }
                first = d;
                run = group;
            }
        }
        if (run != null) {
            sink.accept(first, hosts, run);
        }
    }

    private static int[] intern(final Map<GroupKey, int[]> distinct, final int[] group) {
        return distinct.computeIfAbsent(new GroupKey(group), k -> k.ports);
    }

    /** A group as a hash key: equal when the same ports are in the same order. */
    private record GroupKey(int[] ports) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof GroupKey g && Arrays.equals(ports, g.ports);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ports);
        }
    }

    /**
     * The links along one shortest path from a host to another (following the lowest ECMP port at
     * each switch; all shipped shapes are symmetric, so every path has the same delays and rates).
     *
     * @param src source host
     * @param dst destination host
     * @return links in order from src
     * @throws IllegalArgumentException if dst is unreachable
     */
    public List<Scenario.Link> path(final int src, final int dst) {
        final List<Scenario.Link> out = new ArrayList<>();
        if (dist(dst, src) == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("host " + dst + " unreachable from " + src);
        }
        int v = src;
        out.add(edges.get(edgeOf[src][0]).link());
        v = neighbour[src][0];
        while (v != dst) {
            final int port = ecmpPorts(v, dst)[0];
            out.add(edges.get(edgeOf[v][port]).link());
            v = neighbour[v][port];
        }
        return out;
    }
}
