package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.InterleavedPccAlgorithm;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.riscv.Core;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Timing of firmware on a multithreaded machine model ({@code bf3-dpa},
 * {@link InterleavedPccAlgorithm}): the handlers of the emulated core's hardware threads run at
 * the same time on one RISC-V {@link Core}, one issue per cycle, so each one's latency includes
 * the slots the others took. An event begins on its thread, which may issue from d cycles after
 * its dispatch (the activation cost); it completes w cycles after its last instruction. The flow's
 * context costs what the firmware's memory hierarchy says (the emulated core's LRU context cache
 * is still counted, not charged). Events never enter the core's stretch queues: this timing
 * reports their completions itself ({@link #nextCompletionPs}, {@link #finishDue}).
 *
 * <p>Free-running, events run to completion as with {@link MeasuredTiming}.
 *
 * <p>Thread-safety: one per core, used by the core's consumer thread only.
 */
final class InterleavedTiming extends CoreTiming {
    /**
     * How far (core cycles) the RISC-V core may run ahead of simulated time while a thread is
     * free, so that the next completion is found without waking every cycle; an event dispatched
     * meanwhile starts issuing at the core's cycle, at most this much late (its latency still
     * counts from its dispatch). 256 cycles = 142 ns at 1.8 GHz.
     */
    static final long LOOKAHEAD_CYCLES = 256;
    /** Most hardware threads the RISC-V core model runs. */
    static final int MAX_THREADS = 16;

    private final InterleavedPccAlgorithm interleaved;
    private final long clockHz;
    private final int dispatchCycles;
    private final int contextHitCycles;
    private final int contextMissCycles;
    private final int writeBackCycles;
    /** Per thread, when its event completes (ps), {@link Long#MAX_VALUE} while it runs or is free. */
    private final long[] doneAtPs;
    /** Per thread, whether its event ran no handler (a type the firmware disabled). */
    private final boolean[] notStarted;
    /** A context not bound to any flow, for events whose flow ended while they ran. */
    private final PccContext orphanContext;

    /**
     * @param interleaved  the core's algorithm, {@link InterleavedPccAlgorithm#interleaves()} true
     * @param contextWords its context words per flow, at least 1
     * @param config       validated configuration
     * @throws IllegalArgumentException if threads per core exceeds {@link #MAX_THREADS}
     */
    InterleavedTiming(final InterleavedPccAlgorithm interleaved, final int contextWords, final EmulatorConfig config) {
        final int threads = config.threadsPerCore();
        if (threads > MAX_THREADS) {
            throw new IllegalArgumentException("threadsPerCore must be at most " + MAX_THREADS
                + " with firmware on a multithreaded model, got " + threads);
        }
        this.interleaved = interleaved;
        this.clockHz = config.clockHz();
        this.dispatchCycles = config.dispatchCycles();
        this.contextHitCycles = config.contextHitCycles();
        this.contextMissCycles = config.contextMissCycles();
        this.writeBackCycles = config.writeBackCycles();
        doneAtPs = new long[threads];
        Arrays.fill(doneAtPs, Long.MAX_VALUE);
        notStarted = new boolean[threads];
        orphanContext = new PccContext().wrap(new UnsafeBuffer(new byte[4 * contextWords]), 0, contextWords);
    }

    /** The event begins on thread {@code th} of the RISC-V core at d cycles after now. */
    @Override
    void dispatch(final EmulatorCore core, final int th, final int slot, final long slotGeneration, final int type,
                  final boolean hit, final boolean overloaded, final long arrivalPs) {
        final CoreScratch scratch = core.scratch;
        scratch.threadView.wrap(core.threadRecords, ThreadTable.recordOffset(th));
        core.store.wrap(slot, scratch.context);
        core.setAttributes(slot, overloaded);
        final long nowPs = core.nowPs;
        final long nowCycle = cycleAt(nowPs);
        if (!interleaved.busy()) {
            interleaved.idleUntil(nowCycle);
        }
        ThreadTable.set(core.threadMeta, th, arrivalPs, 0, slotGeneration, type | (overloaded ? ThreadTable.OVERLOADED : 0));
        if (interleaved.begin(th, nowCycle + dispatchCycles, scratch.context, scratch.threadView, scratch.attributes)) {
            notStarted[th] = false;
        } else {
            notStarted[th] = true;
            doneAtPs[th] = nowPs + CostTable.cyclesToPs(dispatchCycles + writeBackCycles, clockHz);
        }
    }

    /** @throws IllegalStateException always: interleaved events take no stretches */
    @Override
    long startStretch(final EmulatorCore core, final int th, final long typeFlags) {
        throw new IllegalStateException("interleaved events take no stretches of the core's issue slot");
    }

    /** @throws IllegalStateException always: interleaved events take no stretches */
    @Override
    void completeStretched(final EmulatorCore core, final int th, final int slot, final long typeFlags) {
        throw new IllegalStateException("interleaved events take no stretches of the core's issue slot");
    }

    /**
     * Runs the RISC-V core ahead of simulated time and returns the earliest completion or wake-up
     * time. It runs to the next thread that finishes when every thread is busy (no event can start
     * before a thread is free), else at most {@link #LOOKAHEAD_CYCLES} past now; never past a
     * finished thread's completion that is still to be processed.
     */
    @Override
    long nextCompletionPs(final EmulatorCore core) {
        long next = Long.MAX_VALUE;
        for (final long d : doneAtPs) {
            next = Math.min(next, d);
        }
        if (interleaved.busy()) {
            // never past a completion still to be processed (it frees a thread: an event may start then)
            long limit = next == Long.MAX_VALUE ? Long.MAX_VALUE : cycleAt(next);
            if (core.freeThreadCount() > 0) {
                limit = Math.min(limit, cycleAt(core.nowPs) + LOOKAHEAD_CYCLES);
            }
            final int th = interleaved.runUntil(limit);
            if (th >= 0) {
                doneAtPs[th] = psAt(interleaved.coreCycles()) + CostTable.cyclesToPs(writeBackCycles, clockHz);
                next = Math.min(next, doneAtPs[th]);
            } else {
                // stopped at the look-ahead limit: wake when simulated time gets there (a core held back
                // by a pending completion has that completion as its next transition instead)
                final long at = psAt(interleaved.coreCycles());
                if (at > core.nowPs) {
                    next = Math.min(next, at);
                }
            }
        }
        return next;
    }

    @Override
    void finishDue(final EmulatorCore core, final long tn) {
        for (int th = 0; th < doneAtPs.length; th++) {
            if (doneAtPs[th] <= tn) {
                finish(core, th, doneAtPs[th]);
            }
        }
    }

    /** The event of thread th completes at tn: its result is queued, the thread freed. */
    private void finish(final EmulatorCore core, final int th, final long tn) {
        doneAtPs[th] = Long.MAX_VALUE;
        final CoreScratch scratch = core.scratch;
        final long slotGeneration = ThreadTable.slotGeneration(core.threadMeta, th);
        final int slot = PendingTable.slotOf(slotGeneration);
        final boolean alive = core.flowAlive(slotGeneration);
        scratch.result.reset();
        long cycles = dispatchCycles + writeBackCycles;
        if (!notStarted[th]) {
            if (alive) {
                core.store.wrap(slot, scratch.context);
                interleaved.finish(th, scratch.context, scratch.result);
            } else {
                interleaved.finish(th, orphanContext, scratch.result);
            }
            cycles += interleaved.lastHandlerCycles() - dispatchCycles;
            core.busyCycles += interleaved.lastInstructions();
        }
        core.completeThread(th, slot, alive, tn, cycles);
    }

    @Override
    long handleNow(final EmulatorCore core, final PccEvent event, final int slot, final int type, final boolean hit,
                   final boolean overloaded) {
        return MeasuredTiming.handleMeasuredNow(core, interleaved, false, event, slot, hit, overloaded, dispatchCycles,
            contextHitCycles, contextMissCycles, writeBackCycles);
    }

    /** @return the core cycle at a simulated time (floor) */
    private long cycleAt(final long ps) {
        return (long) Math.floor(ps * (clockHz / 1e12));
    }

    /** @return the simulated time of a core cycle (ceiling) */
    private long psAt(final long cycle) {
        return (long) Math.ceil(cycle * (1e12 / clockHz));
    }
}
