package dev.nicsim.fabric.rcm;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.fabric.workload.WorkloadGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The workloads the the RCM paper §4.2 experiments are written with: an explicit {@code flows} list
 * (with {@code burst_us} micro-bursts and class labels) and the {@code hotspot} Poisson variant.
 */
class RcmWorkloadTest {
    @TempDir
    Path dir;

    private Scenario load(final String topology, final String workload) throws IOException {
        final Path f = dir.resolve("w.yaml");
        Files.writeString(f, """
            topology:
            %s
            nic: {mtu_bytes: 4096}
            algorithm: {name: dcqcn}
            workload:
            %s
            """.formatted(topology.stripTrailing(), workload.stripTrailing()));
        return ScenarioLoader.load(f, List.of(), null);
    }

    private static final String DUMBBELL = "  type: dumbbell\n  hosts_per_side: 4\n  host_link: {rate_gbps: 100}";

    @Test
    void flowsAreTakenInListOrderWithTheirClassAndBurstSize() throws IOException {
        final Scenario s = load(DUMBBELL, """
              type: flows
              start_us: 10
              flows:
                - {src: 0, dst: 4, size_bytes: 5000, class: incast}
                - {src: 5, dst: 4, start_us: 150, burst_us: 20, class: burst}
                - {src: 1, dst: 2, size_bytes: 7}
            """);
        final List<FlowSpec> flows = WorkloadGenerator.generate(s.workload(), 8, 100_000_000_000L, s.seed());
        assertEquals(3, flows.size());
        assertEquals(new FlowSpec(0, 0, 4, 5000, 10_000_000, "incast"), flows.get(0));
        // 20 us of line time at 100 Gb/s with MTU 4096: a WRITE MIDDLE frame is 4096 + 66 bytes, plus 20
        // of preamble and gap: 4182 x 8 / 100 Gb/s = 334.56 ns; floor(20 000 / 334.56) = 59 packets,
        // 59 x 4096 = 241 664 bytes; start 10 + 150 us
        assertEquals(new FlowSpec(1, 5, 4, 241_664, 160_000_000, "burst"), flows.get(1));
        assertEquals(FlowSpec.DEFAULT_CLASS, flows.get(2).flowClass());
        assertEquals(241_664, ScenarioLoader.burstBytes(20_000_000, 100_000_000_000L, 4096));
    }

    @Test
    void badFlowEntriesNameTheirIndex() {
        final String both = assertThrows(ScenarioException.class, () -> load(DUMBBELL, """
              type: flows
              flows:
                - {src: 0, dst: 4, size_bytes: 5000}
                - {src: 5, dst: 4, size_bytes: 10, burst_us: 20}
            """)).getMessage();
        assertTrue(both.endsWith("workload.flows[1].burst_us: give either size_bytes or burst_us, not both"), both);
        final String self = assertThrows(ScenarioException.class, () -> load(DUMBBELL, """
              type: flows
              flows: [{src: 3, dst: 3, size_bytes: 1}]
            """)).getMessage();
        assertTrue(self.endsWith("workload.flows[0].dst: expected a host other than src (3), got 3"), self);
        final String range = assertThrows(ScenarioException.class, () -> load(DUMBBELL, """
              type: flows
              flows: [{src: 0, dst: 8, size_bytes: 1}]
            """)).getMessage();
        assertTrue(range.endsWith("workload.flows[0].dst: expected an integer in [0, 7], got 8"), range);
        final String notList = assertThrows(ScenarioException.class, () -> load(DUMBBELL, """
              type: flows
              flows: 3
            """)).getMessage();
        assertTrue(notList.contains("workload.flows: expected a list of mappings"), notList);
    }

    @Test
    void hotspotSendsTheHotFractionToTheHotSetAndTheRestUniformly() throws IOException {
        final Scenario s = load("  type: fat_tree\n  k: 4", """
              type: hotspot
              load: 0.5
              flows: 4000
              size_bytes: 10000
              hot_fraction: 0.15
              hot_hosts_fraction: 0.125
            """);
        final int hosts = 16; // k = 4: k^3 / 4
        final int[] hot = WorkloadGenerator.hotSet(s.workload(), hosts, s.seed());
        assertEquals(2, hot.length); // round(0.125 x 16) = 2 hot hosts
        final boolean[] isHot = new boolean[hosts];
        for (final int h : hot) {
            isHot[h] = true;
        }
        final List<FlowSpec> flows = WorkloadGenerator.generate(s.workload(), hosts, 100_000_000_000L, s.seed());
        int hotFlows = 0;
        for (final FlowSpec f : flows) {
            assertTrue(f.src() != f.dst());
            assertEquals(10_000, f.sizeBytes());
            if (WorkloadGenerator.HOT.equals(f.flowClass())) {
                hotFlows++;
                assertTrue(isHot[f.dst()], "hot flow to a cold host: " + f);
            } else {
                assertEquals(WorkloadGenerator.BACKGROUND, f.flowClass());
            }
        }
        // Binomial(4000, 0.15): mean 600, sd sqrt(4000 x 0.15 x 0.85) = 22.6; +-5 sd = [487, 713]
        assertTrue(hotFlows >= 487 && hotFlows <= 713, "hot flows " + hotFlows);
        // mean inter-arrival: load x hosts x rate / (8 x size) = 0.5 x 16 x 100e9 / 80 000 = 10 flows/us, so
        // the 4000th flow starts near 400 us (sd of a sum of 4000 exponentials: 400 / sqrt(4000) = 6.3 us)
        final long lastUs = flows.get(flows.size() - 1).startPs() / 1_000_000;
        assertTrue(lastUs > 370 && lastUs < 430, "last start " + lastUs + " us");
        // the hot set is a function of the seed only
        assertArrayEquals(hot, WorkloadGenerator.hotSet(s.workload(), hosts, s.seed()));
    }

    @Test
    void hotspotNeedsAtLeastTwoHotHosts() {
        final String e = assertThrows(ScenarioException.class, () -> load("  type: star\n  hosts: 8", """
              type: hotspot
              load: 0.5
              flows: 10
              size_bytes: 1000
            """)).getMessage();
        // round(0.125 x 8) = 1 host
        assertTrue(e.endsWith("workload.hot_hosts_fraction: expected a fraction giving 2..7 of the 8 hosts "
            + "(round(fraction x hosts)), got 0.125 (1 hosts)"), e);
    }
}
