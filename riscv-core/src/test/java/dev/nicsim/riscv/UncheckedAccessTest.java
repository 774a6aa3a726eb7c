package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link Hart}'s unchecked array accesses ({@code Hart.at}/{@code Hart.set}, {@code sun.misc.Unsafe})
 * rely on: every index the interpreter loop masks stays below its array's length, and the hart
 * runs in a JVM started without the project's {@code --add-exports} flags (Agrona's
 * {@code UnsafeApi} would fail there, in Hart's static initialiser).
 */
class UncheckedAccessTest {
    private static final long CODE = 0x1000;
    private static final long DATA = 0x10000;

    /** The masks in Hart.run against the arrays they index. */
    @Test
    void maskedIndexesStayInsideTheirArrays() {
        final Hart h = new Hart(new Memory(), 64, CycleModel.E31, 0);
        // rd is a 6-bit field: its ready tag is x[33 + rd], up to x[96]
        assertEquals(33 + 64, h.x.length, "register file + ready tags sized for any 6-bit rd");
        // ops index a 256-long timing table by their 8-bit field; classes a 16-long stall table by 4 bits
        assertTrue(Isa.OP_COUNT <= 256, "op numbers fit the 8-bit field: " + Isa.OP_COUNT);
        assertTrue(TimingClass.values().length <= 16, "timing classes fit the 4-bit tag field");
        // every decoded rd is 0..32 (32: the x0 sink) and rs1/rs2 0..31 over all 16-bit encodings and a sweep of 32-bit ones
        for (int w = 0; w < 0x10000; w++) {
            checkFields(Isa.decode(w, 64), w);
        }
        for (long w = 3; w <= 0xffffffffL; w += 0x10003) {
            checkFields(Isa.decode((int) w, 64), (int) w);
        }
    }

    private static void checkFields(final long d, final int w) {
        final int ctl = (int) d;
        assertTrue(((ctl >>> 8) & 63) <= 32, () -> "rd of 0x" + Integer.toHexString(w));
    }

    /**
     * Sum of 10 loaded words {@code 1..10} on bf3-dpa (loads through the hierarchy's L1D path):
     * a0 = 55 after 2 + 5 * 10 = 52 instructions, the same cycles in this JVM (which has the
     * flags) and in a child JVM started with none.
     */
    @Test
    void runsInAJvmWithoutTheLibraryFlags() throws Exception {
        final String here = Program.run();
        assertTrue(here.startsWith("a0=55 instret=52 "), here);
        final String cp = String.join(File.pathSeparator,
            location(Hart.class), location(UncheckedAccessTest.class), location(org.yaml.snakeyaml.Yaml.class));
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process p = new ProcessBuilder(List.of(java.toString(), "-cp", cp, Program.class.getName()))
            .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals(here, out);
    }

    private static String location(final Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** The child JVM's program (also run in the test's own JVM). */
    static final class Program {
        private Program() {
        }

        static String run() {
            final CycleModel m = CycleModel.byName("bf3-dpa");
            final Memory mem = new Memory();
            final MemoryHierarchy h = new MemoryHierarchy(m.memory(), 1, 1);
            mem.addRegion("code", CODE, 4096, h);
            mem.addRegion("data", DATA, 4096, h);
            for (int i = 0; i < 10; i++) {
                mem.store(DATA + 8L * i, 8, i + 1);
            }
            final Assembler a = new Assembler(CODE);
            a.addi(A0, ZERO, 0).addi(T0, ZERO, 10);
            a.label("loop").ld(T1, 0, S0).add(A0, A0, T1).addi(S0, S0, 8).addi(T0, T0, -1).bne(T0, ZERO, "loop");
            mem.write(CODE, a.assemble());
            final Hart hart = new Hart(mem, 64, m, 0);
            hart.setPc(CODE);
            hart.setReg(S0, DATA);
            hart.run(52);
            return "a0=" + hart.reg(A0) + " instret=" + hart.instret() + " cycles=" + hart.cycles();
        }

        /**
         * Prints {@link #run()}'s line.
         *
         * @param args none
         */
        public static void main(final String[] args) {
            System.out.println(run());
        }
    }
}
