package dev.nicsim.sim;

import java.util.Arrays;

/**
 * Discrete-event kernel: time in {@code long} picoseconds, a binary min-heap of pending events kept
 * in parallel primitive arrays, and deterministic tie order (events at the same time run in the
 * order they were scheduled: ties broken by a 64-bit schedule sequence number).
 *
 * <p>Scheduling allocates nothing once the heap has grown to the run's peak size (arrays double).
 * Thread-safety: not thread-safe; a run is driven by one thread.
 */
public final class Simulator {
    private long nowPs;
    private long sequence;
    private long eventsProcessed;
    private int size;
    private long[] times = new long[1024];
    private long[] seqs = new long[1024];
    private int[] kinds = new int[1024];
    private long[] args = new long[1024];
    private EventHandler[] handlers = new EventHandler[1024];
    private Object[] refs = new Object[1024];
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
     */
    public void schedule(final long timePs, final EventHandler handler, final int kind, final long arg, final Object ref) {
        if (timePs < nowPs) {
            throw new IllegalArgumentException("event at " + timePs + " ps is before now " + nowPs + " ps");
        }
        if (size == times.length) {
            grow();
        }
        int i = size++;
        final long seq = sequence++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (times[parent] < timePs || (times[parent] == timePs && seqs[parent] < seq)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, timePs, seq, kind, arg, handler, ref);
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
     * {@link #stop()} is called. Time is left at the last event handled (or at {@code endPs} if the
     * run reached it).
     *
     * @param endPs last time at which events run, ps
     * @return number of events handled by this call
     */
    public long runUntil(final long endPs) {
        stopRequested = false;
        final long start = eventsProcessed;
        while (size > 0 && !stopRequested) {
            if (times[0] > endPs) {
                nowPs = endPs;
                break;
            }
            nowPs = times[0];
            final EventHandler h = handlers[0];
            final int kind = kinds[0];
            final long arg = args[0];
            final Object ref = refs[0];
            removeTop();
            eventsProcessed++;
            h.onEvent(kind, arg, ref);
        }
        return eventsProcessed - start;
    }

    /** Asks {@link #runUntil} to return after the current event. */
    public void stop() {
        stopRequested = true;
    }

    /** @return time of the next event, or {@link Long#MAX_VALUE} if none */
    public long nextEventTimePs() {
        return size == 0 ? Long.MAX_VALUE : times[0];
    }

    private void removeTop() {
        final int last = --size;
        final long t = times[last];
        final long s = seqs[last];
        final int k = kinds[last];
        final long a = args[last];
        final EventHandler h = handlers[last];
        final Object r = refs[last];
        handlers[last] = null;
        refs[last] = null;
        if (last == 0) {
            handlers[0] = null;
            refs[0] = null;
            return;
        }
        int i = 0;
        while (true) {
            final int l = 2 * i + 1;
            if (l >= last) {
                break;
            }
            int c = l;
            final int rr = l + 1;
            if (rr < last && (times[rr] < times[l] || (times[rr] == times[l] && seqs[rr] < seqs[l]))) {
                c = rr;
            }
            if (t < times[c] || (t == times[c] && s < seqs[c])) {
                break;
            }
            move(c, i);
            i = c;
        }
        set(i, t, s, k, a, h, r);
    }

    private void move(final int from, final int to) {
        times[to] = times[from];
        seqs[to] = seqs[from];
        kinds[to] = kinds[from];
        args[to] = args[from];
        handlers[to] = handlers[from];
        refs[to] = refs[from];
    }

    private void set(final int i, final long t, final long s, final int k, final long a, final EventHandler h, final Object r) {
        times[i] = t;
        seqs[i] = s;
        kinds[i] = k;
        args[i] = a;
        handlers[i] = h;
        refs[i] = r;
    }

    private void grow() {
        final int n = times.length * 2;
        times = Arrays.copyOf(times, n);
        seqs = Arrays.copyOf(seqs, n);
        kinds = Arrays.copyOf(kinds, n);
        args = Arrays.copyOf(args, n);
        handlers = Arrays.copyOf(handlers, n);
        refs = Arrays.copyOf(refs, n);
    }
}
