package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --record} records the host's calls into firmware (mailbox messages, port-state
 * changes) in the trace ({@link TraceHostCall}, format version 4), and {@code replay --firmware ELF
 * --verify} makes them again at their place, so a run that had them replays to the recorded results.
 * Before, the trace held neither and the replay reported a difference the run never had (the
 * mailbox run below: at time_ns=20077.223, result #119 of host 0's QP, the first after host 0's
 * budget message at 20 us).
 */
class RecordedHostCallsTest {
    @TempDir
    Path dir;


    private static Cli.Outcome ok(final String... args) {
        final Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.exitCode(), String.join(" ", args) + ": " + o.out() + o.err());
        return o;
    }

    /** Records a scenario, replays the trace with the same firmware and --verify, and returns the replay's outcome. */
    private Cli.Outcome recordAndVerify(final Path elf, final String scenarioText) throws IOException {
        final Path s = Files.writeString(dir.resolve("s.yaml"), scenarioText);
        ok("run", s.toString(), "--no-progress", "--out", dir.resolve("run").toString(), "--record",
            dir.resolve("trace").toString());
        return ok("replay", dir.resolve("trace").toString(), "--firmware", elf.toString(), "--verify", "--out",
            dir.resolve("replay").toString());
    }

    @Test
    void mailboxMessagesAreRecordedAndMadeAgain() throws IOException {
        final Path elf = TestPaths.firmwareOrSkip("test/doca_rp_mailbox_budget.elf");
        // two senders into host 2; a 25 Gb/s budget (0x40000) for host 0 at 20 us, 50 Gb/s (0x80000) for every NIC at
        // 40 us, and a 3-byte request host 1's program answers FAIL: five deliveries
        final Cli.Outcome o = recordAndVerify(elf, "name: mb\nstop_time_us: 5000\n"
            + "topology: {type: star, hosts: 3, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "algorithm: {firmware: " + elf + "}\n"
            + "workload: {type: incast, senders: 2, receiver: 2, size_bytes: 1000000}\n"
            + "firmware:\n  mailbox:\n"
            + "    - {at_us: 20, words: [0x40000], nic: 0}\n"
            + "    - {at_ns: 40000, hex: '00 00 08 00', nic: all}\n"
            + "    - {at_us: 60, hex: '010203', nic: 1}\n");
        assertTrue(o.out().contains("host calls         5 mailbox deliveries and 0 port-state changes made again"), o.out());
        assertTrue(o.out().contains("verify: OK, the "), o.out());
        // the replies are the run's, row for row
        assertEquals(Files.readAllLines(dir.resolve("run").resolve("mailbox.csv")),
            Files.readAllLines(dir.resolve("replay").resolve("mailbox.csv")));
        final List<String> dump = ok("trace", "dump", dir.resolve("trace").toString()).out().lines().toList();
        assertTrue(dump.get(0).startsWith("# nicsim-pcc-trace v4 "), dump.get(0));
        assertEquals(List.of(
            "mailbox time_ns=20000 src=0 message=0 request_hex=00000400 max_response_bytes=1024 rate_bits_per_sec=100000000000",
            "mailbox time_ns=40000 src=0 message=1 request_hex=00000800 max_response_bytes=1024 rate_bits_per_sec=100000000000",
            "mailbox time_ns=40000 src=1 message=1 request_hex=00000800 max_response_bytes=1024 rate_bits_per_sec=100000000000",
            "mailbox time_ns=40000 src=2 message=1 request_hex=00000800 max_response_bytes=1024 rate_bits_per_sec=100000000000",
            "mailbox time_ns=60000 src=1 message=2 request_hex=010203 max_response_bytes=1024 rate_bits_per_sec=100000000000"),
            dump.stream().filter(l -> l.startsWith("mailbox ")).toList());
        // the same messages again from a file would be delivered twice: refused before anything is written
        final Path file = Files.writeString(dir.resolve("m.yaml"), "mailbox:\n  - {at_us: 20, words: [1], nic: 0}\n");
        final Cli.Outcome twice = Cli.run("replay", dir.resolve("trace").toString(), "--firmware", elf.toString(), "--mailbox",
            file.toString(), "--out", dir.resolve("twice").toString());
        assertEquals(2, twice.exitCode(), twice.err());
        assertEquals("nicsim: --mailbox " + file + ": " + dir.resolve("trace") + " records the run's 5 mailbox deliveries,"
            + " which the replay makes again; drop --mailbox\n", twice.err().replace(System.lineSeparator(), "\n"));
        assertTrue(!Files.exists(dir.resolve("twice")));
    }

    @Test
    void portStateChangesAreRecordedAndMadeAgain() throws IOException {
        final Path elf = TestPaths.firmwareOrSkip("test/doca_port_state.elf");
        final Cli.Outcome o = recordAndVerify(elf, "name: link\nstop_time_us: 2000\n"
            + "topology: {type: star, hosts: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "algorithm: {firmware: " + elf + "}\n"
            + "workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000000}]}\n"
            + "link_events:\n  - {at_us: 10, host: 0, state: down}\n  - {at_us: 30, host: 0, state: up}\n");
        assertTrue(o.out().contains("host calls         0 mailbox deliveries and 2 port-state changes made again"), o.out());
        assertTrue(o.out().contains("verify: OK, the "), o.out());
        assertEquals(List.of("port_state time_ns=10000 src=0 state=down rate_bits_per_sec=100000000000",
            "port_state time_ns=30000 src=0 state=up rate_bits_per_sec=100000000000"),
            ok("trace", "dump", dir.resolve("trace").toString()).out().lines().filter(l -> l.startsWith("port_state ")).toList());
        // a Java algorithm takes no host calls: the replay says it did not make them
        final Cli.Outcome java = ok("replay", dir.resolve("trace").toString(), "--algorithm", "dcqcn", "--out",
            dir.resolve("java").toString());
        assertTrue(java.out().contains("host calls         2 recorded mailbox deliveries and port-state changes not made:"
            + " they go to firmware, and dcqcn is a Java algorithm"), java.out());
    }

    @Test
    void aRunWithoutHostCallsStillWritesVersion3() throws IOException {
        final Path s = Files.writeString(dir.resolve("s.yaml"), "name: plain\nstop_time_us: 100\n"
            + "topology: {type: star, hosts: 3, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "algorithm: {name: dcqcn}\nworkload: {type: incast, senders: 2, size_bytes: 5000}\n");
        ok("run", s.toString(), "--no-progress", "--out", dir.resolve("run").toString(), "--record",
            dir.resolve("trace").toString());
        final String first = ok("trace", "dump", dir.resolve("trace").toString()).out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("# nicsim-pcc-trace v3 "), first);
    }
}
