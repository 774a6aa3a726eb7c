package dev.nicsim.riscv;

import dev.nicsim.cli.RiscvCommand;

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

    /**
     * Instruction limit for every {@code riscv run} of this class: its programs are {@link #good}'s three
     * instructions (or corruptions of them), so 1000 is ample, where the command's default, 10^9
     * ({@link RiscvCommand#DEFAULT_MAX_INSTRUCTIONS}), would cost about 8 s for a corruption that loops.
     */
    static final long FUZZ_MAX_INSTRUCTIONS = 1000;

    /** {@code riscv run FILE} in process, with {@link #FUZZ_MAX_INSTRUCTIONS} as its default limit. @return status, stderr */
    private static Object[] runCommand(final Path f) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = RiscvCommand.run(new String[] {"run", f.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), FUZZ_MAX_INSTRUCTIONS);
        return new Object[] {code, err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void commandReportsBadInputInOneLineWithStatus2(@TempDir final Path dir) throws Exception {
        final Path f = dir.resolve("bad.elf");
        final byte[] b = good(64);
        b[5] = 2;
        Files.write(f, b);
        final Object[] r = runCommand(f);
        assertEquals(2, r[0]);
        assertEquals("nicsim riscv: " + f + ": big-endian ELF (EI_DATA=2); RISC-V executables are little-endian\n", r[1]);
    }

    /**
     * The runs of this class stop at {@link #FUZZ_MAX_INSTRUCTIONS}: {@link #good}'s program with its first
     * instruction corrupted into {@code jal x0, 0} (a loop on itself, 0x0000006f) reports that limit as the
     * default one, and the uncorrupted program still ends by itself (exit 3).
     */
    @Test
    void commandRunsUnderTheSmallFuzzLimit(@TempDir final Path dir) throws Exception {
        final Path ok = Files.write(dir.resolve("ok.elf"), good(64));
        assertEquals(3, runCommand(ok)[0]);
        final byte[] b = good(64);
        final byte[] code = new Assembler(0x10000).addi(10, 0, 3).assemble();
        final int at = indexOf(b, code);
        b[at] = 0x6f; // jal x0, 0: little-endian 0x0000006f
        b[at + 1] = 0;
        b[at + 2] = 0;
        b[at + 3] = 0;
        final Path loop = Files.write(dir.resolve("loop.elf"), b);
        final Object[] r = runCommand(loop);
        assertEquals(RiscvCommand.EXIT_FAULT, r[0]);
        assertTrue(((String) r[1]).contains(": instruction limit " + FUZZ_MAX_INSTRUCTIONS + " reached at pc 0x0000000000010000"
            + " (_start): insn 0x0000006f (the default limit"), (String) r[1]);
    }

    private static int indexOf(final byte[] hay, final byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("code not found in the image");
    }
}
