package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cycle counts of small programs, derived by hand from {@link CycleModel}'s rules: an
 * instruction issues at max(next free cycle, operands ready); result ready at issue + latency;
 * next issue at issue + occupancy (+ control penalty). Cycle 0 is the first issue; the count
 * reported is the cycle after the final {@code ecall} issued.
 */
class CycleModelTest {
    static final long CODE = 0x1000;
    static final long DATA = 0x10000;
    static final long SLOW = 0x20000;

    /** Halts a hart on ecall. */
    static final Environment HALT_ON_ECALL = new Environment() {
        @Override
        public boolean ecall(final Hart hart) {
            return false;
        }

        @Override
        public boolean toHost(final Hart hart, final long value) {
            return false;
        }
    };

    static Memory memory(final byte[] code) {
        final Memory m = new Memory();
        m.addRegion("code", CODE, 4096, 0);
        m.addRegion("data", DATA, 4096, 0);
        m.addRegion("slow", SLOW, 4096, 20);
        m.write(CODE, code);
        return m;
    }

    /**
     * A 64-bit hart on {@code model} with {@code a}'s code at {@link #CODE}, halting on ecall,
     * pc at {@link #CODE} and s0 pointing at {@link #DATA}; not yet run.
     */
    static Hart ready(final Assembler a, final CycleModel model) {
        final Hart h = new Hart(memory(a.assemble()), 64, model, 0);
        h.setEnvironment(HALT_ON_ECALL);
        h.setSystemCalls(true);
        h.setPc(CODE);
        h.setReg(S0, DATA);
        return h;
    }

    static Hart run(final CycleModel model, final Consumer<Assembler> program) {
        final Assembler a = new Assembler(CODE);
        program.accept(a);
        a.ecall();
        final Hart h = ready(a, model);
        h.run(1_000_000);
        assertEquals(Hart.HaltReason.EXIT, h.haltReason());
        return h;
    }

    /**
     * {@link #run}s {@code program} on {@code model} and checks its total cycles and the stall
     * cycles charged to {@code stalledClass}.
     */
    static Hart runStalled(final CycleModel model, final Consumer<Assembler> program, final long cycles,
                           final TimingClass stalledClass, final long stallCycles) {
        final Hart h = run(model, program);
        assertEquals(cycles, h.cycles());
        assertEquals(stallCycles, h.stallCycles(stalledClass));
        return h;
    }

    @Test
    void loadUsePairStallsForTheLoadLatency() {
        // e31: lw at 0 (a0 ready at 2); addi waits to 2 (1 stall); ecall at 3 -> 4 cycles
        Hart h = run(CycleModel.E31, a -> a.lw(A0, 0, S0).addi(A1, A0, 1));
        assertEquals(4, h.cycles());
        assertEquals(1, h.stallCycles(TimingClass.LOAD));
        // byte loads: result latency 3 -> 2 stalls
        h = run(CycleModel.E31, a -> a.lbu(A0, 0, S0).addi(A1, A0, 1));
        assertEquals(5, h.cycles());
        assertEquals(2, h.stallCycles(TimingClass.LOAD_SUBWORD));
        // no dependency: no stall
        h = run(CycleModel.E31, a -> a.lw(A0, 0, S0).addi(A1, A2, 1));
        assertEquals(3, h.cycles());
        assertEquals(0, h.stallCycles(TimingClass.LOAD));
        // ibex: the load occupies ID/EX 2 cycles (1 stall), its consumer then issues at once
        h = run(CycleModel.IBEX, a -> a.lw(A0, 0, S0).addi(A1, A0, 1));
        assertEquals(4, h.cycles());
        assertEquals(1, h.stallCycles(TimingClass.LOAD));
        // a region with 20 extra cycles: lui at 0; e31 lw at 1, result at 1 + 2 + 20 = 23; consumer
        // at 23 (21 stalls); ecall 24 -> 25
        h = run(CycleModel.E31, a -> a.lui(S0, (int) (SLOW >> 12)).lw(A0, 0, S0).addi(A1, A0, 1));
        assertEquals(25, h.cycles());
        assertEquals(21, h.stallCycles(TimingClass.LOAD));
        assertEquals(4, h.instret());
    }

