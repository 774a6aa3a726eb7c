package dev.nicsim.cli.hostile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.nicsim.cli.hostile.Hostile.badInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 1: empty and overlapping output paths are refused (exit 2, one line) before
 * anything is written. Before the fix {@code --to ''} and {@code --record ''} exited 0 and wrote
 * {@code metadata.cq4t} into the current directory and the cycle file into {@code /}, and
 * {@code --out ''} wrote the run's files into the current directory.
 */
class OutputPathsTest {
    @TempDir
    Path dir;

    /** The current directory (the module directory under Maven) gains no file. */
    private static void nothingInWorkingDirectory(final List<String> before) throws IOException {
        assertEquals(before, Hostile.names(Path.of("").toAbsolutePath()));
        assertFalse(Files.exists(Path.of("/19700101F.cq4")), "a trace cycle file was written to /");
    }

    @Test
    void emptyPathsAreRefusedAndNothingIsWritten() throws IOException {
        final List<String> before = Hostile.names(Path.of("").toAbsolutePath());
        final String s = Hostile.scenario(dir, Hostile.SMALL).toString();
        final String o = dir.resolve("o").toString();
        assertEquals("nicsim: --out: the path is empty; give a file or directory name",
            badInput("run", s, "--no-progress", "--out", ""));
        assertEquals("nicsim: --record: the path is empty; give a file or directory name",
            badInput("run", s, "--no-progress", "--out", o, "--record", ""));
        assertEquals("nicsim: --pcap: the path is empty; give a file or directory name",
            badInput("run", s, "--no-progress", "--out", o, "--pcap", ""));
        assertFalse(Files.exists(dir.resolve("o")), "the refused runs wrote their output directory");
        assertEquals("nicsim: --out: the path is empty; give a file or directory name",
            badInput("replay", dir.resolve("x.pcap").toString(), "--algorithm", "dcqcn", "--out", ""));
        assertEquals("nicsim: --out: the path is empty; give a file or directory name",
            badInput("compare", dir.toString(), dir.resolve("ref.txt").toString(), "--out", ""));
        assertEquals("nicsim: --to: the path is empty; give a file or directory name",
            badInput("trace", "import", dir.resolve("x.pcap").toString(), "--to", ""));
        nothingInWorkingDirectory(before);
    }

    @Test
    void scenarioNamesThatAreNotADirectoryNameAreRefused() throws IOException {
        for (final String name : new String[] {".", "..", "a/b"}) {
            final Path s = Hostile.scenario(dir, Hostile.SMALL.replace("name: hostile", "name: '" + name + "'"));
            final String line = badInput("run", s.toString(), "--no-progress");
            assertTrue(line.contains("name") && line.contains("'" + name + "'"), line);
        }
    }

    @Test
    void aPcapOnTopOfTheRunsOwnFileIsRefusedBeforeAnythingIsWritten() throws IOException {
        final String s = Hostile.scenario(dir, Hostile.SMALL).toString();
        final Path out = dir.resolve("o");
        final String line = badInput("run", s, "--no-progress", "--out", out.toString(), "--pcap",
            out.resolve("flows.csv").toString());
        assertEquals("nicsim: --pcap " + out.resolve("flows.csv") + ": the command writes its own flows.csv there;"
            + " give another file", line);
        assertFalse(Files.exists(out), "outputs were written before the refusal");
        // the pcap may not be the scenario either
        assertTrue(badInput("run", s, "--no-progress", "--out", out.toString(), "--pcap", s).contains("scenario file"));
        assertFalse(Files.exists(out));
    }

    @Test
    void aTraceDirectoryInsideOrEqualToTheOutputDirectoryIsRefusedBeforeAnythingIsWritten() throws IOException {
        final String s = Hostile.scenario(dir, Hostile.SMALL).toString();
        final Path out = dir.resolve("o");
        for (final Path trace : List.of(out, out.resolve("t"), dir)) {
            final String line = badInput("run", s, "--no-progress", "--out", out.toString(), "--record", trace.toString());
            assertTrue(line.contains("--record " + trace + ": the trace directory must lie outside the output directory"),
                line);
            assertFalse(Files.exists(out), "outputs were written before the refusal");
        }
    }
}
