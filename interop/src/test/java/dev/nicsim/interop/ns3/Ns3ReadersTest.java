package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The three ns-3 readers on small fixtures: what they read, and file:line for every malformed line. */
class Ns3ReadersTest {
    private static final Path T = Path.of("t.txt");
    /** Two switches (ids 0 and 3), hosts 1, 2, 4: a host-first order is not required. */
    static final String TOPOLOGY = """
        5 2 4
        0 3
        1 0 100Gbps 1000ns 0
        2 0 100Gb/s 0.001ms 0.000000
        0 3 400Gbps 1us 0
        4 3 25Gbps 500ns 0
        """;

    @Test
    void topologyMapsHostsInNodeOrderAndParsesRatesAndDelays() {
        final Ns3Topology t = Ns3Topology.parse(T, TOPOLOGY);
        assertEquals(3, t.hosts());
        assertEquals(2, t.switches());
        assertEquals(0, t.hostOf(1));
        assertEquals(1, t.hostOf(2));
        assertEquals(2, t.hostOf(4));
        assertEquals(-1, t.hostOf(3));
        assertEquals(4, t.hostNode(2));
        assertEquals(100_000_000_000L, t.links().get(1).rateBitsPerSec());
        assertEquals(1_000_000L, t.links().get(1).delayPs());
        assertEquals(1_000_000L, t.links().get(2).delayPs());
        assertEquals(500_000L, t.links().get(3).delayPs());
        assertArrayEquals(new long[] {25_000_000_000L, 100_000_000_000L, 400_000_000_000L}, t.linkRates());
    }

    private static String err(final Runnable r) {
        return assertThrows(ScenarioException.class, r::run).getMessage();
    }

    @Test
    void topologyRejectsMalformedLinesWithFileAndLine() {
        assertEquals("t.txt:1: expected 'nodes switches links' (3 fields), got 2 fields: '5 2'",
            err(() -> Ns3Topology.parse(T, "5 2\n0 3\n")));
        assertEquals("t.txt:2: switch id: expected an integer in [0, 4], got 7",
            err(() -> Ns3Topology.parse(T, "5 2 1\n0 7\n1 0 1Gbps 1ns 0\n")));
        assertEquals("t.txt:3: rate: expected a rate such as 100Gbps or 20Mb/s, got '100Gbit'",
            err(() -> Ns3Topology.parse(T, TOPOLOGY.replace("1 0 100Gbps", "1 0 100Gbit"))));
        assertEquals("t.txt:4: delay: expected a time such as 1000ns or 0.001ms, got 'soon'",
            err(() -> Ns3Topology.parse(T, TOPOLOGY.replace("0.001ms", "soon"))));
        assertEquals("t.txt:5: expected 'src dst rate delay error_rate' (5 fields), got 4 fields: '0 3 400Gbps 1us'",
            err(() -> Ns3Topology.parse(T, TOPOLOGY.replace("1us 0", "1us"))));
        assertEquals("t.txt:6: host 4 has a second link; nicsim hosts have one port",
            err(() -> Ns3Topology.parse(T, "5 2 4\n0 3\n1 0 1Gbps 1ns 0\n2 0 1Gbps 1ns 0\n4 3 1Gbps 1ns 0\n4 0 1Gbps 1ns 0\n")));
        assertEquals("t.txt:6: expected 4 link lines 'src dst rate delay error_rate' (line 1), found 3",
            err(() -> Ns3Topology.parse(T, TOPOLOGY.replace("4 3 25Gbps 500ns 0\n", ""))));
        assertEquals("t.txt:4: link 1-2 joins two hosts; nicsim hosts connect to switches only",
            err(() -> Ns3Topology.parse(T, "3 1 2\n0\n1 0 1Gbps 1ns 0\n1 2 1Gbps 1ns 0\n")));
        assertEquals("t.txt:1: node 2 has no link", err(() -> Ns3Topology.parse(T, "3 1 1\n0\n1 0 1Gbps 1ns 0\n")));
    }

    @Test
    void flowsTruncateStartLikeNs3AndNumberSourcePortsPerPair() {
        final Ns3Flows f = Ns3Flows.parse(T, """
            3
            1 2 3 100 50095 2.000006128
            1 2 3 100 10 2.5
            2 1 3 200 7 0
            """, Integer.MAX_VALUE);
        assertEquals(3, f.flows().size());
        // 2.000006128 is 2.00000612799999992... in binary: ns-3 writes 2000006127 ns
        assertEquals(2_000_006_127L, f.flows().get(0).startNs());
        assertEquals(2_500_000_000L, f.flows().get(1).startNs());
        assertEquals(10000, f.flows().get(0).srcPort());
        assertEquals(10001, f.flows().get(1).srcPort());
        assertEquals(10000, f.flows().get(2).srcPort());
        assertEquals(200, f.flows().get(2).dstPort());
        assertEquals(4, f.flows().get(2).line());
    }

