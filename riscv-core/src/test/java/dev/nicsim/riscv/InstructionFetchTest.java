package dev.nicsim.riscv;

import static dev.nicsim.riscv.Assembler.RA;
import static dev.nicsim.riscv.Assembler.S1;
import static dev.nicsim.riscv.Assembler.ZERO;
import static dev.nicsim.riscv.CycleModelTest.CODE;
import static dev.nicsim.riscv.CycleModelTest.HALT_ON_ECALL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Instruction fetch through the {@code bf3-dpa} L1I (1 KiB per core, 4 ways, 64-byte lines, so 4
 * sets; a hit costs nothing, a miss the serving level's latency minus the L1I hit's 1 cycle: L2
 * 56 - 1 = 55, DRAM 540 - 1 = 539). The hart looks a line up only when its pc enters a line other
 * than its last fetch's. Every expected number is derived by hand in the comments; each run is
 * compared with the same program and model on flat (untimed) memory, which charges no fetch.
 */
class InstructionFetchTest {
    private static final int DRAM_MISS = 540 - 1;
    private static final int L2_MISS = 56 - 1;

    /**
     * Line 0 (0x1000): {@code li s1, passes} and 15 nops. Lines 1 .. loopLines: the loop, all
     * nops but its last two instructions {@code addi s1, s1, -1; bne s1, zero, loop}. Then an
     * {@code ecall} at the start of the next line. ALU only, so nothing but fetch differs between
     * the timed and the flat run.
     */
    private static byte[] program(final int loopLines, final int passes) {
        final Assembler a = new Assembler(CODE);
        a.addi(S1, ZERO, passes);
        for (int i = 1; i < 16; i++) {
            a.addi(ZERO, ZERO, 0);
        }
        a.label("loop");
        for (int i = 0; i < loopLines * 16 - 2; i++) {
            a.addi(ZERO, ZERO, 0);
        }
        a.addi(S1, S1, -1).bne(S1, ZERO, "loop");
        a.ecall();
        return a.assemble();
    }

    /** Runs the program to its ecall; with {@code h} the code region is timed by it. */
    private static Hart run(final byte[] code, final MemoryHierarchy h) {
        final Memory m = new Memory();
        if (h == null) {
            m.addRegion("code", CODE, 8192, 0);
        } else {
            m.addRegion("code", CODE, 8192, h);
        }
        m.write(CODE, code);
        final Hart hart = new Hart(m, 64, CycleModel.bf3Dpa(), 0);
        hart.setEnvironment(HALT_ON_ECALL);
        hart.setSystemCalls(true);
        hart.setPc(CODE);
        hart.run(1_000_000);
        assertEquals(Hart.HaltReason.EXIT, hart.haltReason());
        return hart;
    }

    @Test
    void aLoopThatFitsInTheL1iMissesOnlyOnItsFirstPass() {
        // 4 loop lines (256 B) in a 1 KiB L1I: lines 0..5 fall in sets 0,1,2,3,0,1, at most 2 per
        // set of 4 ways, so nothing is evicted. Cold misses, all from DRAM: line 0, the 4 loop
        // lines on the first pass, the ecall's line 5 = 6 x 539 = 3234 cycles. Passes 2..10 enter
        // the 4 loop lines again: 9 x 4 = 36 L1I hits, no cycles.
        final int passes = 10;
        final byte[] code = program(4, passes);
        final MemoryHierarchy h = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
        final Hart timed = run(code, h);
        final Hart flat = run(code, null);
        assertEquals(6, h.servedFetches(0, MemoryHierarchy.DRAM));
        assertEquals(0, h.servedFetches(0, MemoryHierarchy.L2));
        assertEquals(36, h.servedFetches(0, MemoryHierarchy.L1));
        assertEquals(6L * DRAM_MISS, timed.fetchStallCycles());
        assertEquals(flat.instret(), timed.instret());
        assertEquals(flat.cycles() + 6L * DRAM_MISS, timed.cycles());
        assertEquals(0, flat.fetchStallCycles());
    }

    @Test
    void codeLargerThanTheL1iMissesOnEveryLineOfEveryPass() {
        // 32 loop lines (2 KiB) in a 1 KiB L1I: each of the 4 sets sees 8 loop lines in turn, so
        // with 4 ways and LRU every entry misses. Pass 1: 32 misses from DRAM, plus line 0 and
        // the ecall's line 33 (34 x 539 = 18326). Passes 2..5: 4 x 32 = 128 misses served by the
        // L2, which holds all 34 lines (128 x 55 = 7040). No L1I hit. Total 25366 cycles.
        final int passes = 5;
        final byte[] code = program(32, passes);
        final MemoryHierarchy h = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
        final Hart timed = run(code, h);
        final Hart flat = run(code, null);
        assertEquals(34, h.servedFetches(0, MemoryHierarchy.DRAM));
        assertEquals(128, h.servedFetches(0, MemoryHierarchy.L2));
        assertEquals(0, h.servedFetches(0, MemoryHierarchy.L1));
        final long expected = 34L * DRAM_MISS + 128L * L2_MISS;
        assertEquals(25366, expected);
        assertEquals(expected, timed.fetchStallCycles());
        assertEquals(flat.cycles() + expected, timed.cycles());
    }

