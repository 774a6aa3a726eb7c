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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, "Must show: Bad firmware": the committed test ELFs of {@code firmware/bin/test}
 * ({@code firmware/testfw/*.c}: on every CNP one loops forever, one executes an illegal
 * instruction, one stores to 0x2000_0000, outside its memory; other events leave the rate alone)
 * run the DCQCN incast ({@code scenarios/incast-dcqcn.yaml} with {@code --set
 * algorithm.firmware=...}). Each run exits 0 with all 16 flows done; every CNP call is abandoned
 * and counted ({@code firmware_budget_exceeded} or {@code firmware_faults} in {@code host<i>/cc}),
 * the summary names the first fault's cause, pc, symbol, NIC and simulated time, and since no call ever changes a rate
 * every sender keeps its line rate (100 Gb/s) in {@code rates.csv}. The ELF without
 * {@code doca_pcc_dev_user_algo} is exit 2 with one line, from {@code --set} and from a scenario
 * file (which the line names with its line number).
 */
class BadFirmwareAcceptanceTest {
    private static final int SENDERS = 16;
    private static final long BUDGET = 100_000;
    /** The first fault's place: a sender's NIC (hosts 0..15) and the simulated time, us with six decimals. */
    private static final String WHERE = " on host(\\d|1[0-5]) at \\d+\\.\\d{6} us";

    @TempDir
    Path dir;

    private static Path testElf(final String file) {
        final Path p = TestPaths.root().resolve("firmware/bin/test").resolve(file);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/test/" + file + " not in this checkout");
        return p;
    }

    private Cli.Outcome incast(final String elf) {
        return Cli.run("run", Acceptance.shipped("incast-dcqcn.yaml").toString(), "--out", dir.resolve(elf).toString(),
            "--no-progress", "--set", "algorithm.firmware=" + testElf(elf));
    }

    /** Sums of the {@code host<i>/cc} counters of a run, by counter name. */
    private Map<String, Long> ccSums(final String elf) throws IOException {
        final Map<String, Long> m = new HashMap<>();
        for (final String row : Files.readAllLines(dir.resolve(elf).resolve("counters.csv"))) {
            final String[] f = row.split(",", -1);
            if (f[0].matches("host\\d+/cc")) {
                m.merge(f[1], Long.parseLong(f[2]), Long::sum);
            }
        }
        return m;
    }

    private void finishedAtLineRate(final String elf, final Cli.Outcome o) throws IOException {
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows done          " + SENDERS + " / " + SENDERS), o.out());
        final List<String> rates = Files.readAllLines(dir.resolve(elf).resolve("rates.csv"));
        assertTrue(rates.size() > SENDERS, "rates.csv nearly empty");
        for (final String row : rates.subList(1, rates.size())) {
            assertEquals("100000000000", row.split(",", -1)[2], elf + ": a rate changed: " + row);
        }
    }

    private static String firmwareLine(final Cli.Outcome o) {
        return o.out().lines().filter(l -> l.startsWith("firmware ")).findFirst().orElse("(no firmware line)");
    }

    @Test
    void loopingOnCnpsRunsOverTheBudgetAndTheRunGoesOn() throws IOException {
        final Cli.Outcome o = incast("loop_on_cnp.elf");
        finishedAtLineRate("loop_on_cnp.elf", o);
        final Map<String, Long> c = ccSums("loop_on_cnp.elf");
        final long over = c.get("firmware_budget_exceeded");
        assertNull(c.get("firmware_faults"), "no fault; a counter that never moved is not a row of counters.csv");
        // every CNP dispatched was abandoned; cnp_events_handled counts completions, so the CNPs
        // still on a core (over 100,000 instructions, about 56 us each) when the last flow ended are not in it
        assertTrue(over > 0 && over >= c.get("cnp_events_handled"), over + " vs " + c.get("cnp_events_handled"));
        // each abandoned call retired the whole budget
        assertTrue(c.get("firmware_instructions") >= BUDGET * over, c.toString());
        final String line = firmwareLine(o);
        assertTrue(line.contains("0 faults, " + over + " over the budget of 100000 instructions; first: instruction budget of"
            + " 100000 exceeded at pc 0x"), line);
        assertTrue(line.contains("(doca_pcc_dev_user_algo+0x") && line.matches(".*\\(CNP event\\)" + WHERE), line);
    }

    @Test
    void anIllegalInstructionOnCnpsIsAFaultCountedPerCnp() throws IOException {
        final Cli.Outcome o = incast("illegal_insn.elf");
        finishedAtLineRate("illegal_insn.elf", o);
        final Map<String, Long> c = ccSums("illegal_insn.elf");
        // the trap is immediate: each CNP faulted and completed
        assertTrue(c.get("cnp_events_handled") > 0);
        assertEquals(c.get("cnp_events_handled"), c.get("firmware_faults"));
        assertNull(c.get("firmware_budget_exceeded"), "never over the budget; a counter that never moved is not a row of counters.csv");
        final String line = firmwareLine(o);
        assertTrue(line.contains(c.get("firmware_faults") + " faults, 0 over the budget of 100000 instructions; first:"
            + " illegal instruction at pc 0x"), line);
        assertTrue(line.contains("(doca_pcc_dev_user_algo+0x") && line.matches(".*\\(CNP event\\)" + WHERE), line);
    }

    @Test
    void aStoreOutsideItsMemoryIsAFaultCountedPerCnp() throws IOException {
        final Cli.Outcome o = incast("wild_store.elf");
        finishedAtLineRate("wild_store.elf", o);
        final Map<String, Long> c = ccSums("wild_store.elf");
        assertTrue(c.get("cnp_events_handled") > 0);
        assertEquals(c.get("cnp_events_handled"), c.get("firmware_faults"));
        assertNull(c.get("firmware_budget_exceeded"), "never over the budget; a counter that never moved is not a row of counters.csv");
        final String line = firmwareLine(o);
        assertTrue(line.contains("first: store/AMO access fault at pc 0x"), line);
        assertTrue(line.contains("(doca_pcc_dev_user_algo+0x") && line.matches(".*address 0x20000000 \\(CNP event\\)" + WHERE), line);
    }

    @Test
    void firmwareWithoutTheEntryPointIsExit2WithOneLine() throws IOException {
        final Path elf = testElf("no_user_algo.elf");
        final Cli.Outcome set = incast("no_user_algo.elf");
        assertEquals(2, set.exitCode());
        assertEquals("nicsim: --set algorithm.firmware: " + elf + ": no doca_pcc_dev_user_algo (not DOCA PCC firmware, or its"
            + " symbols were stripped)", set.err().strip());
        assertFalse(set.err().contains("\tat "), set.err());
        // from a scenario file: line 3 is the firmware field
        final Path yaml = Acceptance.write(dir, "no-algo.yaml", "name: no-algo\nalgorithm:\n  firmware: " + elf + "\n"
            + "topology: {type: star, hosts: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "workload: {type: incast, senders: 1, receiver: 1, size_bytes: 1000}\n");
        final Cli.Outcome file = Cli.run("run", yaml.toString(), "--out", dir.resolve("no-algo").toString(), "--no-progress");
        assertEquals(2, file.exitCode());
        assertEquals(1, file.err().strip().lines().count(), file.err());
        assertTrue(file.err().startsWith("nicsim: " + yaml + ":3: algorithm.firmware: " + elf + ": no doca_pcc_dev_user_algo"),
            file.err());
    }
}
