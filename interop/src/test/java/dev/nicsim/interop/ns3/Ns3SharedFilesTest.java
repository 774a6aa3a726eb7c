package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;
import dev.nicsim.fabric.fct.Ns3Paths;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Topology;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The HPCC ns-3 reference runs in {@code ../shared/peers/hpcc-ns3/} read unchanged: the fat tree and
 * the flow file, and the reference's own {@code standalone_fct} reproduced for every one of its
 * 3,160 flows from the topology (ns-3's 48 header bytes per packet). Skipped when the shared
 * directory is absent, failed then with {@code -Dnicsim.requireShared=true}.
 */
class Ns3SharedFilesTest {
    /** ns-3's wire bytes per packet beyond the payload without INT (CustomHeader minus IntHeader). */
    private static final int NS3_HEADER_BYTES = 48;

    static Path shared(final String name) {
        return TestPaths.sharedOrSkip("peers/hpcc-ns3/" + name);
    }

    @Test
    void referenceStandaloneFctIsReproducedForEveryFlow() {
        final Ns3Topology topo = Ns3Topology.read(shared("fat.txt"));
        assertEquals(320, topo.hosts());
        assertEquals(56, topo.switches());
        assertEquals(480, topo.links().size());
        final Ns3Flows flows = Ns3Flows.read(shared("flows-websearch30-5ms.txt"), Integer.MAX_VALUE);
        assertEquals(3160, flows.flows().size());
        final TopologyGraph g = TopologyGraph.build(ScenarioLoader.fileTopology(topo));
        final Ns3Paths paths = new Ns3Paths(g, 1000);
        final Map<List<Long>, Ns3Flows.Flow> byKey = new HashMap<>();
        for (final Ns3Flows.Flow f : flows.flows()) {
            byKey.put(List.of((long) FctFile.nodeIp(f.srcNode()), (long) FctFile.nodeIp(f.dstNode()), f.sizeBytes(), f.startNs()), f);
        }
        for (final String run : new String[] {"fct_fat_ws30_5ms_dcqcn.txt", "fct_fat_ws30_5ms_hp95.txt"}) {
            final List<FctFile.Row> rows = FctFile.read(shared(run));
            assertEquals(3160, rows.size());
            for (final FctFile.Row r : rows) {
                final Ns3Flows.Flow f = byKey.get(List.of((long) r.srcIp(), (long) r.dstIp(), r.sizeBytes(), r.startNs()));
                if (f == null) {
                    fail(run + ":" + r.line() + ": no flow of the flow file has this source, destination, size and start");
                }
                assertEquals(f.srcPort(), r.srcPort(), run + ":" + r.line());
                assertEquals(f.dstPort(), r.dstPort(), run + ":" + r.line());
                assertEquals(r.standaloneFctNs(), paths.standaloneFctNs(topo.hostOf(f.srcNode()), topo.hostOf(f.dstNode()),
                    f.sizeBytes(), NS3_HEADER_BYTES), run + ":" + r.line());
            }
        }
        // third.cc's GLOBAL_T figures for this fat tree: 6 links of 1 us, 2 x 80 + 4 x 20 ns payload transmission
        assertEquals(12_240, paths.maxRttNs());
        assertEquals(153_000, paths.maxBdpBytes());
    }
}
