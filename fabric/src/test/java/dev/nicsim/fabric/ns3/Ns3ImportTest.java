package dev.nicsim.fabric.ns3;

import dev.nicsim.fabric.Cli;
import dev.nicsim.fabric.scenario.Scenario;
import dev.nicsim.fabric.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim ns3 import} and a run of the imported scenario on fixtures of this test (three hosts
 * on one switch), then {@code fct.txt} and {@code nicsim compare}; and the import's rejections.
 */
class Ns3ImportTest {
    /** Hosts 0, 1, 2 on switch 3, 100 Gb/s, 1 us. */
    static final String TOPOLOGY = "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n";
    /** Flow 0: 1,542 bytes 0 -> 1 at 1 us; flow 1: 3,000 bytes 2 -> 1 at 50 us; flow 2: 0 -> 1 again at 100 us. */
    static final String FLOWS = "3\n0 1 3 100 1542 0.000001\n2 1 3 100 3000 0.00005\n0 1 3 100 1000 0.0001\n";
    static final String CONFIG = """
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
    void importRunFctAndCompare(@TempDir final Path dir) throws Exception {
        final Path config = fixtures(dir, CONFIG);
        final Path scenario = dir.resolve("s/imported.yaml");
        Cli.Outcome o = Cli.run("ns3", "import", config.toString(), "--topology", dir.resolve("topo.txt").toString(),
            "--flows", dir.resolve("flow.txt").toString(), "--to", scenario.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("ignored TRACE_FILE mix/trace.txt (line 6)"), o.out());
        final String yaml = Files.readString(scenario);
        assertTrue(yaml.contains("path: ../topo.txt"), yaml);
        assertTrue(yaml.contains("# BUFFER_SIZE 32 (line 32)"), yaml);
        assertTrue(yaml.contains("- {rate_gbps: 100, kmin_bytes: 400000, kmax_bytes: 1600000, pmax: 0.2}"), yaml);
        assertTrue(yaml.contains("rpg_ai_rate_mbps: 20"), yaml);

        final Scenario s = ScenarioLoader.load(scenario, List.of(), null);
        assertEquals(32L << 20, s.switchSpec().bufferBytes());
        assertEquals(Ns3Import.HIGH_ACK_PRIORITY, s.nic().ackPriority());
        assertEquals(1000, s.nic().mtuBytes());
        assertEquals(3, s.workload().flowList().size());
        // 0.000001 s is 9.99999999999999954748e-7 in binary: ns-3's truncation gives 999 ns
        assertEquals(999_000L, s.workload().flowList().get(0).startPs());
        assertEquals(10_000_000_000L, s.stopTimePs());

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

        // compare the run with itself: every flow matches, ratio 1
        o = Cli.run("compare", out.toString(), out.resolve("fct.txt").toString(), "--out", dir.resolve("cmp").toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows matched 3; unmatched: 0 in the run, 0 in the reference"), o.out());
        final List<String> csv = Files.readAllLines(dir.resolve("cmp/compare.csv"));
        assertEquals("bucket,percentile,nicsim,reference,ratio", csv.get(0));
        assertEquals(16, csv.size());
        assertTrue(csv.get(1).startsWith("all,p50,") && csv.get(1).endsWith(",1.000"), csv.get(1));
        assertTrue(Files.size(dir.resolve("cmp/compare.png")) > 0);

        // a reference none of whose flows match (start 12,345 ns): one line and exit 2, no charts of nothing
        final Path other = dir.resolve("other-fct.txt");
        Files.writeString(other, "0b000001 0b000101 10000 100 1542 12345 4240 4297\n");
        o = Cli.run("compare", out.toString(), other.toString(), "--out", dir.resolve("cmp2").toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: " + other + ": no flow matches one of " + out.resolve("fct.txt")
            + " by (src_ip, dst_ip, size, start_ns) (3 flows in the run, 1 in the reference)", o.errLines().get(0));
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
