package dev.nicsim.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nicsim.testsupport.SharedFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The block translator against the interpreter, side by side ({@link EngineDifferential}): the
 * riscv-tests suite (with Zbb/Zbs) and random programs ({@link RandomWordPrograms}) under e31,
 * e31 with Zbb/Zbs, ibex and bf3-dpa, compared after every translated block. The number of random
 * programs is {@code -Dnicsim.translatorFuzz.programs} (default 3,000, a few seconds; docs/riscv-core.md
 * gives the command for a million).
 */
class TranslatorDifferentialTest {
    private static final int PROGRAM_INSTRUCTIONS = 160;
    private static final long PROGRAM_BUDGET = 3000;

    private static List<CycleModel> models() {
        return List.of(CycleModel.E31, CycleModel.load(Path.of(RiscvTestsModels.zbModel())), CycleModel.IBEX,
            CycleModel.bf3Dpa());
    }

    @Test
    void riscvTestsRunIdenticallyOnBothEngines() throws Exception {
        final Path dir = SharedFiles.sharedOrSkip("peers/riscv-tests/elf");
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("rv(32|64)(ui|um|ua|uc|uzbb|uzbs|mi)-p-.*")).sorted().forEach(files::add);
        }
        final String zb = RiscvTestsModels.zbModel();
        long runs = 0;
        long instructions = 0;
        long translated = 0;
        for (final Path p : files) {
            final String name = p.getFileName().toString();
            for (final String model : new String[] {RiscvTestsModels.modelFor(name, zb), "ibex", "bf3-dpa"}) {
                final CycleModel cm = CycleModel.byName(model);
                final ByteArrayOutputStream out1 = new ByteArrayOutputStream();
                final ByteArrayOutputStream out2 = new ByteArrayOutputStream();
                final Machine ref = machine(p, cm, out1);
                final Machine tr = machine(p, cm, out2);
                final EngineDifferential.Result r = EngineDifferential.run(ref.hart(), tr.hart(), 1_000_000, 64, runs % 2 == 1);
                assertNull(r.mismatch(), name + " on " + cm.name() + ": " + r.mismatch());
                assertEquals(out1.toString(StandardCharsets.UTF_8), out2.toString(StandardCharsets.UTF_8), name + " output");
                runs++;
                instructions += r.instructions();
                translated += r.translated();
            }
        }
        System.out.printf(Locale.ROOT, "translator vs interpreter, riscv-tests: %d runs, %d instructions, %.1f %% translated, identical%n",
            runs, instructions, 100.0 * translated / Math.max(1, instructions));
        assertTrue(translated > 0, "some instructions ran translated");
    }

    private static Machine machine(final Path elf, final CycleModel cm, final ByteArrayOutputStream out) throws Exception {
        final PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        return new Machine(ElfLoader.load(elf), cm, 1 << 20, ps, ps);
    }

    @Test
    void randomProgramsRunIdenticallyOnBothEngines() {
        final int programs = Integer.getInteger("nicsim.translatorFuzz.programs", 3000);
        final long seed0 = Long.getLong("nicsim.translatorFuzz.seed", 1);
        final List<CycleModel> models = models();
        long instructions = 0;
        long translated = 0;
        long steps = 0;
        for (int k = 0; k < programs; k++) {
            final long seed = seed0 + k;
            final CycleModel cm = models.get(k % models.size());
            final int xlen = (k / models.size()) % 2 == 0 ? 64 : 32;
            final EngineDifferential.Result r = randomProgram(seed, cm, xlen, k % 3 == 0);
            assertNull(r.mismatch(), "seed " + seed + ", " + cm.name() + ", RV" + xlen + ": " + r.mismatch());
            instructions += r.instructions();
            translated += r.translated();
            steps += r.steps();
        }
        System.out.printf(Locale.ROOT, "translator vs interpreter, random programs: %d programs, %d instructions, %d steps compared,"
            + " %.1f %% translated, identical%n", programs, instructions, steps, 100.0 * translated / Math.max(1, instructions));
        assertTrue(translated > instructions / 4, "a good part ran translated: " + translated + " of " + instructions);
    }

    /** A timing rule broken on purpose in the translator (ALU occupancy + 1) is caught. */
    @Test
    void aBrokenTimingRuleIsCaught() {
        BlockTranslator.sabotageAluOccupancyCycles = 1;
        try {
            final EngineDifferential.Result r = randomProgram(7, CycleModel.E31, 64, false);
            assertNotNull(r.mismatch());
            assertTrue(r.mismatch().contains("cycles"), r.mismatch());
        } finally {
            BlockTranslator.sabotageAluOccupancyCycles = 0;
        }
    }

    /** Self-modifying code: a store over a translated instruction drops the translation. */
    @Test
    void aStoreOverTranslatedCodeIsSeen() {
        final Memory[] ms = new Memory[2];
        final Hart[] hs = new Hart[2];
        for (int k = 0; k < 2; k++) {
            ms[k] = new Memory();
            ms[k].addRegion("mem", 0x1000, 0x2000, 0);
            // loop: addi a0, a0, 1 ; then patch the addi's immediate to 2 (sw t1, 0(t0)) ; bne a0, a1, loop
            final Assembler a = new Assembler(0x1000).label("loop").addi(Assembler.A0, Assembler.A0, 1)
                .sw(Assembler.T1, 0, Assembler.T0).bne(Assembler.A0, Assembler.A1, "loop").ecall();
            ms[k].write(0x1000, a.assemble());
            hs[k] = new Hart(ms[k], 64, CycleModel.E31, 0);
            hs[k].setPc(0x1000);
            hs[k].setReg(Assembler.T0, 0x1000);
            hs[k].setReg(Assembler.T1, 0x00250513); // addi a0, a0, 2
            hs[k].setReg(Assembler.A1, 21);
        }
        final EngineDifferential.Result r = EngineDifferential.run(hs[0], hs[1], 1000, 1);
        assertNull(r.mismatch(), r.mismatch());
        assertEquals(21, hs[1].reg(Assembler.A0)); // 1, then +2 ten times (the patched code ran)
    }

    /**
     * bf3-dpa's hardware threads sharing one core (both issue policies): the same random program
     * on 4 threads (each its own registers), one core per engine; after every slice of 1 to 40
     * cycles every thread's state, the core's cycle and idle cycles, and memory agree.
     */
    @Test
    void threadsSharingACoreRunIdenticallyOnBothEngines() {
        long translated = 0;
        long instructions = 0;
        for (int k = 0; k < 200; k++) {
            final long seed = 5000 + k;
            final CycleModel cm = CycleModel.bf3Dpa();
            final Core.IssuePolicy policy = k % 2 == 0 ? Core.IssuePolicy.FINE_GRAINED : Core.IssuePolicy.BARREL;
            final byte[] code = RandomWordPrograms.generate(seed, 64, PROGRAM_INSTRUCTIONS);
            final Core[] cores = new Core[2];
            for (int e = 0; e < 2; e++) {
                final Memory m = new Memory();
                final MemoryHierarchy mh = new MemoryHierarchy(cm.memory(), 1, 4);
                m.addRegion("mem", RandomWordPrograms.REGION_BASE, RandomWordPrograms.REGION_BYTES, mh);
                m.write(RandomWordPrograms.CODE_BASE, code);
                cores[e] = new Core(m, 64, cm, 4, policy);
                cores[e].attach(mh, 0);
                for (int t = 0; t < 4; t++) {
                    final Hart h = cores[e].thread(t);
                    h.setEngine(e == 0 ? Hart.Engine.INTERP : Hart.Engine.TRANSLATE);
                    h.dispatch.translateAfter = k % 4 < 2 ? 1 : 32; // translated at once, or after the interpreter's first entries
                    // every third seed: threads 1-3 start unmapped and halt on a double fault at once, so
                    // thread 0 runs alone (whole blocks) once they are gone
                    h.setPc(k % 3 == 2 && t > 0 ? 0 : RandomWordPrograms.CODE_BASE);
                    final long[] regs = RandomWordPrograms.registers(seed + t, 64);
                    for (int r = 1; r < 32; r++) {
                        h.setReg(r, regs[r]);
                    }
                }
            }
            final Random slices = new Random(seed);
            long cycle = 0;
            while (cores[0].instret() < 4 * PROGRAM_BUDGET && cycle < 40_000) {
                cycle += 1 + slices.nextInt(40);
                final int a = cores[0].runUntilHalt(4 * PROGRAM_BUDGET, cycle);
                final int b = cores[1].runUntilHalt(4 * PROGRAM_BUDGET, cycle);
                assertEquals(a, b, "seed " + seed + " runUntilHalt result");
                assertEquals(cores[0].cycles(), cores[1].cycles(), "seed " + seed + " core cycle");
                assertEquals(cores[0].idleCycles(), cores[1].idleCycles(), "seed " + seed + " idle cycles");
                for (int t = 0; t < 4; t++) {
                    final String d = EngineDifferential.compare(cores[0].thread(t), cores[1].thread(t), t == 0);
                    assertNull(d, "seed " + seed + " " + policy + " thread " + t + " by cycle " + cycle + ": " + d);
                }
                boolean all = true;
                for (int t = 0; t < 4; t++) {
                    all &= cores[0].thread(t).halted();
                }
                if (all) {
                    break;
                }
            }
            for (int t = 0; t < 4; t++) {
                translated += cores[1].thread(t).translatedInstructions();
                instructions += cores[1].thread(t).instret();
            }
        }
        System.out.printf(Locale.ROOT, "translator vs interpreter, bf3-dpa 4 threads: %d instructions, %.1f %% translated, identical%n",
            instructions, 100.0 * translated / Math.max(1, instructions));
    }

    static EngineDifferential.Result randomProgram(final long seed, final CycleModel cm, final int xlen, final boolean chained) {
        final byte[] code = RandomWordPrograms.generate(seed, xlen, PROGRAM_INSTRUCTIONS);
        final long[] regs = RandomWordPrograms.registers(seed, xlen);
        final byte[] scratch = new byte[0x1000];
        new Random(seed * 31).nextBytes(scratch);
        final Hart[] h = new Hart[2];
        for (int k = 0; k < 2; k++) {
            final Memory m = new Memory();
            if (cm.memory() == null) {
                m.addRegion("mem", RandomWordPrograms.REGION_BASE, RandomWordPrograms.REGION_BYTES, 0);
            } else {
                m.addRegion("mem", RandomWordPrograms.REGION_BASE, RandomWordPrograms.REGION_BYTES, new MemoryHierarchy(cm.memory(), 1, 1));
            }
            m.write(0x3000, scratch);
            m.write(RandomWordPrograms.CODE_BASE, code);
            h[k] = new Hart(m, xlen, cm, 0);
            h[k].setPc(RandomWordPrograms.CODE_BASE);
            for (int r = 1; r < 32; r++) {
                h[k].setReg(r, regs[r]);
            }
        }
        return EngineDifferential.run(h[0], h[1], PROGRAM_BUDGET, 1, chained);
    }
}
