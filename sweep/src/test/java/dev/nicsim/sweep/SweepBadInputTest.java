package dev.nicsim.sweep;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad sweep files: exit 2 with one line naming the file and line (and, for a value, the axis and
 * the value), before Spark starts or any point runs (nothing is written to the output directory).
 */
class SweepBadInputTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // case | body after 'scenario:' | expected in the message
        "unknown field | axis: {workload.size_bytes: [1]}\\nseeds: [1] | sweep.yaml:3: axis: unknown field",
        "path that does not exist | axes: {workload.bogus: [1, 2]}\\nseeds: [1] | sweep.yaml:3: axis workload.bogus value 1: --set workload.bogus: unknown field",
        "value out of range | axes:\\n  workload.size_bytes: [1000, -5]\\nseeds: [1] | sweep.yaml:4: axis workload.size_bytes value -5: --set workload.size_bytes: expected an integer in [1, 2147483647], got -5",
        "unknown algorithm | axes: {algorithm.name: [dcqcn, nosuch]}\\nseeds: [1] | axis algorithm.name value nosuch:",
        "zip lengths differ | zip:\\n  - {switch.wred.kmin_bytes: [1000, 2000], switch.wred.kmax_bytes: [3000]}\\nseeds: [1] | sweep.yaml:4: zip.switch.wred.kmax_bytes: expected 2 values, as many as switch.wred.kmin_bytes has, got 1",
        "no seeds | axes: {workload.size_bytes: [1000]} | sweep.yaml:1: seeds: missing",
        "seed not an integer | seeds: [1, x] | sweep.yaml:3: seeds: expected an integer >= 0, got 'x'",
        "axis not a list | axes: {workload.size_bytes: 1000}\\nseeds: [1] | sweep.yaml:3: axes.workload.size_bytes: expected a non-empty list",
        "key twice | set: {workload.size_bytes: 5000}\\naxes: {workload.size_bytes: [1000]}\\nseeds: [1] | sweep.yaml:4: workload.size_bytes: appears twice",
        "not YAML | axes: {a: [1\\nseeds: [1] | sweep.yaml:4: not valid YAML",
    })
    void badSweepFileGivesOneLine(final String name, final String body, final String expected, @TempDir final Path tmp)
        throws Exception {
        final Path file = Fixtures.sweepFile(tmp, body.replace("\\n", "\n") + "\n");
        final Path out = tmp.resolve("out");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().startsWith("nicsim: " + tmp), o.err());
        assertTrue(o.err().contains(expected), o.err());
        assertFalse(Files.exists(out), "nothing may be written before validation passes");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "missing scenario | name: x\\nscenario: nosuch.yaml\\nseeds: [1] | sweep.yaml:2: scenario: no such file",
        "bad name | name: a b\\nscenario: nosuch.yaml\\nseeds: [1] | sweep.yaml:1: name: expected letters",
        "not a mapping | - 1 | sweep.yaml:1: expected a mapping",
    })
    void badHeaderGivesOneLine(final String name, final String text, final String expected, @TempDir final Path tmp)
        throws Exception {
        final Path file = tmp.resolve("sweep.yaml");
        Files.writeString(file, text.replace("\\n", "\n") + "\n");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().contains(expected), o.err());
    }

    /** A sweep file named "my sweep.yaml" with no name: the file name is not a valid name, which is one line, not an exception. */
    @org.junit.jupiter.api.Test
    void aFileNameThatIsNoValidNameGivesOneLine(@TempDir final Path tmp) throws Exception {
        final Path file = tmp.resolve("my sweep.yaml");
        Files.writeString(file, "scenario: nosuch.yaml\nseeds: [1]\n");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().contains("my sweep.yaml:1: (no name:, so the file name) name: expected letters"), o.err());
    }

    private static String values(final int count) {
        final StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : ", ").append(1000 + i);
        }
        return b.append(']').toString();
    }

    /**
     * Three axes of 1,000 values each are 10^9 points: refused when the file is read, naming the
     * second axis, where the product reaches 1,000 x 1,000 = 10^6 runs, more than
     * {@link SweepSpec#MAX_RUNS} (was: accepted up to 2^31 runs, then every task built up front and
     * the driver out of memory amid Spark's heartbeat traces). Nothing is written, Spark not started.
     */
    @org.junit.jupiter.api.Test
    void aSweepOfABillionPointsIsRefusedAtTheAxisThatPassesTheLimit(@TempDir final Path tmp) throws Exception {
        final StringBuilder body = new StringBuilder("axes:\n");
        for (final String key : new String[] {"seed", "stop_time_us", "workload.size_bytes"}) {
            body.append("  ").append(key).append(": ").append(values(1000)).append('\n');
        }
        final Path file = Fixtures.sweepFile(tmp, body + "seeds: [1]\n");
        final Path out = tmp.resolve("out");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--out",
            out.toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertEquals("nicsim: " + file + ":5: axis stop_time_us: the sweep reaches 1000000 runs (points x seeds) here, more"
            + " than 100000, the limit of a sweep; expected fewer axes, values or seeds, or several sweeps", o.err().strip());
        assertEquals("", o.out(), "Spark started");
        assertFalse(Files.exists(out));
    }

    /**
     * The limit counts seeds: 1,000 x 50 points x 2 seeds = 100,000 runs is accepted; 1,000 x 51 x 2 =
     * 102,000 is refused at the second axis; 100,001 seeds alone are refused at {@code seeds}.
     */
    @org.junit.jupiter.api.Test
    void theLimitIsOnRunsAndNamesTheField(@TempDir final Path tmp) throws Exception {
        final String head = "name: x\nscenario: " + Fixtures.incast() + "\naxes:\n  stop_time_us: " + values(1000) + "\n";
        final Path file = tmp.resolve("sweep.yaml");
        final SweepSpec atLimit = SweepSpec.parse(file, head + "  workload.size_bytes: " + values(50) + "\nseeds: [1, 2]\n");
        assertEquals(50_000, atLimit.pointCount());
        assertEquals(SweepSpec.MAX_RUNS, atLimit.pointCount() * atLimit.seeds().size());
        final SweepException over = org.junit.jupiter.api.Assertions.assertThrows(SweepException.class,
            () -> SweepSpec.parse(file, head + "  workload.size_bytes: " + values(51) + "\nseeds: [1, 2]\n"));
        assertEquals(file + ":5: axis workload.size_bytes: the sweep reaches 102000 runs (points x seeds) here, more than"
            + " 100000, the limit of a sweep; expected fewer axes, values or seeds, or several sweeps", over.getMessage());
        final StringBuilder seeds = new StringBuilder("name: x\nscenario: " + Fixtures.incast() + "\nseeds: [0");
        for (int s = 1; s <= SweepSpec.MAX_RUNS; s++) {
            seeds.append(", ").append(s);
        }
        final SweepException tooManySeeds = org.junit.jupiter.api.Assertions.assertThrows(SweepException.class,
            () -> SweepSpec.parse(file, seeds + "]\n"));
        assertEquals(file + ":3: seeds: 100001 seeds are more than 100000 runs (points x seeds), the limit of a sweep;"
            + " expected fewer seeds, or several sweeps", tooManySeeds.getMessage());
    }

    /** An axis key with a line break is quoted with the break written as \\n: the message stays one line. */
    @org.junit.jupiter.api.Test
    void anAxisKeyWithALineBreakStaysOneLine(@TempDir final Path tmp) throws Exception {
        final Path file = Fixtures.sweepFile(tmp, "axes: {\"workload.size_bytes\\nx\": [1000, 2000]}\nseeds: [1]\n");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--out",
            tmp.resolve("out").toString(), "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().contains("sweep.yaml:3: workload.size_bytes\\nx: expected a scenario path"), o.err());
    }

    /** --out '' (the current directory) and spark-cluster --dir '' are refused before anything is written. */
    @org.junit.jupiter.api.Test
    void emptyOutputPathsAreRefused(@TempDir final Path tmp) throws Exception {
        final Path file = Fixtures.sweepFile(tmp, "seeds: [1]\n");
        dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--out", "", "--no-progress");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: --out: the path is empty; give a directory name", o.err().strip());
        o = Fixtures.sweepMain("spark-cluster", "stop", "--dir", "");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: --dir: the path is empty; give a directory name", o.err().strip());
    }
}
