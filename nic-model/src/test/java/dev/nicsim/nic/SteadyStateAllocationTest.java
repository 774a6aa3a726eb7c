package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * House rule "hot paths allocate nothing in steady state": after a warm-up flow has grown the
 * packet pool, the event heap and the QP pool, further identical flows (same QPNs, paced,
 * window-limited, delayed ACKs, TX_BURST and ACK events through the direct CC processor) allocate
 * nothing per packet on the simulation thread.
 *
 * <p>Run interpreted ({@code -Xint}) the measured flows allocate exactly 0 bytes. Under the JIT a
 * few hundred bytes may appear once in a while (deoptimisation re-materialising objects the
 * compiler had scalar-replaced), so the assertion is a bound that any per-packet allocation breaks
 * by far: 4000 data packets + 2000 ACKs, each at least a 16-byte object if anything were allocated
 * per packet, is at least 96,000 bytes; the bound is 8,192.
 */
class SteadyStateAllocationTest {

    private static final class Count implements FlowListener {
        int completed;

        @Override
        public void onFlowComplete(final int flowId, final long completionPs) {
            completed++;
        }
    }

    @Test
    void flowsAfterWarmUpAllocateNothingPerPacket() {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry counters = new CounterRegistry();
        final NicConfig cb = new NicConfig();
        cb.ackEveryPackets = 2;
        final RoceNic a = new RoceNic(sim, "a", 0, new NicConfig(), counters, pool);
        final RoceNic b = new RoceNic(sim, "b", 1, cb, counters, pool);
        a.connect(Bench.RATE, Bench.PROP_PS, b, 0);
        b.connect(Bench.RATE, Bench.PROP_PS, a, 0);
        final FixedAlgorithm alg = new FixedAlgorithm();
        alg.record = false;
        alg.rate = 3 << 18; // 75 Gb/s: the pacer, not the link, spaces packets
        alg.windowBytes = 32 * 1024;
        a.setCcProcessor(new DirectCcProcessor(alg, 0, a));
        final Count count = new Count();
        final com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        a.startFlow(1, 5, b, 6, MessageOp.WRITE, 4_000 * 1024, 2000, count);
        sim.runUntil(Long.MAX_VALUE);
        final long poolPeak = pool.allocated();
        final long before = mx.getCurrentThreadAllocatedBytes();
        a.startFlow(2, 5, b, 6, MessageOp.WRITE, 4_000 * 1024, 2000, count);
        sim.runUntil(Long.MAX_VALUE);
        final long allocated = mx.getCurrentThreadAllocatedBytes() - before;

        assertEquals(2, count.completed);
        assertEquals(8_000, a.dataPacketsSent());
        assertEquals(poolPeak, pool.allocated(), "packet pool grew in the second flow");
        assertEquals(0, pool.outstanding());
        assertTrue(allocated < 8_192, "bytes allocated by the second flow: " + allocated);
    }
}
