package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Strict priority and DWRR between priorities, skipping PFC-paused priorities (the egress scheduling stage, {@link SwitchPort}). */
class SchedulerTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final int P1 = 8;   // DSCP 8 -> priority 1
    private static final int P2 = 16;  // DSCP 16 -> priority 2
    private static final int P6 = 48;  // DSCP 48 -> priority 6
    private static final int MASK = (1 << 1) | (1 << 2) | (1 << 6);

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final TestDevices.Sink sink = new TestDevices.Sink(pool, "h1");
    private SwitchAsic sw;

    private void preload(final int pausedMask) {
        final SwitchConfig c = new SwitchConfig();
        c.strictPriorityMask = 1 << 6;
        c.dwrrQuantumBytes[1] = 2000;
        c.dwrrQuantumBytes[2] = 1000;
        sw = new SwitchAsic(sim, "sw", 2, c, new CounterRegistry(), pool, 3);
        sw.connectPort(0, RATE, PROP, new TestDevices.Sink(pool, "up"), 0);
        sw.connectPort(1, RATE, PROP, sink, 0);
        sw.setRoute(1, new int[] {1});
        sw.receive(TestDevices.pfc(pool, pausedMask, 0xFFFF), 1);
        for (int i = 0; i < 30; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, P1, Packet.ECN_ECT0, 1000, 1), 0);
            sw.receive(TestDevices.data(pool, 0, 1, P2, Packet.ECN_ECT0, 1000, 2), 0);
        }
        for (int i = 0; i < 5; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, P6, Packet.ECN_ECT0, 1000, 6), 0);
        }
        assertEquals(30_000, sw.queueDepthBytes(1, 1));
        assertEquals(30_000, sw.queueDepthBytes(1, 2));
        assertEquals(5_000, sw.queueDepthBytes(1, 6));
    }

    @Test
    void strictPriorityFirstThenDwrrByWeight() {
        preload(MASK);
        new TestDevices.Injector(sw).deliverAt(sim, 1_000_000, TestDevices.pfc(pool, MASK, 0), 1);
        sim.runUntil(Long.MAX_VALUE);
        // Expected order: the 5 strict priority-6 frames (though they arrived last); then DWRR rounds with
        // quanta 2000 (prio 1) and 1000 (prio 2) and 1000-byte frames: 1, 1, 2 per round, 15 rounds until
        // priority 1's 30 frames are gone; then priority 2's remaining 30 - 15 = 15 frames.
        final List<Integer> expected = new ArrayList<>(Collections.nCopies(5, 6));
        for (int r = 0; r < 15; r++) {
            expected.add(1);
            expected.add(1);
            expected.add(2);
        }
        expected.addAll(Collections.nCopies(15, 2));
        assertEquals(expected, sink.priorityOrder);
    }

    @Test
    void pausedPriorityIsSkipped() {
        preload(MASK);
        // resume priorities 1 and 2 only; strict priority 6 stays paused 0xFFFF x 512 bit / 100 Gb/s = 335.5392 us
        new TestDevices.Injector(sw).deliverAt(sim, 1_000_000, TestDevices.pfc(pool, MASK & ~(1 << 6), 0), 1);
        sim.runUntil(300_000_000);
        assertEquals(60, sink.packets);
        assertEquals(0, sink.packetsByPriority[6]);
        assertEquals(5_000, sw.queueDepthBytes(1, 6));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(65, sink.packets);
        assertEquals(List.of(6, 6, 6, 6, 6), sink.priorityOrder.subList(60, 65));
    }

    @Test
    void dwrrSharesBytesByWeightUnderContinuousLoad() {
        // Two line-rate sources into one 100 Gb/s egress: priority 1 with 500-byte frames (quantum 2000),
        // priority 2 with 1000-byte frames (quantum 1000). Both queues stay backlogged (each is offered
        // 100 Gb/s and gets at most 2/3 of 100 Gb/s), so every DWRR round sends 4 x 500 = 2000 bytes of
        // priority 1 and 1 x 1000 bytes of priority 2: bytes 2:1 (packets 8:1). Tolerance: one round
        // (3000 bytes) for the partial round at the end plus one frame of start-up transient.
        final SwitchConfig c = new SwitchConfig();
        c.strictPriorityMask = 0;
        c.dwrrQuantumBytes[1] = 2000;
        c.dwrrQuantumBytes[2] = 1000;
        sw = new SwitchAsic(sim, "sw", 3, c, new CounterRegistry(), pool, 3);
        final TestDevices.Source s1 = new TestDevices.Source(sim, pool, "h0", RATE, PROP);
        final TestDevices.Source s2 = new TestDevices.Source(sim, pool, "h2", RATE, PROP);
        s1.dstHost = 1;
        s1.dscp = P1;
        s1.frameBytes = 500;
        s2.dstHost = 1;
        s2.dscp = P2;
        s2.srcHost = 2;
        s1.port.connect(sw, 0);
        s2.port.connect(sw, 1);
        sw.connectPort(0, RATE, PROP, s1, 0);
        sw.connectPort(1, RATE, PROP, s2, 0);
        sw.connectPort(2, RATE, PROP, sink, 0);
        sw.setRoute(1, new int[] {2});
        s1.send(10_000);
        s2.send(5_000);
        sim.runUntil(200_000_000); // 200 us: ~ 2.4 MB through the egress
        final long b1 = sink.bytesByPriority[1];
        final long b2 = sink.bytesByPriority[2];
        assertTrue(b2 > 700_000, "both queues served: " + b2);
        assertTrue(Math.abs(b1 - 2 * b2) <= 4_000, "bytes " + b1 + " vs 2 x " + b2);
        assertTrue(sw.queueDepthBytes(2, 1) > 0 && sw.queueDepthBytes(2, 2) > 0, "both still backlogged");
    }
}
