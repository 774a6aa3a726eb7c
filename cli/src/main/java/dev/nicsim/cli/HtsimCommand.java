package dev.nicsim.cli;

import dev.nicsim.fabric.run.HtsimLines;
import dev.nicsim.interop.htsim.HtsimCompare;
import dev.nicsim.interop.htsim.HtsimImport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code nicsim htsim import CM [--topology TOPO] --to OUT.yaml [-- FLAGS...]} turns one uet-htsim
 * experiment into a nicsim scenario ({@link HtsimImport}); {@code nicsim htsim compare RUN_DIR
 * VALIDATE_OUT [--experiment NAME]} sets a run beside one experiment of htsim's validation output
 * ({@link HtsimCompare}).
 */
@Command(name = "htsim", mixinStandardHelpOptions = true,
    description = "Run uet-htsim's experiments: import a connection matrix and flags as a scenario, compare a run.",
    subcommands = {HtsimCommand.ImportCommand.class, HtsimCommand.CompareRunCommand.class})
final class HtsimCommand implements Callable<Integer> {
    /**
     * Without a subcommand: the usage on standard error and exit 2, as every command group does.
     *
     * @return {@link NicsimCommand#EXIT_BAD_INPUT}
     */
    @Override
    public Integer call() {
        CommandLine.usage(this, System.err);
        return NicsimCommand.EXIT_BAD_INPUT;
    }

    /** {@code nicsim htsim import}. */
    @Command(name = "import", mixinStandardHelpOptions = true,
        description = "Write a nicsim scenario from a uet-htsim connection matrix, an optional .topo and htsim's flags"
            + " (after --, as a validation plan's !Param lines give them); approximations are printed as notes.")
    static final class ImportCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "CM", description = "connection matrix (.cm or .tm)")
        Path cm;

        @Parameters(index = "1..*", paramLabel = "FLAGS", description = "htsim's flags, after --, e.g. -- -end 1000 -sender_cc_only")
        List<String> flags = new ArrayList<>();

        @Option(names = "--topology", paramLabel = "TOPO", description = "two-tier topology file (.topo); default: -topo of"
            + " the flags, else htsim's three-tier fat tree")
        Path topology;

        @Option(names = "--to", required = true, paramLabel = "OUT.yaml", description = "scenario file to write")
        Path to;

        @Override
        public Integer call() throws Exception {
            OutputPaths.nonEmpty("--to", to);
            final HtsimImport.Result r = HtsimImport.importExperiment(cm, topology, flags, to);
            for (final Path in : r.inputs()) {
                OutputPaths.notAnInput("--to", to, in);
            }
            final Path dir = to.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            OutputPaths.setWriting(to);
            Files.writeString(to, r.yaml(), StandardCharsets.UTF_8);
            for (final String n : r.notes()) {
                System.err.println("note: " + n);
            }
            System.out.println("wrote " + to);
            return 0;
        }
    }

    /** {@code nicsim htsim compare}. */
    @Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Set a nicsim run beside one experiment of a uet-htsim validation output: tail and min FCT (us),"
            + " New, Rtx, ACKs, NACKs, Pulls, with nicsim's relative difference.")
    static final class CompareRunCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN_DIR", description = "output directory of a nicsim run (flows.csv, counters.csv)")
        Path runDir;

        @Parameters(index = "1", paramLabel = "VALIDATE_OUT", description = "htsim validation output (validate_outputs/*.out)")
        Path output;

        @Option(names = "--experiment", paramLabel = "NAME", description = "the experiment, by name or 1-based number"
            + " (default: the only one, or the only one running the run's connection matrix)")
        String experiment;

        @Override
        public Integer call() {
            final List<HtsimCompare.Experiment> all = HtsimCompare.readOutput(output);
            final HtsimCompare.Experiment e = HtsimCompare.choose(output, all, experiment,
                HtsimCompare.scenarioName(runDir));
            final HtsimLines run = HtsimCompare.runFigures(runDir);
            HtsimCompare.print(System.out, output, e, run);
            return 0;
        }
    }
}
