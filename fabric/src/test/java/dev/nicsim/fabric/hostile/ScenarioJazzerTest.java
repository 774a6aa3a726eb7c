package dev.nicsim.fabric.hostile;

import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.nicsim.fabric.scenario.ScenarioException;
import dev.nicsim.fabric.scenario.ScenarioLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as a scenario YAML file, loaded or refused with a one-line
 * {@link dev.nicsim.fabric.scenario.ScenarioException}; anything else escaping is a finding.
 * {@code mvn test} replays the committed corpus ({@code ScenarioJazzerTestInputs/}); {@code mvn test -Pfuzz
 * -pl fabric -am -Dtest=ScenarioJazzerTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes it (docs/reliability.md).
 */
class ScenarioJazzerTest {
    @FuzzTest(maxDuration = "30s")
    void anyScenarioLoadsOrFailsWithOneLine(final byte[] yaml) throws IOException {
        final Path f = Files.createTempFile("nicsim-fuzz", ".yaml");
        try {
            Files.write(f, yaml);
            ScenarioLoader.load(f, List.of(), null);
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        } finally {
            Files.delete(f);
        }
    }
}
