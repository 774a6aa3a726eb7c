package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The input-and-output-queued switch (the RCM paper §4.1): per-VOQ and per-output-queue limits, the
 * output's round robin over the inputs, and PFC driven by VOQ occupancy. Three ports, every one
 * connected to a sink; packets are handed to the switch directly (all at t = 0 unless said), the
 * output toward the destination (port 2) is held by a PFC pause where the test needs queues to build.
 */
class IoqTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    /** Serialisation of a 1000-byte frame at 100 Gb/s: (1000 + 20) x 8 / 100e9 s = 81 600 ps. */
    private static final long T = 81_600;
    private static final int DSCP3 = 24;
    private static final String Q_OUT = "sw/port2/q3";

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();
    private final TestDevices.Sink[] sinks = new TestDevices.Sink[3];
    private SwitchAsic sw;

    private static SwitchConfig ioqConfig(final boolean lossless) {
        final SwitchConfig c = new SwitchConfig();
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        c.voqBytes = 10_000;
        c.outputQueueBytes = 5_000;
        c.maxFrameBytes = 1000;
        if (lossless) {
            c.pfcEnabled[3] = true;
            c.headroomBytes[3] = 4_000;
        }
        return c;
    }

    private void build(final SwitchConfig c) {
        sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, 5);
        for (int p = 0; p < 3; p++) {
            sinks[p] = new TestDevices.Sink(pool, "h" + p);
            sw.connectPort(p, RATE, PROP, sinks[p], 0);
        }
        sw.setRoute(2, new int[] {2});
    }

    private void send(final int inPort, final int udp) {
        sw.receive(TestDevices.data(pool, inPort, 2, DSCP3, Packet.ECN_ECT0, 1000, udp), inPort);
    }

    private long counter(final String component, final String name) {
        return counters.value(component, name);
    }

    @Test
    void eachQueueHasItsOwnLimit() {
        build(ioqConfig(false));
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2); // hold the output
        for (int i = 0; i < 20; i++) {
            send(0, 100);
        }
        // the output queue takes 5 x 1000 = 5 000 bytes, the VOQ (0 -> 2) the next 10 x 1000 = 10 000,
        // the last 5 find the VOQ full and are tail-dropped (priority 3 is lossy here)
        assertEquals(5_000, sw.queueDepthBytes(2, 3));
        assertEquals(10_000, sw.voqDepthBytes(0, 2, 3));
        assertEquals(10_000, sw.pgBytes(0, 3), "the input's occupancy is its VOQs' bytes");
        assertEquals(5, counter(Q_OUT, "tail_drops"));
        assertEquals(15, counter(Q_OUT, "enqueued_packets"));
        assertEquals(10_000, counter("sw/port0/voq", "peak_voq_bytes"));
        assertEquals(5_000, counter(Q_OUT, "peak_depth_bytes"));
        // another input has a VOQ of its own: it still takes 10 packets
        for (int i = 0; i < 11; i++) {
            send(1, 200);
        }
        assertEquals(10_000, sw.voqDepthBytes(1, 2, 3));
        assertEquals(6, counter(Q_OUT, "tail_drops"));
        assertEquals(0, sw.sharedUsedBytes(), "the shared pool is not used");
        // release the output: everything queued is delivered
        new TestDevices.Injector(sw).deliverAt(sim, 1_000, TestDevices.pfc(pool, 1 << 3, 0), 2);
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(25, sinks[2].packets);
        assertEquals(0, pool.outstanding());
    }

    @Test
    void theOutputServesTheInputsRoundRobin() {
        build(ioqConfig(false));
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        for (int i = 0; i < 8; i++) {
            send(0, 100); // five fill the output queue, three wait in VOQ 0 -> 2
        }
        for (int i = 0; i < 3; i++) {
            send(1, 200); // three wait in VOQ 1 -> 2
        }
        new TestDevices.Injector(sw).deliverAt(sim, 1_000, TestDevices.pfc(pool, 1 << 3, 0), 2);
        sim.runUntil(Long.MAX_VALUE);
        // each frame leaving makes room for one: the scheduler takes one packet per input per turn, starting
        // with input 0 (first in line when the queue filled), so the VOQs drain 0, 1, 0, 1, 0, 1
        assertEquals(List.of(100, 100, 100, 100, 100, 100, 200, 100, 200, 100, 200), sinks[2].udpPortOrder);
    }

    @Test
    void pfcFollowsVoqOccupancy() {
        // voqBytes 10 000, headroom 4 000: XOFF when a VOQ holds >= 10 000 - 4 000 = 6 000 bytes;
        // XON when every VOQ of the PG holds <= 6 000 - 3 072 (pfcXonOffsetBytes) = 2 928 bytes
        build(ioqConfig(true));
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        for (int i = 0; i < 10; i++) {
            send(0, 100); // 5 into the output queue, 5 into the VOQ: 5 000 bytes
        }
        assertEquals(5_000, sw.voqDepthBytes(0, 2, 3));
        assertEquals(0, counter("sw/port0/pg3", "pfc_xoff_sent"));
        assertFalse(sw.isXoff(0, 3));
        send(0, 100); // the VOQ reaches 6 000
        assertEquals(1, counter("sw/port0/pg3", "pfc_xoff_sent"));
        assertTrue(sw.isXoff(0, 3));
        for (int i = 0; i < 4; i++) {
            send(0, 100); // in-flight bytes land in the VOQ's headroom: 6 000 + 4 x 1 000 = 10 000
        }
        assertEquals(10_000, sw.voqDepthBytes(0, 2, 3));
        send(0, 100); // nothing left: a lossless drop, counted as headroom_drops
        assertEquals(1, counter(Q_OUT, "headroom_drops"));
        assertEquals(0, counter(Q_OUT, "tail_drops"));

        // release the output at t0 = 1 000 000: the k-th frame (k = 1, 2, ...) starts at t0 + (k - 1) T and moves one
        // packet from the VOQ into the output queue, leaving 10 000 - 1 000 k: <= 2 928 first at k = 8, t0 + 7 T
        final long t0 = 1_000_000;
        new TestDevices.Injector(sw).deliverAt(sim, t0, TestDevices.pfc(pool, 1 << 3, 0), 2);
        sim.runUntil(t0 + 7 * T - 1);
        assertEquals(0, counter("sw/port0/pg3", "pfc_xon_sent"));
        assertEquals(3_000, sw.voqDepthBytes(0, 2, 3));
        sim.runUntil(t0 + 7 * T);
        assertEquals(1, counter("sw/port0/pg3", "pfc_xon_sent"));
        assertEquals(2_000, sw.voqDepthBytes(0, 2, 3));
        assertFalse(sw.isXoff(0, 3));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(15, sinks[2].packets); // 16 sent, 1 dropped
        assertEquals(0, pool.outstanding());
    }

    @Test
    void voqMustExceedTheHeadroom() {
        final SwitchConfig c = ioqConfig(true);
        c.headroomBytes[3] = 10_000;
        final SwitchAsic s = new SwitchAsic(sim, "bad", 2, c, counters, pool, 1);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> s.connectPort(0, RATE, PROP, new TestDevices.Sink(pool, "x"), 0));
        assertTrue(e.getMessage().startsWith("voqBytes (10000) must exceed the PFC headroom (10000 bytes)"), e.getMessage());
    }
}
