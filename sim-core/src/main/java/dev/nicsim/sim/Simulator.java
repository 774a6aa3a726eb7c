package dev.nicsim.sim;

import java.util.Arrays;

/**
 * Discrete-event kernel: time in {@code long} picoseconds and deterministic tie order (events at
 * the same time run in the order they were scheduled).
 *
 * <p>Layout: a 4-ary min-heap of (time, key) pairs in one {@code long[]}, where key = schedule
 * sequence number (upper 40 bits) | slot (lower 24 bits). Comparing the pair compares time, then
 * sequence, so ties keep schedule order; the four children of a node are 64 contiguous bytes (one
 * cache line). The event's handler, kind and arguments live in slot arrays reached through the key
 * and recycled through a free list, so sift-up and sift-down move 16 bytes per level.
 *
 * <p>Limits: at most 2^24 (16.7 M) events pending at once and 2^39 events scheduled per run.
 * Scheduling allocates nothing once the arrays have grown to the run's peak size (they double).
 * Thread-safety: not thread-safe; a run is driven by one thread.
 */
public final class Simulator {
    private static final int SLOT_BITS = 24;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final int MAX_SLOTS = 1 << SLOT_BITS;
    /** Sequence numbers take the 39 bits above the slot, so keys stay positive. */
    private static final long MAX_SEQUENCE = 1L << 39;

    private long nowPs;
    private long sequence;
    private long eventsProcessed;
    private int size;
    /** heap[2i] = time of node i, heap[2i+1] = key of node i. */
    private long[] heap = new long[2 * 1024];
    private int[] kinds = new int[1024];
    private long[] args = new long[1024];
    private EventHandler[] handlers = new EventHandler[1024];
    private Object[] refs = new Object[1024];
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private int slotsUsed;
    private boolean stopRequested;

    /** Creates a simulator at time 0 with no events. */
    public Simulator() {
    }

    /** @return current simulated time in picoseconds */
    public long nowPs() {
        return nowPs;
    }

    /** @return current simulated time in nanoseconds, truncated to 32 bits as PCC timestamps are */
    public int nowNs32() {
        return (int) (nowPs / 1000);
    }

    /** @return number of events handled so far */
    public long eventsProcessed() {
        return eventsProcessed;
    }

    /** @return number of events waiting */
    public int pending() {
        return size;
    }

    /**
     * Schedules an event.
     *
     * @param timePs  absolute time in ps, not before {@link #nowPs()}
     * @param handler receiver
     * @param kind    kind passed back to the handler
     * @param arg     long argument passed back
     * @param ref     object argument passed back, or null
     * @throws IllegalArgumentException if {@code timePs} is in the past
     * @throws IllegalStateException    if 2^24 events are already pending or 2^39 were scheduled
     */
    public void schedule(final long timePs, final EventHandler handler, final int kind, final long arg, final Object ref) {
        if (timePs < nowPs) {
            throw new IllegalArgumentException("event at " + timePs + " ps is before now " + nowPs + " ps");
        }
        if (sequence == MAX_SEQUENCE) {
            throw new IllegalStateException("more than " + MAX_SEQUENCE + " events scheduled in one run");
        }
        final int slot = allocateSlot();
        kinds[slot] = kind;
        args[slot] = arg;
        handlers[slot] = handler;
        refs[slot] = ref;
        final long key = (sequence++ << SLOT_BITS) | slot;
        if (2 * size == heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long[] h = heap;
        int i = size++;
        while (i > 0) {
            final int parent = (i - 1) >>> 2;
            final long pt = h[2 * parent];
            if (pt < timePs || (pt == timePs && h[2 * parent + 1] < key)) {
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
     * Schedules an event after a delay.
     *
     * @param delayPs delay in ps, non-negative
     * @param handler receiver
     * @param kind    kind
     * @param arg     long argument
     * @param ref     object argument or null
     */
    public void scheduleIn(final long delayPs, final EventHandler handler, final int kind, final long arg, final Object ref) {
        schedule(nowPs + delayPs, handler, kind, arg, ref);
    }

    /**
     * Runs events in time order until none is left, the next is later than {@code endPs}, or
     * {@link #stop()} is called. If the next event is later than {@code endPs}, or none is left,
     * time advances to {@code endPs} (unless {@code endPs} is {@link Long#MAX_VALUE}).
     *
     * @param endPs last time at which events run, ps
     * @return number of events handled by this call
     */
    public long runUntil(final long endPs) {
        stopRequested = false;
        final long start = eventsProcessed;
        while (size > 0 && !stopRequested) {
            final long t = heap[0];
            if (t > endPs) {
                nowPs = endPs;
                break;
            }
            nowPs = t;
            final int slot = (int) (heap[1] & SLOT_MASK);
            final EventHandler h = handlers[slot];
            final int kind = kinds[slot];
            final long arg = args[slot];
            final Object ref = refs[slot];
            handlers[slot] = null;
            refs[slot] = null;
            freeSlots[freeCount++] = slot;
            removeTop();
            eventsProcessed++;
            h.onEvent(kind, arg, ref);
        }
        if (size == 0 && !stopRequested && endPs != Long.MAX_VALUE && endPs > nowPs) {
            nowPs = endPs; // nothing left before the horizon: time reaches it, as when the next event is later
        }
        return eventsProcessed - start;
    }

    /** Asks {@link #runUntil} to return after the current event. */
    public void stop() {
        stopRequested = true;
    }

    /** @return time of the next event, or {@link Long#MAX_VALUE} if none */
    public long nextEventTimePs() {
        return size == 0 ? Long.MAX_VALUE : heap[0];
    }

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == kinds.length) {
            if (slotsUsed == MAX_SLOTS) {
                throw new IllegalStateException("more than " + MAX_SLOTS + " events pending");
            }
            final int n = Math.min(MAX_SLOTS, kinds.length * 2);
            kinds = Arrays.copyOf(kinds, n);
            args = Arrays.copyOf(args, n);
            handlers = Arrays.copyOf(handlers, n);
            refs = Arrays.copyOf(refs, n);
            freeSlots = Arrays.copyOf(freeSlots, n);
        }
        return slotsUsed++;
    }

    /**
     * Removes the root: the hole left at the root moves down along the smallest children to a leaf
     * (three comparisons a level, none against the displaced last element, which almost always
     * belongs near the bottom), then the last element moves up from there (Floyd's method).
     */
    private void removeTop() {
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
                if (jt < ct || (jt == ct && h[2 * j + 1] < ck)) {
                    c = j;
                    ct = jt;
                    ck = h[2 * j + 1];
                }
            }
            h[2 * i] = ct;
            h[2 * i + 1] = ck;
            i = c;
        }
        while (i > 0) {
            final int parent = (i - 1) >>> 2;
            final long pt = h[2 * parent];
            if (pt < t || (pt == t && h[2 * parent + 1] < k)) {
                break;
            }
            h[2 * i] = pt;
            h[2 * i + 1] = h[2 * parent + 1];
            i = parent;
        }
        h[2 * i] = t;
        h[2 * i + 1] = k;
    }
}
