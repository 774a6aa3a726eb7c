package dev.nicsim.sweep;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jazzer target (issue 23): any bytes as a sweep file, parsed from memory as if it were
 * {@code scenarios/fuzz-sweep.yaml} (so {@code scenario: incast-dcqcn.yaml} names the shipped incast),
 * then validated as {@code nicsim sweep} does before any run (the scenario loaded with the fixed
 * overrides and with each axis value), and every point's overrides built. It ends normally or in a
 * one-line {@link SweepException}; anything else escaping is a finding, and so is an accepted sweep
 * whose point count is not the product of its dimension sizes. Spark is never started and nothing is
 * written. {@code mvn test} replays the committed corpus ({@code SweepFileJazzerTestInputs/});
 * {@code -Pfuzz} fuzzes it (docs/reliability.md).
 */
class SweepFileJazzerTest {
    /** Where the sweep file would be: beside the shipped scenarios (module directory is sweep/). */
    private static final Path FILE = Path.of("..", "scenarios", "fuzz-sweep.yaml");
    /** Points whose overrides are built per input, at most (the first ones). */
    private static final int MAX_POINTS_BUILT = 64;

    @FuzzTest(maxDuration = "4m", maxExecutions = 1_000_000)
    void anySweepFileValidatesOrFailsWithOneLine(final byte[] yaml) {
        try {
            final SweepSpec spec = SweepSpec.parse(FILE, new String(yaml, StandardCharsets.UTF_8));
            spec.validate();
            long product = 1;
            for (final SweepSpec.Dimension d : spec.dimensions()) {
                assertTrue(d.size() > 0, d.name());
                product *= d.size();
            }
            assertEquals(product, spec.pointCount());
            for (int p = 0; p < Math.min(spec.pointCount(), MAX_POINTS_BUILT); p++) {
                spec.overrides(p);
                spec.axisValues(p);
            }
            assertFalse(spec.seeds().isEmpty());
        } catch (final SweepException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
