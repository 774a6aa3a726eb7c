package dev.nicsim.riscv;

import java.util.Arrays;
import java.util.Objects;

/**
 * A core with one or more hardware threads sharing one issue slot: at most one instruction
 * issues per core per cycle. The {@link IssuePolicy} chooses whose:
 * <ul>
 * <li>{@link IssuePolicy#FINE_GRAINED} (default): each cycle the next thread, in round-robin order
 * after the last one that issued, whose next instruction can issue (its operands ready and its
 * previous multi-cycle occupancy or control penalty over); when none can, the core idles until
 * the earliest can;</li>
 * <li>{@link IssuePolicy#BARREL}: cycle c belongs to thread {@code c mod threads}; when that thread
 * cannot issue (halted, or waiting) the slot is lost.</li>
 * </ul>
 * A thread waiting on a long-latency load (a {@link MemoryHierarchy} miss, a slow
 * {@link MemoryRegion}, a divide) gives its slot to the others, so their work hides its wait.
 * With one thread this is exactly {@link Hart#run}. A pick hands its thread a run of instructions
 * when the interleaving would give it every slot of that run (it is the only live thread, or no
 * other thread is ready before some cycle: {@link BoundedRun}), else one instruction; the cycles,
 * idle cycles, counters and caches are those of one instruction per pick (docs/riscv-core.md,
 * "Threads that share a pipeline"). When a {@link MemoryHierarchy} is attached
 * ({@link #attach}), the core selects the issuing thread in it before each issue, so each
 * thread's loads use its own L1D.
 *
 * <p>Each thread keeps its own registers, CSRs ({@code mhartid} = thread index), scoreboard and
 * branch predictor (a simplification: a real core may share the predictor); all share the
 * memory and its decoded-instruction cache. LR/SC reservations are per thread; a store by another
 * thread (or by a hart of another core sharing the memory) to the reserved bytes breaks one
 * (Volume I §8.2). {@code cycle} and {@code instret} are per thread: {@code instret} counts the
 * thread's own retired instructions, {@code cycle} the core's clock as the thread sees it (plus
 * its own offset after a write to {@code mcycle}).
 *
 * <p>Thread-safety: not thread-safe; one Java thread runs a core.
 */
public final class Core {
    /** How the threads of a core share its one issue slot per cycle. */
    public enum IssuePolicy {
        /** Round robin among the threads that can issue this cycle. */
        FINE_GRAINED,
        /** Fixed rotation over all threads; a slot whose thread cannot issue is lost. */
        BARREL
    }

    private final Hart[] threads;
    private final IssuePolicy policy;
    private final long[] instructionLimit;
    private MemoryHierarchy hierarchy;
    private int coreIndex;
    private long cycle;
    private long idleCycles;
    private int last = -1;
    /** Set by the fine-grained pick: the picked thread is the only one not halted. */
    private boolean alone;
    /**
     * Whether a fine-grained pick runs its thread for a run of instructions while no other thread
     * can issue ({@link #runUntilHalt(long, long)}); off only for the differential test, which
     * compares against instruction-by-instruction interleaving.
     */
    private boolean batching = true;
    /** Instructions retired in runs of one thread among several ({@link #runBatch}). */
    long batchedInstructions;

    /**
     * Creates a core with the model's issue policy.
     *
     * @param memory  the memory its threads share
     * @param xlen    32 or 64
     * @param model   timing
     * @param threads number of hardware threads, 1 to 64
     * @throws IllegalArgumentException when a number is out of range
     */
    public Core(final Memory memory, final int xlen, final CycleModel model, final int threads) {
        this(memory, xlen, model, threads, model.issuePolicy());
    }