    @Test
    void takenAndNotTakenBranches() {
        // 20 iterations: addi a0,10 ; loop: addi a0,-1 ; bne a0,zero,loop ; ecall -> 42 instructions.
        // e31 BHT (2-bit counters from 0) + BTB: mispredicts on iterations 1, 2 (counter 0, 1) and
        // the final fall-through (counter 3) -> 3 x 3 = 9 penalty cycles -> 51 cycles
        final Consumer<Assembler> loop = a -> a.addi(A0, ZERO, 20).label("loop").addi(A0, A0, -1).bne(A0, ZERO, "loop");
        Hart h = run(CycleModel.E31, loop);
        assertEquals(42, h.instret());
        assertEquals(9, h.controlPenaltyCycles());
        assertEquals(51, h.cycles());
        // ibex: no predictor, every taken branch costs 1 -> 19 -> 61 cycles
        h = run(CycleModel.IBEX, loop);
        assertEquals(19, h.controlPenaltyCycles());
        assertEquals(61, h.cycles());
        // a not-taken branch costs nothing on either model: addi, beq (not taken), ecall -> 3
        final Consumer<Assembler> notTaken = a -> a.addi(A0, ZERO, 1).beq(A0, ZERO, "out").label("out");
        assertEquals(3, run(CycleModel.E31, notTaken).cycles());
        assertEquals(3, run(CycleModel.IBEX, notTaken).cycles());
        // a jump: e31 BTB miss on first sight = 3; ibex jump penalty 1
        final Consumer<Assembler> jump = a -> a.jal(ZERO, "there").addi(A0, ZERO, 1).label("there");
        assertEquals(2 + 3, run(CycleModel.E31, jump).cycles());
        assertEquals(2 + 1, run(CycleModel.IBEX, jump).cycles());
    }

    @Test
    void multiplyLatencies() {
        final Consumer<Assembler> mul = a -> a.addi(A0, ZERO, 7).addi(A1, ZERO, 6).mul(A2, A0, A1).addi(A3, A2, 1);
        // e31: mul at 2, result at 7 (latency 5); addi at 7; ecall 8 -> 9; 4 stall cycles
        assertEquals(43, runStalled(CycleModel.E31, mul, 9, TimingClass.MUL, 4).reg(A3));
        // ibex: mul occupies 3 cycles (2 stalls): addi at 5, ecall 6 -> 7
        runStalled(CycleModel.IBEX, mul, 7, TimingClass.MUL, 2);
        // ibex mulh: 3 stalls -> 8
        runStalled(CycleModel.IBEX, a -> a.addi(A0, ZERO, 7).addi(A1, ZERO, 6).mulh(A2, A0, A1).addi(A3, A2, 1), 8,
            TimingClass.MULH, 3);
    }

    @Test
    void divideLatencies() {
        // e31, data dependent: 1000 / 3 -> quotient bits = nlz(3) - nlz(1000) + 1 = 62 - 54 + 1 = 9,
        // latency 9 + 1 = 10: div at 2, result at 12, addi at 12, ecall 13 -> 14 cycles, 9 stalls
        final Consumer<Assembler> div = a -> a.addi(A0, ZERO, 1000).addi(A1, ZERO, 3).div(A2, A0, A1).addi(A3, A2, 1);
        assertEquals(334, runStalled(CycleModel.E31, div, 14, TimingClass.DIV, 9).reg(A3));
        // divide by zero ends early: div at 1, latency 2, addi at 3, ecall 4 -> 5 cycles; result -1 (Volume I §7.2)
        final Hart h = run(CycleModel.E31, a -> a.addi(A0, ZERO, 1000).div(A2, A0, ZERO).addi(A3, A2, 1));
        assertEquals(0, h.reg(A3));
        assertEquals(5, h.cycles());
        // ibex: 37 stall cycles whatever the operands: div at 2, next at 40, ecall 41 -> 42
        runStalled(CycleModel.IBEX, div, 42, TimingClass.DIV, 37);
        assertEquals(2, Alu.divCycles(Isa.DIVU, 5, 7));
        assertEquals(65, Alu.divCycles(Isa.DIVU, -1L, 1));
        assertEquals(33, Alu.divCycles(Isa.DIVUW, 0xffffffffL, 1));
    }

