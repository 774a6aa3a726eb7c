package dev.nicsim.interop.htsim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario text {@code nicsim htsim import} writes, against figures derived by hand from
 * htsim's formulas (network RTT = 2 x diameter latency + (4,150 + 64) B x 8 / rate per diameter
 * link; BDP = ceil(RTT x rate / 4,150 B); queue 1 BDP; Kmin/Kmax = ceil(20 % / 80 % of the BDP);
 * RTO = 15 us + queue x 4,150 B x 6 x 8 / rate), each packet count in nicsim frames of
 * 4,086 + 66 = 4,152 bytes. The connection matrices are written here, not read from ../shared.
 */
class HtsimImportTest {
    @TempDir
    Path dir;

    /** one.cm of uet-htsim's plans, as its format gives it: one 2 MB connection 0 -> 13 on 16 nodes. */
    static final String ONE = "Nodes 16\nConnections 1\n0->13 start 0 size 2000000\n\n";

    /** The scenario written for one.cm with {@code -end 1000 -sender_cc_only}, every line derived by hand. */
    static final String ONE_YAML = """
        # Imported by `nicsim htsim import` from one.cm (uet-htsim connection matrix).
        # htsim flags: -end 1000 -sender_cc_only
        # Derived as htsim derives them: network RTT 14.02272 us, BDP 43 packets of 4150 B; packet counts below are\
         nicsim data frames of 4152 B (4086 B payload + 66 B RoCEv2 headers).
        # Approximation: a nicsim data frame takes 22 B (0.5 %) more line time than htsim's 4150-byte packet (RoCEv2\
         headers and the 20-byte preamble and gap against htsim's 64-byte header).
        name: htsim-one
        seed: 13  # htsim's default seed
        stop_time_us: 1000  # -end 1000
        topology:
          type: fat_tree
          k: 4  # htsim's three-tier fat tree: k^3/4 = 16 hosts (Nodes 16)
          host_link: {rate_gbps: 100, delay_ns: 1000}  # htsim's 100 Gb/s, 1 us per link
          fabric_link: {rate_gbps: 100, delay_ns: 1000}  # switch latency 0
        switch:
          queue_limit_bytes: 178536  # 43 packets per egress port (1 BDP)
          egress: {mode: static, queue_limit_bytes: 178536}  # the same limit for the data queue
          wred:
            kmin_bytes: 37368  # 9 packets, ceil(20 % / 80 % of 43)
            kmax_bytes: 145320  # 35 packets
            pmax: 1  # htsim marks with probability (q - Kmin) / (Kmax - Kmin), always above Kmax
            not_ect_drop_bytes: 178536  # htsim drops nothing below a full queue
          ecn: {at_dequeue: true}  # htsim decides ECN at dequeue
          trimming: {enabled: true, header_bytes: 64}
        nic:
          mtu_bytes: 4086  # htsim's 4150-byte packet less its 64-byte header
          np_enabled: false  # UET echoes ECN on ACKs; no CNPs
          ack_priority: 7  # htsim queues ACKs and NACKs with the trimmed headers, served before data: a strict priority here
          ack_dscp: 46  # a DSCP of their own, mapped to that priority
          rto_us: 100.656  # htsim's minimum RTO: 15 us + queue x 6 / rate
          loss_recovery: selective_repeat
          sr_loss_threshold_packets: 0  # htsim without SLEEK resends on NACK and timeout only, never on SACK holes
          ack_coalesce_bytes: 16384  # htsim's default
          path: {policy: mixed, entropies: 64}  # -load_balancing_algo, -paths (htsim's defaults: mixed, 64)
          emulator: {enabled: false}  # htsim's CC reacts at once
        algorithm:
          name: nscc  # NSCC at the sender
        sampling: {queue_interval_us: 100, rate_interval_us: 100, throughput_interval_us: 100}
        workload:
          type: flows
          flows:  # one RDMA WRITE per connection of one.cm, in file order
            - {src: 0, dst: 13, start_us: 0, size_bytes: 2000000}
        """;

