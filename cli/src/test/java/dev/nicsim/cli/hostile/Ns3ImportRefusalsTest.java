package dev.nicsim.cli.hostile;

import dev.nicsim.interop.ns3.Ns3ImportTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 23, defects 1 and 4 for {@code nicsim ns3 import}: its scenario never overwrites a file it
 * reads (the configuration, or the topology and flow files it names), and a topology or flow file
 * that {@code nicsim run} could not run is refused at import, exit 2, one line naming the file and
 * line. Fixtures: {@link Ns3ImportTest}'s three hosts (nodes 0-2) on switch 3.
 */
class Ns3ImportRefusalsTest {
    @TempDir
    Path dir;

    private Path config() throws Exception {
        Files.writeString(dir.resolve("topo.txt"), Ns3ImportTest.TOPOLOGY);
        Files.writeString(dir.resolve("flow.txt"), Ns3ImportTest.FLOWS);
        return Files.writeString(dir.resolve("config.txt"), Ns3ImportTest.CONFIG);
    }

    /** Imports with the given topology and flow text, expects exit 2 and nothing written; returns the line. */
    private String refused(final String topology, final String flows) throws Exception {
        final Path c = config();
        Files.writeString(dir.resolve("t.txt"), topology);
        Files.writeString(dir.resolve("f.txt"), flows);
        final Path to = dir.resolve("s.yaml");
        final String line = Hostile.badInput("ns3", "import", c.toString(), "--topology", dir.resolve("t.txt").toString(),
            "--flows", dir.resolve("f.txt").toString(), "--to", to.toString());
        assertFalse(Files.exists(to), "a scenario was written");
        return line;
    }

    @Test
    void theScenarioNeverOverwritesAnInput() throws Exception {
        final Path c = config();
        final Path topo = dir.resolve("topo.txt");
        final Path flow = dir.resolve("flow.txt");
        // the configuration itself, under another spelling too
        for (final Path to : List.of(c, dir.resolve(".").resolve("config.txt"))) {
            final String line = Hostile.badInput("ns3", "import", c.toString(), "--to", to.toString());
            assertEquals("nicsim: --to " + to + ": is an input of this command (" + c + "); writing it would overwrite it;"
                + " give another file", line);
        }
        // the topology and flow files the configuration's TOPOLOGY_FILE / FLOW_FILE name
        assertEquals("nicsim: --to " + topo + ": is an input of this command (" + topo + "); writing it would overwrite it;"
            + " give another file", Hostile.badInput("ns3", "import", c.toString(), "--to", topo.toString()));
        assertEquals("nicsim: --to " + flow + ": is an input of this command (" + flow + "); writing it would overwrite it;"
            + " give another file", Hostile.badInput("ns3", "import", c.toString(), "--to", flow.toString()));
        // the same file through a symbolic link
        final Path link = Files.createSymbolicLink(dir.resolve("link.txt"), flow);
        assertEquals("nicsim: --to " + link + ": is an input of this command (" + flow + "); writing it would overwrite it;"
            + " give another file", Hostile.badInput("ns3", "import", c.toString(), "--to", link.toString()));
        // a path beneath an input file
        final Path beneath = c.resolve("s.yaml");
        assertEquals("nicsim: --to " + beneath + ": lies beneath the input file " + c + ", which is not a directory;"
            + " give another file", Hostile.badInput("ns3", "import", c.toString(), "--to", beneath.toString()));
        assertEquals("nicsim: --to: the path is empty; give a file or directory name",
            Hostile.badInput("ns3", "import", c.toString(), "--to", ""));
        // every input unchanged
        assertEquals(Ns3ImportTest.CONFIG, Files.readString(c));
        assertEquals(Ns3ImportTest.TOPOLOGY, Files.readString(topo));
        assertEquals(Ns3ImportTest.FLOWS, Files.readString(flow));
        // and a scenario beside them is written
        Hostile.ok("ns3", "import", c.toString(), "--to", dir.resolve("s.yaml").toString());
    }

