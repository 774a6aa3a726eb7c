package dev.nicsim.sw;

import dev.nicsim.sim.RoceFraming;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The switch's XOFF carries 0xFFFF quanta; sim-core's pause duration must not overflow for it
 * (65 535 x 512 x 1e12 > 2^63 - 1). IEEE 802.1Qbb: one quantum = 512 bit times.
 */
class PauseDurationTest {
    @Test
    void maximumQuantaAtDataCentreRates() {
        // 65 535 x 512 bit = 33 553 920 bit; / 100 Gb/s = 335.5392 us
        assertEquals(335_539_200L, RoceFraming.pauseDurationPs(0xFFFF, 100_000_000_000L));
        // / 400 Gb/s = 83.8848 us
        assertEquals(83_884_800L, RoceFraming.pauseDurationPs(0xFFFF, 400_000_000_000L));
        // / 25 Gb/s = 1 342.1568 us
        assertEquals(1_342_156_800L, RoceFraming.pauseDurationPs(0xFFFF, 25_000_000_000L));
        // 1 quantum at 3 Gb/s = 512 / 3e9 s = 170.666.. ns, rounded down to 170 666 ps
        assertEquals(170_666L, RoceFraming.pauseDurationPs(1, 3_000_000_000L));
        assertEquals(0L, RoceFraming.pauseDurationPs(0, 100_000_000_000L));
    }
}
