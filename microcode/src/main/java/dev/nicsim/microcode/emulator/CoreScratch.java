package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;

/**
 * The flyweights and the result an emulated core handles an event with. They hold nothing
 * between two of a core's steps, so the cores that one thread runs share one set: the stepped
 * cores of an emulator one, each free-running agent's cores one. A fabric's thousands of cores
 * then touch one warm set instead of a cold one each.
 *
 * <p>Thread-safety: used by one thread at a time (the thread that runs the cores holding it).
 */
final class CoreScratch {
    /** View of a record on the ring. */
    final PccEvent ringView = new PccEvent();
    /** View of a record in a pending table. */
    final PccEvent pendingView = new PccEvent();
    /** View of a record held by a hardware thread. */
    final PccEvent threadView = new PccEvent();
    /** View of a flow's context words. */
    final PccContext context = new PccContext();
    /** The attributes passed to the algorithm. */
    final PccAttributes attributes = new PccAttributes();
    /** The algorithm's result for the event being handled; copied out before the next. */
    final PccResult result = new PccResult();
}
