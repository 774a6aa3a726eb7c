package dev.nicsim.sim;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * The scheduler of a {@link PartitionedRun}: runs every partition of a window exactly once, on the
 * run's threads, and decides which thread runs which partition. It knows nothing of simulators or
 * cut links: a partition's work is the {@link IntConsumer} it is given. Which thread runs a
 * partition, and in which order, changes no result (within a window the partitions share no
 * mutable state); every policy here is about speed only.
 *
 * <h2>Threads</h2>
 * Thread 0 is the caller's (the coordinator); threads 1.. are daemon workers that spin on a
 * volatile window counter ({@link Thread#onSpinWait()}, then park after {@value #SPINS_BEFORE_PARK}
 * spins). A worker's exception is rethrown by {@link #runWindow} on the coordinator (a
 * {@link RuntimeException} or {@link Error} as it is, anything else wrapped). Nothing is allocated
 * per window.
 *
 * <h2>Claims</h2>
 * Each partition is run by whichever thread claims it first (an atomic claim per partition and
 * window), so a thread the OS deschedules leaves its share to the others. A thread claims its own
 * partitions first (its home partitions, below), then any other left unclaimed; each in
 * longest-first order (by their wall time in the previous window, lower partition on ties), so
 * that the short ones fill the end of the window.
 *
 * <h2>Home threads</h2>
 * Every partition has a home thread, which claims it before any other partition; another thread
 * runs it only when it is still unclaimed once that thread has run its own. A partition's events,
 * timing wheel and packets then stay in one core's caches from window to window instead of
 * following whichever thread claims first. Every {@value #HOME_PLAN_WINDOWS} windows the
 * coordinator re-plans the homes from the partitions' wall time since the last plan (longest
 * processing time first, {@link #planHomes}), and keeps the old plan unless the new one shortens
 * the busiest thread's share by more than {@value #HOME_PLAN_GAIN_PERCENT} %: a plan that moves
 * partitions costs their caches, so a small gain is not worth it.
 *
 * <h2>Running alone</h2>
 * Before every window of a run with workers the {@link JitGate} may decide that the window runs
 * on the coordinator alone (the workers stay parked).
 *
 * <p>Thread-safety: the coordinator's, except the claims and partition runs of a parallel window
 * ({@link #claimNext}), which every thread makes; what they share is atomic or published by the
 * volatile window number.
 */
final class WindowScheduler implements AutoCloseable {
    /** Spins of a waiting thread before it parks (worker) or yields (coordinator). */
    static final int SPINS_BEFORE_PARK = 1 << 14;
    /** Longs between two threads' or partitions' slots in a shared array: 128 bytes, no cache line shared. */
    static final int PAD = 16;
    /** Windows between two plans of the partitions' home threads. */
    static final int HOME_PLAN_WINDOWS = 512;
    /** A new home plan replaces the old one only if it shortens the busiest thread's share by more than this, %. */
    static final int HOME_PLAN_GAIN_PERCENT = 5;

    private final int partitions;
    private final int threads;
    private final IntConsumer work;
    private final JitGate gate;
    private final Worker[] workers;
    /** The last parallel window's number (1, 2, ...; solo windows have none); its volatile write publishes the window. */
    private volatile long epoch;
    /** Each partition's claim, at {@code p * PAD}: the number of the last parallel window that claimed it. */
    private final AtomicLongArray claimed;
    /** Each partition's home thread ({@link #planHomes}); the coordinator's, published by {@link #epoch}. */
    private final int[] home;
    /** Each partition's wall time since the last home plan, ns (coordinator). */
    private final long[] sincePlanNs;
    /** The coordinator's scratch for a new home plan and the threads' loads under it. */
    private final int[] plan;
    private final long[] planLoadNs;
    /** The thread that ran each partition last, at {@code p * PAD} (kept only with the counters, for their moves). */
    private final int[] lastThread;
    /** Partitions of the current window run to its end. */
    private final AtomicInteger finished = new AtomicInteger();
    private volatile boolean shutdown;
    private volatile Throwable failure;
    /** Claim order of the current window: claim i runs partition {@code order[i]}; the coordinator's, published by the claim word. */
    private final int[] order;
    /** Each partition's wall time in the last window it ran, ns, at {@code p * PAD}; written by the thread that ran it. */
    final long[] lastRunNs;
    private long soloWindows;
    /** The run's counters, or null when they are off. */
    final PartitionStats stats;

    /**
     * Starts {@code threads - 1} worker threads.
     *
     * @param partitions the partitions, {@code >= 1}
     * @param threads    threads to run them on, {@code 1 .. partitions}
     * @param work       runs partition p to the current window's end; called once per partition and window, on any thread
     * @param gate       decides the windows run on the coordinator alone (not consulted on one thread)
     * @param keepStats  whether to keep the counters ({@link #stats})
     */
    WindowScheduler(final int partitions, final int threads, final IntConsumer work, final JitGate gate,
                    final boolean keepStats) {
        this.partitions = partitions;
        this.threads = threads;
        this.work = work;
        this.gate = gate;
        this.order = new int[partitions];
        for (int p = 0; p < partitions; p++) {
            order[p] = p;
        }
        this.lastRunNs = new long[(partitions + 1) * PAD];
        this.claimed = new AtomicLongArray((partitions + 1) * PAD);
        this.home = new int[partitions];
        for (int p = 0; p < partitions; p++) {
            home[p] = p % threads;
        }
        this.sincePlanNs = new long[partitions];
        this.plan = new int[partitions];
        this.planLoadNs = new long[threads];
        this.lastThread = new int[(partitions + 1) * PAD];
        this.stats = keepStats ? new PartitionStats(threads) : null;
        this.workers = new Worker[threads - 1];
        for (int t = 1; t < threads; t++) {
            workers[t - 1] = new Worker(t);
            workers[t - 1].start();
        }
    }

    /** The run starts: the gate takes its baseline (coordinator). */
    void start() {
        if (workers.length > 0) {
            gate.start();
        }
    }

    /**
     * Runs every partition once for the current window: alone when there are no workers or the
     * gate says so, else with the workers. The caller has written the window's bounds before.
     *
     * @throws RuntimeException the first exception a partition threw (the workers are then stopped)
     */
    void runWindow() {
        if (workers.length == 0 || gate.runAlone()) {
            if (workers.length > 0) {
                soloWindows++;
            }
            final long soloFromNs = stats != null ? System.nanoTime() : 0;
            for (int i = 0; i < order.length && failure == null; i++) {
                runPartition(order[i], 0);
            }
            if (stats != null && workers.length > 0) {
                stats.add(0, PartitionStats.SOLO_NS, System.nanoTime() - soloFromNs);
            }
            rethrowFailure();
            return;
        }
        final PartitionStats st = stats;
        final long ep = epoch + 1;
        finished.set(0);
        if (st != null) {
            st.publishedNs = System.nanoTime();
        }
        epoch = ep;
        for (final Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w);
                if (st != null) {
                    st.add(0, PartitionStats.UNPARKS, 1);
                }
            }
        }
        runClaimed(ep, 0);
        final long tw = st != null ? System.nanoTime() : 0;
        int spins = 0;
        while (finished.get() < partitions) {
            if (++spins < SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
                if (st != null) {
                    st.add(0, PartitionStats.YIELDS, 1);
                }
            }
        }
        if (st != null) {
            st.add(0, PartitionStats.WAIT_NS, System.nanoTime() - tw);
        }
        rethrowFailure();
    }

    /**
     * Barrier step (coordinator, no partition running): orders the next window's claims longest
     * first and re-plans the home threads when due. Changes no result; allocates nothing.
     *
     * @param windows windows run so far, this one included
     */
    void afterWindow(final long windows) {
        orderLongestFirst();
        planHomesEvery(windows);
    }

    /** Ends the run with the first exception a partition threw, if any. */
    private void rethrowFailure() {
        final Throwable f = failure;
        if (f != null) {
            close();
            if (f instanceof RuntimeException r) {
                throw r;
            }
            if (f instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(f);
        }
    }

    /**
     * Claims and runs partitions of window {@code ep} until none is left ({@link #claimNext});
     * each partition exactly once per window, by whichever thread claims it first. A thread still
     * holding an earlier window's number claims nothing (every claim is then at least that number).
     */
    private void runClaimed(final long ep, final int thread) {
        int p;
        while ((p = claimNext(ep, thread)) >= 0) {
            runPartition(p, thread);
            finished.incrementAndGet();
        }
    }

    /**
     * Claims the next partition of window {@code ep} for {@code thread}: its own first, then any
     * other, each in claim order. Order, homes and the window's end were written before the
     * volatile {@link #epoch} the thread read.
     *
     * @param ep     the window's number, as read from {@link #epoch}
     * @param thread the claiming thread, {@code 0 .. threads-1}
     * @return the partition claimed, or -1 if every partition of the window is claimed
     */
    int claimNext(final long ep, final int thread) {
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < order.length; i++) {
                final int p = order[i];
                if ((home[p] == thread) == (pass == 0) && claim(p, ep)) {
                    return p;
                }
            }
        }
        return -1;
    }

    /** @return whether this thread claimed partition {@code p} for window {@code ep} (no one had) */
    private boolean claim(final int p, final long ep) {
        final long c = claimed.get(p * PAD);
        return c < ep && claimed.compareAndSet(p * PAD, c, ep);
    }

    /** Runs partition {@code p}'s work on thread {@code thread}, timing it; records a failure. */
    private void runPartition(final int p, final int thread) {
        final long t0 = System.nanoTime();
        try {
            work.accept(p);
        } catch (final Throwable t) {
            if (failure == null) {
                failure = t;
            }
        }
        final long ns = System.nanoTime() - t0;
        lastRunNs[p * PAD] = ns;
        if (stats != null) {
            stats.add(thread, PartitionStats.BUSY_NS, ns);
            stats.add(thread, PartitionStats.PARTITIONS_RUN, 1);
            if (lastThread[p * PAD] != thread) {
                stats.add(thread, PartitionStats.MOVES, 1);
            }
            if (home[p] != thread) {
                stats.add(thread, PartitionStats.AWAY, 1);
            }
            lastThread[p * PAD] = thread;
        }
    }

    /**
     * The next window claims the partitions by their last run's wall time, longest first, lower
     * partition on ties (a stable insertion sort: 2-16 partitions).
     */
    private void orderLongestFirst() {
        for (int i = 1; i < order.length; i++) {
            final int p = order[i];
            int j = i;
            while (j > 0 && longerFirst(p, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = p;
        }
    }

    /** @return whether partition {@code p} claims before {@code q} */
    private boolean longerFirst(final int p, final int q) {
        final long a = lastRunNs[p * PAD];
        final long b = lastRunNs[q * PAD];
        return a > b || (a == b && p < q);
    }

    /**
     * Adds each partition's last run to its time since the last plan, and every
     * {@value #HOME_PLAN_WINDOWS} windows re-plans the home threads ({@link #planHomes}), keeping
     * the old plan unless the new one is more than {@value #HOME_PLAN_GAIN_PERCENT} % better.
     */
    private void planHomesEvery(final long windows) {
        for (int p = 0; p < sincePlanNs.length; p++) {
            sincePlanNs[p] += lastRunNs[p * PAD];
        }
        if (threads < 2 || windows % HOME_PLAN_WINDOWS != 0) {
            return;
        }
        final long planned = planHomes(sincePlanNs, threads, plan, planLoadNs);
        final long current = busiestShare(sincePlanNs, home, planLoadNs);
        if (planned * 100 < current * (100 - HOME_PLAN_GAIN_PERCENT)) {
            System.arraycopy(plan, 0, home, 0, home.length);
        }
        Arrays.fill(sincePlanNs, 0);
    }

    /**
     * Plans the partitions' home threads: longest processing time first (the longest partition
     * goes to the thread with the least time so far, lowest thread on ties; partitions of equal
     * time in index order). Deterministic; a plan changes which thread runs what, never a result.
     * O(partitions^2 + partitions x threads); allocates nothing.
     *
     * @param timeNs  each partition's wall time over the planning period, ns, {@code >= 0}
     * @param threads threads, {@code 1 .. loadNs.length}
     * @param home    receives each partition's thread, {@code 0 .. threads-1}; same length as {@code timeNs}
     * @param loadNs  scratch, at least {@code threads} long (overwritten)
     * @return the busiest thread's time under the plan, ns
     */
    static long planHomes(final long[] timeNs, final int threads, final int[] home, final long[] loadNs) {
        Arrays.fill(home, -1);
        Arrays.fill(loadNs, 0, threads, 0);
        for (int k = 0; k < timeNs.length; k++) {
            int next = -1; // the longest partition not placed yet, lowest index on ties
            for (int p = 0; p < timeNs.length; p++) {
                if (home[p] < 0 && (next < 0 || timeNs[p] > timeNs[next])) {
                    next = p;
                }
            }
            int least = 0;
            for (int t = 1; t < threads; t++) {
                if (loadNs[t] < loadNs[least]) {
                    least = t;
                }
            }
            home[next] = least;
            loadNs[least] += timeNs[next];
        }
        return busiestShare(timeNs, home, loadNs);
    }

    /**
     * @param timeNs each partition's time, ns
     * @param home   each partition's thread
     * @param loadNs scratch, longer than every thread index in {@code home} (overwritten)
     * @return the busiest thread's time, ns, with partition p on thread {@code home[p]}
     */
    static long busiestShare(final long[] timeNs, final int[] home, final long[] loadNs) {
        Arrays.fill(loadNs, 0);
        long max = 0;
        for (int p = 0; p < timeNs.length; p++) {
            loadNs[home[p]] += timeNs[p];
            max = Math.max(max, loadNs[home[p]]);
        }
        return max;
    }

    /** @return each partition's home thread (a copy) */
    int[] homes() {
        return home.clone();
    }

    /** @return the current claim order (a copy): claim i runs partition {@code [i]} */
    int[] claimOrder() {
        return order.clone();
    }

    /** @return windows run on the coordinator alone because the gate said so (0 on one thread) */
    long soloWindows() {
        return soloWindows;
    }

    /** @return threads the partitions run on (the coordinator included) */
    int threads() {
        return threads;
    }

    /** Stops the worker threads (idempotent). */
    @Override
    public void close() {
        shutdown = true;
        for (final Worker w : workers) {
            LockSupport.unpark(w);
        }
    }

    /** A worker: claims partitions of every window ({@link #runClaimed}). */
    private final class Worker extends Thread {
        volatile boolean parked;
        private final int id;

        Worker(final int id) {
            super("nicsim-partition-" + id);
            this.id = id;
            setDaemon(true);
        }

        @Override
        public void run() {
            final PartitionStats st = stats;
            long seen = 0;
            long waitFromNs = st != null ? System.nanoTime() : 0;
            while (true) {
                long ep;
                int spins = 0;
                boolean wasParked = false;
                while ((ep = epoch) == seen) {
                    if (shutdown) {
                        return;
                    }
                    if (++spins < SPINS_BEFORE_PARK) {
                        Thread.onSpinWait();
                    } else {
                        parked = true;
                        if (epoch == seen && !shutdown) {
                            LockSupport.park(this);
                            wasParked = true;
                            if (st != null) {
                                st.add(id, PartitionStats.PARKS, 1);
                            }
                        }
                        parked = false;
                    }
                }
                if (shutdown) {
                    return;
                }
                if (st != null) {
                    st.woke(id, waitFromNs, wasParked);
                }
                seen = ep;
                runClaimed(ep, id);
                if (st != null) {
                    waitFromNs = System.nanoTime();
                }
            }
        }
    }
}
