package dev.nicsim.scenario;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.riscv.CycleModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link ScenarioWriter} is the inverse of {@link ScenarioLoader}: every shipped scenario, loaded,
 * written and loaded again, gives a scenario equal field by field (every record component compared
 * by reflection, so a field the writer forgets or writes in the wrong unit fails here whatever its
 * name); comments land on the fields they name.
 */
public class ScenarioWriterTest {
    @Test
    void everyShippedScenarioSurvivesWriteAndLoad(@TempDir final Path dir) throws Exception {
        final List<Path> shipped;
        try (Stream<Path> s = Files.list(TestPaths.root().resolve("scenarios"))) {
            shipped = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(shipped.size() >= 10, "shipped scenarios: " + shipped);
        final List<String> types = new ArrayList<>();
        for (final Path file : shipped) {
            final Scenario original = ScenarioLoader.load(file, List.of(), null);
            // a directory of its own, so every path the writer makes relative has to climb out of it
            final Path copy = dir.resolve(original.name()).resolve(file.getFileName());
            Files.createDirectories(copy.getParent());
            Files.writeString(copy, ScenarioWriter.toYaml(original, copy, null));
            final Scenario again = ScenarioLoader.load(copy, List.of(), null);
            same(file.getFileName() + ": ", original, again);
            types.add(original.topology().type() + "/" + original.workload().type());
        }
        // the shipped files cover the shapes and workloads the writer has branches for
        for (final String t : new String[] {"star/", "leaf_spine/", "fat_tree/", "/incast", "/poisson", "/hotspot", "/flows"}) {
            assertTrue(types.stream().anyMatch(x -> x.contains(t)), t + " not covered by " + types);
        }
    }

    /** Every field the loader reads, each away from its default (checked below), consistent with the cross-field rules. */
    static final String EVERY_FIELD = """
        name: every-field
        seed: 7
        stop_time_us: 123.5
        topology:
          type: leaf_spine
          leaves: 2
          spines: 3
          hosts_per_leaf: 4
          host_link: {rate_gbps: 25, delay_ns: 300}
          fabric_link: {rate_gbps: 40, delay_ns: 700.5}
        switch:
          buffer_bytes: 20000000
          pfc: {enabled: true, priorities: [2, 4], mode: static, xoff_bytes: 200000, xon_bytes: 100000, alpha: 0.25,
                xon_offset_bytes: 4000, headroom_bytes: 60000}
          wred: {priorities: [4], kmin_bytes: 50000, kmax_bytes: 150000, pmax: 0.5, ecn: false, not_ect_drop_bytes: 70000,
                 by_rate: [{rate_gbps: 40, kmin_bytes: 1, kmax_bytes: 2, pmax: 0.75}]}
          egress: {mode: static, queue_limit_bytes: 500000, alpha: 2}
          strict_priorities: [5]
          cam: {depth: 32, sample_every_packets: 3, congested_bytes: 9000}
          queueing: input_output_queued
          voq_bytes: 300000
          output_queue_bytes: 50000
          trimming: {header_bytes: 80}
          ecn: {at_dequeue: true}
          rcm: {detection: true, flow_recognition: true, regional_control: true, adaptive_routing: true, priorities: [4],
                w_q: 3, q_eq_bytes: 30000, fb_bits: 5, w: 0.25, g_d: 0.01, sample_bytes: 16000, notification_priority: 6,
                notification_lifetime_us: 11, window_period_us: 3, compound_window_decrease: true, harmful_min_entries: 2,
                latch_harmful_set: true, detour_table_entries: 1024, detour_idle_us: 21}
        nic:
          mtu_bytes: 2048
          ack_every_packets: 2
          cnp_interval_us: 5
          np_enabled: false
          rto_us: 900
          tx_burst_packets: 4
          data_priority: 4
          data_dscp: 30
          cnp_priority: 5
          cnp_dscp: 40
          initial_psn: 12345
          ack_priority: 2
          ack_dscp: 20
          loss_recovery: selective_repeat
          ack_coalesce_bytes: 16384
          sr_window_packets: 256
          sr_loss_threshold_packets: 5
          path: {policy: reps, entropies: 128}
          emulator: {enabled: false, cores: 4, threads_per_core: 2, clock_ghz: 1.5, max_instructions_per_event: 5000,
                     ring_capacity: 64, context_cache_entries: 32, dispatch_cycles: 3, context_hit_cycles: 2,
                     context_miss_cycles: 50, write_back_cycles: 5, coalescing: false, high_water_mark: 40,
                     handler_cycles: {tx: 1, ack: 2, nack: 3, cnp: 4, rtt: 5, timer: 6}}
        algorithm: {name: dcqcn, params: {g: 0.125}}
        workload: {type: hotspot, op: read, start_us: 1.5, load: 0.4, flows: 50, size_bytes: 9000, hot_fraction: 0.3,
                   hot_hosts_fraction: 0.25}
        sampling: {queue_interval_us: 5, rate_interval_us: 6, throughput_interval_us: 7, throughput_chart: true, charts: true,
                   counters: all}
        link_events: [{at_us: 3.5, host: 1, state: down}, {at_ns: 9000, host: 1, state: up}]
        firmware: {probe: {format: ifa2, ifa2_gns: 3, ifa2_hop_limit: 9}}
        """;
    /** The same shapes with only the required fields (and other sizes, so those differ too). */
    static final String REQUIRED_ONLY = """
        topology: {type: leaf_spine, leaves: 1, spines: 1, hosts_per_leaf: 16}
        algorithm: {name: dcqcn}
        workload: {type: hotspot, load: 0.5, flows: 10, size_bytes: 1000}
        """;

    @Test
    void aScenarioWithEveryFieldAwayFromItsDefaultSurvivesWriteAndLoad(@TempDir final Path dir) throws Exception {
        final Path full = dir.resolve("every-field.yaml");
        Files.writeString(full, EVERY_FIELD);
        final Path minimal = dir.resolve("required.yaml");
        Files.writeString(minimal, REQUIRED_ONLY);
        final Scenario original = ScenarioLoader.load(full, List.of(), null);
        // the file really moves every field: each leaf of the scenario differs from the defaults', except
        // the types both share and the components those types leave unused
        final java.util.Map<String, String> a = new java.util.TreeMap<>();
        final java.util.Map<String, String> b = new java.util.TreeMap<>();
        leaves("", original, a);
        leaves("", ScenarioLoader.load(minimal, List.of(), null), b);
        assertEquals(a.keySet(), b.keySet());
        final Set<String> shared = Set.of("file", "topology.type", "topology.hosts", "topology.hostsPerSide", "topology.k",
            "topology.file", "algorithm.name", "algorithm.firmware", "algorithm.firmwareModel", "workload.type", "workload.senders",
            "workload.receiver", "workload.cdf", "workload.flowList", "workload.file",
            "mailbox", // messages need firmware: aMailboxSurvivesWriteAndLoad
            "npFirmware", // an ELF path, as algorithm.firmware: firmware.np is written relative like it (ScenarioWriter)
            "switchSpec.uet.trimming", "switchSpec.uet.queueLimitBytes"); // need output queueing: aTrimmingSwitchSurvivesWriteAndLoad
        for (final String k : a.keySet()) {
            if (!shared.contains(k)) {
                assertTrue(!a.get(k).equals(b.get(k)), k + " is at its default " + a.get(k) + " in EVERY_FIELD");
            }
        }
        assertEquals(108, a.size() - shared.size(), "fields checked"); // a new Scenario component lands here: add it to EVERY_FIELD

        final Path copy = dir.resolve("out/copy.yaml");
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, ScenarioWriter.toYaml(original, copy, null));
        same("", original, ScenarioLoader.load(copy, List.of(), null));
    }

