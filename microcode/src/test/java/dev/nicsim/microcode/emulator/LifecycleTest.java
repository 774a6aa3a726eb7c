package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Flows ending with events in the emulator, bad events, free-running mode and steady-state allocation. */
class LifecycleTest {
    private static final long NS = 1_000L;

    /**
     * One core, one thread, 100 ns per event. ACK f1 runs 0-100; ACK f2 and TX f2 wait; f2 ends at
     * 50 ns: its two waiting events are discarded when taken at 100 ns and counted as unknown-flow,
     * as is an event for a QPN never started. Nothing else is lost.
     */
    @Test
    void eventsOfAnEndedFlowAreCountedNotRun() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).dispatchCycles(0)
            .contextHitCycles(0).contextMissCycles(0).writeBackCycles(0);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(100, 100, 100, 100, 100, 100), 0, s);
        s.processor = emu;
        emu.startFlow(1, 0, 100_000_000_000L, 1000, 10_000);
        emu.startFlow(2, 0, 100_000_000_000L, 1000, 10_000);
        s.results.clear();
        s.event.reset(PccEventType.ACK, 0, 1, 1, 0);
        s.offer(0);
        s.event.reset(PccEventType.ACK, 0, 2, 1, 10);
        s.offer(10 * NS);
        s.event.reset(PccEventType.TX_BURST, 0, 2, 1, 20);
        s.offer(20 * NS);
        s.runTo(50 * NS);
        emu.endFlow(2);
        s.event.reset(PccEventType.CNP, 0, 99, 1, 60);
        s.offer(60 * NS);
        // f2 restarts (same QPN, same slot): its new event runs, the old ones do not merge into it
        emu.startFlow(2, 70 * NS, 100_000_000_000L, 1000, 10_000);
        s.event.reset(PccEventType.ACK, 0, 2, 9, 80);
        s.offer(80 * NS);
        s.finish();
        final Map<String, Long> c = new LinkedHashMap<>();
        emu.forEachCounter(c::put);
        assertEquals(3L, c.get("events_for_unknown_flow")); // ACK f2, TX f2 (old), CNP f99
        assertEquals(2L, c.get("ack_events_handled")); // f1 and the new f2
        assertEquals(0L, c.get("ack_events_coalesced"));
        // f1 done at 100; the stale entries are dropped at 100; the new f2 ACK runs 100-200
        assertEquals(200 * NS, s.results.get(s.results.size() - 1).effectivePs());
    }

    /**
     * Stepped mode writes offered events straight into the pending table: 10,000 events through a
     * queue of 4, each handled before the next, all run, none dropped, and no ring is used (its
     * producer position stays 0; through a ring it would stand at 10,000 x 80 bytes).
     */
    @Test
    void steppedOffersBypassTheRing() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).ringCapacity(4);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(10, 10, 10, 10, 10, 10), 0, s);
        s.processor = emu;
        emu.startFlow(1, 0, 100_000_000_000L, 1000, 10_000);
        for (int i = 0; i < 10_000; i++) {
            s.event.reset(PccEventType.ACK, 0, 1, i, i);
            s.offer(i * 1000 * NS);
            assertEquals(0L, emu.ringProducerPosition(0), "after event " + i);
            s.runTo(i * 1000 * NS + 500 * NS);
        }
        s.finish();
        final Map<String, Long> c = new LinkedHashMap<>();
        emu.forEachCounter(c::put);
        assertEquals(10_000L, c.get("ack_events_handled"));
        assertEquals(0L, c.get("ack_events_dropped"));
    }

    /**
     * Latencies go into the histograms in batches of 256; every read sees all recorded so far.
     * At 1 GHz, a latency of 1000 i + 1 ps is i + 1 ns rounded up and i cycles rounded down, so
     * 600 of them (i = 0..599) are the ns values 1..600 and the cycle values 0..599: read after
     * 100 (inside the first batch) and after 600 (two batches and 88 more), the histograms hold
     * exactly those values, with the exact maximum below 256 (HdrHistogram, 2 digits).
     */
    @Test
    void latencyHistogramsSeeEveryRecordedValueAcrossBatches() {
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig(), () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0,
            (q, r, t, y) -> { });
        for (int i = 0; i < 100; i++) {
            emu.recordLatency(1000L * i + 1);
        }
        assertEquals(100, emu.latencyNsHistogram().getTotalCount());
        assertEquals(100, emu.latencyNsHistogram().getMaxValue());   // 1..100 ns
        assertEquals(99, emu.latencyCyclesHistogram().getMaxValue()); // 0..99 cycles
        assertEquals(50, emu.latencyNsHistogram().getValueAtPercentile(50));
        final org.HdrHistogram.Histogram ns = new org.HdrHistogram.Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
        final org.HdrHistogram.Histogram cycles = new org.HdrHistogram.Histogram(UnicEmulator.LATENCY_HIGHEST, 2);
        for (int i = 0; i < 600; i++) {
            ns.recordValue(i + 1);
            cycles.recordValue(i);
        }
        for (int i = 100; i < 600; i++) {
            emu.recordLatency(1000L * i + 1);
        }
        assertEquals(ns, emu.latencyNsHistogram());
        assertEquals(cycles, emu.latencyCyclesHistogram());
        final Map<String, Long> counters = new LinkedHashMap<>();
        emu.forEachCounter(counters::put);
        assertEquals(600, counters.get("latency_samples"));
        assertEquals(ns.getValueAtPercentile(99), counters.get("latency_p99_ns"));
    }

    @Test
    void eventTypeOutOfRangeIsRejected() {
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig(), () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0,
            (q, r, t, y) -> { });
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        e.reset(PccEventType.COUNT, 0, 1, 1, 0);
        assertThrows(IllegalArgumentException.class, () -> emu.offer(e, 0));
        final IllegalStateException twice = assertThrows(IllegalStateException.class, () -> {
            emu.startFlow(1, 0, 1_000_000_000L, 1000, 1000);
            emu.startFlow(1, 0, 1_000_000_000L, 1000, 1000);
        });
        assertTrue(twice.getMessage().contains("already started"));
    }

    /**
     * Free-running: 2 cores on 2 agent threads, one producer (this thread) offering 200,000 events
     * over 64 flows, retrying each until accepted. Every accepted event is handled or merged;
     * every refusal is counted as a drop of its type; the sink saw one result per handled event.
     */
    @Test
    void freeRunningHandlesEveryAcceptedEvent() {
        final AtomicLong delivered = new AtomicLong();
        final PccAlgorithmProvider p = PccAlgorithms.byName("dcqcn");
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig().cores(2).ringCapacity(64),
            () -> p.create(p.defaults()), 0, (q, r, t, y) -> delivered.incrementAndGet());
        for (int f = 1; f <= 64; f++) {
            emu.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        delivered.set(0);
        emu.startFreeRunning(1, BackoffIdleStrategy::new);
        assertThrows(IllegalStateException.class, () -> emu.advance(0));
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        long refused = 0;
        for (int i = 0; i < 200_000; i++) {
            e.reset(i % 3 == 0 ? PccEventType.CNP : PccEventType.TX_BURST, 0, 1 + (i & 63), i, i).tx(1000, 1);
            while (!emu.offer(e, i)) {
                refused++;
                Thread.onSpinWait();
            }
        }
        emu.stopFreeRunning();
        long handled = 0;
        long merged = 0;
        long dropped = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            handled += emu.handled(t);
            merged += emu.coalesced(t);
            dropped += emu.dropped(t);
        }
        assertEquals(200_000, handled + merged);
        assertEquals(refused, dropped);
        assertEquals(handled, delivered.get());
        assertTrue(emu.coreHandled(0) > 0 && emu.coreHandled(1) > 0);
    }

    /**
     * Stepped steady state allocates nothing per event: 20,000 DCQCN events (2 per flow-time,
     * misses, queueing, merges) after a warm-up; any per-event allocation would be >= 16 B x 20,000.
     */
    @Test
    void steppedSteadyStateAllocatesNothing() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final PccAlgorithmProvider p = PccAlgorithms.byName("dcqcn");
        final long[] sinkSum = new long[1];
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig().cores(4).contextCacheEntries(8),
            () -> p.create(p.defaults()), 0, (q, r, t, y) -> sinkSum[0] += r.rate() + t);
        for (int f = 1; f <= 40; f++) {
            emu.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        final long[] clock = {0, Long.MAX_VALUE};
        run(emu, e, clock, 0, 50_000);
        final long before = threads.getCurrentThreadAllocatedBytes();
        run(emu, e, clock, 50_000, 20_000);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 4_096, "allocated " + allocated + " bytes");
        assertTrue(sinkSum[0] != 0);
    }

    private static void run(final UnicEmulator emu, final PccEvent e, final long[] clock, final int from, final int n) {
        for (int i = from; i < from + n; i++) {
            clock[0] += 20_000 + (i % 7) * 3_000;
            while (clock[1] <= clock[0]) {
                final long at = clock[1];
                clock[1] = Long.MAX_VALUE;
                clock[1] = Math.min(clock[1], emu.advance(at));
            }
            e.reset(i % 5 == 0 ? PccEventType.CNP : (i % 5 == 1 ? PccEventType.TIMER : PccEventType.TX_BURST), 0,
                1 + (i * 7) % 40, i, (int) (clock[0] / 1000)).tx(1000, 1);
            emu.offer(e, clock[0]);
            clock[1] = Math.min(clock[1], emu.advance(clock[0]));
        }
    }
}
