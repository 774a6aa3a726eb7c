package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.nicsim.riscv.Assembler.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a misaligned load or store does is the model's stated choice (Volume I §2.6): e31 traps
 * (cause 4 load / 6 store, mtval = the address), ibex and a YAML model with
 * {@code misaligned: extra_cycles} perform it with extra cycles, {@code perform} at no cost.
 */
class MisalignedAccessTest {
    private static final long CODE = 0x1000;
    private static final long DATA = 0x8000;

    private static Hart run(final CycleModel model, final Assembler a, final long steps) {
        final Memory m = new Memory();
        m.addRegion("code", CODE, 4096, 0);
        m.addRegion("data", DATA, 4096, 0);
        m.write(CODE, a.assemble());
        m.store(DATA, 8, 0x0807_0605_0403_0201L);
        final Hart h = new Hart(m, 64, model, 0);
        h.setPc(CODE);
        h.setReg(S0, DATA);
        h.setStopAfterTrap(true);
        h.run(steps);
        return h;
    }

    @Test
    void e31TrapsWithTheAddressInMtval() {
        assertEquals(CycleModel.Misaligned.TRAP, CycleModel.E31.misaligned());
        Hart h = run(CycleModel.E31, new Assembler(CODE).lw(A0, 1, S0), 1);
        assertEquals(0, h.instret());
        assertEquals(Hart.CAUSE_LOAD_MISALIGNED, h.mcause());
        assertEquals(DATA + 1, h.mtval());
        h = run(CycleModel.E31, new Assembler(CODE).sh(A0, 3, S0), 1);
        assertEquals(Hart.CAUSE_STORE_MISALIGNED, h.mcause());
        assertEquals(DATA + 3, h.mtval());
        // aligned, and byte accesses (never misaligned), still work
        h = run(CycleModel.E31, new Assembler(CODE).lw(A0, 4, S0).lbu(A1, 3, S0), 2);
        assertEquals(2, h.instret());
        assertEquals(0x0807_0605L, h.reg(A0));
        assertEquals(0x04, h.reg(A1));
    }

    /**
     * A model with every latency and occupancy 1 and 5 extra cycles per misaligned access:
     * {@code lw a0, 1(s0); addi a1, a0, 1}: the load issues at 0, its result is ready at
     * 0 + 1 + 5 = 6, the addi issues at 6: 7 cycles (aligned: 2). {@code sw a0, 1(s0); addi}: the
     * store occupies 1 + 5 cycles, the addi issues at 6: 7 cycles.
     */
    @Test
    void extraCyclesAreChargedAndTheAccessPerformed() {
        final CycleModel five = new CycleModel("five", "test", Map.of(), Map.of(), false, CycleModel.Predictor.NOT_TAKEN,
            0, 1, 1, 0, 0, 0).withMisaligned(CycleModel.Misaligned.EXTRA_CYCLES, 5);
        Hart h = run(five, new Assembler(CODE).lw(A0, 1, S0).addi(A1, A0, 1), 2);
        assertEquals(2, h.instret());
        assertEquals(0x0504_0302L, h.reg(A0)); // bytes 1..4, little-endian
        assertEquals(7, h.cycles());
        assertEquals(5, h.stallCycles(TimingClass.LOAD)); // the addi waited 5 cycles more for the load
        h = run(five, new Assembler(CODE).lw(A0, 4, S0).addi(A1, A0, 1), 2);
        assertEquals(2, h.cycles());
        h = run(five, new Assembler(CODE).addi(A0, ZERO, -1).sw(A0, 1, S0).addi(A1, A0, 1).ld(A2, 0, S0), 4);
        assertEquals(0x08_07_06_ff_ff_ff_ff_01L, h.reg(A2));
        // addi at 0, sw at 1 occupying 6 cycles, addi at 7, ld at 8: 9 cycles
        assertEquals(9, h.cycles());
        // ibex: 1 extra cycle; lw's occupancy is 2 there (latency = occupancy), so a misaligned lw + addi
        // takes 0 -> load ready at 2 + 1 = 3 -> addi issues at 3: 4 cycles
        assertEquals(CycleModel.Misaligned.EXTRA_CYCLES, CycleModel.IBEX.misaligned());
        assertEquals(1, CycleModel.IBEX.misalignedExtraCycles());
        h = run(CycleModel.IBEX, new Assembler(CODE).lw(A0, 1, S0).addi(A1, A0, 1), 2);
        assertEquals(4, h.cycles());
    }

    @Test
    void yamlStatesTheChoice(@TempDir final Path dir) throws Exception {
        final Path y = dir.resolve("m.yaml");
        Files.writeString(y, "name: m\nmisaligned: extra_cycles\nmisaligned_extra_cycles: 3\n");
        assertEquals(CycleModel.Misaligned.EXTRA_CYCLES, CycleModel.load(y).misaligned());
        assertEquals(3, CycleModel.load(y).misalignedExtraCycles());
        Files.writeString(y, "name: m\nmisaligned: trap\n");
        assertEquals(CycleModel.Misaligned.TRAP, CycleModel.load(y).misaligned());
        Files.writeString(y, "name: m\n");
        assertEquals(CycleModel.Misaligned.PERFORM, CycleModel.load(y).misaligned());
        Files.writeString(y, "name: m\nmisaligned: sometimes\n");
        assertEquals(y + ": misaligned = 'sometimes' must be perform, trap or extra_cycles",
            assertThrows(IllegalArgumentException.class, () -> CycleModel.load(y)).getMessage());
        Files.writeString(y, "name: m\nmisaligned: extra_cycles\n");
        assertEquals(y + ": misaligned: extra_cycles needs misaligned_extra_cycles (1 to 10000)",
            assertThrows(IllegalArgumentException.class, () -> CycleModel.load(y)).getMessage());
        Files.writeString(y, "name: m\nmisaligned: trap\nmisaligned_extra_cycles: 2\n");
        assertEquals(y + ": misaligned_extra_cycles is given but misaligned is not extra_cycles",
            assertThrows(IllegalArgumentException.class, () -> CycleModel.load(y)).getMessage());
    }
}
