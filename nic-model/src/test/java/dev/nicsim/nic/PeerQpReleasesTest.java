package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link PeerQpReleases}: when a flow completes and its responder NIC is in another partition of a
 * partitioned run, the responder's QP stays in its table until the barrier's
 * {@link PeerQpReleases#releaseAll()}; in the same partition (or unpartitioned) it goes at once.
 */
class PeerQpReleasesTest {

    /** a (partition 0) writes 4096 B to b (partition {@code partitionOfB}); returns the releases after completion. */
    private static PeerQpReleases completeOneFlow(final int partitionOfB, final RoceNic[] nics) {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry counters = new CounterRegistry();
        final RoceNic a = new RoceNic(sim, "a", 0, new NicConfig(), counters, pool);
        final RoceNic b = new RoceNic(sim, "b", 1, new NicConfig(), counters, pool);
        a.connect(Bench.RATE, Bench.PROP_PS, b, 0);
        b.connect(Bench.RATE, Bench.PROP_PS, a, 0);
        a.setCcProcessor(new DirectCcProcessor(new FixedAlgorithm(), 0, a));
        final PeerQpReleases releases = new PeerQpReleases();
        a.setPartition(0, releases);
        b.setPartition(partitionOfB, releases);
        final List<long[]> done = new ArrayList<>();
        a.startFlow(7, 1, b, 2, MessageOp.WRITE, 4096, 2000, (id, ps) -> done.add(new long[] {id, ps}));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(1, done.size());
        assertEquals(2_363_680L, done.get(0)[1]); // as RoceNicTransportTest derives it: the deferral changes no timing
        nics[0] = a;
        nics[1] = b;
        return releases;
    }

    @Test
    void aResponderQpInAnotherPartitionIsReleasedAtTheBarrier() {
        final RoceNic[] nics = new RoceNic[2];
        final PeerQpReleases releases = completeOneFlow(1, nics);
        assertEquals(1, releases.pending());
        // b's QPN 2 is still taken until the barrier
        assertEquals("b: QPN 2 is in use", assertThrows(IllegalStateException.class,
            () -> nics[0].startFlow(8, 3, nics[1], 2, MessageOp.WRITE, 10, 0, null)).getMessage());
        releases.releaseAll();
        assertEquals(0, releases.pending());
        nics[0].startFlow(8, 3, nics[1], 2, MessageOp.WRITE, 10, 0, null); // free again
    }

    @Test
    void aResponderQpInTheSamePartitionIsReleasedAtOnce() {
        final RoceNic[] nics = new RoceNic[2];
        final PeerQpReleases releases = completeOneFlow(0, nics);
        assertEquals(0, releases.pending());
        nics[0].startFlow(8, 3, nics[1], 2, MessageOp.WRITE, 10, 0, null);
    }
}
