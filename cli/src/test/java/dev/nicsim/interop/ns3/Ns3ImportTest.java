package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;

import dev.nicsim.cli.Cli;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.scenario.ScenarioWriterTest;
import dev.nicsim.pcc.PccParameterValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.comments.CommentLine;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim ns3 import} on fixtures of this test (three hosts on one switch): the scenario the
 * written file loads to (every mapped key's value, worked out from the configuration in the
 * comments) and its provenance comments, a run of it and its {@code fct.txt}; and the import's
 * rejections. {@code nicsim compare} is tested by {@link FctCompareTest} (hand-made files) and
 * {@link Ns3ReferenceAgreementTest} (the reference simulator's runs).
 */
public class Ns3ImportTest {
    /** Hosts 0, 1, 2 on switch 3, 100 Gb/s, 1 us. */
    public static final String TOPOLOGY = "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n";
    /** Flow 0: 1,542 bytes 0 -> 1 at 1 us; flow 1: 3,000 bytes 2 -> 1 at 50 us; flow 2: 0 -> 1 again at 100 us. */
    public static final String FLOWS = "3\n0 1 3 100 1542 0.000001\n2 1 3 100 3000 0.00005\n0 1 3 100 1000 0.0001\n";
    public static final String CONFIG = """
        ENABLE_QCN 1
        USE_DYNAMIC_PFC_THRESHOLD 1
        PACKET_PAYLOAD_SIZE 1000
        TOPOLOGY_FILE mix/topo.txt
        FLOW_FILE mix/flow.txt
        TRACE_FILE mix/trace.txt
        FCT_OUTPUT_FILE mix/fct.txt
        SIMULATOR_STOP_TIME 0.01
        CC_MODE 1
        ALPHA_RESUME_INTERVAL 1
        RATE_DECREASE_INTERVAL 4
        CLAMP_TARGET_RATE 0
        RP_TIMER 300
        EWMA_GAIN 0.00390625
        FAST_RECOVERY_TIMES 1
        RATE_AI 20Mb/s
        RATE_HAI 200Mb/s
        MIN_RATE 1000Mb/s
        ERROR_RATE_PER_LINK 0.0000
        L2_CHUNK_SIZE 4000
        L2_ACK_INTERVAL 1
        L2_BACK_TO_ZERO 0
        HAS_WIN 0
        GLOBAL_T 1
        VAR_WIN 0
        RATE_BOUND 1
        ACK_HIGH_PRIO 1
        LINK_DOWN 0 0 0
        KMAX_MAP 1 100000000000 1600
        KMIN_MAP 1 100000000000 400
        PMAX_MAP 1 100000000000 0.20
        BUFFER_SIZE 32
        """;

    private static Path fixtures(final Path dir, final String config) throws Exception {
        Files.writeString(dir.resolve("topo.txt"), TOPOLOGY);
        Files.writeString(dir.resolve("flow.txt"), FLOWS);
        final Path c = dir.resolve("config.txt");
        Files.writeString(c, config);
        return c;
    }

    @Test
    void importGivesTheMappedScenarioWhichRunsAndWritesFct(@TempDir final Path dir) throws Exception {
        final Path config = fixtures(dir, CONFIG);
        final Path scenario = dir.resolve("s/imported.yaml");
        Cli.Outcome o = Cli.run("ns3", "import", config.toString(), "--topology", dir.resolve("topo.txt").toString(),
            "--flows", dir.resolve("flow.txt").toString(), "--to", scenario.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("ignored TRACE_FILE mix/trace.txt (line 6)"), o.out());

        // the written file, as the loader reads it
        final Scenario s = ScenarioLoader.load(scenario, List.of(), null);
        assertEquals("imported", s.name());
        assertEquals(1, s.seed());
        assertEquals(10_000_000_000L, s.stopTimePs()); // SIMULATOR_STOP_TIME 0.01 s
        assertEquals("file", s.topology().type());
        assertEquals(dir.resolve("topo.txt").toAbsolutePath().normalize(), s.topology().file().file().toAbsolutePath().normalize());
        assertEquals(32L << 20, s.switchSpec().bufferBytes()); // BUFFER_SIZE 32 (MB x 2^20)
        assertTrue(s.switchSpec().pfcEnabled());
        assertTrue(s.switchSpec().pfcDynamic());
        assertEquals(0.125, s.switchSpec().pfcAlpha());
        assertArrayEquals(new int[] {3}, s.switchSpec().pfcPriorities()); // the flows' priority group
        assertArrayEquals(new int[] {3}, s.switchSpec().wredPriorities()); // ENABLE_QCN 1
        assertTrue(s.switchSpec().ecn());
        // KMIN_MAP 400 KB, KMAX_MAP 1600 KB (KB = 1000 bytes), PMAX_MAP 0.20 at 100 Gb/s
        assertEquals(List.of(new Scenario.RateWred(100_000_000_000L, 400_000, 1_600_000, 0.2)), s.switchSpec().wredByRate());
        assertEquals(1000, s.nic().mtuBytes());
        assertEquals(1, s.nic().ackEveryPackets());
        assertTrue(s.nic().npEnabled());
        assertEquals(0, s.nic().cnpIntervalNs()); // a CNP per CE-marked packet
        assertEquals(3, s.nic().dataPriority());
        assertEquals(Ns3Import.HIGH_ACK_PRIORITY, s.nic().ackPriority()); // ACK_HIGH_PRIO 1
        assertEquals(Ns3Import.HIGH_ACK_DSCP, s.nic().ackDscp());
        assertFalse(s.nic().emulator().enabled());
        assertEquals("dcqcn", s.algorithm().name());
        final PccParameterValues v = s.algorithm().values();
        assertEquals(0.00390625, v.value("g")); // EWMA_GAIN
        assertEquals(1000, v.value("alpha_update_period_ns")); // ALPHA_RESUME_INTERVAL 1 us
        assertEquals(4000, v.value("rate_reduce_monitor_period_ns")); // RATE_DECREASE_INTERVAL 4 us
        assertEquals(300_000, v.value("rpg_time_reset_ns")); // RP_TIMER 300 us
        assertEquals(1, v.value("rpg_threshold")); // FAST_RECOVERY_TIMES
        assertEquals(20, v.value("rpg_ai_rate_mbps")); // RATE_AI 20Mb/s
        assertEquals(200, v.value("rpg_hai_rate_mbps")); // RATE_HAI 200Mb/s
        assertEquals(1000, v.value("rpg_min_rate_mbps")); // MIN_RATE 1000Mb/s
        assertEquals(0, v.value("clamp_tgt_rate")); // CLAMP_TARGET_RATE 0
        assertEquals(0, v.value("rpg_byte_reset_bytes"));
        assertEquals(1, v.value("initial_alpha"));
        assertEquals(1_000_000_000L, s.sampling().queueIntervalPs());
        assertEquals(3, s.workload().flowList().size());
        // 0.000001 s is 9.99999999999999954748e-7 in binary: ns-3's truncation gives 999 ns
        assertEquals(999_000L, s.workload().flowList().get(0).startPs());
        // the scenario the importer built is the one the file gives back
        final Ns3Import.Result r = Ns3Import.importConfig(config, dir.resolve("topo.txt"), dir.resolve("flow.txt"), scenario);
        ScenarioWriterTest.same("", r.scenario(), s);
        // provenance comments on the mapped fields
        final String yaml = Files.readString(scenario);
        assertEquals("BUFFER_SIZE 32 (line 32)", comment(yaml, "switch.buffer_bytes"));
        assertEquals("KMIN_MAP 1 100000000000 400 (line 30); KMAX_MAP 1 100000000000 1600 (line 29);"
            + " PMAX_MAP 1 100000000000 0.20 (line 31)", comment(yaml, "switch.wred.by_rate"));
        assertEquals("RATE_AI 20Mb/s (line 16)", comment(yaml, "algorithm.params.rpg_ai_rate_mbps"));
        assertEquals("TOPOLOGY_FILE mix/topo.txt (line 4)", comment(yaml, "topology.path"));
        assertEquals(null, comment(yaml, "nic.rto_us")); // a default, not from ns-3

        final Path out = dir.resolve("out");
        o = Cli.run("run", scenario.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        final List<FctFile.Row> rows = FctFile.read(out.resolve("fct.txt"));
        assertEquals(3, rows.size());
        final FctFile.Row first = rows.get(0);
        // node 0 -> 0b000001, node 1 -> 0b000101; flow 2 is the pair's second flow: source port 10001
        assertTrue(first.format().startsWith("0b000001 0b000101 10000 100 1542 999 "), first.format());
        // standalone: rtt = 2 x (1000 + 1000) + 2 x floor(1000 x 8e9 / 1e11) = 4,160 ns; total bytes = 1,542 + 2 x 86
        // (nicsim's wire bytes per packet beyond the payload) = 1,714; 1,714 x 8e9 / 1e11 = 137 -> 4,297 ns
        assertEquals(4297, first.standaloneFctNs());
        assertEquals(10001, rows.get(2).srcPort());
        final List<String> flowsCsv = Files.readAllLines(out.resolve("flows.csv"));
        assertEquals(Long.parseLong(flowsCsv.get(1).split(",")[5]), first.fctNs());
    }

    /**
     * The comment at the end of a field's line in a scenario file, parsed by SnakeYAML with
     * comments kept, or null when the field has none.
     *
     * @param yaml  the scenario text
     * @param field dotted field path
     * @return the comment without {@code #} and surrounding blanks
     */
    static String comment(final String yaml, final String field) {
        final LoaderOptions lo = new LoaderOptions();
        lo.setProcessComments(true);
        Node node = new Yaml(lo).compose(new StringReader(yaml));
        List<CommentLine> found = null;
        for (final String key : field.split("\\.")) {
            NodeTuple match = null;
            for (final NodeTuple t : ((MappingNode) node).getValue()) {
                if (((ScalarNode) t.getKeyNode()).getValue().equals(key)) {
                    match = t;
                }
            }
            assertNotNull(match, field + ": no " + key);
            node = match.getValueNode();
            found = new ArrayList<>();
            for (final Node n : new Node[] {match.getKeyNode(), match.getValueNode()}) {
                if (n.getInLineComments() != null) {
                    found.addAll(n.getInLineComments());
                }
            }
        }
        return found.isEmpty() ? null : found.stream().map(c -> c.getValue().trim()).reduce((a, b) -> a + " " + b).get();
    }

    @Test
    void keysNicsimDoesNotModelAreRejectedWithFileAndLine(@TempDir final Path dir) throws Exception {
        final String topo = dir.resolve("topo.txt").toString();
        final String flows = dir.resolve("flow.txt").toString();
        Path c = fixtures(dir, CONFIG.replace("ERROR_RATE_PER_LINK 0.0000", "ERROR_RATE_PER_LINK 0.01"));
        Cli.Outcome o = Cli.run("ns3", "import", c.toString(), "--topology", topo, "--flows", flows, "--to",
            dir.resolve("x.yaml").toString());
        assertEquals(2, o.exitCode());
        assertEquals("nicsim: " + c + ":19: ERROR_RATE_PER_LINK: nicsim models no link errors; expected 0, got 0.01",
            o.errLines().get(0));
        c = fixtures(dir, CONFIG.replace("CC_MODE 1", "CC_MODE 10"));
        o = Cli.run("ns3", "import", c.toString(), "--topology", topo, "--flows", flows, "--to", dir.resolve("x.yaml").toString());
        assertEquals(2, o.exitCode());
        assertTrue(o.errLines().get(0).startsWith("nicsim: " + c + ":9: CC_MODE: 10 (HPCC-PINT"), o.err());
        c = fixtures(dir, CONFIG.replace("KMIN_MAP 1 100000000000 400", "KMIN_MAP 1 400000000000 400"));
        o = Cli.run("ns3", "import", c.toString(), "--topology", topo, "--flows", flows, "--to", dir.resolve("x.yaml").toString());
        assertEquals(2, o.exitCode());
        assertTrue(o.errLines().get(0).startsWith("nicsim: " + c + ":30: KMIN_MAP: no entry for 100000000000 bit/s"), o.err());
        final Path lossy = dir.resolve("lossy-topo.txt");
        Files.writeString(lossy, TOPOLOGY.replace("2 3 100Gbps 1000ns 0\n", "2 3 100Gbps 1000ns 0.5\n"));
        c = fixtures(dir, CONFIG);
        o = Cli.run("ns3", "import", c.toString(), "--topology", lossy.toString(), "--flows", flows, "--to",
            dir.resolve("x.yaml").toString());
        assertEquals(2, o.exitCode());
        assertEquals("nicsim: " + lossy + ":5: error_rate: nicsim models no link errors, expected 0, got 0.5",
            o.errLines().get(0));
        c = fixtures(dir, CONFIG.replace("FLOW_FILE mix/flow.txt\n", ""));
        o = Cli.run("ns3", "import", c.toString(), "--topology", topo, "--to", dir.resolve("x.yaml").toString());
        assertEquals(2, o.exitCode());
        assertEquals("nicsim: " + c + ": no FLOW_FILE key; give --flows FILE", o.errLines().get(0));
    }

    @Test
    void scenarioRejectsAFlowFromASwitchNode(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("topo.txt"), TOPOLOGY);
        Files.writeString(dir.resolve("flow.txt"), "1\n3 1 3 100 1000 0\n");
        final Path s = dir.resolve("s.yaml");
        Files.writeString(s, "topology: {type: file, path: topo.txt}\nalgorithm: {name: dcqcn}\n"
            + "workload: {type: file, path: flow.txt}\n");
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("o").toString(), "--no-progress");
        assertEquals(2, o.exitCode());
        assertEquals("nicsim: " + dir.resolve("flow.txt") + ":2: src: expected a host node id of " + dir.resolve("topo.txt")
            + " (3 is a switch)", o.errLines().get(0));
    }
}
