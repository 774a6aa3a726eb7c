package dev.nicsim.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link BranchPredictor} against sequences whose lost cycles are derived by hand from the models'
 * rules ({@link CycleModel}): e31 (SiFive FE310-G000 Manual v2p3 §3.2: BHT of 2-bit counters, BTB,
 * 2-entry RAS, a misprediction costs 3 cycles, correctly predicted control flow nothing) and ibex
 * (no predictor: a taken branch or a jump costs 1 cycle, a not-taken branch nothing).
 */
class BranchPredictorTest {
    private static final long PC = 0x8000_0100L;

    @Test
    void e31CountersPredictTakenFromTheSecondTakenOnwardWithTheBtbHoldingTheBranch() {
        // counter 0, BTB empty: predicted not taken; taken -> 3, counter 1 (BTB now holds pc)
        // counter 1: predicted not taken; taken -> 3, counter 2
        // counter 2 and BTB tag = pc: predicted taken; taken -> 0, counter 3
        // counter 3: predicted taken; not taken -> 3, counter 2
        // counter 2: predicted taken; taken -> 0
        final BranchPredictor p = new BranchPredictor(CycleModel.E31);
        final long target = PC - 0x40;
        assertEquals(3, p.branch(PC, true, target));
        assertEquals(3, p.branch(PC, true, target));
        assertEquals(0, p.branch(PC, true, target));
        assertEquals(3, p.branch(PC, false, PC + 4));
        assertEquals(0, p.branch(PC, true, target));
        assertEquals(9, p.penaltyCycles());
    }

    @Test
    void e31ReturnsPopTheTwoEntryRasAndTheThirdNestedReturnMisses() {
        // three nested calls from three call sites: each a first BTB look-up of its pc, a miss (3
        // each); the 2-entry RAS keeps the last two links. The two inner returns pop them (0 each);
        // the outermost return finds the RAS empty and its pc not in the BTB (3).
        final BranchPredictor p = new BranchPredictor(CycleModel.E31);
        final long[] site = {PC, PC + 0x200, PC + 0x400};
        final long ret = PC + 0x1000;
        for (final long s : site) {
            assertEquals(3, p.jump(s, ret - 0x100, true, false, s + 4));
        }
        assertEquals(0, p.jump(ret, site[2] + 4, false, true, ret + 4));
        assertEquals(0, p.jump(ret, site[1] + 4, false, true, ret + 4));
        assertEquals(3, p.jump(ret, site[0] + 4, false, true, ret + 4));
        assertEquals(12, p.penaltyCycles());
    }

    @Test
    void ibexChargesTakenBranchesAndJumpsItsFixedPenalty() {
        final BranchPredictor p = new BranchPredictor(CycleModel.IBEX);
        assertEquals(1, p.branch(PC, true, PC - 8));
        assertEquals(0, p.branch(PC, false, PC + 4));
        assertEquals(1, p.jump(PC, PC + 0x40, true, false, PC + 4));
        assertEquals(1, p.jump(PC + 0x40, PC + 4, false, true, PC + 0x44));
        assertEquals(3, p.penaltyCycles());
    }
}
