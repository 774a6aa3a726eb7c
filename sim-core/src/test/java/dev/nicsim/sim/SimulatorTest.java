package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SimulatorTest {

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
