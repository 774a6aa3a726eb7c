package dev.nicsim.microcode.emulator;

/**
 * A core's flow-context cache: a least-recently-used list of at most {@code entries} flow slots,
 * threaded through the rows of the core's {@link FlowTable} (its cached flag and LRU neighbour
 * cells), so it allocates nothing as flows come and go. A lookup of a cached slot moves it to the
 * front and counts a hit; of another slot inserts it at the front (evicting the tail when full)
 * and counts a miss. With 0 entries every lookup misses and nothing is cached.
 *
 * <p>The flow table is passed to each call because the core replaces it when it grows.
 *
 * <p>Thread-safety: belongs to its core's consumer thread.
 */
final class ContextLru {
    private static final int NONE = FlowTable.NONE;

    private final int entries;
    private int head = NONE;
    private int tail = NONE;
    private int size;
    /** Lookups that found the slot cached. */
    long hits;
    /** Lookups that did not. */
    long misses;

    /** @param entries most slots cached, at least 0 */
    ContextLru(final int entries) {
        this.entries = entries;
    }

    /**
     * Looks a slot up: a hit moves it to the front, a miss inserts it.
     *
     * @param flows the core's flow table
     * @param slot  flow slot
     * @return whether it was cached
     */
    boolean access(final int[] flows, final int slot) {
        if (entries == 0) {
            misses++;
            return false;
        }
        if (FlowTable.cached(flows, slot)) {
            if (head != slot) {
                unlink(flows, slot);
                linkFront(flows, slot);
            }
            hits++;
            return true;
        }
        insert(flows, slot);
        misses++;
        return false;
    }

    /**
     * Brings a slot in at the front (uncounted), evicting the least recent one when full; a
     * cached slot stays where it is.
     *
     * @param flows the core's flow table
     * @param slot  flow slot
     */
    void insert(final int[] flows, final int slot) {
        if (entries == 0 || FlowTable.cached(flows, slot)) {
            return;
        }
        if (size == entries) {
            remove(flows, tail);
        }
        FlowTable.cached(flows, slot, true);
        size++;
        linkFront(flows, slot);
    }

    /**
     * Drops a slot if it is cached.
     *
     * @param flows the core's flow table
     * @param slot  flow slot
     */
    void remove(final int[] flows, final int slot) {
        if (!FlowTable.cached(flows, slot)) {
            return;
        }
        unlink(flows, slot);
        FlowTable.cached(flows, slot, false);
        size--;
    }

    private void linkFront(final int[] flows, final int slot) {
        FlowTable.lruPrev(flows, slot, NONE);
        FlowTable.lruNext(flows, slot, head);
        if (head != NONE) {
            FlowTable.lruPrev(flows, head, slot);
        }
        head = slot;
        if (tail == NONE) {
            tail = slot;
        }
    }

    private void unlink(final int[] flows, final int slot) {
        final int p = FlowTable.lruPrev(flows, slot);
        final int n = FlowTable.lruNext(flows, slot);
        if (p != NONE) {
            FlowTable.lruNext(flows, p, n);
        } else {
            head = n;
        }
        if (n != NONE) {
            FlowTable.lruPrev(flows, n, p);
        } else {
            tail = p;
        }
        FlowTable.lruPrev(flows, slot, NONE);
        FlowTable.lruNext(flows, slot, NONE);
    }
}
