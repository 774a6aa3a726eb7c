package dev.nicsim.nic;

import java.util.Arrays;

/**
 * Releases of responder QPs on NICs of another partition, deferred to the next barrier of a
 * partitioned run ({@code PartitionedRun} of sim-core). When a requester's flow completes, its
 * NIC releases the responder's QP on the peer NIC ({@link RoceNic}); if the peer NIC is in another
 * partition, which may be running at the same time, the release is recorded here instead and done
 * by {@link #releaseAll()} at the barrier (the QP's incarnation is checked then, as it would have
 * been at once). The responder QP thus stays in its table until the barrier, less than one
 * look-ahead after the completion; frames for it that arrive in between meet the QP instead of an
 * unknown QPN. Flow starts (global events) run after the barrier's releases.
 *
 * <p>Thread-safety: one instance per partition; {@code add} on that partition's thread,
 * {@link #releaseAll()} on the coordinator while no partition runs. Allocation-free once grown to
 * the most completions of one window.
 */
public final class PeerQpReleases {
    private RoceNic[] nics = new RoceNic[16];
    private Qp[] qps = new Qp[16];
    private int[] incarnations = new int[16];
    private int count;

    /** Creates an empty list. */
    public PeerQpReleases() {
    }

    /** Records a release to be done at the barrier (the completing partition's thread). */
    void add(final RoceNic nic, final Qp qp, final int incarnation) {
        if (count == qps.length) {
            nics = Arrays.copyOf(nics, count * 2);
            qps = Arrays.copyOf(qps, count * 2);
            incarnations = Arrays.copyOf(incarnations, count * 2);
        }
        nics[count] = nic;
        qps[count] = qp;
        incarnations[count] = incarnation;
        count++;
    }

    /** @return releases waiting for the barrier */
    public int pending() {
        return count;
    }

    /**
     * Barrier step (coordinator, no partition running): releases every recorded responder QP that
     * is still the incarnation the flow started with, in the order they were recorded.
     */
    public void releaseAll() {
        for (int i = 0; i < count; i++) {
            if (qps[i].incarnation == incarnations[i]) {
                nics[i].releaseQp(qps[i]);
            }
            nics[i] = null;
            qps[i] = null;
        }
        count = 0;
    }
}
