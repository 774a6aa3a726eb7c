package dev.nicsim.fabric.outputs;

import dev.nicsim.fabric.fct.FctFile;
import dev.nicsim.fabric.fct.Ns3Fct;
import dev.nicsim.fabric.run.ClassReport;
import dev.nicsim.fabric.run.FirmwareServices;
import dev.nicsim.fabric.run.HtsimLines;
import dev.nicsim.fabric.run.Reports;
import dev.nicsim.fabric.run.RunCharts;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.ThroughputChart;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.scenario.Scenario;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * What {@code nicsim run} does with a loaded scenario, shared by the command and by
 * {@code nicsim sweep} (which runs every point and seed through {@link #run}, so a point is
 * exactly {@code nicsim run SCENARIO --seed S --set k=v ...}): build the {@link Runner}, simulate,
 * then write {@code flows.csv}, {@code fct.txt}, {@code counters.csv}, {@code run.json},
 * {@code classes.csv}, {@code tiers.csv}, {@code hot_ports.csv}, {@code mailbox.csv} (with {@code firmware.mailbox}) and the figures the scenario asks for, and print the summary (with uet-htsim's two lines,
 * {@link HtsimLines}, for a scenario named {@code htsim-...}).
 *
 * <p>Thread-safety: stateless; each call uses its own runner, so calls on different threads with
 * different output directories are independent.
 */
public final class RunOutputs {
    private RunOutputs() {
    }

    /**
     * A finished run.
     *
     * @param scenario the scenario that ran
     * @param runner   its runner (flows, counters, switches after the run)
     * @param result   the outcome
     */
    public record Outcome(Scenario scenario, Runner runner, RunResult result) {
    }

    /**
     * Runs a scenario and writes every output file to a directory.
     *
     * @param scenario the validated scenario
     * @param dir      output directory, created if missing; existing output files are replaced
     * @param out      where the summary is printed
     * @param progress called with the number of completed flows every 20 us of simulated time; it
     *                 may throw an unchecked exception to abandon the run (a sweep's point timeout)
     * @return the outcome
     * @throws IOException if an output file cannot be written or a chart's CSV cannot be read
     * @throws dev.nicsim.scenario.ScenarioException if the fabric cannot be built from the scenario
     */
    public static Outcome run(final Scenario scenario, final Path dir, final PrintStream out, final LongConsumer progress)
        throws IOException {
        return run(scenario, dir, out, progress, 1, 1);
    }

    /**
     * Runs a scenario as {@code nicsim run --partitions N --threads T} does ({@link Runner}: N partitions
     * in conservative windows; the results depend on N only) and writes every output file to a directory.
     *
     * @param scenario   the validated scenario
     * @param dir        output directory, created if missing; existing output files are replaced
     * @param out        where the summary is printed
     * @param progress   as {@link #run(Scenario, Path, PrintStream, LongConsumer)}
     * @param partitions N, 1 (the sequential run) or more
     * @param threads    T, 1..max(1, N)
     * @return the outcome
     * @throws IOException if an output file cannot be written or a chart's CSV cannot be read
     * @throws dev.nicsim.scenario.ScenarioException if the fabric cannot be built from the scenario, or
     *         cannot be split into N partitions (more than its access switches, a cut link of delay 0)
     * @throws IllegalArgumentException if {@code threads} is out of range
     */
    public static Outcome run(final Scenario scenario, final Path dir, final PrintStream out, final LongConsumer progress,
                              final int partitions, final int threads) throws IOException {
        final Runner runner;
        final RunResult result;
        final TimeSeriesWriter series = TimeSeriesWriter.unopened();
        try (series) {
            // the fabric is built (and the scenario checked against it) before the first file is written
            runner = new Runner(scenario, series, null, partitions, threads);
            series.open(dir);
            result = runner.run(progress);
        }
        write(dir, scenario, runner, result, out);
        return new Outcome(scenario, runner, result);
    }

    /**
     * Writes the end-of-run files of a finished run, prints its summary, and draws the figures:
     * all four ({@link RunCharts}) with {@code sampling.charts}, else {@code throughput.png} alone
     * with {@code sampling.throughput_chart}. The time-series files must be closed.
     *
     * @param dir      output directory
     * @param scenario the scenario that ran
     * @param runner   its runner, after {@link Runner#run}
     * @param result   the outcome
     * @param out      where the summary is printed
     * @throws IOException if a file cannot be written or a chart's CSV cannot be read
     */
    public static void write(final Path dir, final Scenario scenario, final Runner runner, final RunResult result,
                             final PrintStream out) throws IOException {
        Reports.writeFlows(dir, result.flows());
        FctFile.write(dir.resolve(FctFile.FILE), Ns3Fct.rows(scenario, runner.graph(), result.flows(), runner.completionOrder()));
        Reports.writeCounters(dir, runner.counters(), scenario.sampling().allCounters());
        runner.tiers().write(dir, result.simulatedPs());
        Reports.writeRunJson(dir, scenario, result);
        Reports.printSummary(out, result);
        if (scenario.name().startsWith(HtsimLines.SCENARIO_PREFIX)) {
            final HtsimLines h = HtsimLines.of(result.flows(), c -> runner.counters().sum(HtsimLines.HOSTS, c));
            out.println(h.spreadLine());
            out.println(h.countsLine());
        }
        if (runner.programs().provider() instanceof FirmwareProvider fp) {
            out.println(fp.summaryLine());
        }
        if (!scenario.mailbox().isEmpty()) {
            runner.mailboxLog().write(dir);
            out.println(runner.mailboxLog().summaryLine());
        }
        if (runner.programs().np() != null) {
            out.println(runner.programs().np().summaryLine());
        }
        final ClassReport classes = ClassReport.of(runner.flows(), result.flows(), runner.throughput(), result.simulatedPs());
        classes.write(dir);
        classes.print(out);
        FirmwareServices.lines(runner.programs()).forEach(out::println);
        runner.stallReport().lines().forEach(out::println);
        if (scenario.sampling().charts()) {
            RunCharts.writeAll(dir, scenario.name(), runner.flows(), scenario.sampling().throughputIntervalPs());
        } else if (scenario.sampling().throughputChart()) {
            ThroughputChart.write(dir, scenario.name(), runner.flows(), scenario.sampling().throughputIntervalPs());
        }
    }
}
