package dev.nicsim.interop.ns3;

import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.nicsim.scenario.ScenarioException;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as an HPCC ns-3 configuration file ({@code config.txt}, the keys
 * {@code third.cc} reads), parsed from memory and imported as {@code nicsim ns3 import} does (every key
 * interpreted, the scenario built and written as YAML text), with a fixed 3-host topology and 3-flow file
 * ({@code ns3-fuzz/}). It ends normally or in a one-line {@link ScenarioException}; anything else escaping
 * is a finding. {@code mvn test} replays the committed corpus ({@code Ns3ConfigJazzerTestInputs/});
 * {@code -Pfuzz} fuzzes it (docs/reliability.md). Nothing is written: the scenario path only names it.
 */
class Ns3ConfigJazzerTest {
    private static final Path DIR = fixtures();

    static Path fixtures() {
        try {
            return Path.of(Ns3ConfigJazzerTest.class.getResource("/dev/nicsim/interop/ns3/ns3-fuzz/topology.txt").toURI())
                .getParent();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyConfigImportsOrFailsWithOneLine(final byte[] text) {
        final Path config = DIR.resolve("config.txt");
        try {
            final Ns3Config c = Ns3Config.parse(config, new String(text, StandardCharsets.UTF_8));
            Ns3Import.importConfig(c, DIR.resolve("topology.txt"), DIR.resolve("flow.txt"), DIR.resolve("imported.yaml"));
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
