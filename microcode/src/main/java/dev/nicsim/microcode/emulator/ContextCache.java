package dev.nicsim.microcode.emulator;

/**
 * A core's context cache: which flows' context words are in the core's local memory, least
 * recently used evicted first (the uNIC model's context hit/miss, {@link UnicEmulator}). An LRU
 * list threaded through the {@link FlowTable}'s rows (cached flag, prev/next slot), most recent at
 * the head; {@code entries} = 0 means no cache (every access misses).
 *
 * <p>Thread-safety: not thread-safe; used by the core's consumer thread only.
 */
final class ContextCache {
    private static final int NONE = FlowTable.NONE;

    private final FlowTable flows;
    private final int entries;
    private int lruHead = NONE;
    private int lruTail = NONE;
    private int lruSize;
    /** Context fetches that hit the cache. */
    long hits;
    /** Context fetches that missed the cache. */
    long misses;

    /**
     * @param flows   the core's flow table (holds the list links)
     * @param entries contexts the cache holds, non-negative
     */
    ContextCache(final FlowTable flows, final int entries) {
        this.flows = flows;
        this.entries = entries;
    }

    /**
     * A context fetch: a hit moves the slot to the front; a miss inserts it (evicting the least
     * recently used if full). Counts {@link #hits} or {@link #misses}.
     *
     * @param slot flow slot
     * @return whether it hit
     */
    boolean access(final int slot) {
        if (entries == 0) {
            misses++;
            return false;
        }
        if (flows.cached(slot)) {
            if (lruHead != slot) {
                unlink(slot);
                linkFront(slot);
            }
            hits++;
            return true;
        }
        insert(slot);
        misses++;
        return false;
    }

    /** @param slot flow slot to bring in at the front (no-op if cached or no cache) */
    void insert(final int slot) {
        if (entries == 0 || flows.cached(slot)) {
            return;
        }
        if (lruSize == entries) {
            remove(lruTail);
        }
        flows.cached(slot, true);
        lruSize++;
        linkFront(slot);
    }

    /** @param slot flow slot to drop (no-op if not cached) */
    void remove(final int slot) {
        if (!flows.cached(slot)) {
            return;
        }
        unlink(slot);
        flows.cached(slot, false);
        lruSize--;
    }

    private void linkFront(final int slot) {
        flows.lruPrev(slot, NONE);
        flows.lruNext(slot, lruHead);
        if (lruHead != NONE) {
            flows.lruPrev(lruHead, slot);
        }
        lruHead = slot;
        if (lruTail == NONE) {
            lruTail = slot;
        }
    }

    private void unlink(final int slot) {
        final int p = flows.lruPrev(slot);
        final int n = flows.lruNext(slot);
        if (p != NONE) {
            flows.lruNext(p, n);
        } else {
            lruHead = n;
        }
        if (n != NONE) {
            flows.lruPrev(n, p);
        } else {
            lruTail = p;
        }
        flows.lruPrev(slot, NONE);
        flows.lruNext(slot, NONE);
    }
}
