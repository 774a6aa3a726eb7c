package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.Core;
import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.MemoryHierarchy;
import dev.nicsim.riscv.TimingClass;

/**
 * The interleaving RISC-V {@link Core} of one {@link FirmwareAlgorithm} instance ({@code bf3-dpa}:
 * {@link #THREADS} hardware threads sharing one issue slot per cycle) and, per hardware thread,
 * the event it runs: when it began (core cycle, retired instructions), its type, whether it ran
 * into the instruction budget, when it ended, and the stall and memory-level figures at its start
 * for the profile. The core is made on first use, every thread idle.
 *
 * <p>Allocation-free per event. Thread-safety: one driving thread.
 */
final class FirmwareCoreThreads {
    /** Hardware threads of an interleaving core (a DPA core's 16). */
    static final int THREADS = 16;
    /** Stall causes a hart counts: the timing classes plus two. */
    static final int CAUSES = TimingClass.values().length + 2;

    private final FirmwareNic nic;
    private final int instance;
    private Core core;
    private final long[] startCycle = new long[THREADS];
    private final long[] startInstret = new long[THREADS];
    private final int[] runningType = new int[THREADS];
    private final boolean[] running = new boolean[THREADS];
    private final boolean[] budgetHit = new boolean[THREADS];
    private final long[] endCycle = new long[THREADS];
    /** Per thread, the hart's stall counts when its event began. */
    final long[][] stallsAtStart = new long[THREADS][CAUSES];
    /** Per thread, the memory hierarchy's per-level cycles when its event began. */
    final long[][] levelsAtStart = new long[THREADS][MemoryHierarchy.LEVELS];
    private int runningCount;

    /**
     * @param nic      the NIC whose memory and cycle model the core uses
     * @param instance the algorithm instance (the core's index on the NIC)
     */
    FirmwareCoreThreads(final FirmwareNic nic, final int instance) {
        this.nic = nic;
        this.instance = instance;
    }

    /** @return the core, made with every thread idle on first use */
    Core core() {
        if (core == null) {
            core = nic.newCore(instance, THREADS);
            for (int t = 0; t < THREADS; t++) {
                core.thread(t).exit(0); // idle until an event begins on it
            }
        }
        return core;
    }

    /** @param thread hardware thread @return whether it has an event in flight (begun, not finished) */
    boolean running(final int thread) {
        return core != null && running[thread];
    }

    /**
     * Starts a prepared hart's event.
     *
     * @param thread          hardware thread, idle
     * @param start           core cycle from which it may issue (the core's own if later)
     * @param type            the event's type
     * @param maxInstructions instruction budget of the event
     */
    void start(final int thread, final long start, final int type, final long maxInstructions) {
        final Core c = core();
        final Hart h = c.thread(thread);
        c.wake(thread, Math.max(start, c.cycles()));
        c.instructionLimit(thread, h.instret() + maxInstructions);
        startCycle[thread] = start;
        startInstret[thread] = h.instret();
        runningType[thread] = type;
        running[thread] = true;
        runningCount++;
    }

    /**
     * Advances the core until a thread finishes its event (or is stopped at its budget) or the
     * core reaches a cycle.
     *
     * @param maxCycle core cycle not to issue at or after
     * @return the thread that finished, or -1
     */
    int runUntil(final long maxCycle) {
        if (runningCount == 0) {
            return -1;
        }
        final int t = core.runUntilHalt(Long.MAX_VALUE, maxCycle);
        if (t >= 0) {
            endCycle[t] = core.cycles();
        }
        if (t >= 0 && !core.thread(t).halted()) {
            budgetHit[t] = true;
            core.thread(t).exit(0); // over the instruction budget: the thread stops here
        }
        return t;
    }

    /**
     * Ends a finished thread's event and tells how it ended.
     *
     * @param thread the thread {@link #runUntil} returned
     * @return done, fault or budget
     */
    FirmwareNic.Outcome end(final int thread) {
        running[thread] = false;
        runningCount--;
        if (budgetHit[thread]) {
            budgetHit[thread] = false;
            return FirmwareNic.Outcome.BUDGET;
        }
        return core.thread(thread).haltReason() == Hart.HaltReason.FAULT ? FirmwareNic.Outcome.FAULT
            : FirmwareNic.Outcome.DONE;
    }

    /** @param thread a thread @return its event's cycles, begin to last instruction */
    long cycles(final int thread) {
        return endCycle[thread] - startCycle[thread];
    }

    /** @param thread a thread @return instructions its event retired */
    long instructions(final int thread) {
        return core.thread(thread).instret() - startInstret[thread];
    }

    /** @param thread a thread @return its event's type */
    int type(final int thread) {
        return runningType[thread];
    }

    /** @return instructions the core retired so far (0 before its first event) */
    long instret() {
        return core == null ? 0 : core.instret();
    }

    /** @return the core's current cycle (0 before its first event) */
    long cycles() {
        return core == null ? 0 : core.cycles();
    }

    /** @return whether some thread has an event in flight */
    boolean busy() {
        return runningCount > 0;
    }
}
