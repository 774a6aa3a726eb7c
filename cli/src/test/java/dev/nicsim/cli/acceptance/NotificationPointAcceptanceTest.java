package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 5, the notification point ({@code firmware.np}), in whole runs through the CLI, with
 * programs written from Addendum A of the DOCA PCC fact sheet as a user would (committed ELFs of
 * {@code firmware/testfw/}):
 * <ul>
 * <li>the NIC-telemetry NP ({@code doca_np_rx_bytes.c}) answers the probe with the receiving port's
 *     RX bytes and its timer; the RP ({@code doca_rp_np_raw.c}) reads them through
 *     {@code doca_pcc_dev_get_rtt_raw_data} and reports them in its counters: every figure is derived
 *     by hand below from the scenario's packet sizes, link rate and delays;</li>
 * <li>an NP whose handler loops, then faults, then returns FAIL ({@code doca_np_faults.c}): each is
 *     contained and counted, the run finishes.</li>
 * </ul>
 */
class NotificationPointAcceptanceTest {
    @TempDir
    Path dir;

    private static Path elf(final String name) {
        final Path p = TestPaths.root().resolve("firmware/bin").resolve(name);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/" + name + " not in this checkout");
        return p;
    }

    /**
     * One 4,000-byte WRITE from host 1 to host 0 on a star of two hosts, links 1 Gb/s with 1,000 ns
     * delay, MTU 1,000, a TX event per packet.
     * <p>Sender, t0 = 0 (the RP has no flow-init handler, so the first packet leaves at once; its
     * counter {@code first_tx_ns} shows it): packet 1 (WRITE FIRST: 66 + RETH 16 + 1,000 = 1,082 bytes)
     * starts; its TX event makes the RP ask for a probe and cut the rate to 1 (so no second packet goes
     * before the answer). Wire time at 1 Gb/s with preamble and gap: (1,082 + 20) x 8 = 8,816 ns, so the
     * probe (66 bytes, (66 + 20) x 8 = 688 ns) starts at 8,816 ns: its send time.
     * <p>Switch (store and forward, no other latency): packet 1 arrives at 8,816 + 1,000 = 9,816 and
     * leaves at once, busy until 18,632; the probe arrives at 8,816 + 688 + 1,000 = 10,504, waits, and
     * reaches host 0 at 18,632 + 688 + 1,000 = 20,320 ns.
     * <p>Receiver: its port has then received packet 1 and the probe: RX bytes = 1,082 + 66 = 1,148;
     * the NP's timer_lo = floor(20,320 / 1,000) = 20 us. The handler takes h = its cycles at 1.8 GHz.
     * <p>Back: the response (688 ns) leaves at 20,320 + h (the ACK of packet 1, 19,632 + 720 = 20,352,
     * is done by then since h is above 32 ns) and, with the switch free again (the ACK left it at
     * 22,072, before 22,008 + h), arrives at 20,320 + h + 2 x (688 + 1,000) = 23,696 + h. RTT measured by
     * the RP from raw word 0 = 23,696 + h - 8,816 = 14,880 + h, in whole ns.
     * <p>The RP then sets rate = 2^20 x (65,536 - 1,148) / 65,536 = 1,030,208.
     */
    @Test
    void anRpReadsTheRxBytesAnNpProgramSentBackAsRawData() throws IOException {
        final Path s = Acceptance.write(dir, "np.yaml", String.join("\n",
            "name: np-rx-bytes",
            "stop_time_us: 2000",
            "topology: {type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1}",
            "algorithm: {firmware: " + elf("test/doca_rp_np_raw.elf") + "}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            "firmware: {np: " + elf("test/doca_np_rx_bytes.elf") + "}",
            ""));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("out").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows done          1 / 1"), o.out());
        assertTrue(o.out().contains("doca_np_rx_bytes.elf; bf3-dpa model; 1 probes handled, 0 FAIL, 0 faults, 0 over the budget"),
            o.out());
        final Map<String, Long> c = Acceptance.counters(dir.resolve("out"));
        assertEquals(1L, c.get("host1.tx_rtt_probes"));
        assertEquals(1L, c.get("host0.np_program_calls"));
        assertEquals(1L, c.get("host0.tx_rtt_responses"));
        // no fault, overrun or FAIL: counters that never moved are not rows of counters.csv
        for (final String k : new String[] {"host0.np_program_faults", "host0.np_program_budget_exceeded", "host0.np_program_failed"}) {
            assertNull(c.get(k), k);
        }
        assertNull(c.get("host1/cc.first_tx_ns"), "first TX at 0 ns; a counter that never moved is not a row of counters.csv");
        assertEquals(1L, c.get("host1/cc.rtt_events"));
        assertEquals(1148L, c.get("host1/cc.np_rx_bytes"));
        assertEquals(20L, c.get("host1/cc.np_timer_us"));
        final long cycles = c.get("host0.np_program_cycles");
        assertTrue(cycles > 0);
        final long handlerPs = (cycles * 1_000_000_000_000L + 1_799_999_999L) / 1_800_000_000L;
        assertEquals((23_696_000L + handlerPs) / 1000 - 8_816L, c.get("host1/cc.rtt_ns"), "handler " + cycles + " cycles");
        // the RP's reaction to the remote RX bytes: its rate after the answer
        boolean seen = false;
        for (final String row : Files.readAllLines(dir.resolve("out/rates.csv"))) {
            final String[] f = row.split(",", -1);
            seen |= f.length > 2 && f[2].equals(Long.toString(Math.max(1, 1_030_208L * 1_000_000_000L >> 20)));
        }
        assertTrue(seen, "rate 1,030,208 / 2^20 of 1 Gb/s never sampled: " + Files.readAllLines(dir.resolve("out/rates.csv")));
    }

