package dev.nicsim.sim;

import java.util.Arrays;

/**
 * A conservative, synchronous parallel run (PDES) of a fabric split into partitions: each partition
 * has its own {@link Simulator} and {@link PacketPool}; links between partitions are
 * {@link CutLink}s; events that touch more than one partition (flow starts, samplers, mailbox and
 * link events) are on a separate global {@link Simulator} that only the coordinator runs. This
 * class is the window protocol; which thread runs which partition is the {@link WindowScheduler}'s
 * business, and whether a window runs on the coordinator alone is a {@link JitGate}'s.
 *
 * <h2>Window protocol</h2>
 * With L the look-ahead (the least propagation delay over the cut links), every window:
 * <ol>
 *   <li>W0 = the earliest next event over the partitions, the global set and the frames waiting
 *       in the cut links' outboxes; the window's last
 *       time (inclusive) is E = min(W0 + L - 1, the next global event's time, the stop time);</li>
 *   <li>every partition runs its events up to and including E ({@link Simulator#runUntil}, which
 *       leaves its now at E), on whichever thread the scheduler gives it; before its events the
 *       partition takes over the frames its incoming cut links carried in the previous window
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
 * the receiving partition (at the start of its next window) before it is due, and no partition
 * ever sees an event from the past; it is scheduled with the tie-break key its delivery would
 * have had on one simulator ({@link CutLink}, {@link Simulator#scheduleAs}), so it runs among the
 * receiving partition's events of its time where the sequential run runs it.
 * Within a window the partitions share no mutable state, so the results depend on the partition
 * count only, never on the number of threads, the scheduler, the gate or which thread runs what:
 * one thread running the partitions one after the other gives byte-identical results to one
 * thread per partition. Nothing is allocated per window once the cut links' arrays and the pools
 * have grown to the run's peak.
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
    /** A pool with fewer free packets than this at a barrier is refilled from the pool with the most. */
    static final int POOL_LOW_WATER = 256;
    /** The system property that switches the counters on ({@code true}). */
    public static final String STATS_PROPERTY = "nicsim.partition.stats";
    /** The system property that switches the default JIT gate off ({@code false}; {@link CompileTimeGate#forRun}); on by default. */
    public static final String JIT_GATE_PROPERTY = "nicsim.partition.jitGate";

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

    /**
     * The run's end at the end of a time, as a sequential run that calls
     * {@link Simulator#endAfterNow} ends (e.g. when the last flow completes): each partition that
     * holds pending work (unfinished flows) calls {@code endAfterNow} on its own simulator when its
     * last piece of work finishes, and says when. A window then runs in two passes: first the
     * partitions that hold pending work, each up to the window's end or to the end of the time its
     * work finished; then, if all of them finished, every partition up to the end of the latest of
     * those times T (and the run ends at T, with exactly the events at or before T run, as in the
     * sequential run), else every partition that has not reached the window's end up to it. Within a
     * window the partitions share no state, so the two passes give the results of one.
     */
    public interface RunEnd {
        /**
         * Coordinator, at a window's start.
         *
         * @param partition the partition
         * @return whether it holds work the run waits for (its pending work has not all finished)
         */
        boolean holdsPending(int partition);

        /**
         * Coordinator, after the first pass.
         *
         * @param partition a partition that held pending work at the window's start
         * @return the time its last pending work finished, ps (its simulator then stopped at the end
         *         of that time), or -1 if some is still pending
         */
        long finishedAtPs(int partition);
    }

    private final Simulator[] partitions;
    private final PacketPool[] pools;
    private final Simulator global;
    private final CutLink[] links;
    /** Each partition's incoming cut links, in hand-over order: the ones it drains before its events. */
    private final CutLink[][] inbound;
    private final long lookAheadPs;
    /** Runs the partitions of every window on the run's threads. */
    final WindowScheduler scheduler;
    /** Last time of the current window, ps; published to the workers by the scheduler's window number. */
    private long windowEndPs;
    private long windows;
    /** The caller's work at each partition's window end, or null; set before {@link #run}. */
    private WindowEnd windowEnd;
    /** The run's end at the end of a time, or null (the caller's barrier ends it); set before {@link #run}. */
    private RunEnd runEnd;
    /** Per partition: the last time it runs to in the current pass, ps, or -1 to sit the pass out. */
    private final long[] passEndPs;
    /** Per partition: the window whose incoming frames it has taken over (drained once per window). */
    private final long[] drainedWindow;
    /** The run's counters, or null when they are off. */
    final PartitionStats stats;

    /**
     * Sets up a partitioned run with the default JIT gate ({@link CompileTimeGate#forRun}).
     * Starts {@code threads - 1} worker threads. The counters are on with
     * {@code -D}{@value #STATS_PROPERTY}{@code =true}.
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
        this(partitions, pools, global, links, lookAheadPs, threads, CompileTimeGate.forRun(threads));
    }

    /**
     * Sets up a partitioned run with the given JIT gate (scheduling policy; it changes no result).
     * Starts {@code threads - 1} worker threads. The counters are on with
     * {@code -D}{@value #STATS_PROPERTY}{@code =true}.
     *
     * @param partitions  one simulator per partition, at time 0, at least 1
     * @param pools       each partition's packet pool, same length
     * @param global      the simulator of the global events, at time 0
     * @param links       every cut link, in hand-over order
     * @param lookAheadPs the look-ahead L, ps, {@code > 0} and at most every cut link's propagation delay
     * @param threads     threads to run the partitions on, {@code 1 .. partitions.length}
     * @param gate        decides which windows run on the coordinator alone (not consulted on one
     *                    thread), e.g. {@link JitGate#OPEN} or {@link CompileTimeGate#forRun}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public PartitionedRun(final Simulator[] partitions, final PacketPool[] pools, final Simulator global,
                          final CutLink[] links, final long lookAheadPs, final int threads, final JitGate gate) {
        this(partitions, pools, global, links, lookAheadPs, threads, gate, Boolean.getBoolean(STATS_PROPERTY));
    }

    /**
     * As the public constructors, with the counters given (tests read them, {@link #stats}).
     *
     * @param gate      decides which windows run on the coordinator alone (not consulted on one thread)
     * @param keepStats whether to keep the counters ({@link #stats})
     */
    PartitionedRun(final Simulator[] partitions, final PacketPool[] pools, final Simulator global,
                   final CutLink[] links, final long lookAheadPs, final int threads, final JitGate gate,
                   final boolean keepStats) {
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
        this.passEndPs = new long[partitions.length];
        this.drainedWindow = new long[partitions.length];
        Arrays.fill(drainedWindow, -1);
        this.scheduler = new WindowScheduler(partitions.length, threads, this::advance, gate, keepStats);
        this.stats = scheduler.stats;
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
     * Makes the run end at the end of the time the partitions' pending work finishes
     * ({@link RunEnd}). Call before {@link #run}, on the coordinator.
     *
     * @param end the partitions' pending work, or null for none (then only the barrier ends the run)
     * @return this run
     */
    public PartitionedRun onRunEnd(final RunEnd end) {
        this.runEnd = end;
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
        scheduler.start();
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
            windowEndPs = e;
            final long finishedPs = runPasses(e);
            windows++;
            end = finishedPs >= 0 ? finishedPs : e;
            if (st != null) {
                t = st.afterPartitions(t, scheduler.lastRunNs);
            }
            if (barrier.afterWindow(end) || finishedPs >= 0) {
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
            scheduler.afterWindow(windows);
            if (st != null) {
                t = st.lap(PartitionStats.REBALANCE_NS, t);
            }
        }
    }

    /**
     * Runs the current window ({@link RunEnd}): in one pass without a run end; else the partitions
     * holding pending work first, then the rest to the window's end or to the time the run ends.
     *
     * @param e the window's last time, ps
     * @return the time the run ends at (every partition has run its events up to it), or -1
     */
    private long runPasses(final long e) {
        final RunEnd re = runEnd;
        if (re == null) {
            Arrays.fill(passEndPs, e);
            scheduler.runWindow();
            return -1;
        }
        boolean any = false;
        for (int p = 0; p < partitions.length; p++) {
            passEndPs[p] = re.holdsPending(p) ? e : -1;
            any |= passEndPs[p] >= 0;
        }
        long finished = -1;
        if (any) {
            scheduler.runWindow();
            for (int p = 0; p < partitions.length && finished != Long.MIN_VALUE; p++) {
                if (passEndPs[p] >= 0) {
                    final long t = re.finishedAtPs(p);
                    finished = t < 0 ? Long.MIN_VALUE : Math.max(finished, t);
                }
            }
        }
        final long to = finished >= 0 ? finished : e;
        boolean second = false;
        for (int p = 0; p < partitions.length; p++) {
            final boolean ran = passEndPs[p] >= 0;
            final boolean needs = !ran || partitions[p].nowPs() < to;
            passEndPs[p] = needs ? to : -1;
            second |= needs;
        }
        if (second) {
            scheduler.runWindow();
        }
        return finished >= 0 ? finished : -1;
    }

    /**
     * One partition's share of the current pass, on whichever thread the scheduler runs it: the
     * first time in a window it takes over the frames of its incoming cut links; it runs its events
     * up to the pass's end for it, then, if it reached the window's end, does the caller's
     * window-end work. A partition without a pass end sits the pass out.
     */
    private void advance(final int p) {
        final long to = passEndPs[p];
        if (to < 0) {
            return;
        }
        if (drainedWindow[p] != windows) {
            drainedWindow[p] = windows;
            for (final CutLink l : inbound[p]) {
                l.drain();
            }
        }
        partitions[p].runUntil(to);
        final WindowEnd w = windowEnd;
        if (w != null && to == windowEndPs && partitions[p].nowPs() == windowEndPs) {
            w.windowEnded(p, windowEndPs);
        }
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
            stats.print(System.err, windows, scheduler.soloWindows(), partitions);
        }
    }

    /** Stops the worker threads (idempotent). */
    @Override
    public void close() {
        scheduler.close();
    }

    /** @return windows run so far */
    public long windows() {
        return windows;
    }

    /** @return windows run on the coordinator alone because the JIT gate was shut (0 on one thread) */
    public long soloWindows() {
        return scheduler.soloWindows();
    }

    /** @return threads the partitions run on (the caller's included) */
    public int threads() {
        return scheduler.threads();
    }

    /** @return the look-ahead L, ps */
    public long lookAheadPs() {
        return lookAheadPs;
    }
}
