package dev.nicsim.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A fine-grained core's runs of one thread ({@link Core}: while the other threads cannot issue, a
 * pick runs its thread for several instructions, {@link BoundedRun}) against the reference,
 * instruction-by-instruction interleaving ({@link Core#setBatching} off, interpreter), side by side:
 * the same random programs ({@link RandomWordPrograms}) on bf3-dpa's threads, which halt, hit
 * instruction budgets and are woken again as the firmware's events are; three cores per seed (the
 * reference, runs on the interpreter, runs on the translator). After every slice the
 * {@link Core#runUntilHalt} result, the core's cycle and idle cycles, each thread's state
 * ({@link EngineDifferential#compare}) and readyAt, and the cache hierarchy (tags, LRU stamps, the
 * per-level counts, the last-line shortcuts) agree.
 */
class CoreBatchDifferentialTest {
    private static final int THREADS = 4;

    @Test
    void runsOfOneThreadLeaveTheCoreAsInstructionByInstructionPicks() {
        final long[] acc = new long[4];
        for (int k = 0; k < 240; k++) {
            final long seed = 9100 + k;
            final String d = compareSeed(seed, k % 4 < 2 ? 1 : 16, acc);
            assertNull(d, "seed " + seed + ": " + d);
        }
        assertTrue(acc[0] > 500_000, "instructions " + acc[0]);
        assertTrue(acc[3] > acc[0] / 4, "instructions in runs " + acc[3] + " of " + acc[0]);
        assertTrue(acc[2] > 5_000, "halts and budget stops " + acc[2]);
        System.out.printf(Locale.ROOT, "core runs vs instruction-by-instruction picks, bf3-dpa %d threads: %d instructions, "
            + "%.1f %% in runs, %.1f %% translated, %d halts and budget stops, identical%n", THREADS, acc[0], 100.0 * acc[3] / acc[0],
            100.0 * acc[1] / acc[0], acc[2]);
    }

    /**
     * @param acc adds {instructions, of those translated, halts and budget stops, instructions in
     *            runs} of the translating core
     * @return the first difference, or null
     */
    static String compareSeed(final long seed, final int translateAfter, final long[] acc) {
        final CycleModel cm = CycleModel.bf3Dpa();
        final byte[] code = RandomWordPrograms.generate(seed, 64, 160);
        final Core[] cores = new Core[3];
        final MemoryHierarchy[] mhs = new MemoryHierarchy[3];
        final Random setup = new Random(seed * 7);
        final boolean[] idleAtStart = new boolean[THREADS];
        for (int t = 0; t < THREADS; t++) {
            idleAtStart[t] = t > 0 && setup.nextInt(3) == 0;
        }
        for (int e = 0; e < 3; e++) {
            final Memory m = new Memory();
            mhs[e] = new MemoryHierarchy(cm.memory(), 1, THREADS);
            m.addRegion("mem", RandomWordPrograms.REGION_BASE, RandomWordPrograms.REGION_BYTES, mhs[e]);
            m.write(RandomWordPrograms.CODE_BASE, code);
            cores[e] = new Core(m, 64, cm, THREADS, Core.IssuePolicy.FINE_GRAINED);
            cores[e].attach(mhs[e], 0);
            cores[e].setBatching(e > 0);
            for (int t = 0; t < THREADS; t++) {
                final Hart h = cores[e].thread(t);
                h.setEngine(e == 2 ? Hart.Engine.TRANSLATE : Hart.Engine.INTERP);
                h.dispatch.translateAfter = translateAfter;
                h.setPc(RandomWordPrograms.CODE_BASE);
                final long[] regs = RandomWordPrograms.registers(seed + t, 64);
                for (int r = 1; r < 32; r++) {
                    h.setReg(r, regs[r]);
                }
                cores[e].instructionLimit(t, 40 + (seed + t) % 300);
                if (idleAtStart[t]) {
                    h.exit(0); // idle until woken, as a firmware thread between events
                }
            }
        }
        final Random slices = new Random(seed);
        long cycle = 0;
        long returns = 0;
        int wakes = 0;
        while (cores[0].instret() < THREADS * 3000L && cycle < 60_000 && wakes < 60) {
            cycle += 1 + slices.nextInt(slices.nextBoolean() ? 8 : 300);
            final int[] got = new int[3];
            for (int e = 0; e < 3; e++) {
                got[e] = cores[e].runUntilHalt(Long.MAX_VALUE, cycle);
            }
            for (int e = 1; e < 3; e++) {
                final String d = compareCores(cores[0], mhs[0], cores[e], mhs[e]);
                if (got[0] != got[e] || d != null) {
                    return String.format(Locale.ROOT, "slice to cycle %d, %s core: runUntilHalt %d vs %d; %s", cycle,
                        e == 1 ? "interpreter" : "translator", got[0], got[e], d);
                }
            }
            final int t = got[0];
            if (t >= 0) {
                returns++;
                // the thread's event ended (halt) or ran into its budget: it idles, and is woken later
                // at a new cycle with a new budget, from the program's start or where it stopped
                final long at = cores[0].cycles() + slices.nextInt(120);
                final long budget = 1 + slices.nextInt(slices.nextBoolean() ? 6 : 400);
                final boolean restart = slices.nextBoolean();
                for (int e = 0; e < 3; e++) {
                    final Hart h = cores[e].thread(t);
                    final long pc = h.pc();
                    h.resume();
                    h.setPc(restart ? RandomWordPrograms.CODE_BASE : pc);
                    cores[e].wake(t, Math.max(at, cores[e].cycles()));
                    cores[e].instructionLimit(t, h.instret() + budget);
                }
                wakes++;
            } else if (cores[0].thread(0).halted() && slices.nextInt(4) == 0) {
                // wake idle threads now and then, so that several run at once
                for (int w = 1; w < THREADS; w++) {
                    if (cores[0].thread(w).halted()) {
                        for (int e = 0; e < 3; e++) {
                            final Hart h = cores[e].thread(w);
                            h.resume();
                            h.setPc(RandomWordPrograms.CODE_BASE);
                            cores[e].wake(w, cores[e].cycles() + w);
                            cores[e].instructionLimit(w, h.instret() + 200);
                        }
                    }
                }
            }
        }
        long translated = 0;
        for (int t = 0; t < THREADS; t++) {
            translated += cores[2].thread(t).translatedInstructions();
        }
        acc[0] += cores[2].instret();
        acc[1] += translated;
        acc[2] += returns;
        acc[3] += cores[2].batchedInstructions;
        return null;
    }

    /** @return the first difference between two cores (and their hierarchies), or null */
    static String compareCores(final Core a, final MemoryHierarchy ma, final Core b, final MemoryHierarchy mb) {
        if (a.cycles() != b.cycles()) {
            return "core cycle " + a.cycles() + " vs " + b.cycles();
        }
        if (a.idleCycles() != b.idleCycles()) {
            return "idle cycles " + a.idleCycles() + " vs " + b.idleCycles();
        }
        for (int t = 0; t < THREADS; t++) {
            final String d = EngineDifferential.compare(a.thread(t), b.thread(t), t == 0);
            if (d != null) {
                return "thread " + t + ": " + d;
            }
            if (a.thread(t).readyAt() != b.thread(t).readyAt()) {
                return "thread " + t + " readyAt " + a.thread(t).readyAt() + " vs " + b.thread(t).readyAt();
            }
            if (a.thread(t).fetchStallCycles() != b.thread(t).fetchStallCycles()) {
                return "thread " + t + " fetch stalls";
            }
        }
        if (!Arrays.equals(ma.servedLoads, mb.servedLoads) || !Arrays.equals(ma.servedFetches, mb.servedFetches)) {
            return "served loads " + Arrays.toString(ma.servedLoads) + " vs " + Arrays.toString(mb.servedLoads) + ", fetches "
                + Arrays.toString(ma.servedFetches) + " vs " + Arrays.toString(mb.servedFetches);
        }
        if (!Arrays.equals(ma.lastL1dLine, mb.lastL1dLine) || !Arrays.equals(ma.prevL1dLine, mb.prevL1dLine)) {
            return "L1D last lines";
        }
        for (int c = 0; c < ma.l1i.length; c++) {
            if (!Arrays.equals(ma.l1i[c].tag, mb.l1i[c].tag) || !Arrays.equals(ma.l1i[c].stamp, mb.l1i[c].stamp)) {
                return "L1I of core " + c + ": tags " + Arrays.toString(ma.l1i[c].tag) + " vs " + Arrays.toString(mb.l1i[c].tag)
                    + ", stamps " + Arrays.toString(ma.l1i[c].stamp) + " vs " + Arrays.toString(mb.l1i[c].stamp);
            }
        }
        for (int c = 0; c < ma.l1d.length; c++) {
            if (!Arrays.equals(ma.l1d[c].tag, mb.l1d[c].tag) || !Arrays.equals(ma.l1d[c].stamp, mb.l1d[c].stamp)) {
                return "L1D " + c;
            }
        }
        return null;
    }
}
