package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * LR/SC reservations, unprivileged spec 20191213 §8.2: "Regardless of success or failure,
 * executing an SC instruction invalidates any reservation held by this hart", so an SC that
 * follows a failed SC fails too (found by the QEMU differential tests: QEMU gives 1 and 1).
 */
class LrScTest {
    static final long B = 0x4000_0000L;

    static int amo(final int funct5, final int rd, final int rs1, final int rs2) {
        return funct5 << 27 | rs2 << 20 | rs1 << 15 | 2 << 12 | rd << 7 | 0x2F; // .w, aq = rl = 0
    }

    private static Hart run(final int... body) {
        final Assembler a = new Assembler(B);
        for (final int w : body) {
            a.word(w);
        }
        final Memory m = new Memory();
        m.addRegion("code", B, 4096, 0);
        m.addRegion("data", B + 4096, 4096, 0);
        m.write(B, a.ecall().assemble());
        final Hart h = new Hart(m, 64, CycleModel.E31, 0);
        h.setEnvironment(CycleModelTest.HALT_ON_ECALL);
        h.setSystemCalls(true);
        h.setPc(B);
        h.setReg(A0, B + 4096);
        h.setReg(A1, 7);
        h.run(100);
        return h;
    }

    @Test
    void aFailedScInvalidatesTheReservation() {
        final Hart h = run(
            amo(0b00010, A2, A0, ZERO),          // lr.w a2, (a0)
            Isa.encI(0x13, 0, A5, A0, 4),        // addi a5, a0, 4
            amo(0b00011, A3, A5, A1),            // sc.w a3, a1, (a5): other address, fails
            amo(0b00011, A4, A0, A1));           // sc.w a4, a1, (a0): must fail too
        assertEquals(1, h.reg(A3));
        assertEquals(1, h.reg(A4));
    }

    @Test
    void anScAfterItsLrSucceedsOnceAndStores() {
        final Hart h = run(
            amo(0b00010, A2, A0, ZERO),          // lr.w a2, (a0)
            amo(0b00011, A3, A0, A1),            // sc.w a3, a1, (a0): succeeds, stores 7
            amo(0b00011, A4, A0, A1),            // sc.w a4, a1, (a0): reservation gone, fails
            Isa.encI(0x03, 2, A6, A0, 0));       // lw a6, 0(a0)
        assertEquals(0, h.reg(A3));
        assertEquals(1, h.reg(A4));
        assertEquals(7, h.reg(A6));
    }
}
