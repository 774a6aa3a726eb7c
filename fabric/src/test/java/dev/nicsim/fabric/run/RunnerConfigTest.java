package dev.nicsim.fabric.run;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.sw.SwitchConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the runner maps a scenario's sections onto the switch and emulator models, and its
 * accessors, on the incast-dcqcn scenario cut to two hosts (values from that YAML file).
 */
class RunnerConfigTest {
    private static Scenario scenario(final String... more) {
        final List<String> o = new ArrayList<>(List.of("topology.hosts=2", "workload.senders=1", "workload.receiver=1"));
        o.addAll(List.of(more));
        return ScenarioLoader.load(TestPaths.root().resolve("scenarios/incast-dcqcn.yaml"), o, null);
    }

    @Test
    void switchSectionMapsOntoTheSwitchModel() {
        final Scenario s = scenario("switch.strict_priorities=[1,6]");
        final SwitchConfig c = DeviceConfigs.switchConfig(s.switchSpec(), s.nic());
        for (int p = 0; p < 8; p++) {
            assertEquals(p == 3, c.pfcEnabled[p], "pfc on priority " + p); // pfc.priorities: [3]
            assertEquals(100_000, c.xoffBytes[p]);
            assertEquals(80_000, c.xonBytes[p]);
            assertEquals(60_000, c.headroomBytes[p]);
            assertEquals(p == 3, c.wredProfiles[p] != null, "wred on priority " + p);
        }
        assertEquals(SwitchConfig.ThresholdMode.STATIC, c.pfcThresholdMode); // mode: static
        assertEquals(100_000, c.wredProfiles[3].kminBytes());
        assertEquals(400_000, c.wredProfiles[3].kmaxBytes());
        assertEquals(0.2, c.wredProfiles[3].pmax());
        assertEquals((1 << 1) | (1 << 6), c.strictPriorityMask);
        assertEquals(1024 + 66 + 16, c.maxFrameBytes); // the largest frame: a full WRITE first packet with RETH
        assertEquals(33_554_432, c.bufferBytes);
        assertEquals(s.nic().dataPriority(), c.dscpToPriority[s.nic().dataDscp()]);
        assertEquals(s.nic().cnpPriority(), c.dscpToPriority[s.nic().cnpDscp()]);
        // PFC off: no priority is paused, whatever pfc.priorities says
        final Scenario off = scenario("switch.pfc.enabled=false");
        final SwitchConfig c2 = DeviceConfigs.switchConfig(off.switchSpec(), off.nic());
        for (int p = 0; p < 8; p++) {
            assertFalse(c2.pfcEnabled[p]);
        }
        assertEquals(0xC0, c2.strictPriorityMask); // default strict priorities 6 and 7
    }

    @Test
    void emulatorSectionMapsOntoTheEmulatorOrNullWhenDisabled() {
        final int[] handler = {-1, 120, -1, -1, -1, 7};
        final Scenario.Emulator e = new Scenario.Emulator(true, 2, 3, 500_000_000L, 16, 32, 3, 4, 25, 6, false, 12, handler, 0);
        final EmulatorConfig c = DeviceConfigs.emulatorConfig(e);
        assertEquals(2, c.cores());
        assertEquals(3, c.threadsPerCore());
        assertEquals(500_000_000L, c.clockHz());
        assertEquals(16, c.ringCapacity());
        assertEquals(32, c.contextCacheEntries());
        assertEquals(3, c.dispatchCycles());
        assertEquals(4, c.contextHitCycles());
        assertEquals(25, c.contextMissCycles());
        assertEquals(6, c.writeBackCycles());
        assertFalse(c.coalescing());
        assertEquals(12, c.overloadHighWaterMark());
        final EmulatorConfig dflt = new EmulatorConfig();
        assertEquals(dflt.handlerCyclesOverride(0), c.handlerCyclesOverride(0)); // -1: not overridden
        assertEquals(120, c.handlerCyclesOverride(1));
        assertEquals(7, c.handlerCyclesOverride(5));
        final int[] zero = {0, -1, -1, -1, -1, -1};
        assertEquals(0, DeviceConfigs.emulatorConfig(new Scenario.Emulator(true, 1, 1, 1_000_000_000L, 16, 32, 3, 4, 25, 6, true, 12,
            zero, 0)).handlerCyclesOverride(0)); // 0 is an override, not "unset"
        assertNull(DeviceConfigs.emulatorConfig(new Scenario.Emulator(false, 2, 3, 500_000_000L, 16, 32, 3, 4, 25, 6, false, 12,
            handler, 0)));
    }

    @Test
    void accessorsAndInt(@TempDir final Path tmp) throws Exception {
        final Scenario s = scenario();
        assertFalse(DeviceConfigs.usesInt(s));
        assertTrue(DeviceConfigs.usesInt(scenario("algorithm.name=hpcc")));
        try (TimeSeriesWriter w = new TimeSeriesWriter(tmp)) {
            final Runner r = new Runner(s, w);
            assertEquals(2, r.hostCount());
            assertEquals(1, r.flowCount());
            assertEquals(1, r.flows().size());
            assertEquals(1, r.switches().size());
            assertNotSame(r.nic(0), r.nic(1));
            assertEquals("host: expected 0..1, got 2",
                assertThrows(IllegalArgumentException.class, () -> r.nic(2)).getMessage());
            assertEquals("host: expected 0..1, got -1",
                assertThrows(IllegalArgumentException.class, () -> r.nic(-1)).getMessage());
        }
    }
}
