package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventType;

import java.util.Arrays;

/**
 * A core's per-flow-slot state (slots of its {@link dev.nicsim.microcode.FlowContextStore}): the
 * slot's generation, whether an event of the flow is on a hardware thread, its place in the
 * context cache's LRU list ({@link ContextCache}), and per event type where the flow's waiting
 * event is in the {@link PendingTable} (for coalescing). Grows by doubling as slots are allocated.
 *
 * <h2>Layout: one {@code int[]}, one row of {@link #ROW} ints (a 64-byte line) per slot</h2>
 * <pre>
 *   0            1      2        3          4          5..7   8 .. 8+COUNT-1
 *  +------------+------+--------+----------+----------+------+----------------------------------+
 *  | generation | busy | cached | LRU prev | LRU next | pad  | waiting[type]: pending pos + 1   |
 *  +------------+------+--------+----------+----------+------+----------------------------------+
 * </pre>
 * busy and cached are 0/1; LRU neighbours are slots or -1; a waiting entry of 0 means none.
 *
 * <p>Thread-safety: not thread-safe; used by the core's consumer thread only.
 */
final class FlowTable {
    /** Ints per slot. */
    static final int ROW = 16;
    /** No slot (LRU ends). */
    static final int NONE = -1;
    private static final int GENERATION = 0;
    private static final int BUSY = 1;
    private static final int CACHED = 2;
    private static final int LRU_PREV = 3;
    private static final int LRU_NEXT = 4;
    private static final int WAITING = 8;
    private static final int TYPES = PccEventType.COUNT;

    static {
        if (WAITING + TYPES > ROW) {
            throw new ExceptionInInitializerError("PCC event types do not fit the per-flow row");
        }
    }

    private int[] rows = new int[0];

    /** @param slots initial slots */
    FlowTable(final int slots) {
        grow(slots);
    }

    /** @return slots the table has rows for */
    int slots() {
        return rows.length / ROW;
    }

    /** @param n slots to have rows for, more than now; new rows are unlinked and free */
    void grow(final int n) {
        final int old = rows.length / ROW;
        rows = Arrays.copyOf(rows, n * ROW);
        for (int i = old; i < n; i++) {
            rows[i * ROW + LRU_PREV] = NONE;
            rows[i * ROW + LRU_NEXT] = NONE;
        }
    }

    /** @param slot slot @return its generation (bumped when its flow ends) */
    int generation(final int slot) {
        return rows[slot * ROW + GENERATION];
    }

    /** @param slot a slot whose flow ended */
    void bumpGeneration(final int slot) {
        rows[slot * ROW + GENERATION]++;
    }

    /** @param slot slot @return whether an event of its flow is on a hardware thread */
    boolean busy(final int slot) {
        return rows[slot * ROW + BUSY] != 0;
    }

    /** @param slot slot @param busy whether an event of its flow is on a hardware thread */
    void busy(final int slot, final boolean busy) {
        rows[slot * ROW + BUSY] = busy ? 1 : 0;
    }

    /** @param slot slot @return whether its context is in the cache */
    boolean cached(final int slot) {
        return rows[slot * ROW + CACHED] != 0;
    }

    /** @param slot slot @param cached whether its context is in the cache */
    void cached(final int slot, final boolean cached) {
        rows[slot * ROW + CACHED] = cached ? 1 : 0;
    }

    /** @param slot slot @return its LRU predecessor (more recent), or {@link #NONE} */
    int lruPrev(final int slot) {
        return rows[slot * ROW + LRU_PREV];
    }

    /** @param slot slot @return its LRU successor (less recent), or {@link #NONE} */
    int lruNext(final int slot) {
        return rows[slot * ROW + LRU_NEXT];
    }

    /** @param slot slot @param prev its LRU predecessor, or {@link #NONE} */
    void lruPrev(final int slot, final int prev) {
        rows[slot * ROW + LRU_PREV] = prev;
    }

    /** @param slot slot @param next its LRU successor, or {@link #NONE} */
    void lruNext(final int slot, final int next) {
        rows[slot * ROW + LRU_NEXT] = next;
    }

    /** @param slot slot @param type event type @return pending position + 1 of its waiting event, 0 = none */
    int waiting(final int slot, final int type) {
        return rows[slot * ROW + WAITING + type];
    }

    /** @param slot slot @param type event type @param posPlusOne pending position + 1, 0 = none */
    void waiting(final int slot, final int type, final int posPlusOne) {
        rows[slot * ROW + WAITING + type] = posPlusOne;
    }

    /** @param slot slot whose waiting events of every type to forget */
    void clearWaiting(final int slot) {
        final int row = slot * ROW + WAITING;
        for (int t = 0; t < TYPES; t++) {
            rows[row + t] = 0;
        }
    }
}
