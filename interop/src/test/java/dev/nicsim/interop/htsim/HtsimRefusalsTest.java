package dev.nicsim.interop.htsim;

import dev.nicsim.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every refusal of the import is one line naming the file and line, or the flag, and what was
 * expected: malformed connection matrices and topology files, flags nicsim does not model or does
 * not know, and values out of range.
 */
class HtsimRefusalsTest {
    @TempDir
    Path dir;

    private String cmRefused(final String text) throws Exception {
        final Path f = Files.writeString(dir.resolve("bad.cm"), text);
        return assertThrows(ScenarioException.class, () -> HtsimMatrix.read(f)).getMessage()
            .replace(f.toString(), "bad.cm");
    }

    private String flagRefused(final String... flags) throws Exception {
        final Path f = Files.writeString(dir.resolve("one.cm"), HtsimImportTest.ONE);
        return assertThrows(ScenarioException.class,
            () -> HtsimImport.importExperiment(f, null, List.of(flags), dir.resolve("o.yaml"))).getMessage();
    }

    private String topoRefused(final String text) throws Exception {
        final Path f = Files.writeString(dir.resolve("bad.topo"), text);
        return assertThrows(ScenarioException.class, () -> HtsimTopology.read(f)).getMessage()
            .replace(f.toString(), "bad.topo");
    }

    @Test
    void badConnectionMatrixLines() throws Exception {
        assertEquals("bad.cm:1: expected 'Nodes N', got 'Hosts 16'", cmRefused("Hosts 16\nConnections 1\n0->1 start 0 size 9\n"));
        assertEquals("bad.cm:2: Connections: expected an integer in [1, 10000000], got 'x'",
            cmRefused("Nodes 16\nConnections x\n0->1 start 0 size 9\n"));
        assertEquals("bad.cm:3: expected 'SRC->DST [id I] start T size B', got '0-1 start 0 size 9'",
            cmRefused("Nodes 16\nConnections 1\n0-1 start 0 size 9\n"));
        assertEquals("bad.cm:3: DST: expected a host in [0, 15] (Nodes 16), got '16'",
            cmRefused("Nodes 16\nConnections 1\n0->16 start 0 size 9\n"));
        assertEquals("bad.cm:3: DST: expected a host other than SRC 3, got 3",
            cmRefused("Nodes 16\nConnections 1\n3->3 start 0 size 9\n"));
        assertEquals("bad.cm:3: size (bytes): expected an integer in [1, 2147483647], got 0",
            cmRefused("Nodes 16\nConnections 1\n0->1 start 0 size 0\n"));
        assertEquals("bad.cm:3: expected 'id', 'start' or 'size' after '0->1', got 'prio' (SRC->DST [id I] start T size B)",
            cmRefused("Nodes 16\nConnections 1\n0->1 prio 3 start 0 size 9\n"));
        assertEquals("bad.cm:3: expected 'SRC->DST [id I] start T size B': no start in '0->1 size 9'",
            cmRefused("Nodes 16\nConnections 1\n0->1 size 9\n"));
        assertEquals("bad.cm:4: expected 1 connections (line 2), found another: '1->2 start 0 size 9'",
            cmRefused("Nodes 16\nConnections 1\n0->1 start 0 size 9\n1->2 start 0 size 9\n"));
        assertEquals("bad.cm:3: expected 2 connections (line 2), found 1",
            cmRefused("Nodes 16\nConnections 2\n0->1 start 0 size 9\n\n"));
        assertEquals("bad.cm:3: start (us): expected a number in [0, 1000000000], got -5",
            cmRefused("Nodes 16\nConnections 1\n0->1 start -5 size 9\n"));
    }

