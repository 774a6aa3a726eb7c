package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Congestion flow recognition on its own (the RCM paper §3.3) over a CAM of 4 entries written at
 * every enqueue: harmful = at least 2 CAM entries (no CN held), the latched set, and the IDs it
 * puts into a CN.
 */
class FlowRecognitionTest {
    private static final int Q = 11; // port 1, priority 3

    private final PacketPool pool = new PacketPool(true);
    private final CongestionCam cam = new CongestionCam(16, 4, 1, 0);
    /** The RCM counters of two ports, {@code [port x RCM_ROW + RCM_*]}. */
    private final long[] rcmStats = new long[2 * RegionalCongestion.RCM_ROW];

    private FlowRecognition recognition(final boolean latch) {
        final RcmConfig c = new RcmConfig();
        c.detection = true;
        c.flowRecognition = true;
        c.regionalControl = true;
        c.latchHarmfulSet = latch;
        c.harmfulMinEntries = 2;
        final RegionDetection crd = new RegionDetection(new Simulator(), 16, c, new long[2 * RegionalCongestion.RCM_ROW]);
        return new FlowRecognition(16, c, cam, crd, rcmStats);
    }

    private void write(final int udpSrcPort, final int ingressPort) {
        final Packet p = TestDevices.data(pool, 0, 1, 24, Packet.ECN_ECT0, 1000, udpSrcPort);
        p.ingressPort = ingressPort;
        cam.onEnqueue(Q, 0, p);
    }

    /** The flow key of a packet of flow {@code udpSrcPort} (host 0 to host 1, QPN 1). */
    private int key(final int udpSrcPort) {
        return SwitchAsic.flowKey(TestDevices.data(pool, 0, 1, 24, Packet.ECN_ECT0, 1000, udpSrcPort));
    }

    @Test
    void harmfulFromTheLiveCamAndTheLatchedSet() {
        final FlowRecognition cfr = recognition(true);
        write(10, 1); // X
        write(20, 2); // Y
        write(10, 3); // X again, newest X entry from port 3
        write(30, 1); // Z
        assertTrue(cfr.isHarmful(Q, key(10), 0));   // 2 entries
        assertFalse(cfr.isHarmful(Q, key(20), 0));  // 1 entry
        assertTrue(cfr.latchPending(Q));
        cfr.latch(Q);
        assertFalse(cfr.latchPending(Q));
        assertEquals(1, cfr.latchedFlowCount(Q));
        assertEquals(key(10), cfr.latchedFlowKey(Q, 0));

        // the CAM moves on (Y twice), the latched set still rules
        cam.clear(Q);
        write(20, 2);
        write(20, 2);
        assertTrue(cfr.isHarmful(Q, key(10), 0));
        assertFalse(cfr.isHarmful(Q, key(20), 0));

        // a CN through port 3 names X (its newest entry came from port 3); port 1 gets none
        final Packet cn = pool.acquire();
        assertEquals(1, cfr.addLocalHarmfulIds(Q, 3, cn, 0));
        assertEquals(key(10), cn.rcmFlowIds[0]);
        assertEquals(0, cfr.addLocalHarmfulIds(Q, 1, cn, 0));

        cfr.release(Q);
        assertEquals(-1, cfr.latchedFlowCount(Q));
        assertTrue(cfr.isHarmful(Q, key(20), 0));   // live CAM again: Y has 2 entries
        assertFalse(cfr.isHarmful(Q, key(10), 0));
        assertEquals(1, cfr.addLocalHarmfulIds(Q, 2, cn, 0)); // Y once, though in two entries
        assertEquals(key(20), cn.rcmFlowIds[0]);
    }

    @Test
    void latchingNothingLeavesTheQueueUnlatched() {
        final FlowRecognition cfr = recognition(true);
        write(10, 1);
        write(20, 1);
        cfr.latch(Q); // no flow has 2 entries
        assertEquals(-1, cfr.latchedFlowCount(Q));
        assertTrue(cfr.latchPending(Q));
    }

    @Test
    void recognitionCountsOnlyNewIds() {
        final FlowRecognition cfr = recognition(false);
        cfr.onCamWrite(Q, false);
        cfr.onCamWrite(Q, true);
        cfr.onCamWrite(Q, false);
        assertEquals(2, rcmStats[RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_FLOWS_RECOGNISED]); // queue 11 is on port 1
        assertEquals(0, rcmStats[RegionalCongestion.RCM_FLOWS_RECOGNISED]);
        assertEquals(-1, cfr.latchedFlowCount(Q)); // latching off
        assertFalse(cfr.latchPending(Q));
    }
}
