package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.fabric.topology.TopologyGraph;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link PartitionPlan}: the split of shipped shapes, derived by hand from the rules in its javadoc. */
class PartitionPlanTest {
    private static final Scenario.Link HOST = new Scenario.Link(100_000_000_000L, 1_000_000);
    private static final Scenario.Link FABRIC = new Scenario.Link(400_000_000_000L, 2_000_000);

    private static int[] switchPartitions(final TopologyGraph g, final PartitionPlan p) {
        final int[] r = new int[g.switches()];
        for (int s = 0; s < r.length; s++) {
            r[s] = p.partitionOf(g.hosts() + s);
        }
        return r;
    }

    /**
     * 8 leaves x 16 hosts, 4 spines, 2 partitions: leaf i (hosts 16i..) goes to floor((16i + 8) x 2 / 128):
     * leaves 0-3 to 0, 4-7 to 1. Every spine has 4 leaves in each: ties, broken by node count
     * (68 each, then 69 against 68, ...): spines 0, 2 to partition 0 and 1, 3 to partition 1.
     * Each spine has 4 links to the other side: 16 cut links; L = the fabric delay.
     */
    @Test
    void leafSpineSplitsItsLeavesInHalvesAndAlternatesTheSpines() {
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("leaf_spine", 0, 0, 8, 4, 16, 0, HOST, FABRIC));
        final PartitionPlan p = PartitionPlan.of(g, 2);
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1}, switchPartitions(g, p));
        assertArrayEquals(new int[] {64, 64}, p.hostsPerPartition());
        assertEquals(0, p.partitionOf(63));
        assertEquals(1, p.partitionOf(64));
        assertEquals(16, p.cutEdges().size());
        assertEquals(2_000_000, p.lookAheadPs());
    }

    /**
     * k = 4 fat tree (switches in index order: per pod edge0, edge1, agg0, agg1; then 4 cores), 2
     * partitions: the 8 edge switches have 2 hosts each, edge i goes to floor((2i + 1) x 2 / 16):
     * pods 0, 1 to 0 and pods 2, 3 to 1. Round 1: every aggregation switch has both its edge
     * switches in one partition. Round 2: every core has one aggregation switch in each pod, 2
     * votes each: ties, broken by node count (16 and 16, then 17 and 16, ...): cores 0, 2 to 0 and
     * 1, 3 to 1. Each core has 2 links to the other side: 8 cut links.
     */
    @Test
    void fatTreeKeepsPodsWholeAndSpreadsTheCores() {
        final TopologyGraph g = TopologyGraph.build(new Scenario.Topology("fat_tree", 0, 0, 0, 0, 0, 4, HOST, FABRIC));
        final PartitionPlan p = PartitionPlan.of(g, 2);
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1}, switchPartitions(g, p));
        assertEquals(8, p.cutEdges().size());
        final PartitionPlan four = PartitionPlan.of(g, 4); // a pod each; the cores one each (1 vote in every pod)
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 0, 1, 2, 3}, switchPartitions(g, four));
        assertArrayEquals(new int[] {4, 4, 4, 4}, four.hostsPerPartition());
        final PartitionPlan one = PartitionPlan.of(g, 1);
        assertEquals(0, one.cutEdges().size());
    }

    @Test
    void refusesWhatItCannotSplit() {
        final TopologyGraph star = TopologyGraph.build(new Scenario.Topology("star", 5, 0, 0, 0, 0, 0, HOST, HOST));
        assertEquals("--partitions 2: the topology has 1 access switch(es) (switches with hosts); give at most 1",
            assertThrows(ScenarioException.class, () -> PartitionPlan.of(star, 2)).getMessage());
        assertEquals("--partitions must be at least 1, got 0",
            assertThrows(ScenarioException.class, () -> PartitionPlan.of(star, 0)).getMessage());
        final TopologyGraph zero = TopologyGraph.build(new Scenario.Topology("leaf_spine", 0, 0, 2, 1, 2, 0, HOST,
            new Scenario.Link(400_000_000_000L, 0)));
        assertEquals("--partitions 2: the link leaf1 port 2 - spine0 port 1 crosses partitions and has a delay of 0 ns;"
                + " a partitioned run needs a positive delay on every cut link (give the link a delay or use --partitions 1)",
            assertThrows(ScenarioException.class, () -> PartitionPlan.of(zero, 2)).getMessage());
    }
}
