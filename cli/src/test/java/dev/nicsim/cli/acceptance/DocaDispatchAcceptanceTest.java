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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19 section 2 on the DCQCN incast ({@code scenarios/incast-dcqcn.yaml}, 16 senders) with the
 * DOCA test programs that never register a slot ({@code firmware/testfw/testfw_doca_dispatch.h}):
 * <ul>
 * <li>{@code doca_loop_on_cnp.elf} loops forever in its CNP handler: every CNP call is abandoned at
 *     the budget and counted in {@code firmware_budget_exceeded}, the run exits 0 with all flows done
 *     (before issue 19 the runtime never called this program, so nothing was counted);</li>
 * <li>{@code doca_count_calls.elf} hands every event to {@code doca_pcc_dev_default_internal_algo}:
 *     that is DCQCN, so senders are cut below line rate (the old default never changed a rate).</li>
 * </ul>
 */
class DocaDispatchAcceptanceTest {
    private static final int SENDERS = 16;

    @TempDir
    Path dir;

    private Path run(final String elf) {
        final Path p = TestPaths.root().resolve("firmware/bin/test").resolve(elf);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/test/" + elf + " not in this checkout");
        final Cli.Outcome o = Cli.run("run", Acceptance.shipped("incast-dcqcn.yaml").toString(), "--out", dir.resolve(elf).toString(),
            "--no-progress", "--set", "algorithm.firmware=" + p);
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows done          " + SENDERS + " / " + SENDERS), o.out());
        return dir.resolve(elf);
    }

    private static Map<String, Long> ccSums(final Path out) throws IOException {
        final Map<String, Long> m = new HashMap<>();
        for (final String row : Files.readAllLines(out.resolve("counters.csv"))) {
            final String[] f = row.split(",", -1);
            if (f[0].matches("host\\d+/cc")) {
                m.merge(f[1], Long.parseLong(f[2]), Long::sum);
            }
        }
        return m;
    }

    @Test
    void anEndlessLoopInAnUnregisteredProgramsCnpHandlerIsCounted() throws IOException {
        final Map<String, Long> c = ccSums(run("doca_loop_on_cnp.elf"));
        final long over = c.get("firmware_budget_exceeded");
        assertNull(c.get("firmware_faults"), "no fault; a counter that never moved is not a row of counters.csv");
        // every CNP handled was abandoned at the budget (CNPs still on a core at the end are not "handled")
        assertTrue(over > 0 && over >= c.get("cnp_events_handled"), over + " vs " + c.get("cnp_events_handled"));
    }

    @Test
    void theDefaultAlgorithmIsDcqcnAndCutsTheRate() throws IOException {
        final Path out = run("doca_count_calls.elf");
        final Map<String, Long> c = ccSums(out);
        assertNull(c.get("firmware_faults"), "no fault; a counter that never moved is not a row of counters.csv");
        assertNull(c.get("firmware_budget_exceeded"), "never over the budget; a counter that never moved is not a row of counters.csv");
        final List<String> rates = Files.readAllLines(out.resolve("rates.csv"));
        long below = 0;
        for (final String row : rates.subList(1, rates.size())) {
            if (Long.parseLong(row.split(",", -1)[2]) < 100_000_000_000L) {
                below++;
            }
        }
        assertTrue(below > 0, "DCQCN cut no sender's rate");
    }
}
