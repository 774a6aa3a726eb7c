package dev.nicsim.cli.hostile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 23, defect 10, as refined by issue 41: input refused while the run is being set up
 * (here the base RTT that overflows the PCC flow attribute, found when the fabric is built) is
 * refused before anything is written, so an earlier run's files in a reused {@code --out} stay
 * whole; a run that finishes replaces every file of the earlier run (no stale chart survives beside
 * the new ones) and removes a {@code PARTIAL} an earlier failed command left. A run that fails
 * part-way is {@link RefusedRunKeepsOutputTest}'s; {@code replay}'s {@code PARTIAL} marker is
 * {@code dev.nicsim.cli.PartialMarkerTest}'s.
 */
class PartialOutputTest {
    @TempDir
    Path dir;

    @Test
    void aRefusedRunLeavesTheEarlierFilesAndARunReplacesThem() throws IOException {
        final Path s = Hostile.scenario(dir, Hostile.SMALL);
        final Path out = Files.createDirectory(dir.resolve("o"));
        Files.writeString(out.resolve("flows.csv"), "stale: from an earlier run\n");
        Files.writeString(out.resolve("throughput.png"), "stale chart\n");
        Files.writeString(out.resolve("PARTIAL"), "left by an earlier run that failed part-way\n");
        Hostile.badInput("run", s.toString(), "--no-progress", "--out", out.toString(), "--set",
            "topology.host_link.delay_ns=536870912");
        assertEquals(List.of("PARTIAL", "flows.csv", "throughput.png"), Hostile.names(out));
        assertEquals("stale: from an earlier run\n", Files.readString(out.resolve("flows.csv")));

        Hostile.ok("run", s.toString(), "--no-progress", "--out", out.toString());
        assertEquals(List.of("classes.csv", "counters.csv", "fct.txt", "flows.csv", "hot_ports.csv", "queues.csv", "rates.csv",
            "run.json", "throughput.csv", "tiers.csv"), Hostile.names(out));
        assertFalse(Files.readString(out.resolve("flows.csv")).startsWith("stale"));
    }
}
