package dev.nicsim.cli;

import dev.nicsim.fabric.run.RunCharts;
import dev.nicsim.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code nicsim plot RUN_DIR}: draws {@code throughput.png}, {@code queues.png}, {@code rates.png}
 * and {@code slowdown.png} from a run directory's CSV files ({@link RunCharts}). Exit 2 with one
 * line naming the file and line when the directory or a CSV file is missing or malformed (a missing
 * column, a row cut short, text that is not CSV or not UTF-8); every chart is built before the
 * first figure is written, so nothing is written then.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
    description = "Draw throughput.png, queues.png (8 deepest egress queues), rates.png (20 largest flows) and"
        + " slowdown.png (FCT slowdown CDF per size bucket) from a run directory's CSV files.")
final class PlotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "Output directory of `nicsim run`, e.g. out/incast-dcqcn")
    Path dir;

    @Override
    public Integer call() throws Exception {
        OutputPaths.nonEmpty("RUN_DIR", dir); // '' would be the current directory
        if (!Files.isDirectory(dir)) {
            throw new ScenarioException(dir + (Files.exists(dir) ? ": not a directory (a run directory was expected)"
                : ": no such run directory"));
        }
        final List<Path> files;
        try {
            files = RunCharts.writeAll(dir);
        } catch (final IllegalArgumentException e) {
            throw new ScenarioException(e.getMessage());
        }
        for (final Path f : files) {
            System.out.println("wrote " + f);
        }
        return 0;
    }
}
