package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Switch telemetry end to end (DOCA PCC fact sheet Addendum B): reaction points that ask for IFA2 probes
 * ({@code firmware.probe.format: ifa2}), switches that insert a 32-byte record per hop, the test NP written from
 * B.4 ({@code firmware/testfw/doca_np_ifa2.c}) that gets its hop limit from the NP host's default mailbox
 * message {@code FE 00 00 00}, and the test RP written from B.6/B.7 ({@code doca_rp_ifa2.c}) that reads the
 * NP's bytes natively. Figures are derived by hand below from the scenario's packet sizes, rate and delays.
 */
class Ifa2TelemetryAcceptanceTest {
    @TempDir
    Path dir;

    private static Path elf(final String name) {
        final Path p = TestPaths.root().resolve("firmware/bin").resolve(name);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/" + name + " not in this checkout");
        return p;
    }

    private static Map<String, Long> counters(final Path out) throws IOException {
        final Map<String, Long> m = new HashMap<>();
        for (final String row : Files.readAllLines(out.resolve("counters.csv"))) {
            final String[] f = row.split(",", -1);
            if (f.length == 3 && f[2].matches("-?\\d+")) {
                m.put(f[0] + "." + f[1], Long.parseLong(f[2]));
            }
        }
        return m;
    }

    private Cli.Outcome run(final String name, final String topology, final String firmware) throws IOException {
        final Path s = Acceptance.write(dir, name + ".yaml", String.join("\n",
            "name: " + name,
            "stop_time_us: 200",
            "topology: " + topology,
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1}",
            "algorithm: {firmware: " + elf("test/doca_rp_ifa2.elf") + ", params: {new_flow_rate: 1}}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            "firmware:",
            "  np: " + elf("test/doca_np_ifa2.elf"),
            firmware,
            ""));
        return Cli.run("run", s.toString(), "--out", dir.resolve(name).toString(), "--no-progress");
    }

    /**
     * One 4,000-byte WRITE from host 1 to host 0 on a star, 1 Gb/s links, 1,000 ns delay, MTU 1,000, the RP's start
     * rate 1 (so nothing follows the first packet before the RP hears back; the flow then crawls at the 64/2^20 floor
     * and is not done by 200 us). Packet 1 (WRITE FIRST: 66 + 16 + 1,000 = 1,082 bytes) leaves at 0 and takes
     * (1,082 + 20) x 8 = 8,816 ns; its TX event starts the flow and asks for a probe, which leaves at 8,816 ns:
     * 66 + 8 bytes (the IFA and metadata headers), (74 + 20) x 8 = 752 ns, at the switch at 10,568 ns. The
     * switch's port to host 0 sends packet 1 from 9,816 to 18,632 ns, so the probe starts there at 18,632 ns with
     * 1,082 bytes sent before it and nothing else queued. Its record: device 0, port type 0 (1 Gb/s), egress
     * port 0 (host 0), TX ns 18,632, TX bytes 1,082, Mellanox format with queue 0.
     * <p>NP: Hop Limit 0xFE - 1 = 0xFD against H0 = 0xFE: n = 1, index 0; key 0 is unused: a first sample,
     * valid 0, deltas = the raw counters. Response: 00 00 00 00 | 00 00 04 3A | 00 00 48 C8.
     * <p>RP, reading natively (B.6): q = 0, B = 0x3A040000 = 973,340,672 and T = 0xC8480000 = 200 x 2^24 + 72 x 2^16
     * = 3,355,443,200 + 4,718,592 = 3,360,161,792 (TX ns 18,632 = 0x48C8 sent big-endian, read little-endian).
     */
    @Test
    void oneSwitchStampsOneRecordTheNpSummarisesAndTheRpReadsItNatively() throws IOException {
        final Cli.Outcome o = run("ifa2-star", "{type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "  probe: {format: ifa2}");
        assertEquals(0, o.exitCode(), o.err());
        final Map<String, Long> c = counters(dir.resolve("ifa2-star"));
        final long probes = c.get("host0.np_program_calls");
        assertTrue(probes >= 1 && probes >= c.get("host1.tx_rtt_probes") - 1);
        assertTrue(o.out().contains(probes + " probes handled, 0 FAIL, " + probes + " IFA2 probes, " + probes
            + " with per-hop records, at most 1 hops, 1 mailbox messages, 0 failed, 0 faults"), o.out());
        assertNull(c.get("host1/cc.first_rtt_q"), "q = 0; a counter that never moved is not a row of counters.csv");
        assertEquals(973_340_672L, c.get("host1/cc.first_rtt_b"));
        assertEquals(3_360_161_792L, c.get("host1/cc.first_rtt_t"));
    }

    /** Leaf 1, the spine, leaf 0: three switches stamp each probe (Hop Limit 0xFE -> 0xFB), the NP line says so. */
    @Test
    void threeSwitchesOnALeafSpinePathStampThreeRecords() throws IOException {
        final Cli.Outcome o = run("ifa2-ls", "{type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 1,"
            + " host_link: {rate_gbps: 1, delay_ns: 1000}, fabric_link: {rate_gbps: 1, delay_ns: 1000}}", "  probe: {format: ifa2}");
        assertEquals(0, o.exitCode(), o.err());
        final Map<String, Long> c = counters(dir.resolve("ifa2-ls"));
        final long probes = c.get("host0.np_program_calls"); // a probe still in flight at the stop time is not counted
        assertTrue(probes >= 1 && probes >= c.get("host1.tx_rtt_probes") - 1);
        assertTrue(o.out().contains(probes + " IFA2 probes, " + probes + " with per-hop records, at most 3 hops"), o.out());
    }

    /** A hop limit of 2 at the RP: only the first two switches insert (B.2), and the NP, with H0 = 0xFE, counts n = 252. */
    @Test
    void theRpHopLimitStopsInsertionAndANoneMailboxLeavesTheNpSilent() throws IOException {
        final Cli.Outcome o = run("ifa2-hl", "{type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 1,"
            + " host_link: {rate_gbps: 1, delay_ns: 1000}, fabric_link: {rate_gbps: 1, delay_ns: 1000}}",
            "  probe: {format: ifa2, ifa2_hop_limit: 2}\n  np_mailbox: none");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("with per-hop records, at most 2 hops"), o.out());
        assertTrue(!o.out().contains("mailbox messages"), o.out());
        // no mailbox: the NP writes nothing, so the RP reads zeros (counters that never moved are not rows)
        final Map<String, Long> c = counters(dir.resolve("ifa2-hl"));
        for (final String k : new String[] {"host1/cc.first_rtt_b", "host1/cc.first_rtt_t", "host1/cc.first_rtt_q"}) {
            assertNull(c.get(k), k);
        }
    }

    @Test
    void badProbeAndNpMailboxSettingsAreOneLineExit2() throws IOException {
        final String star = "{type: star, hosts: 2}";
        final Cli.Outcome gns = run("bad-gns", star, "  probe: {ifa2_gns: 3}");
        assertEquals(2, gns.exitCode(), gns.err());
        assertEquals(1, gns.err().strip().lines().count(), gns.err());
        assertTrue(gns.err().contains("firmware.probe.ifa2_gns: only with format: ifa2"), gns.err());
        final Cli.Outcome hl = run("bad-hl", star, "  probe: {format: ifa2, ifa2_hop_limit: 256}");
        assertEquals(2, hl.exitCode(), hl.err());
        assertTrue(hl.err().contains("ifa2_hop_limit"), hl.err());
        final Cli.Outcome hex = run("bad-hex", star, "  np_mailbox: 'FE 0'");
        assertEquals(2, hex.exitCode(), hex.err());
        assertTrue(hex.err().contains("firmware.np_mailbox: expected the bytes as pairs of hex digits"), hex.err());
    }
}