    /**
     * An incast of 4 x 200 KB into host 0 with the RTT template as the RP: every probe reaches host 0's
     * NP program; its first call loops (abandoned at the budget, no response), its second faults (no
     * response), its third returns FAIL (answered), the rest OK: responses = calls - 2.
     */
    @Test
    void anNpThatLoopsFaultsOrFailsIsContainedCountedAndTheRunFinishes() throws IOException {
        final Path s = Acceptance.write(dir, "npf.yaml", String.join("\n",
            "name: np-faults",
            "stop_time_us: 5000",
            "topology: {type: star, hosts: 5}",
            "algorithm: {firmware: " + elf("rtt_template.elf") + "}",
            "workload: {type: incast, senders: 4, receiver: 0, size_bytes: 200000}",
            "firmware: {np: " + elf("test/doca_np_faults.elf") + "}",
            ""));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("out").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows done          4 / 4"), o.out());
        final Map<String, Long> c = Acceptance.counters(dir.resolve("out"));
        long probes = 0;
        for (int h = 1; h <= 4; h++) {
            probes += c.get("host" + h + ".tx_rtt_probes");
        }
        final long calls = c.get("host0.np_program_calls");
        assertTrue(calls >= 4, "calls " + calls);
        assertEquals(probes, calls);
        assertEquals(1L, c.get("host0.np_program_budget_exceeded"));
        assertEquals(1L, c.get("host0.np_program_faults"));
        assertEquals(1L, c.get("host0.np_program_failed"));
        assertEquals(calls - 2, c.get("host0.tx_rtt_responses"));
        assertTrue(c.get("host0.np_program_cycles") >= 100_000, "the loop's 100,000 instructions are charged");
        assertTrue(o.out().contains(calls + " probes handled, 1 FAIL, 1 faults, 1 over the budget of 100000 instructions; first:"
            + " instruction budget of 100000 exceeded at pc 0x"), o.out());
        assertTrue(o.out().contains("(doca_pcc_dev_np_user_packet_handler+0x"), o.out());
        // the earliest fault names the NIC that ran it (host 0, the receiver) and its simulated time
        assertTrue(o.out().matches("(?s).*\\(doca_pcc_dev_np_user_packet_handler call\\) on host0 at \\d+\\.\\d{6} us\n.*"),
            o.out());
    }

    @Test
    void withoutAnNpProgramTheCounterSetIsUnchanged() throws IOException {
        final Path s = Acceptance.write(dir, "nonp.yaml", String.join("\n",
            "name: no-np",
            "topology: {type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1}",
            "algorithm: {firmware: " + elf("test/doca_rp_np_raw.elf") + "}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            ""));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("out").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        final Map<String, Long> c = Acceptance.counters(dir.resolve("out"));
        assertFalse(c.containsKey("host0.np_program_calls"));
        assertFalse(o.out().contains("np firmware"));
        // the hardware responder's raw data: its three timestamps, big-endian (the getters byte-swap them,
        // Addendum A.7 step 5); word 1 = the probe's receive time, 20,320 ns (as derived above), which the
        // RP, loading it as a little-endian word, counts as "RX bytes" 0x604F0000
        assertEquals(Integer.toUnsignedLong(Integer.reverseBytes(20_320)), c.get("host1/cc.np_rx_bytes"));
    }

    @Test
    void aReactionPointElfAsNpIsOneLineExit2() throws IOException {
        final Path s = Acceptance.write(dir, "bad.yaml", String.join("\n",
            "name: bad",
            "topology: {type: star, hosts: 2}",
            "algorithm: {name: dcqcn}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            "firmware:",
            "  np: " + elf("dcqcn.elf"),
            ""));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("out").toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("bad.yaml:6: firmware.np: ") && o.err().contains("dcqcn.elf: no doca_pcc_dev_np_user_packet_handler:"
            + " not a notification-point program"), o.err());
        final Cli.Outcome m = Cli.run("run", s.toString().replace("bad.yaml", "missing.yaml"), "--no-progress");
        assertEquals(2, m.exitCode());
        Files.writeString(s, Files.readString(s).replace(elf("dcqcn.elf").toString(), "nowhere.elf"));
        final Cli.Outcome n = Cli.run("run", s.toString(), "--out", dir.resolve("out").toString(), "--no-progress");
        assertEquals(2, n.exitCode());
        assertTrue(n.err().contains("firmware.np: no such file 'nowhere.elf'"), n.err());
    }
}