    @Test
    void aHaltedHartResumesWithItsCountersKept() {
        // handler: a0 += 1; ecall (halts). Run it three times as an emulator would, one event each.
        final Assembler a = new Assembler(CODE).label("h").addi(A0, A0, 1).ecall();
        final Hart h = new Hart(memory(a.assemble()), 32, CycleModel.E31, 0);
        h.setEnvironment(HALT_ON_ECALL);
        h.setSystemCalls(true);
        for (int i = 0; i < 3; i++) {
            h.setPc(CODE);
            h.resume();
            h.run(1_000);
            assertEquals(Hart.HaltReason.EXIT, h.haltReason());
        }
        assertEquals(3, h.reg(A0));
        assertEquals(6, h.instret());
        assertEquals(6, h.cycles());
    }

    @Test
    void regionLatencyDecidedPerAccessByACallback() {
        // a one-line "context cache": the first access to a 64-byte line misses (30 cycles), later ones hit (0)
        final java.util.Set<Long> lines = new java.util.HashSet<>();
        final java.util.List<Long> seen = new java.util.ArrayList<>();
        final Memory m = new Memory();
        m.addRegion("code", CODE, 4096, 0);
        m.addRegion("context", SLOW, 4096, (address, size, store, cycle) -> {
            seen.add(address);
            return lines.add(address >>> 6) ? 30 : 0;
        });
        final Assembler a = new Assembler(CODE).lw(A0, 0, S0).addi(A1, A0, 1).lw(A2, 4, S0).addi(A3, A2, 1).ecall();
        m.write(CODE, a.assemble());
        m.store(SLOW + 4, 4, 41);
        final Hart h = new Hart(m, 32, CycleModel.E31, 0);
        h.setEnvironment(HALT_ON_ECALL);
        h.setSystemCalls(true);
        h.setPc(CODE);
        h.setReg(S0, SLOW);
        h.run(100);
        // lw at 0, miss: ready 2 + 30 = 32; addi at 32; lw at 33, hit: ready 35; addi at 35; ecall 36 -> 37
        assertEquals(37, h.cycles());
        assertEquals(32, h.stallCycles(TimingClass.LOAD));
        assertEquals(java.util.List.of(SLOW, SLOW + 4), seen);
        assertEquals(42, h.reg(A3));
    }

    @Test
    void twoThreadsHideOneThreadsMemoryMiss() {
        // thread 0: lw from the slow region (result 2 + 20 = 22 cycles after issue), a dependent addi, ecall
        // thread 1: six independent addi and an ecall
        final Assembler a = new Assembler(CODE);
        a.label("t0").lw(A0, 0, S0).addi(A0, A0, 1).ecall();
        a.label("t1");
        for (int i = 0; i < 6; i++) {
            a.addi(A1, A1, 1);
        }
        a.ecall();
        final byte[] code = a.assemble();
        // alone, each on its own single-thread core: 24 and 7 cycles (31 in sequence)
        final Core alone0 = core(code, 1, a.address("t0"), -1);
        alone0.run(100);
        assertEquals(24, alone0.cycles());
        final Core alone1 = core(code, 1, a.address("t1"), -1);
        alone1.run(100);
        assertEquals(7, alone1.cycles());
        // interleaved: cycle 0 t0 lw; 1 t1; 2 t0 cannot issue (a0 at 22) -> t1; t1 issues at 2..7
        // (ecall at 7); idle 8..21; t0 addi at 22, ecall at 23 -> 24 cycles: t1's work is hidden
        final Core both = core(code, 2, a.address("t0"), a.address("t1"));
        both.run(100);
        assertEquals(24, both.cycles());
        assertEquals(14, both.idleCycles());
        assertEquals(10, both.instret());
        assertEquals(6, both.thread(1).reg(A1));
        assertEquals(0x1234_5678 + 1, both.thread(0).reg(A0));
    }

