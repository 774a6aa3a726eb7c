package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cycle-approximate timing, derived by hand from the model in {@link UnicEmulator}: completion =
 * arrival + queueing + cycles / clock; context misses wait without holding the core, so more
 * hardware threads overlap them up to the core's issue rate.
 */
class TimingTest {
    private static final int A = 1;
    private static final int B = 2;
    private static final int C = 3;
    private static final long NS = 1_000L;

    private static Map<String, Long> counters(final UnicEmulator e) {
        final Map<String, Long> m = new LinkedHashMap<>();
        e.forEachCounter(m::put);
        return m;
    }

    /**
     * One core, one thread, 1 GHz (1 cycle = 1 ns = 1,000 ps). D = 10, H = 5, M = 30, W = 5 cycles;
     * handler ACK = 80 (config override of the algorithm's 60), TX = 20 (the algorithm's own).
     * Context cache of 2 flows; flows A, B, C start in that order, so the cache holds C, B (A was
     * evicted when C started).
     * <pre>
     * ACK hit  = D + H + 80 + W = 100 cycles     ACK miss = D + M + 80 + W = 125 (core busy 10 + 85)
     * TX  miss = D + M + 20 + W = 65 (busy 10 + 25)
     * e1 ACK A @0:    A misses (cache -> A, C); idle core          -> done 0 + 125          = 125 ns
     * e2 ACK C @20:   waits for the thread until 125, C hits (-> C, A) -> 125 + 100 = 225 ns
     *                 = arrival 20 + queueing 105 + 100 cycles
     * e3 TX  B @100:  waits until 225, B misses (-> B, C; A evicted) -> 225 + 65  = 290 ns
     *                 = arrival 100 + queueing 125 + 65 cycles
     * e4 ACK C @1000: idle, C hits                                 -> 1000 + 100 = 1100 ns
     * </pre>
     */
    @Test
    void completionIsArrivalPlusQueueingPlusCyclesOverClock() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).clockHz(1_000_000_000L)
            .dispatchCycles(10).contextHitCycles(5).contextMissCycles(30).writeBackCycles(5)
            .contextCacheEntries(2).handlerCycles(PccEventType.ACK, 80);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(20, 60, 40, 40, 40, 40), 0, s);
        s.processor = emu;
        emu.startFlow(A, 0, 100_000_000_000L, 1000, 10_000);
        emu.startFlow(B, 0, 100_000_000_000L, 1000, 10_000);
        emu.startFlow(C, 0, 100_000_000_000L, 1000, 10_000);
        s.results.clear();

        s.event.reset(PccEventType.ACK, 0, A, 1, 0);
        s.offer(0);
        s.event.reset(PccEventType.ACK, 0, C, 1, 20);
        s.offer(20 * NS);
        s.event.reset(PccEventType.TX_BURST, 0, B, 1, 100).tx(1000, 1);
        s.offer(100 * NS);
        s.event.reset(PccEventType.ACK, 0, C, 2, 1000);
        s.offer(1000 * NS);
        s.finish();

        assertArrayEquals(new long[] {125 * NS, 225 * NS, 290 * NS, 1100 * NS}, s.effectiveTimes());
        assertEquals(125, s.results.get(0).cycles());
        assertEquals(100, s.results.get(1).cycles());
        assertEquals(65, s.results.get(2).cycles());
        assertEquals(100, s.results.get(3).cycles());
        final Map<String, Long> c = counters(emu);
        assertEquals(2L, c.get("context_cache_hits")); // e2, e4
        assertEquals(2L, c.get("context_cache_misses")); // e1, e3
        assertEquals(95L + 100 + 35 + 100, c.get("busy_cycles")); // misses do not count their wait
        // latencies 125, 205, 190, 100 ns: sorted 100, 125, 190, 205
        assertEquals(4L, c.get("latency_samples"));
        assertEquals(125L, c.get("latency_p50_ns"));
        assertEquals(205L, c.get("latency_p99_ns"));
        assertEquals(205L, c.get("latency_p99_cycles")); // 1 cycle = 1 ns
        assertEquals(205L, c.get("latency_max_ns"));
        // elapsed: the last advance was at 1,100 ns = 1,100 cycles; busy 330 -> 300,000 ppm
        assertEquals(1_100L, c.get("elapsed_cycles"));
        assertEquals(300_000L, c.get("utilisation_ppm"));
        assertEquals(300_000L, c.get("core0_utilisation_ppm"));
    }

    /**
     * 500 MHz: one cycle is 2,000 ps. An ACK that hits costs D + H + 80 + W = 8 + 4 + 80 + 8 = 100
     * cycles = 200,000 ps: arriving at 1,000,000 ps at an idle core it completes at 1,200,000 ps.
     */
    @Test
    void cyclesScaleWithTheClock() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).clockHz(500_000_000L).dispatchCycles(8)
            .contextHitCycles(4).writeBackCycles(8).handlerCycles(PccEventType.ACK, 80);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0, s);
        s.processor = emu;
        emu.startFlow(A, 0, 100_000_000_000L, 1000, 10_000);
        s.results.clear();
        s.event.reset(PccEventType.ACK, 0, A, 1, 1000);
        s.offer(1_000_000L);
        s.finish();
        assertArrayEquals(new long[] {1_200_000L}, s.effectiveTimes());
        assertEquals(100, s.results.get(0).cycles());
        // latency 200 ns = 100 cycles
        final Map<String, Long> c = counters(emu);
        assertEquals(200L, c.get("latency_p50_ns"));
        assertEquals(100L, c.get("latency_p50_cycles"));
    }

    private static long[] missHeavy(final int threads) {
        final Stepper s = new Stepper();
        // every fetch misses (no cache); D = 10, M = 90, handler 10, H = W = 0:
        // an event holds the core 10 (dispatch) + 10 (handler) = 20 cycles and waits 90 between
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(threads).clockHz(1_000_000_000L)
            .contextCacheEntries(0).dispatchCycles(10).contextHitCycles(0).contextMissCycles(90).writeBackCycles(0)
            .handlerCycles(PccEventType.ACK, 10);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0, s);
        s.processor = emu;
        for (int f = 1; f <= 8; f++) {
            emu.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        s.results.clear();
        for (int f = 1; f <= 8; f++) {
            s.event.reset(PccEventType.ACK, 0, f, 1, 0);
            s.offer(0);
        }
        s.finish();
        assertEquals(8 * 20L, emu.busyCycles(0)); // the same core work whatever the threads
        for (final Stepper.Result r : s.results) {
            assertEquals(110, r.cycles()); // 10 + 90 + 10 each
        }
        final long[] ns = s.effectiveTimes();
        for (int i = 0; i < ns.length; i++) {
            ns[i] /= NS;
        }
        return ns;
    }

    /**
     * Eight ACKs of eight flows at t = 0, every context fetch a miss (D = 10 on the core, M = 90
     * waiting, handler 10 on the core).
     * <p>1 thread: nothing overlaps, 110 ns each: done at 110, 220, ..., 880 ns.
     * <p>4 threads (e1..e4 dispatched at 0; a stretch becomes ready when dispatched or when its
     * miss returns, and ready stretches run in the order they became ready):
     * <pre>
     *   0- 40  e1..e4 dispatch stretches; their misses return at 100, 110, 120, 130
     * 100-110  e1 handler -> e1 done 110; e5 dispatched (ready after e2's return at 110)
     * 110-120  e2 handler -> done 120; e6 dispatched
     * 120-130  e5 dispatch (miss returns 220)
     * 130-140  e3 handler -> done 140; e7 dispatched
     * 140-150  e6 dispatch (returns 240)
     * 150-160  e4 handler -> done 160; e8 dispatched
     * 160-180  e7, e8 dispatch (return 260, 270); core idle 180-220
     * 220-230  e5 -> 230;  240-250 e6 -> 250;  260-270 e7 -> 270;  270-280 e8 -> 280
     * </pre>
     * 8 events in 280 ns instead of 880 (3.1x). With 16 threads all eight are dispatched at once:
     * dispatch stretches 0-80, misses return at 100..170, handlers 100-110, ..., 170-180: done at
     * 110, 120, ..., 180, the best any schedule can do: no handler stretch can start before
     * 10 + 90 = 100 ns and the eight 10-cycle handler stretches run one at a time. Beyond that the
     * core's issue rate, one event per 20 busy cycles, bounds the throughput whatever the threads.
     */
    @Test
    void hardwareThreadsOverlapContextMisses() {
        assertArrayEquals(new long[] {110, 220, 330, 440, 550, 660, 770, 880}, missHeavy(1));
        assertArrayEquals(new long[] {110, 120, 140, 160, 230, 250, 270, 280}, missHeavy(4));
        assertArrayEquals(new long[] {110, 120, 130, 140, 150, 160, 170, 180}, missHeavy(16));
    }
}
