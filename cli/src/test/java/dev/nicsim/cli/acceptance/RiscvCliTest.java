package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim riscv run} is a picocli subcommand of {@code nicsim}: its options, and its exit
 * status (the program's, 2 bad input, 5 unhandled fault) through the whole command line.
 */
public class RiscvCliTest {
    /**
     * A minimal RV32 ELF executable (ELF32 header, one PT_LOAD program header, the code at
     * 0x10000; System V gABI and the RISC-V ELF psABI: EM_RISCV 243, little-endian).
     */
    public static Path elf32(final Path dir, final String name, final int... code) throws IOException {
        final int base = 0x10000;
        final ByteBuffer b = ByteBuffer.allocate(52 + 32 + 4 * code.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        b.putShort((short) 2).putShort((short) 243).putInt(1).putInt(base + 84).putInt(52).putInt(0).putInt(0);
        b.putShort((short) 52).putShort((short) 32).putShort((short) 1).putShort((short) 40).putShort((short) 0).putShort((short) 0);
        // PT_LOAD: offset 0, vaddr = paddr = base, filesz = memsz = whole file, flags R|X, align 4 KiB
        b.putInt(1).putInt(0).putInt(base).putInt(base).putInt(b.capacity()).putInt(b.capacity()).putInt(5).putInt(4096);
        for (final int w : code) {
            b.putInt(w);
        }
        final Path f = dir.resolve(name);
        Files.write(f, b.array());
        return f;
    }

    @Test
    void exitStatusIsTheProgramsOr5OnAFault(@TempDir final Path dir) throws IOException {
        // addi a0, zero, 7 (0x00700513); addi a7, zero, 93 (exit; 0x05d00893); ecall (0x00000073)
        final Cli.Outcome exit7 = Cli.run("riscv", "run", elf32(dir, "exit7.elf", 0x00700513, 0x05d00893, 0x73).toString());
        assertEquals(7, exit7.exitCode(), exit7.err());
        assertTrue(exit7.err().startsWith("nicsim riscv: model e31: 3 instructions retired"), exit7.err());
        // an all-zero word is illegal (Volume I §16.1), no handler: an unhandled fault
        final Path bad = elf32(dir, "illegal.elf", 0);
        final Cli.Outcome fault = Cli.run("riscv", "run", bad.toString(), "--model", "ibex");
        assertEquals(5, fault.exitCode(), fault.err());
        // the code follows the 52-byte header and the 32-byte program header: pc 0x10000 + 84
        assertTrue(fault.err().endsWith("nicsim riscv: " + bad + ": illegal instruction at pc 0x00010054 (?): insn 0x0000 (unknown)"
            + System.lineSeparator()), fault.err());
        final Cli.Outcome badOption = Cli.run("riscv", "run", bad.toString(), "--max-instructions", "many");
        assertEquals(2, badOption.exitCode());
        assertEquals(0, Cli.run("riscv", "run", "--help").exitCode());
        assertEquals(2, Cli.run("riscv").exitCode());
    }

    @Test
    void missingFileIsBadInput() {
        final Cli.Outcome o = Cli.run("riscv", "run", "/no/such.elf", "--model", "ibex");
        assertEquals(2, o.exitCode());
        assertEquals("nicsim riscv: /no/such.elf: no such file", o.err().strip());
    }

    @Test
    void runsARiscvTestsElf() {
        final Path elf = TestPaths.sharedOrSkip("peers/riscv-tests/elf/rv32ui-p-simple");
        final Cli.Outcome o = Cli.run("riscv", "run", elf.toString(), "--model", "ibex", "--max-instructions", "100000");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.err().startsWith("nicsim riscv: model ibex: "), o.err());
    }
}
