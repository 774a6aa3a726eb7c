package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * House rule: the packet path allocates nothing in steady state. A second, identical burst through
 * a switch that has reached its peak sizes (event heap, queue rings, packet pool) must allocate
 * nothing on the simulation thread. The burst exercises classification, ECMP, WRED/ECN marking,
 * CAM sampling, PFC xoff/xon with headroom and refreshes, and DWRR.
 */
class SteadyStateAllocationTest {
    @Test
    void secondBurstAllocatesNothing() {
        final LongSupplier allocatedBytes = TestDevices.threadAllocatedBytes();
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final SwitchConfig c = new SwitchConfig();
        c.pfcEnabled[3] = true;
        c.pfcThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.xoffBytes[3] = 20_000;
        c.xonBytes[3] = 10_000;
        c.wredProfiles[3] = new WredProfile(5_000, 30_000, 0.5, true, WredProfile.NEVER_DROP);
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 3, c, new CounterRegistry(), pool, 1);
        final TestDevices.Source src = new TestDevices.Source(sim, pool, "h0", 100_000_000_000L, 1_000_000);
        src.dstHost = 1;
        src.dscp = 24;
        src.port.connect(sw, 0);
        final TestDevices.CountingSink sink = new TestDevices.CountingSink(pool);
        sw.connectPort(0, 100_000_000_000L, 1_000_000, src, 0);
        sw.connectPort(1, 25_000_000_000L, 1_000_000, sink, 0);
        sw.connectPort(2, 25_000_000_000L, 1_000_000, sink, 0);
        sw.setRoute(1, new int[] {1, 2});

        src.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(3_000, sink.packets);

        final long pausesBefore = sw.totalPauseFramesSent();
        final long marksBefore = sw.totalCeMarked();
        final long before = allocatedBytes.getAsLong();
        src.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        final long allocated = allocatedBytes.getAsLong() - before;
        assertEquals(6_000, sink.packets);
        assertTrue(allocated < TestDevices.ALLOCATION_TOLERANCE_BYTES, "bytes allocated by the second burst: " + allocated);
        // the burst really went through PFC and marking (100 Gb/s into 25 Gb/s builds the queue past xoff)
        assertTrue(sw.totalPauseFramesSent() > pausesBefore);
        assertTrue(sw.totalCeMarked() > marksBefore);
    }
    @Test
    void aSecondTrimmingBurstAllocatesNothing() {
        // lossy priority 3, a 20 000-byte data queue, trimming and ECN at dequeue: 100 Gb/s into 25 Gb/s
        // fills the queue, so most packets meet the coin, and the headers overtake the data
        final LongSupplier allocatedBytes = TestDevices.threadAllocatedBytes();
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final SwitchConfig c = new SwitchConfig();
        c.trimmingEnabled = true;
        c.dataQueueLimitBytes = 20_000;
        c.ecnAtDequeue = true;
        c.wredProfiles[3] = new WredProfile(5_000, 15_000, 1.0, true, WredProfile.NEVER_DROP);
        final CounterRegistry counters = new CounterRegistry();
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 2, c, counters, pool, 1);
        final TestDevices.Source src = new TestDevices.Source(sim, pool, "h0", 100_000_000_000L, 1_000_000);
        src.dstHost = 1;
        src.dscp = 24;
        src.port.connect(sw, 0);
        final TestDevices.CountingSink sink = new TestDevices.CountingSink(pool);
        sw.connectPort(0, 100_000_000_000L, 1_000_000, src, 0);
        sw.connectPort(1, 25_000_000_000L, 1_000_000, sink, 0);
        sw.setRoute(1, new int[] {1});

        src.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(3_000, sink.packets);
        final long trimmedBefore = PortStatistics.trimmedPackets(sw, 1);
        final long marksBefore = sw.totalCeMarked();
        final long before = allocatedBytes.getAsLong();
        src.send(3_000);
        sim.runUntil(Long.MAX_VALUE);
        final long allocated = allocatedBytes.getAsLong() - before;
        assertEquals(6_000, sink.packets, "every packet arrives, whole or as a header");
        assertTrue(allocated < TestDevices.ALLOCATION_TOLERANCE_BYTES, "bytes allocated by the second burst: " + allocated);
        assertTrue(PortStatistics.trimmedPackets(sw, 1) > trimmedBefore);
        assertTrue(sw.totalCeMarked() > marksBefore);
        assertEquals(0, sw.totalDrops());
    }
}
