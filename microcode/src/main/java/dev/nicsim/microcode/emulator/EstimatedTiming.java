package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEvent;

/**
 * Timing of a Java algorithm: each event's stages come from the core's {@link CostTable}. A
 * context hit holds the issue slot for one stretch of d + h + w cycles (dispatch, the
 * algorithm's declared handler estimate or its configured override, write-back); a miss holds it
 * for the dispatch d, waits the miss latency m off the issue slot, then holds it for h + w. The
 * handler runs when the event's last stretch ends, so its result is that of the flow's context
 * then.
 *
 * <p>Thread-safety: one per core, used by the core's consumer thread only.
 */
final class EstimatedTiming extends CoreTiming {
    private final long[] costs;
    private final long s1Ps;
    private final long s1Cycles;

    /** @param costs the core's stage timings ({@link CostTable}), read only */
    EstimatedTiming(final long[] costs) {
        this.costs = costs;
        this.s1Ps = CostTable.s1Ps(costs);
        this.s1Cycles = CostTable.s1Cycles(costs);
    }

    @Override
    void dispatch(final EmulatorCore core, final int th, final int slot, final long slotGeneration, final int type,
                  final boolean hit, final boolean overloaded, final long arrivalPs) {
        ThreadTable.set(core.threadMeta, th, arrivalPs, CostTable.totalCycles(costs, type, hit), slotGeneration,
            type | (overloaded ? ThreadTable.OVERLOADED : 0) | (hit ? 0 : ThreadTable.MISS));
        core.pushReady(th);
    }

    @Override
    long startStretch(final EmulatorCore core, final int th, final long typeFlags) {
        final int type = ThreadTable.typeOf(typeFlags);
        if ((typeFlags & ThreadTable.SECOND_STAGE) != 0) {
            core.busyCycles += CostTable.s2Cycles(costs, type);
            core.runningFinal = true;
            return CostTable.s2Ps(costs, type);
        }
        if ((typeFlags & ThreadTable.MISS) != 0) {
            core.busyCycles += s1Cycles;
            core.runningFinal = false;
            return s1Ps;
        }
        core.busyCycles += CostTable.hitBusyCycles(costs, type);
        core.runningFinal = true;
        return CostTable.hitPs(costs, type);
    }

    @Override
    void completeStretched(final EmulatorCore core, final int th, final int slot, final long typeFlags) {
        final PccEvent view = core.scratch.threadView.wrap(core.threadRecords, ThreadTable.recordOffset(th));
        core.runHandler(view, slot, (typeFlags & ThreadTable.OVERLOADED) != 0);
    }

    @Override
    long handleNow(final EmulatorCore core, final PccEvent event, final int slot, final int type, final boolean hit,
                   final boolean overloaded) {
        core.busyCycles += hit ? CostTable.hitBusyCycles(costs, type) : s1Cycles + CostTable.s2Cycles(costs, type);
        core.runHandler(event, slot, overloaded);
        return CostTable.totalCycles(costs, type, hit);
    }
}
