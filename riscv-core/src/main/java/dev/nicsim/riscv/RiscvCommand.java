package dev.nicsim.riscv;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status for an unhandled fault or the instruction limit. */
    public static final int EXIT_FAULT = 5;
    /**
     * Default {@code --max-instructions}: 10^9 instructions, about 8 s of one core on the
     * reference machine (2-core AMD EPYC VM, e31, a tight loop: 1.0e9 in 8.7 s of CPU, 2026-11-27).
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
    static int run(final String[] args, final PrintStream out, final PrintStream err, final long defaultMaxInstructions) {
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
            return execute(elf, model, max == null ? defaultMax : max, max == null, trace, ram, e, out, err);
        }
    }

    private static int execute(final String elf, final String model, final long max, final boolean defaultMax,
                               final String trace, final long ram, final Hart.Engine engine, final PrintStream out,
                               final PrintStream err) {
        final CycleModel cm;
        final Machine m;
        try {
            cm = CycleModel.byName(model);
            m = new Machine(ElfLoader.load(Path.of(elf)), cm, ram, out, err);
        } catch (final ElfFormatException | IllegalArgumentException e) {
            err.println("nicsim riscv: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        final Hart h = m.hart();
        h.setEngine(engine);
        if (trace != null) {
            try (Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(Path.of(trace)), StandardCharsets.UTF_8), 1 << 16)) {
                runTraced(m, max, w);
            } catch (final IOException | UncheckedIOException e) {
                err.println("nicsim riscv: " + trace + ": cannot write trace: " + IoReasons.why(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e));
                return EXIT_BAD_INPUT;
            }
        } else {
            // slices of 1 Mi instructions: the JIT compiles run() as a whole method, not only on-stack
            while (!h.halted() && h.instret() < max) {
                h.run(Math.min(max, h.instret() + (1 << 20)));
            }
        }
        summary(m, cm, engine, err);
        if (m.environmentError() != null) {
            err.println("nicsim riscv: " + elf + ": " + m.environmentError());
            return EXIT_FAULT;
        }
        switch (h.haltReason()) {
            case EXIT:
                return h.exitCode();
            case FAULT:
                err.println("nicsim riscv: " + elf + ": " + m.faultLine());
                return EXIT_FAULT;
            default: {
                final long pc = h.pc();
                final long w = m.instructionWord(pc);
                err.println(String.format(Locale.ROOT, "nicsim riscv: %s: instruction limit %d reached at pc %s (%s): insn %s%s", elf,
                    max, m.hex(pc), m.describe(pc), w < 0 ? "unmapped" : String.format(Locale.ROOT, "0x%08x", w),
                    defaultMax ? " (the default limit: the program did not end within it; give --max-instructions N to"
                        + " let it run longer)" : ""));
                return EXIT_FAULT;
            }
        }
    }

    private static void runTraced(final Machine m, final long max, final Writer w) throws IOException {
        final Hart h = m.hart();
        h.setStopAfterTrap(true);
        final StringBuilder b = new StringBuilder(160);
        while (!h.halted() && h.instret() < max) {
            final long pc = h.pc();
            final long word = m.instructionWord(pc);
            final long d = word < 0 ? 0 : Isa.decode((int) word, h.xlen());
            final long issue = word < 0 ? h.cycles() : h.issueCycle(d);
            final long before = h.instret();
            h.run(before + 1);
            final boolean trapped = h.takeTrapped();
            b.setLength(0);
            if (h.instret() > before || (!trapped && h.halted())) {
                b.append(String.format(Locale.ROOT, "%10d %s (%s) ", issue, m.hex(pc), m.describe(pc)));
                b.append(word <= 0xffff && Isa.isCompressed((int) word) ? String.format(Locale.ROOT, "(0x%04x)", word)
                    : String.format(Locale.ROOT, "(0x%08x)", word));
                b.append(' ').append(Isa.disassemble((int) word, h.xlen(), pc));
                final int rd = ((int) d >>> 8) & 63;
                if (rd != Isa.SINK && (d & 0xff) != Isa.ILLEGAL) {
                    b.append(String.format(Locale.ROOT, "  x%-2d %s", rd, m.hex(h.reg(rd))));
                }
                b.append('\n');
            }
            if (trapped && h.fault() != null) {
                b.append(String.format(Locale.ROOT, "%10d %s (%s) fatal: %s%n", issue, m.hex(pc), m.describe(pc), h.fault().causeName()));
            } else if (trapped) {
                b.append(String.format(Locale.ROOT, "%10d %s (%s) trap cause %d mtval %s -> %s%n", issue, m.hex(pc), m.describe(pc),
                    h.mcause(), m.hex(h.mtval()), m.hex(h.pc())));
            }
            w.write(b.toString());
        }
        h.setStopAfterTrap(false);
    }

    private static void summary(final Machine m, final CycleModel cm, final Hart.Engine engine, final PrintStream err) {
        final Hart h = m.hart();
        final long n = h.instret();
        final long c = h.cycles();
        err.println(String.format(Locale.ROOT, "nicsim riscv: model %s: %d instructions retired, %d cycles, CPI %.3f", cm.name(), n, c,
            n == 0 ? 0.0 : (double) c / n));
        final StringBuilder b = new StringBuilder("nicsim riscv: stall cycles:");
        long total = 0;
        for (final TimingClass tc : TimingClass.values()) {
            final long s = h.stallCycles(tc);
            if (s != 0) {
                b.append(' ').append(tc.name().toLowerCase(Locale.ROOT)).append(' ').append(s).append(',');
                total += s;
            }
        }
        b.append(" control ").append(h.controlPenaltyCycles());
        total += h.controlPenaltyCycles();
        if (h.fetchStallCycles() != 0) {
            b.append(", l1i-miss ").append(h.fetchStallCycles());
            total += h.fetchStallCycles();
        }
        b.append(" (total ").append(total).append(')');
        err.println(b);
        if (engine == Hart.Engine.TRANSLATE) {
            err.println(String.format(Locale.ROOT, "nicsim riscv: engine translate: %d of %d instructions (%.1f %%) ran in translated blocks",
                h.translatedInstructions(), n, n == 0 ? 0.0 : 100.0 * h.translatedInstructions() / n));
        }
    }
}
