package dev.nicsim.riscv;

import static dev.nicsim.riscv.Assembler.T0;
import static dev.nicsim.riscv.Assembler.ZERO;
import static dev.nicsim.riscv.CycleModelTest.CODE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fetch after an instruction-access fault looks its pc up afresh. Privileged spec 3.1.7 and
 * 3.3.1: a fault traps to {@code mtvec}; when the handler's own fetch faults before any
 * instruction retires, the hart stops with the first fault (nicsim's double-fault rule, Hart's
 * class comment). A handler at {@code 0x8000_0000_0000_0000} (an RV64 address with no memory)
 * once fell inside the stale fetch window the interpreter kept after the first fault (window base
 * {@code Long.MIN_VALUE}), so the hart ran the instruction at offset 0 of the page it had left,
 * {@code li t0, 1}, instead of faulting.
 */
class FetchAfterTrapTest {

    @ParameterizedTest
    @ValueSource(strings = {"e31-flat", "bf3-dpa"})
    void aHandlerWithNoMemoryFaultsInsteadOfRunningTheLastPage(final String model) {
        // li t0, 1; slli t0, t0, 63; csrw mtvec, t0; jalr zero, 0(zero): 4 instructions retire,
        // then the fetch at 0 faults (no memory there) and the trap goes to 2^63, which faults too
        final byte[] code = new Assembler(CODE).li(T0, 1).slli(T0, T0, 63).csrw(0x305, T0)
            .jalr(ZERO, ZERO, 0).assemble();
        final Memory m = new Memory();
        final CycleModel cm = CycleModel.bf3Dpa();
        if (model.equals("bf3-dpa")) {
            m.addRegion("code", CODE, 8192, new MemoryHierarchy(cm.memory(), 1, 1));
        } else {
            m.addRegion("code", CODE, 8192, 0);
        }
        m.write(CODE, code);
        final Hart hart = new Hart(m, 64, cm, 0);
        hart.setPc(CODE);
        hart.run(1_000);
        assertEquals(Hart.HaltReason.FAULT, hart.haltReason());
        assertEquals(4, hart.instret());
        assertEquals(new Hart.Fault(0, Hart.CAUSE_FETCH_ACCESS, 0), hart.fault());
        assertEquals(Long.MIN_VALUE, hart.reg(T0)); // not overwritten by a re-run li t0, 1
    }
}
