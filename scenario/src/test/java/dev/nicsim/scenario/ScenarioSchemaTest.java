package dev.nicsim.scenario;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.pcc.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every scenario field is declared once, in its {@link ScenarioSchema} row, and the loader, the
 * writer, docs/scenarios.md and the simulator's configuration defaults all follow that row:
 * <ul>
 *   <li>the page's field tables are the rows' Markdown, byte for byte (on a difference the page as
 *       the rows give it is written to {@code target/scenarios.md.expected});</li>
 *   <li>a scenario that gives only the required fields, loaded and written back, holds every
 *       defaulted field at its row's default, in the row's unit, under the row's key: the loader
 *       took the default from the row and the writer wrote the row's key and unit;</li>
 *   <li>every configuration field a row feeds holds the row's default (in simulator units) in a new
 *       configuration object;</li>
 *   <li>the scenario with every field away from its default ({@link ScenarioWriterTest#EVERY_FIELD})
 *       writes exactly the rows' keys, so no field is read or written without a row.</li>
 * </ul>
 */
class ScenarioSchemaTest {
    private static final String MARKER = "<!-- fields: ";

    @Test
    void theDocsFieldTablesAreTheRows() throws Exception {
        final Path page = TestPaths.root().resolve("docs/scenarios.md");
        final String text = Files.readString(page, StandardCharsets.UTF_8);
        final String expected = withTables(text);
        if (!expected.equals(text)) {
            final Path out = TestPaths.root().resolve("fabric/target/scenarios.md.expected");
            Files.createDirectories(out.getParent());
            Files.writeString(out, expected, StandardCharsets.UTF_8);
            fail("docs/scenarios.md field tables differ from ScenarioSchema's rows; the page as the rows give it is " + out
                + " (first difference at line " + firstDifferentLine(text, expected) + ")");
        }
    }

    /** The page with each marked table replaced by its section's rows. */
    static String withTables(final String page) {
        final List<String> lines = new ArrayList<>(List.of(page.split("\n", -1)));
        final Set<String> seen = new HashSet<>();
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            out.add(line);
            if (!line.startsWith(MARKER)) {
                continue;
            }
            final String id = line.substring(MARKER.length(), line.indexOf(" -->"));
            final ScenarioSchema.Section section = ScenarioSchema.SECTIONS.stream().filter(s -> s.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("docs/scenarios.md marks a table '" + id + "' the schema has no section for"));
            assertTrue(seen.add(id), "table " + id + " marked twice");
            while (i + 1 < lines.size() && lines.get(i + 1).startsWith("|")) {
                i++;
            }
            final String table = ScenarioSchema.markdown(section);
            out.addAll(List.of(table.substring(0, table.length() - 1).split("\n", -1)));
        }
        final Set<String> missing = new TreeSet<>();
        for (final ScenarioSchema.Section s : ScenarioSchema.SECTIONS) {
            if (!seen.contains(s.id())) {
                missing.add(s.id());
            }
        }
        assertTrue(missing.isEmpty(), "docs/scenarios.md has no '" + MARKER + "id -->' table for " + missing);
        return String.join("\n", out);
    }

    private static int firstDifferentLine(final String a, final String b) {
        final String[] x = a.split("\n", -1);
        final String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (!x[i].equals(y[i])) {
                return i + 1;
            }
        }
        return Math.min(x.length, y.length) + 1;
    }

    @Test
    void theMarkdownOfARowIsItsColumns() {
        final ScenarioField f = ScenarioField.integer("nic.mtu_bytes", "bytes", 256, 9000, 2048, "payload bytes");
        assertEquals("| field | type | unit | range | default | meaning |\n|---|---|---|---|---|---|\n"
                + "| `mtu_bytes` | integer | bytes | 256 .. 9000 | 2048 | payload bytes |\n",
            ScenarioSchema.markdown(new ScenarioSchema.Section("nic", "nic", List.of(f))));
        assertEquals("10000 .. 2^34", ScenarioField.span(10_000, 1L << 34));
        assertEquals("0.001 .. 10^8", ScenarioField.span(0.001, 1e8));
        assertEquals("1/1024 .. 64", ScenarioField.span(1.0 / 1024, 64));
        assertEquals("0 .. 2^63-1", ScenarioField.span(0, Long.MAX_VALUE));
        assertThrows(IllegalArgumentException.class,
            () -> ScenarioField.integer("nic.mtu_bytes", "bytes", 256, 9000, 100, "a default outside its range"));
    }

    /** A scenario with the required fields only (and IFA2 probes, whose fields are written only then). */
    private static final String DEFAULTS = """
        topology: {type: star, hosts: 16}
        algorithm: {name: dcqcn}
        workload: {type: hotspot, load: 0.5, flows: 10, size_bytes: 1000}
        firmware: {probe: {format: ifa2}}
        """;
    /** A flow list with one entry, for the defaults of an entry's fields. */
    private static final String FLOWS = """
        topology: {type: star, hosts: 2}
        algorithm: {name: dcqcn}
        workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000}]}
        """;

    @Test
    void everyDefaultComesFromItsRowThroughTheLoaderAndTheWriter(@TempDir final Path dir) throws Exception {
        final Map<String, Object> written = new HashMap<>();
        Scenario s = null;
        for (final String text : new String[] {DEFAULTS, FLOWS}) {
            final Path file = dir.resolve("s.yaml");
            s = ScenarioLoader.parse(file, text, List.of(), null);
            flatten("", new Yaml().load(ScenarioWriter.toYaml(s, file, null)), written);
        }
        // DEFAULTS asks for IFA2 probes (so their fields are written); FLOWS gives no format, and the writer
        // writes none for CCMAD probes
        written.put("firmware.probe.format", s.probe().ifa2() ? "ifa2" : "ccmad");
        // the writer writes sampling.counters only when it is all, so files written before the field stay as they were
        assertFalse(written.containsKey("sampling.counters"));
        written.put("sampling.counters", s.sampling().allCounters() ? "all" : "nonzero");
        // the writer writes uet-htsim's switch egress options only when one is set, for the same reason
        assertFalse(written.containsKey("switch.trimming.enabled"));
        final Scenario.UetEgress uet = s.switchSpec().uet();
        written.put("switch.queue_limit_bytes", uet.queueLimitBytes());
        written.put("switch.trimming.enabled", uet.trimming());
        written.put("switch.trimming.header_bytes", uet.trimHeaderBytes());
        written.put("switch.ecn.at_dequeue", uet.ecnAtDequeue());
        // the writer writes the loss-recovery fields only when set, so files written before them stay as they were
        assertFalse(written.containsKey("nic.loss_recovery"));
        written.put("nic.loss_recovery", s.nic().selectiveRepeat() ? "selective_repeat" : "go_back_n");
        written.put("nic.ack_coalesce_bytes", s.nic().ackCoalesceBytes());
        written.put("nic.sr_window_packets", s.nic().srWindowPackets());
        written.put("nic.sr_loss_threshold_packets", s.nic().srLossThresholdPackets());
        // nic.path likewise only away from its defaults
        assertFalse(written.containsKey("nic.path.policy"));
        written.put("nic.path.policy", dev.nicsim.nic.NicConfig.PATH_POLICY_NAMES.get(s.nic().pathPolicy()));
        written.put("nic.path.entropies", s.nic().pathEntropies());
        final Path mailbox = dir.resolve("m.yaml");
        Files.writeString(mailbox, "mailbox: [{at_us: 1, hex: '00', nic: 0}]\n");
        written.put("firmware.mailbox[i].max_response_bytes", ScenarioLoader.mailboxFile(mailbox).get(0).maxResponseBytes());
        int checked = 0;
        for (final ScenarioField f : ScenarioSchema.rows()) {
            final boolean choice = !f.choices().isEmpty() && f.defaultChoice() != null;
            if (!f.hasDefault() && !choice) {
                continue;
            }
            final Object v = written.get(f.path());
            assertNotNull(v, f.path() + " has a default in its row but neither scenario wrote it: " + written.keySet());
            if (choice) {
                assertEquals(f.defaultChoice(), v, f.path());
            } else if (v instanceof List<?> list) {
                int mask = 0;
                for (final Object p : list) {
                    mask |= 1 << ((Number) p).intValue();
                }
                assertEquals((int) f.defaultValue(), mask, f.path() + ": written " + v);
            } else if (f.type().equals("bool")) {
                assertEquals(f.defaultValue() != 0, v, f.path());
            } else {
                assertEquals(f.defaultValue(), ((Number) v).doubleValue(), 0, f.path() + ": written " + v
                    + ", the row's default is " + f.defaultText());
            }
            checked++;
        }
        assertEquals(99, checked, "rows with a default checked");
    }

    /** YAML maps to dotted paths, list entries as [i] (the last entry of a list wins). */
    private static void flatten(final String path, final Object o, final Map<String, Object> out) {
        if (o instanceof Map<?, ?> m) {
            for (final Map.Entry<?, ?> e : m.entrySet()) {
                flatten(path.isEmpty() ? e.getKey().toString() : path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (o instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Map) {
            for (final Object e : l) {
                flatten(path + "[i]", e, out);
            }
        } else {
            out.put(path, o);
        }
    }

    @Test
    void everyConfigurationFieldARowFeedsHoldsTheRowsDefault() throws Exception {
        int checked = 0;
        for (final ScenarioField f : ScenarioSchema.rows()) {
            if (f.feedsClass() == null) {
                continue;
            }
            final String name = f.feeds().substring(f.feeds().indexOf('.') + 1);
            final Field field = f.feedsClass().getDeclaredField(name); // the field exists
            if (!f.hasDefault()) {
                continue; // the row's default depends on other fields (headroom sized from the link, CAM at Kmin)
            }
            field.setAccessible(true);
            Object v = field.get(f.feedsClass().getDeclaredConstructor().newInstance());
            if (v != null && v.getClass().isArray()) {
                v = Array.get(v, 0);
            }
            final double config = v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).doubleValue();
            if (f.path().equals("firmware.probe.ifa2_hop_limit")) {
                // NicConfig holds -1 for CCMAD probes; the row's default is DOCA's hop limit once IFA2 is chosen
                assertEquals(-1, config, f.path());
                continue;
            }
            assertEquals(f.scale() == 1 ? f.defaultValue() : f.defaultScaled(), config, 0, f.path() + " feeds " + f.feeds() + ": the configuration's default "
                + v + " is not the row's " + f.defaultText() + " " + f.unit());
            checked++;
        }
        assertEquals(68, checked, "configuration defaults checked");
    }

    @Test
    void theEveryFieldScenarioWritesExactlyTheRowsKeys(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("every-field.yaml");
        Files.writeString(file, ScenarioWriterTest.EVERY_FIELD);
        final Map<String, Object> written = new TreeMap<>();
        flatten("", new Yaml().load(ScenarioWriter.toYaml(ScenarioLoader.load(file, List.of(), null), file, null)), written);
        final Set<String> rows = new TreeSet<>();
        for (final ScenarioField f : ScenarioSchema.rows()) {
            if (!f.type().equals("mapping") && !f.type().equals("list of mappings") && !f.type().equals("path")) {
                rows.add(f.path());
            }
        }
        final Set<String> keys = new TreeSet<>();
        for (final String k : written.keySet()) {
            keys.add(k.startsWith("algorithm.params.") ? "algorithm.params.<name>" : k);
        }
        final Set<String> unwritten = new TreeSet<>(rows);
        unwritten.removeAll(keys);
        // the fields of other topology and workload types, and the host actions that need firmware
        assertEquals(new TreeSet<>(List.of("algorithm.firmware_model", "firmware.mailbox[i].at_ns", "firmware.mailbox[i].at_us",
            "firmware.mailbox[i].hex", "firmware.mailbox[i].max_response_bytes", "firmware.mailbox[i].nic",
            "firmware.mailbox[i].words", "firmware.np_mailbox", "link_events[i].at_us", "topology.hosts",
            "topology.hosts_per_side", "topology.k", "workload.flows[i].burst_us", "workload.flows[i].class",
            "workload.flows[i].dst", "workload.flows[i].size_bytes", "workload.flows[i].src", "workload.flows[i].start_us",
            "workload.receiver", "workload.senders")), unwritten);
        assertTrue(rows.containsAll(keys), "written without a row: " + new TreeSet<>(keys).removeAll(rows));
        assertEquals(Units.PS_PER_US, ScenarioSchema.row("stop_time_us").scale(), 0);
    }
}
