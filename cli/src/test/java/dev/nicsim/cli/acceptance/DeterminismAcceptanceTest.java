package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Acceptance 4: determinism (every random draw comes from its own seeded stream,
 * {@code RngStreams}). The same scenario and seed give byte-identical {@code flows.csv} and
 * {@code counters.csv} (and time series); another seed of a Poisson workload gives different
 * flows. Runs through the command-line entry point.
 *
 * <p>Scenario: {@code websearch-leafspine-dcqcn.yaml} cut to 200 flows: Poisson arrivals and
 * WebSearch sizes (workload stream), ECMP over 4 spines (per-switch hash salt), WRED marking with
 * Pmax 0.2 (per-switch WRED stream) and PFC, so every random stream of a run is exercised.
 */
class DeterminismAcceptanceTest {
    private static final String[] DETERMINISTIC_FILES = {"flows.csv", "counters.csv", "queues.csv", "rates.csv"};

    @TempDir
    Path dir;

    private Path run(final String name, final String... extra) {
        final Path out = dir.resolve(name);
        final String[] args = new String[7 + extra.length];
        args[0] = "run";
        args[1] = Acceptance.shipped("websearch-leafspine-dcqcn.yaml").toString();
        args[2] = "--out";
        args[3] = out.toString();
        args[4] = "--no-progress";
        args[5] = "--set";
        args[6] = "workload.flows=200";
        System.arraycopy(extra, 0, args, 7, extra.length);
        final Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.exitCode(), o.err());
        return out;
    }

    @Test
    void sameSeedGivesByteIdenticalOutputAndAnotherSeedDoesNot() throws IOException {
        final Path a = run("a");
        final Path b = run("b");
        for (final String f : DETERMINISTIC_FILES) {
            final byte[] x = Files.readAllBytes(a.resolve(f));
            assertFalse(x.length < 100, f + " is nearly empty");
            assertArrayEquals(x, Files.readAllBytes(b.resolve(f)), f + " differs between two runs with seed 1");
        }
        // seed 2 draws other inter-arrival times and sizes from the "workload" stream, so already
        // the first flow's start time (an exponential draw scaled to ~ns resolution) differs
        final Path c = run("c", "--seed", "2");
        final var rowsA = Files.readAllLines(a.resolve("flows.csv"));
        final var rowsC = Files.readAllLines(c.resolve("flows.csv"));
        assertEquals(rowsA.size(), rowsC.size()); // header + 200 flows in both
        assertEquals(201, rowsA.size());
        assertNotEquals(rowsA.get(1), rowsC.get(1));
        assertFalse(rowsA.equals(rowsC));
    }
}
