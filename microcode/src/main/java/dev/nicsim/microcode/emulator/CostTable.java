package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEventType;

/**
 * What an event costs a core, per PCC event type: the stage timings of the uNIC model
 * ({@link UnicEmulator}), computed once from the configuration and the algorithm's handler
 * estimates. With d = dispatch, h = context hit, m = context miss, w = write-back and c = the
 * type's handler cycles:
 * <ul>
 * <li>a context hit holds the issue slot for one stretch of d + h + c + w cycles;</li>
 * <li>a miss holds it for d cycles (stage 1), waits m cycles off the slot, then holds it for
 *     c + w cycles (stage 2); its total is d + m + c + w.</li>
 * </ul>
 *
 * <h2>Layout: one {@code long[]}, one row of {@link #ROW} longs per event type</h2>
 * <pre>
 *   row = type * 8
 *  +-----------+-----------+----------------+-------------+------------------+-------------------+-----+-----+
 *  | hit ps    | stage-2 ps| hit busy cycles| s2 cycles   | hit total cycles | miss total cycles | pad | pad |
 *  +-----------+-----------+----------------+-------------+------------------+-------------------+-----+-----+
 *     0           1           2                3             4                  5
 * </pre>
 * A row is one 64-byte cache line. Durations in ps are rounded up ({@link EmulatorCore#cyclesToPs}).
 *
 * <p>Thread-safety: immutable after construction; safe to read from any thread.
 */
final class CostTable {
    /** Longs per row (a cache line). */
    static final int ROW = 8;
    private static final int HIT_PS = 0;
    private static final int S2_PS = 1;
    private static final int HIT_BUSY_CYCLES = 2;
    private static final int S2_CYCLES = 3;
    private static final int HIT_TOTAL_CYCLES = 4;
    private static final int MISS_TOTAL_CYCLES = 5;

    private final long[] costs = new long[PccEventType.COUNT * ROW];
    /** Duration of a miss's stage 1 (dispatch), ps. */
    final long s1Ps;
    /** Duration of a context miss's wait off the issue slot, ps. */
    final long missPs;
    /** Cycles of a miss's stage 1 (dispatch). */
    final long s1Cycles;

    /**
     * Computes the table.
     *
     * @param config    validated configuration (clock, stage cycles, handler overrides)
     * @param algorithm the algorithm (handler estimates for types without an override)
     * @throws IllegalArgumentException if the algorithm's handler estimate for a type without an
     *                                  override is outside 0..{@link EmulatorConfig#MAX_STAGE_CYCLES}
     */
    CostTable(final EmulatorConfig config, final PccAlgorithm algorithm) {
        final long clockHz = config.clockHz();
        final int d = config.dispatchCycles();
        final int h = config.contextHitCycles();
        final int m = config.contextMissCycles();
        final int w = config.writeBackCycles();
        s1Cycles = d;
        s1Ps = EmulatorCore.cyclesToPs(d, clockHz);
        missPs = EmulatorCore.cyclesToPs(m, clockHz);
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final int override = config.handlerCyclesOverride(t);
            final int c = override != EmulatorConfig.DEFAULT ? override : algorithm.handlerCycles(t);
            if (c < 0 || c > EmulatorConfig.MAX_STAGE_CYCLES) {
                throw new IllegalArgumentException("handlerCycles[" + PccEventType.shortName(t) + "] of the algorithm must be in 0.."
                    + EmulatorConfig.MAX_STAGE_CYCLES + ", got " + c);
            }
            final int row = t * ROW;
            costs[row + HIT_BUSY_CYCLES] = (long) d + h + c + w;
            costs[row + HIT_PS] = EmulatorCore.cyclesToPs(costs[row + HIT_BUSY_CYCLES], clockHz);
            costs[row + S2_CYCLES] = (long) c + w;
            costs[row + S2_PS] = EmulatorCore.cyclesToPs(costs[row + S2_CYCLES], clockHz);
            costs[row + HIT_TOTAL_CYCLES] = costs[row + HIT_BUSY_CYCLES];
            costs[row + MISS_TOTAL_CYCLES] = (long) d + m + c + w;
        }
    }

    /** @param type event type @return a context hit's one stretch, ps */
    long hitPs(final int type) {
        return costs[type * ROW + HIT_PS];
    }

    /** @param type event type @return a miss's stage 2, ps */
    long s2Ps(final int type) {
        return costs[type * ROW + S2_PS];
    }

    /** @param type event type @return cycles a context hit holds the issue slot */
    long hitBusyCycles(final int type) {
        return costs[type * ROW + HIT_BUSY_CYCLES];
    }

    /** @param type event type @return cycles of a miss's stage 2 */
    long s2Cycles(final int type) {
        return costs[type * ROW + S2_CYCLES];
    }

    /**
     * @param type event type
     * @param hit  whether the context was in the cache
     * @return the event's total cycles, dispatch to write-back (reported with its result)
     */
    long totalCycles(final int type, final boolean hit) {
        return costs[type * ROW + (hit ? HIT_TOTAL_CYCLES : MISS_TOTAL_CYCLES)];
    }
}
