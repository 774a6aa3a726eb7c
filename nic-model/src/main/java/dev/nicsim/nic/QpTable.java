package dev.nicsim.nic;

import org.agrona.collections.Int2ObjectHashMap;

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
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class QpTable {
    // QPs by local QPN, the pool of unused QP objects, requester QPs sorted by QPN
    private final Int2ObjectHashMap<Qp> qps = new Int2ObjectHashMap<>();
    private Qp[] freeQps = new Qp[16];
    private int freeQpCount;
    private int[] requesterQpns = new int[16];
    private Qp[] requesterQps = new Qp[16];
    private int requesterCount;

    /** Creates an empty table. */
    QpTable() {
    }

    /**
     * @param qpn local QPN, 24 bits
     * @return the QP, or null if none has that QPN
     */
    Qp get(final int qpn) {
        return qps.get(qpn);
    }

    /**
     * @param qpn local QPN, 24 bits
     * @return whether a QP has that QPN
     */
    boolean contains(final int qpn) {
        return qps.containsKey(qpn);
    }

    /**
     * Enters an initialised QP under its QPN (and, for a requester, into the sorted list).
     *
     * @param q the QP, from {@link #acquire}, after {@link Qp#init}
     */
    void put(final Qp q) {
        qps.put(q.qpn, q);
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
        qps.remove(q.qpn);
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
