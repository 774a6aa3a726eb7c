package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.MeasuredPccAlgorithm;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;

/**
 * Timing of an algorithm whose handler cost is measured ({@link MeasuredPccAlgorithm}: firmware
 * run to completion on a hart). The handler runs when the event is dispatched to a thread, on the
 * thread's copy of the event, with the context's first access costing the cache model's hit or
 * miss latency; its cycles c (memory stalls included) make the thread's stretches. A hit (or a
 * handler that never reads its context) holds the core for one stretch of d + c + w cycles. A miss
 * holds it for d + p cycles (p: the handler's cycles before its first context load), waits the
 * miss latency m off the issue slot, then holds it for max(0, c - p - m) + w: the stall the hart
 * measured is the wait, spent off the core as with a Java handler. The result waits with the
 * thread until the event completes.
 *
 * <p>With every configured cycle count 0 (the ideal processor) the measured cycles are not
 * charged either: each event takes 0 cycles.
 *
 * <p>Thread-safety: one per core, used by the core's consumer thread only.
 */
final class MeasuredTiming extends CoreTiming {
    private final MeasuredPccAlgorithm measured;
    /** Zero-cost configuration: measured cycles are not charged. */
    private final boolean free;
    private final long clockHz;
    private final int dispatchCycles;
    private final int contextHitCycles;
    private final int contextMissCycles;
    private final int writeBackCycles;
    /** Per thread, the result of the handler it ran at dispatch. */
    private final PccResult[] threadResults;
    /** Per thread, cycles of its first stretch and of its second (after a context miss). */
    private final long[] threadStageCycles;

    /**
     * @param measured the core's algorithm
     * @param free     whether every configured cycle count is 0 ({@link #isFree})
     * @param config   validated configuration (clock, stage cycles, threads per core)
     */
    MeasuredTiming(final MeasuredPccAlgorithm measured, final boolean free, final EmulatorConfig config) {
        this.measured = measured;
        this.free = free;
        this.clockHz = config.clockHz();
        this.dispatchCycles = config.dispatchCycles();
        this.contextHitCycles = config.contextHitCycles();
        this.contextMissCycles = config.contextMissCycles();
        this.writeBackCycles = config.writeBackCycles();
        final int threads = config.threadsPerCore();
        threadResults = new PccResult[threads];
        for (int t = 0; t < threads; t++) {
            threadResults[t] = new PccResult();
        }
        threadStageCycles = new long[threads * 2];
    }

    /**
     * @param config validated configuration
     * @return whether it charges no cycles at all: dispatch, context, write-back and every
     *         handler override 0 (the ideal processor)
     */
    static boolean isFree(final EmulatorConfig config) {
        boolean free = config.dispatchCycles() == 0 && config.contextHitCycles() == 0
            && config.contextMissCycles() == 0 && config.writeBackCycles() == 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            free &= config.handlerCyclesOverride(t) == 0;
        }
        return free;
    }

    @Override
    void dispatch(final EmulatorCore core, final int th, final int slot, final long slotGeneration, final int type,
                  final boolean hit, final boolean overloaded, final long arrivalPs) {
        final CoreScratch scratch = core.scratch;
        scratch.threadView.wrap(core.threadRecords, ThreadTable.recordOffset(th));
        measured.prepare(th, free ? 0 : hit ? contextHitCycles : contextMissCycles);
        core.runHandler(scratch.threadView, slot, overloaded);
        threadResults[th].copyFrom(scratch.result);
        final long c = free ? 0 : measured.lastHandlerCycles();
        final long p = measured.lastContextAccessCycle();
        final boolean split = !hit && p >= 0 && !free;
        final long s1;
        final long s2;
        final long total;
        if (split) {
            s1 = dispatchCycles + p;
            s2 = Math.max(0, c - p - contextMissCycles) + writeBackCycles;
            total = s1 + contextMissCycles + s2;
        } else {
            s1 = dispatchCycles + c + writeBackCycles;
            s2 = 0;
            total = s1;
        }
        threadStageCycles[2 * th] = s1;
        threadStageCycles[2 * th + 1] = s2;
        ThreadTable.set(core.threadMeta, th, arrivalPs, total, slotGeneration,
            type | (overloaded ? ThreadTable.OVERLOADED : 0) | (split ? ThreadTable.MISS : 0));
        core.pushReady(th);
    }

    @Override
    long startStretch(final EmulatorCore core, final int th, final long typeFlags) {
        final boolean second = (typeFlags & ThreadTable.SECOND_STAGE) != 0;
        final long cycles = threadStageCycles[2 * th + (second ? 1 : 0)];
        core.busyCycles += cycles;
        core.runningFinal = second || (typeFlags & ThreadTable.MISS) == 0;
        return CostTable.cyclesToPs(cycles, clockHz);
    }

    @Override
    void completeStretched(final EmulatorCore core, final int th, final int slot, final long typeFlags) {
        core.scratch.result.copyFrom(threadResults[th]);
    }

    @Override
    long handleNow(final EmulatorCore core, final PccEvent event, final int slot, final int type, final boolean hit,
                   final boolean overloaded) {
        return handleMeasuredNow(core, measured, free, event, slot, hit, overloaded, dispatchCycles,
            contextHitCycles, contextMissCycles, writeBackCycles);
    }

    /**
     * Free-running handling of a measured algorithm, shared with {@link InterleavedTiming}: the
     * handler runs on thread 0 to completion; the event costs d + c + w cycles (0 when free).
     *
     * @return the cycles charged, also added to {@link EmulatorCore#busyCycles}
     */
    static long handleMeasuredNow(final EmulatorCore core, final MeasuredPccAlgorithm measured, final boolean free,
                                  final PccEvent event, final int slot, final boolean hit, final boolean overloaded,
                                  final int dispatchCycles, final int contextHitCycles, final int contextMissCycles,
                                  final int writeBackCycles) {
        measured.prepare(0, free ? 0 : hit ? contextHitCycles : contextMissCycles);
        core.runHandler(event, slot, overloaded);
        final long cycles = free ? 0 : dispatchCycles + measured.lastHandlerCycles() + writeBackCycles;
        core.busyCycles += cycles;
        return cycles;
    }
}
