package dev.nicsim.riscv;

import static dev.nicsim.riscv.Assembler.A0;
import static dev.nicsim.riscv.Assembler.A1;
import static dev.nicsim.riscv.Assembler.S0;
import static dev.nicsim.riscv.CycleModelTest.CODE;
import static dev.nicsim.riscv.CycleModelTest.DATA;
import static dev.nicsim.riscv.CycleModelTest.HALT_ON_ECALL;
import static dev.nicsim.riscv.CycleModelTest.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Two hardware threads sharing one issue slot, issue slot by issue slot, under both issue
 * policies ({@link Core.IssuePolicy}), and the {@code bf3-dpa} hierarchy seen by two threads
 * (each its own L1D, a shared L2). Every expected number is derived by hand in the comments.
 */
class CoreIssuePolicyTest {
    /**
     * Thread 0: {@code ld a0, 0(s0)} from the slow region (E31 load latency 2 + 20 extra: the
     * value is ready at cycle 22), {@code addi a0, a0, 1} (waits for it), {@code ecall}.
     * Thread 1: three {@code addi a1, a1, 1} and {@code ecall}.
     */
    private static Core twoThreads(final Core.IssuePolicy policy) {
        final Assembler a = new Assembler(CODE);
        a.label("t0").ld(A0, 0, S0).addi(A0, A0, 1).ecall();
        a.label("t1").addi(A1, A1, 1).addi(A1, A1, 1).addi(A1, A1, 1).ecall();
        final byte[] code = a.assemble();
        final Memory m = CycleModelTest.memory(code);
        final Core c = new Core(m, 64, CycleModel.E31, 2, policy);
        for (int i = 0; i < 2; i++) {
            final Hart h = c.thread(i);
            h.setEnvironment(HALT_ON_ECALL);
            h.setSystemCalls(true);
            h.setPc(a.address(i == 0 ? "t0" : "t1"));
            h.setReg(S0, SLOW);
        }
        return c;
    }

    /**
     * Runs one more instruction at a time and records, per retired instruction, the thread that
     * issued it and its issue cycle (the core's cycle after it minus one).
     */
    private static String slots(final Core c, final int instructions) {
        final StringBuilder b = new StringBuilder();
        long t0 = 0;
        for (int k = 1; k <= instructions; k++) {
            c.run(k);
            final int who = c.thread(0).instret() > t0 ? 0 : 1;
            t0 = c.thread(0).instret();
            b.append('t').append(who).append('@').append(c.cycles() - 1).append(' ');
        }
        return b.toString().trim();
    }

    /**
     * Runs {@link #twoThreads} under {@code policy} to the end of its 7 instructions and checks the
     * issue slots ({@link #slots}), the core's cycles, its idle cycles and the 7 retired instructions.
     */
    private static Core runSevenSlots(final Core.IssuePolicy policy, final String expectedSlots, final long cycles,
                                      final long idleCycles) {
        final Core c = twoThreads(policy);
        assertEquals(expectedSlots, slots(c, 7));
        assertEquals(cycles, c.cycles());
        assertEquals(idleCycles, c.idleCycles());
        assertEquals(7, c.instret());
        return c;
    }

    @Test
    void fineGrainedGivesAStalledThreadsSlotsToTheOther() {
        // cycle 0: t0 ld (a0 ready at 22). 1: round robin after t0 -> t1 addi. 2: t0 is next but
        // waits for a0 (it yields: 20 stall cycles charged to LOAD) -> t1 addi. 3: t1 addi.
        // 4: t1 ecall (t1 done). 5..21: nobody can issue (17 idle cycles). 22: t0 addi.
        // 23: t0 ecall. The core took 24 cycles; alone t0 takes 24 and t1 4: t1 is hidden.
        final Core c = runSevenSlots(Core.IssuePolicy.FINE_GRAINED, "t0@0 t1@1 t1@2 t1@3 t1@4 t0@22 t0@23", 24, 17);
        assertEquals(20, c.thread(0).stallCycles(TimingClass.LOAD));
        assertEquals(3, c.thread(1).reg(A1));
        // never more than one instruction per cycle
        assertTrue(c.instret() <= c.cycles());
    }

    @Test
    void barrelLosesTheSlotsOfAThreadThatCannotIssue() {
        // slots alternate t0, t1, t0, ... by cycle parity. 0: t0 ld. 1: t1 addi. 2: t0's slot,
        // it waits for a0 -> lost. 3: t1 addi. 4: lost. 5: t1 addi. 6: lost. 7: t1 ecall.
        // 8..21: t0 waits, t1 halted: lost. 22 (even): t0 addi. 23: t1's slot, halted: lost.
        // 24: t0 ecall -> 25 cycles, 7 instructions, 18 lost slots.
        runSevenSlots(Core.IssuePolicy.BARREL, "t0@0 t1@1 t1@3 t1@5 t1@7 t0@22 t0@24", 25, 18);
    }

