package dev.nicsim.cli;

import dev.nicsim.interop.ns3.FctCompare;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code nicsim compare RUN_DIR REFERENCE_FCT [--out DIR]}: matches the flows of a run's
 * {@code fct.txt} with a reference {@code fct.txt} (HPCC ns-3 format) and writes
 * {@code compare.csv} and {@code compare.png} ({@link FctCompare}).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Compare a run's fct.txt with a reference fct.txt: slowdown p50/p95/p99 overall and per size bucket"
        + " (compare.csv, compare.png).")
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "output directory of a nicsim run (holds fct.txt)")
    Path runDir;

    @Parameters(index = "1", paramLabel = "REFERENCE_FCT", description = "reference fct.txt (HPCC ns-3 FCT_OUTPUT_FILE)")
    Path reference;

    @Option(names = "--out", paramLabel = "DIR", description = "where compare.csv and compare.png go (default RUN_DIR)")
    Path out;

    @Override
    public Integer call() throws Exception {
        OutputPaths.nonEmpty("--out", out);
        final FctCompare.Result r = FctCompare.compare(runDir.resolve("fct.txt"), reference);
        final Path dir = out != null ? out : runDir;
        OutputPaths.setWriting(dir);
        r.write(dir);
        r.print(System.out);
        System.out.println("wrote " + dir.resolve("compare.csv") + " and " + dir.resolve("compare.png"));
        return 0;
    }
}
