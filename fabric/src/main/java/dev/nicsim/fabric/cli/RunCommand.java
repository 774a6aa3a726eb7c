package dev.nicsim.fabric.cli;

import dev.nicsim.fabric.run.Reports;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.fabric.scenario.Scenario;
import dev.nicsim.fabric.scenario.ScenarioLoader;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code nicsim run SCENARIO [--out DIR] [--seed N] [--set path=value]... [--no-progress]}: runs a
 * scenario, shows a progress bar on a terminal, prints the summary and writes the output files.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Simulate a scenario and write flows.csv, queues.csv, rates.csv, counters.csv and run.json.")
final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file, e.g. scenarios/incast-dcqcn.yaml")
    Path scenarioFile;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/<scenario name>)")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Seed replacing the scenario's")
    Long seed;

    @Option(names = "--set", paramLabel = "path=value",
        description = "Override a scenario field, e.g. --set workload.load=0.3 --set algorithm.params.g=0.0625")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--no-progress", description = "Do not show the progress bar")
    boolean noProgress;

    @Override
    public Integer call() throws Exception {
        final Scenario scenario = ScenarioLoader.load(scenarioFile, overrides, seed);
        final Path dir = out != null ? out : Path.of("out", scenario.name());
        final Runner runner;
        final RunResult result;
        try (TimeSeriesWriter series = new TimeSeriesWriter(dir)) {
            runner = new Runner(scenario, series);
            final boolean showBar = !noProgress && System.console() != null;
            if (showBar) {
                try (ProgressBar bar = new ProgressBarBuilder().setTaskName(scenario.name()).setInitialMax(runner.flowCount())
                    .setUnit(" flows", 1).setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).build()) {
                    result = runner.run(bar::stepTo);
                }
            } else {
                result = runner.run(done -> { });
            }
        }
        Reports.writeFlows(dir, result.flows());
        Reports.writeCounters(dir, runner.counters());
        Reports.writeRunJson(dir, scenario, result);
        Reports.printSummary(System.out, result);
        System.out.println("output in " + dir);
        return 0;
    }
}