    private HtsimImport.Result importText(final String name, final String cm, final String... flags) throws Exception {
        final Path f = Files.writeString(dir.resolve(name), cm);
        return HtsimImport.importExperiment(f, null, List.of(flags), dir.resolve("out.yaml"));
    }

    @Test
    void oneCmIsTheHandDerivedScenario() throws Exception {
        // RTT: 2 x 6 links x 1 us + 6 x (4150 + 64) B x 8 / 100 Gb/s = 12 us + 2.02272 us = 14.02272 us
        // BDP: 14.02272 us x 12.5 GB/s = 175,284 B = 42.24 packets of 4150 B -> 43; Kmin ceil(8.6) = 9, Kmax ceil(34.4) = 35
        // queue 43 x 4152 = 178,536 B; RTO 15 + 43 x 4150 x 48 / 1e11 s = 15 + 85.656 us
        final HtsimImport.Result r = importText("one.cm", ONE, "-end", "1000", "-sender_cc_only");
        assertEquals(ONE_YAML, r.yaml());
        assertEquals(List.of(), r.notes());
        assertEquals(new HtsimImport.Figures(4, 100, 14_022_720, 43, 43, 9, 35, 178_536, 37_368, 145_320, 100.656),
            r.figures());
    }

    @Test
    void the1024NodePermutationWith128Paths() throws Exception {
        // a 1024-node permutation: every host sends 2 MB to (i + 512) mod 1024
        final StringBuilder cm = new StringBuilder("Nodes 1024\nConnections 1024\n");
        for (int i = 0; i < 1024; i++) {
            cm.append(i).append("->").append((i + 512) % 1024).append(" id ").append(i + 1).append(" start 0 size 2000000\n");
        }
        final HtsimImport.Result r = importText("perm_1024n.cm", cm.toString(), "-sender_cc_only", "-end", "400",
            "-paths", "128");
        final String y = r.yaml();
        // k^3/4 = 1024 -> k = 16; the diameter is 6 links at any k, so RTT, BDP and queues are one.cm's
        assertTrue(y.contains("\n  k: 16  # htsim's three-tier fat tree: k^3/4 = 1024 hosts (Nodes 1024)\n"), y);
        assertEquals(new HtsimImport.Figures(16, 100, 14_022_720, 43, 43, 9, 35, 178_536, 37_368, 145_320, 100.656),
            r.figures());
        assertTrue(y.contains("\n  path: {policy: mixed, entropies: 128}"), y);
        assertTrue(y.contains("\nstop_time_us: 400  # -end 400\n"), y);
        assertTrue(y.contains("\nname: htsim-perm_1024n\n"), y);
        assertEquals(1024, y.lines().filter(l -> l.startsWith("    - {src: ")).count());
        assertTrue(y.contains("\n    - {src: 1023, dst: 511, start_us: 0, size_bytes: 2000000}\n"), y);
    }

    @Test
    void fasterLinksSmallerQueueAndExplicitEcn() throws Exception {
        // -linkspeed 400000 Mb/s: RTT = 12 us + 6 x (83 + 1.28) ns = 12.50568 us; BDP = 12.50568 us x 50 GB/s / 4150
        // = 150.67 -> 151 packets (not used: -q 100 and -ecn 25 75 are given)
        // RTO = 15 + 100 x 4150 x 48 / 4e11 s = 15 + 49.8 us
        final HtsimImport.Result r = importText("one.cm", ONE, "-linkspeed", "400000", "-q", "100", "-ecn", "25", "75",
            "-cwnd", "150", "-receiver_cc_only", "-load_balancing_algo", "reps", "-sack_threshold", "4000", "-seed", "7");
        assertEquals(new HtsimImport.Figures(4, 400, 12_505_680, 151, 100, 25, 75, 415_200, 103_800, 311_400, 64.8),
            r.figures());
        final String y = r.yaml();
        assertTrue(y.contains("  host_link: {rate_gbps: 400, delay_ns: 1000}  # -linkspeed, 1 us per link\n"), y);
        assertTrue(y.contains("  queue_limit_bytes: 415200  # 100 packets per egress port (-q 100)\n"), y);
        assertTrue(y.contains("    kmin_bytes: 103800  # 25 packets, -ecn 25 75\n"), y);
        assertTrue(y.contains("  name: rccc  # RCCC at the receiver\n"), y);
        assertTrue(y.contains("  params:\n    initial_window_bytes: 622500  # -cwnd 150 packets x 4150 B\n"), y);
        assertTrue(y.contains("  ack_coalesce_bytes: 4000  # -sack_threshold\n"), y);
        assertTrue(y.contains("  path: {policy: reps, entropies: 64}"), y);
        assertTrue(y.contains("\nseed: 7  # -seed\n"), y);
        assertEquals(List.of("-receiver_cc_only: htsim marks no ECN on ToR downlinks when the receiver's credit runs;"
            + " nicsim marks on every switch port"), r.notes());
        assertTrue(y.contains("# Approximation: " + r.notes().get(0) + "\n"), y);
    }

