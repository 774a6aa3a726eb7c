package dev.nicsim.sim;

import java.util.concurrent.locks.LockSupport;

/**
 * A conservative, synchronous parallel run (PDES) of a fabric split into partitions: each partition
 * has its own {@link Simulator} and {@link PacketPool}; links between partitions are
 * {@link CutLink}s; events that touch more than one partition (flow starts, samplers, mailbox and
 * link events) are on a separate global {@link Simulator} that only the coordinator runs.
 *
 * <h2>Window protocol</h2>
 * With L the look-ahead (the least propagation delay over the cut links), every window:
 * <ol>
 *   <li>W0 = the earliest next event over the partitions and the global set; the window's last
 *       time (inclusive) is E = min(W0 + L - 1, the next global event's time, the stop time);</li>
 *   <li>every partition runs its events up to and including E ({@link Simulator#runUntil}, which
 *       leaves its now at E); each partition is run by whichever thread claims it first (an
 *       atomic counter per window), so a thread the OS deschedules leaves its share to the
 *       others;</li>
 *   <li>barrier; the coordinator alone then calls {@link Barrier#afterWindow} (the caller merges
 *       what the partitions recorded, e.g. flow completions, and may end the run), runs the global
 *       events due at E (every partition's now being E: they run after the partitions' events of
 *       the same time), hands every cut link's frames to its receiving partition in link order
 *       then send order, and rebalances free packets between the pools.</li>
 * </ol>
 * A frame put on a cut link at t &lt;= E arrives at or after t + L &gt; E, so it is scheduled on
 * the receiving partition before it is due, and no partition ever sees an event from the past.
 * Within a window the partitions share no mutable state, so the results depend on the partition
 * count only, never on the number of threads: one thread running the partitions one after the
 * other gives byte-identical results to one thread per partition.
 *
 * <h2>Threads</h2>
 * Thread 0 is the caller's (the coordinator); threads 1.. are daemon workers that spin on a
 * volatile window counter ({@link Thread#onSpinWait()}, then park after {@value #SPINS_BEFORE_PARK}
 * spins). A worker's exception is rethrown by {@link #run} on the caller's thread (a
 * {@link RuntimeException} or {@link Error} as it is, anything else wrapped). Nothing is allocated
 * per window once the cut links' arrays and the pools have grown to the run's peak.
 *
 * <p>Thread-safety: {@link #run} and {@link #close} from one thread (the coordinator).
 */
public final class PartitionedRun implements AutoCloseable {
    /** Spins of a waiting thread before it parks (worker) or yields (coordinator). */
    static final int SPINS_BEFORE_PARK = 1 << 14;
    /** A pool with fewer free packets than this at a barrier is refilled from the pool with the most. */
    static final int POOL_LOW_WATER = 256;

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

    private final Simulator[] partitions;
    private final PacketPool[] pools;
    private final Simulator global;
    private final CutLink[] links;
    private final long lookAheadPs;
    private final int threads;
    private final Worker[] workers;
    /** Last time of the current window, ps; published by the volatile writes of {@link #claims} and {@link #epoch}. */
    private long windowEndPs;
    private volatile long epoch;
    /** The current window's partition claims: window number (upper 32 bits) and next partition to claim (lower 32). */
    private final java.util.concurrent.atomic.AtomicLong claims = new java.util.concurrent.atomic.AtomicLong();
    /** Partitions of the current window run to its end. */
    private final java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean shutdown;
    private volatile Throwable failure;
    private long windows;

    /**
     * Sets up a partitioned run. Starts {@code threads - 1} worker threads.
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
        this.lookAheadPs = lookAheadPs;
        this.threads = threads;
        this.workers = new Worker[threads - 1];
        for (int t = 1; t < threads; t++) {
            workers[t - 1] = new Worker(t);
            workers[t - 1].start();
        }
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
        while (true) {
            long w0 = global.nextEventTimePs();
            for (final Simulator s : partitions) {
                w0 = Math.min(w0, s.nextEventTimePs());
            }
            if (w0 == Long.MAX_VALUE || w0 > stopPs) {
                return end;
            }
            final long e = Math.min(Math.min(w0 + lookAheadPs - 1, global.nextEventTimePs()), stopPs);
            runWindow(e);
            windows++;
            end = e;
            if (barrier.afterWindow(e)) {
                return end;
            }
            global.runUntil(e);
            for (final CutLink l : links) {
                l.handOver();
            }
            rebalancePools();
        }
    }

    /** Runs every partition to {@code e}: the workers theirs, this thread partitions 0, T, 2T, ... */
    private void runWindow(final long e) {
        windowEndPs = e;
        if (workers.length == 0) {
            for (final Simulator s : partitions) {
                s.runUntil(e);
            }
            return;
        }
        final long ep = epoch + 1;
        finished.set(0);
        claims.set(ep << 32);
        epoch = ep;
        for (final Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w);
            }
        }
        runClaimed(ep);
        int spins = 0;
        while (finished.get() < partitions.length) {
            if (++spins < SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
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
     * Claims and runs partitions of window {@code ep} until none is left: each partition is run by
     * whichever thread claims it first (a thread the OS has descheduled leaves its share to the
     * others), exactly once per window. Which thread runs a partition changes no result: within a
     * window the partitions share no mutable state.
     */
    private void runClaimed(final long ep) {
        while (true) {
            final long c = claims.get();
            final int p = (int) c;
            if ((c >>> 32) != ep || p >= partitions.length) {
                return;
            }
            if (!claims.compareAndSet(c, c + 1)) {
                continue;
            }
            try {
                // read after the claim: the claim word was set after windowEndPs, and the next
                // window's end is written only once every partition of this one has finished
                partitions[p].runUntil(windowEndPs);
            } catch (final Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            }
            finished.incrementAndGet();
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

        Worker(final int id) {
            super("nicsim-partition-" + id);
            setDaemon(true);
        }

        @Override
        public void run() {
            long seen = 0;
            while (true) {
                long ep;
                int spins = 0;
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
                        }
                        parked = false;
                    }
                }
                if (shutdown) {
                    return;
                }
                seen = ep;
                runClaimed(ep);
            }
        }
    }
}
