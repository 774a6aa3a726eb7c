package dev.nicsim.fabric.topology;

import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TopologyGraph}'s routes (kept per attachment switch) against an independent oracle kept here:
 * a plain breadth-first search from every destination host over the whole graph, hosts forwarding
 * nothing but their own traffic, as the graph computed them before. Every (switch, host) group, every
 * switch's route runs and every host-to-host path must be exactly the oracle's, on the generated
 * shapes and on ns-3 topology files whose hosts of one switch are not numbered consecutively.
 */
class TopologyRoutesOracleTest {
    private static final Scenario.Link HOST = new Scenario.Link(100_000_000_000L, 1_000_000);
    private static final Scenario.Link FABRIC = new Scenario.Link(400_000_000_000L, 2_000_000);

    @Test
    void fatTrees() {
        for (final int k : new int[] {2, 4, 6, 8}) {
            final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("fat_tree", 0, 0, 0, 0, 0, k, HOST, FABRIC));
            checkAgainstOracle(g, "fat_tree k=" + k);
        }
        // k = 8: a core switch holds one run per pod, an edge switch one per local host and one on either side
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("fat_tree", 0, 0, 0, 0, 0, 8, HOST, FABRIC));
        final int hosts = g.hosts();
        assertEquals(8, runs(g, hosts + 8 * 8).size(), "core0 (after 8 pods x 8 pod switches)");
        assertEquals(4 + 1, runs(g, hosts).size(), "edge0_0: hosts 0-3 own, 4-127 up");
        assertEquals(1 + 4 + 1, runs(g, hosts + 1).size(), "edge0_1: 0-3 up, 4-7 own, 8-127 up");
        assertEquals(4 + 1, runs(g, hosts + 4).size(), "agg0_0: 0-3, 4-7, 8-11, 12-15 down, 16-127 up");
    }

    @Test
    void leafSpineStarAndDumbbell() {
        checkAgainstOracle(TopologyGraph.build(new Scenario.Topology("leaf_spine", 0, 0, 3, 2, 4, 0, HOST, FABRIC)), "leaf_spine");
        checkAgainstOracle(TopologyGraph.build(new Scenario.Topology("leaf_spine", 0, 0, 5, 1, 3, 0, HOST, FABRIC)), "leaf_spine 1 spine");
        checkAgainstOracle(TopologyGraph.build(new Scenario.Topology("star", 5, 0, 0, 0, 0, 0, HOST, HOST)), "star");
        checkAgainstOracle(TopologyGraph.build(new Scenario.Topology("dumbbell", 0, 3, 0, 0, 0, 0, HOST, FABRIC)), "dumbbell");
    }

    @Test
    void fileWithInterleavedHostsAndUnequalPaths() {
        // switches are nodes 12..17: leaves 12-15, spines 16-17. Host node n hangs off leaf 12 + n % 4, so each
        // leaf's hosts are 4 apart (host ids 0, 4, 8 on leaf 12). Leaf 15 reaches only spine 17, leaf 12 also
        // links leaf 13 directly, spine 16 links spine 17: unequal hop counts and group sizes. Every link's
        // delay is its own, so the links of a path name the path.
        final StringBuilder t = new StringBuilder();
        final List<String> links = new ArrayList<>();
        for (int n = 0; n < 12; n++) {
            links.add(n + " " + (12 + n % 4));
        }
        for (int leaf = 12; leaf < 15; leaf++) {
            links.add(leaf + " 16");
            links.add(leaf + " 17");
        }
        links.add("15 17");
        links.add("12 13");
        links.add("16 17");
        t.append("18 6 ").append(links.size()).append('\n').append("12 13 14 15 16 17\n");
        for (int i = 0; i < links.size(); i++) {
            t.append(links.get(i)).append(" 100Gbps ").append(1000 + i).append("ns 0\n");
        }
        final TopologyGraph g = fileGraph(t.toString());
        checkAgainstOracle(g, "interleaved file");
        // leaf 12 (switch 0) toward host 1 (leaf 13): straight across its direct link to leaf 13, its last port
        assertArrayEquals(new int[] {5}, g.ecmpPorts(g.hosts(), 1));
        // hosts 0, 4, 8 are leaf 12's own, 1, 5, 9 across the direct link, 2, 6, 10 up both spines, 3, 7, 11 up
        // spine 17 only: the group changes at every host, 12 runs
        assertEquals(12, runs(g, g.hosts()).size());
    }

    @Test
    void fileWithAnIslandHasEmptyGroupsAndNoPath() {
        // hosts 0, 1 on switch node 4, hosts 2, 3 on switch node 5, the two switches not linked (a file the
        // scenario loader refuses; the graph itself still routes within each island)
        final List<Scenario.GraphLink> links = List.of(new Scenario.GraphLink(0, 4, 100_000_000_000L, 1_000_000),
            new Scenario.GraphLink(2, 5, 100_000_000_000L, 1_000_000), new Scenario.GraphLink(1, 4, 100_000_000_000L, 1_000_000),
            new Scenario.GraphLink(3, 5, 100_000_000_000L, 1_000_000));
        final Scenario.Graph islands = new Scenario.Graph(Path.of("islands.txt"), new int[] {0, 1, 2, 3, -1, -1},
            new int[] {0, 1, 2, 3}, links);
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("file", 0, 0, 0, 0, 0, 0, HOST, FABRIC, islands));
        checkAgainstOracle(g, "island");
        assertArrayEquals(new int[0], g.ecmpPorts(4, 2));
        assertThrows(IllegalArgumentException.class, () -> g.path(0, 2));
    }

    @Test
    void theTopologyFilesOfTheRepository() {
        final Path fuzz = TestPaths.root().resolve("interop/src/test/resources/dev/nicsim/interop/ns3/ns3-fuzz/topology.txt");
        checkAgainstOracle(TopologyGraph.build(ScenarioLoader.fileTopology(Ns3Topology.read(fuzz))), fuzz.toString());
    }

    private static TopologyGraph fileGraph(final String text) {
        return TopologyGraph.build(ScenarioLoader.fileTopology(Ns3Topology.parse(Path.of("test-topology.txt"), text)));
    }

    /** Every group, every switch's runs and every path of {@code g} against the oracle. */
    private static void checkAgainstOracle(final TopologyGraph g, final String what) {
        final Oracle o = new Oracle(g);
        final int hosts = g.hosts();
        for (int s = hosts; s < g.nodeCount(); s++) {
            final int[][] byHost = new int[hosts][];
            int next = 0;
            for (final Run r : runs(g, s)) {
                assertEquals(next, r.first, what + " switch " + s + ": runs ascending, no gap");
                assertTrue(r.end > r.first, what);
                for (int d = r.first; d < r.end; d++) {
                    byHost[d] = r.ports;
                }
                next = r.end;
            }
            assertEquals(hosts, next, what + " switch " + s + ": runs cover every host");
            final List<Run> rs = runs(g, s);
            for (int i = 1; i < rs.size(); i++) {
                assertTrue(!Arrays.equals(rs.get(i - 1).ports, rs.get(i).ports), what + " switch " + s + ": runs are maximal");
            }
            for (int d = 0; d < hosts; d++) {
                final int[] expected = o.ecmpPorts(s, d);
                assertArrayEquals(expected, g.ecmpPorts(s, d), what + " ecmpPorts(" + s + ", " + d + ")");
                assertArrayEquals(expected, byHost[d], what + " runs of " + s + " at host " + d);
            }
        }
        for (int src = 0; src < hosts; src++) {
            for (int dst = 0; dst < hosts; dst++) {
                final List<Scenario.Link> expected = o.path(src, dst);
                if (expected == null) {
                    final int a = src;
                    final int b = dst;
                    assertThrows(IllegalArgumentException.class, () -> g.path(a, b), what);
                } else {
                    assertEquals(expected, g.path(src, dst), what + " path " + src + " -> " + dst);
                }
            }
        }
    }

    private record Run(int first, int end, int[] ports) {
    }

    private static List<Run> runs(final TopologyGraph g, final int switchNode) {
        final List<Run> out = new ArrayList<>();
        g.routeRuns(switchNode, (first, end, ports) -> out.add(new Run(first, end, ports)));
        // equal groups of one switch are one array
        for (final Run a : out) {
            for (final Run b : out) {
                if (Arrays.equals(a.ports, b.ports)) {
                    assertSame(a.ports, b.ports);
                }
            }
        }
        return out;
    }

    /** The routes as a BFS per destination host over all nodes (hosts forward nothing), from the graph's links alone. */
    private static final class Oracle {
        private final TopologyGraph g;
        private final int[][] neighbour;
        private final Scenario.Link[][] link;
        private final int[][] distTo;

        Oracle(final TopologyGraph g) {
            this.g = g;
            final int n = g.nodeCount();
            neighbour = new int[n][];
            link = new Scenario.Link[n][];
            for (int v = 0; v < n; v++) {
                neighbour[v] = new int[g.ports(v)];
                Arrays.fill(neighbour[v], -1);
                link[v] = new Scenario.Link[g.ports(v)];
            }
            for (final TopologyGraph.Edge e : g.edges()) {
                neighbour[e.a()][e.portA()] = e.b();
                neighbour[e.b()][e.portB()] = e.a();
                link[e.a()][e.portA()] = e.link();
                link[e.b()][e.portB()] = e.link();
            }
            distTo = new int[g.hosts()][];
            for (int d = 0; d < g.hosts(); d++) {
                final int[] dist = new int[n];
                Arrays.fill(dist, Integer.MAX_VALUE);
                dist[d] = 0;
                final ArrayDeque<Integer> q = new ArrayDeque<>(List.of(d));
                while (!q.isEmpty()) {
                    final int v = q.poll();
                    if (v != d && v < g.hosts()) {
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

        int[] ecmpPorts(final int node, final int d) {
            final int[] dist = distTo[d];
            if (dist[node] == Integer.MAX_VALUE) {
                return new int[0];
            }
            final List<Integer> out = new ArrayList<>();
            for (int p = 0; p < neighbour[node].length; p++) {
                final int u = neighbour[node][p];
                if (u >= 0 && dist[u] == dist[node] - 1 && (u >= g.hosts() || u == d)) {
                    out.add(p);
                }
            }
            return out.stream().mapToInt(Integer::intValue).toArray();
        }

        /** @return the links along the lowest-port shortest path, or null when unreachable */
        List<Scenario.Link> path(final int src, final int dst) {
            if (distTo[dst][src] == Integer.MAX_VALUE) {
                return null;
            }
            final List<Scenario.Link> out = new ArrayList<>(List.of(link[src][0]));
            int v = neighbour[src][0];
            while (v != dst) {
                final int p = ecmpPorts(v, dst)[0];
                out.add(link[v][p]);
                v = neighbour[v][p];
            }
            return out;
        }
    }
}
