package dev.nicsim.fabric.acceptance;

import dev.nicsim.fabric.Cli;
import dev.nicsim.fabric.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code nicsim riscv ...} reaches {@link dev.nicsim.riscv.RiscvCommand} with its arguments and exit status. */
class RiscvCliTest {
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
