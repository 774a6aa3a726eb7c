package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;

import static dev.nicsim.riscv.Assembler.A0;
import static dev.nicsim.riscv.Assembler.A1;
import static dev.nicsim.riscv.Assembler.A2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zbb and Zbs: values worked out by hand from the instructions' "Operation" in "RISC-V
 * Bit-Manipulation ISA-extensions" 1.0.0 chapter 3 (RV32 results sign-extended to the 64-bit
 * register, as every RV32 value here is), the models that do not enable them (e31, ibex) trap
 * every row as an illegal instruction with the word in mtval, and the YAML key that enables them.
 * (The riscv-tests uzbb/uzbs and the QEMU differential check them further.)
 */
class BitManipulationTest {
    private static final long CODE = 0x1000;
    private static final CycleModel ZB = CycleModel.E31.withExtensions(EnumSet.allOf(Isa.Extension.class));

    /** Runs {@code name a0, a1, operand} with a1 = a and a2 = b; operand is a2 or the shift amount. */
    private static long run(final int xlen, final String name, final long a, final long b, final boolean immediate) {
        final Memory m = new Memory();
        m.addRegion("code", CODE, 4096, 0);
        m.write(CODE, new Assembler(CODE).insn(name, xlen, A0, A1, immediate ? (int) b : A2).assemble());
        final Hart h = new Hart(m, xlen, ZB, 0);
        h.setPc(CODE);
        h.setReg(A1, a);
        h.setReg(A2, b);
        h.run(1);
        assertEquals(1, h.instret(), name + " did not retire (mcause " + h.mcause() + ")");
        return h.reg(A0);
    }

    @Test
    void valuesWorkedOutByHand() {
        final long min64 = Long.MIN_VALUE;
        // {xlen, a, b or shamt, expected}, per mnemonic; "i" = immediate form
        final Object[][] cases = {
            {"andn", 64, 0b1100L, 0b1010L, 0b0100L}, // a & ~b
            {"orn", 64, 0L, ~0xfL, 0xfL},            // a | ~b
            {"xnor", 64, 5L, 3L, -7L},               // ~(5 ^ 3) = ~6
            {"clz", 64, 1L, 0L, 63L}, {"clz", 32, 1L, 0L, 31L}, {"clzw", 64, 0L, 0L, 32L},
            {"ctz", 64, 0L, 0L, 64L}, {"ctz", 32, 0L, 0L, 32L}, {"ctzw", 64, 0x1_0000_0000L, 0L, 32L}, // low word 0
            {"cpop", 64, -1L, 0L, 64L}, {"cpop", 32, -1L, 0L, 32L}, {"cpopw", 64, 0x1_0000_0003L, 0L, 2L},
            {"max", 64, -1L, 1L, 1L}, {"maxu", 64, -1L, 1L, -1L}, {"min", 64, -1L, 1L, -1L}, {"minu", 64, -1L, 1L, 1L},
            {"maxu", 32, -1L, 1L, -1L}, // 0xffffffff is the larger unsigned 32-bit value
            {"sext.b", 64, 0x80L, 0L, -128L}, {"sext.h", 64, 0x8000L, 0L, -32768L}, {"zext.h", 64, -1L, 0L, 0xffffL},
            {"zext.h", 32, -1L, 0L, 0xffffL},
            {"rol", 64, min64 | 1, 1L, 3L}, {"rol", 32, 0xffff_ffff_8000_0001L, 1L, 3L}, {"rolw", 64, 0x8000_0000L, 1L, 1L},
            {"ror", 64, 1L, 1L, min64}, {"ror", 32, 1L, 1L, 0xffff_ffff_8000_0000L}, {"rorw", 64, 1L, 33L, 0xffff_ffff_8000_0000L},
            {"rori", 64, 1L, 4L, 0x1000_0000_0000_0000L, "i"}, {"rori", 32, 1L, 4L, 0x1000_0000L, "i"},
            {"roriw", 64, 1L, 1L, 0xffff_ffff_8000_0000L, "i"},
            {"orc.b", 64, 0x0000_0000_0100_0001L, 0L, 0x0000_0000_ff00_00ffL},
            {"orc.b", 32, 0x0001_0000L, 0L, 0x00ff_0000L}, {"orc.b", 32, 0x0100_0000L, 0L, 0xffff_ffff_ff00_0000L},
            {"rev8", 64, 0x0102_0304_0506_0708L, 0L, 0x0807_0605_0403_0201L},
            {"rev8", 32, 0x0102_0380L, 0L, 0xffff_ffff_8003_0201L},
            {"bclr", 64, -1L, 63L, Long.MAX_VALUE}, {"bclr", 32, -1L, 31L, 0x7fff_ffffL},
            {"bclr", 32, -1L, 33L, -3L}, // index 33 & 31 = 1
            {"bclri", 32, -1L, 31L, 0x7fff_ffffL, "i"},
            {"bext", 64, 0x10L, 4L, 1L}, {"bexti", 64, 0x10L, 3L, 0L, "i"}, {"bext", 64, min64, 127L, 1L}, // 127 & 63
            {"binv", 64, 0L, 63L, min64}, {"binvi", 32, 0L, 31L, 0xffff_ffff_8000_0000L, "i"},
            {"bset", 64, 0L, 65L, 2L}, {"bseti", 32, 0L, 31L, 0xffff_ffff_8000_0000L, "i"}, // 65 & 63 = 1
        };
        for (final Object[] c : cases) {
            final String name = (String) c[0];
            final int xlen = (Integer) c[1];
            final long got = run(xlen, name, (Long) c[2], (Long) c[3], c.length > 5);
            assertEquals((long) (Long) c[4], got, "RV" + xlen + " " + name + " " + Long.toHexString((Long) c[2]) + ", "
                + Long.toHexString((Long) c[3]) + ": 0x" + Long.toHexString(got));
        }
    }

