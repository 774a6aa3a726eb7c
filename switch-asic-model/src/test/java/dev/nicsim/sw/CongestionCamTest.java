package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CAM hook on its own (the RCM paper §3.3): 3 entries per queue, every 2nd congested enqueue
 * written, congested at a depth of at least 1000 bytes.
 */
class CongestionCamTest {
    private static final int Q = 11;

    private final PacketPool pool = new PacketPool();
    private final CongestionCam cam = new CongestionCam(16, 3, 2, 1_000);

    private Packet flow(final int udpSrcPort, final int ingressPort) {
        final Packet p = TestDevices.data(pool, 0, 1, 24, Packet.ECN_ECT0, 1000, udpSrcPort);
        p.ingressPort = ingressPort;
        return p;
    }

    /** The flow key of a packet of flow {@code udpSrcPort} (host 0 to host 1, QPN 1). */
    private int key(final int udpSrcPort) {
        return SwitchAsic.flowKey(TestDevices.data(pool, 0, 1, 24, Packet.ECN_ECT0, 1000, udpSrcPort));
    }

    @Test
    void everySecondCongestedEnqueueOverwritesTheOldestEntry() {
        cam.onProfile(Q, null);
        cam.onEnqueue(Q, 999, flow(100, 0)); // not congested: does not count
        // congested enqueues of flows 1..8 (ingress = flow % 4): writes at the 2nd, 4th, 6th, 8th: 2, 4, 6, 8
        for (int f = 1; f <= 8; f++) {
            cam.onEnqueue(Q, 1_000, flow(f, f % 4));
        }
        // entries written at 0, 1, 2, then 0 again: [8, 4, 6], next write at 1
        assertEquals(3, cam.validEntries(Q));
        assertEquals(key(8), cam.key(Q, 0));
        assertEquals(key(4), cam.key(Q, 1));
        assertEquals(key(6), cam.key(Q, 2));
        assertEquals(0, cam.ingress(Q, 0)); // flow 8 arrived on port 8 % 4 = 0
        assertEquals(2, cam.ingress(Q, 2)); // flow 6 on port 2
        assertEquals(1, cam.nextEntry(Q));
        assertFalse(cam.contains(Q, key(2)));
        assertFalse(cam.contains(Q, key(100)));
        assertTrue(cam.contains(Q, key(6)));
        assertEquals(0, cam.validEntries(Q - 1)); // other queues untouched
    }

    @Test
    void newestEntryOfARepeatedFlowAndClear() {
        cam.onProfile(Q, null);
        // flow 5 written three times (ingress 1, 2, 3), then flow 9: entries [9, 5(2), 5(3)], next at 1
        for (final int[] fi : new int[][] {{5, 1}, {5, 2}, {5, 3}, {9, 0}}) {
            cam.onEnqueue(Q, 5_000, flow(fi[0], 0));
            cam.onEnqueue(Q, 5_000, flow(fi[0], fi[1]));
        }
        assertEquals(2, cam.count(Q, key(5)));
        assertEquals(1, cam.count(Q, key(9)));
        assertEquals(2, cam.newestEntry(Q, key(5))); // written just before entry 0 (flow 9), cyclically
        assertEquals(3, cam.ingress(Q, cam.newestEntry(Q, key(5))));
        cam.clear(Q);
        assertEquals(0, cam.validEntries(Q));
        assertEquals(0, cam.nextEntry(Q));
        assertFalse(cam.contains(Q, key(9)));
        cam.onEnqueue(Q, 5_000, flow(9, 0)); // the countdown restarted: the 1st enqueue after clear is not written
        assertEquals(0, cam.validEntries(Q));
    }

    @Test
    void thresholdFollowsKminByDefault() {
        final CongestionCam kmin = new CongestionCam(16, 3, 1, SwitchConfig.CAM_THRESHOLD_KMIN);
        kmin.onProfile(Q, new WredProfile(4_000, 8_000, 0.1, true, 4_000));
        kmin.onEnqueue(Q, 3_999, flow(1, 0));
        assertEquals(0, kmin.validEntries(Q));
        kmin.onEnqueue(Q, 4_000, flow(1, 0));
        assertEquals(1, kmin.validEntries(Q));
        kmin.onProfile(Q, null); // no profile: never congested
        kmin.onEnqueue(Q, Long.MAX_VALUE - 1, flow(2, 0));
        assertEquals(1, kmin.validEntries(Q));
    }
}
