package dev.nicsim.cli.acceptance;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sw.SwitchAsic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers shared by the end-to-end acceptance tests: loading shipped or written scenarios, running
 * them through {@link Runner} with probes attached, and reading counters.
 *
 * <p>Thread-safety: stateless.
 */
final class Acceptance {
    /** 1 us in ps. */
    static final long US = 1_000_000L;

    private Acceptance() {
    }

    /**
     * A shipped scenario.
     *
     * @param name file name in {@code scenarios/} ("" for the directory)
     * @return its path in the repository
     */
    static Path shipped(final String name) {
        return TestPaths.root().resolve("scenarios").resolve(name);
    }

    /**
     * A run's {@code counters.csv} as {@code component.name} to value (rows whose value is not an
     * integer are left out).
     *
     * @param out the run's output directory
     * @return the counters
     * @throws IOException if the file cannot be read
     */
    static Map<String, Long> counters(final Path out) throws IOException {
        final Map<String, Long> m = new HashMap<>();
        for (final String row : Files.readAllLines(out.resolve("counters.csv"))) {
            final String[] f = row.split(",", -1);
            if (f.length == 3 && f[2].matches("-?\\d+")) {
                m.put(f[0] + "." + f[1], Long.parseLong(f[2]));
            }
        }
        return m;
    }

    /**
     * Writes a scenario text to a file.
     *
     * @param dir  directory
     * @param name file name
     * @param yaml scenario text
     * @return the file
     * @throws IOException on write failure
     */
    static Path write(final Path dir, final String name, final String yaml) throws IOException {
        final Path f = dir.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    /**
     * A runner with its time-series writer; close it after the run.
     *
     * @param scenario scenario
     * @param runner   the runner (probes attach to {@code runner.simulator()} before {@link #run})
     * @param series   writer of queues.csv / rates.csv
     */
    record Run(Scenario scenario, Runner runner, TimeSeriesWriter series) implements AutoCloseable {
        /**
         * Builds the fabric of a scenario.
         *
         * @param scenario scenario
         * @param out      output directory of the time series
         * @return the run, not started
         * @throws IOException if the output files cannot be created
         */
        static Run of(final Scenario scenario, final Path out) throws IOException {
            final TimeSeriesWriter w = new TimeSeriesWriter(out);
            return new Run(scenario, new Runner(scenario, w), w);
        }

        /**
         * Runs to completion or the stop time.
         *
         * @return the outcome
         * @throws IOException if writing samples fails
         */
        RunResult run() throws IOException {
            return runner.run(done -> { });
        }

        @Override
        public void close() throws IOException {
            series.close();
        }
    }

    /**
     * Loads a scenario.
     *
     * @param file      YAML file
     * @param overrides {@code --set} style overrides
     * @return the scenario
     */
    static Scenario load(final Path file, final String... overrides) {
        return ScenarioLoader.load(file, List.of(overrides), null);
    }

    /**
     * The egress port of a switch whose link leads to a device.
     *
     * @param sw         switch
     * @param deviceName peer device name, e.g. {@code host16} or {@code right}
     * @return port number
     * @throws AssertionError if no port leads there
     */
    static int portToward(final SwitchAsic sw, final String deviceName) {
        for (int p = 0; p < sw.portCount(); p++) {
            final EgressPort e = sw.egressPort(p);
            if (e != null && e.peer() != null && deviceName.equals(e.peer().name())) {
                return p;
            }
        }
        throw new AssertionError(sw.name() + " has no port toward " + deviceName);
    }

    /**
     * Time the last flow completed.
     *
     * @param r run result with every flow completed
     * @return max over flows of start + FCT, ns
     */
    static long lastCompletionNs(final RunResult r) {
        long last = 0;
        for (final FlowRecord f : r.flows()) {
            if (!f.completed()) {
                throw new AssertionError("flow " + f.flowId() + " did not complete");
            }
            last = Math.max(last, f.startNs() + f.fctNs());
        }
        return last;
    }
}
