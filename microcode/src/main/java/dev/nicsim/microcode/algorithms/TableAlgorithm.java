package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;

/**
 * The plumbing every built-in algorithm shares, written once: the counters allocated from the
 * algorithm's {@link AlgorithmTable} (counter id {@code i} is {@code table.counters().get(i)}, so a
 * subclass increments its {@code C_...} constants), the parameter values read by their table name
 * ({@link #raw}, {@link #rawInt}, {@link #flag}: a subclass copies each into a final field in the
 * field's initialiser, which runs after this constructor), the context size, and the handler cycle
 * estimate per event type. Subclasses implement only {@code initFlow} and {@code onEvent}.
 *
 * <p>Allocates only in the constructor. Thread-safety: not thread-safe; one driving thread.
 */
abstract class TableAlgorithm implements PccAlgorithm {
    /** Cycles reported for an event type the cycle table does not list. */
    static final int UNLISTED_EVENT_CYCLES = 4;

    /** The algorithm's counters, ids as in the table. */
    final PccCounters counters = new PccCounters();
    private final PccParameterValues values;
    private final int contextWords;
    private final int[] cycles;

    /**
     * @param table        the algorithm's declaration; its counters are allocated in order
     * @param values       the algorithm's parameter values, validated by its provider
     * @param contextWords context words used per flow
     * @param cycles       handler cycles indexed by event type code ({@link PccEventType}),
     *                     not copied: pass a constant array
     */
    TableAlgorithm(final AlgorithmTable table, final PccParameterValues values, final int contextWords,
                   final int[] cycles) {
        for (final String name : table.counters()) {
            counters.allocate(name);
        }
        this.values = values;
        this.contextWords = contextWords;
        this.cycles = cycles;
    }

    /**
     * A parameter's raw value, for field initialisers.
     *
     * @param name parameter name in the table
     * @return raw value (16.16 for a fraction)
     * @throws IllegalArgumentException if the table has no such parameter
     */
    final long raw(final String name) {
        return values.raw(name);
    }

    /**
     * A parameter's raw value as an int (16.16 fractions, and integers the table's range keeps
     * below 2^31).
     *
     * @param name parameter name in the table
     * @return raw value, narrowed to int
     * @throws IllegalArgumentException if the table has no such parameter
     */
    final int rawInt(final String name) {
        return (int) values.raw(name);
    }

    /**
     * A 0/1 flag parameter.
     *
     * @param name parameter name in the table
     * @return whether its value is non-zero
     * @throws IllegalArgumentException if the table has no such parameter
     */
    final boolean flag(final String name) {
        return values.raw(name) != 0;
    }

    /** @return the context words given at construction */
    @Override
    public final int contextWords() {
        return contextWords;
    }

    /**
     * Estimated handler length of an event type, from the algorithm's cycle table (its cost
     * model is documented on the table).
     *
     * @param eventType event type code
     * @return cycles; {@value #UNLISTED_EVENT_CYCLES} for codes the table does not list
     */
    @Override
    public final int handlerCycles(final int eventType) {
        return eventType >= 0 && eventType < cycles.length ? cycles[eventType] : UNLISTED_EVENT_CYCLES;
    }

    @Override
    public final PccCounters counters() {
        return counters;
    }
}
