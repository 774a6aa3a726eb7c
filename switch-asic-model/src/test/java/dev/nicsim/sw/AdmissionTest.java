package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Lossy admission: static and dynamic egress queue limits, shared buffer (the LDCP draft §2.1 buf_max; "Understanding DCQCN" drop point). */
class AdmissionTest {
    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    private SwitchAsic pausedSwitch(final SwitchConfig c) {
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, 5);
        for (int p = 0; p < 3; p++) {
            sw.connectPort(p, 100_000_000_000L, 1_000_000, new TestDevices.Sink(pool, "h" + p), 0);
            sw.receive(TestDevices.pfc(pool, 0xFF, 0xFFFF), p); // hold every egress queue
        }
        sw.setRoute(1, new int[] {1});
        sw.setRoute(2, new int[] {2});
        return sw;
    }

    private void offer(final SwitchAsic sw, final int dst, final int n) {
        for (int i = 0; i < n; i++) {
            sw.receive(TestDevices.data(pool, 0, dst, 24, Packet.ECN_NOT_ECT, 1000, 1), 0);
        }
    }

    @Test
    void staticQueueLimit() {
        // limit 10 500: packet k (q = 1000 k) admitted iff 1000 k + 1000 <= 10 500, k <= 9: 10 of 20 admitted
        final SwitchConfig c = new SwitchConfig();
        c.egressThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.queueLimitBytes[3] = 10_500;
        final SwitchAsic sw = pausedSwitch(c);
        offer(sw, 1, 20);
        assertEquals(10_000, sw.queueDepthBytes(1, 3));
        assertEquals(10, counters.value("sw/port1/q3", "tail_drops"));
        assertEquals(10, counters.value("sw/port1/q3", "enqueued_packets"));
        assertEquals(10_000, counters.value("sw/port1/q3", "enqueued_bytes"));
        assertEquals(10_000, counters.value("sw/port1/q3", "peak_depth_bytes"));
        assertEquals(10, pool.outstanding());
    }

    @Test
    void dynamicQueueLimitAgainstFreeSharedBuffer() {
        // no PFC, so shared = buffer = 100 000; alpha = 1. Packet k on one queue (q = used = 1000 k) is
        // admitted iff 1000 k + 1000 <= 1 x (100 000 - 1000 k), i.e. 2k + 1 <= 100, k <= 49: 50 admitted.
        final SwitchConfig c = new SwitchConfig();
        c.bufferBytes = 100_000;
        c.egressAlpha = 1.0;
        final SwitchAsic sw = pausedSwitch(c);
        offer(sw, 1, 100);
        assertEquals(50_000, sw.queueDepthBytes(1, 3));
        assertEquals(50, counters.value("sw/port1/q3", "tail_drops"));
        // A second queue now sees free = 50 000: k admitted iff 1000 k + 1000 <= 50 000 - 1000 k, k <= 24: 25.
        offer(sw, 2, 100);
        assertEquals(25_000, sw.queueDepthBytes(2, 3));
        assertEquals(75_000, sw.sharedUsedBytes());
        assertEquals(50_000, sw.peakQueueBytes());
    }

    @Test
    void sharedBufferFullTailDropsEvenUnderAStaticLimit() {
        // buffer 30 000, static limit 1 MiB: the shared pool is the binding limit, 30 frames fit in total
        final SwitchConfig c = new SwitchConfig();
        c.bufferBytes = 30_000;
        c.egressThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        final SwitchAsic sw = pausedSwitch(c);
        offer(sw, 1, 20);
        offer(sw, 2, 20);
        assertEquals(20_000, sw.queueDepthBytes(1, 3));
        assertEquals(10_000, sw.queueDepthBytes(2, 3));
        assertEquals(10, counters.value("sw/port2/q3", "tail_drops"));
        assertEquals(10, sw.totalDrops());
    }
}
