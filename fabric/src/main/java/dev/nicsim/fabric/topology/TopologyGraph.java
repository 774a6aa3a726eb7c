package dev.nicsim.fabric.topology;

import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
    private int[][] distTo;        // [dstHost][node] -> hops

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
        distTo = new int[hosts][];
        for (int d = 0; d < hosts; d++) {
            final int[] dist = new int[n];
            Arrays.fill(dist, Integer.MAX_VALUE);
            dist[d] = 0;
            final ArrayDeque<Integer> q = new ArrayDeque<>();
            q.add(d);
            while (!q.isEmpty()) {
                final int v = q.poll();
                // hosts do not forward: only expand from the destination itself and from switches
                if (v != d && v < hosts) {
                    continue;
                }
                for (final int u : neighbour[v]) {
                    if (u >= 0 && dist[u] == Integer.MAX_VALUE) {
                        dist[u] = dist[v] + 1;
                        q.add(u);
                    }
                }
            }
            distTo[d] = dist;
        }
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
        final int[] dist = distTo[dstHost];
        final int here = dist[switchNode];
        if (here == Integer.MAX_VALUE) {
            return new int[0];
        }
        // two passes over the ports, count then fill: no boxed list (the fabric build calls this for
        // every switch and host, 25,600 times for the 320-host fat tree)
        final int[] ports = neighbour[switchNode];
        int n = 0;
        for (int p = 0; p < ports.length; p++) {
            if (nextHop(ports[p], dist, here, dstHost)) {
                n++;
            }
        }
        final int[] out = new int[n];
        n = 0;
        for (int p = 0; p < ports.length; p++) {
            if (nextHop(ports[p], dist, here, dstHost)) {
                out[n++] = p;
            }
        }
        return out;
    }

    /** Whether neighbour {@code u} is one hop closer to {@code dstHost} and may carry its traffic (a switch, or the host itself). */
    private boolean nextHop(final int u, final int[] dist, final int here, final int dstHost) {
        return u >= 0 && dist[u] == here - 1 && (u >= hosts || u == dstHost);
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
        if (distTo[dst][src] == Integer.MAX_VALUE) {
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
