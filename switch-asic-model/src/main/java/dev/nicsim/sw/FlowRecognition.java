package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

import java.util.Arrays;

/**
 * Congestion flow recognition (CFR, the RCM paper §3.3) of one {@link SwitchAsic}: which flows are
 * harmful at an output queue, read from the switch's {@link CongestionCam} and the CNs held by
 * {@link RegionDetection}.
 *
 * <h2>Harmful flows of an output queue</h2>
 * With CFR on: if the port holds a valid CN, the CN's IDs ("The harmful congestion flow IDs at the
 * edge and inner congestion points will be replaced by the ones getting from root congestion
 * point"); otherwise (root) the flows with at least {@link RcmConfig#harmfulMinEntries} entries in
 * the output queue's CAM. With CFR off every flow counts as harmful.
 *
 * <h2>Latched harmful set</h2>
 * With {@link RcmConfig#latchHarmfulSet} (and CFR and RCC on), the root's set is latched per
 * output queue for a congestion episode: when RCC first finds the queue's window
 * {@code CONTROLLING} with no valid CN held (a root point), the flows then meeting
 * {@link RcmConfig#harmfulMinEntries} (with the ingress port of their newest CAM entry) are copied
 * ({@link #latch}), and until RCC quits ({@link #release}) that copy replaces the live CAM both in
 * the harmful test and in the IDs of the CNs this switch sends (the RCM paper §3.2 "Once a RCP is
 * reported, it starts congestion control (RCC) to the flows recognized by CFR"; §3.4 "Once the
 * congestion state disappears, the window-based congestion control will quit"). An empty copy is
 * not latched: the next try latches again.
 *
 * <p>Counter: {@code rcm_flows_recognised} (CAM writes of an ID not in the queue's CAM, on the
 * port's output queues). Allocation-free after construction. Thread-safety: not thread-safe;
 * simulation thread only.
 */
final class FlowRecognition {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final boolean enabled;
    private final boolean latching;
    private final int harmfulMin;
    private final CongestionCam cam;
    private final int camDepth;
    private final RegionDetection crd;
    /** Latched harmful flows per queue ({@code [q x camDepth + i]}), their ingress, and count (-1: not latched). */
    private final int[] latchedKeys;
    private final int[] latchedIngress;
    private final int[] latchedCount;
    /** The switch's RCM counters, {@code [port x RCM_ROW + RCM_*]} ({@link RegionalCongestion}). */
    private final long[] rcmStats;

    /**
     * @param queues          {@code ports x 8}
     * @param c               validated RCM configuration
     * @param cam             the switch's CAM (read only)
     * @param crd             region detection (the CNs held)
     * @param rcmStats  the switch's RCM counters ({@code rcm_flows_recognised} at {@code [port x RCM_ROW + RCM_FLOWS_RECOGNISED]})
     */
    FlowRecognition(final int queues, final RcmConfig c, final CongestionCam cam, final RegionDetection crd,
                    final long[] rcmStats) {
        this.enabled = c.flowRecognition;
        this.latching = c.latchHarmfulSet && c.flowRecognition && c.regionalControl;
        this.harmfulMin = c.harmfulMinEntries;
        this.cam = cam;
        this.camDepth = cam.depth();
        this.crd = crd;
        final int latchSlots = latching ? queues * camDepth : 0;
        this.latchedKeys = new int[latchSlots];
        this.latchedIngress = new int[latchSlots];
        this.latchedCount = new int[latching ? queues : 0];
        Arrays.fill(latchedCount, -1);
        this.rcmStats = rcmStats;
    }

    /**
     * The CAM of an output queue is about to store a flow's ID: counts a recognition when the ID
     * is new to the CAM.
     *
     * @param q         queue index
     * @param alreadyIn whether the ID is among the queue's valid CAM entries
     */
    void onCamWrite(final int q, final boolean alreadyIn) {
        if (enabled && !alreadyIn) {
            rcmStats[q / PRIORITIES * RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_FLOWS_RECOGNISED]++;
        }
    }

