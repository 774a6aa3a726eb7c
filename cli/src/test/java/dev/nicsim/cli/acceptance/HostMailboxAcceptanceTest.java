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
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 4, through the CLI: a scenario's {@code firmware.mailbox} messages reach
 * {@code doca_pcc_dev_user_mailbox_handle} of an RP program written from Addendum A.5
 * ({@code firmware/testfw/doca_rp_mailbox_budget.c}: one little-endian word sets the NIC's rate budget,
 * the reply is the previous budget, any other size is refused with FAIL), the program reacts, and
 * {@code mailbox.csv} holds every reply; a message to firmware without the callback is one line at load
 * (exit 2); {@code replay --firmware --mailbox} does the same on a recorded trace.
 *
 * <p>Expected numbers, by hand: the budget is a fraction of line rate in DOCA's 20-bit fixed point
 * ({@code DOCA_PCC_DEV_MAX_RATE} = 2^20 = line rate), so 0x40000 = 262,144 / 1,048,576 of 100 Gb/s =
 * 25 Gb/s and 0x80000 = 50 Gb/s; before a budget arrives the program leaves the rate alone (line rate).
 */
class HostMailboxAcceptanceTest {
    @TempDir
    Path dir;

    private static Path testElf(final String file) {
        final Path p = TestPaths.root().resolve("firmware/bin/test").resolve(file);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/test/" + file + " not in this checkout");
        return p;
    }

    /** Two senders (hosts 0, 1) write 1 MB each to host 2 at 100 Gb/s; rates sampled every 5 us. */
    private static String scenario(final Path elf, final String mailbox) {
        return "name: mailbox-budget\nstop_time_us: 5000\n"
            + "topology: {type: star, hosts: 3, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "algorithm: {firmware: " + elf + "}\n"
            + "workload: {type: incast, senders: 2, receiver: 2, size_bytes: 1000000}\n"
            + "sampling: {rate_interval_us: 5}\n"
            + mailbox;
    }

    static final String MESSAGES = """
        firmware:
          mailbox:
            - {at_us: 20, words: [0x40000], nic: 0}         # host 0: budget 262,144 (25 Gb/s)
            - {at_ns: 40000, hex: "00 00 08 00", nic: all}  # every NIC: 524,288 (50 Gb/s)
            - {at_us: 60, hex: "010203", nic: 1}            # 3 bytes: FAIL, no reply
            - {at_us: 70, words: [0x20000], nic: 1, max_response_bytes: 2}  # reply would need 4 bytes: none
            - {at_us: 4000, words: [1], nic: all}          # after the last flow completes: not delivered
        """;

    /** rate_bits_per_sec of a QP in rates.csv at a sample time. */
    private static Map<String, Long> rates(final Path out) throws IOException {
        final Map<String, Long> m = new HashMap<>();
        final List<String> rows = Files.readAllLines(out.resolve("rates.csv"));
        for (final String r : rows.subList(1, rows.size())) {
            final String[] c = r.split(",", -1);
            m.put(c[0] + "/" + c[1], Long.parseLong(c[2]));
        }
        return m;
    }

