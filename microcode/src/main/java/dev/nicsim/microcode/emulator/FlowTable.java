package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.pcc.PccEventType;

import java.util.Arrays;

/**
 * Layout of a core's flow table (Agrona descriptor style: the core holds the {@code int[]}; this
 * class names its cells): per flow slot (of its {@link FlowContextStore}) the
 * slot's generation, whether an event of the flow is on a hardware thread, its place in the
 * context cache's LRU list, and per event type where the flow's waiting event is in the
 * {@link PendingTable} (for coalescing). Grows by doubling as slots are allocated.
 *
 * <h2>Layout: one {@code int[]}, one row of {@link #ROW} ints (a 64-byte line) per slot</h2>
 * <pre>
 *   0            1      2        3          4          5..7   8 .. 8+COUNT-1
 *  +------------+------+--------+----------+----------+------+--------------------------------+
 *  | generation | busy | cached | LRU prev | LRU next | pad  | waiting[type]: pending pos + 1 |
 *  +------------+------+--------+----------+----------+------+--------------------------------+
 * </pre>
 * busy and cached are 0/1; LRU neighbours are slots or {@link #NONE}; a waiting cell of 0 means none.
 *
 * <p>Thread-safety: stateless; a table belongs to its core's consumer thread.
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

    private FlowTable() {
    }

    /** @param flows table @return slots it has rows for */
    static int slots(final int[] flows) {
        return flows.length / ROW;
    }

    /**
     * @param flows table
     * @param n     slots to have rows for, at least as many as now
     * @return a copy with rows for {@code n} slots; the new rows are unlinked and free
     */
    static int[] grow(final int[] flows, final int n) {
        final int old = flows.length / ROW;
        final int[] rows = Arrays.copyOf(flows, n * ROW);
        for (int i = old; i < n; i++) {
            rows[i * ROW + LRU_PREV] = NONE;
            rows[i * ROW + LRU_NEXT] = NONE;
        }
        return rows;
    }

    /** @param flows table @param slot slot @return its generation (bumped when its flow ends) */
    static int generation(final int[] flows, final int slot) {
        return flows[slot * ROW + GENERATION];
    }

    /** @param flows table @param slot a slot whose flow ended */
    static void bumpGeneration(final int[] flows, final int slot) {
        flows[slot * ROW + GENERATION]++;
    }

    /** @param flows table @param slot slot @return whether an event of its flow is on a hardware thread */
    static boolean busy(final int[] flows, final int slot) {
        return flows[slot * ROW + BUSY] != 0;
    }

    /** @param flows table @param slot slot @param busy whether an event of its flow is on a hardware thread */
    static void busy(final int[] flows, final int slot, final boolean busy) {
        flows[slot * ROW + BUSY] = busy ? 1 : 0;
    }

    /** @param flows table @param slot slot @return whether its context is in the cache */
    static boolean cached(final int[] flows, final int slot) {
        return flows[slot * ROW + CACHED] != 0;
    }

    /** @param flows table @param slot slot @param cached whether its context is in the cache */
    static void cached(final int[] flows, final int slot, final boolean cached) {
        flows[slot * ROW + CACHED] = cached ? 1 : 0;
    }

    /** @param flows table @param slot slot @return its LRU predecessor (more recent), or {@link #NONE} */
    static int lruPrev(final int[] flows, final int slot) {
        return flows[slot * ROW + LRU_PREV];
    }

    /** @param flows table @param slot slot @return its LRU successor (less recent), or {@link #NONE} */
    static int lruNext(final int[] flows, final int slot) {
        return flows[slot * ROW + LRU_NEXT];
    }

    /** @param flows table @param slot slot @param prev its LRU predecessor, or {@link #NONE} */
    static void lruPrev(final int[] flows, final int slot, final int prev) {
        flows[slot * ROW + LRU_PREV] = prev;
    }

    /** @param flows table @param slot slot @param next its LRU successor, or {@link #NONE} */
    static void lruNext(final int[] flows, final int slot, final int next) {
        flows[slot * ROW + LRU_NEXT] = next;
    }

    /**
     * @param flows table
     * @param slot  slot
     * @param type  event type
     * @return pending position + 1 of the flow's waiting event of that type, 0 = none
     */
    static int waiting(final int[] flows, final int slot, final int type) {
        return flows[slot * ROW + WAITING + type];
    }

    /**
     * @param flows      table
     * @param slot       slot
     * @param type       event type
     * @param posPlusOne pending position + 1 of the flow's waiting event of that type, 0 = none
     */
    static void waiting(final int[] flows, final int slot, final int type, final int posPlusOne) {
        flows[slot * ROW + WAITING + type] = posPlusOne;
    }

    /** @param flows table @param slot slot whose waiting events of every type to forget */
    static void clearWaiting(final int[] flows, final int slot) {
        final int row = slot * ROW + WAITING;
        for (int t = 0; t < TYPES; t++) {
            flows[row + t] = 0;
        }
    }
}
