package dev.nicsim.nic;

import java.util.Arrays;

/**
 * The QP table of one NIC: its QPs by local QPN (either role), the pool of unused {@link Qp}
 * objects reused for later flows, and the requester QPs sorted by QPN (for
 * {@link RoceNic#forEachActiveQp} in a deterministic order).
 *
 * <p>QPNs are 24-bit (IBTA spec vol. 1 §9.2, BTH DestQP); uniqueness per NIC is checked by the
 * caller ({@link RoceNic#startFlow}). Lookups are by QPN on every received frame; the pool and the
 * sorted list grow by doubling, so nothing is allocated in steady state.
 *
 * <p>The QPs by QPN are an open-addressing hash table of the {@link Qp} objects themselves (linear
 * probing, a probe compares {@link Qp#qpn}, load at most 1/2, backward-shift deletion: Knuth vol. 3
 * §6.4 Algorithm R). A lookup reads one slot of the table and the QP it needs anyway, where a map with
 * separate key and value arrays reads a line of each: one cache miss fewer per received frame on a
 * cold NIC.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class QpTable {
    // QPs by local QPN (open addressing, see the class comment), the pool of unused QP objects,
    // requester QPs sorted by QPN
    // (small at first: a NIC of a large fabric usually holds a QP or two; each array doubles when full,
    // and no order depends on their sizes: look-ups are by QPN, the requester list is sorted)
    private Qp[] table = new Qp[8];
    private int size;
    private Qp[] freeQps = new Qp[4];
    private int freeQpCount;
    private int[] requesterQpns = new int[4];
    private Qp[] requesterQps = new Qp[4];
    private int requesterCount;

    /** Creates an empty table. */
    QpTable() {
    }

    /**
     * @param qpn local QPN, 24 bits
     * @return the QP, or null if none has that QPN
     */
    Qp get(final int qpn) {
        final Qp[] t = table;
        final int mask = t.length - 1;
        for (int i = home(qpn, mask); ; i = (i + 1) & mask) {
            final Qp q = t[i];
            if (q == null || q.qpn == qpn) {
                return q;
            }
        }
    }

    /** Home slot of a QPN in a table of {@code mask + 1} slots (Fibonacci hashing, high bits folded down). */
    private static int home(final int qpn, final int mask) {
        final int h = qpn * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** @return the slot holding the QPN, or -1 */
    private int slotOf(final int qpn) {
        final Qp[] t = table;
        final int mask = t.length - 1;
        for (int i = home(qpn, mask); ; i = (i + 1) & mask) {
            final Qp q = t[i];
            if (q == null) {
                return -1;
            }
            if (q.qpn == qpn) {
                return i;
            }
        }
    }

    /** Puts a QP at the first free slot of its probe sequence; its QPN is not in the table. */
    private static void insert(final Qp[] t, final Qp q) {
        final int mask = t.length - 1;
        int i = home(q.qpn, mask);
        while (t[i] != null) {
            i = (i + 1) & mask;
        }
        t[i] = q;
    }

    /** Removes the QP in slot {@code i}, shifting later entries of its cluster back (Knuth's Algorithm R). */
    private void removeSlot(final int slot) {
        final Qp[] t = table;
        final int mask = t.length - 1;
        int i = slot;
        t[i] = null;
        size--;
        for (int j = (i + 1) & mask; t[j] != null; j = (j + 1) & mask) {
            final int k = home(t[j].qpn, mask);
            // the entry at j stays unless its home lies cyclically outside (i, j]
            final boolean stays = i <= j ? i < k && k <= j : i < k || k <= j;
            if (!stays) {
                t[i] = t[j];
                t[j] = null;
                i = j;
            }
        }
    }

    /**
     * @param qpn local QPN, 24 bits
     * @return whether a QP has that QPN
     */
    boolean contains(final int qpn) {
        return slotOf(qpn) >= 0;
    }

    /**
     * Enters an initialised QP under its QPN (and, for a requester, into the sorted list).
     *
     * @param q the QP, from {@link #acquire}, after {@link Qp#init}
     */
    void put(final Qp q) {
        final int existing = slotOf(q.qpn);
        if (existing >= 0) {
            table[existing] = q; // replaces, as a map would (callers check contains first)
        } else {
            if (2 * (size + 1) > table.length) {
                final Qp[] bigger = new Qp[table.length * 2];
                for (final Qp e : table) {
                    if (e != null) {
                        insert(bigger, e);
                    }
                }
                table = bigger;
            }
            insert(table, q);
            size++;
        }
        if (q.role == Qp.REQUESTER) {
            insertRequester(q);
        }
    }

    /** @return an unused QP object from the pool (a new one if the pool is empty) */
    Qp acquire() {
        if (freeQpCount == 0) {
            return new Qp();
        }
        final Qp q = freeQps[--freeQpCount];
        freeQps[freeQpCount] = null;
        return q;
    }

    /**
     * Removes a QP from the table and returns it to the pool ({@link Qp#release} bumps its
     * incarnation). The caller has already taken it off the transmit arbiter's list.
     *
     * @param q the QP
     */
    void release(final Qp q) {
        final int slot = slotOf(q.qpn);
        if (slot >= 0) {
            removeSlot(slot);
        }
        if (q.role == Qp.REQUESTER) {
            removeRequester(q);
        }
        q.release();
        if (freeQpCount == freeQps.length) {
            freeQps = Arrays.copyOf(freeQps, freeQps.length * 2);
        }
        freeQps[freeQpCount++] = q;
    }

    /** @return number of requester QPs (flows running on this NIC) */
    int requesterCount() {
        return requesterCount;
    }

    /**
     * @param i position, {@code 0 .. requesterCount()-1}
     * @return the requester QP with the i-th smallest QPN
     */
    Qp requester(final int i) {
        return requesterQps[i];
    }

    private void insertRequester(final Qp q) {
        if (requesterCount == requesterQpns.length) {
            requesterQpns = Arrays.copyOf(requesterQpns, requesterCount * 2);
            requesterQps = Arrays.copyOf(requesterQps, requesterCount * 2);
        }
        int pos = Arrays.binarySearch(requesterQpns, 0, requesterCount, q.qpn);
        pos = pos < 0 ? -pos - 1 : pos;
        System.arraycopy(requesterQpns, pos, requesterQpns, pos + 1, requesterCount - pos);
        System.arraycopy(requesterQps, pos, requesterQps, pos + 1, requesterCount - pos);
        requesterQpns[pos] = q.qpn;
        requesterQps[pos] = q;
        requesterCount++;
    }

    private void removeRequester(final Qp q) {
        final int pos = Arrays.binarySearch(requesterQpns, 0, requesterCount, q.qpn);
        if (pos < 0 || requesterQps[pos] != q) {
            return;
        }
        System.arraycopy(requesterQpns, pos + 1, requesterQpns, pos, requesterCount - pos - 1);
        System.arraycopy(requesterQps, pos + 1, requesterQps, pos, requesterCount - pos - 1);
        requesterCount--;
        requesterQps[requesterCount] = null;
    }
}
