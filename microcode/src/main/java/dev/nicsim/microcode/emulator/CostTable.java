package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEventType;

/**
 * Layout of a core's cost table (Agrona descriptor style: the core holds the {@code long[]}, this
 * class names its cells): what an event costs a core, per PCC event type, in the stage timings of
 * the uNIC model ({@link UnicEmulator}), computed once from the configuration and the algorithm's
 * handler estimates. With d = dispatch, h = context hit, m = context miss, w = write-back and
 * c = the type's handler cycles:
 * <ul>
 * <li>a context hit holds the issue slot for one stretch of d + h + c + w cycles;</li>
 * <li>a miss holds it for d cycles (stage 1), waits m cycles off the slot, then holds it for
 *     c + w cycles (stage 2); its total is d + m + c + w.</li>
 * </ul>
 *
 * <h2>Layout: one {@code long[]}, one row of {@link #ROW} longs (a cache line) per event type, then one row for all types</h2>
 * <pre>
 *  row type (at type * 8), for each type 0..COUNT-1
 *  +--------+-----------+-----------------+-----------+------------------+-------------------+-----+-----+
 *  | hit ps | stage-2 ps| hit busy cycles | s2 cycles | hit total cycles | miss total cycles | pad | pad |
 *  +--------+-----------+-----------------+-----------+------------------+-------------------+-----+-----+
 *     0        1           2                 3           4                  5
 *
 *  last row (at COUNT * 8)
 *  +------------------+----------------+--------------------+-----+
 *  | stage-1 ps (d)   | miss wait ps (m)| stage-1 cycles (d) | pad |
 *  +------------------+----------------+--------------------+-----+
 *     0                  1                2
 * </pre>
 * Durations in ps are rounded up ({@link #cyclesToPs}).
 *
 * <p>Thread-safety: a table is immutable once created; safe to read from any thread.
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
    private static final int COMMON = PccEventType.COUNT * ROW;
    private static final int S1_PS = COMMON;
    private static final int MISS_PS = COMMON + 1;
    private static final int S1_CYCLES = COMMON + 2;

    private CostTable() {
    }

    /**
     * Duration of a stretch of cycles in simulated time, rounded up to whole ps.
     *
     * @param cycles  cycles, 0..4 x 10^6
     * @param clockHz clock, Hz
     * @return {@code ceil(cycles x 10^12 / clockHz)} ps
     */
    static long cyclesToPs(final long cycles, final long clockHz) {
        return (cycles * 1_000_000_000_000L + clockHz - 1) / clockHz;
    }

    /**
     * Computes a table.
     *
     * @param config    validated configuration (clock, stage cycles, handler overrides)
     * @param algorithm the algorithm (handler estimates for types without an override)
     * @return the table, {@code (COUNT + 1) x ROW} longs
     * @throws IllegalArgumentException if the algorithm's handler estimate for a type without an
     *                                  override is outside 0..{@link EmulatorConfig#MAX_STAGE_CYCLES}
     */
    static long[] create(final EmulatorConfig config, final PccAlgorithm algorithm) {
        final long[] costs = new long[COMMON + ROW];
        final long clockHz = config.clockHz();
        final int d = config.dispatchCycles();
        final int h = config.contextHitCycles();
        final int m = config.contextMissCycles();
        final int w = config.writeBackCycles();
        costs[S1_CYCLES] = d;
        costs[S1_PS] = cyclesToPs(d, clockHz);
        costs[MISS_PS] = cyclesToPs(m, clockHz);
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final int override = config.handlerCyclesOverride(t);
            final int c = override != EmulatorConfig.DEFAULT ? override : algorithm.handlerCycles(t);
            if (c < 0 || c > EmulatorConfig.MAX_STAGE_CYCLES) {
                throw new IllegalArgumentException("handlerCycles[" + PccEventType.shortName(t) + "] of the algorithm must be in 0.."
                    + EmulatorConfig.MAX_STAGE_CYCLES + ", got " + c);
            }
            final int row = t * ROW;
            costs[row + HIT_BUSY_CYCLES] = (long) d + h + c + w;
            costs[row + HIT_PS] = cyclesToPs(costs[row + HIT_BUSY_CYCLES], clockHz);
            costs[row + S2_CYCLES] = (long) c + w;
            costs[row + S2_PS] = cyclesToPs(costs[row + S2_CYCLES], clockHz);
            costs[row + HIT_TOTAL_CYCLES] = costs[row + HIT_BUSY_CYCLES];
            costs[row + MISS_TOTAL_CYCLES] = (long) d + m + c + w;
        }
        return costs;
    }

    /** @param costs table @param type event type @return a context hit's one stretch, ps */
    static long hitPs(final long[] costs, final int type) {
        return costs[type * ROW + HIT_PS];
    }

    /** @param costs table @param type event type @return a miss's stage 2, ps */
    static long s2Ps(final long[] costs, final int type) {
        return costs[type * ROW + S2_PS];
    }

    /** @param costs table @param type event type @return cycles a context hit holds the issue slot */
    static long hitBusyCycles(final long[] costs, final int type) {
        return costs[type * ROW + HIT_BUSY_CYCLES];
    }

    /** @param costs table @param type event type @return cycles of a miss's stage 2 */
    static long s2Cycles(final long[] costs, final int type) {
        return costs[type * ROW + S2_CYCLES];
    }

    /**
     * @param costs table
     * @param type  event type
     * @param hit   whether the context was in the cache
     * @return the event's total cycles, dispatch to write-back (reported with its result)
     */
    static long totalCycles(final long[] costs, final int type, final boolean hit) {
        return costs[type * ROW + (hit ? HIT_TOTAL_CYCLES : MISS_TOTAL_CYCLES)];
    }

    /** @param costs table @return a miss's stage 1 (dispatch), ps */
    static long s1Ps(final long[] costs) {
        return costs[S1_PS];
    }

    /** @param costs table @return a context miss's wait off the issue slot, ps */
    static long missPs(final long[] costs) {
        return costs[MISS_PS];
    }

    /** @param costs table @return cycles of a miss's stage 1 (dispatch) */
    static long s1Cycles(final long[] costs) {
        return costs[S1_CYCLES];
    }
}
