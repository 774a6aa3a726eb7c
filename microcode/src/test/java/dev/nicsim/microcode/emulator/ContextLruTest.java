package dev.nicsim.microcode.emulator;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The context cache is least-recently-used over flow slots: with 2 entries, the sequence
 * 0, 1, 0, 2, 1, 2, 0 is miss, miss, hit (0 to the front), miss (evicts 1, the least recent),
 * miss (evicts 0), hit, miss (evicts 1): 2 hits, 5 misses, worked out by hand.
 */
class ContextLruTest {

    @Test
    void evictsTheLeastRecentlyUsedSlot() {
        int[] flows = FlowTable.grow(new int[0], 4);
        final ContextLru lru = new ContextLru(2);
        final boolean[] expected = {false, false, true, false, false, true, false};
        final int[] slots = {0, 1, 0, 2, 1, 2, 0};
        for (int i = 0; i < slots.length; i++) {
            assertEquals(expected[i], lru.access(flows, slots[i]), "access " + i + " of slot " + slots[i]);
        }
        assertEquals(2, lru.hits);
        assertEquals(5, lru.misses);
        // now cached: 0 (front) and 2; 1 was evicted
        assertTrue(FlowTable.cached(flows, 0));
        assertTrue(FlowTable.cached(flows, 2));
        assertFalse(FlowTable.cached(flows, 1));
        flows = FlowTable.grow(flows, 8); // the table the core grows keeps the list
        lru.remove(flows, 0);
        assertFalse(FlowTable.cached(flows, 0));
        assertTrue(lru.access(flows, 2));
    }

    @Test
    void insertDoesNotCountAndZeroEntriesNeverCache() {
        final int[] flows = FlowTable.grow(new int[0], 4);
        final ContextLru lru = new ContextLru(1);
        lru.insert(flows, 3);
        assertEquals(0, lru.hits + lru.misses);
        assertTrue(lru.access(flows, 3));
        final ContextLru none = new ContextLru(0);
        none.insert(flows, 1);
        assertFalse(none.access(flows, 1));
        assertFalse(FlowTable.cached(flows, 1));
        assertEquals(1, none.misses);
    }
}