    /**
     * Is a flow harmful at an output queue (see the class comment)?
     *
     * @param q     queue index
     * @param key   flow key
     * @param nowPs now
     * @return true if harmful
     */
    boolean isHarmful(final int q, final int key, final long nowPs) {
        if (!enabled) {
            return true;
        }
        if (crd.remoteValid(q, nowPs)) {
            return crd.remoteNames(q, key);
        }
        if (latching && latchedCount[q] >= 0) {
            return CongestionCam.holds(latchedKeys, q * camDepth, latchedCount[q], key);
        }
        return cam.count(q, key) >= harmfulMin;
    }

    /**
     * @param q queue index
     * @return whether latching is on and queue {@code q} has no latched set yet
     */
    boolean latchPending(final int q) {
        return latching && latchedCount[q] < 0;
    }

    /**
     * Copies the flows of queue {@code q}'s CAM with at least {@link RcmConfig#harmfulMinEntries}
     * entries (each once, with the ingress port of its newest entry) into the queue's latched set;
     * leaves the queue unlatched when none qualifies. Only with latching on. Allocation-free.
     *
     * @param q queue index
     */
    void latch(final int q) {
        final int base = q * camDepth;
        final int n = cam.validEntries(q);
        int count = 0;
        for (int i = 0; i < n; i++) {
            final int key = cam.key(q, i);
            if (cam.count(q, key) < harmfulMin) {
                continue;
            }
            int j = 0;
            while (j < count && latchedKeys[base + j] != key) {
                j++;
            }
            if (j == count) {
                latchedKeys[base + count] = key;
                latchedIngress[base + count] = cam.ingress(q, cam.newestEntry(q, key));
                count++;
            }
        }
        if (count > 0) {
            latchedCount[q] = count;
        }
    }

    /**
     * RCC of queue {@code q} quit: the latched set (if any) is released.
     *
     * @param q queue index
     */
    void release(final int q) {
        if (latching) {
            latchedCount[q] = -1;
        }
    }

    /**
     * Adds to a CN being built the harmful flows of a congested output queue {@code q} (a root
     * point: no valid CN held) that arrived on {@code inPort}: the latched set if one is latched,
     * else (CFR on) the flows of the live CAM meeting {@link RcmConfig#harmfulMinEntries}.
     *
     * @param q      queue index
     * @param inPort the input port the CN goes out of
     * @param cn     the CN frame being built
     * @param idsBefore IDs already in the frame
     * @return IDs in the frame now, at most {@link Packet#RCM_MAX_FLOW_IDS}
     */
    int addLocalHarmfulIds(final int q, final int inPort, final Packet cn, final int idsBefore) {
        int ids = idsBefore;
        if (latching && latchedCount[q] >= 0) {
            final int base = q * camDepth;
            final int n = latchedCount[q];
            for (int i = 0; i < n; i++) {
                if (latchedIngress[base + i] == inPort) {
                    ids = CongestionNotifier.addId(cn, ids, latchedKeys[base + i]);
                }
            }
        } else if (enabled) {
            final int n = cam.validEntries(q);
            for (int i = 0; i < n; i++) {
                if (cam.ingress(q, i) == inPort && cam.count(q, cam.key(q, i)) >= harmfulMin) {
                    ids = CongestionNotifier.addId(cn, ids, cam.key(q, i));
                }
            }
        }
        return ids;
    }

    /** @return whether CFR is on */
    boolean enabled() {
        return enabled;
    }

    /**
     * @param q queue index
     * @return flows in the queue's latched harmful set, or -1 when none is latched (or latching is off)
     */
    int latchedFlowCount(final int q) {
        return latching ? latchedCount[q] : -1;
    }

    /**
     * @param q queue index
     * @param i entry, {@code 0 .. latchedFlowCount(q) - 1}
     * @return the i-th latched harmful flow key
     */
    int latchedFlowKey(final int q, final int i) {
        return latchedKeys[q * camDepth + i];
    }
}
