package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.nicsim.riscv.Assembler.A0;
import static dev.nicsim.riscv.Assembler.A1;
import static dev.nicsim.riscv.Assembler.A2;
import static dev.nicsim.riscv.Assembler.A7;
import static dev.nicsim.riscv.Assembler.SP;
import static dev.nicsim.riscv.Assembler.T0;
import static dev.nicsim.riscv.Assembler.ZERO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a {@code riscv run} program sees of its machine (the RAM region above the image and the
 * stack pointer {@link Machine} sets, {@code write} of 0 bytes), and the {@link Memory} and
 * {@link SymbolTable} rules behind it: regions sorted by address, an access ending exactly at a
 * region's end is inside it, empty and overlapping regions are refused; the symbol naming an
 * address is the nearest at or below it, a global one before a local one at the same address.
 */
class MachineAndMemoryDetailsTest {
    private static Path elf(final Path dir, final String name, final Assembler a) throws Exception {
        final byte[] code = a.assemble();
        final Path f = dir.resolve(name);
        Files.write(f, new ElfBuilder(64).entry(RiscvCommandTest.BASE).segment(RiscvCommandTest.BASE, code, code.length)
            .symbol("_start", RiscvCommandTest.BASE).build());
        return f;
    }

    @Test
    void theStackIsInRamAboveTheImage(@TempDir final Path dir) throws Exception {
        // the image page is [0x10000, 0x11000), RAM (4 MiB) follows it, sp = 0x11000 + 0x400000 - 64 = 0x410fc0
        final Path sp = elf(dir, "sp.elf", new Assembler(RiscvCommandTest.BASE).label("_start")
            .srli(A0, SP, 4).andi(A0, A0, 0xff).addi(A7, ZERO, 93).ecall());
        assertEquals(0xfc, RiscvCommandTest.run("run", sp.toString()).code());
        // a store to the stack and a load back: the RAM region exists
        final Path rw = elf(dir, "rw.elf", new Assembler(RiscvCommandTest.BASE).label("_start")
            .addi(T0, ZERO, 77).sd(T0, 0, SP).ld(A0, 0, SP).addi(A7, ZERO, 93).ecall());
        final RiscvCommandTest.Result r = RiscvCommandTest.run("run", rw.toString());
        assertEquals(77, r.code(), r.err());
    }

    @Test
    void writeOfZeroBytesReturnsZero(@TempDir final Path dir) throws Exception {
        // write(1, 0x10000, 0) returns 0 (not -14 EFAULT); exit(a0 + 40)
        final Path w = elf(dir, "w0.elf", new Assembler(RiscvCommandTest.BASE).label("_start")
            .addi(A0, ZERO, 1).lui(A1, (int) (RiscvCommandTest.BASE >> 12)).addi(A2, ZERO, 0).addi(A7, ZERO, 64).ecall()
            .addi(A0, A0, 40).addi(A7, ZERO, 93).ecall());
        final RiscvCommandTest.Result r = RiscvCommandTest.run("run", w.toString());
        assertEquals(40, r.code(), r.err());
        assertEquals("", r.out());
    }

    @Test
    void regionsAreSortedAndTheirBoundsExact() {
        final Memory m = new Memory();
        final MemoryRegion high = m.addRegion("high", 0x2000, 0x1000, 0);
        final MemoryRegion low = m.addRegion("low", 0, 0x1000, (a, s, st, c) -> 3); // base 0 is allowed
        assertEquals(List.of(low, high), m.regions());
        assertEquals("low", low.name());
        assertTrue(low.contains(0xffc, 4)); // ends exactly at the region's end
        assertFalse(low.contains(0xffd, 4));
        assertEquals(low, m.find(0xff8, 8));
        assertEquals(null, m.find(0xffc, 8));
        assertThrows(IllegalArgumentException.class, () -> m.addRegion("empty", 0x5000, 0, 0));
        // overlapping the end of low, or the start of high, is refused; touching is not
        assertThrows(IllegalArgumentException.class, () -> m.addRegion("x", 0x800, 0x1000, 0));
        assertThrows(IllegalArgumentException.class, () -> m.addRegion("y", 0x1800, 0x1000, 0));
        final MemoryRegion mid = m.addRegion("mid", 0x1000, 0x1000, 0);
        assertEquals(List.of(low, mid, high), m.regions());
    }

    @Test
    void symbolsAreSortedAndAGlobalNamesItsAddress() {
        final SymbolTable t = new SymbolTable(List.of(new SymbolTable.Symbol("b", 0x200, 4, true),
            new SymbolTable.Symbol("local_a", 0x100, 4, false), new SymbolTable.Symbol("a", 0x100, 4, true),
            new SymbolTable.Symbol("c", 0x300, 4, false)));
        assertEquals(3, t.size());
        assertEquals("a", t.describe(0x100));
        assertEquals("a+0x10", t.describe(0x110));
        assertEquals("b+0x4", t.describe(0x204));
        assertEquals("c", t.describe(0x300));
        assertEquals("?", t.describe(0xff));
        assertEquals(0x100, t.find("local_a").address());
    }
}