    @Test
    void flagsNicsimCannotModelOrDoesNotKnow() throws Exception {
        assertEquals("-sleek: SLEEK, htsim's sender-side loss-recovery heuristic, is not modelled", flagRefused("-sleek"));
        assertEquals("-failed: 1: links at 25 % speed (htsim: every ToR's links to its first 1 uplinks) cannot be expressed:"
            + " nicsim's fat_tree and leaf_spine give every switch-to-switch link one rate", flagRefused("-failed", "1"));
        assertEquals("-mtu: not a flag the import maps (it reads -end, -paths, -sender_cc_only, -receiver_cc_only,"
            + " -sender_cc, -receiver_cc, -load_balancing_algo, -q, -ecn, -cwnd, -linkspeed, -failed, -disable_trim,"
            + " -sack_threshold, -sleek, -topo, -seed)", flagRefused("-mtu", "9000"));
        assertEquals("-load_balancing_algo: expected oblivious, bitmap, reps or mixed, got 'ecmp'",
            flagRefused("-load_balancing_algo", "ecmp"));
        assertEquals("-q: expected an integer in [1, 1000000], got 'many'", flagRefused("-q", "many"));
        assertEquals("-end: expected an integer in [1, 100000000] after it, found nothing", flagRefused("-end"));
        assertEquals("-ecn: expected KMIN <= KMAX (packets), got 30 20", flagRefused("-ecn", "30", "20"));
        assertEquals("-ecn: ECN Kmax 60 packets exceeds the queue of 43 packets (htsim asserts ecn_high <= queuesize)",
            flagRefused("-ecn", "10", "60"));
        assertEquals("-q: ECN Kmax 35 packets exceeds the queue of 20 packets (htsim asserts ecn_high <= queuesize)",
            flagRefused("-q", "20"));
        assertEquals("-tm: give the connection matrix as the command's CM argument", flagRefused("-tm", "x.cm"));
        // -failed 0 fails no link: imported
        final Path f = dir.resolve("one.cm");
        HtsimImport.importExperiment(f, null, List.of("-failed", "0"), dir.resolve("o.yaml"));
    }

    @Test
    void hostCountsTheTopologyCannotHold() throws Exception {
        final Path f = Files.writeString(dir.resolve("n.cm"), "Nodes 20\nConnections 1\n0->1 start 0 size 9\n");
        assertEquals(f + ":1: Nodes: without a topology file htsim builds a three-tier fat tree of k^3/4 hosts; expected"
            + " one of 2, 16, 54, 128, ..., 65536 (k even, 2..64), got 20",
            assertThrows(ScenarioException.class, () -> HtsimImport.importExperiment(f, null, List.of(),
                dir.resolve("o.yaml"))).getMessage());
        final Path topo = Files.writeString(dir.resolve("t.topo"), "Nodes 32\nTiers 2\nPodsize 32\nTier 0\n"
            + "Downlink_speed_Gbps 100\nRadix_Down 8\nRadix_Up 8\nDownlink_Latency_ns 1000\nTier 1\n"
            + "Downlink_speed_Gbps 100\nRadix_Down 4\nDownlink_Latency_ns 1000\n");
        assertEquals(f + ":1: Nodes: the topology " + topo + " has 32 nodes, the connection matrix 20 (htsim refuses the"
            + " mismatch too)", assertThrows(ScenarioException.class, () -> HtsimImport.importExperiment(f, topo, List.of(),
            dir.resolve("o.yaml"))).getMessage());
    }

    @Test
    void badTopologyLines() throws Exception {
        final String head = "Nodes 32\nTiers 2\nPodsize 32\nTier 0\nDownlink_speed_Gbps 100\nRadix_Down 8\nRadix_Up 2\n"
            + "Downlink_Latency_ns 1000\n";
        final String tier1 = "Tier 1\nDownlink_speed_Gbps 100\nRadix_Down 4\nDownlink_Latency_ns 1000\n";
        assertEquals("bad.topo:2: Tiers: only two-tier leaf-spines are imported (nicsim's leaf_spine), got 3",
            topoRefused(head.replace("Tiers 2", "Tiers 3") + tier1));
        assertEquals("bad.topo:9: Switch_Latency_ns: nicsim switches forward with no fixed latency; expected 0, got 500",
            topoRefused(head + "Switch_Latency_ns 500\n" + tier1));
        assertEquals("bad.topo:9: Oversubscribed: Radix_Down / Radix_Up of Tier 0 is 8/2, got 2",
            topoRefused(head + "Oversubscribed 2\n" + tier1));
        assertEquals("bad.topo:11: Radix_Down: a spine links once to each of the 4 ToRs (Nodes 32 / Radix_Down 8), got 8",
            topoRefused(head + tier1.replace("Radix_Down 4", "Radix_Down 8")));
        assertEquals("bad.topo:9: expected Downlink_speed_Gbps, Radix_Down, Radix_Up, Downlink_Latency_ns,"
            + " Switch_Latency_ns, Oversubscribed or 'Tier 1', got 'Colour'", topoRefused(head + "Colour blue\n" + tier1));
        assertEquals("bad.topo:9: Bundlesize: not supported by the import (the validation plans' topologies give none):"
            + " nicsim's leaf_spine has one link per ToR-spine pair and the import sizes queues itself",
            topoRefused(head + "Bundlesize 2\n" + tier1));
        assertEquals("bad.topo:8: expected sections 'Tier 0' and 'Tier 1', found 1", topoRefused(head));
        assertEquals("bad.topo:11: expected a 'Downlink_Latency_ns VALUE' line in Tier 1, found none",
            topoRefused(head + tier1.replace("Downlink_Latency_ns 1000\n", "")));
    }
}
