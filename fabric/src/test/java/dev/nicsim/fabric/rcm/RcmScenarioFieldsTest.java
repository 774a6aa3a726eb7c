package dev.nicsim.fabric.rcm;

import dev.nicsim.fabric.run.DeviceConfigs;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.sw.RcmConfig;
import dev.nicsim.sw.SwitchConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario fields of regional congestion mitigation (the RCM paper §3, §4.1): {@code switch.queueing},
 * {@code voq_bytes}, {@code output_queue_bytes}, {@code cam.congested_bytes} and every field of
 * {@code switch.rcm}, mapped onto the switch model's {@link SwitchConfig} / {@link RcmConfig} by
 * {@link Runner#switchConfig}, and their validation errors (one line naming file, line and field path).
 */
class RcmScenarioFieldsTest {
    /** A two-host star; {@code %s} is replaced by the switch section's body. */
    private static final String TEMPLATE = """
        name: rcm-fields
        topology:
          type: star
          hosts: 2
          host_link: {rate_gbps: 100, delay_ns: 1000}
        switch:
        %s
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 1
          size_bytes: 1000
        """;

    private static final String ALL_FIELDS = """
          queueing: input_output_queued
          voq_bytes: 120000
          output_queue_bytes: 90000
          strict_priorities: [6]
          pfc: {enabled: true}
          cam: {depth: 32, sample_every_packets: 2, congested_bytes: 12345}
          rcm:
            detection: true
            flow_recognition: true
            regional_control: true
            adaptive_routing: true
            priorities: [3, 4]
            w_q: 1.5
            q_eq_bytes: 30000
            fb_bits: 5
            w: 0.25
            g_d: 0.02
            sample_bytes: 4096
            notification_priority: 5
            notification_lifetime_us: 7.5
            window_period_us: 3
            compound_window_decrease: true
            harmful_min_entries: 6
            latch_harmful_set: true
            detour_table_entries: 1024
            detour_idle_us: 40
        """;

    @TempDir
    Path dir;

    private Scenario load(final String switchBody, final String... overrides) throws IOException {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, TEMPLATE.formatted(switchBody.stripTrailing()));
        return ScenarioLoader.load(f, List.of(overrides), null);
    }

    private String error(final String switchBody, final String... overrides) {
        return assertThrows(ScenarioException.class, () -> load(switchBody, overrides)).getMessage();
    }

    @Test
    void everyRcmFieldMapsOntoTheSwitchModel() throws IOException {
        final Scenario s = load(ALL_FIELDS);
        final SwitchConfig c = DeviceConfigs.switchConfig(s.switchSpec(), s.nic());
        assertEquals(SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED, c.queueing);
        assertEquals(120_000, c.voqBytes);
        assertEquals(90_000, c.outputQueueBytes);
        assertEquals(32, c.camDepth);
        assertEquals(2, c.camSamplePeriod);
        assertEquals(12_345, c.camCongestedBytes);
        final RcmConfig r = c.rcm;
        assertTrue(r.detection && r.flowRecognition && r.regionalControl && r.adaptiveRouting);
        assertEquals((1 << 3) | (1 << 4), r.priorityMask); // [3, 4] -> bits 3 and 4 = 0x18
        assertEquals(1.5, r.wq);
        assertEquals(30_000, r.qEqBytes);
        assertEquals(5, r.fbBits);
        assertEquals(0.25, r.w);
        assertEquals(0.02, r.gd); // 31 x 0.02 = 0.62 <= 1: allowed with fb_bits 5
        assertEquals(4096, r.sampleBytes);
        assertEquals(5, r.notificationPriority);
        assertEquals(7_500_000, r.notificationLifetimePs); // 7.5 us = 7 500 000 ps
        assertEquals(3_000_000, r.windowPeriodPs);
        assertTrue(r.compoundWindowDecrease);
        assertEquals(6, r.harmfulMinEntries);
        assertTrue(r.latchHarmfulSet);
        assertEquals(1024, r.detourTableEntries);
        assertEquals(40_000_000, r.detourIdlePs);
        // strict_priorities [6] plus the notification priority 5 (RCM on): 0x40 | 0x20 = 0x60
        assertEquals(0x60, c.strictPriorityMask);
    }

    @Test
    void withoutAnRcmSectionTheDefaultsOfTheSwitchModelApplyAndNothingIsOn() throws IOException {
        final Scenario s = load("  buffer_bytes: 1000000");
        final SwitchConfig c = DeviceConfigs.switchConfig(s.switchSpec(), s.nic());
        final RcmConfig d = new RcmConfig();
        assertEquals(SwitchConfig.Queueing.OUTPUT_QUEUED, c.queueing);
        assertEquals(100_000, c.voqBytes);          // the RCM paper §4.1: 100 KB queues
        assertEquals(100_000, c.outputQueueBytes);
        assertEquals(SwitchConfig.CAM_THRESHOLD_KMIN, c.camCongestedBytes);
        assertFalse(c.rcm.anyEnabled());
        assertEquals(1 << 3, c.rcm.priorityMask);   // the data priority (nic.data_priority 3)
        assertEquals(d.wq, c.rcm.wq);
        assertEquals(d.qEqBytes, c.rcm.qEqBytes);
        assertEquals(d.fbBits, c.rcm.fbBits);
        assertEquals(d.w, c.rcm.w);
        assertEquals(RcmConfig.GD_AUTO, c.rcm.gd);
        assertEquals(d.sampleBytes, c.rcm.sampleBytes);
        assertEquals(7, c.rcm.notificationPriority);
        assertEquals(d.notificationLifetimePs, c.rcm.notificationLifetimePs);
        assertEquals(d.windowPeriodPs, c.rcm.windowPeriodPs);
        assertEquals(d.harmfulMinEntries, c.rcm.harmfulMinEntries);
        assertEquals(d.latchHarmfulSet, c.rcm.latchHarmfulSet);
        assertEquals(d.detourTableEntries, c.rcm.detourTableEntries);
        assertEquals(d.detourIdlePs, c.rcm.detourIdlePs);
        assertEquals(0xC0, c.strictPriorityMask);   // default strict_priorities [6, 7], unchanged
    }

    @Test
    void theNotificationPriorityIsMadeStrictWhenRcmIsOn() throws IOException {
        final Scenario s = load("  strict_priorities: []\n  rcm: {detection: true}");
        // no strict priority asked for; detection on adds priority 7: 1 << 7 = 0x80
        assertEquals(0x80, DeviceConfigs.switchConfig(s.switchSpec(), s.nic()).strictPriorityMask);
        final Scenario off = load("  strict_priorities: []");
        assertEquals(0, DeviceConfigs.switchConfig(off.switchSpec(), off.nic()).strictPriorityMask);
    }

    @Test
    void camCongestedBytesAcceptsTheWordKmin() throws IOException {
        assertEquals(SwitchConfig.CAM_THRESHOLD_KMIN, load("  cam: {congested_bytes: kmin}").switchSpec().camCongestedBytes());
        assertEquals(0, load("  cam: {congested_bytes: 0}").switchSpec().camCongestedBytes());
    }

    @Test
    void badValuesNameTheFieldPath() {
        assertTrue(error("  rcm: {regional_control: true, detection: true}").endsWith(
            "switch.rcm.regional_control: needs switch.queueing: input_output_queued (held packets wait in their VOQs)"));
        assertTrue(error("  queueing: input_output_queued\n  rcm: {regional_control: true}").endsWith(
            "switch.rcm.regional_control: needs switch.rcm.detection: true (RCC reacts to detected congestion)"));
        assertTrue(error("  rcm: {adaptive_routing: true, detection: true}").contains("switch.rcm.adaptive_routing: needs"));
        assertTrue(error("  rcm: {priorities: [3, 7]}").contains(
            "switch.rcm.priorities: notification_priority (7) must not be one of the watched priorities [3, 7]"));
        assertTrue(error("  rcm: {notification_priority: 3}").contains("switch.rcm.notification_priority: notification_priority (3)"));
        // fb_bits 6: F_bmax = 63 quantised units, 63 x 0.02 = 1.26 > 1
        assertTrue(error("  rcm: {g_d: 0.02}").contains("switch.rcm.g_d: expected 0 (auto: 1 / (2 x 63))"));
        assertTrue(error("  rcm: {w: 1.5}").endsWith("switch.rcm.w: expected a number in [0, 1], got 1.5"));
        assertTrue(error("  rcm: {detour_table_entries: 1000}").endsWith(
            "switch.rcm.detour_table_entries: expected a power of two in [1, 1048576], got 1000"));
        // harmful_min_entries is bounded by the CAM depth (16 by default)
        assertTrue(error("  rcm: {harmful_min_entries: 17}").endsWith(
            "switch.rcm.harmful_min_entries: expected an integer in [1, 16], got 17"));
        assertTrue(error("  rcm: {windows: 3}").contains("switch.rcm.windows: unknown field"));
        assertTrue(error("  queueing: shared").contains("switch.queueing: expected one of output_queued, input_output_queued"));
        // PFC headroom at 100 Gb/s, 1 us, 1024-byte MTU: 25 000 + 2 x (1106 + 20) + 84 + 1106 (the frame
        // that crosses xoff) = 28 442 bytes
        assertTrue(error("  queueing: input_output_queued\n  voq_bytes: 28000\n  pfc: {enabled: true}").contains(
            "switch.voq_bytes: expected more than the PFC headroom (28442 bytes"));
        // every error is one line naming the file and the line of the value
        final String e = error("  rcm: {w: 2}");
        assertTrue(e.matches(".*s\\.yaml:\\d+: switch\\.rcm\\.w: .*") && !e.contains("\n"), e);
    }

    @Test
    void overridesReachTheRcmSection() throws IOException {
        final Scenario s = load(ALL_FIELDS, "switch.rcm.w=0.75", "switch.rcm.window_period_us=10");
        assertEquals(0.75, s.switchSpec().rcm().w());
        assertEquals(10_000_000, s.switchSpec().rcm().windowPeriodPs());
        final String e = assertThrows(ScenarioException.class, () -> load(ALL_FIELDS, "switch.rcm.fb_bits=17")).getMessage();
        assertEquals("--set switch.rcm.fb_bits: expected an integer in [1, 16], got 17", e);
    }
}
