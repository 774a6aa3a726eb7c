package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults as documented, and bad values rejected with the field named. */
class EmulatorConfigTest {

    @Test
    void defaults() {
        final EmulatorConfig c = new EmulatorConfig().validate();
        assertEquals(16, c.cores()); // BlueField-3 class, the DOCA PCC device model
        assertEquals(16, c.threadsPerCore());
        assertEquals(1_000_000_000L, c.clockHz());
        assertEquals(256, c.ringCapacity());
        assertEquals(192, c.effectiveOverloadHighWaterMark()); // 256 x 3 / 4
        assertTrue(c.coalescing());
        assertEquals(EmulatorConfig.DEFAULT, c.handlerCyclesOverride(PccEventType.ACK));
    }

    private static void rejects(final String field, final EmulatorConfig c) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::validate);
        assertTrue(e.getMessage().startsWith(field + " must be"), e.getMessage());
    }

    @Test
    void badValuesNameTheirField() {
        rejects("cores", new EmulatorConfig().cores(0));
        rejects("threadsPerCore", new EmulatorConfig().threadsPerCore(0));
        rejects("clockHz", new EmulatorConfig().clockHz(999));
        rejects("ringCapacity", new EmulatorConfig().ringCapacity(0));
        rejects("contextCacheEntries", new EmulatorConfig().contextCacheEntries(-1));
        rejects("dispatchCycles", new EmulatorConfig().dispatchCycles(-1));
        rejects("contextHitCycles", new EmulatorConfig().contextHitCycles(1_000_001));
        rejects("contextMissCycles", new EmulatorConfig().contextMissCycles(-5));
        rejects("writeBackCycles", new EmulatorConfig().writeBackCycles(-1));
        rejects("overloadHighWaterMark", new EmulatorConfig().ringCapacity(8).overloadHighWaterMark(9));
        rejects("handlerCycles[cnp]", new EmulatorConfig().handlerCycles(PccEventType.CNP, -2));
        assertThrows(IllegalArgumentException.class, () -> new EmulatorConfig().handlerCycles(6, 1));
    }

    @Test
    void theEmulatorValidatesACopy() {
        final EmulatorConfig c = new EmulatorConfig().cores(2);
        final UnicEmulator e = new UnicEmulator(c, () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0, (q, r, t, y) -> { });
        c.cores(7); // later changes do not reach the emulator
        assertEquals(2, e.cores());
        assertThrows(IllegalArgumentException.class,
            () -> new UnicEmulator(new EmulatorConfig().cores(0), () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0,
                (q, r, t, y) -> { }));
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> new UnicEmulator(new EmulatorConfig(), () -> new RecordingAlgorithm(1, -1, 1, 1, 1, 1), 0,
                (q, r, t, y) -> { }));
        assertTrue(bad.getMessage().contains("handlerCycles[ack]"), bad.getMessage());
    }
}
