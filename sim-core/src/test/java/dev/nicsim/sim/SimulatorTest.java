package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SimulatorTest {

    /**
     * An event scheduled "first among" (time T, scheduled-at S) runs after the events of T scheduled
     * before S and before every event of T scheduled at S or later, whenever it was itself
     * scheduled: where a sampler event scheduled at S (the previous sample) runs in a sequential run.
     */
    @Test
    void anEventFirstAmongItsScheduledAtTimeRunsWhereAnEventScheduledThenFirstWould() {
        final Simulator sim = new Simulator();
        final List<String> order = new ArrayList<>();
        final long t = 2_000_000;
        final long s = 1_000_000;
        sim.schedule(t, (k, a, r) -> order.add("scheduled-at-0"), 0, 0, null);
        sim.schedule(s, (k, a, r) -> {
            sim.schedule(t, (k2, a2, r2) -> order.add("scheduled-at-S"), 0, 0, null);
            sim.schedule(s + 500, (k2, a2, r2) ->
                sim.schedule(t, (k3, a3, r3) -> order.add("scheduled-after-S"), 0, 0, null), 0, 0, null);
        }, 0, 0, null);
        sim.runUntil(s + 600);
        // scheduled last, from outside any event, yet it counts as scheduled at S, before the others of S
        sim.scheduleFirstAmong(t, s, (k, a, r) -> order.add("first-among-S"), 0, 0, null);
        sim.runUntil(t);
        assertEquals(List.of("scheduled-at-0", "first-among-S", "scheduled-at-S", "scheduled-after-S"), order);
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleFirstAmong(t + 10, t + 11, (k, a, r) -> { }, 0, 0, null));
    }

    @Test
    void eventsRunInTimeOrderAndTiesInScheduleOrder() {
        final Simulator sim = new Simulator();
        final List<Long> seen = new ArrayList<>();
        final EventHandler h = (kind, arg, ref) -> seen.add(sim.nowPs() * 100 + arg);
        sim.schedule(30, h, 0, 1, null);
        sim.schedule(10, h, 0, 2, null);
        sim.schedule(30, h, 0, 3, null);
        sim.schedule(10, h, 0, 4, null);
        sim.schedule(20, h, 0, 5, null);
        sim.runUntil(Long.MAX_VALUE);
        // time-major: 10 (2 then 4, schedule order), 20 (5), 30 (1 then 3)
        assertEquals(List.of(1002L, 1004L, 2005L, 3001L, 3003L), seen);
    }

    @Test
    void matchesASortByTimeThenSequenceOnARandomMix() {
        final Simulator sim = new Simulator();
        final SplittableRandom r = new SplittableRandom(3);
        final int n = 50_000;
        final long[] time = new long[n];
        final List<Integer> order = new ArrayList<>();
        final EventHandler h = (kind, arg, ref) -> order.add((int) arg);
        for (int i = 0; i < n; i++) {
            time[i] = r.nextInt(1000); // many ties
            sim.schedule(time[i], h, 0, i, null);
        }
        sim.runUntil(Long.MAX_VALUE);
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(i);
        }
        expected.sort((a, b) -> time[a] != time[b] ? Long.compare(time[a], time[b]) : Integer.compare(a, b));
        assertEquals(expected, order);
    }

    /**
     * Handlers schedule successors both inside the timing wheel's window and beyond it (the
     * overflow heap), at the window's edge and at the same time as pending events; the order must
     * equal a reference (time, schedule sequence) priority queue driven by the same random stream.
     */
    @Test
    void matchesAReferenceQueueWhenEventsCrossTheWheelWindow() {
        final long window = (long) Simulator.WHEEL_SIZE << Simulator.BUCKET_SHIFT;
        final long[] delays = {0, 1, 255, 256, 80_000, 1_000_000, window - 256, window, window + 1, 10 * window,
            50 * window};
        final int total = 200_000;
        // reference: PriorityQueue of {time, seq, id}
        final java.util.PriorityQueue<long[]> ref = new java.util.PriorityQueue<>(
            (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        final List<Long> expected = new ArrayList<>();
        {
            final SplittableRandom r = new SplittableRandom(11);
            long seq = 0;
            int ids = 0;
            for (int i = 0; i < 64; i++) {
                ref.add(new long[] {r.nextLong(3 * window), seq++, ids++});
            }
            while (!ref.isEmpty() && expected.size() < total) {
                final long[] e = ref.poll();
                expected.add(e[0] * 1_000_000L + e[2]);
                final int children = r.nextInt(3); // 0, 1 or 2 successors: the population drifts
                for (int c = 0; c < children && ids < total; c++) {
                    ref.add(new long[] {e[0] + delays[r.nextInt(delays.length)], seq++, ids++});
                }
            }
        }
        final Simulator sim = new Simulator();
        final List<Long> seen = new ArrayList<>();
        final SplittableRandom r = new SplittableRandom(11);
        final int[] ids = {0};
        final EventHandler h = (kind, arg, rf) -> {
            seen.add(sim.nowPs() * 1_000_000L + arg);
            final int children = r.nextInt(3);
            for (int c = 0; c < children && ids[0] < total; c++) {
                sim.scheduleIn(delays[r.nextInt(delays.length)], (EventHandler) rf, 0, ids[0]++, rf);
            }
        };
        for (int i = 0; i < 64; i++) {
            sim.schedule(r.nextLong(3 * window), h, 0, ids[0]++, h);
        }
        // run in slices so that the horizon logic (time resting between events) is exercised too
        long horizon = 0;
        while (sim.pending() > 0 && seen.size() < total) {
            horizon += window / 3;
            sim.runUntil(horizon);
            assertEquals(true, sim.nowPs() <= horizon);
        }
        assertEquals(expected.size(), seen.size());
        assertEquals(expected, seen);
    }

    @Test
    void handlersMayScheduleAndTimeStopsAtTheHorizon() {
        final Simulator sim = new Simulator();
        final int[] count = {0};
        final EventHandler tick = new EventHandler() {
            @Override
            public void onEvent(final int kind, final long arg, final Object ref) {
                count[0]++;
                sim.scheduleIn(100, this, 0, 0, null);
            }
        };
        sim.schedule(0, tick, 0, 0, null);
        // ticks at 0, 100, ..., 1000: 11 events; time then rests at the horizon 1050
        sim.runUntil(1050);
        assertEquals(11, count[0]);
        assertEquals(1050, sim.nowPs());
        assertEquals(1100, sim.nextEventTimePs());
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(1000, tick, 0, 0, null));
    }
}
