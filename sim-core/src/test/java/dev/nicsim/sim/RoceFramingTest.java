package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RoceFramingTest {

    @Test
    void perByteTimeIsExactWhereTheRateDividesEightTerabits() {
        // 8 x 10^12 ps-bits per byte-second: 100 Gb/s -> 80 ps/B, 400 Gb/s -> 20, 25 Gb/s -> 320
        assertEquals(80, RoceFraming.exactPsPerByte(100_000_000_000L));
        assertEquals(20, RoceFraming.exactPsPerByte(400_000_000_000L));
        assertEquals(320, RoceFraming.exactPsPerByte(25_000_000_000L));
        assertEquals(0, RoceFraming.exactPsPerByte(56_000_000_000L));   // 142.857... ps/B
        assertEquals(0, RoceFraming.exactPsPerByte(3_000_000_000_000L)); // 2.67 ps/B
        // a 1,090 B data frame + 20 B preamble/IFG at 100 Gb/s: 1,110 x 80 = 88,800 ps
        assertEquals(88_800, RoceFraming.serializationPs(1090, 100_000_000_000L, 80));
    }

    @Test
    void bothFormsGiveTheSameSerialisationTime() {
        final long[] rates = {1_000_000L, 10_000_000_000L, 25_000_000_000L, 40_000_000_000L, 56_000_000_000L,
            100_000_000_000L, 200_000_000_000L, 400_000_000_000L, 800_000_000_000L, 1_600_000_000_000L};
        for (final long rate : rates) {
            final long perByte = RoceFraming.exactPsPerByte(rate);
            for (int bytes = 64; bytes <= 9_216; bytes++) {
                final long expected = RoceFraming.serializationPs(bytes, rate);
                if (RoceFraming.serializationPs(bytes, rate, perByte) != expected) {
                    assertEquals(expected, RoceFraming.serializationPs(bytes, rate, perByte), "rate " + rate + " frame " + bytes);
                }
            }
        }
    }
}
