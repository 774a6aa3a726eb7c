package dev.nicsim.fabric.topology;

import dev.nicsim.scenario.Scenario;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class TopologyGraphTest {
    private static final Scenario.Link HOST = new Scenario.Link(100_000_000_000L, 1_000_000);
    private static final Scenario.Link FABRIC = new Scenario.Link(400_000_000_000L, 1_000_000);

    @Test
    void fatTreeK4HasTheTextbookShapeAndEcmpFanOut() {
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("fat_tree", 0, 0, 0, 0, 0, 4, HOST, FABRIC));
        // k = 4: k^3/4 = 16 hosts; k pods x (k/2 edge + k/2 agg) = 16 pod switches + (k/2)^2 = 4 cores = 20 switches
        assertEquals(16, g.hosts());
        assertEquals(20, g.switches());
        // links: 16 host links + 4 pods x 2 edge x 2 agg = 16 + 4 x 2 agg x 2 core = 16: 48 in all
        assertEquals(48, g.edges().size());
        // edge0_0 (node 16) toward host 15 (pod 3): up through both aggs (ports 2 and 3)
        assertArrayEquals(new int[] {2, 3}, g.ecmpPorts(16, 15));
        // toward its own host 1: straight down port 1
        assertArrayEquals(new int[] {1}, g.ecmpPorts(16, 1));
        // host 0 to host 15 crosses edge-agg-core-agg-edge: 6 links
        assertEquals(6, g.path(0, 15).size());
        // host 0 to host 2 (same pod, other edge): host-edge-agg-edge-host = 4 links
        assertEquals(4, g.path(0, 2).size());
    }

    @Test
    void leafSpineRoutesUpThroughEverySpine() {
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("leaf_spine", 0, 0, 3, 2, 4, 0, HOST, FABRIC));
        assertEquals(12, g.hosts());
        assertEquals(5, g.switches());
        // leaf0 = node 12 has hosts on ports 0..3 and spines on ports 4, 5
        assertArrayEquals(new int[] {4, 5}, g.ecmpPorts(12, 11));
        assertEquals(4, g.path(0, 11).size());
        assertEquals(2, g.path(0, 3).size());
    }

    @Test
    void starAndDumbbell() {
        final TopologyGraph star = TopologyGraph.build(new Scenario.Topology("star", 5, 0, 0, 0, 0, 0, HOST, HOST));
        assertEquals(1, star.switches());
        assertArrayEquals(new int[] {3}, star.ecmpPorts(5, 3));
        final TopologyGraph db = TopologyGraph.build(new Scenario.Topology("dumbbell", 0, 3, 0, 0, 0, 0, HOST, FABRIC));
        assertEquals(6, db.hosts());
        assertEquals(3, db.path(0, 5).size());
        assertEquals(FABRIC, db.path(0, 5).get(1));
    }
}
