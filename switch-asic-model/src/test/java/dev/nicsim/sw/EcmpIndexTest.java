package dev.nicsim.sw;

import dev.nicsim.sim.RngStreams;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EcmpIndexTest {

    @Test
    void memberIsTheUnsignedRemainderForEveryGroupSize() {
        for (int members = 1; members <= 64; members++) {
            for (long k = 0; k < 5_000; k++) {
                final long hash = RngStreams.mix(k * 0x9E3779B97F4A7C15L); // negative as often as not
                assertEquals((int) Long.remainderUnsigned(hash, members), EcmpRouter.ecmpIndex(hash, members),
                    "members " + members + " hash " + hash);
            }
        }
        // the top bit counts as 2^63, not as a sign: (2^64 - 1) mod 4 = 3, mod 3 = 0
        assertEquals(3, EcmpRouter.ecmpIndex(-1L, 4));
        assertEquals(0, EcmpRouter.ecmpIndex(-1L, 3));
    }
}
