package dev.nicsim.microcode.emulator;

/**
 * A FIFO of a core's hardware thread numbers, optionally with a time per entry: the ready queue
 * (threads waiting for the issue slot) and the stall queue (threads waiting out a context miss,
 * each until its time). Circular, room for every thread of the core, so it never overflows.
 *
 * <h2>Layout: one {@code int[]} of thread numbers and, if timed, one {@code long[]} of times (ps)</h2>
 * <pre>
 *  threads  | th0 | th1 | ... |        entry i at index (head + i) mod threads
 *  untilPs  | t0  | t1  | ... |        (stall queue only)
 * </pre>
 *
 * <p>Thread-safety: not thread-safe; used by the core's consumer thread only.
 */
final class ThreadQueue {
    private final int[] threads;
    private final long[] untilPs;
    private int head;
    private int count;

    /**
     * @param capacity hardware threads of the core
     * @param timed    whether entries carry a time
     */
    ThreadQueue(final int capacity, final boolean timed) {
        threads = new int[capacity];
        untilPs = timed ? new long[capacity] : null;
    }

    /** @return threads queued */
    int count() {
        return count;
    }

    /** @param th thread to append (untimed queue) */
    void push(final int th) {
        int pos = head + count;
        if (pos >= threads.length) {
            pos -= threads.length;
        }
        threads[pos] = th;
        count++;
    }

    /**
     * @param th      thread to append (timed queue)
     * @param atPs    its time, ps (non-decreasing along the queue)
     */
    void push(final int th, final long atPs) {
        int pos = head + count;
        if (pos >= threads.length) {
            pos -= threads.length;
        }
        threads[pos] = th;
        untilPs[pos] = atPs;
        count++;
    }

    /** @return time of the head entry, ps (timed queue, {@link #count()} > 0) */
    long headPs() {
        return untilPs[head];
    }

    /** @return the head thread, taken off (call only when {@link #count()} > 0) */
    int pop() {
        final int th = threads[head];
        head = head + 1 == threads.length ? 0 : head + 1;
        count--;
        return th;
    }
}
