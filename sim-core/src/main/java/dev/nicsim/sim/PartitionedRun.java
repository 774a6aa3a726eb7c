package dev.nicsim.sim;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A conservative, synchronous parallel run (PDES) of a fabric split into partitions: each partition
 * has its own {@link Simulator} and {@link PacketPool}; links between partitions are
 * {@link CutLink}s; events that touch more than one partition (flow starts, samplers, mailbox and
 * link events) are on a separate global {@link Simulator} that only the coordinator runs.
 *
 * <h2>Window protocol</h2>
 * With L the look-ahead (the least propagation delay over the cut links), every window:
 * <ol>
 *   <li>W0 = the earliest next event over the partitions, the global set and the frames waiting
 *       in the cut links' outboxes; the window's last
 *       time (inclusive) is E = min(W0 + L - 1, the next global event's time, the stop time);</li>
 *   <li>every partition runs its events up to and including E ({@link Simulator#runUntil}, which
 *       leaves its now at E); each partition is run by whichever thread claims it first (an
 *       atomic claim per partition and window), so a thread the OS deschedules leaves its share to
 *       the others; a thread claims its own partitions first (below), then any other left
 *       unclaimed; each in longest-first order (by their wall time in the previous window, lower
 *       partition on ties), so that the short ones fill the end of the window; before its events
 *       the partition takes over the frames its incoming cut links carried in the previous window
 *       ({@link CutLink#drain}, links in hand-over order, frames in send order), and right after
 *       them, on the same thread, it does the caller's window-end work, if any ({@link WindowEnd}:
 *       e.g. its share of a sample due at E);</li>
 *   <li>barrier; the coordinator alone then calls {@link Barrier#afterWindow} (the caller merges
 *       what the partitions recorded, e.g. flow completions, and may end the run), runs the global
 *       events due at E (every partition's now being E: they run after the partitions' events of
 *       the same time), flips every cut link's two outboxes (the one filled in this window is
 *       drained in the next, {@link CutLink#flip}), and rebalances free packets between the
 *       pools.</li>
 * </ol>
 * A frame put on a cut link at t &lt;= E arrives at or after t + L &gt; E, so it is scheduled on
 * the receiving partition (at the start of its next window, after the barrier's global events,
 * as a hand-over by the coordinator at the barrier would schedule it) before it is due, and no
 * partition ever sees an event from the past.
 * Within a window the partitions share no mutable state, so the results depend on the partition
 * count only, never on the number of threads, the claim order or which thread runs what: one
 * thread running the partitions one after the other gives byte-identical results to one thread
 * per partition.
 *
 * <h2>Threads</h2>
 * Thread 0 is the caller's (the coordinator); threads 1.. are daemon workers that spin on a
 * volatile window counter ({@link Thread#onSpinWait()}, then park after {@value #SPINS_BEFORE_PARK}
 * spins). A worker's exception is rethrown by {@link #run} on the caller's thread (a
 * {@link RuntimeException} or {@link Error} as it is, anything else wrapped). Nothing is allocated
 * per window once the cut links' arrays and the pools have grown to the run's peak.
 *
 * <h2>Home threads</h2>
 * Every partition has a home thread, which claims it before any other partition; another thread
 * runs it only when it is still unclaimed once that thread has run its own (the home thread is
 * late or has more work). A partition's events, wheel and packets then stay in one core's caches
 * from window to window instead of following whichever thread claims first (which moved a
 * partition in 21-38 % of its runs). On the 2-core development VM the two virtual CPUs sit at
 * times on distant host cores (a cache line's round trip between them 260-300 ns instead of
 * 70-90 ns), where every line the threads exchange costs more: the events then took 1.64x longer
 * with the plain claims and 1.45x with home threads (docs/performance.md, "Issue 21, tenth
 * session (h-jit)"). Every {@value #HOME_PLAN_WINDOWS}
 * windows the coordinator re-plans the homes from the partitions' wall time since the last plan
 * (longest processing time first, {@link #planHomes}), and keeps the old plan unless the new one
 * shortens the busiest thread's share by more than {@value #HOME_PLAN_GAIN_PERCENT} %.
 *
 * <h2>The JIT gate</h2>
 * When the machine has no core to spare beyond the run's threads ({@code availableProcessors() <=
 * threads}), the JVM's compiler threads take CPU from the partitions while they compile the hot
 * paths (about 3.6 s of compilation in the first 2-3 s of websearch-leafspine-dcqcn; measured in
 * docs/performance.md, "Issue 21, ninth session (h-par)"): a worker descheduled in the middle of a
 * partition holds every other thread at the barrier. So every {@value #JIT_CHECK_MS} ms of wall
 * time the coordinator reads the JVM's accumulated compilation time
 * ({@link CompilationMXBean#getTotalCompilationTime()}); if over the last {@value #JIT_CHECKS}
 * periods it grew by at least half the elapsed time (a compiler thread busy half a core or more),
 * the windows of the next period run on the coordinator alone and the workers park, leaving the
 * compiler its core. Which thread runs a partition changes no result, so neither does the gate.
 * {@code -D}{@value #JIT_GATE_PROPERTY}{@code =false} switches it off.
 *
 * <h2>Counters</h2>
 * With {@code -D}{@value #STATS_PROPERTY}{@code =true} the run keeps per-thread counters (busy
 * time in partitions, waiting, parks and wake-up latencies, the coordinator's serial steps, the
 * per-window balance, the windows run alone) and prints them to standard error at its end, lines
 * starting "partition stats:" ({@link PartitionStats}); without it the counters cost nothing.
 *
 * <p>Thread-safety: {@link #run} and {@link #close} from one thread (the coordinator).
 */
public final class PartitionedRun implements AutoCloseable {
    /** Spins of a waiting thread before it parks (worker) or yields (coordinator). */
    static final int SPINS_BEFORE_PARK = 1 << 14;
    /** A pool with fewer free packets than this at a barrier is refilled from the pool with the most. */
    static final int POOL_LOW_WATER = 256;
    /** The system property that switches the counters on ({@code true}). */
    public static final String STATS_PROPERTY = "nicsim.partition.stats";
    /** The system property that switches the JIT gate off ({@code false}); on by default. */
    public static final String JIT_GATE_PROPERTY = "nicsim.partition.jitGate";
    /** Wall time between two readings of the JIT's compilation time, ms. */
    static final long JIT_CHECK_MS = 100;
    /** Check periods the JIT gate's decision looks back over. */
    static final int JIT_CHECKS = 3;
    /** Longs between two threads' or partitions' slots in a shared array: 128 bytes, no cache line shared. */
    static final int PAD = 16;
    /** Windows between two plans of the partitions' home threads. */
    static final int HOME_PLAN_WINDOWS = 512;
    /** A new home plan replaces the old one only if it shortens the busiest thread's share by more than this, %. */
    static final int HOME_PLAN_GAIN_PERCENT = 5;

    /**
     * What the caller does at each barrier (coordinator thread, no partition running).
     */
    public interface Barrier {
        /**
         * Every partition has run to {@code endPs}; the global events of {@code endPs} have not
         * run yet. Merge what the partitions recorded here.
         *
         * @param endPs the window's last time, ps
         * @return true to end the run now (the global events of {@code endPs} do not run)
         */
        boolean afterWindow(long endPs);
    }

    /**
     * What the caller does in a partition at the end of every window, on the thread that ran the
     * partition, right after its events up to the window's end: work that reads or writes only that
     * partition's devices and its own buffers (e.g. taking its share of a sample due at the window's
     * end, so that the coordinator's global event only writes it out).
     */
    public interface WindowEnd {
        /**
         * Partition {@code partition} has run its events up to and including {@code endPs}; the
         * other partitions may still be running theirs. Must not touch another partition's state.
         *
         * @param partition the partition, {@code 0 .. partitions-1}
         * @param endPs     the window's last time, ps
         */
        void windowEnded(int partition, long endPs);
    }

    private final Simulator[] partitions;
    private final PacketPool[] pools;
    private final Simulator global;
    private final CutLink[] links;
    /** Each partition's incoming cut links, in hand-over order: the ones it drains before its events. */
    private final CutLink[][] inbound;
    private final long lookAheadPs;
    private final int threads;
    private final Worker[] workers;
    /** Last time of the current window, ps; published by the volatile write of {@link #epoch}. */
    private long windowEndPs;
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
    private long windows;
    /** Claim order of the current window: claim i runs partition {@code order[i]}; the coordinator's, published by the claim word. */
    private final int[] order;
    /** Each partition's wall time in the last window it ran, ns, at {@code p * PAD}; written by the thread that ran it. */
    private final long[] lastRunNs;
    /** Reads the JIT's accumulated compilation time, ms; null when the JIT gate is off. */
    private final LongSupplier jitCompileMs;
    private final long jitCheckNs;
    private long jitCheckedAtNs;
    private long jitCompiledMs;
    private boolean jitSolo;
    /** The JIT's compilation time and the wall time of the last {@value #JIT_CHECKS} check periods, ms and ns. */
    private final long[] jitPeriodMs = new long[JIT_CHECKS];
    private final long[] jitPeriodNs = new long[JIT_CHECKS];
    private int jitChecks;
    private long soloWindows;
    /** The caller's work at each partition's window end, or null; set before {@link #run}. */
    private WindowEnd windowEnd;
    /** The run's counters, or null when they are off. */
    final PartitionStats stats;

    /**
     * Sets up a partitioned run. Starts {@code threads - 1} worker threads. The JIT gate is on when
     * {@code threads > 1}, the machine has at most {@code threads} processors, the JVM measures
     * its compilation time and {@value #JIT_GATE_PROPERTY} is not {@code false}; the counters are
     * on with {@code -D}{@value #STATS_PROPERTY}{@code =true}.
     *
     * @param partitions  one simulator per partition, at time 0, at least 1
     * @param pools       each partition's packet pool, same length
     * @param global      the simulator of the global events, at time 0
     * @param links       every cut link, in hand-over order
     * @param lookAheadPs the look-ahead L, ps, {@code > 0} and at most every cut link's propagation delay
     * @param threads     threads to run the partitions on, {@code 1 .. partitions.length}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public PartitionedRun(final Simulator[] partitions, final PacketPool[] pools, final Simulator global,
                          final CutLink[] links, final long lookAheadPs, final int threads) {
        this(partitions, pools, global, links, lookAheadPs, threads, defaultJitGate(threads),
            JIT_CHECK_MS * 1_000_000L, Boolean.getBoolean(STATS_PROPERTY));
    }

    /**
     * As the public constructor, with the JIT gate and the counters given (tests).
     *
     * @param jitCompileMs the JIT's accumulated compilation time, ms (non-decreasing), or null for no JIT gate
     * @param jitCheckNs   wall time between two readings of it, ns, {@code >= 0} (0: every window)
     * @param keepStats    whether to keep the counters ({@link #stats})
     */
    PartitionedRun(final Simulator[] partitions, final PacketPool[] pools, final Simulator global,
                   final CutLink[] links, final long lookAheadPs, final int threads,
                   final LongSupplier jitCompileMs, final long jitCheckNs, final boolean keepStats) {
        if (partitions.length < 1 || pools.length != partitions.length) {
            throw new IllegalArgumentException("need at least one partition and one pool per partition, got "
                + partitions.length + " and " + pools.length);
        }
        if (lookAheadPs <= 0) {
            throw new IllegalArgumentException("look-ahead must be > 0 ps, got " + lookAheadPs);
        }
        if (threads < 1 || threads > partitions.length) {
            throw new IllegalArgumentException("threads must be in 1.." + partitions.length + ", got " + threads);
        }
        this.partitions = partitions.clone();
        this.pools = pools.clone();
        this.global = global;
        this.links = links.clone();
        this.inbound = new CutLink[partitions.length][0];
        for (final CutLink l : links) {
            final int p = Arrays.asList(partitions).indexOf(l.receiverSim());
            if (p < 0) {
                throw new IllegalArgumentException("cut link " + l.index() + " delivers to a simulator that is not one of the partitions");
            }
            inbound[p] = Arrays.copyOf(inbound[p], inbound[p].length + 1);
            inbound[p][inbound[p].length - 1] = l;
        }
        this.lookAheadPs = lookAheadPs;
        this.threads = threads;
        this.order = new int[partitions.length];
        for (int p = 0; p < order.length; p++) {
            order[p] = p;
        }
        this.lastRunNs = new long[(partitions.length + 1) * PAD];
        this.claimed = new AtomicLongArray((partitions.length + 1) * PAD);
        this.home = new int[partitions.length];
        for (int p = 0; p < home.length; p++) {
            home[p] = p % threads;
        }
        this.sincePlanNs = new long[partitions.length];
        this.plan = new int[partitions.length];
        this.planLoadNs = new long[threads];
        this.lastThread = new int[(partitions.length + 1) * PAD];
        this.jitCompileMs = threads > 1 ? jitCompileMs : null;
        this.jitCheckNs = jitCheckNs;
        this.stats = keepStats ? new PartitionStats(threads) : null;
        this.workers = new Worker[threads - 1];
        for (int t = 1; t < threads; t++) {
            workers[t - 1] = new Worker(t);
            workers[t - 1].start();
        }
    }

    /** The JVM's compilation time when the run's threads leave no processor for the compiler, else null. */
    private static LongSupplier defaultJitGate(final int threads) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (threads < 2 || !Boolean.parseBoolean(System.getProperty(JIT_GATE_PROPERTY, "true"))
            || Runtime.getRuntime().availableProcessors() > threads || jit == null
            || !jit.isCompilationTimeMonitoringSupported()) {
            return null;
        }
        return jit::getTotalCompilationTime;
    }

    /**
     * Sets the work each partition does at the end of every window ({@link WindowEnd}), timed as
     * part of the partition's run. Call before {@link #run}, on the coordinator.
     *
     * @param hook the work, or null for none
     * @return this run
     */
    public PartitionedRun onWindowEnd(final WindowEnd hook) {
        this.windowEnd = hook;
        return this;
    }

    /**
     * Runs windows until no event is left at or before {@code stopPs}, or {@link Barrier#afterWindow}
     * ends the run.
     *
     * @param stopPs  last time at which events run, ps
     * @param barrier called at every barrier
     * @return the last window's end time, ps (every partition's and the global simulator's now), or
     *         0 if no window ran
     * @throws RuntimeException the first exception a partition's event threw (the run is then over)
     */
    public long run(final long stopPs, final Barrier barrier) {
        long end = 0;
        final PartitionStats st = stats;
        if (jitCompileMs != null) {
            jitCheckedAtNs = System.nanoTime();
            jitCompiledMs = jitCompileMs.getAsLong();
        }
        long t = st != null ? System.nanoTime() : 0;
        long pendingArrivalPs = Long.MAX_VALUE; // the earliest arrival waiting in the cut links' outboxes
        while (true) {
            long w0 = Math.min(global.nextEventTimePs(), pendingArrivalPs);
            for (final Simulator s : partitions) {
                w0 = Math.min(w0, s.nextEventTimePs());
            }
            if (w0 == Long.MAX_VALUE || w0 > stopPs) {
                printStats();
                return end;
            }
            final long e = Math.min(Math.min(w0 + lookAheadPs - 1, global.nextEventTimePs()), stopPs);
            if (st != null) {
                t = st.lap(PartitionStats.NEXT_NS, t);
            }
            runWindow(e);
            windows++;
            end = e;
            if (st != null) {
                t = st.afterPartitions(t, lastRunNs);
            }
            if (barrier.afterWindow(e)) {
                printStats();
                return end;
            }
            if (st != null) {
                t = st.lap(PartitionStats.AFTER_WINDOW_NS, t);
            }
            global.runUntil(e);
            if (st != null) {
                t = st.lap(PartitionStats.GLOBAL_NS, t);
            }
            long pending = Long.MAX_VALUE;
            for (final CutLink l : links) {
                pending = Math.min(pending, l.flip());
            }
            pendingArrivalPs = pending;
            if (st != null) {
                t = st.lap(PartitionStats.HANDOVER_NS, t);
            }
            rebalancePools();
            orderLongestFirst();
            planHomesEvery();
            if (st != null) {
                t = st.lap(PartitionStats.REBALANCE_NS, t);
            }
        }
    }

    /** Runs every partition to {@code e}: alone when there are no workers or the JIT gate is shut, else with the workers. */
    private void runWindow(final long e) {
        windowEndPs = e;
        if (workers.length == 0 || jitBusy()) {
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
        while (finished.get() < partitions.length) {
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
     * The JIT gate (coordinator): at every check, whether the JIT compiled for at least half the
     * wall time of the last {@value #JIT_CHECKS} check periods (a compilation's time is credited when
     * it ends, so one period alone is too noisy); the answer holds until the next check.
     *
     * @return whether this window runs on the coordinator alone
     */
    private boolean jitBusy() {
        if (jitCompileMs == null) {
            return false;
        }
        final long now = System.nanoTime();
        final long elapsedNs = now - jitCheckedAtNs;
        if (elapsedNs >= jitCheckNs) {
            final long ms = jitCompileMs.getAsLong();
            final int slot = jitChecks++ % JIT_CHECKS;
            jitPeriodMs[slot] = ms - jitCompiledMs;
            jitPeriodNs[slot] = elapsedNs;
            long compiledMs = 0;
            long wallNs = 0;
            for (int i = 0; i < JIT_CHECKS; i++) {
                compiledMs += jitPeriodMs[i];
                wallNs += jitPeriodNs[i];
            }
            jitSolo = compiledMs * 2_000_000L >= wallNs;
            jitCompiledMs = ms;
            jitCheckedAtNs = now;
        }
        return jitSolo;
    }

    /**
     * Claims and runs partitions of window {@code ep} until none is left: first this thread's own
     * ({@link #home}), then any other still unclaimed (a thread the OS has descheduled leaves its
     * share to the others), each in {@link #order}; each partition exactly once per window, by
     * whichever thread claims it first. Which thread runs a partition changes no result: within a
     * window the partitions share no mutable state. A thread still holding an earlier window's
     * number claims nothing (every claim is then at least that number).
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
     * other, each in {@link #order}. Order, homes and the window's end were written before the
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

    /** Runs partition {@code p} to the window's end on thread {@code thread}, timing it; records a failure. */
    private void runPartition(final int p, final int thread) {
        final long t0 = System.nanoTime();
        try {
            for (final CutLink l : inbound[p]) {
                l.drain();
            }
            partitions[p].runUntil(windowEndPs);
            final WindowEnd w = windowEnd;
            if (w != null) {
                w.windowEnded(p, windowEndPs);
            }
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
     * Barrier step: the next window claims the partitions by their last run's wall time, longest
     * first, lower partition on ties (a stable insertion sort: 2-16 partitions). Changes no result.
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
     * Barrier step: adds each partition's last run to its time since the last plan, and every
     * {@value #HOME_PLAN_WINDOWS} windows re-plans the home threads ({@link #planHomes}), keeping
     * the old plan unless the new one is more than {@value #HOME_PLAN_GAIN_PERCENT} % better.
     * Changes no result; allocates nothing.
     */
    private void planHomesEvery() {
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

    /**
     * A frame acquired in one partition is released in the one that receives it, so free packets
     * drift between pools; a pool below {@value #POOL_LOW_WATER} free packets takes half the
     * difference from the pool with the most (lowest partition on ties). Deterministic.
     */
    private void rebalancePools() {
        if (pools.length < 2) {
            return;
        }
        for (final PacketPool p : pools) {
            if (p.freeCount() >= POOL_LOW_WATER) {
                continue;
            }
            PacketPool donor = null;
            for (final PacketPool d : pools) {
                if (donor == null || d.freeCount() > donor.freeCount()) {
                    donor = d;
                }
            }
            final int move = (donor.freeCount() - p.freeCount()) / 2;
            if (donor != p && move > 0) {
                donor.moveFreeTo(p, move);
            }
        }
    }

    /** Prints the counters to standard error when {@value #STATS_PROPERTY} is set (tests keep them quietly). */
    private void printStats() {
        if (stats != null && Boolean.getBoolean(STATS_PROPERTY)) {
            stats.print(System.err, windows, soloWindows, partitions);
        }
    }

    /** Stops the worker threads (idempotent). */
    @Override
    public void close() {
        shutdown = true;
        for (final Worker w : workers) {
            LockSupport.unpark(w);
        }
    }

    /** @return windows run so far */
    public long windows() {
        return windows;
    }

    /** @return windows run on the coordinator alone because the JIT gate was shut (0 on one thread) */
    public long soloWindows() {
        return soloWindows;
    }

    /** @return threads the partitions run on (the caller's included) */
    public int threads() {
        return threads;
    }

    /** @return the look-ahead L, ps */
    public long lookAheadPs() {
        return lookAheadPs;
    }

    /** @return events handled by the partitions and the global simulator */
    public long eventsProcessed() {
        long n = global.eventsProcessed();
        for (final Simulator s : partitions) {
            n += s.eventsProcessed();
        }
        return n;
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
