package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterRegistryTest {
    /** A two-queue "device": rows in report order, cells in the device's own order (q row of 2 cells, then a total). */
    private static CounterLayout twoQueues() {
        return CounterLayout.builder(5)
            .row("", "drops", 4)
            .row("/q0", "enqueued", 0)
            .row("/q0", "peak", 1)
            .row("/q1", "enqueued", 2)
            .row("/q1", "peak", 3)
            .build();
    }

    private static List<String> rows(final CounterRegistry reg, final boolean zeros) throws IOException {
        final List<String> out = new ArrayList<>();
        reg.forEach(zeros, (c, n, v) -> out.add(c + "," + n + "," + v));
        return out;
    }

    @Test
    void rowsComeInBlockThenLayoutOrderAndZerosOnlyWhenAsked() throws IOException {
        final CounterRegistry reg = new CounterRegistry();
        final CounterLayout l = twoQueues();
        final long[] a = new long[5];
        final long[] shared = new long[7]; // a second device in a block at offset 2 of a larger array
        reg.register("sw0", l, a, 0);
        reg.register("sw1", l, shared, 2);
        reg.register("host0", CounterLayout.of("tx", "rx"), new long[] {0, 9}, 0);
        a[2] = 3;      // sw0/q1 enqueued
        a[4] = 1;      // sw0 drops
        shared[3] = 7; // sw1/q0 peak
        shared[0] = 99; // outside sw1's block: never a row
        assertEquals(3, reg.blocks());
        assertEquals(12, reg.rows());
        assertEquals(List.of("sw0,drops,1", "sw0/q0,enqueued,0", "sw0/q0,peak,0", "sw0/q1,enqueued,3", "sw0/q1,peak,0",
            "sw1,drops,0", "sw1/q0,enqueued,0", "sw1/q0,peak,7", "sw1/q1,enqueued,0", "sw1/q1,peak,0",
            "host0,tx,0", "host0,rx,9"), rows(reg, true));
        assertEquals(List.of("sw0,drops,1", "sw0/q1,enqueued,3", "sw1/q0,peak,7", "host0,rx,9"), rows(reg, false));
    }

    @Test
    void lookUpsByNameReadTheCells() {
        final CounterRegistry reg = new CounterRegistry();
        final long[] a = new long[5];
        final long[] b = new long[5];
        reg.register("sw0", twoQueues(), a, 0);
        reg.register("sw01", twoQueues(), b, 0); // a component that extends sw0's name
        a[3] = 4;
        b[3] = 10;
        b[1] = 6;
        assertEquals(4, reg.value("sw0/q1", "peak"));
        assertEquals(10, reg.value("sw01/q1", "peak"));
        assertEquals(6, reg.value("sw01/q0", "peak"));
        assertEquals(20, reg.sum("sw0", "peak"));      // a component prefix: sw0/q1 4, sw01/q0 6, sw01/q1 10
        assertEquals(20, reg.sum("", "peak"));
        assertEquals(10, reg.sum("sw01/q1", "peak"));
        assertEquals(4, reg.sum("sw0/", "peak"));       // a prefix longer than the block's component
        assertEquals(0, reg.sum("sw0/q0", "peak"));
        assertTrue(reg.has("sw0/q0", "enqueued"));
        assertFalse(reg.has("sw0/q2", "enqueued"));
        assertFalse(reg.has("sw0", "peak"));

        final Counter c = reg.find("sw0/q0", "enqueued"); // a handle on a[0]
        c.increment();
        c.add(10);
        c.max(7);
        assertEquals(11, a[0]);
        c.max(40);
        assertEquals(40, a[0]);
        c.set(2);
        assertEquals(2, reg.value("sw0/q0", "enqueued"));
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> reg.value("sw0/q2", "peak"));
        assertEquals("no counter sw0/q2/peak", none.getMessage());
    }

    @Test
    void rejectsBlocksOutsideTheirArrayAndLayoutsWithTwinRows() {
        final CounterRegistry reg = new CounterRegistry();
        final IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
            () -> reg.register("sw0", twoQueues(), new long[6], 2));
        assertEquals("cells 2..6 are outside 0..5 (sw0)", outside.getMessage());
        assertEquals(0, reg.blocks());
        assertThrows(IllegalArgumentException.class, () -> CounterLayout.of("tx", "tx"));
        assertThrows(IllegalArgumentException.class,
            () -> CounterLayout.builder(2).row("", "tx", 0).row("", "rx", 0).build());
    }

    @Test
    void sharedValuesAreMadeOncePerKey() {
        final CounterRegistry reg = new CounterRegistry();
        final int[] made = {0};
        final CounterLayout first = reg.shared("switch/2", () -> {
            made[0]++;
            return twoQueues();
        });
        final CounterLayout again = reg.shared("switch/2", () -> {
            made[0]++;
            return twoQueues();
        });
        assertSame(first, again);
        assertEquals(1, made[0]);
        assertEquals(5, first.width());
        assertEquals(3, first.rowOf("/q1", "enqueued"));
        assertEquals(-1, first.rowOf("/q2", "enqueued"));
    }
}
