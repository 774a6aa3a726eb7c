package dev.nicsim.cli;

import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.Machine;
import dev.nicsim.riscv.RiscvRun;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nicsim riscv run ELF [--model e31|ibex|FILE] [--max-instructions N] [--trace FILE]
 * [--ram-bytes N]}: runs a RISC-V executable on one hart with a cycle model. A picocli command
 * ({@code riscv}, with the subcommand {@code run}) that the {@code nicsim} command line lists
 * among its subcommands; {@link #run(String[], PrintStream, PrintStream)} runs it in process.
 *
 * <p>The program's standard output and error go to {@code out} and {@code err}; the summary
 * (instructions retired, cycles, CPI, stall cycles by cause) goes to {@code err}. {@code --trace}
 * writes one line per instruction, like Spike's commit log:
 * {@code cycle pc (symbol+off) (insn) disassembly [xN value]}; a trap entry adds a line
 * {@code trap <cause> ...}.
 *
 * <p>Exit status: the program's ({@code exit}/{@code exit_group} status 0-255, or the riscv-tests
 * {@code tohost} value {@code >> 1}); {@link #EXIT_BAD_INPUT} for bad input (file, ELF, option,
 * model), one line naming the file or option and what is wrong; {@link #EXIT_FAULT} for an
 * exception the program does not handle or the instruction limit, one line with pc, symbol and
 * instruction word (without {@code --max-instructions} the limit is
 * {@link #DEFAULT_MAX_INSTRUCTIONS}, and the line says it was the default). Never a stack trace. {@code --help}: usage on {@code out}, status 0.
 *
 * <p>Thread-safety: {@link #run} is reentrant (no shared state); an instance runs once.
 */
@Command(name = "riscv", mixinStandardHelpOptions = true, subcommands = RiscvCommand.Run.class,
    description = "Run a RISC-V executable on the riscv-core hart: riscv run ELF [--model e31|ibex|FILE.yaml]"
        + " [--max-instructions N] [--trace FILE] [--ram-bytes N]")
public final class RiscvCommand implements Callable<Integer> {
    /** Exit status for bad input. */
    public static final int EXIT_BAD_INPUT = RiscvRun.EXIT_BAD_INPUT;
    /** Exit status for an unhandled fault or the instruction limit. */
    public static final int EXIT_FAULT = RiscvRun.EXIT_FAULT;
    /**
     * Default {@code --max-instructions}: 10^9 instructions, seconds of one core for the
     * interpreter (docs/performance.md, "RISC-V core", has the measured rate).
     * A program that runs longer needs the option; one that never ends stops there with
     * {@link #EXIT_FAULT} and a line saying the default limit was reached.
     */
    public static final long DEFAULT_MAX_INSTRUCTIONS = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    /** Creates the command (picocli instantiates it). */
    public RiscvCommand() {
    }

    /** {@code riscv} without a subcommand: the usage on standard error, bad input. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("nicsim riscv: missing subcommand 'run'");
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_BAD_INPUT;
    }

    /**
     * Runs the command in process (tests, the conformance and differential suites).
     *
     * @param args what follows {@code riscv} on the command line, e.g. {@code {"run", "x.elf", "--model", "ibex"}}
     * @param out  receives the program's standard output (and {@code --help})
     * @param err  receives the program's standard error, the summary and error lines
     * @return exit status (see the class comment)
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        return run(args, out, err, DEFAULT_MAX_INSTRUCTIONS);
    }

    /**
     * {@link #run(String[], PrintStream, PrintStream)} with another instruction limit for a run without
     * {@code --max-instructions}, everything else the same (the message still says it was the default
     * limit, naming this value). For tests of the default-limit path: at 1,000,000 such a run takes
     * milliseconds where the real default, {@link #DEFAULT_MAX_INSTRUCTIONS}, takes about 8 s (and every
     * PIT mutant the test covers would pay it).
     *
     * @param defaultMaxInstructions the limit when {@code --max-instructions} is not given, {@code >= 1}
     * @throws IllegalArgumentException if {@code defaultMaxInstructions < 1}
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err, final long defaultMaxInstructions) {
        if (defaultMaxInstructions < 1) {
            throw new IllegalArgumentException("default instruction limit must be >= 1, got " + defaultMaxInstructions);
        }
        final CommandLine cl = new CommandLine(new RiscvCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(final Class<K> c) throws Exception {
                return c == Run.class ? c.cast(new Run(out, err, defaultMaxInstructions)) : CommandLine.defaultFactory().create(c);
            }
        });
        final PrintWriter o = new PrintWriter(out, true);
        final PrintWriter e = new PrintWriter(err, true);
        cl.setOut(o);
        cl.setErr(e);
        cl.setParameterExceptionHandler((ex, a) -> {
            e.println("nicsim riscv: " + ex.getMessage());
            e.println("usage: nicsim " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help");
            return EXIT_BAD_INPUT;
        });
        final int code = cl.execute(args);
        o.flush();
        e.flush();
        return code;
    }

    /** {@code riscv run}: the options and the run itself. */
    @Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a RISC-V ELF executable (RV32/RV64 IMAC, machine mode, Linux-style exit/write system calls,"
            + " riscv-tests tohost) with a cycle model; exit status: the program's, 2 bad input, 5 unhandled fault or"
            + " instruction limit.")
    public static final class Run implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ELF", description = "the executable")
        String elf;

        @Option(names = "--model", paramLabel = "e31|ibex|FILE", defaultValue = "e31",
            description = "cycle model: e31, ibex, or a YAML model file (default ${DEFAULT-VALUE})")
        String model;

        @Option(names = "--max-instructions", paramLabel = "N",
            description = "stop (exit 5) after N instructions (default 1000000000, about 8 s)")
        Long max;

        @Option(names = "--trace", paramLabel = "FILE", description = "write one line per instruction to FILE")
        String trace;

        @Option(names = "--engine", paramLabel = "interp|translate", defaultValue = "interp",
            description = "execution engine: the interpreter, or blocks translated to JVM bytecode (same cycles and"
                + " output; default ${DEFAULT-VALUE})")
        String engine;

        @Option(names = "--ram-bytes", paramLabel = "N",
            description = "RAM above the program's image, bytes, 4096 to 1073741824 (default 4 MiB)")
        long ram = Machine.DEFAULT_RAM_BYTES;

        private final PrintStream out;
        private final PrintStream err;
        private final long defaultMax;

        /** Creates the subcommand writing to the process's standard streams (picocli instantiates it). */
        public Run() {
            this(System.out, System.err, DEFAULT_MAX_INSTRUCTIONS);
        }

        Run(final PrintStream out, final PrintStream err, final long defaultMax) {
            this.out = out;
            this.err = err;
            this.defaultMax = defaultMax;
        }

        /** @return the exit status (see {@link RiscvCommand}) */
        @Override
        public Integer call() {
            if (max != null && max <= 0) {
                err.println("nicsim riscv: --max-instructions: not a positive number: '" + max + "'");
                return EXIT_BAD_INPUT;
            }
            if (ram < Machine.MIN_RAM_BYTES || ram > Machine.MAX_RAM_BYTES) {
                err.println("nicsim riscv: --ram-bytes: expected " + Machine.MIN_RAM_BYTES + " to " + Machine.MAX_RAM_BYTES
                    + " bytes (4 KiB to 1 GiB), got " + ram);
                return EXIT_BAD_INPUT;
            }
            final Hart.Engine e;
            try {
                e = Hart.Engine.parse(engine);
            } catch (final IllegalArgumentException ex) {
                err.println("nicsim riscv: --" + ex.getMessage());
                return EXIT_BAD_INPUT;
            }
            return RiscvRun.execute(elf, model, max == null ? defaultMax : max, max == null, trace, ram, e, out, err);
        }
    }
}
