package dev.nicsim.fabric.hostile;

import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.nicsim.fabric.ns3.FctFile;
import dev.nicsim.fabric.scenario.ScenarioException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as an FCT file (HPCC ns-3 fct.txt), loaded or refused with a one-line
 * {@link dev.nicsim.fabric.scenario.ScenarioException}; anything else escaping is a finding.
 * {@code mvn test} replays the committed corpus ({@code FctFileJazzerTestInputs/}); {@code mvn test -Pfuzz
 * -pl fabric -am -Dtest=FctFileJazzerTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes it (docs/reliability.md).
 */
class FctFileJazzerTest {
    @FuzzTest(maxDuration = "30s")
    void anyFctFileReadsOrFailsWithOneLine(final byte[] text) throws IOException {
        final Path f = Files.createTempFile("nicsim-fuzz", ".txt");
        try {
            Files.write(f, text);
            FctFile.read(f);
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        } finally {
            Files.delete(f);
        }
    }
}
