package dev.nicsim.microcode;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.riscv.Core;

/**
 * A measured algorithm whose handlers run on the hardware threads of one multithreaded core at
 * the same time (firmware on the {@code bf3-dpa} model, {@link Core}): the
 * emulator begins an event on a thread at a core cycle, advances the core, and finishes the
 * event when its thread has retired its last instruction. Handlers on different threads share
 * the core's one issue slot per cycle, so each one's latency includes the slots the others took.
 *
 * <p>Use: {@link #begin} (the context, event and attributes are read then), {@link #runUntil}
 * until it returns the thread, {@link #finish} (writes the context back and fills the result),
 * then {@link #lastHandlerCycles()} is that handler's latency: cycles from its begin to its
 * last instruction, inclusive. A flow must not have two events in flight.
 *
 * <p>Thread-safety: one driving thread.
 */
public interface InterleavedPccAlgorithm extends MeasuredPccAlgorithm {
    /** @return whether this instance interleaves (else the emulator calls {@link #onEvent} to completion) */
    boolean interleaves();

    /**
     * Starts an event on a free hardware thread.
     *
     * @param thread     hardware thread, 0 .. threads per core - 1 (at most 15), not running an event
     * @param startCycle core cycle from which the thread may issue (the core's own cycle if later)
     * @param context    the flow's context (copied in now)
     * @param event      the event (read now)
     * @param attributes the flow's attributes (read now)
     * @return false when the firmware does not handle this event type (nothing runs; the result
     *         stays unchanged, 0 cycles)
     */
    boolean begin(int thread, long startCycle, PccContext context, PccEvent event, PccAttributes attributes);

    /**
     * Advances the core until a thread finishes its event or the core reaches a cycle.
     *
     * @param maxCycle core cycle not to issue at or after ({@link Long#MAX_VALUE}: until a thread finishes)
     * @return the thread that finished, or -1
     */
    int runUntil(long maxCycle);

    /** @return the core's current cycle (the next issue slot) */
    long coreCycles();

    /**
     * Moves an idle core's clock to a cycle (no thread runnable before it).
     *
     * @param cycle core cycle
     */
    void idleUntil(long cycle);

    /** @return instructions the last finished handler retired (its issue slots) */
    long lastInstructions();

    /** @return whether some thread is running an event */
    boolean busy();

    /**
     * Completes a finished thread's event: context written back (unless abandoned), result filled.
     *
     * @param thread  the thread {@link #runUntil} returned
     * @param context the same flow's context
     * @param result  receives the result (reset by the caller)
     */
    void finish(int thread, PccContext context, PccResult result);
}
