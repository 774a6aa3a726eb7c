package dev.nicsim.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OutputPaths#starting} and {@link OutputPaths#finished} ({@code replay}): once the command
 * has passed its checks and starts writing, the earlier files it writes go and {@code PARTIAL} says
 * the directory is incomplete until the command finishes (a replay that fails part-way stays marked).
 */
class PartialMarkerTest {
    @TempDir
    Path dir;

    @Test
    void startingRemovesTheCommandsFilesAndMarksTheDirectoryUntilFinished() throws IOException {
        final Path out = Files.createDirectory(dir.resolve("o"));
        Files.writeString(out.resolve("flows.csv"), "earlier\n");
        Files.writeString(out.resolve("notes.txt"), "the user's\n");
        OutputPaths.starting(out, OutputPaths.RUN_FILES, "run s.yaml");
        assertFalse(Files.exists(out.resolve("flows.csv")));
        assertTrue(Files.exists(out.resolve("notes.txt")), "a file the command does not write was removed");
        assertTrue(Files.readString(out.resolve(OutputPaths.PARTIAL_MARKER)).startsWith("nicsim run s.yaml did not finish"));
        OutputPaths.finished(out);
        assertFalse(Files.exists(out.resolve(OutputPaths.PARTIAL_MARKER)));
        assertTrue(List.of("notes.txt").equals(List.of(out.toFile().list())));
    }
}
