package dev.nicsim.scenario;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as an HPCC ns-3 topology file ({@code nodes switches links}, the
 * switch ids, then {@code src dst rate delay error_rate} per link), parsed from memory and turned into a
 * scenario topology as {@code topology.type: file} and {@code ns3 import} do. It ends normally or in a
 * one-line {@link ScenarioException}; anything else escaping is a finding, and so is an accepted topology
 * whose host count differs from nodes minus switches. {@code mvn test} replays the committed corpus
 * ({@code Ns3TopologyJazzerTestInputs/}); {@code -Pfuzz} fuzzes it (docs/reliability.md).
 */
class Ns3TopologyJazzerTest {
    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyTopologyReadsOrFailsWithOneLine(final byte[] text) {
        try {
            final Ns3Topology t = Ns3Topology.parse(Path.of("topology.txt"), new String(text, StandardCharsets.UTF_8));
            assertEquals(t.nodes() - t.switches(), t.hosts());
            final Scenario.Topology s = ScenarioLoader.fileTopology(t);
            assertEquals(t.hosts(), s.hosts());
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
