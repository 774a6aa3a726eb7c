package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No silent stall: a run whose flows stop making progress ends its summary with a {@code stalled flows}
 * line naming the flows, the rate they sit at and since when, and a {@code last:} line saying what their
 * congestion control last asked for and who answered ({@link dev.nicsim.fabric.run.StallReport}); a run
 * that reaches its stop time with flows still progressing says so in one {@code unfinished flows} line;
 * a run whose flows all finish prints neither.
 *
 * <p>The stalling firmware is the committed test RP {@code doca_rp_np_raw.c}: a new flow's first event
 * (the TX event of packet 1, which leaves at once) asks for one RTT probe and sets rate 1 (1/2^20 of
 * line rate) until the answer, and the answer sets rate = 2^20 x (1 - min(raw word 1, 2^16) / 2^16), at
 * least 1. The NP is broken on purpose ({@code doca_np_faults.c}: its first call loops until the budget
 * abandons it, so the one probe gets no answer), or absent (the hardware responder answers with
 * timestamps: word 1 is the probe's receive time 20,320 ns, big-endian, which the RP loads as
 * 0x604F0000 "RX bytes", over 2^16: rate 1 again). Either way the flow stays at rate 1.
 *
 * <p>Hand derivation (star of two hosts, links 1 Gb/s with 1,000 ns delay, MTU 1,000, one 4,000-byte
 * WRITE from host 1 to host 0; the figures of {@link NotificationPointAcceptanceTest}): packet 1 (1,082
 * bytes + 20 of preamble and gap = 8,816 ns on the wire) reaches host 0 at 8,816 + 1,000 + 8,816 +
 * 1,000 = 19,632 ns; its ACK (70 + 20 bytes, 720 ns) leaves at once and reaches host 1 at 19,632 +
 * 2 x (720 + 1,000) = 23,072 ns: the last byte acknowledged. Rate 1 of 1 Gb/s = floor(10^9 / 2^20) =
 * 953 b/s, so packet 2 may leave only 8,816 bits / 953 b/s = 9.25 s after packet 1: nothing more is
 * acknowledged before the stop time of 2,000 us, 1,976.928 us after the ACK, over the 100 us threshold.
 */
class StallLineAcceptanceTest {
    @TempDir
    Path dir;


