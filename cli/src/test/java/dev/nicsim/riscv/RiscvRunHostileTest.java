package dev.nicsim.riscv;

import dev.nicsim.cli.RiscvCommand;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.nicsim.riscv.Assembler.A0;
import static dev.nicsim.riscv.Assembler.A7;
import static dev.nicsim.riscv.Assembler.T0;
import static dev.nicsim.riscv.Assembler.ZERO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 8: {@code riscv run} on hostile input. An entry point outside the segments is
 * bad input (exit 2) found before anything runs, not a fault of the program (exit 5); an ELF whose
 * class byte and header disagree gets a message saying so; {@code --ram-bytes} outside 4 KiB .. 1
 * GiB, or more than fits, names the allowed range; a program that never ends stops at the
 * documented default cap with exit 5 and a line saying it was the default (checked at a test limit of
 * 10^6 given through the same entry, so it takes milliseconds, not 8 s). Model files:
 * {@link ModelRangesTest}.
 */
class RiscvRunHostileTest {
    private static RiscvCommandTest.Result run(final String... args) {
        return RiscvCommandTest.run(args);
    }

    @Test
    void anEntryOutsideTheSegmentsIsBadInputBeforeAnythingRuns(@TempDir final Path dir) throws Exception {
        final byte[] code = new Assembler(RiscvCommandTest.BASE).label("_start").addi(A0, ZERO, 0).assemble();
        final Path f = dir.resolve("entry.elf");
        Files.write(f, new ElfBuilder(32).entry(0x7000000).segment(RiscvCommandTest.BASE, code, code.length).build());
        final RiscvCommandTest.Result r = run("run", f.toString());
        assertEquals(2, r.code(), r.err());
        // one line, no summary: nothing ran
        assertEquals("nicsim riscv: " + f + ": entry point e_entry 0x7000000 lies outside every loadable segment"
            + " ([0x10000, 0x10004))\n", r.err());
        // the first byte after the segment is outside too
        Files.write(f, new ElfBuilder(64).entry(RiscvCommandTest.BASE + 4).segment(RiscvCommandTest.BASE, code, code.length).build());
        assertEquals(2, run("run", f.toString()).code());
    }

    @Test
    void aWrongClassElfIsNamedSo(@TempDir final Path dir) throws Exception {
        final Path f64 = RiscvCommandTest.hello(dir, 64);
        final byte[] b = Files.readAllBytes(f64);
        b[4] = 1; // EI_CLASS ELF32 on an ELF64 file
        final Path as32 = Files.write(dir.resolve("as32.elf"), b);
        RiscvCommandTest.Result r = run("run", as32.toString());
        assertEquals(2, r.code());
        assertEquals("nicsim riscv: " + as32 + ": wrong ELF class: EI_CLASS 1 says ELF32, but the header is an ELF64 header"
            + " (e_ehsize 64 at offset 52)\n", r.err());
        final byte[] c = Files.readAllBytes(RiscvCommandTest.hello(dir, 32));
        c[4] = 2; // EI_CLASS ELF64 on an ELF32 file
        final Path as64 = Files.write(dir.resolve("as64.elf"), c);
        r = run("run", as64.toString());
        assertEquals(2, r.code());
        assertEquals("nicsim riscv: " + as64 + ": wrong ELF class: EI_CLASS 2 says ELF64, but the header is an ELF32 header"
            + " (e_ehsize 52 at offset 40)\n", r.err());
        // neither class's header size: a corrupt header, said as such
        final byte[] d = Files.readAllBytes(f64);
        d[52] = 7;
        final Path odd = Files.write(dir.resolve("odd.elf"), d);
        assertEquals("nicsim riscv: " + odd + ": e_ehsize 7 is not the ELF64 header size 64 (EI_CLASS 2): a wrong class byte"
            + " or a corrupt header\n", run("run", odd.toString()).err());
    }

    @Test
    void ramBytesOutsideTheRangeGetTheRange(@TempDir final Path dir) throws Exception {
        final Path f = RiscvCommandTest.hello(dir, 64);
        for (final String v : new String[] {"0", "4095", "1073741825", "-1"}) {
            final RiscvCommandTest.Result r = run("run", f.toString(), "--ram-bytes", v);
            assertEquals(2, r.code(), v);
            assertEquals("nicsim riscv: --ram-bytes: expected 4096 to 1073741824 bytes (4 KiB to 1 GiB), got " + v + "\n", r.err());
        }
        assertEquals(7, run("run", f.toString(), "--ram-bytes", "4096").code());
        assertEquals(7, run("run", f.toString(), "--ram-bytes", "1073741824").code());
        // RV32 image near the top of the address space: 0xfff00000 + one page leaves 0xff000 bytes
        final byte[] code = new Assembler(0xfff00000L).label("_start").addi(A0, ZERO, 0).assemble();
        final Path high = dir.resolve("high.elf");
        Files.write(high, new ElfBuilder(32).entry(0xfff00000L).segment(0xfff00000L, code, code.length).build());
        final RiscvCommandTest.Result r = run("run", high.toString(), "--ram-bytes", "1073741824");
        assertEquals(2, r.code());
        assertEquals("nicsim riscv: " + high + ": no room for 1073741824 bytes of RAM after the image at 0xfff01000; at most"
            + " 1044480 bytes fit below the end of the RV32 address space\n", r.err());
    }

