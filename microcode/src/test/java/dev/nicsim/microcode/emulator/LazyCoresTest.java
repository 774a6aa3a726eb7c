package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.MeasuredPccAlgorithm;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cores exist from their first use (issue 39): an emulator no flow or event touched has no core,
 * one QP makes exactly its own core, the counters still name all cores with zeros for the unused,
 * and a run gives event for event the results and counters of an eager build (every core made,
 * in core order, before the first flow, as the emulator did before).
 */
class LazyCoresTest {
    private static final String[] CORE_COUNTERS = {"events_handled", "events_coalesced", "events_dropped",
        "busy_cycles", "utilisation_ppm", "ring_high_water_events"};

    /** 16 cores; QPN 77 only: one core made, 3 events handled there, 15 cores of zeros named as ever. */
    @Test
    void aNicWithoutFlowsHasNoCoreAndOneQpMakesOnlyItsOwn() {
        final Stepper s = new Stepper();
        final int[] made = {0};
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig(),
            () -> new RecordingAlgorithm(made[0]++, new ArrayList<>(), 30, 30, 30, 30, 30, 30), 0, s);
        s.processor = emu;
        assertEquals(16, emu.cores());
        assertEquals(0, emu.coresCreated());
        assertEquals(1, made[0]); // the first instance only: names the algorithm counters, checks the estimates
        final Map<String, Long> idle = new LinkedHashMap<>();
        emu.forEachCounter(idle::put);

        final int qpn = 77;
        final int home = emu.coreOf(qpn);
        emu.startFlow(qpn, 0, 100_000_000_000L, 1000, 10_000);
        assertEquals(1, emu.coresCreated());
        for (int i = 1; i <= 3; i++) { // 1 us apart: each handled alone (8 + 4 + 30 + 8 = 50 cycles at 1 GHz)
            s.event.reset(PccEventType.ACK, 0, qpn, i, i);
            s.firstSn(i);
            s.offer(i * 1_000_000L);
        }
        s.finish();
        assertEquals(1, emu.coresCreated());
        assertEquals(home == 0 ? 1 : 2, made[0]);

