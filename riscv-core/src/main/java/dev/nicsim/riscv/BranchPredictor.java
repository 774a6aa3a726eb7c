package dev.nicsim.riscv;

import static dev.nicsim.riscv.Unchecked.at;
import static dev.nicsim.riscv.Unchecked.set;

import java.util.Arrays;

/**
 * A hart's control-flow timing ({@link CycleModel#predictor()}): without a predictor, fixed
 * penalties for taken branches and jumps; with one, a BHT of 2-bit saturating counters indexed by
 * {@code pc / 2}, a direct-mapped BTB (tag = the branch's pc, multiplicative hash of {@code pc / 2})
 * and a return-address stack (calls and returns as Volume I §2.5 Table 2.1 hints them: rd or rs1 in
 * {x1, x5}), a wrong prediction costing the mispredict penalty. The structure follows the SiFive
 * FE310-G000 Manual v2p3 §3.2 (instruction fetch unit), as {@link CycleModel} describes; the BTB is
 * modelled direct-mapped (assumption), and the sizes and penalties are the model's.
 *
 * <p>Speed: the settings and tables live in one {@code long[]} (see the {@code BP_} indexes), read
 * by index and without the bounds check ({@link Unchecked}): its settings are fixed at
 * construction, and every index stays inside it by that construction (BHT index masked by
 * entries - 1, BTB index below its entries, RAS top below its length). One array keeps the
 * interpreter loop, into which the JIT inlines {@link #branch} and {@link #jump}, from holding a
 * register for each of five arrays and four settings.
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class BranchPredictor {
    /** {@link #bp}: 1 for a BHT/BTB/RAS predictor, 0 for the static taken/jump penalties. */
    private static final int BP_ON = 0;
    /** {@link #bp}: cycles lost on a taken branch without a predictor. */
    private static final int BP_TAKEN = 1;
    /** {@link #bp}: cycles lost on a jump without a predictor. */
    private static final int BP_JUMP = 2;
    /** {@link #bp}: cycles lost on a mispredicted branch or jump. */
    private static final int BP_MISPREDICT = 3;
    /** {@link #bp}: BHT entries - 1 (a power of two minus one). */
    private static final int BP_BHT_MASK = 4;
    /** {@link #bp}: BTB entries. */
    private static final int BP_BTB_ENTRIES = 5;
    /** {@link #bp}: index of the first BTB tag (-1: empty); the targets follow the tags. */
    private static final int BP_BTB = 6;
    /** {@link #bp}: index of the return-address stack's first entry. */
    private static final int BP_RAS = 7;
    /** {@link #bp}: the model's RAS entries (0: none). */
    private static final int BP_RAS_ENTRIES = 8;
    /** {@link #bp}: the RAS's length, max(1, RAS entries). */
    private static final int BP_RAS_LENGTH = 9;
    /** {@link #bp}: the RAS's top index, 0 .. length - 1. */
    private static final int BP_RAS_TOP = 10;
    /** {@link #bp}: entries on the RAS, 0 .. length. */
    private static final int BP_RAS_COUNT = 11;
    /** {@link #bp}: index of the first BHT counter. */
    private static final int BP_BHT = 12;

    /** Settings, then the BHT's counters, the BTB's tags and targets and the RAS (see the BP_ indexes). */
    private final long[] bp;
    /** Cycles lost so far to branches and jumps (the values {@link #branch} and {@link #jump} returned). */
    private long penaltyCycles;

    /**
     * Creates the predictor of a model, with empty tables.
     *
     * @param model the cycle model (its predictor kind, penalties and table sizes)
     */
    BranchPredictor(final CycleModel model) {
        final boolean bht = model.predictor() == CycleModel.Predictor.BHT;
        final int bhtEntries = bht ? model.bhtEntries() : 1;
        final int btbEntries = bht ? model.btbEntries() : 1;
        final int rasLength = Math.max(1, model.rasEntries());
        final int btb = BP_BHT + bhtEntries;
        final int ras = btb + 2 * btbEntries;
        bp = new long[ras + rasLength];
        bp[BP_ON] = bht ? 1 : 0;
        bp[BP_TAKEN] = model.takenBranchPenaltyCycles();
        bp[BP_JUMP] = model.jumpPenaltyCycles();
        bp[BP_MISPREDICT] = model.mispredictPenaltyCycles();
        bp[BP_BHT_MASK] = bhtEntries - 1;
        bp[BP_BTB_ENTRIES] = btbEntries;
        bp[BP_BTB] = btb;
        bp[BP_RAS] = ras;
        bp[BP_RAS_ENTRIES] = model.rasEntries();
        bp[BP_RAS_LENGTH] = rasLength;
        Arrays.fill(bp, btb, btb + btbEntries, -1L);
    }

    /** @return cycles lost to branches and jumps since creation, at least 0 */
    long penaltyCycles() {
        return penaltyCycles;
    }

    /**
     * A conditional branch's lost cycles: without a predictor, the taken penalty when taken; with
     * one, the BHT's 2-bit counter and the BTB's tag predict taken, and a wrong prediction costs
     * the mispredict penalty. Updates the counter (and the BTB on a taken branch).
     *
     * @param pc     the branch's address
     * @param taken  whether it is taken
     * @param target the next pc (the target when taken)
     * @return cycles lost, at least 0
     */
    int branch(final long pc, final boolean taken, final long target) {
        final long[] p = bp;
        if (at(p, BP_ON) == 0) {
            if (taken) {
                final int c = (int) at(p, BP_TAKEN);
                penaltyCycles += c;
                return c;
            }
            return 0;
        }
        final int i = BP_BHT + ((int) (pc >>> 1) & (int) at(p, BP_BHT_MASK));
        final long c = at(p, i);
        final int b = (int) at(p, BP_BTB) + btbIndex(pc, (int) at(p, BP_BTB_ENTRIES));
        final boolean predictedTaken = c >= 2 && at(p, b) == pc;
        if (taken) {
            set(p, i, c == 3 ? 3 : c + 1);
            set(p, b, pc);
            set(p, b + (int) at(p, BP_BTB_ENTRIES), target);
        } else {
            set(p, i, c == 0 ? 0 : c - 1);
        }
        if (predictedTaken != taken) {
            final int m = (int) at(p, BP_MISPREDICT);
            penaltyCycles += m;
            return m;
        }
        return 0;
    }

    /**
     * A jump's lost cycles: without a predictor, the jump penalty; with one, a return pops the RAS
     * (when not empty) and other jumps look the BTB up (and update it); a call pushes its link; a
     * wrong target costs the mispredict penalty.
     *
     * @param pc     the jump's address
     * @param target its target
     * @param call   whether it is a call (rd is x1 or x5)
     * @param ret    whether it is a return (jalr with rd x0 and rs1 x1 or x5)
     * @param link   the return address a call pushes
     * @return cycles lost, at least 0
     */
    int jump(final long pc, final long target, final boolean call, final boolean ret, final long link) {
        final long[] p = bp;
        if (at(p, BP_ON) == 0) {
            final int c = (int) at(p, BP_JUMP);
            penaltyCycles += c;
            return c;
        }
        final int rasBase = (int) at(p, BP_RAS);
        final int rasLength = (int) at(p, BP_RAS_LENGTH);
        boolean hit;
        if (ret && at(p, BP_RAS_COUNT) > 0) {
            final int top = (int) at(p, BP_RAS_TOP);
            hit = at(p, rasBase + top) == target;
            set(p, BP_RAS_TOP, top == 0 ? rasLength - 1 : top - 1);
            set(p, BP_RAS_COUNT, at(p, BP_RAS_COUNT) - 1);
        } else {
            final int entries = (int) at(p, BP_BTB_ENTRIES);
            final int b = (int) at(p, BP_BTB) + btbIndex(pc, entries);
            hit = at(p, b) == pc && at(p, b + entries) == target;
            set(p, b, pc);
            set(p, b + entries, target);
        }
        if (call && at(p, BP_RAS_ENTRIES) > 0) {
            final int top = (int) at(p, BP_RAS_TOP) == rasLength - 1 ? 0 : (int) at(p, BP_RAS_TOP) + 1;
            set(p, BP_RAS_TOP, top);
            set(p, rasBase + top, link);
            if (at(p, BP_RAS_COUNT) < rasLength) {
                set(p, BP_RAS_COUNT, at(p, BP_RAS_COUNT) + 1);
            }
        }
        if (!hit) {
            final int m = (int) at(p, BP_MISPREDICT);
            penaltyCycles += m;
            return m;
        }
        return 0;
    }

    private static int btbIndex(final long pc, final int entries) {
        final long h = ((pc >>> 1) * 0x9E3779B97F4A7C15L) >>> 32;
        return (int) ((h * entries) >>> 32);
    }
}