    @Test
    void disconnectedSwitchesAreRefusedAtImport() throws Exception {
        // hosts 0, 1 on switch 4; hosts 2, 3 on switch 5; no link between the switches
        final String topo = "6 2 4\n4 5\n0 4 100Gbps 1000ns 0\n1 4 100Gbps 1000ns 0\n2 5 100Gbps 1000ns 0\n"
            + "3 5 100Gbps 1000ns 0\n";
        assertEquals("nicsim: " + dir.resolve("t.txt") + ":5: link 2-5 is not connected to node 0 (line 3); nicsim"
            + " routes between every pair of hosts, so every node must be reachable from every other",
            refused(topo, "1\n0 1 3 100 1000 0\n"));
    }

    @Test
    void aDelayWithoutAUnitIsRefusedAtImport() throws Exception {
        assertEquals("nicsim: " + dir.resolve("t.txt") + ":4: delay: expected a time with a unit such as 1000ns or 1us,"
            + " got '1000' (without a unit ns-3 reads it as seconds)",
            refused(Ns3ImportTest.TOPOLOGY.replace("1 3 100Gbps 1000ns", "1 3 100Gbps 1000"), Ns3ImportTest.FLOWS));
        // with a unit, but beyond the 1 s a scenario's delay_ns allows
        assertEquals("nicsim: " + dir.resolve("t.txt") + ":5: delay: expected at most 1s (1000000000ns), got 1000000001 ns",
            refused(Ns3ImportTest.TOPOLOGY.replace("2 3 100Gbps 1000ns", "2 3 100Gbps 1000000001ns"), Ns3ImportTest.FLOWS));
    }

    @Test
    void aDelayWhosePfcHeadroomFillsTheBufferIsRefusedAtImport() throws Exception {
        // 1 s at 100 Gb/s: 2 x 1 s x 100 Gb/s / 8 = 25,000,000,000 bytes on the wire, plus the frames in flight
        // (SwitchConfig.requiredHeadroomBytes): 2 x (1082 + 20) + (64 + 20) + 1082 = 3,370 with 1082-byte frames
        // (PACKET_PAYLOAD_SIZE 1000 + RETH 16 + RoCEv2 headers 66); one lossless priority; BUFFER_SIZE 32 = 33,554,432
        final Path t = dir.resolve("t.txt");
        assertEquals("nicsim: " + t + ":4: delay: link 1-3 (1000000000 ns at 100.0 Gb/s) needs 25000003370 bytes of PFC"
            + " headroom on switch node 3 (2 x delay x rate plus the frames in flight, per lossless priority), which with the"
            + " links before it there reaches its 33554432-byte buffer (BUFFER_SIZE, " + dir.resolve("config.txt")
            + ":32), so nicsim run could not build the switch; shorten the delay or raise BUFFER_SIZE",
            refused(Ns3ImportTest.TOPOLOGY.replace("1 3 100Gbps 1000ns", "1 3 100Gbps 1s"), Ns3ImportTest.FLOWS));
        // 1 ms: 25,000,000 + 3,370 = 25,003,370 bytes; with the two 1 us links (25,000 + 3,370 each) 25,060,110 bytes,
        // under the buffer: the import writes the scenario and the run builds and runs it
        final Path c = config();
        Files.writeString(t, Ns3ImportTest.TOPOLOGY.replace("1 3 100Gbps 1000ns", "1 3 100Gbps 1ms"));
        final Path ok = dir.resolve("ok.yaml");
        Hostile.ok("ns3", "import", c.toString(), "--topology", t.toString(), "--flows", dir.resolve("flow.txt").toString(),
            "--to", ok.toString());
        Hostile.ok("run", ok.toString(), "--no-progress", "--out", dir.resolve("o").toString());
    }

    @Test
    void aFlowToASwitchOrToNoNodeIsRefusedAtImport() throws Exception {
        final Path t = dir.resolve("t.txt");
        assertEquals("nicsim: " + dir.resolve("f.txt") + ":3: dst: expected a host node id of " + t + " (3 is a switch)",
            refused(Ns3ImportTest.TOPOLOGY, "2\n0 1 3 100 1000 0\n0 3 3 100 1000 0\n"));
        assertEquals("nicsim: " + dir.resolve("f.txt") + ":2: dst: expected a host node id of " + t + " (9 is not a node)",
            refused(Ns3ImportTest.TOPOLOGY, "1\n0 9 3 100 1000 0\n"));
        assertEquals("nicsim: " + dir.resolve("f.txt") + ":2: src: expected a host node id of " + t + " (3 is a switch)",
            refused(Ns3ImportTest.TOPOLOGY, "1\n3 1 3 100 1000 0\n"));
    }
}