    /** e31 and ibex have neither extension: each row's words raise illegal-instruction, mtval = the word. */
    @Test
    void modelsWithoutTheExtensionsTrapThemAsIllegal() {
        final SplittableRandom rnd = new SplittableRandom(19);
        int checked = 0;
        for (final CycleModel model : new CycleModel[] {CycleModel.E31, CycleModel.IBEX}) {
            assertEquals(Set.of(), model.extensions());
            for (final int xlen : new int[] {32, 64}) {
                for (final Isa.Insn row : Isa.rows()) {
                    final int op = xlen == 32 ? row.op32() : row.op64();
                    if (op < 0 || Isa.extensionOf(op) == null) {
                        continue;
                    }
                    final int w = row.match() | (rnd.nextInt() & ~row.mask() & ~(xlen == 32 ? 1 << 25 : 0));
                    final Memory m = new Memory();
                    m.addRegion("code", CODE, 4096, 0);
                    m.store(CODE, 4, w);
                    final Hart h = new Hart(m, xlen, model, 0);
                    h.setPc(CODE);
                    h.setStopAfterTrap(true);
                    h.run(1);
                    final String what = model.name() + " RV" + xlen + " " + row.name() + " " + Integer.toHexString(w);
                    assertEquals(0, h.instret(), what);
                    assertEquals(Hart.CAUSE_ILLEGAL, h.mcause(), what);
                    assertEquals(w & 0xffffffffL, h.mtval() & 0xffffffffL, what);
                    checked++;
                }
            }
        }
        // counted from the spec's lists: RV32 Zbb andn orn xnor clz ctz cpop max maxu min minu sext.b sext.h
        // zext.h rol ror rori orc.b rev8 = 18, Zbs bclr(i) bext(i) binv(i) bset(i) = 8: 26; RV64 adds clzw
        // ctzw cpopw rolw rorw roriw: 32; two models: 2 x (26 + 32) = 116
        assertEquals(116, checked);
    }

    @Test
    void yamlEnablesThemAndRejectsUnknownOnes(@TempDir final Path dir) throws Exception {
        final Path y = dir.resolve("zb.yaml");
        Files.writeString(y, "name: zb\nextensions: [zbb, zbs]\n");
        assertEquals(EnumSet.allOf(Isa.Extension.class), CycleModel.load(y).extensions());
        Files.writeString(y, "name: zb\nextensions: [zbb]\n");
        assertEquals(Set.of(Isa.Extension.ZBB), CycleModel.load(y).extensions());
        Files.writeString(y, "name: zb\n");
        assertEquals(Set.of(), CycleModel.load(y).extensions());
        Files.writeString(y, "name: zb\nextensions: [zbb, zba]\n");
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> CycleModel.load(y));
        assertEquals(y + ": extensions: unknown extension 'zba' (expected zbb or zbs)", bad.getMessage());
        Files.writeString(y, "name: zb\nextensions: zbb\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CycleModel.load(y)).getMessage()
            .endsWith("extensions = 'zbb' is not a list (expected e.g. [zbb, zbs])"));
    }
}
