package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CounterRegistryTest {

    @Test
    void viewCounterReadsAndWritesItsCell() {
        final CounterRegistry reg = new CounterRegistry();
        final long[] cells = new long[4];
        final Counter own = reg.counter("sw0", "no_route_drops");
        final Counter view = reg.counter("sw0/port1/q3", "enqueued_packets", cells, 2);

        cells[2] += 5;          // the owner's hot path writes the cell directly
        view.increment();       // and the counter API writes the same cell
        view.add(10);
        assertEquals(16, view.get());
        assertEquals(16, cells[2]);
        view.max(7);            // below: unchanged
        assertEquals(16, cells[2]);
        view.max(40);
        assertEquals(40, cells[2]);
        own.increment();
        assertEquals(1, own.get());
        assertEquals(0, cells[0] + cells[1] + cells[3]);

        // allocation order is output order, whatever the backing
        assertEquals(2, reg.all().size());
        assertSame(own, reg.all().get(0));
        assertSame(view, reg.all().get(1));
        assertEquals(40, reg.value("sw0/port1/q3", "enqueued_packets"));
    }

    @Test
    void lookUpWithoutBackingReturnsTheView() {
        final CounterRegistry reg = new CounterRegistry();
        final long[] cells = new long[2];
        final Counter view = reg.counter("leaf0/port2/q3", "wred_drops", cells, 1);
        assertSame(view, reg.counter("leaf0/port2/q3", "wred_drops"));
        assertSame(view, reg.counter("leaf0/port2/q3", "wred_drops", cells, 1));
    }

    @Test
    void rejectsAnotherBackingAndCellsOutsideTheArray() {
        final CounterRegistry reg = new CounterRegistry();
        final long[] cells = new long[2];
        reg.counter("sw0/port0/q0", "tail_drops", cells, 0);
        final IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
            () -> reg.counter("sw0/port0/q0", "tail_drops", cells, 1));
        assertEquals("counter sw0/port0/q0/tail_drops exists with another backing", other.getMessage());
        final IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
            () -> reg.counter("sw0/port0/q1", "tail_drops", cells, 2));
        assertEquals("cell 2 is outside 0..1", outside.getMessage());
    }
}
