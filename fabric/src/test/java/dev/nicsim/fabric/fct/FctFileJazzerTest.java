package dev.nicsim.fabric.fct;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.nicsim.scenario.ScenarioException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as an FCT file (HPCC ns-3 fct.txt), loaded or refused with a one-line
 * {@link dev.nicsim.scenario.ScenarioException}; anything else escaping is a finding.
 * {@code mvn test} replays the committed corpus ({@code FctFileJazzerTestInputs/}); {@code mvn test -Pfuzz
 * -pl fabric -am -Dtest=FctFileJazzerTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes it (docs/reliability.md).
 */
class FctFileJazzerTest {
    private static final Path FILE = Path.of("fct.txt");

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyFctFileReadsOrFailsWithOneLine(final byte[] text) {
        try {
            // the text FctFile.read decodes after reading the file (no file per input)
            FctFile.parse(FILE, new String(text, StandardCharsets.UTF_8));
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
