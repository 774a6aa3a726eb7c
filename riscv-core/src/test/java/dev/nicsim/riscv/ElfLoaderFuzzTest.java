package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad ELF input: each defect gives an {@link ElfFormatException} with one line naming the file and
 * the problem (exit 2 through the command), and no other exception escapes for truncated or
 * randomly corrupted files (seeded).
 */
class ElfLoaderFuzzTest {
    static byte[] good(final int xlen) {
        final byte[] code = new Assembler(0x10000).addi(10, 0, 3).addi(17, 0, 93).ecall().assemble();
        return new ElfBuilder(xlen).entry(0x10000).segment(0x10000, code, 0x2000).symbol("_start", 0x10000).build();
    }

    @Test
    void goodImagesLoad() throws ElfFormatException {
        for (final int xlen : new int[] {32, 64}) {
            final ElfImage img = ElfLoader.parse("good", good(xlen));
            assertEquals(xlen, img.xlen());
            assertEquals(0x10000, img.entry());
            assertEquals(1, img.segments().size());
            assertEquals(0x2000, img.segments().get(0).memBytes());
            assertEquals("_start+0x4", img.symbols().describe(0x10004));
        }
    }

    private static String error(final byte[] b) {
        return assertThrows(ElfFormatException.class, () -> ElfLoader.parse("f.elf", b)).getMessage();
    }

    @Test
    void eachDefectIsNamed() {
        assertTrue(error(new byte[] {1, 2, 3}).startsWith("f.elf: not an ELF"));
        byte[] b = good(64);
        b[4] = 3;
        assertTrue(error(b).contains("bad ELF class 3"), error(b));
        b = good(64);
        b[5] = 2;
        assertTrue(error(b).contains("big-endian"));
        assertTrue(error(new ElfBuilder(64).machine(62).entry(0).segment(0x1000, new byte[4], 4).build()).contains("not a RISC-V executable (e_machine=62"));
        assertTrue(error(new ElfBuilder(32).entry(0).build()).contains("no loadable segment"));
        assertTrue(error(new ElfBuilder(64).entry(0).segment(0x1000, new byte[16], 16).segment(0x1008, new byte[16], 16).build())
            .contains("segments overlap: [0x1000, 0x1010) and [0x1008, 0x1018)"));
        assertTrue(error(new ElfBuilder(64).entry(0).segment(0x1000, new byte[16], 1L << 40).build()).contains("above the 256 MiB limit"));
        assertTrue(error(new ElfBuilder(32).entry(0).segment(0xffff_f000L, new byte[16], 0x2000).build()).contains("past the end of the address space"));
        assertTrue(error(new ElfBuilder(64).entry(0).segment(0x1000, new byte[16], 8).build()).contains("p_filesz 16 is larger than p_memsz 8"));
        b = good(32);
        final byte[] t = java.util.Arrays.copyOf(b, 60);
        assertTrue(error(t).contains("truncated"), error(t));
    }

    @Test
    void headerTableDefectsAreNamed() {
        // ELF64 header (System V gABI, ELF-64 Object File Format): e_phoff at byte 32 (8 bytes),
        // e_phentsize at 54, e_shentsize at 58 (2 bytes each, little-endian); a 64-bit program
        // header is 56 bytes, a section header 64.
        byte[] b = good(64);
        b[54] = 8;
        b[55] = 0;
        assertEquals("f.elf: bad e_phentsize 8 (at least 56)", error(b));
        b = good(64);
        b[58] = 8;
        b[59] = 0;
        assertEquals("f.elf: bad e_shentsize 8 (at least 64)", error(b));
        b = good(64);
        b[32] = 0;
        b[33] = 0x10; // e_phoff = 0x1000 = 4096: one 56-byte entry there is past the end of the file
        assertEquals("f.elf: truncated: program header table at offset 4096, 56 bytes, extends past the end of the file ("
            + b.length + " bytes)", error(b));
    }

    @Test
    void truncatedAtEveryLengthAndRandomCorruptionNeverThrowAnythingElse() {
        for (final int xlen : new int[] {32, 64}) {
            final byte[] g = good(xlen);
            for (int len = 0; len < g.length; len++) {
                parseQuietly(java.util.Arrays.copyOf(g, len));
            }
            final SplittableRandom rnd = new SplittableRandom(11);
            for (int i = 0; i < 20_000; i++) {
                final byte[] b = g.clone();
                final int flips = 1 + rnd.nextInt(8);
                for (int f = 0; f < flips; f++) {
                    b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                }
                parseQuietly(b);
            }
        }
    }

    private static void parseQuietly(final byte[] b) {
        try {
            ElfLoader.parse("fuzz", b);
        } catch (final ElfFormatException e) {
            assertTrue(e.getMessage().startsWith("fuzz: ") && !e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void commandReportsBadInputInOneLineWithStatus2(@TempDir final Path dir) throws Exception {
        final Path f = dir.resolve("bad.elf");
        final byte[] b = good(64);
        b[5] = 2;
        Files.write(f, b);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = RiscvCommand.run(new String[] {"run", f.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals("nicsim riscv: " + f + ": big-endian ELF (EI_DATA=2); RISC-V executables are little-endian\n", err.toString(StandardCharsets.UTF_8));
    }
}
