package dev.nicsim.cli;

import dev.nicsim.testsupport.TestPaths;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The NIC and the switch are built as pipeline stages, each a small class (docs/architecture.md
 * "One packet's way through"), and the fabric and the command line as one class per job: no main class
 * of nic-model, switch-asic-model, fabric or cli is over 600 lines, so no class grows back into the whole
 * device or the whole run.
 */
class ModuleSizeTest {
    private static final int MAX_LINES = 600;

    @Test
    void noMainClassOfTheDeviceModelsFabricOrCommandLineIsOver600Lines() throws IOException {
        final List<String> tooLong = new ArrayList<>();
        int files = 0;
        for (final String module : new String[] {"nic-model", "switch-asic-model", "fabric", "cli"}) {
            final Path dir = TestPaths.root().resolve(module).resolve("src/main/java");
            try (Stream<Path> s = Files.walk(dir)) {
                for (final Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    final long lines = Files.readAllLines(f).size();
                    if (lines > MAX_LINES) {
                        tooLong.add(TestPaths.root().relativize(f) + ": " + lines + " lines");
                    }
                }
            }
        }
        assertTrue(files > 20, "found only " + files + " source files");
        assertEquals(List.of(), tooLong);
    }
}
