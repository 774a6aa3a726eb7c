package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * House rule for the RCM paths: with input-output queueing and all four RCM mechanisms on, a second
 * identical burst allocates nothing. Two sources (100 Gb/s) into a 25 Gb/s ECMP pair: VOQs build,
 * PFC pauses, input and output congestion points sample and send CNs upstream, the CAM recognises
 * flows, RCC windows measure and hold, SAR evaluates the group.
 */
class RcmSteadyStateAllocationTest {
    @Test
    void secondBurstAllocatesNothing() {
        final LongSupplier allocatedBytes = TestDevices.threadAllocatedBytes();
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry counters = new CounterRegistry();
        final SwitchConfig c = new SwitchConfig();
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        c.pfcEnabled[3] = true;
        c.camCongestedBytes = 2_000;
        c.camDepth = 8;
        c.wredProfiles[3] = new WredProfile(5_000, 30_000, 0.5, true, WredProfile.NEVER_DROP);
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.regionalControl = true;
        c.rcm.adaptiveRouting = true;
        c.rcm.qEqBytes = 10_000;
        c.rcm.sampleBytes = 4_000;
        c.rcm.harmfulMinEntries = 2;
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 4, c, counters, pool, 1);
        final TestDevices.Source a = new TestDevices.Source(sim, pool, "a", 100_000_000_000L, 1_000_000);
        final TestDevices.Source b = new TestDevices.Source(sim, pool, "b", 100_000_000_000L, 1_000_000);
        a.srcHost = 0;
        a.dstHost = 9;
        a.dscp = 24;
        b.srcHost = 1;
        b.dstHost = 9;
        b.dscp = 24;
        b.udpSrcPort = 7;
        a.port.connect(sw, 0);
        b.port.connect(sw, 1);
        final TestDevices.CountingSink sink = new TestDevices.CountingSink(pool);
        sw.connectPort(0, 100_000_000_000L, 1_000_000, a, 0);
        sw.connectPort(1, 100_000_000_000L, 1_000_000, b, 0);
        sw.connectPort(2, 25_000_000_000L, 1_000_000, sink, 0);
        sw.connectPort(3, 25_000_000_000L, 1_000_000, sink, 0);
        sw.setRoute(9, new int[] {2, 3});
        sw.setNotifyNeighbour(0, true); // the sources release CNs like any frame
        sw.setNotifyNeighbour(1, true);

        a.send(3_000);
        b.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(6_000, sink.packets);

        final long cnBefore = counters.sum("sw/", "rcm_cn_sent");
        final long heldBefore = counters.sum("sw/", "rcm_held_bytes");
        final long pausesBefore = sw.totalPauseFramesSent();
        final long before = allocatedBytes.getAsLong();
        a.send(3_000);
        b.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        final long allocated = allocatedBytes.getAsLong() - before;
        assertEquals(12_000, sink.packets);
        assertTrue(allocated < TestDevices.ALLOCATION_TOLERANCE_BYTES, "bytes allocated by the second burst: " + allocated);
        // the burst really exercised the RCM paths
        assertTrue(counters.sum("sw/", "rcm_cn_sent") > cnBefore, "CNs sent");
        assertTrue(counters.sum("sw/", "rcm_held_bytes") > heldBefore, "RCC held harmful packets");
        assertTrue(sw.totalPauseFramesSent() > pausesBefore, "PFC");
        assertEquals(0, pool.outstanding());
    }
}