    @Test
    void threadsOfOneCoreShareItsL1iAndAMissGivesTheSlotAway() {
        // Two threads of one core run the 4-line loop from the same pc. Fine-grained: cycle 0 t0
        // enters line 0, a DRAM miss (tags fill on lookup), and yields until 539; t1 takes cycle 0,
        // enters line 0: a hit, and issues line 0's 16 instructions in cycles 0..15; at 16 it enters
        // loop line 1 and misses (ready at 555); the core idles from 16 to 539. Whatever the
        // interleaving after that, the core fetches each of the 6 lines from DRAM once (the
        // shared L1I holds all of them), and every other line entry of either thread is an L1I
        // hit: per thread 1 + 4 + 9 x 4 + 1 = 42 entries, 84 in all, so 84 - 6 = 78 hits.
        final CycleModel dpa = CycleModel.bf3Dpa();
        final MemoryHierarchy h = new MemoryHierarchy(dpa.memory(), 1, 2);
        final Memory m = new Memory();
        m.addRegion("code", CODE, 8192, h);
        m.write(CODE, program(4, 10));
        final Core c = new Core(m, 64, dpa, 2);
        c.attach(h, 0);
        for (int i = 0; i < 2; i++) {
            c.thread(i).setEnvironment(HALT_ON_ECALL);
            c.thread(i).setSystemCalls(true);
            c.thread(i).setPc(CODE);
        }
        c.run(1_000_000);
        assertEquals(6, h.servedFetches(0, MemoryHierarchy.DRAM));
        assertEquals(78, h.servedFetches(0, MemoryHierarchy.L1));
        assertEquals(6L * DRAM_MISS, c.thread(0).fetchStallCycles() + c.thread(1).fetchStallCycles());
        // each thread's fetch stall is whole DRAM misses; t0 had line 0's
        assertEquals(0, c.thread(0).fetchStallCycles() % DRAM_MISS);
        assertEquals(true, c.thread(0).fetchStallCycles() >= DRAM_MISS);
        // the core idled from 16 to 539 at least (both threads waiting on a line)
        assertEquals(true, c.idleCycles() >= DRAM_MISS - 16);
    }

    /** Pads with nops up to {@code CODE + offset}. */
    private static void padTo(final Assembler a, final int offset) {
        while (a.here() < CODE + offset) {
            a.addi(ZERO, ZERO, 0);
        }
    }

    /**
     * A 4-instruction loop that crosses the line boundary at 0x1040: {@code li s1, passes}, 13
     * nops, then at 0x1038 the loop {@code nop; nop;} and in line 1 {@code addi s1, s1, -1;
     * bne s1, zero, loop}, then {@code ecall} at 0x1048 (line 1).
     */
    private static byte[] crossingLoop(final int passes) {
        final Assembler a = new Assembler(CODE);
        a.addi(S1, ZERO, passes);
        padTo(a, 0x38);
        a.label("loop").addi(ZERO, ZERO, 0).addi(ZERO, ZERO, 0);
        a.addi(S1, S1, -1).bne(S1, ZERO, "loop");
        a.ecall();
        return a.assemble();
    }

    /**
     * A loop in line 2 (0x1080) that calls a function in line 6 (0x1180), the same L1I set (line
     * number mod 4 = 2): {@code jal ra, f; addi s1, s1, -1; bne s1, zero, loop; ecall}, and at f
     * {@code ret}. Line 0 holds {@code li s1, passes} and a jump to the loop.
     */
    private static byte[] callingLoop(final int passes) {
        final Assembler a = new Assembler(CODE);
        a.addi(S1, ZERO, passes).jal(ZERO, "loop");
        padTo(a, 0x80);
        a.label("loop").jal(RA, "f").addi(S1, S1, -1).bne(S1, ZERO, "loop");
        a.ecall();
        padTo(a, 0x180);
        a.label("f").ret();
        return a.assemble();
    }

