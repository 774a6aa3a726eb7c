package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

import java.util.Arrays;

/**
 * The CAM congestion-flow recognition of a {@link SwitchAsic} (the RCM paper §3.3), a hook on the
 * enqueue step: per egress queue a cyclic CAM of {@code camDepth} flow keys
 * ({@link SwitchAsic#flowKey}). A packet enqueued while the queue is congested (its depth at the
 * packet's arrival {@code >= camCongestedBytes}, by default the queue's WRED Kmin) counts towards
 * sampling; every {@code camSamplePeriod}-th such packet overwrites the oldest entry. Each entry
 * also records the packet's ingress port (regional congestion mitigation addresses CNs with it).
 * When the queue drains empty its congestion episode is over and {@link #clear} invalidates the
 * entries (input-output queued: only when no VOQ holds a packet for the queue either; a documented
 * modelling choice). With {@code camDepth = 0} the CAM is off.
 *
 * <p>Entries of queue {@code q} sit at {@code [q x camDepth + i]}, {@code i < validEntries(q)}.
 * Allocation-free after construction. Thread-safety: not thread-safe; simulation thread only.
 */
final class CongestionCam {
    private final int depth;
    private final int samplePeriod;
    private final long congestedBytes;
    private final long[] thresholdBytes;    // [port * 8 + priority]
    private final int[] keys;
    private final int[] ingress;
    private final int[] next;
    private final int[] valid;
    private final int[] countdown;
    /** Regional congestion mitigation told of every write (flow recognition), or null. */
    private RegionalCongestion rcm;

    /**
     * @param queues         number of egress queues ({@code ports x 8})
     * @param depth          entries per queue, {@code >= 0} (0: CAM off)
     * @param samplePeriod   write every n-th congested enqueue, {@code >= 1}
     * @param congestedBytes congestion threshold, bytes, or {@link SwitchConfig#CAM_THRESHOLD_KMIN}
     */
    CongestionCam(final int queues, final int depth, final int samplePeriod, final long congestedBytes) {
        this.depth = depth;
        this.samplePeriod = samplePeriod;
        this.congestedBytes = congestedBytes;
        this.thresholdBytes = new long[queues];
        this.keys = new int[queues * depth];
        this.ingress = new int[queues * depth];
        this.next = new int[queues];
        this.valid = new int[queues];
        this.countdown = new int[queues];
        Arrays.fill(countdown, samplePeriod);
    }

    /**
     * Sets the regional congestion engine that is told of each write. Set-up only.
     *
     * @param rcm the engine, or null
     */
    void setRcm(final RegionalCongestion rcm) {
        this.rcm = rcm;
    }

    /**
     * The queue's WRED profile changed: with {@link SwitchConfig#CAM_THRESHOLD_KMIN} the congestion
     * threshold follows its Kmin ({@code Long.MAX_VALUE}, never congested, without a profile).
     *
     * @param q       queue index
     * @param profile the queue's WRED profile, or null
     */
    void onProfile(final int q, final WredProfile profile) {
        if (congestedBytes != SwitchConfig.CAM_THRESHOLD_KMIN) {
            thresholdBytes[q] = congestedBytes;
        } else {
            thresholdBytes[q] = profile != null ? profile.kminBytes() : Long.MAX_VALUE;
        }
    }

    /**
     * A packet is enqueued for queue {@code q}: if the CAM is on and the queue was congested at the
     * packet's arrival, counts the packet towards sampling and may write its flow.
     *
     * @param q          queue index
     * @param depthBytes the queue's depth at the packet's arrival (before it), bytes
     * @param p          the packet
     */
    void onEnqueue(final int q, final long depthBytes, final Packet p) {
        if (depth > 0 && depthBytes >= thresholdBytes[q]) {
            sample(q, p);
        }
    }

    private void sample(final int q, final Packet p) {
        if (--countdown[q] > 0) {
            return;
        }
        countdown[q] = samplePeriod;
        final int n = next[q];
        final int key = SwitchAsic.flowKey(p);
        if (rcm != null) {
            rcm.onCamWrite(q, contains(q, key));
        }
        keys[q * depth + n] = key;
        ingress[q * depth + n] = p.ingressPort;
        next[q] = n + 1 == depth ? 0 : n + 1;
        if (valid[q] < depth) {
            valid[q]++;
        }
    }

    /**
     * The queue's congestion episode is over: its entries are invalidated and sampling restarts.
     *
     * @param q queue index
     */
    void clear(final int q) {
        valid[q] = 0;
        next[q] = 0;
        countdown[q] = samplePeriod;
    }

    /** @return entries per queue, {@code >= 0} */
    int depth() {
        return depth;
    }

    /**
     * @param q queue index
     * @return valid entries of the queue, {@code 0 .. depth()}
     */
    int validEntries(final int q) {
        return valid[q];
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. depth() - 1}
     * @return the flow key stored in the entry
     */
    int key(final int q, final int i) {
        return keys[q * depth + i];
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. depth() - 1}
     * @return the ingress port of the packet the entry was sampled from
     */
    int ingress(final int q, final int i) {
        return ingress[q * depth + i];
    }

    /**
     * @param q queue index
     * @return the entry the next write will overwrite, {@code 0 .. depth() - 1} (the CAM is written
     *         cyclically)
     */
    int nextEntry(final int q) {
        return next[q];
    }

    /**
     * @param q   queue index
     * @param key flow key
     * @return whether the key is among the queue's valid entries
     */
    boolean contains(final int q, final int key) {
        return holds(keys, q * depth, valid[q], key);
    }

    /**
     * The linear search of the CAM-like key lists (this CAM's entries, a CN's harmful IDs, the
     * latched harmful set): whether {@code key} is among {@code keys[base .. base + n - 1]}.
     *
     * @param keys the lists, one segment per queue
     * @param base the segment's first index
     * @param n    valid keys in the segment, {@code >= 0}
     * @param key  flow key
     * @return whether the key is among them
     */
    static boolean holds(final int[] keys, final int base, final int n, final int key) {
        for (int i = 0; i < n; i++) {
            if (keys[base + i] == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param q   queue index
     * @param key flow key
     * @return how many of the queue's valid entries hold the key
     */
    int count(final int q, final int key) {
        final int base = q * depth;
        final int n = valid[q];
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (keys[base + i] == key) {
                hits++;
            }
        }
        return hits;
    }

    /**
     * @param q   queue index
     * @param key a flow key present in the queue's valid entries
     * @return the entry holding the key that was written last (0 if absent)
     */
    int newestEntry(final int q, final int key) {
        final int base = q * depth;
        final int n = valid[q];
        // entries are written cyclically at the next-write index (equal to n while the CAM fills up):
        // the newest is just before it
        final int nx = next[q];
        for (int k = 1; k <= n; k++) {
            final int i = Math.floorMod(nx - k, depth);
            if (keys[base + i] == key) {
                return i;
            }
        }
        return 0;
    }
}
