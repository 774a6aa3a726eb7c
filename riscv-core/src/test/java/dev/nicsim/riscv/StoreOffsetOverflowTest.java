package dev.nicsim.riscv;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A store whose address lies 2^63 - 8 bytes above the data region the hart last stored into: its
 * offset {@code o} is positive and {@code o + 8} overflows to a negative number, so a fast-path
 * test written as {@code o + size <= last + 1} took it for an in-region store and indexed the
 * region's array at {@code (int) o = -8} (an internal error). No memory is there, so the store is a
 * store/AMO access fault (RISC-V privileged spec, Volume II, Table 3.6: cause 7, mtval the address),
 * on both engines.
 */
class StoreOffsetOverflowTest {
    private static final long CODE = 0x1000;
    private static final long DATA = 0x10000;

    @ParameterizedTest
    @EnumSource(Hart.Engine.class)
    void aStoreFarAboveTheRegionFaultsInsteadOfOverflowing(final Hart.Engine engine) {
        final Memory mem = new Memory();
        mem.addRegion("code", CODE, 4096, 0);
        mem.addRegion("data", DATA, 4096, 0); // a flat region: stores take the fast path
        final Assembler a = new Assembler(CODE);
        a.sd(T1, 0, S0);          // a store into the data region: the hart's last data region
        a.sd(T1, 0, S1);          // DATA + 2^63 - 8: an 8-byte-aligned address with no memory
        a.addi(A0, ZERO, 1);
        mem.write(CODE, a.assemble());
        final Hart hart = new Hart(mem, 64, CycleModel.E31, 0);
        hart.setEngine(engine);
        hart.dispatch.translateAfter = 1;
        hart.setPc(CODE);
        hart.setReg(S0, DATA);
        final long far = DATA + Long.MAX_VALUE - 7; // offset 0x7FFF_FFFF_FFFF_FFF8 from DATA
        hart.setReg(S1, far);
        hart.setReg(T1, 0x1122334455667788L);
        hart.run(3);
        final Hart.Fault f = hart.fault();
        assertNotNull(f, "the far store must fault");
        assertEquals(Hart.CAUSE_STORE_ACCESS, f.cause(), f.causeName());
        assertEquals(CODE + 4, f.pc());
        assertEquals(far, f.tval());
        assertEquals(0x1122334455667788L, mem.load(DATA, 8), "the first store landed");
    }
}