    /**
     * The default-limit path, run with a limit of 10^6 given through the in-process entry the CLI uses
     * ({@link RiscvCommand#run(String[], java.io.PrintStream, java.io.PrintStream, long)}), so it costs
     * milliseconds instead of the 8 s of the real default (which every PIT mutant this test covers used
     * to pay). The real default's value, its use by the public entry and its help text are checked
     * without running 10^9 instructions.
     */
    @Test
    void aProgramThatNeverEndsStopsAtTheDefaultCap(@TempDir final Path dir) throws Exception {
        final Path g = dir.resolve("forever.elf");
        final Assembler b = new Assembler(RiscvCommandTest.BASE).label("_start").label("loop").jal(ZERO, "loop");
        Files.write(g, new ElfBuilder(64).entry(RiscvCommandTest.BASE).segment(RiscvCommandTest.BASE, b.assemble(), 4)
            .symbol("_start", RiscvCommandTest.BASE).build());
        RiscvCommandTest.Result r = runWithDefault(1_000_000L, "run", g.toString(), "--model", "ibex");
        assertEquals(RiscvCommand.EXIT_FAULT, r.code());
        // ibex: a taken jump is 2 cycles (1 stall, Ibex "Pipeline Details"; CycleModel.IBEX)
        assertTrue(r.err().startsWith("nicsim riscv: model ibex: 1000000 instructions retired, 2000000 cycles, CPI 2.000\n"
            + "nicsim riscv: stall cycles: control 1000000 (total 1000000)\n"), r.err());
        assertTrue(r.err().endsWith("nicsim riscv: " + g + ": instruction limit 1000000 reached at pc 0x0000000000010000"
            + " (_start): insn 0x0000006f (the default limit: the program did not end within it; give --max-instructions N"
            + " to let it run longer)\n"), r.err());
        // --max-instructions replaces the default, and the line then does not call it the default
        r = runWithDefault(1_000_000L, "run", g.toString(), "--model", "ibex", "--max-instructions", "1000");
        assertEquals(RiscvCommand.EXIT_FAULT, r.code());
        assertTrue(r.err().startsWith("nicsim riscv: model ibex: 1000 instructions retired"), r.err());
        assertTrue(r.err().endsWith("nicsim riscv: " + g + ": instruction limit 1000 reached at pc 0x0000000000010000"
            + " (_start): insn 0x0000006f\n"), r.err());
        // the smallest test limit, 1, stops after one jal; 0 is refused; so is --max-instructions 0
        r = runWithDefault(1L, "run", g.toString(), "--model", "ibex");
        assertEquals(RiscvCommand.EXIT_FAULT, r.code());
        assertTrue(r.err().startsWith("nicsim riscv: model ibex: 1 instructions retired, 2 cycles, CPI 2.000\n"), r.err());
        assertThrows(IllegalArgumentException.class, () -> runWithDefault(0, "run", g.toString()));
        r = runWithDefault(1_000_000L, "run", g.toString(), "--max-instructions", "0");
        assertEquals(RiscvCommand.EXIT_BAD_INPUT, r.code());
        assertEquals("nicsim riscv: --max-instructions: not a positive number: '0'\n", r.err());

        // the real default: 10^9, stated in the help; the public entry (the nicsim CLI's) runs a program of
        // 3,000,005 instructions (3 x the test limit) to its end without --max-instructions:
        // li t0 = lui + addi, 1.5 M x (addi, bne), then li a0, li a7, ecall exit(3)
        assertEquals(1_000_000_000L, RiscvCommand.DEFAULT_MAX_INSTRUCTIONS);
        assertTrue(run("run", "--help").out().replaceAll("\\s+", " ").contains("(default 1000000000, about 8 s)"));
        final Assembler c = new Assembler(RiscvCommandTest.BASE).label("_start").li(T0, 1_500_000)
            .label("loop").addi(T0, T0, -1).bne(T0, ZERO, "loop").addi(A0, ZERO, 3).addi(A7, ZERO, 93).ecall();
        final byte[] code = c.assemble();
        final Path counted = dir.resolve("counted.elf");
        Files.write(counted, new ElfBuilder(64).entry(RiscvCommandTest.BASE).segment(RiscvCommandTest.BASE, code, code.length)
            .symbol("_start", RiscvCommandTest.BASE).build());
        r = run("run", counted.toString(), "--model", "ibex");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().startsWith("nicsim riscv: model ibex: 3000005 instructions retired"), r.err());
    }

    /** {@code riscv} without its subcommand, and {@code run} without its ELF: bad input, with the usage. */
    @Test
    void noSubcommandOrNoElfIsBadInputWithTheUsage() {
        RiscvCommandTest.Result r = run();
        assertEquals(RiscvCommand.EXIT_BAD_INPUT, r.code());
        assertTrue(r.err().startsWith("nicsim riscv: missing subcommand 'run'\nUsage: riscv"), r.err());
        r = run("run");
        assertEquals(RiscvCommand.EXIT_BAD_INPUT, r.code());
        assertTrue(r.err().endsWith("\nusage: nicsim riscv run --help\n"), r.err());
    }

    private static RiscvCommandTest.Result runWithDefault(final long defaultMax, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = RiscvCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), defaultMax);
        return new RiscvCommandTest.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
