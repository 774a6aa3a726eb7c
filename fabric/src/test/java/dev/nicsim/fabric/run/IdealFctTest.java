package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IdealFctTest {
    @Test
    void singlePacketOverTwoLinks() {
        final Scenario.Link l = new Scenario.Link(100_000_000_000L, 1_000_000); // 100 Gb/s, 1 us
        // 1000-byte WRITE ONLY: frame = 66 headers + 16 RETH + 1000 = 1082 B; on the wire +20 = 1102 B = 8816 bits
        // = 88.16 ns per link at 100 Gb/s. ACK frame = 66 + 4 AETH = 70 B, +20 = 90 B = 720 bits = 7.2 ns per link.
        // ideal = 2 x 88.16 (store and forward) + 2 x 2 x 1000 (propagation out and back) + 2 x 7.2 = 4190.72 ns
        assertEquals(4_190_720, IdealFct.idealPs(List.of(l, l), 1000, 1024));
    }

    @Test
    void streamOfPacketsPipelinesAtTheBottleneck() {
        final Scenario.Link host = new Scenario.Link(100_000_000_000L, 1_000_000);
        // 3 packets of 1024 B over one link: first frame 66+16+1024 = 1106 B, second 66+1024 = 1090 B, last (size 2560
        // - 2048 = 512 B) 66+512 = 578 B; wire bits (1126 + 1110 + 598) x 8 = 22672 bits = 226.72 ns;
        // + 2 x 1000 ns propagation + 7.2 ns ACK = 2233.92 ns
        assertEquals(2_233_920, IdealFct.idealPs(List.of(host), 2560, 1024));
    }
}
