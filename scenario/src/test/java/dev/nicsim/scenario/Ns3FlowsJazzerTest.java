package dev.nicsim.scenario;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.nicsim.nic.RoceNic;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jazzer target (issue 23): any bytes as an HPCC ns-3 flow file (a count, then {@code src dst
 * priority_group dst_port size_bytes start_time_s} per flow), parsed from memory with the size limit
 * {@code ns3 import} uses ({@link RoceNic#MAX_MESSAGE_BYTES}). It ends normally or in a one-line
 * {@link ScenarioException}; anything else escaping is a finding, and so is an accepted flow whose size
 * or start time is outside the documented ranges. {@code mvn test} replays the committed corpus
 * ({@code Ns3FlowsJazzerTestInputs/}); {@code -Pfuzz} fuzzes it (docs/reliability.md).
 */
class Ns3FlowsJazzerTest {
    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyFlowFileReadsOrFailsWithOneLine(final byte[] text) {
        try {
            final Ns3Flows f = Ns3Flows.parse(Path.of("flow.txt"), new String(text, StandardCharsets.UTF_8),
                RoceNic.MAX_MESSAGE_BYTES);
            for (final Ns3Flows.Flow flow : f.flows()) {
                assertTrue(flow.sizeBytes() >= 1 && flow.sizeBytes() <= RoceNic.MAX_MESSAGE_BYTES, flow.toString());
                assertTrue(flow.startNs() >= 0, flow.toString());
            }
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