    @Test
    void aLoopAcrossALineBoundaryHitsTheL1iOnEveryEntryAfterTheFirstPass() {
        // Line entries (pc moves into a line other than the one it is in): the start enters line 0
        // (a cold miss from DRAM); pass 1 enters line 1 at 0x1040 (a cold miss from DRAM); every
        // bne taken (passes - 1 times) enters line 0 again and the next pass line 1 again: 2 x
        // (passes - 1) entries into lines the L1I holds, all hits (run() counts them inline as a
        // pair of lines). The ecall at 0x1048 is in line 1: no entry. 1000 passes: 1998 hits.
        final int passes = 1000;
        final byte[] code = crossingLoop(passes);
        final MemoryHierarchy h = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
        final Hart timed = run(code, h);
        final Hart flat = run(code, null);
        assertEquals(2, h.servedFetches(0, MemoryHierarchy.DRAM));
        assertEquals(0, h.servedFetches(0, MemoryHierarchy.L2));
        assertEquals(0, h.servedFetches(0, MemoryHierarchy.LLC));
        assertEquals(1998, h.servedFetches(0, MemoryHierarchy.L1));
        assertEquals(2L * DRAM_MISS, timed.fetchStallCycles());
        assertEquals(1 + 13 + 4L * passes + 1, timed.instret()); // li, 13 nops, the passes, the ecall
        assertEquals(flat.instret(), timed.instret());
        assertEquals(flat.cycles() + 2L * DRAM_MISS, timed.cycles());
        // the L1I's LRU clock ticks once per lookup: 2 misses + 1998 hits
        assertEquals(2000, h.l1i[0].clock);
    }

    @Test
    void aLoopCallingAFunctionInAnotherLineOfTheSameSetHitsOnEveryEntryAfterTheFirstCall() {
        // Entries: the start enters line 0 (DRAM); the jump enters line 2 (DRAM); the first jal
        // enters line 6 (DRAM; set 2 now holds lines 2 and 6 of its 4 ways, nothing is evicted);
        // then each ret enters line 2 (passes entries) and each later jal line 6 (passes - 1):
        // 2 x 500 - 1 = 999 hits. The ecall follows the last bne in line 2: no entry.
        final int passes = 500;
        final byte[] code = callingLoop(passes);
        final MemoryHierarchy h = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
        final Hart timed = run(code, h);
        final Hart flat = run(code, null);
        assertEquals(3, h.servedFetches(0, MemoryHierarchy.DRAM));
        assertEquals(0, h.servedFetches(0, MemoryHierarchy.L2));
        assertEquals(999, h.servedFetches(0, MemoryHierarchy.L1));
        assertEquals(3L * DRAM_MISS, timed.fetchStallCycles());
        assertEquals(2 + 4L * passes + 1, timed.instret()); // li, j, the passes, the ecall
        assertEquals(flat.cycles() + 3L * DRAM_MISS, timed.cycles());
    }

    @Test
    void hitsCountedInlineLeaveTheL1iAsOneLookupPerEntryWould() {
        // The oracle: the same program run one instruction per run() call. Each call starts
        // without a pair of lines, so every line entry is a full fetchWindow lookup (the
        // algorithm before run() counted pair hits inline). Both runs must end with the same L1I
        // tags, LRU stamps and clock, the same counters and the same cycles; after an odd and an
        // even number of inline hits (odd and even pass counts) and for both programs.
        for (final byte[] code : new byte[][] {crossingLoop(7), crossingLoop(8), callingLoop(5), callingLoop(6), program(4, 3)}) {
            final MemoryHierarchy whole = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
            final Hart a = run(code, whole);
            final MemoryHierarchy stepped = new MemoryHierarchy(CycleModel.bf3Dpa().memory(), 1, 1);
            final Memory m = new Memory();
            m.addRegion("code", CODE, 8192, stepped);
            m.write(CODE, code);
            final Hart b = new Hart(m, 64, CycleModel.bf3Dpa(), 0);
            b.setEnvironment(HALT_ON_ECALL);
            b.setSystemCalls(true);
            b.setPc(CODE);
            while (b.haltReason() == Hart.HaltReason.NONE) {
                b.run(b.instret() + 1);
            }
            assertEquals(Hart.HaltReason.EXIT, b.haltReason());
            assertArrayEquals(stepped.l1i[0].tag, whole.l1i[0].tag);
            assertArrayEquals(stepped.l1i[0].stamp, whole.l1i[0].stamp);
            assertEquals(stepped.l1i[0].clock, whole.l1i[0].clock);
            for (int level = 0; level < MemoryHierarchy.LEVELS; level++) {
                assertEquals(stepped.servedFetches(0, level), whole.servedFetches(0, level));
            }
            assertEquals(b.cycles(), a.cycles());
            assertEquals(b.instret(), a.instret());
            assertEquals(b.fetchStallCycles(), a.fetchStallCycles());
        }
    }
}
