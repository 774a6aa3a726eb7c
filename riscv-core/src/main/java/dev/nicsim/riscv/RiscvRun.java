package dev.nicsim.riscv;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs a RISC-V executable on one hart with a cycle model, as {@code nicsim riscv run} does (the command
 * line parses the options and calls {@link #execute}). The program's standard output and error go to
 * {@code out} and {@code err}; the summary (instructions retired, cycles, CPI, stall cycles by cause)
 * goes to {@code err}. A trace file gets one line per instruction, like Spike's commit log:
 * {@code cycle pc (symbol+off) (insn) disassembly [xN value]}; a trap entry adds a line
 * {@code trap <cause> ...}.
 *
 * <p>Exit status: the program's ({@code exit}/{@code exit_group} status 0-255, or the riscv-tests
 * {@code tohost} value {@code >> 1}); {@link #EXIT_BAD_INPUT} for bad input (file, ELF, model), one line
 * naming the file and what is wrong; {@link #EXIT_FAULT} for an exception the program does not handle or
 * the instruction limit, one line with pc, symbol and instruction word. Never a stack trace.
 *
 * <p>Thread-safety: {@link #execute} is reentrant (no shared state).
 */
public final class RiscvRun {
    /** Exit status for bad input. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status for an unhandled fault or the instruction limit. */
    public static final int EXIT_FAULT = 5;

    private RiscvRun() {
    }

    /**
     * Loads and runs an executable.
     *
     * @param elf        the executable's path
     * @param model      cycle model: {@code e31}, {@code ibex}, or a YAML model file ({@link CycleModel#byName})
     * @param max        instruction limit, {@code >= 1}
     * @param defaultMax whether {@code max} is the command's default (the limit line then says so)
     * @param trace      trace file path, or null for none
     * @param ram        RAM above the program's image, bytes ({@link Machine#MIN_RAM_BYTES} .. {@link Machine#MAX_RAM_BYTES})
     * @param engine     the interpreter or the block translator
     * @param out        the program's standard output
     * @param err        the program's standard error, the summary and error lines
     * @return the exit status
     */
    public static int execute(final String elf, final String model, final long max, final boolean defaultMax,
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