        final Map<String, Long> c = new LinkedHashMap<>();
        emu.forEachCounter(c::put);
        assertEquals(new ArrayList<>(idle.keySet()), new ArrayList<>(c.keySet())); // same names, same order
        for (int i = 0; i < 16; i++) {
            for (final String name : CORE_COUNTERS) {
                final long v = c.get("core" + i + "_" + name);
                if (i != home) {
                    assertEquals(0L, v, "core" + i + "_" + name);
                }
            }
        }
        assertEquals(3L, c.get("core" + home + "_events_handled"));
        assertEquals(150L, c.get("core" + home + "_busy_cycles"));
        assertEquals(3L, c.get("ack_events_handled"));
        assertEquals(3L, c.get("recording_events")); // the algorithm's counter, from the one instance that ran
        assertEquals(3L, c.get("latency_samples"));
        assertEquals(50L, c.get("latency_max_ns"));
        assertEquals(0L, idle.get("latency_samples"));
        assertEquals(0L, idle.get("recording_events"));
    }

    /**
     * A pending table grows from 8 entries while events wait in it, its head mid-table, and merges
     * still reach their own flow's entry. One core, one thread, handler 1,000 cycles at 1 GHz
     * (1,020 ns per event on a context hit). t = 0: ACKs of flows 1..8 (flow 1 runs, 2..8 wait in
     * entries 0..6). At 1,020 ns flow 1 completes and flow 2 runs (the head moves to entry 1). At
     * 1,100 ns ACKs of flows 9..12: 9 and 10 fill the table (entry 7, then entry 0 round the end),
     * 11 finds it full: it grows to 16 entries. At 1,101 ns a second ACK of every flow: 1's and 2's
     * queue (1 is done, 2 runs), 3..12 merge into their waiting ACKs. So 14 events are handled,
     * flows 1, 2, .., 12, 1, 2; flows 3..12 with 2 events coalesced, sn 2 after first sn 1.
     */
    @Test
    void aGrownPendingTableKeepsOrderAndMerges() {
        final List<RecordingAlgorithm.Seen> seen = new ArrayList<>();
        final Stepper s = new Stepper();
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig().cores(1).threadsPerCore(1).ringCapacity(32),
            () -> new RecordingAlgorithm(0, seen, 1000, 1000, 1000, 1000, 1000, 1000), 0, s);
        s.processor = emu;
        for (int f = 1; f <= 12; f++) {
            emu.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        for (int f = 1; f <= 12; f++) {
            s.event.reset(PccEventType.ACK, 0, f, 1, 0);
            s.firstSn(1);
            s.offer(f <= 8 ? 0 : 1_100_000L);
        }
        assertEquals(10, emu.pendingEvents(0));
        for (int f = 1; f <= 12; f++) {
            s.event.reset(PccEventType.ACK, 0, f, 2, 1);
            s.firstSn(2);
            s.offer(1_101_000L);
        }
        assertEquals(12, emu.pendingEvents(0));
        s.finish();
        assertEquals(14, seen.size());
        for (int i = 0; i < 14; i++) {
            final RecordingAlgorithm.Seen e = seen.get(i);
            assertEquals(i < 12 ? i + 1 : i - 11, e.qpn(), "event " + i);
            final boolean merged = i >= 2 && i < 12;
            assertEquals(merged ? 2 : 1, e.numCoalesced(), "event " + i);
            assertEquals(i < 2 ? 1 : 2, e.sn(), "event " + i);
            assertEquals(i < 12 ? 1 : 2, e.firstSn(), "event " + i);
        }
        assertEquals(10, emu.coalesced(PccEventType.ACK));
    }

    /** Firmware-like algorithms (measured handlers) get every core at construction, instance i on core i. */
    @Test
    void measuredAlgorithmsGetAllCoresInCoreOrder() {
        final int[] made = {0};
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig().cores(4), () -> new Measured(made[0]++), 0,
            (q, r, t, y) -> { });
        assertEquals(4, emu.coresCreated());
        for (int i = 0; i < 4; i++) {
            assertEquals(i, ((Measured) emu.algorithm(i)).instance);
        }
    }

    /**
     * DCQCN on 16 cores x 2 threads, ring capacity 20, context cache 3: 40 flows on six cores, bursts
     * that fill those cores' queues (so pending tables grow from 8 entries to capacity, merge and drop), events for
     * QPNs never started on a seventh core, flows ended and started again, and a sink that offers
     * again as the NIC does. The lazy emulator makes 7 cores; an eager one (all 16 made in core
     * order first) gives the identical result sequence and counters, names and order included.
     */
    @Test
    void resultsEqualAnEagerBuildEventForEvent() {
        final Run lazy = new Run(false).go(11);
        final Run eager = new Run(true).go(11);
        assertEquals(7, lazy.emu.coresCreated());
        assertEquals(16, eager.emu.coresCreated());
        assertTrue(lazy.out.size() > 10_000, "results " + lazy.out.size());
        assertEquals(eager.out, lazy.out);
        assertEquals(new ArrayList<>(eager.counters.entrySet()), new ArrayList<>(lazy.counters.entrySet()));
        long dropped = 0;
        long coalesced = 0;
        for (final String t : new String[] {"tx", "ack", "nack", "cnp", "rtt", "timer"}) {
            dropped += lazy.counters.get(t + "_events_dropped");
            coalesced += lazy.counters.get(t + "_events_coalesced");
        }
        assertTrue(dropped > 0, "no drops");
        assertTrue(coalesced > 0, "no merges");
        assertTrue(lazy.counters.get("context_cache_misses") > 0, "no misses");
        assertTrue(lazy.counters.get("events_for_unknown_flow") > 0, "no unknown flows");
        assertEquals(20L, lazy.counters.get("ring_high_water_events")); // a queue reached capacity
        assertEquals(0L, lazy.counters.get("core1_events_handled"));
    }

    /** The seeded run; {@code eager} makes every core first, in core order, through {@link UnicEmulator#algorithm}. */
    private static final class Run implements CcResultSink {
        private static final int[] USED_CORES = {0, 2, 3, 5, 7, 8};
        final boolean eager;
        final List<String> out = new ArrayList<>();
        final Map<String, Long> counters = new LinkedHashMap<>();
        final PccEvent reentrant = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        UnicEmulator emu;
        long wakeUp = Long.MAX_VALUE;
        int results;

        Run(final boolean eager) {
            this.eager = eager;
        }

        @Override
        public void onResult(final int qpn, final PccResult r, final long effectivePs, final long cycles) {
            out.add(qpn + " " + r + " @" + effectivePs + " c" + cycles);
            if (++results % 7 == 0) {
                reentrant.reset(PccEventType.TX_BURST, 0, qpn, results, (int) (effectivePs / 1000)).tx(4096, 4);
                emu.offer(reentrant, effectivePs);
                wakeUp = Math.min(wakeUp, emu.advance(effectivePs));
            }
        }

        Run go(final long seed) {
            final PccAlgorithmProvider p = PccAlgorithms.byName("dcqcn");
            final EmulatorConfig cfg = new EmulatorConfig().threadsPerCore(2).contextCacheEntries(3).ringCapacity(20)
                .clockHz(400_000_000L);
            emu = new UnicEmulator(cfg, () -> p.create(p.defaults()), 0, this);
            if (eager) {
                for (int c = 0; c < emu.cores(); c++) {
                    emu.algorithm(c);
                }
            }
            final int[] flows = new int[40];
            final int[] unknown = new int[5];
            int n = 0;
            int u = 0;
            for (int q = 1; n < flows.length || u < unknown.length; q++) {
                final int core = emu.coreOf(q);
                if (n < flows.length && Arrays.stream(USED_CORES).anyMatch(x -> x == core)) {
                    flows[n++] = q;
                } else if (u < unknown.length && core == 11) {
                    unknown[u++] = q;
                }
            }
            for (final int q : flows) {
                emu.startFlow(q, 0, 100_000_000_000L, 1000, 10_000);
            }
            final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
            long lcg = seed;
            long t = 0;
            for (int i = 0; i < 30_000; i++) {
                lcg = lcg * 6364136223846793005L + 1442695040888963407L;
                t += ((lcg >>> 40) & 31) == 0 ? 3_000_000 : (lcg >>> 52) & 127;
                runTo(t);
                final int type = (int) ((lcg >>> 20) % PccEventType.COUNT);
                final int pick = (int) ((lcg >>> 33) % (flows.length + 2));
                final int qpn = pick < flows.length ? flows[pick] : unknown[(int) ((lcg >>> 8) % unknown.length)];
                if (i % 5_000 == 4_999) { // a flow ends with events waiting, and starts again
                    emu.endFlow(flows[i % flows.length]);
                    emu.startFlow(flows[i % flows.length], t, 100_000_000_000L, 1000, 10_000);
                }
                e.reset(type, 0, qpn, i, (int) (t / 1000)).tx(1024, 1);
                emu.offer(e, t);
                wakeUp = Math.min(wakeUp, emu.advance(t));
            }
            runTo(Long.MAX_VALUE - 1);
            emu.forEachCounter(counters::put);
            return this;
        }

        private void runTo(final long t) {
            while (wakeUp <= t) {
                final long at = wakeUp;
                wakeUp = Long.MAX_VALUE;
                wakeUp = Math.min(wakeUp, emu.advance(at));
            }
        }
    }

    /** A stand-in for firmware: an algorithm that measures its own handlers. */
    private static final class Measured implements MeasuredPccAlgorithm {
        final int instance;
        private final PccCounters counters = new PccCounters();

        Measured(final int instance) {
            this.instance = instance;
        }

        @Override
        public void prepare(final int hardwareThread, final int contextExtraCycles) {
        }

        @Override
        public long lastHandlerCycles() {
            return 10;
        }

        @Override
        public long lastContextAccessCycle() {
            return 0;
        }

        @Override
        public int contextWords() {
            return 1;
        }

        @Override
        public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        }

        @Override
        public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                            final PccResult result) {
        }

        @Override
        public int handlerCycles(final int eventType) {
            return 10;
        }

        @Override
        public PccCounters counters() {
            return counters;
        }
    }
}