    /**
     * Creates a core.
     *
     * @param memory  the memory its threads share
     * @param xlen    32 or 64
     * @param model   timing
     * @param threads number of hardware threads, 1 to 64
     * @param policy  issue policy
     * @throws IllegalArgumentException when a number is out of range
     */
    public Core(final Memory memory, final int xlen, final CycleModel model, final int threads, final IssuePolicy policy) {
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads must be 1 to 64: " + threads);
        }
        this.policy = Objects.requireNonNull(policy);
        this.threads = new Hart[threads];
        this.instructionLimit = new long[threads];
        Arrays.fill(instructionLimit, Long.MAX_VALUE);
        for (int i = 0; i < threads; i++) {
            this.threads[i] = new Hart(memory, xlen, model, i);
            this.threads[i].setYieldOnStall(threads > 1);
        }
    }

    /**
     * Attaches the cache hierarchy whose {@link MemoryHierarchy#select} this core calls before
     * each issue (the hierarchy must also be the latency of the memory's regions).
     *
     * @param h         the hierarchy
     * @param coreIndex this core's index in it
     */
    public void attach(final MemoryHierarchy h, final int coreIndex) {
        this.hierarchy = h;
        this.coreIndex = coreIndex;
    }

    /**
     * A hardware thread (to set its pc, registers and environment before running).
     *
     * @param i 0 to threads - 1
     * @return the thread
     */
    public Hart thread(final int i) {
        return threads[i];
    }

    /** @return cycles elapsed on the core: the cycle of the next issue slot */
    public long cycles() {
        return cycle;
    }

    /** @return cycles in which no thread issued */
    public long idleCycles() {
        return idleCycles;
    }

    /** @return instructions retired by all threads */
    public long instret() {
        long n = 0;
        for (final Hart h : threads) {
            n += h.instret();
        }
        return n;
    }

    /**
     * Makes {@link #runUntilHalt} return when a thread's retired count reaches a limit (an
     * embedding's per-call instruction budget).
     *
     * @param i            thread
     * @param absoluteInstret the thread's {@link Hart#instret()} at which to stop, {@link Long#MAX_VALUE} for none
     */
    public void instructionLimit(final int i, final long absoluteInstret) {
        instructionLimit[i] = absoluteInstret;
    }

    /**
     * Runs until every thread has halted or the core has retired {@code maxInstructions} in
     * total (counted from construction).
     *
     * @param maxInstructions total retired-instruction limit
     */
    public void run(final long maxInstructions) {
        while (runUntilHalt(maxInstructions) >= 0) {
            // keep going until all threads have halted
        }
    }

    /**
     * Runs until a thread halts or reaches its {@link #instructionLimit}, every thread has halted,
     * or the core has retired {@code maxInstructions} in total. A halted thread is made runnable
     * again by {@link Hart#resume()} (with its pc set); it may issue from the core's current cycle.
     *
     * @param maxInstructions total retired-instruction limit
     * @return the thread that halted or reached its limit, or -1 (all halted, or the total limit)
     */
    public int runUntilHalt(final long maxInstructions) {
        return runUntilHalt(maxInstructions, Long.MAX_VALUE);
    }

    /**
     * Makes a thread (resumed, its pc set) issue no earlier than a cycle: an event's activation
     * on a hardware thread.
     *
     * @param i     thread
     * @param cycle first cycle it may issue
     */
    public void wake(final int i, final long cycle) {
        threads[i].setReadyAt(cycle);
        if (threads.length == 1) {
            threads[i].setCycles(Math.max(threads[i].cycles(), cycle));
        }
    }

    /**
     * Moves an idle core's clock forward (time passing with no thread runnable).
     *
     * @param c cycle; ignored when not after the current one
     */
    public void idleUntil(final long c) {
        if (c > cycle) {
            idleCycles += c - cycle;
            cycle = c;
        }
    }

    /**
     * As {@link #runUntilHalt(long)}, and also returns -1 once the core's next issue slot is at
     * or after {@code maxCycle} (with several threads; a single-thread core runs its thread to
     * its halt or limit, since no other thread can take its slots).
     *
     * @param maxInstructions total retired-instruction limit
     * @param maxCycle        cycle not to issue at or after
     * @return the thread that halted or reached its limit, or -1
     */
    public int runUntilHalt(final long maxInstructions, final long maxCycle) {
        final int n = threads.length;
        if (n == 1) {
            final Hart h = threads[0];
            if (h.halted()) {
                return -1;
            }
            if (hierarchy != null) {
                hierarchy.select(coreIndex, 0);
            }
            h.setCycles(Math.max(cycle, h.cycles()));
            final long before = instret();
            h.run(Math.min(instructionLimit[0], h.instret() + Math.max(0, maxInstructions - before)));
            cycle = h.cycles();
            return h.halted() || h.instret() >= instructionLimit[0] ? 0 : -1;
        }
        // retired-instruction room of the whole core (no sum over the threads when unlimited: an
        // embedding's event loop calls this often, for a few instructions each time)
        long left = maxInstructions == Long.MAX_VALUE ? Long.MAX_VALUE : maxInstructions - instret();
        // the one live thread, once a fine-grained pick found it alone: no other thread can be
        // woken during this call, so the picks that follow are its own or idle cycles
        int solo = -1;
        while (left > 0 && cycle < maxCycle) {
            final int i;
            if (solo >= 0) {
                // pickFineGrained with one live thread, without the scan
                final long r = threads[solo].readyAt();
                if (r > cycle) {
                    final long to = Math.min(r, Math.max(cycle, maxCycle));
                    idleCycles += to - cycle;
                    cycle = to;
                    continue;
                }
                i = solo;
            } else {
                i = policy == IssuePolicy.BARREL ? pickBarrel() : pickFineGrained(maxCycle);
                if (i < 0) {
                    return -1;
                }
                if (i == n) {
                    continue; // a lost or idle slot: the cycle moved on
                }
                if (alone) {
                    solo = i;
                }
            }
            final Hart pick = threads[i];
            if (hierarchy != null) {
                hierarchy.select(coreIndex, i);
            }
            final long before = pick.instret();
            pick.setCycles(cycle);
            if (alone) {
                // the only thread that can ever issue until one is woken: it runs on its own
                // (as Hart.run would) up to its next stall, its limit, or about maxCycle
                final long room = Math.min(instructionLimit[i] - before, Math.min(left, maxCycle - cycle));
                pick.run(before + Math.max(1, room));
            } else {
                // the others cannot issue before `bound`: until then the picks would all be this
                // thread's, so it runs them in one call (one step short of its limits, whose last
                // instruction ends the call below as it always did)
                final long bound = batching && policy == IssuePolicy.FINE_GRAINED ? othersReady(i, maxCycle) : cycle;
                final long room = Math.min(instructionLimit[i] - before, left) - 1;
                if (bound - cycle >= 2 && room >= 1) {
                    final boolean halted = runBatch(pick, before, room, bound);
                    left -= pick.instret() - before;
                    if (halted) {
                        return i;
                    }
                    continue;
                }
                pick.run(before + 1);
            }
            if (pick.instret() > before || pick.halted()) {
                left -= pick.instret() - before;
                if (alone) {
                    pick.setReadyAt(Math.max(pick.readyAt(), pick.cycles()));
                    cycle = Math.max(cycle + 1, pick.cycles());
                } else {
                    pick.setReadyAt(pick.cycles());
                    cycle++;
                }
                if (pick.halted() || pick.instret() >= instructionLimit[i]) {
                    return i;
                }
            }
            if (pick.readyAt() <= cycle && pick.instret() == before && !pick.halted()) {
                throw new IllegalStateException("thread " + i + " neither issued nor waited at cycle " + cycle + " (pc 0x"
                    + Long.toHexString(pick.pc()) + ")");
            }
            // else: it yielded on a stall and set its readyAt; the slot goes to another thread
        }
        return -1;
    }

    /**
     * The first cycle at which another thread than {@code i} could take a slot: the earliest
     * {@link Hart#readyAt} of the other live threads, and at most {@code maxCycle}.
     */
    private long othersReady(final int i, final long maxCycle) {
        long m = maxCycle;
        for (int k = 0; k < threads.length; k++) {
            final Hart h = threads[k];
            if (k != i && !h.halted()) {
                m = Math.min(m, h.readyAt());
            }
        }
        return m;
    }

    /**
     * Runs the picked thread from the core's cycle while no other thread can take a slot (before
     * {@code bound}), and leaves the core as the instruction-by-instruction picks would have:
     * each of those picks would have been this thread (the others are not ready before
     * {@code bound}, and a thread that issued is round-robin last), a cycle with no issue idle.
     * <ul>
     * <li>It yielded on a stall at cycle s (its readyAt set by the hart): the core is at s.</li>
     * <li>It halted on a step that began at cycle s ({@link BoundedRun#haltStepCycle}): the core is at
     * s + 1 and returns it.</li>
     * <li>Else (bound reached, or room): its next issue cycle is its readyAt; the core idles on
     * to that or {@code bound}, whichever is first, as the picks would.</li>
     * </ul>
     * Each instruction that retired took one slot, a halting step that retired none one more;
     * every other cycle since the call began was idle.
     *
     * @return whether the thread halted
     */
    private boolean runBatch(final Hart pick, final long before, final long room, final long bound) {
        final long c0 = cycle;
        pick.bounded.run(before + room, bound);
        final long issued = pick.instret() - before;
        batchedInstructions += issued;
        if (pick.halted()) {
            cycle = pick.bounded.haltStepCycle + 1;
            idleCycles += cycle - c0 - issued - (pick.bounded.haltStepRetired ? 0 : 1);
            pick.setReadyAt(pick.cycles());
            return true;
        }
        if (!pick.yielded) {
            pick.setReadyAt(pick.cycles());
        }
        cycle = Math.min(pick.cycles(), bound);
        idleCycles += cycle - c0 - issued;
        return false;
    }

    /**
     * Turns runs of one thread's instructions off ({@code false}: every pick of an interleaved
     * core runs one instruction) or on (the default); the outcome is the same, for the
     * differential test that checks so.
     *
     * @param on whether a pick may run several instructions while no other thread can issue
     */
    void setBatching(final boolean on) {
        batching = on;
    }

    /** @return a thread that may issue now, n when the cycle moved on with no issue, -1 when all halted */
    private int pickFineGrained(final long maxCycle) {
        final int n = threads.length;
        long earliest = Long.MAX_VALUE;
        int pick = -1;
        int live = 0;
        for (int k = 1; k <= n; k++) {
            final int i = (last + k) % n;
            final Hart h = threads[i];
            if (h.halted()) {
                continue;
            }
            live++;
            if (pick < 0 && h.readyAt() <= cycle) {
                pick = i;
            }
            if (pick >= 0 && live > 1) {
                break;
            }
            earliest = Math.min(earliest, h.readyAt());
        }
        if (pick >= 0) {
            alone = live == 1;
            last = pick;
            return pick;
        }
        alone = false;
        if (earliest == Long.MAX_VALUE) {
            return -1;
        }
        final long to = Math.min(earliest, Math.max(cycle, maxCycle));
        idleCycles += to - cycle;
        cycle = to;
        return n;
    }

    /** @return the slot owner if it may issue now, n when its slot is lost (cycle advanced), -1 when all halted */
    private int pickBarrel() {
        alone = false;
        final int n = threads.length;
        final int i = (int) (cycle % n);
        final Hart h = threads[i];
        if (!h.halted() && h.readyAt() <= cycle) {
            return i;
        }
        boolean any = false;
        for (final Hart t : threads) {
            any |= !t.halted();
        }
        if (!any) {
            return -1;
        }
        idleCycles++;
        cycle++;
        return n;
    }
}
