package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IdealFct} at the edges PIT showed untested: a message of an exact number of MTUs and the
 * unloaded RTT. Frame = payload + 66 bytes (+ RETH 16 on a WRITE's first packet), ACK 70 bytes, each with
 * 20 bytes of preamble and gap; 80 ps per byte at 100 Gb/s, 320 ps at 25 Gb/s.
 */
class IdealFctEdgeTest {
    private static final Scenario.Link FAST = new Scenario.Link(100_000_000_000L, 1_000_000);
    private static final Scenario.Link SLOW = new Scenario.Link(25_000_000_000L, 500_000);

    @Test
    void aMessageOfExactlyTwoMtusIsTwoFullPackets() {
        // first 1024 + 66 + 16 = 1106 B (1126 on the wire, 90 080 ps), last 1024 + 66 = 1090 B (1110, 88 800 ps);
        // the last frame again on the second link 88 800; 2 x (2 x 1 us + ACK 90 B = 7 200 ps)
        assertEquals(90_080 + 88_800 + 88_800 + 2 * (2_000_000 + 7_200), IdealFct.idealPs(List.of(FAST, FAST), 2048, 1024));
    }

    @Test
    void baseRttIsAFullFrameOutAndAnAckBackOnEveryLink() {
        // 100 Gb/s: 2 x 1 us + 1110 x 80 + 90 x 80 = 2 096 000 ps; 25 Gb/s: 2 x 0.5 us + 1110 x 320 + 90 x 320 = 1 384 000 ps
        assertEquals(2_096_000, IdealFct.baseRttPs(List.of(FAST), 1024));
        assertEquals(2_096_000 + 1_384_000, IdealFct.baseRttPs(List.of(FAST, SLOW), 1024));
        assertEquals(0, IdealFct.baseRttPs(List.of(), 1024));
    }
}
