package dev.nicsim.scenario;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as a scenario YAML file, loaded or refused with a one-line
 * {@link dev.nicsim.scenario.ScenarioException}; anything else escaping is a finding.
 * {@code mvn test} replays the committed corpus ({@code ScenarioJazzerTestInputs/}); {@code mvn test -Pfuzz
 * -pl scenario -am -Dtest=ScenarioJazzerTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes it (docs/reliability.md).
 */
class ScenarioJazzerTest {
    private static final Path FILE = Path.of("fuzz.yaml");

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyScenarioLoadsOrFailsWithOneLine(final byte[] yaml) {
        try {
            // the text ScenarioLoader.load decodes after reading the file (no file per input); files the
            // scenario names are looked for next to FILE, in the module directory
            ScenarioLoader.parse(FILE, new String(yaml, StandardCharsets.UTF_8), List.of(), null);
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