    @Test
    void runUntilHaltReturnsTheThreadThatFinished() {
        // fine-grained as above: t1 halts first (its ecall at cycle 4, core cycle 5), then t0 (24)
        final Core c = twoThreads(Core.IssuePolicy.FINE_GRAINED);
        assertEquals(1, c.runUntilHalt(100));
        assertEquals(5, c.cycles());
        assertEquals(0, c.runUntilHalt(100));
        assertEquals(24, c.cycles());
        assertEquals(-1, c.runUntilHalt(100));
    }

    @Test
    void eachThreadHasItsOwnL1dAndSharesTheL2() {
        // bf3-dpa: L1D hit 18, L2 56, LLC 174, DRAM 540. Both threads load the same line. 0: t0 ld
        // misses everything -> DRAM, ready at 540 (the line is now in t0's L1D, the L2 and the
        // LLC). 1: t1 ld misses its own L1D and hits the L2 -> ready at 1 + 56 = 57. 2: t0 waits
        // (yields), t1 waits -> idle to 57. 57: t1 addi. 58: t1 ecall (t1 done: 59 cycles).
        // idle to 540. 540: t0 addi. 541: t0 ecall -> 542 cycles.
        final CycleModel dpa = CycleModel.bf3Dpa();
        final MemoryHierarchy h = new MemoryHierarchy(dpa.memory(), 1, 2);
        final Assembler a = new Assembler(CODE);
        a.ld(A0, 0, S0).addi(A0, A0, 1).ecall();
        final Memory m = new Memory();
        m.addRegion("code", CODE, 4096, 0);
        m.addRegion("data", DATA, 4096, h);
        m.write(CODE, a.assemble());
        final Core c = new Core(m, 64, dpa, 2);
        c.attach(h, 0);
        for (int i = 0; i < 2; i++) {
            c.thread(i).setEnvironment(HALT_ON_ECALL);
            c.thread(i).setSystemCalls(true);
            c.thread(i).setPc(CODE);
            c.thread(i).setReg(S0, DATA);
        }
        assertEquals(1, c.runUntilHalt(100));
        assertEquals(59, c.cycles());
        assertEquals(0, c.runUntilHalt(100));
        assertEquals(542, c.cycles());
        assertEquals(1, h.servedLoads(0, 0, MemoryHierarchy.DRAM));
        assertEquals(1, h.servedLoads(0, 1, MemoryHierarchy.L2));
        assertEquals(0, h.servedLoads(0, 1, MemoryHierarchy.L1));
    }

    @Test
    void bf3DpaModelStatesTheFactSheetShape() {
        final CycleModel dpa = CycleModel.byName("bf3-dpa");
        assertEquals(16, dpa.cores());
        assertEquals(16, dpa.threadsPerCore());
        assertEquals(1_800_000_000L, dpa.clockHz());
        assertEquals(Core.IssuePolicy.FINE_GRAINED, dpa.issuePolicy());
        assertEquals(1024, dpa.memory().l1d().sizeBytes());
        assertEquals(1536 * 1024, dpa.memory().l2().sizeBytes());
        assertEquals(3 << 20, dpa.memory().llc().sizeBytes());
        assertEquals(18, dpa.latencyCycles(TimingClass.LOAD));
        assertEquals(540, dpa.memory().dramLatencyCycles());
        assertEquals(null, CycleModel.E31.memory());
    }

    @Test
    void badMemoryKeysAreOneLineErrors() throws Exception {
        final java.nio.file.Path f = java.nio.file.Files.createTempFile("model", ".yaml");
        java.nio.file.Files.writeString(f, "name: x\nlatency: {load: 18}\nmemory:\n  l1d: {size_bytes: 1000, ways: 4, line_bytes: 64, latency: 18}\n");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CycleModel.load(f));
        assertTrue(e.getMessage().startsWith(f + ": memory."), e.getMessage());
        java.nio.file.Files.writeString(f, "name: x\nissue_policy: smt\n");
        assertEquals(f + ": issue_policy 'smt' must be 'fine-grained' or 'barrel'",
            assertThrows(IllegalArgumentException.class, () -> CycleModel.load(f)).getMessage());
        assertEquals(f + ": 'memory' must be a mapping", loadError(f, "name: x\nmemory: 3\n"));
        assertTrue(loadError(f, "name: x\nmemory: {l0: 1}\n").startsWith(f + ": unknown key 'memory.l0' (expected one of ["));
        assertEquals(f + ": 'branch' must be a mapping", loadError(f, "name: x\nbranch: [bht]\n"));
        assertTrue(loadError(f, "name: x\nbranch: {predictr: bht}\n")
            .startsWith(f + ": unknown key 'branch.predictr' (expected one of ["));
        java.nio.file.Files.delete(f);
    }

    /** Writes {@code yaml} to {@code f} and returns the one-line error {@link CycleModel#load} throws for it. */
    private static String loadError(final java.nio.file.Path f, final String yaml) throws java.io.IOException {
        java.nio.file.Files.writeString(f, yaml);
        return assertThrows(IllegalArgumentException.class, () -> CycleModel.load(f)).getMessage();
    }
}
