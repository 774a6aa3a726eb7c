package dev.nicsim.sim;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A run's counters ({@code -D}{@value PartitionedRun#STATS_PROPERTY}{@code =true}): wall times in ns from
 * {@link System#nanoTime}, and counts. Row t belongs to thread t (0 the coordinator) and is
 * written by that thread only; rows are 256 bytes apart, so no two threads write one cache line.
 * The coordinator reads the workers' rows at the barriers (after their {@code finished}
 * increments, which order the writes) and at the end.
 *
 * <p>Per window it adds up: the parallel phase (publish to barrier), the slowest thread's busy
 * time and all threads' busy time (their ratio is the slowest thread's share; 1/threads is a
 * perfect balance), and the longest single partition run (the floor of the phase).
 */
final class PartitionStats {
    static final int BUSY_NS = 0;
    static final int PARTITIONS_RUN = 1;
    static final int WAIT_NS = 2;
    static final int PARKS = 3;
    static final int WAKES_SPIN = 4;
    static final int WAKE_SPIN_NS = 5;
    static final int WAKES_PARKED = 6;
    static final int WAKE_PARKED_NS = 7;
    static final int WAKES_LATE = 8;
    static final int YIELDS = 9;
    static final int UNPARKS = 10;
    static final int NEXT_NS = 11;
    static final int AFTER_WINDOW_NS = 12;
    static final int GLOBAL_NS = 13;
    static final int HANDOVER_NS = 14;
    static final int REBALANCE_NS = 15;
    /** Partition runs on another thread than the partition's previous run. */
    static final int MOVES = 16;
    /** Partition runs away from the partition's home thread (taken over). */
    static final int AWAY = 17;
    /** Coordinator: wall time of the windows run alone (JIT gate), partitions included. */
    static final int SOLO_NS = 18;
    /** Longs per thread's row of counters: two padding strides (fields 0..{@value #SOLO_NS}), no cache line shared. */
    static final int ROW = 2 * WindowScheduler.PAD;
    /** A wake-up later than this after the window's publication counts as late, ns. */
    static final long LATE_NS = 50_000;

    final int threads;
    private final long[] rows;
    /** When the coordinator published the current window (nanoTime); read by the workers after the epoch. */
    volatile long publishedNs;
    long phaseNs;
    long slowestBusyNs;
    long allBusyNs;
    long longestRunNs;
    private final long[] busyAtBarrier;

    PartitionStats(final int threads) {
        this.threads = threads;
        this.rows = new long[(threads + 1) * ROW];
        this.busyAtBarrier = new long[threads];
    }

    void add(final int thread, final int field, final long v) {
        rows[(thread + 1) * ROW + field] += v;
    }

    /** @return thread {@code thread}'s counter {@code field} */
    long get(final int thread, final int field) {
        return rows[(thread + 1) * ROW + field];
    }

    /** Coordinator: adds the time since {@code fromNs} to its counter {@code field}; returns now. */
    long lap(final int field, final long fromNs) {
        final long n = System.nanoTime();
        add(0, field, n - fromNs);
        return n;
    }

    /** A worker saw a new window: its wait since {@code waitFromNs} and its wake-up latency. */
    void woke(final int thread, final long waitFromNs, final boolean wasParked) {
        final long n = System.nanoTime();
        add(thread, WAIT_NS, n - waitFromNs);
        final long late = n - publishedNs;
        add(thread, wasParked ? WAKES_PARKED : WAKES_SPIN, 1);
        add(thread, wasParked ? WAKE_PARKED_NS : WAKE_SPIN_NS, late);
        if (late > LATE_NS) {
            add(thread, WAKES_LATE, 1);
        }
    }

    /** Coordinator, after a window's partitions: the window's balance; returns now. */
    long afterPartitions(final long phaseFromNs, final long[] lastRunNs) {
        final long n = System.nanoTime();
        phaseNs += n - phaseFromNs;
        long max = 0;
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            final long b = get(t, BUSY_NS);
            final long d = b - busyAtBarrier[t];
            busyAtBarrier[t] = b;
            max = Math.max(max, d);
            sum += d;
        }
        slowestBusyNs += max;
        allBusyNs += sum;
        long longest = 0;
        for (int i = 0; i < lastRunNs.length; i += WindowScheduler.PAD) {
            longest = Math.max(longest, lastRunNs[i]);
        }
        longestRunNs += longest;
        return n;
    }

    /** Prints the counters, lines starting "partition stats:". */
    void print(final PrintStream out, final long windows, final long soloWindows, final Simulator[] partitions) {
        final double w = Math.max(1, windows);
        final long serial = get(0, NEXT_NS) + get(0, AFTER_WINDOW_NS) + get(0, GLOBAL_NS) + get(0, HANDOVER_NS)
            + get(0, REBALANCE_NS);
        out.printf(Locale.ROOT, "partition stats: %d windows on %d threads, %d of them alone (JIT gate, %.3f s); parallel phase %.3f s"
                + " (%.1f us/window); busy in partitions: slowest thread %.3f s, all threads %.3f s (slowest share %.3f,"
                + " efficiency %.3f); sum of the longest partition run per window %.3f s%n",
            windows, threads, soloWindows, get(0, SOLO_NS) / 1e9, phaseNs / 1e9, phaseNs / w / 1e3, slowestBusyNs / 1e9, allBusyNs / 1e9,
            allBusyNs == 0 ? 0 : (double) slowestBusyNs / allBusyNs,
            phaseNs == 0 ? 0 : (double) allBusyNs / threads / phaseNs, longestRunNs / 1e9);
        out.printf(Locale.ROOT, "partition stats: coordinator serial %.3f s (%.1f us/window): next window %.3f, afterWindow %.3f,"
                + " global events %.3f, cut-link flips %.3f, pools and claim order %.3f s; yields %d, unparks %d%n",
            serial / 1e9, serial / w / 1e3, get(0, NEXT_NS) / 1e9, get(0, AFTER_WINDOW_NS) / 1e9, get(0, GLOBAL_NS) / 1e9,
            get(0, HANDOVER_NS) / 1e9, get(0, REBALANCE_NS) / 1e9, get(0, YIELDS), get(0, UNPARKS));
        for (int t = 0; t < threads; t++) {
            final long ws = get(t, WAKES_SPIN);
            final long wp = get(t, WAKES_PARKED);
            out.printf(Locale.ROOT, "partition stats: thread %d busy %.3f s in %d partition runs (%d away from home, %d moved from"
                    + " another thread), waiting %.3f s; parks %d; wake-ups spinning %d (mean %.1f us), parked %d (mean %.1f us), later than %d us %d%n",
                t, get(t, BUSY_NS) / 1e9, get(t, PARTITIONS_RUN), get(t, AWAY), get(t, MOVES), get(t, WAIT_NS) / 1e9, get(t, PARKS),
                ws, ws == 0 ? 0 : get(t, WAKE_SPIN_NS) / 1e3 / ws, wp, wp == 0 ? 0 : get(t, WAKE_PARKED_NS) / 1e3 / wp,
                LATE_NS / 1000, get(t, WAKES_LATE));
        }
        final StringBuilder b = new StringBuilder("partition stats: events per partition");
        for (final Simulator s : partitions) {
            b.append(' ').append(s.eventsProcessed());
        }
        out.println(b);
    }
}
