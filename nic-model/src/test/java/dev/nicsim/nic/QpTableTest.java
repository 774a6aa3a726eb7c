package dev.nicsim.nic;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link QpTable}'s QPN lookup (open addressing with backward-shift deletion) against
 * {@link HashMap} as the oracle, over random puts and releases that force collisions, clusters
 * that wrap around the table's end, and growth.
 */
class QpTableTest {

    private static Qp qp(final QpTable t, final int qpn) {
        final Qp q = t.acquire();
        q.init(Qp.RESPONDER, qpn, qpn, 0, qpn, MessageOp.WRITE, 1000, 1000, 0, 0, 0);
        return q;
    }

    @Test
    void lookupsMatchAHashMapOverRandomPutsAndReleases() {
        final SplittableRandom rnd = new SplittableRandom(21);
        final QpTable t = new QpTable();
        final Map<Integer, Qp> oracle = new HashMap<>();
        final List<Integer> live = new ArrayList<>();
        for (int step = 0; step < 200_000; step++) {
            // QPNs from a small range (dense, like flowId + 1) and from the whole 24-bit space
            final int qpn = rnd.nextInt(4) == 0 ? rnd.nextInt(1 << 24) : 1 + rnd.nextInt(3000);
            if (live.size() < 1500 && !oracle.containsKey(qpn) && rnd.nextInt(3) != 0) {
                final Qp q = qp(t, qpn);
                t.put(q);
                oracle.put(qpn, q);
                live.add(qpn);
            } else if (!live.isEmpty()) {
                final int victim = live.remove(rnd.nextInt(live.size()));
                t.release(oracle.remove(victim));
            }
            if (step % 1000 == 0) {
                for (final Map.Entry<Integer, Qp> e : oracle.entrySet()) {
                    assertSame(e.getValue(), t.get(e.getKey()), "QPN " + e.getKey() + " at step " + step);
                }
            }
            assertEquals(oracle.containsKey(qpn), t.contains(qpn), "contains(" + qpn + ") at step " + step);
            assertSame(oracle.get(qpn), t.get(qpn), "get(" + qpn + ") at step " + step);
        }
    }

    @Test
    void clusterAcrossTheTableEndSurvivesARemovalBeforeIt() {
        // 16 slots, so at most 8 QPs before growth: find 6 QPNs whose home slot is 15 (the last),
        // so the cluster wraps to slots 0..4; removing the first must keep the others reachable.
        final QpTable t = new QpTable();
        final List<Qp> wrapped = new ArrayList<>();
        for (int qpn = 1; wrapped.size() < 6; qpn++) {
            final int h = qpn * 0x9E3779B9;
            if (((h ^ (h >>> 16)) & 15) == 15) {
                final Qp q = qp(t, qpn);
                t.put(q);
                wrapped.add(q);
            }
        }
        final int first = wrapped.get(0).qpn;
        t.release(wrapped.remove(0));
        assertFalse(t.contains(first));
        assertNull(t.get(first));
        for (final Qp q : wrapped) {
            assertTrue(t.contains(q.qpn));
            assertSame(q, t.get(q.qpn));
        }
    }
}