    @Test
    void theHostSetsABudgetTheProgramReactsAndMailboxCsvHoldsTheReplies() throws IOException {
        final Path file = Acceptance.write(dir, "mb.yaml", scenario(testElf("doca_rp_mailbox_budget.elf"), MESSAGES));
        final Path out = dir.resolve("out");
        final Cli.Outcome o = Cli.run("run", file.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("mailbox            6 deliveries: 5 returned OK, 1 FAIL or other, 0 abandoned;"
            + " 3 not delivered (mailbox.csv)"), o.out());

        // the program reacts: qpn 1 is host 0's flow, qpn 2 host 1's
        final Map<String, Long> r = rates(out);
        assertEquals(100_000_000_000L, r.get("15000/1"), "before any budget: line rate");
        assertEquals(100_000_000_000L, r.get("15000/2"));
        assertEquals(25_000_000_000L, r.get("30000/1"), "host 0's budget 0x40000 = 1/4 of 100 Gb/s");
        assertEquals(100_000_000_000L, r.get("30000/2"), "the first message went to host 0 only");
        assertEquals(50_000_000_000L, r.get("50000/1"), "0x80000 to every NIC");
        assertEquals(50_000_000_000L, r.get("50000/2"));
        assertEquals(50_000_000_000L, r.get("65000/2"), "the refused 3-byte message kept host 1's budget");
        assertEquals(12_500_000_000L, r.get("75000/2"), "0x20000 = 1/8 of line rate, set although no reply fits");
        assertEquals(50_000_000_000L, r.get("75000/1"));

        // mailbox.csv: every reply; thread 15 of core 0 runs host calls; instructions and cycles vary by path
        final List<String> rows = Files.readAllLines(out.resolve("mailbox.csv"));
        assertEquals("time_ns,nic,message,request_bytes,request_hex,status,return_value,response_bytes,response_hex,"
            + "thread_rank,instructions,cycles", rows.get(0));
        final String[] expected = {
            "20000,0,0,4,00000400,ok,0,4,00000000,15",
            "40000,0,1,4,00000800,ok,0,4,00000400,15",
            "40000,1,1,4,00000800,ok,0,4,00000000,15",
            "40000,2,1,4,00000800,ok,0,4,00000000,15",
            "60000,1,2,3,010203,ok,1,0,,15",
            "70000,1,3,4,00000200,ok,0,0,,15",
            "4000000,0,4,4,01000000,not_delivered,,,,,,",
            "4000000,1,4,4,01000000,not_delivered,,,,,,",
            "4000000,2,4,4,01000000,not_delivered,,,,,,",
        };
        assertEquals(expected.length + 1, rows.size(), String.join("\n", rows));
        for (int i = 0; i < expected.length; i++) {
            final String row = rows.get(i + 1);
            assertTrue(row.startsWith(expected[i]), "row " + (i + 1) + ": " + row + " expected to start with " + expected[i]);
            if (i < 6) {
                final String[] c = row.split(",", -1);
                assertTrue(Long.parseLong(c[10]) > 0 && Long.parseLong(c[11]) >= Long.parseLong(c[10]) / 2, row);
            }
        }
        // hosts 1 and 2 held the same budget (0) when message 1 came: the same path, the same instructions
        assertEquals(rows.get(3).split(",")[10], rows.get(4).split(",")[10]);
        final String counters = Files.readString(out.resolve("counters.csv"));
        assertFalse(counters.contains("firmware_faults,1"), "no fault expected");
    }

    @Test
    void aMessageToFirmwareWithoutAMailboxHandlerIsOneLineAtLoad() throws IOException {
        final Path file = Acceptance.write(dir, "nohandler.yaml", scenario(testElf("doca_rp_tx_sampler.elf"), MESSAGES));
        final Cli.Outcome o = Cli.run("run", file.toString(), "--out", dir.resolve("x").toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("nohandler.yaml:9: firmware.mailbox: ") && o.err().contains("doca_rp_tx_sampler.elf defines no"
            + " doca_pcc_dev_user_mailbox_handle, so nothing would receive these 5 messages"), o.err());
        assertFalse(Files.exists(dir.resolve("x").resolve("flows.csv")), "nothing runs");

        final Path java = Acceptance.write(dir, "java.yaml", scenario(testElf("doca_rp_tx_sampler.elf"), MESSAGES)
            .replace("algorithm: {firmware: " + testElf("doca_rp_tx_sampler.elf") + "}", "algorithm: {name: dcqcn}"));
        final Cli.Outcome j = Cli.run("run", java.toString(), "--out", dir.resolve("y").toString(), "--no-progress");
        assertEquals(2, j.exitCode(), j.out());
        assertTrue(j.err().contains("firmware.mailbox: messages go to a DOCA PCC firmware's doca_pcc_dev_user_mailbox_handle,"
            + " but this scenario runs the Java algorithm 'dcqcn'; give algorithm.firmware"), j.err());
    }