    @Test
    void noTrimmingMeansFiveBdpQueuesAndBothControls() throws Exception {
        // 5 x 43 = 215 packets = 892,680 B; RTO 15 + 215 x 4150 x 48 / 1e11 s = 15 + 428.28 us
        final HtsimImport.Result r = importText("one.cm", ONE, "-disable_trim", "-sender_cc", "-receiver_cc");
        assertEquals(new HtsimImport.Figures(4, 100, 14_022_720, 43, 215, 9, 35, 892_680, 37_368, 145_320, 443.28),
            r.figures());
        final String y = r.yaml();
        assertTrue(y.contains("  trimming: {enabled: false, header_bytes: 64}  # -disable_trim\n"), y);
        assertTrue(y.contains("  name: nscc-rccc  # NSCC and RCCC\n"), y);
        assertTrue(y.contains("\nstop_time_us: 100000  # no -end"), y);
    }

    @Test
    void aLeafSpineFromItsTopologyFile() throws Exception {
        // leaf_spine_tiny's shape: 32 nodes, 8 per ToR (4 ToRs), 2 uplinks each (2 spines), 4:1
        final Path topo = Files.writeString(dir.resolve("tiny.topo"), "Nodes 32\nTiers 2\nPodsize 32\n\nTier 0\n"
            + "Downlink_speed_Gbps 100\nRadix_Down 8\nRadix_Up 2\nDownlink_Latency_ns 1000\nSwitch_Latency_ns 0\n"
            + "Oversubscribed 4\n\nTier 1\nDownlink_speed_Gbps 100\nRadix_Down 4\nDownlink_Latency_ns 1000\nSwitch_Latency_ns 0\n");
        final Path cm = Files.writeString(dir.resolve("two.cm"), "Nodes 32\nConnections 2\n0->31 start 0 size 100000\n"
            + "9->1 id 2 start 40 size 250000\n");
        final HtsimImport.Result r = HtsimImport.importExperiment(cm, topo, List.of("-end", "2000"), dir.resolve("o.yaml"));
        // RTT = 2 x (2 x 1 us + 2 x 1 us) + 4 x (332 + 5.12) ns = 9.34848 us; BDP ceil(116,856 / 4150) = 29
        // Kmin ceil(5.8) = 6, Kmax ceil(23.2) = 24; RTO 15 + 29 x 4150 x 48 / 1e11 s = 15 + 57.768 us
        assertEquals(new HtsimImport.Figures(0, 100, 9_348_480, 29, 29, 6, 24, 29 * 4152, 6 * 4152, 24 * 4152, 72.768),
            r.figures());
        final String y = r.yaml();
        assertTrue(y.contains("  type: leaf_spine  # tiny.topo: Tiers 2\n  leaves: 4  # Nodes 32 / Radix_Down 8 of Tier 0\n"
            + "  spines: 2  # Radix_Up of Tier 0 (Oversubscribed 4)\n  hosts_per_leaf: 8  # Radix_Down of Tier 0\n"), y);
        assertTrue(y.contains("\n    - {src: 9, dst: 1, start_us: 40, size_bytes: 250000}\n"), y);
        assertEquals(List.of(cm, topo), r.inputs());
    }
}
