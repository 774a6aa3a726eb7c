package dev.nicsim.sim;

import java.util.Arrays;

/**
 * The {@link Simulator}'s overflow queue: a 4-ary min-heap of (time, key) pairs in one
 * {@code long[]} for the events beyond the timing wheel's window, where key = sequence number
 * (upper 39 bits) | slot (lower 24 bits). Two events of the same time order by their slots'
 * scheduled-at times, then by key (so by sequence number): the simulator's (time, scheduled-at
 * time, sequence) order. The array doubles when full; nothing else is allocated.
 *
 * <p>Thread-safety: not thread-safe; owned by one simulator.
 */
final class EventHeap {
    /** heap[2i] = time of node i, heap[2i+1] = key of node i. */
    private long[] heap = new long[2 * 1024];
    private int size;

    /** @return events in the heap */
    int size() {
        return size;
    }

    /** @return the earliest event's time, ps; the heap is not empty */
    long headTimePs() {
        return heap[0];
    }

    /** @return the earliest event's key; the heap is not empty */
    long headKey() {
        return heap[1];
    }

    /**
     * Adds an event.
     *
     * @param timePs its time, ps
     * @param key    its sequence number (upper 39 bits) | slot (lower 24 bits)
     * @param slots  the simulator's slots, where the scheduled-at times are
     */
    void push(final long timePs, final long key, final long[] slots) {
        if (2 * size == heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        siftUp(heap, slots, size++, timePs, key);
    }

    /**
     * Puts (time, key) at heap position {@code i} or above: moves it up past every parent that
     * orders after it (time, then key).
     */
    private static void siftUp(final long[] h, final long[] s, final int from, final long timePs, final long key) {
        int i = from;
        while (i > 0) {
            final int parent = (i - 1) >>> 2;
            final long pt = h[2 * parent];
            if (pt < timePs || (pt == timePs && keyBefore(s, h[2 * parent + 1], key))) {
                break;
            }
            h[2 * i] = pt;
            h[2 * i + 1] = h[2 * parent + 1];
            i = parent;
        }
        h[2 * i] = timePs;
        h[2 * i + 1] = key;
    }

    /**
     * Removes the heap's root: the hole left at the root moves down along the smallest children to
     * a leaf (three comparisons a level, none against the displaced last element, which almost
     * always belongs near the bottom), then the last element moves up from there (Floyd's method).
     *
     * @param slots the simulator's slots, where the scheduled-at times are
     */
    void removeTop(final long[] slots) {
        final long[] h = heap;
        final int last = --size;
        if (last == 0) {
            return;
        }
        final long t = h[2 * last];
        final long k = h[2 * last + 1];
        int i = 0;
        while (true) {
            final int first = 4 * i + 1;
            if (first >= last) {
                break;
            }
            int c = first;
            long ct = h[2 * first];
            long ck = h[2 * first + 1];
            final int end = Math.min(first + 4, last);
            for (int j = first + 1; j < end; j++) {
                final long jt = h[2 * j];
                if (jt < ct || (jt == ct && keyBefore(slots, h[2 * j + 1], ck))) {
                    c = j;
                    ct = jt;
                    ck = h[2 * j + 1];
                }
            }
            h[2 * i] = ct;
            h[2 * i + 1] = ck;
            i = c;
        }
        siftUp(h, slots, i, t, k);
    }

    /**
     * @return whether the heap key {@code a} orders before {@code b}, of two events of the same
     *         time: by scheduled-at time, then sequence number (the keys' upper bits)
     */
    private static boolean keyBefore(final long[] s, final long a, final long b) {
        final long sa = s[Simulator.SLOT_STRIDE * (int) (a & Simulator.SLOT_MASK) + Simulator.SCHEDULED_AT];
        final long sb = s[Simulator.SLOT_STRIDE * (int) (b & Simulator.SLOT_MASK) + Simulator.SCHEDULED_AT];
        return sa < sb || (sa == sb && a < b);
    }
}