    @Test
    void flowsRejectMalformedLinesWithFileAndLine() {
        assertEquals("t.txt:1: flow count: expected an integer in [1, 100000000], got 'x'",
            err(() -> Ns3Flows.parse(T, "x\n", 10)));
        assertEquals("t.txt:3: expected 2 flow lines 'src dst priority_group dst_port size_bytes start_time_s' (line 1), found 1",
            err(() -> Ns3Flows.parse(T, "2\n1 2 3 100 5 0\n", 10)));
        assertEquals("t.txt:2: size_bytes: expected an integer in [1, 10], got 11",
            err(() -> Ns3Flows.parse(T, "1\n1 2 3 100 11 0\n", 10)));
        assertEquals("t.txt:2: priority_group: expected an integer in [0, 7], got 9",
            err(() -> Ns3Flows.parse(T, "1\n1 2 9 100 5 0\n", 10)));
        assertEquals("t.txt:2: dst: expected a node other than src (1), got 1",
            err(() -> Ns3Flows.parse(T, "1\n1 1 3 100 5 0\n", 10)));
        assertEquals("t.txt:2: start_time_s: expected a number in [0, 1000000], got 'now'",
            err(() -> Ns3Flows.parse(T, "1\n1 2 3 100 5 now\n", 10)));
        assertEquals("t.txt:2: expected 'src dst priority_group dst_port size_bytes start_time_s' (6 fields), got 5 fields:"
            + " '1 2 3 100 5'", err(() -> Ns3Flows.parse(T, "1\n1 2 3 100 5\n", 10)));
    }

    @Test
    void configRejectsUnknownRepeatedAndMalformedKeysWithFileAndLine() {
        final Ns3Config c = Ns3Config.parse(T, "CC_MODE 1\n\nKMIN_MAP 2 100000000000 400 400000000000 1600\nLINK_DOWN 0 0 0\n");
        assertEquals(3, c.get("KMIN_MAP").line());
        assertEquals("1", c.get("CC_MODE").value());
        assertEquals("t.txt:2: unknown key 'FOO' (not one the HPCC ns-3 simulator's third.cc reads)",
            err(() -> Ns3Config.parse(T, "CC_MODE 1\nFOO 2\n")));
        assertEquals("t.txt:3: CC_MODE: repeated (first on line 1)",
            err(() -> Ns3Config.parse(T, "CC_MODE 1\nMIN_RATE 1Mb/s\nCC_MODE 3\n")));
        assertEquals("t.txt:1: expected 'CC_MODE value' (2 fields), got 3 fields: 'CC_MODE 1 3'",
            err(() -> Ns3Config.parse(T, "CC_MODE 1 3\n")));
        assertEquals("t.txt:1: KMAX_MAP: expected N = 2 pairs 'rate value' after N (5 values), got 3 values",
            err(() -> Ns3Config.parse(T, "KMAX_MAP 2 100000000000 1600\n")));
        assertEquals("t.txt:1: expected 'LINK_DOWN time_us src dst' (4 fields), got 2 fields: 'LINK_DOWN 0'",
            err(() -> Ns3Config.parse(T, "LINK_DOWN 0\n")));
    }

    @Test
    void fctFileRoundTripsAndRejectsMalformedLines(@TempDir final Path dir) throws Exception {
        final FctFile.Row r = new FctFile.Row(FctFile.nodeIp(192), FctFile.nodeIp(66), 10000, 100, 50095, 2000006127L, 16336,
            16443, 0);
        assertEquals("0b00c001 0b004201 10000 100 50095 2000006127 16336 16443", r.format());
        assertEquals(0x0b010101, FctFile.nodeIp(257));
        assertEquals(1.0, r.slowdown()); // fct below standalone is clamped at 1
        final Path f = dir.resolve("fct.txt");
        FctFile.write(f, java.util.List.of(r));
        assertEquals(r.format(), FctFile.read(f).get(0).format());
        java.nio.file.Files.writeString(f, r.format() + "\n0b00c0zz 0b004201 10000 100 1 2 3 4\n");
        assertEquals(f + ":2: src_ip: expected 8 hex digits such as 0b00c001, got '0b00c0zz'", err(() -> FctFile.read(f)));
    }
}
