package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The decoded-instruction cache sees stores to code, even to the second half of an instruction that straddles two pages. */
class SelfModifyingCodeTest {
    static final long B = 0x4000_0000L;

    @Test
    void storeToTheUpperHalfOfAPageStraddlingInstructionIsSeen() {
        final int addi1 = Isa.encI(0x13, 0, A0, A0, 1);
        final int addi16 = Isa.encI(0x13, 0, A0, A0, 16);
        final byte[] tail = new Assembler(B + 4098)
            .sh(T0, 0, T1)          // patch the upper half of the instruction at B + 4094
            .addi(T2, T2, -1)
            .bne(T2, ZERO, "back")  // placeholder label, replaced below
            .label("back")
            .ecall()
            .assemble();
        final Memory m = new Memory();
        m.addRegion("code", B, 16384, 0);
        m.store(B + 4094, 4, addi1);
        m.write(B + 4098, tail);
        m.store(B + 4106, 4, Isa.encB(1, T2, ZERO, -12)); // bne t2, zero, B + 4094
        final Hart h = new Hart(m, 64, CycleModel.E31, 0);
        h.setEnvironment(CycleModelTest.HALT_ON_ECALL);
        h.setSystemCalls(true);
        h.setPc(B + 4094);
        h.setReg(T0, addi16 >>> 16);
        h.setReg(T1, B + 4096);
        h.setReg(T2, 2);
        h.run(100);
        // first pass adds 1, second pass executes the patched instruction and adds 16
        assertEquals(17, h.reg(A0));
        assertEquals(9, h.instret());
    }
}
