package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A partitioned run ends where the sequential run ends ({@link PartitionedRun.RunEnd},
 * {@link Simulator#endAfterNow}): at the end of the time the last pending work finishes, with
 * every partition's events up to that time run and none after, although the window reaches further.
 * The expected sets are the events at or before the end time, listed by hand.
 */
class PartitionedRunEndTest {
    private static final long LOOK_AHEAD_PS = 10_000; // one window holds every event below

    /** Three partitions; 0 and 1 hold pending work ("done" events), 2 holds none. */
    private static final class Run {
        final Simulator[] sims = {new Simulator(), new Simulator(), new Simulator()};
        final int[] pending = {1, 1, 0};
        final long[] finishedPs = {-1, -1, -1};
        final ConcurrentLinkedQueue<String> ran = new ConcurrentLinkedQueue<>();

        /** Schedules event {@code tag} at {@code t} in partition {@code p}; a "done" tag finishes its pending work. */
        void at(final int p, final long t, final String tag) {
            sims[p].schedule(t, (kind, arg, ref) -> {
                ran.add(p + ":" + t + ":" + tag);
                if (tag.startsWith("done") && --pending[p] == 0) {
                    finishedPs[p] = sims[p].nowPs();
                    sims[p].endAfterNow();
                }
            }, 0, 0, null);
        }

        long run(final int threads) {
            final PacketPool[] pools = {new PacketPool(), new PacketPool(), new PacketPool()};
            try (PartitionedRun r = new PartitionedRun(sims, pools, new Simulator(), new CutLink[0], LOOK_AHEAD_PS,
                    threads, JitGate.OPEN, false)) {
                r.onRunEnd(new PartitionedRun.RunEnd() {
                    @Override
                    public boolean holdsPending(final int partition) {
                        return pending[partition] > 0;
                    }

                    @Override
                    public long finishedAtPs(final int partition) {
                        return pending[partition] > 0 ? -1 : finishedPs[partition];
                    }
                });
                return r.run(1_000_000, endPs -> false);
            }
        }

        Set<String> ran() {
            return new TreeSet<>(ran);
        }
    }

    @Test
    void theRunEndsAtTheEndOfTheTimeTheLastPendingWorkFinishesInEveryPartition() {
        for (int threads = 1; threads <= 2; threads++) {
            final Run r = new Run();
            r.at(0, 300, "done");
            r.at(0, 300, "after-done-same-time");
            r.at(0, 400, "before-end"); // after 0's own finish, before the run's end: runs
            r.at(0, 501, "late");
            r.at(1, 200, "early");
            r.at(1, 500, "done");
            r.at(1, 600, "late");
            r.at(2, 100, "early");
            r.at(2, 500, "same-time-as-end");
            r.at(2, 501, "late");
            assertEquals(500, r.run(threads));
            assertEquals(new TreeSet<>(List.of("0:300:after-done-same-time", "0:300:done", "0:400:before-end", "1:200:early", "1:500:done",
                "2:100:early", "2:500:same-time-as-end")), r.ran(), threads + " thread(s)");
            assertEquals(500, r.sims[0].nowPs());
            assertEquals(500, r.sims[1].nowPs());
            assertEquals(500, r.sims[2].nowPs());
        }
    }

    /** Partition 0 finishes but partition 1 does not: every partition runs its whole window, 0 included. */
    @Test
    void aPartitionThatFinishesEarlyGoesOnWhileAnotherStillHoldsWork() {
        final Run r = new Run();
        r.at(0, 300, "done");
        r.at(0, 400, "after");
        r.at(1, 200, "not-done");
        r.at(1, 20_000, "done"); // in a later window
        r.at(1, 20_100, "late");
        r.at(2, 15_000, "next-window");
        r.at(2, 20_000, "same-time-as-end");
        r.at(2, 25_000, "late");
        assertEquals(20_000, r.run(2));
        final List<String> expected = new ArrayList<>(List.of("0:300:done", "0:400:after", "1:200:not-done",
            "1:20000:done", "2:15000:next-window", "2:20000:same-time-as-end"));
        assertEquals(new TreeSet<>(expected), r.ran());
    }
}
