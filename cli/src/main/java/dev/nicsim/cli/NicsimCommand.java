package dev.nicsim.cli;

import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.traces.CaptureException;
import dev.nicsim.traces.replay.ChronicleSetup;
import dev.nicsim.traces.replay.TraceException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The {@code nicsim} command line: {@code run} (simulate a scenario, optionally recording a trace
 * and a pcap), {@code trace} ({@code import} a capture into a trace, {@code dump} a trace),
 * {@code replay} (run a trace or capture through an algorithm), {@code plot} (the four figures of a
 * run directory), {@code algorithms} (list the
 * algorithms on the class path with their parameters), {@code ns3 import} (an HPCC ns-3
 * configuration as a scenario), {@code compare} (a run's {@code fct.txt} against a reference one)
 * and {@code riscv run} (a RISC-V executable on the riscv-core hart).
 *
 * <p>Exit codes: 0 success, 2 bad input (scenario, flow-size file, option, capture, trace, ns-3
 * file, fct file, ELF or cycle model), 3 {@code replay --verify} found a difference, 1 internal
 * error, 6 out of memory (one line saying how to give the JVM more heap); {@code riscv run} exits with the program's status, or 5 for a fault the program does not
 * handle. Bad input is reported as one line on standard error, never as a stack trace.
 *
 * <p>Thread-safety: picocli runs one command on the calling thread.
 */
@Command(name = "nicsim", mixinStandardHelpOptions = true, version = "nicsim 0.1.0",
    description = "Behavioural model of RoCEv2 NICs and switch ASICs with programmable congestion control.",
    subcommands = {RunCommand.class, TraceCommand.class, ReplayCommand.class, NicsimCommand.AlgorithmsCommand.class,
        Ns3Command.class, CompareCommand.class, HtsimCommand.class, RiscvCommand.class, FirmwareCommand.class,
        PlotCommand.class})
public final class NicsimCommand implements Callable<Integer> {

    /** Exit code for bad input. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an internal error. */
    public static final int EXIT_INTERNAL = 1;
    /** Exit code of {@code replay --verify} when the replayed results differ from the recorded ones. */
    public static final int EXIT_VERIFY_FAILED = 3;
    /** Exit code when the JVM ran out of heap (a one-line message says how to give more). */
    public static final int EXIT_OUT_OF_MEMORY = 6;

    /** Creates the command (picocli instantiates it). */
    public NicsimCommand() {
    }

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

    /**
     * Entry point.
     *
     * @param args command-line arguments
     */
    public static void main(final String[] args) {
        guardStandardOutput();
        System.exit(execute(args));
    }

    /**
     * Replaces {@code System.out} by one that ends quietly when its reader closes the pipe
     * ({@code nicsim algorithms | head -1} exits 0 with nothing on standard error; every command,
     * see {@link StandardOutput} for why 0 and not 141). Entry points call it once before
     * {@link #execute}; other write errors on standard output still give exit 2.
     */
    public static void guardStandardOutput() {
        StandardOutput.install();
    }

    /**
     * Runs the command line and returns its exit code (for tests).
     *
     * @param args arguments
     * @return exit code
     */
    public static int execute(final String... args) {
        return execute(new NicsimCommand(), ex -> false, args);
    }

    /**
     * Runs a picocli command line with nicsim's error handling: bad input (scenario, trace,
     * capture, firmware, I/O, or any exception {@code alsoBadInput} accepts) is one line on standard
     * error and exit {@link #EXIT_BAD_INPUT}; an option error is that line and a usage hint, exit
     * {@link #EXIT_BAD_INPUT}; anything else is one line and exit {@link #EXIT_INTERNAL} (with the
     * stack trace only under {@code -Dnicsim.debug=true}). The sweep jar's command line uses it too.
     *
     * @param root         the annotated root command object
     * @param alsoBadInput further exceptions reported as bad input
     * @param args         arguments
     * @return exit code
     */
    public static int execute(final Object root, final Predicate<Exception> alsoBadInput,
                              final String... args) {
        // before any command can load a Chronicle class (some do from their class initialisers)
        ChronicleSetup.init();
        final CommandLine cl = new CommandLine(root);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof ScenarioException || ex instanceof TraceException || ex instanceof CaptureException
                || ex instanceof OptionException
                || ex instanceof FirmwareException || alsoBadInput.test(ex)) {
                System.err.println("nicsim: " + ex.getMessage());
                return EXIT_BAD_INPUT;
            }
            if (ex instanceof java.io.UncheckedIOException u) {
                System.err.println("nicsim: " + IoErrors.describe(u.getCause()));
                return EXIT_BAD_INPUT;
            }
            if (ex instanceof java.io.IOException io) {
                System.err.println("nicsim: " + IoErrors.describe(io));
                return EXIT_BAD_INPUT;
            }
            System.err.println("nicsim: internal error: " + ex + " (please report it with the input files)");
            if (Boolean.getBoolean("nicsim.debug")) {
                ex.printStackTrace();
            }
            return EXIT_INTERNAL;
        });
        cl.setParameterExceptionHandler((ex, a) -> {
            System.err.println("nicsim: " + ex.getMessage());
            System.err.println("usage: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help");
            return EXIT_BAD_INPUT;
        });
        final int code;
        OutputPaths.setWriting();
        try {
            code = cl.execute(args);
        } catch (final OutOfMemoryError e) {
            return outOfMemory();
        } catch (final InternalError e) { // the JVM's report of a fault on a mapped file (Chronicle's trace files)
            final List<java.nio.file.Path> w = OutputPaths.writing();
            System.err.println("nicsim: I/O error" + (w.isEmpty() ? "" : " while writing " + w.stream().map(Object::toString)
                .collect(Collectors.joining(", "))) + ": a read or write through a mapped file faulted"
                + " (no space left on the device, or a file cut while in use)");
            return EXIT_BAD_INPUT;
        }
        return checkStandardOutput(code);
    }

    /**
     * Turns a lost standard output into an error: {@code System.out} is a
     * {@link java.io.PrintStream}, which swallows write errors, so without this check {@code trace dump > /dev/full} or a
     * dump into a full disk would exit 0 with the text lost. Flushes standard output and checks its
     * error flag; the stream does not keep the cause, so the line names the usual ones.
     *
     * @param code the command's exit code
     * @return code, or {@link #EXIT_BAD_INPUT} when the command succeeded but its standard output was lost
     */
    static int checkStandardOutput(final int code) {
        if (System.out.checkError()) { // checkError flushes first
            System.err.println("nicsim: I/O error: standard output: a write failed (no space left on the device, or the"
                + " reader closed it): the output is incomplete");
            return code == 0 ? EXIT_BAD_INPUT : code;
        }
        return code;
    }

    /**
     * Reports an exhausted heap in one line (no stack trace): the heap the run had and how to give
     * more. Called after the error unwound the command, so its garbage can be collected.
     *
     * @return {@link #EXIT_OUT_OF_MEMORY}
     */
    static int outOfMemory() {
        final long maxMiB = Runtime.getRuntime().maxMemory() >> 20;
        System.err.println("nicsim: out of memory: the command needed more than the " + maxMiB + " MiB heap this JVM may"
            + " use; give it more, e.g. NICSIM_JAVA_OPTS=-Xmx" + Math.max(1, 4 * maxMiB >> 10) + "g, or make the run"
            + " smaller (fewer flows or hosts)");
        return EXIT_OUT_OF_MEMORY;
    }

    /** {@code nicsim algorithms}: lists algorithms and their parameters. */
    @Command(name = "algorithms", mixinStandardHelpOptions = true,
        description = "List the congestion-control algorithms on the class path and their parameters.")
    static final class AlgorithmsCommand implements Runnable {
        @Override
        public void run() {
            for (final PccAlgorithmProvider p : PccAlgorithms.all()) {
                System.out.printf(Locale.ROOT, "%s: %s%n", p.name(), p.description());
                for (final PccParameter q : p.parameters()) {
                    System.out.printf(Locale.ROOT, "  %-28s default %-12s range [%s, %s] %s - %s%n", q.name(),
                        num(q.defaultValue()), num(q.min()), num(q.max()), q.unit(), q.description());
                }
            }
        }

        private static String num(final double v) {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
        }
    }
}
