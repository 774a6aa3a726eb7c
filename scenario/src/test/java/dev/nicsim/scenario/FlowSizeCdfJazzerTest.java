package dev.nicsim.scenario;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any text as a flow-size CDF file, loaded or refused with a one-line
 * {@link dev.nicsim.scenario.ScenarioException}; anything else escaping is a finding.
 * {@code mvn test} replays the committed corpus ({@code FlowSizeCdfJazzerTestInputs/}); {@code mvn test -Pfuzz
 * -pl scenario -am -Dtest=FlowSizeCdfJazzerTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes it (docs/reliability.md).
 */
class FlowSizeCdfJazzerTest {
    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyFlowSizeCdfParsesOrFailsWithOneLine(final byte[] text) {
        try {
            final FlowSizeCdf cdf = FlowSizeCdf.parse("fuzz.cdf", new String(text, StandardCharsets.UTF_8).lines().toList());
            cdf.sizeAt(0.5);
        } catch (final ScenarioException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
