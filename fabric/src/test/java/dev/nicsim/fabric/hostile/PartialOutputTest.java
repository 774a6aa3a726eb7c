package dev.nicsim.fabric.hostile;

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
 * Issue 23, defect 10: a run that fails part-way leaves its output directory marked partial
 * ({@code PARTIAL}), and files an earlier run left in a reused {@code --out} do not survive beside
 * the new ones. Before the fix the failed run left header-only CSVs with nothing saying so, beside
 * the earlier run's stale {@code flows.csv}.
 */
class PartialOutputTest {
    @TempDir
    Path dir;

    @Test
    void aFailedRunIsMarkedPartialAndStaleFilesAreGone() throws IOException {
        final Path s = Hostile.scenario(dir, Hostile.SMALL);
        final Path out = Files.createDirectory(dir.resolve("o"));
        Files.writeString(out.resolve("flows.csv"), "stale: from an earlier run\n");
        Files.writeString(out.resolve("throughput.png"), "stale chart\n");
        // fails in the model's set-up, after the time-series files were opened (defect 4's base-RTT overflow)
        Hostile.badInput("run", s.toString(), "--no-progress", "--out", out.toString(), "--set",
            "topology.host_link.delay_ns=536870912");
        assertTrue(Files.exists(out.resolve("PARTIAL")), Hostile.names(out).toString());
        assertFalse(Files.exists(out.resolve("flows.csv")), "the earlier run's flows.csv survived");
        assertFalse(Files.exists(out.resolve("throughput.png")), "the earlier run's chart survived");

        Hostile.ok("run", s.toString(), "--no-progress", "--out", out.toString());
        assertEquals(List.of("classes.csv", "counters.csv", "fct.txt", "flows.csv", "queues.csv", "rates.csv", "run.json",
            "throughput.csv"), Hostile.names(out));
        assertFalse(Files.readString(out.resolve("flows.csv")).startsWith("stale"));
    }
}