    /** The leaves of a scenario: record components (recursing), arrays and lists as text. */
    private static void leaves(final String path, final Object o, final java.util.Map<String, String> out) {
        if (o instanceof Record r && !(o instanceof dev.nicsim.scenario.FlowSpec)) {
            for (final RecordComponent c : r.getClass().getRecordComponents()) {
                try {
                    leaves(path + (path.isEmpty() ? "" : ".") + c.getName(), c.getAccessor().invoke(o), out);
                } catch (final ReflectiveOperationException e) {
                    fail(e);
                }
            }
        } else {
            out.put(path, o instanceof int[] x ? Arrays.toString(x) : String.valueOf(o));
        }
    }

    @Test
    void aTrimmingSwitchSurvivesWriteAndLoad(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("trim.yaml");
        Files.writeString(file, "topology: {type: star, hosts: 3}\nalgorithm: {name: dcqcn}\n"
            + "workload: {type: incast, senders: 2, size_bytes: 1000}\n"
            + "switch: {queue_limit_bytes: 178450, trimming: {enabled: true}}\n");
        final Scenario original = ScenarioLoader.load(file, List.of(), null);
        assertEquals(new Scenario.UetEgress(true, 64, 178_450, false), original.switchSpec().uet());
        final Path copy = dir.resolve("out/copy.yaml");
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, ScenarioWriter.toYaml(original, copy, null));
        same("", original, ScenarioLoader.load(copy, List.of(), null));
        final Path ioq = dir.resolve("ioq.yaml");
        Files.writeString(ioq, Files.readString(file).replace("switch: {", "switch: {queueing: input_output_queued, "));
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(ioq, List.of(), null));
        assertTrue(e.getMessage().contains("queue_limit_bytes"), e.getMessage());
    }

    @Test
    void aMailboxSurvivesWriteAndLoad(@TempDir final Path dir) throws Exception {
        final Path elf = TestPaths.root().resolve("firmware/bin/test/doca_rp_mailbox_budget.elf");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(elf), "no test firmware in this checkout");
        final Path file = dir.resolve("mb.yaml");
        Files.writeString(file, "topology: {type: star, hosts: 3}\nalgorithm: {firmware: " + elf + "}\n"
            + "workload: {type: incast, senders: 2, size_bytes: 1000}\n"
            + "firmware:\n  mailbox:\n    - {at_us: 2.5, words: [0x40000, 7], nic: all, max_response_bytes: 8}\n"
            + "    - {at_ns: 100, hex: '', nic: 1}\n");
        final Scenario original = ScenarioLoader.load(file, List.of(), null);
        assertEquals(List.of(new Scenario.MailboxMessage(100_000, "", 1, 1024),
            new Scenario.MailboxMessage(2_500_000, "0000040007000000", Scenario.ALL_NICS, 8)), original.mailbox());
        final Path copy = dir.resolve("out/copy.yaml");
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, ScenarioWriter.toYaml(original, copy, null));
        same("", original, ScenarioLoader.load(copy, List.of(), null));
    }

    @Test
    void ns3FilesAndCommentsAreWritten(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("topo.txt"), "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 25Gbps 500ns 0\n");
        Files.writeString(dir.resolve("flow.txt"), "2\n0 1 3 100 1542 0.000001\n2 1 3 100 3000 0.00005\n");
        final Path s = dir.resolve("s.yaml");
        Files.writeString(s, "topology: {type: file, path: topo.txt}\nalgorithm: {name: timely, params: {rate_ai_mbps: 7}}\n"
            + "workload: {type: file, path: flow.txt, start_us: 2.5}\nswitch: {wred: {by_rate: [{rate_gbps: 25, kmin_bytes: 5,"
            + " kmax_bytes: 6, pmax: 0.125}]}}\nnic: {initial_psn: random, ack_priority: 5, ack_dscp: 40}\n");
        final Scenario original = ScenarioLoader.load(s, List.of(), null);
        final Path copy = dir.resolve("out/copy.yaml");
        Files.createDirectories(copy.getParent());
        final ScenarioWriter.Comments c = new ScenarioWriter.Comments().header("first line").footer("last line")
            .above("nic.mtu_bytes", "above mtu").inline("nic.mtu_bytes", "one").inline("nic.mtu_bytes", "two")
            .inline("switch.wred.by_rate", "by rate").inline("algorithm.params.rate_ai_mbps", "ai");
        final String yaml = ScenarioWriter.toYaml(original, copy, c);
        Files.writeString(copy, yaml);
        same("", original, ScenarioLoader.load(copy, List.of(), null));
        final List<String> lines = yaml.lines().toList();
        assertEquals("# first line", lines.get(0));
        assertEquals("# last line", lines.get(lines.size() - 1));
        assertEquals("", lines.get(lines.size() - 2));
        assertEquals("  # above mtu", lines.get(lines.indexOf("  mtu_bytes: 1024 # one; two") - 1));
        assertTrue(lines.contains("    by_rate: # by rate"), yaml);
        assertTrue(lines.contains("    rate_ai_mbps: 7 # ai"), yaml);
        assertTrue(lines.contains("  path: ../topo.txt"), yaml);
        assertTrue(lines.contains("  initial_psn: random"), yaml);

        final ScenarioWriter.Comments lost = new ScenarioWriter.Comments().inline("nic.no_such_field", "x");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ScenarioWriter.toYaml(original, copy, lost));
        assertEquals("comments for fields that are not written: [nic.no_such_field]", e.getMessage());
    }

    @Test
    void numbersAreWrittenAsTheShortestDecimalWithoutExponent() {
        assertEquals("4000000", ScenarioField.format(4e6));
        assertEquals("0.00390625", ScenarioField.format(1.0 / 256));
        assertEquals("0.0000001", ScenarioField.format(1e-7));
        assertEquals("0.1", ScenarioField.format(0.1));
        assertEquals("-1", ScenarioField.format(-1));
    }

    /**
     * Asserts two scenarios are equal component by component, recursing into records and lists;
     * files (the scenario's own excepted) by their normalised absolute path, algorithms by name
     * and class, parameter values by their raw values.
     *
     * @param where prefix of failure messages
     * @param a     one scenario (or component)
     * @param b     the other
     */
    public static void same(final String where, final Object a, final Object b) {
        if (a == null || b == null) {
            assertEquals(a, b, where);
            return;
        }
        if (a instanceof Record r) {
            assertEquals(a.getClass(), b.getClass(), where);
            for (final RecordComponent c : r.getClass().getRecordComponents()) {
                if (r instanceof Scenario && "file".equals(c.getName())) {
                    continue; // where each was read from
                }
                try {
                    same(where + c.getName() + ".", c.getAccessor().invoke(a), c.getAccessor().invoke(b));
                } catch (final ReflectiveOperationException e) {
                    fail(e);
                }
            }
        } else if (a instanceof int[] x) {
            assertEquals(Arrays.toString(x), Arrays.toString((int[]) b), where);
        } else if (a instanceof List<?> x) {
            final List<?> y = (List<?>) b;
            assertEquals(x.size(), y.size(), where + "size");
            for (int i = 0; i < x.size(); i++) {
                same(where + "[" + i + "].", x.get(i), y.get(i));
            }
        } else if (a instanceof Path x) {
            assertEquals(x.toAbsolutePath().normalize(), ((Path) b).toAbsolutePath().normalize(), where);
        } else if (a instanceof Ns3Flows x) {
            same(where + "file.", x.file(), ((Ns3Flows) b).file());
        } else if (a instanceof FlowSizeCdf x) {
            same(where + "source.", Path.of(x.source()), Path.of(((FlowSizeCdf) b).source()));
            assertEquals(x.meanBytes(), ((FlowSizeCdf) b).meanBytes(), where + "mean");
        } else if (a instanceof CycleModel x) {
            assertEquals(x.name(), ((CycleModel) b).name(), where);
        } else if (a instanceof PccAlgorithmProvider x) {
            assertEquals(x.name(), ((PccAlgorithmProvider) b).name(), where);
            assertEquals(x.getClass(), b.getClass(), where);
        } else {
            assertEquals(a, b, where); // numbers, strings, booleans, parameter values (descriptors and raw values)
        }
    }
}
