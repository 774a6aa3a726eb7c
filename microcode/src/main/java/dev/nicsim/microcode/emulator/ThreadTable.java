package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A core's hardware threads: the event each one holds, what it costs, and the stack of free
 * threads (thread 0 is taken first).
 *
 * <h2>Layout: the records and one {@code long[]} of {@link #ROW} longs per thread</h2>
 * <pre>
 *  records (thread th at byte th * 64)
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes)                  |
 *  +----------------------------------------------------------------+
 *
 *  meta (thread th at index th * 4)
 *  +----------------+----------------+---------------------------+-------------------------------+
 *  | arrival ps     | total cycles   | slot (hi 32) | generation | flags (bits 8..10) | type (0..7) |
 *  +----------------+----------------+---------------------------+-------------------------------+
 *     0                1                2                           3
 * </pre>
 * Flags: {@link #OVERLOADED} (the pending table was above its high-water mark at dispatch),
 * {@link #MISS} (context miss: two stages), {@link #SECOND_STAGE} (stage 1 and the miss wait done).
 *
 * <p>Thread-safety: not thread-safe; used by the core's consumer thread only.
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

    private final UnsafeBuffer records;
    private final long[] meta;
    private final int[] free;
    private int freeCount;

    /**
     * Creates the table with every thread free.
     *
     * @param threads hardware threads of the core, positive
     */
    ThreadTable(final int threads) {
        records = new UnsafeBuffer(new byte[threads * R]);
        meta = new long[threads * ROW];
        free = new int[threads];
        for (int t = 0; t < threads; t++) {
            free[t] = threads - 1 - t; // thread 0 is taken first
        }
        freeCount = threads;
    }

    /** @return free threads */
    int freeCount() {
        return freeCount;
    }

    /** @return a free thread, taken (call only when {@link #freeCount()} > 0) */
    int take() {
        return free[--freeCount];
    }

    /** @param th a thread whose event is done */
    void release(final int th) {
        free[freeCount++] = th;
    }

    /** @return the records buffer; thread th's record starts at {@link #recordOffset}(th) */
    UnsafeBuffer records() {
        return records;
    }

    /** @param th thread @return byte offset of its record */
    static int recordOffset(final int th) {
        return th * R;
    }

    /**
     * Sets what a thread holds (its record is copied by the caller).
     *
     * @param th             thread
     * @param arrivalPs      the event's arrival time, ps
     * @param cycles         its total cycles
     * @param slotGeneration packed flow slot and generation ({@link PendingTable#slotGeneration})
     * @param typeFlags      event type or'ed with flags
     */
    void set(final int th, final long arrivalPs, final long cycles, final long slotGeneration, final long typeFlags) {
        final int row = th * ROW;
        meta[row + ARRIVAL] = arrivalPs;
        meta[row + CYCLES] = cycles;
        meta[row + SLOT_GENERATION] = slotGeneration;
        meta[row + TYPE_FLAGS] = typeFlags;
    }

    /** @param th thread @return its event's arrival time, ps */
    long arrivalPs(final int th) {
        return meta[th * ROW + ARRIVAL];
    }

    /** @param th thread @return its event's total cycles */
    long cycles(final int th) {
        return meta[th * ROW + CYCLES];
    }

    /** @param th thread @return its event's packed flow slot and generation */
    long slotGeneration(final int th) {
        return meta[th * ROW + SLOT_GENERATION];
    }

    /** @param th thread @return its event type or'ed with the flags */
    long typeFlags(final int th) {
        return meta[th * ROW + TYPE_FLAGS];
    }

    /** @param th a thread whose stage 1 and miss wait are done */
    void markSecondStage(final int th) {
        meta[th * ROW + TYPE_FLAGS] |= SECOND_STAGE;
    }
}