    private static Core core(final byte[] code, final int threads, final long pc0, final long pc1) {
        final Memory m = memory(code);
        m.store(SLOW, 4, 0x1234_5678);
        final Core c = new Core(m, 64, CycleModel.E31, threads);
        for (int i = 0; i < threads; i++) {
            final Hart h = c.thread(i);
            h.setEnvironment(HALT_ON_ECALL);
            h.setSystemCalls(true);
            h.setPc(i == 0 ? pc0 : pc1);
            h.setReg(S0, SLOW);
        }
        return c;
    }

    /**
     * A model whose classes all have result latency 1 (so no operand ever waits) and distinct
     * occupancies, {@code ordinal + 2} (ALU 2 ... SYSTEM 15); no predictor, taken branches and
     * jumps (and trap entries) cost 1.
     */
    static CycleModel distinctOccupancies() {
        final Map<TimingClass, Integer> occupancy = new EnumMap<>(TimingClass.class);
        for (final TimingClass c : TimingClass.values()) {
            occupancy.put(c, c.ordinal() + 2);
        }
        return new CycleModel("distinct", "test", Map.of(), occupancy, false, CycleModel.Predictor.NOT_TAKEN,
            0, 1, 1, 0, 0, 0).withExtensions(java.util.EnumSet.allOf(Isa.Extension.class));
    }

    @Test
    void everyClassIsChargedItsOwnOccupancy() {
        // one or two instructions of each of the 14 classes; the ebreak at the end is fatal (system
        // calls on), so it issues but does not retire
        final Assembler a = new Assembler(CODE);
        a.addi(A0, ZERO, 5).lui(A1, 1)                 // ALU x2
            .beq(A0, ZERO, "t1")                           // BRANCH, not taken
            .label("t1").bne(A0, ZERO, "t2")               // BRANCH, taken: +1
            .label("t2").jal(RA, "f")                      // JAL: +1
            .ld(A2, 0, S0)                                 // LOAD
            .lbu(A3, 0, S0)                                // LOAD_SUBWORD
            .sd(A0, 8, S0)                                 // STORE
            .mul(A4, A0, A0)                               // MUL
            .mulh(A5, A0, A0)                              // MULH
            .div(A6, A0, A0)                               // DIV
            .csrr(A7, 0x340)                               // CSR (mscratch)
            .word(0x00b4_22af)                             // AMO: amoadd.w t0, a1, (s0)
            .fence()                                       // FENCE
            .ebreak()                                      // SYSTEM, fatal: +1 trap redirect
            .label("f").ret();                             // JALR: +1
        final Hart h = ready(a, distinctOccupancies());
        h.run(1_000);
        assertEquals(Hart.HaltReason.FAULT, h.haltReason());
        assertEquals(Hart.CAUSE_BREAKPOINT, h.fault().cause());
        assertEquals(15, h.instret());
        final Map<TimingClass, Integer> issues = new EnumMap<>(TimingClass.class);
        for (final TimingClass c : TimingClass.values()) {
            issues.put(c, 1);
        }
        issues.put(TimingClass.ALU, 2);
        issues.put(TimingClass.BRANCH, 2);
        long occupancyCycles = 0;
        for (final TimingClass c : TimingClass.values()) {
            final int occupancy = c.ordinal() + 2;
            assertEquals((long) issues.get(c), h.issues(c), c.name());
            assertEquals(issues.get(c) * (occupancy - 1L), h.stallCycles(c), c.name());
            occupancyCycles += issues.get(c) * (long) occupancy;
        }
        // taken bne, jal, ret, the trap entry
        assertEquals(4, h.controlPenaltyCycles());
        // 2*2 + 2*3 + 4 + 5 + ... + 15 = 124 issue cycles, + 4 = 128
        assertEquals(124, occupancyCycles);
        assertEquals(128, h.cycles());
    }
}