    private Cli.Outcome run(final String name, final String... extra) throws IOException {
        final Path s = Acceptance.write(dir, name + ".yaml", String.join("\n", List.of(
            "name: " + name,
            "stop_time_us: 2000",
            "topology: {type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1}",
            "algorithm: {firmware: " + TestPaths.firmwareOrSkip("test/doca_rp_np_raw.elf") + "}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            String.join("\n", extra), "")));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve(name).toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        return o;
    }

    /** The two lines the summary ends with (before "output in"). */
    private static List<String> stallLines(final Cli.Outcome o) {
        final List<String> l = o.out().lines().toList();
        final int i = l.indexOf(l.stream().filter(x -> x.startsWith("stalled flows")).findFirst().orElseThrow(
            () -> new AssertionError("no stalled flows line:\n" + o.out())));
        return l.subList(i, i + 2);
    }

    @Test
    void anNpBrokenOnPurposeStallsTheFlowAndTheSummarySaysSo() throws IOException {
        final Cli.Outcome o = run("broken-np", "firmware: {np: " + TestPaths.firmwareOrSkip("test/doca_np_faults.elf") + "}");
        assertTrue(o.out().contains("flows done          0 / 1"), o.out());
        final List<String> l = stallLines(o);
        // the rate was set by the result of packet 1's TX event, at the handler's cycles after 0: "since" only matched
        assertTrue(l.get(0).matches("stalled flows       1 of 1 \\(0\\): no byte acknowledged since 23\\.072 us \\(1976\\.928 us to"
            + " the end\\); rate 953 b/s \\(1/2\\^20 of line rate\\), the lowest their CC set, since \\d+\\.\\d{3} us; the run"
            + " reached its stop time 2000\\.000 us"), l.get(0));
        assertTrue(l.get(1).startsWith("                    last: firmware doca_rp_np_raw.elf asked for 1 RTT probe (last result"
            + " at "), l.get(1));
        assertTrue(l.get(1).endsWith("; the NP program doca_np_faults.elf answered 0 (all NICs: 1 calls, 0 faults and 1 over"
            + " the budget unanswered, 0 FAIL)"), l.get(1));
    }

    @Test
    void withoutAnNpTheLineNamesTheHardwareResponderWhoseTimestampsTheRpReadAsTelemetry() throws IOException {
        final Cli.Outcome o = run("no-np");
        final List<String> l = stallLines(o);
        assertTrue(l.get(0).startsWith("stalled flows       1 of 1 (0): no byte acknowledged since 23.072 us (1976.928 us to"
            + " the end); rate 953 b/s (1/2^20 of line rate), the lowest their CC set, since "), l.get(0));
        assertTrue(l.get(1).endsWith("; the hardware RTT responder answered 1 (no firmware.np program: its raw data are"
            + " timestamps)"), l.get(1));
        assertEquals(1, o.out().lines().filter(x -> x.startsWith("                    last: ")).count(), o.out());
    }

    /**
     * An incast of 16 x 1 MB at 100 Gb/s with the same RP and no NP: all 16 flows sit at rate 1 =
     * floor(10^11 / 2^20) = 95,367 b/s, shown with four digits as 95.37 kb/s; the first eight are listed.
     */
    @Test
    void sixteenStalledFlowsOfAnIncastAreCountedAndTheFirstEightListed() throws IOException {
        final Cli.Outcome o = Cli.run("run", Acceptance.shipped("incast-dcqcn-firmware.yaml").toString(),
            "--set", "algorithm.firmware=" + TestPaths.firmwareOrSkip("test/doca_rp_np_raw.elf"), "--set", "algorithm.name=null",
            "--set", "stop_time_us=1000", "--out", dir.resolve("incast").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        final List<String> l = stallLines(o);
        assertTrue(l.get(0).startsWith("stalled flows       16 of 16 (0, 1, 2, 3, 4, 5, 6, 7, ...): no byte acknowledged since "),
            l.get(0));
        assertTrue(l.get(0).contains("; rate 95.37 kb/s (1/2^20 of line rate), the lowest their CC set, since "), l.get(0));
        assertTrue(l.get(1).contains("asked for 16 RTT probes") && l.get(1).contains("the hardware RTT responder answered 16"),
            l.get(1));
    }

    /**
     * A flow that still progresses when the stop time comes: the direct processor (no emulator delay),
     * DCQCN (rate only, no window) at line rate with no congestion. Packet 1 reaches host 0 at 19,632 ns
     * (above); packet k >= 2 (1,066 + 20 bytes, 8,688 ns) ends on host 1's link at 8,816 + (k - 1) x
     * 8,688 and reaches the switch 1,000 ns later, but the switch's port to host 0 is busy with packet 1
     * until 18,632 (it is 128 ns longer), so from there on packets reach host 0 every 8,688 ns:
     * 19,632 + (k - 1) x 8,688, and their ACKs host 1 3,440 ns later: 23,072 + (k - 1) x 8,688 ns. Before
     * the stop time of 50 us: k = 4 at 49,136 ns (k = 5 would be 57,824), 4,000 of 100,000 bytes.
     * With a stop time of 2,000 us the same flow (100 packets) finishes and neither line is printed.
     */
    @Test
    void aFlowStillProgressingAtTheStopTimeGetsOneUnfinishedLineAndAFinishedRunNone() throws IOException {
        final String yaml = String.join("\n",
            "name: progressing",
            "stop_time_us: 50",
            "topology: {type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1, emulator: {enabled: false}}",
            "algorithm: {name: dcqcn}",
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 100000}]}",
            "");
        final Path s = Acceptance.write(dir, "progressing.yaml", yaml);
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve("p").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("\nunfinished flows    1 of 1 (0) still progressing: 4000 of 100000 bytes acknowledged, last"
            + " at 49.136 us; rate 1 Gb/s (line rate); the run reached its stop time 50.000 us\n"), o.out());
        assertFalse(o.out().contains("stalled flows"), o.out());

        Files.writeString(s, yaml.replace("stop_time_us: 50", "stop_time_us: 2000"));
        final Cli.Outcome done = Cli.run("run", s.toString(), "--out", dir.resolve("d").toString(), "--no-progress");
        assertEquals(0, done.exitCode(), done.err());
        assertTrue(done.out().contains("flows done          1 / 1"), done.out());
        assertFalse(done.out().contains("unfinished flows") || done.out().contains("stalled flows"), done.out());
    }
}
