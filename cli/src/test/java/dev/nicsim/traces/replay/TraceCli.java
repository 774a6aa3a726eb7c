package dev.nicsim.traces.replay;

import dev.nicsim.testsupport.TestPaths;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what the trace commands write and where the real captures beside the repository are; the
 * commands themselves run through {@link dev.nicsim.cli.Cli}.
 */
final class TraceCli {
    private TraceCli() {
    }

    /**
     * @param name file name in {@code ../shared/data/captures}
     * @return its path, read in place; skips the test (fails it under
     *         {@code -Dnicsim.requireShared=true}) when absent
     */
    static Path capture(final String name) {
        return TestPaths.sharedOrSkip("data/captures/" + name);
    }

    /**
     * Reads {@code counters.csv} of a run.
     *
     * @param runDir the run's output directory
     * @return value by {@code component/counter}
     */
    static Map<String, Long> counters(final Path runDir) {
        final Map<String, Long> m = new HashMap<>();
        for (final String line : lines(runDir.resolve("counters.csv"))) {
            final String[] f = line.split(",");
            if (f.length == 3 && !f[0].equals("component")) {
                m.put(f[0] + "/" + f[1], Long.parseLong(f[2]));
            }
        }
        return m;
    }

    /**
     * @param file a text file
     * @return its lines
     */
    static List<String> lines(final Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
