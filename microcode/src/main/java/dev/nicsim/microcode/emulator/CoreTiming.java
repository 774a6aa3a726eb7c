package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEvent;

/**
 * How an emulated core times an event: the policy half of {@link EmulatorCore}, whose dispatch
 * loop, tables and queues are the mechanism. The core picks one timing when it is built and keeps
 * it for life, so each of its call sites sees one final class:
 * <ul>
 *   <li>{@link EstimatedTiming}: a Java algorithm; stage cycles come from the {@link CostTable}
 *       (declared handler estimates plus the configured dispatch, context and write-back cycles);
 *       the handler runs when the event completes.</li>
 *   <li>{@link MeasuredTiming}: firmware run to completion at dispatch; the cycles the hart
 *       measured make the thread's stretches, the result waits with the thread.</li>
 *   <li>{@link InterleavedTiming}: firmware on a multithreaded machine model ({@code bf3-dpa});
 *       the handlers of a core's threads share one RISC-V core's issue slot, which the timing
 *       advances alongside simulated time.</li>
 * </ul>
 *
 * <p>Stepped, a core calls {@link #dispatch} when a thread takes an event; a timing that keeps the
 * core's stretch model puts the thread on the ready queue ({@link EmulatorCore#pushReady}), after
 * which the core asks it for each stretch's length ({@link #startStretch}) and for the result when
 * the last stretch ends ({@link #completeStretched}). A timing that completes events by itself
 * reports its completions through {@link #nextCompletionPs} and {@link #finishDue}. Free-running,
 * the core calls {@link #handleNow} per event.
 *
 * <p>Thread-safety: one per core, used by the core's consumer thread only. Allocates nothing per event.
 */
abstract sealed class CoreTiming permits EstimatedTiming, MeasuredTiming, InterleavedTiming {

    /**
     * Stepped: the pending table's head has been copied to hardware thread {@code th}'s record,
     * its flow marked busy and its context looked up in the cache.
     *
     * @param core           the core
     * @param th             hardware thread, 0 .. threads per core - 1
     * @param slot           the flow's slot in the core's context store
     * @param slotGeneration slot and generation ({@link PendingTable#slotGeneration(int, int)})
     * @param type           event type
     * @param hit            whether the context was in the core's cache
     * @param overloaded     whether the pending table is above its high-water mark
     * @param arrivalPs      the event's arrival time, ps
     */
    abstract void dispatch(EmulatorCore core, int th, int slot, long slotGeneration, int type, boolean hit,
                           boolean overloaded, long arrivalPs);

    /**
     * Stepped: thread {@code th} takes the core's issue slot for its next stretch. Adds the
     * stretch's cycles to {@link EmulatorCore#busyCycles} and sets {@link EmulatorCore#runningFinal}
     * (whether the event completes when the stretch ends, else it waits a context miss).
     *
     * @param core      the core
     * @param th        the thread at the head of the ready queue
     * @param typeFlags its {@link ThreadTable} type and flags
     * @return the stretch's length, ps
     * @throws IllegalStateException from a timing that never puts a thread on the ready queue
     */
    abstract long startStretch(EmulatorCore core, int th, long typeFlags);

    /**
     * Stepped: the last stretch of thread {@code th}'s event ended and its flow is still running;
     * leaves the event's result in the core's scratch result.
     *
     * @param core      the core
     * @param th        the thread
     * @param slot      the flow's slot
     * @param typeFlags the thread's {@link ThreadTable} type and flags
     * @throws IllegalStateException from a timing that never puts a thread on the ready queue
     */
    abstract void completeStretched(EmulatorCore core, int th, int slot, long typeFlags);

    /**
     * Stepped: the earliest time an event this timing runs by itself completes or needs a wake-up.
     *
     * @param core the core
     * @return time, ps, or {@link Long#MAX_VALUE} for none
     */
    long nextCompletionPs(final EmulatorCore core) {
        return Long.MAX_VALUE;
    }

    /**
     * Stepped: completes every event this timing runs by itself that is due at or before {@code tn}.
     *
     * @param core the core
     * @param tn   the transition time, ps
     */
    void finishDue(final EmulatorCore core, final long tn) {
    }

    /**
     * Free-running: runs the event's handler now (result in the core's scratch result) and adds
     * its cycles to {@link EmulatorCore#busyCycles}.
     *
     * @param core       the core
     * @param event      the event (a pending-table view)
     * @param slot       the flow's slot
     * @param type       event type
     * @param hit        whether the context was in the core's cache
     * @param overloaded whether the pending table is above its high-water mark
     * @return the cycles to report with the result
     */
    abstract long handleNow(EmulatorCore core, PccEvent event, int slot, int type, boolean hit,
                            boolean overloaded);
}
