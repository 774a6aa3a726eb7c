package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;

/**
 * Layout of a core's hardware-thread table (Agrona descriptor style: the core holds the record
 * buffer and the {@code long[]}; this class names the cells): the event each thread holds and
 * what it costs.
 *
 * <h2>Layout: a record buffer and one {@code long[]} of {@link #ROW} longs per thread</h2>
 * <pre>
 *  records (thread th at byte th * 64)
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes)                  |
 *  +----------------------------------------------------------------+
 *
 *  meta (thread th at index th * 4)
 *  +------------+--------------+---------------------------+------------------------------------+
 *  | arrival ps | total cycles | slot (hi 32) | generation | flags (bits 8..10) | type (bits 0..7) |
 *  +------------+--------------+---------------------------+------------------------------------+
 *     0            1              2                           3
 * </pre>
 * Flags: {@link #OVERLOADED} (the pending table was above its high-water mark at dispatch),
 * {@link #MISS} (context miss: two stages), {@link #SECOND_STAGE} (stage 1 and the miss wait done).
 *
 * <p>Thread-safety: stateless; a table belongs to its core's consumer thread.
 */
final class ThreadTable {
    /** Longs per thread in the meta array. */
    static final int ROW = 4;
    /** Flag: dispatched while the pending table was above its high-water mark. */
    static final long OVERLOADED = 1L << 8;
    /** Flag: the flow's context missed the cache. */
    static final long MISS = 1L << 9;
    /** Flag: the thread runs its second stage next. */
    static final long SECOND_STAGE = 1L << 10;
    /** Mask of the event type in the type-and-flags word. */
    static final long TYPE_MASK = 0xFF;
    private static final int R = PccEventLayout.RECORD_LENGTH;
    private static final int ARRIVAL = 0;
    private static final int CYCLES = 1;
    private static final int SLOT_GENERATION = 2;
    private static final int TYPE_FLAGS = 3;

    static {
        if (PccEventType.COUNT > TYPE_MASK + 1) {
            throw new ExceptionInInitializerError("PCC event types do not fit the per-thread row");
        }
    }

    private ThreadTable() {
    }

    /** @param th thread @return byte offset of its record in the record buffer */
    static int recordOffset(final int th) {
        return th * R;
    }

    /**
     * Sets what a thread holds (its record is copied by the caller).
     *
     * @param meta           table
     * @param th             thread
     * @param arrivalPs      the event's arrival time, ps
     * @param cycles         its total cycles
     * @param slotGeneration packed flow slot and generation ({@link PendingTable#slotGeneration(int, int)})
     * @param typeFlags      event type or'ed with flags
     */
    static void set(final long[] meta, final int th, final long arrivalPs, final long cycles,
                    final long slotGeneration, final long typeFlags) {
        final int row = th * ROW;
        meta[row + ARRIVAL] = arrivalPs;
        meta[row + CYCLES] = cycles;
        meta[row + SLOT_GENERATION] = slotGeneration;
        meta[row + TYPE_FLAGS] = typeFlags;
    }

    /** @param meta table @param th thread @return its event's arrival time, ps */
    static long arrivalPs(final long[] meta, final int th) {
        return meta[th * ROW + ARRIVAL];
    }

    /** @param meta table @param th thread @return its event's total cycles */
    static long cycles(final long[] meta, final int th) {
        return meta[th * ROW + CYCLES];
    }

    /** @param meta table @param th thread @return its event's packed flow slot and generation */
    static long slotGeneration(final long[] meta, final int th) {
        return meta[th * ROW + SLOT_GENERATION];
    }

    /** @param meta table @param th thread @return its event type or'ed with the flags */
    static long typeFlags(final long[] meta, final int th) {
        return meta[th * ROW + TYPE_FLAGS];
    }

    /** @param typeFlags a type-and-flags word @return the event type */
    static int typeOf(final long typeFlags) {
        return (int) (typeFlags & TYPE_MASK);
    }

    /** @param meta table @param th a thread whose stage 1 and miss wait are done */
    static void markSecondStage(final long[] meta, final int th) {
        meta[th * ROW + TYPE_FLAGS] |= SECOND_STAGE;
    }
}
