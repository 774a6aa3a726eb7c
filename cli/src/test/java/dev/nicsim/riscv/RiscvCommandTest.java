package dev.nicsim.riscv;

import dev.nicsim.cli.RiscvCommand;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code nicsim riscv run}: output, exit status, summary, trace, faults, limits, models. */
class RiscvCommandTest {
    static final long BASE = 0x10000;

    record Result(int code, String out, String err) {
    }

    static Result run(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = RiscvCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** write(1, "hi\n", 3); exit(7) with the message after the code. */
    static Path hello(final Path dir, final int xlen) throws Exception {
        final Assembler a = new Assembler(BASE);
        a.label("_start").addi(A0, ZERO, 1).lui(A1, (int) (BASE >> 12)).addi(A1, A1, 9 * 4).addi(A2, ZERO, 3).addi(A7, ZERO, 64).ecall()
            .addi(A0, ZERO, 7).addi(A7, ZERO, 93).ecall();
        final byte[] code = a.assemble();
        final byte[] img = java.util.Arrays.copyOf(code, code.length + 4);
        img[code.length] = 'h';
        img[code.length + 1] = 'i';
        img[code.length + 2] = '\n';
        final Path f = dir.resolve("hello" + xlen + ".elf");
        Files.write(f, new ElfBuilder(xlen).entry(BASE).segment(BASE, img, img.length).symbol("_start", BASE).build());
        return f;
    }

    @Test
    void programOutputAndExitStatus(@TempDir final Path dir) throws Exception {
        for (final int xlen : new int[] {32, 64}) {
            final Result r = run("run", hello(dir, xlen).toString(), "--model", "ibex");
            assertEquals(7, r.code());
            assertEquals("hi\n", r.out());
            // 9 instructions, ibex: each 1 cycle, no stalls except... none (no loads, branches, jumps)
            assertTrue(r.err().startsWith("nicsim riscv: model ibex: 9 instructions retired, 9 cycles, CPI 1.000\n"), r.err());
            assertTrue(r.err().contains("stall cycles: control 0 (total 0)"), r.err());
        }
    }

    /** --engine translate: the same summary as the interpreter, plus the translated share; a bad name is exit 2. */
    @Test
    void engineOption(@TempDir final Path dir) throws Exception {
        final Path g = dir.resolve("loop.elf");
        final Assembler b = new Assembler(BASE).label("_start").label("loop").addi(A0, A0, 1).jal(ZERO, "loop");
        Files.write(g, new ElfBuilder(64).entry(BASE).segment(BASE, b.assemble(), 8).symbol("_start", BASE).build());
        final Result interp = run("run", g.toString(), "--max-instructions", "100000", "--engine", "interp");
        final Result translate = run("run", g.toString(), "--max-instructions", "100000", "--engine", "translate");
        assertEquals(5, interp.code());
        assertEquals(5, translate.code());
        final String[] a = interp.err().split("\n");
        final String[] t = translate.err().split("\n");
        assertEquals(a[0], t[0]); // instructions, cycles
        assertEquals(a[1], t[1]); // stall cycles
        assertTrue(t[2].matches("nicsim riscv: engine translate: \\d+ of 100000 instructions \\(9\\d\\.\\d %\\) ran in translated blocks"), t[2]);
        final Result bad = run("run", g.toString(), "--engine", "jit");
        assertEquals(2, bad.code());
        assertEquals("nicsim riscv: --engine: expected interp or translate, got 'jit'\n", bad.err());
    }

    @Test
    void traceHasOneLinePerInstruction(@TempDir final Path dir) throws Exception {
        final Path trace = dir.resolve("t.log");
        final Result r = run("run", hello(dir, 64).toString(), "--trace", trace.toString());
        assertEquals(7, r.code());
        final List<String> lines = Files.readAllLines(trace);
        assertEquals(9, lines.size());
        assertEquals("         0 0x0000000000010000 (_start) (0x00100513) addi a0, zero, 1  x10 0x0000000000000001", lines.get(0));
        assertTrue(lines.get(8).contains("(_start+0x20) (0x00000073) ecall"), lines.get(8));
    }

    @Test
    void unhandledFaultAndInstructionLimitExit5WithOneLine(@TempDir final Path dir) throws Exception {
        final Assembler a = new Assembler(BASE).label("_start").addi(A0, ZERO, 1).word(0).label("loop").jal(ZERO, "loop");
        final Path f = dir.resolve("bad.elf");
        Files.write(f, new ElfBuilder(32).entry(BASE).segment(BASE, a.assemble(), 12).symbol("_start", BASE).build());
        Result r = run("run", f.toString());
        assertEquals(5, r.code());
        assertTrue(r.err().endsWith("nicsim riscv: " + f + ": illegal instruction at pc 0x00010004 (_start+0x4): insn 0x0000 (unknown)\n"), r.err());
        final Path g = dir.resolve("loop.elf");
        final Assembler b = new Assembler(BASE).label("_start").label("loop").jal(ZERO, "loop");
        Files.write(g, new ElfBuilder(64).entry(BASE).segment(BASE, b.assemble(), 4).symbol("_start", BASE).build());
        r = run("run", g.toString(), "--max-instructions", "1000");
        assertEquals(5, r.code());
        assertTrue(r.err().endsWith("instruction limit 1000 reached at pc 0x0000000000010000 (_start): insn 0x0000006f\n"), r.err());
    }

    @Test
    void customModelFromYaml(@TempDir final Path dir) throws Exception {
        final Path y = dir.resolve("m.yaml");
        Files.writeString(y, "name: slowalu\nsource: test\nissue: {alu: 2}\n");
        final Result r = run("run", hello(dir, 64).toString(), "--model", y.toString());
        assertEquals(7, r.code());
        // 7 ALU ops x 2 + 2 ecalls x 1 = 16 cycles
        assertTrue(r.err().startsWith("nicsim riscv: model slowalu: 9 instructions retired, 16 cycles"), r.err());
        Files.writeString(y, "name: x\nlatency: {lod: 2}\n");
        final Result bad = run("run", hello(dir, 64).toString(), "--model", y.toString());
        assertEquals(2, bad.code());
        assertEquals("nicsim riscv: " + y + ": unknown class 'latency.lod'\n", bad.err());
        Files.writeString(y, "name: x\ndiv_data_dependent: yes-please\n");
        final Result notBool = run("run", hello(dir, 64).toString(), "--model", y.toString());
        assertEquals(2, notBool.code());
        assertEquals("nicsim riscv: " + y + ": div_data_dependent = 'yes-please' is not true or false\n", notBool.err());
        // not a model file: a directory, a missing file; the reason in words, not an exception's name
        final Result isDir = run("run", hello(dir, 64).toString(), "--model", dir.toString());
        assertEquals(2, isDir.code());
        assertEquals("nicsim riscv: " + dir + ": is a directory, not a model YAML file\n", isDir.err());
        final Path none = dir.resolve("none.yaml");
        final Result missing = run("run", hello(dir, 64).toString(), "--model", none.toString());
        assertEquals(2, missing.code());
        assertEquals("nicsim riscv: " + none + ": cannot read model file: no such file or directory\n", missing.err());
    }

    @Test
    void badOptions() {
        assertEquals(2, run().code()); // no subcommand
        assertEquals(2, run("walk").code()); // unknown subcommand
        assertEquals(2, run("run").code()); // missing ELF
        final Result negative = run("run", "x.elf", "--max-instructions", "-3");
        assertEquals(2, negative.code());
        assertEquals("nicsim riscv: --max-instructions: not a positive number: '-3'\n", negative.err());
        final Result notNumber = run("run", "x.elf", "--max-instructions", "lots");
        assertEquals(2, notNumber.code());
        assertTrue(notNumber.err().startsWith("nicsim riscv: Invalid value for option '--max-instructions': 'lots' is not a long"),
            notNumber.err());
        assertEquals(2, run("run", "x.elf", "--ram-bytes", "-1").code());
        assertEquals(2, run("run", "x.elf", "--frobnicate").code());
        assertEquals(2, run("run", "x.elf", "y.elf").code());
        assertEquals(2, run("run", "x.elf", "--model").code()); // option without its value
        final Result r = run("run", "/no/such.elf");
        assertEquals(2, r.code());
        assertEquals("nicsim riscv: /no/such.elf: no such file\n", r.err());
    }

    @Test
    void helpIsUsageOnStandardOutputAndStatus0() {
        for (final String[] args : new String[][] {{"--help"}, {"run", "--help"}, {"run", "-h"}}) {
            final Result r = run(args);
            assertEquals(0, r.code(), String.join(" ", args));
            assertTrue(r.out().startsWith("Usage: riscv"), r.out());
            assertEquals("", r.err());
        }
        assertTrue(run("run", "--help").out().contains("--max-instructions=N"));
    }
}