    @Test
    void badMessagesAreOneLineEach() throws IOException {
        final Path elf = testElf("doca_rp_mailbox_budget.elf");
        final String[][] cases = {
            {"- {at_us: 1, hex: '0g', nic: 0}", "firmware.mailbox[0].hex: expected the bytes in order as pairs of hex digits"},
            {"- {at_us: 1, hex: '000', nic: 0}", "firmware.mailbox[0].hex: expected the bytes in order as pairs"},
            {"- {at_us: 1, words: [0x100000000], nic: 0}", "firmware.mailbox[0].words[0]: expected an integer in [0, 4294967295]"},
            {"- {at_us: 1, at_ns: 5, hex: '00', nic: 0}", "firmware.mailbox[0].at_ns: give exactly one of at_us and at_ns"},
            {"- {at_us: 1, nic: 0}", "firmware.mailbox[0].hex: give exactly one of hex (the bytes in order) and words"},
            {"- {at_us: 1, hex: '00', nic: 3}", "firmware.mailbox[0].nic: expected an integer in [0, 2], got 3"},
            {"- {at_us: 1, hex: '00'}", "firmware.mailbox[0].nic: missing required field"},
            {"- {at_us: 6000, hex: '00', nic: 0}", "firmware.mailbox[0].at_us: expected a number in [0, 5000], got 6000"},
            {"- {at_us: 1, hex: '00', nic: 0, max_response_bytes: 1025}", "max_response_bytes: expected an integer in [0, 1024]"},
            {"- {at_us: 1, hex: '00', nic: 0, tag: x}", "firmware.mailbox[0].tag: unknown field"},
            {"- {at_us: 1, hex: '" + "00".repeat(1025) + "', nic: 0}", "a request holds at most 1024 bytes"},
        };
        for (final String[] c : cases) {
            final Path file = Acceptance.write(dir, "bad.yaml", scenario(elf, "firmware:\n  mailbox:\n    " + c[0] + "\n"));
            final Cli.Outcome o = Cli.run("run", file.toString(), "--out", dir.resolve("bad").toString(), "--no-progress");
            assertEquals(2, o.exitCode(), c[0] + ": " + o.out());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().contains(c[1]), c[0] + " gave: " + o.err());
        }
    }

    @Test
    void replayDeliversTheMessagesOfAMailboxFile() throws IOException {
        // record the same incast with the Java DCQCN, then replay it into the budget program with messages
        final Path file = Acceptance.write(dir, "rec.yaml", scenario(testElf("doca_rp_mailbox_budget.elf"), "")
            .replace("algorithm: {firmware: " + testElf("doca_rp_mailbox_budget.elf") + "}", "algorithm: {name: dcqcn}"));
        final Path trace = dir.resolve("trace");
        final Cli.Outcome rec = Cli.run("run", file.toString(), "--out", dir.resolve("rec").toString(), "--no-progress",
            "--record", trace.toString());
        assertEquals(0, rec.exitCode(), rec.err());
        final Path mb = Acceptance.write(dir, "mb.yaml", """
            mailbox:
              - {at_us: 20, words: [0x40000], nic: 0}
              - {at_us: 40, hex: "010203", nic: all}
            """);
        final Path out = dir.resolve("replay");
        final Cli.Outcome o = Cli.run("replay", trace.toString(), "--firmware", testElf("doca_rp_mailbox_budget.elf").toString(),
            "--mailbox", mb.toString(), "--out", out.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("output in " + out + " (events.csv, results.csv, mailbox.csv)"), o.out());
        final List<String> rows = Files.readAllLines(out.resolve("mailbox.csv"));
        // sources 0 and 1 (the senders) exist by 40 us; the receiver runs no CC events, so it is no source
        assertEquals(4, rows.size(), String.join("\n", rows));
        assertTrue(rows.get(1).startsWith("20000,0,0,4,00000400,ok,0,4,00000000,15,"), rows.get(1));
        assertTrue(rows.get(2).startsWith("40000,0,1,3,010203,ok,1,0,,15,"), rows.get(2));
        assertTrue(rows.get(3).startsWith("40000,1,1,3,010203,ok,1,0,,15,"), rows.get(3));
        // after 20 us every result of qpn 1 (source 0) sets 25 Gb/s; qpn 2 never gets a budget (line rate)
        final List<String> results = Files.readAllLines(out.resolve("results.csv"));
        int after = 0;
        for (final String row : results.subList(1, results.size())) {
            final String[] c = row.split(",", -1);
            final double t = Double.parseDouble(c[0]);
            if (c[1].equals("1") && t > 21_000) {
                assertEquals(25_000_000_000L, Long.parseLong(c[2]), row);
                after++;
            }
            if (c[1].equals("2")) {
                assertEquals(100_000_000_000L, Long.parseLong(c[2]), row);
            }
        }
        assertTrue(after > 10, "results of qpn 1 after the budget: " + after);

        final Cli.Outcome bad = Cli.run("replay", trace.toString(), "--firmware", testElf("doca_rp_tx_sampler.elf").toString(),
            "--mailbox", mb.toString(), "--out", dir.resolve("r2").toString());
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.err().contains("--mailbox: ") && bad.err().contains("doca_rp_tx_sampler.elf defines no"
            + " doca_pcc_dev_user_mailbox_handle"), bad.err());
        final Cli.Outcome java = Cli.run("replay", trace.toString(), "--algorithm", "dcqcn", "--mailbox", mb.toString(),
            "--out", dir.resolve("r3").toString());
        assertEquals(2, java.exitCode(), java.out());
        assertTrue(java.err().contains("--mailbox: messages go to a DOCA PCC firmware's"), java.err());
    }
}
