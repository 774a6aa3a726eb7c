package dev.nicsim.nic;

import dev.nicsim.sim.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Kernel events of a NIC's port ({@link NicPort#needsEndOfFrameEvent}, issue 21): a paced QP's
 * next frame is started by its pacer wake-up alone, with no end-of-frame event that finds nothing
 * to send first, and ACKs arriving while a frame is on the wire schedule nothing; the frames leave
 * at the same times.
 *
 * <p>The oracle is the same flow at line rate. There every frame but the first is started by the
 * end-of-frame event of the one before (the pacer allows the next frame exactly when the link is
 * free: wire bits / line rate = serialisation), and no wake-up is needed. Paced below line rate,
 * every frame but the first is started by a wake-up instead. Everything else (one delivery per
 * data frame and per ACK, the CC events) is the same count in both, so the two runs must handle
 * the same number of kernel events: 97 here. Before this change the paced runs took 128 (an
 * end-of-frame event after every data frame but the last found the QP waiting for its pacer and
 * scheduled the wake-up); with only the frame-start half of the change, 100 at half rate and 113
 * at 3/4 of line rate (ACKs arriving while a frame is on the wire still scheduled one each).
 */
class NicEndOfFrameEventsTest {
    private static final long MESSAGE_BYTES = 32 * 1024; // 32 packets of 1024 B

    private static Bench run(final int rate) {
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.rate = rate;
        alg.record = false;
        final Bench b = new Bench(alg);
        b.start(1, MessageOp.WRITE, MESSAGE_BYTES);
        b.run();
        return b;
    }

    @Test
    void aPacedFlowCostsOneWakeUpPerFrameAndNothingElse() {
        final Bench line = run(1 << 20);
        final Bench half = run(1 << 19);
        final Bench threeQuarters = run(3 << 18);
        assertEquals(32, half.dataAtB().size());
        assertEquals(32, half.acksAtA().size());
        assertEquals(line.sim.eventsProcessed(), half.sim.eventsProcessed());
        assertEquals(line.sim.eventsProcessed(), threeQuarters.sim.eventsProcessed());
    }

    @Test
    void pacedFramesStillLeaveAtTheirPacerTimes() {
        final Bench half = run(1 << 19);
        // pacer gap = wire bits / 50 Gb/s: FIRST 9008 bits -> 180,160 ps, MIDDLE 8880 -> 177,600;
        // frame i starts at 180,160 + (i - 1) x 177,600 (i >= 1); arrives after its link
        // serialisation (88,800 ps for MIDDLE/LAST) + 1 us
        final List<Long> arrivals = half.dataAtB().stream().map(Tap.Seen::timePs).toList();
        assertEquals(1_090_080L, arrivals.get(0));
        for (int i = 1; i < 32; i++) {
            assertEquals(180_160L + (i - 1) * 177_600L + 88_800L + Bench.PROP_PS, arrivals.get(i), "frame " + i);
        }
        // ACK i leaves b when data i arrives (+ 7,200 serialisation + 1 us): all 32, in order
        final List<Tap.Seen> acks = half.acksAtA();
        for (int i = 0; i < 32; i++) {
            assertEquals(arrivals.get(i) + 7_200L + Bench.PROP_PS, acks.get(i).timePs(), "ACK " + i);
            assertEquals(Packet.KIND_ACK, acks.get(i).kind());
        }
    }
}
