package dev.nicsim.cli;

import dev.nicsim.interop.ns3.Ns3Import;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code nicsim ns3 import CONFIG [--topology FILE] [--flows FILE] --to SCENARIO.yaml}: turns an
 * HPCC ns-3 simulator configuration and its topology and flow files into an ordinary nicsim
 * scenario ({@link Ns3Import}); the scenario reads the two files unchanged through
 * {@code topology.type: file} and {@code workload.type: file}.
 */
@Command(name = "ns3", mixinStandardHelpOptions = true,
    description = "Run the HPCC ns-3 simulator's experiment files: import a configuration as a scenario.",
    subcommands = {Ns3Command.ImportCommand.class})
final class Ns3Command implements Callable<Integer> {
    /**
     * Without a subcommand: the usage on standard error and exit 2, as every command group
     * (and {@code riscv}) does.
     *
     * @return {@link NicsimCommand#EXIT_BAD_INPUT}
     */
    @Override
    public Integer call() {
        CommandLine.usage(this, System.err);
        return NicsimCommand.EXIT_BAD_INPUT;
    }

    /** {@code nicsim ns3 import}. */
    @Command(name = "import", mixinStandardHelpOptions = true,
        description = "Write a nicsim scenario from an HPCC ns-3 configuration (CC_MODE 1 DCQCN, 3 HPCC, 7 TIMELY,"
            + " 8 rate-based DCTCP): every field, a comment per mapped key, the ignored keys listed.")
    static final class ImportCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "CONFIG", description = "ns-3 configuration file (KEY value lines)")
        Path config;

        @Option(names = "--topology", paramLabel = "FILE", description = "topology file (default: the config's TOPOLOGY_FILE)")
        Path topology;

        @Option(names = "--flows", paramLabel = "FILE", description = "flow file (default: the config's FLOW_FILE)")
        Path flows;

        @Option(names = "--to", required = true, paramLabel = "SCENARIO.yaml", description = "scenario file to write")
        Path to;

        @Override
        public Integer call() throws Exception {
            OutputPaths.nonEmpty("--to", to);
            final Ns3Import.Result r = Ns3Import.importConfig(config, topology, flows, to);
            for (final Path in : r.inputs()) {
                OutputPaths.notAnInput("--to", to, in);
            }
            final Path dir = to.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            OutputPaths.setWriting(to);
            Files.writeString(to, r.yaml(), StandardCharsets.UTF_8);
            System.out.println("wrote " + to);
            for (final String s : r.ignored()) {
                System.out.println("ignored " + s);
            }
            return 0;
        }
    }
}
