package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the hardware threads of a {@link Core} keep apart and what they share: each reads its
 * own {@code instret} (and {@code cycle} on the core's clock, as it issues), and a store by one
 * thread, or by a hart of another core on the same memory, to bytes another thread reserved with
 * LR makes that thread's SC fail (Volume I §8.2); a store elsewhere does not.
 */
class HardwareThreadTest {
    private static final long CODE0 = 0x1000;
    private static final long CODE1 = 0x1400;
    private static final long DATA = 0x8000;

    private static Memory memory(final Assembler thread0, final Assembler thread1) {
        final Memory m = new Memory();
        m.addRegion("code", 0x1000, 4096, 0);
        m.addRegion("data", DATA, 4096, 0);
        m.write(CODE0, thread0.assemble());
        m.write(CODE1, thread1.assemble());
        return m;
    }

    private static Core core(final Memory m) {
        final Core c = new Core(m, 64, CycleModel.E31, 2);
        c.thread(0).setPc(CODE0);
        c.thread(1).setPc(CODE1);
        for (int i = 0; i < 2; i++) {
            c.thread(i).setReg(A0, DATA);
            c.thread(i).setReg(A1, 100 + i);
        }
        return c;
    }

    /**
     * Round robin, one issue per cycle, every instruction ready (e31: ALU and CSR reads issue
     * every cycle; nothing waits on an operand): cycle 0 t0 addi, 1 t1 addi, 2 t0 addi, 3 t1
     * {@code rdcycle} = 3, 4 t0 {@code rdcycle} = 4, 5 t1 {@code rdinstret} = 2 (its addi and
     * rdcycle retired before it), 6 t0 {@code rdinstret} = 3. A core-wide instret would read 5 and 6.
     */
    @Test
    void eachThreadReadsItsOwnInstretAndTheCoreClock() {
        final Assembler t0 = new Assembler(CODE0).addi(T2, ZERO, 1).addi(T2, ZERO, 2).csrr(A2, 0xc00).csrr(A3, 0xc02);
        final Assembler t1 = new Assembler(CODE1).addi(T2, ZERO, 1).csrr(A2, 0xc00).csrr(A3, 0xc02);
        final Core c = core(memory(t0, t1));
        c.run(7);
        assertEquals(7, c.instret());
        assertEquals(4, c.thread(0).reg(A2));
        assertEquals(3, c.thread(0).reg(A3));
        assertEquals(3, c.thread(1).reg(A2));
        assertEquals(2, c.thread(1).reg(A3));
        assertEquals(4, c.thread(0).instret());
        assertEquals(3, c.thread(1).instret());
    }

    /** Thread 0: lr.w a2, (a0); three addi; sc.w a3, a1, (a0). Thread 1 stores between them. */
    private static Core lrScAgainst(final Assembler thread1) {
        final Assembler t0 = new Assembler(CODE0).word(LrScTest.amo(0b00010, A2, A0, ZERO))
            .addi(T2, ZERO, 1).addi(T2, ZERO, 2).addi(T2, ZERO, 3)
            .word(LrScTest.amo(0b00011, A3, A0, A1)).label("spin").jal(ZERO, "spin");
        final Core c = core(memory(t0, thread1.label("spin").jal(ZERO, "spin")));
        c.run(12);
        return c;
    }

    @Test
    void aStoreByAnotherThreadBreaksTheReservation() {
        // t0 lr at cycle 0, t1 sw at cycle 1: t0's sc (its 5th instruction) fails, memory keeps t1's 101
        Core c = lrScAgainst(new Assembler(CODE1).sw(A1, 0, A0));
        assertEquals(1, c.thread(0).reg(A3));
        assertEquals(101, c.thread(0).memory().load(DATA, 4));
        // a byte store into the same 8-byte granule breaks it too
        c = lrScAgainst(new Assembler(CODE1).sb(A1, 5, A0));
        assertEquals(1, c.thread(0).reg(A3));
        // a store to another granule does not: the sc succeeds and stores t0's 100
        c = lrScAgainst(new Assembler(CODE1).sw(A1, 8, A0));
        assertEquals(0, c.thread(0).reg(A3));
        assertEquals(100, c.thread(0).memory().load(DATA, 4));
        // nor does no store at all
        c = lrScAgainst(new Assembler(CODE1).addi(T2, ZERO, 1));
        assertEquals(0, c.thread(0).reg(A3));
    }

    @Test
    void aStoreByAHartOfAnotherCoreBreaksTheReservation() {
        final Memory m = memory(new Assembler(CODE0).word(LrScTest.amo(0b00010, A2, A0, ZERO)).word(LrScTest.amo(0b00011, A3, A0, A1)),
            new Assembler(CODE1).word(LrScTest.amo(0b00000, A4, A0, A1))); // amoadd.w a4, a1, (a0)
        final Hart a = new Hart(m, 64, CycleModel.E31, 0);
        final Hart b = new Hart(m, 64, CycleModel.E31, 0);
        a.setPc(CODE0);
        b.setPc(CODE1);
        for (final Hart h : new Hart[] {a, b}) {
            h.setReg(A0, DATA);
            h.setReg(A1, 5);
        }
        a.run(1);     // lr.w
        a.setReg(A1, 9); // what a successful sc would store
        b.run(1);     // amoadd.w: adds 5 to the reserved word, a store to it
        a.run(2);     // sc.w fails
        assertEquals(1, a.reg(A3));
        assertEquals(5, m.load(DATA, 4));
    }
}
