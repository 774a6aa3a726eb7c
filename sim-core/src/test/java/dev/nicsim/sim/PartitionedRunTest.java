package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PartitionedRun} and {@link CutLink} on a toy fabric of two devices joined by one
 * full-duplex link (100 Gb/s, 1 us), each device in its own partition. Times are derived by hand:
 * a 1000-byte frame takes (1000 + 20 preamble/IFG) x 8 bit / 100 Gb/s = 81,600 ps to serialise and
 * arrives 81,600 + 1,000,000 = 1,081,600 ps after its serialisation starts.
 */
class PartitionedRunTest {
    private static final long RATE_BITS_PER_SEC = 100_000_000_000L;
    private static final long PROPAGATION_PS = 1_000_000;
    private static final long SERIALISATION_PS = 81_600;
    private static final int FRAME_BYTES = 1000;

    private static final class QueuePort extends EgressPort {
        final ArrayDeque<Packet> queue = new ArrayDeque<>();

        QueuePort(final Simulator sim) {
            super(sim, RATE_BITS_PER_SEC, PROPAGATION_PS);
        }

        void send(final Packet p) {
            queue.add(p);
            kick();
        }

        @Override
        protected Packet nextDataPacket() {
            return queue.poll();
        }
    }

    /** Records arrivals (time on its own simulator, frame id); sends each frame back while {@code bounces} last. */
    private static final class Device implements NetDevice, EventHandler {
        final String name;
        final Simulator sim;
        QueuePort port;
        final List<long[]> arrivals = new ArrayList<>();
        int bounces;
        RuntimeException failOnReceive;
        /** Wall time each arrival spends spinning, ns (a slow partition). */
        long busyNsPerReceive;

        Device(final String name, final Simulator sim) {
            this.name = name;
            this.sim = sim;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            if (failOnReceive != null) {
                throw failOnReceive;
            }
            final long until = System.nanoTime() + busyNsPerReceive;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            arrivals.add(new long[] {sim.nowPs(), packet.flowId});
            if (bounces > 0) {
                bounces--;
                port.send(packet);
            }
        }

        /** An event that sends frame {@code arg}. */
        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            final Packet p = new Packet();
            p.frameBytes = FRAME_BYTES;
            p.flowId = (int) arg;
            port.send(p);
        }

        @Override
        public String name() {
            return name;
        }
    }

    /** Two devices, a and b, in partitions 0 and 1 (or both on one simulator when {@code partitioned} is false). */
    private static final class Fabric {
        final Simulator simA = new Simulator();
        final Simulator simB;
        final Simulator global = new Simulator();
        final Device a;
        final Device b;
        final PartitionedRun run;
        /** The cut links a to b and b to a (null when not partitioned). */
        CutLink ab;
        CutLink ba;

        Fabric(final boolean partitioned, final int threads) {
            this(partitioned, threads, null, 0, false);
        }

        /** With the JIT gate reading {@code jitCompileMs} every {@code jitCheckNs} (null: no gate), and counters if {@code keepStats}. */
        Fabric(final boolean partitioned, final int threads, final LongSupplier jitCompileMs,
               final long jitCheckNs, final boolean keepStats) {
            simB = partitioned ? new Simulator() : simA;
            a = new Device("a", simA);
            b = new Device("b", simB);
            a.port = new QueuePort(simA);
            b.port = new QueuePort(simB);
            a.port.connect(b, 0);
            b.port.connect(a, 0);
            if (partitioned) {
                ab = new CutLink(a.port, simB, 0);
                ba = new CutLink(b.port, simA, 1);
                final JitGate gate = jitCompileMs == null ? JitGate.OPEN
                    : new CompileTimeGate(jitCompileMs, System::nanoTime, jitCheckNs);
                run = new PartitionedRun(new Simulator[] {simA, simB}, new PacketPool[] {new PacketPool(), new PacketPool()},
                    global, new CutLink[] {ab, ba}, PROPAGATION_PS, threads, gate, keepStats);
            } else {
                run = null;
            }
        }

        long runTo(final long stopPs) {
            if (run == null) {
                simA.runUntil(stopPs);
                return simA.nowPs();
            }
            try (run) {
                return run.run(stopPs, e -> false);
            }
        }
    }

    @Test
    void aFrameOverACutLinkArrivesAtSendPlusSerialisationPlusPropagationAsOnALocalLink() {
        for (final boolean partitioned : new boolean[] {false, true}) {
            final Fabric f = new Fabric(partitioned, 1);
            f.simA.schedule(5_000, f.a, 0, 7, null);
            f.runTo(10_000_000);
            assertEquals(1, f.b.arrivals.size());
            assertEquals(5_000 + SERIALISATION_PS + PROPAGATION_PS, f.b.arrivals.get(0)[0], "partitioned " + partitioned);
            assertEquals(7, f.b.arrivals.get(0)[1]);
            assertTrue(f.a.port.isCut() == partitioned);
        }
    }

    @Test
    void backToBackFramesKeepTheirOrderAndSpacing() {
        final Fabric f = new Fabric(true, 1);
        for (int i = 0; i < 3; i++) {
            f.simA.schedule(0, f.a, 0, i, null); // three frames queued at time 0: serialised one after the other
        }
        f.runTo(10_000_000);
        assertEquals(3, f.b.arrivals.size());
        for (int i = 0; i < 3; i++) {
            assertEquals((i + 1) * SERIALISATION_PS + PROPAGATION_PS, f.b.arrivals.get(i)[0]);
            assertEquals(i, f.b.arrivals.get(i)[1]);
        }
    }

    /** Ping-pong of two frames for 20 round trips: the same arrivals sequential, partitioned on 1 and on 2 threads. */
    @Test
    void pingPongIsTheSameSequentialAndPartitionedOnOneOrTwoThreads() {
        List<long[]> reference = null;
        for (final int mode : new int[] {0, 1, 2}) {
            final Fabric f = new Fabric(mode > 0, Math.max(1, mode));
            f.a.bounces = 20;
            f.b.bounces = 20;
            f.simA.schedule(0, f.a, 0, 1, null);
            f.simA.schedule(300_000, f.a, 0, 2, null);
            f.runTo(100_000_000);
            final List<long[]> all = new ArrayList<>(f.b.arrivals);
            all.addAll(f.a.arrivals);
            assertEquals(42, all.size());
            // frame 1 reaches b at 1,081,600 ps, then bounces every 1,081,600 ps
            assertEquals(SERIALISATION_PS + PROPAGATION_PS, f.b.arrivals.get(0)[0]);
            assertEquals(2 * (SERIALISATION_PS + PROPAGATION_PS), f.a.arrivals.get(0)[0]);
            if (reference == null) {
                reference = all;
            } else {
                for (int i = 0; i < all.size(); i++) {
                    assertEquals(reference.get(i)[0], all.get(i)[0], "arrival " + i + ", mode " + mode);
                    assertEquals(reference.get(i)[1], all.get(i)[1], "arrival " + i + ", mode " + mode);
                }
            }
        }
    }

    /** A global event at T runs after the partitions' events of T, with every partition's now at T. */
    @Test
    void globalEventsRunAtTheBarrierWithEveryPartitionAtTheirTime() {
        final Fabric f = new Fabric(true, 2);
        final long[] seen = new long[3];
        f.simA.schedule(5_000, f.a, 0, 1, null);
        f.global.schedule(1_086_600, (kind, arg, ref) -> {
            seen[0] = f.simA.nowPs();
            seen[1] = f.simB.nowPs();
            seen[2] = f.b.arrivals.size(); // the frame arriving at this very time has been delivered
        }, 0, 0, null);
        f.runTo(10_000_000);
        assertEquals(1_086_600, seen[0]);
        assertEquals(1_086_600, seen[1]);
        assertEquals(1, seen[2]);
        assertEquals(1_086_600, f.b.arrivals.get(0)[0]);
    }

    /**
     * The window-end work runs once per partition and window, after the partition's events up to
     * the window's end (its now is the end; a frame arriving at that very time is delivered), among
     * them the window a global event caps.
     */
    @Test
    void windowEndWorkRunsInEveryPartitionAfterItsEventsOfTheWindow() {
        final Fabric f = new Fabric(true, 2);
        final Queue<long[]> ends = new ConcurrentLinkedQueue<>();
        f.simA.schedule(5_000, f.a, 0, 1, null);
        f.global.schedule(1_086_600, (kind, arg, ref) -> { }, 0, 0, null);
        f.run.onWindowEnd((p, endPs) -> ends.add(new long[] {p, endPs, (p == 0 ? f.simA : f.simB).nowPs(),
            p == 0 ? f.a.arrivals.size() : f.b.arrivals.size()}));
        f.runTo(10_000_000);
        final Map<Long, List<long[]>> byEnd = new TreeMap<>();
        for (final long[] e : ends) {
            assertEquals(e[1], e[2], "partition " + e[0] + "'s now at the end of window " + e[1]);
            byEnd.computeIfAbsent(e[1], k -> new ArrayList<>()).add(e);
        }
        assertEquals(f.run.windows(), byEnd.size());
        for (final List<long[]> w : byEnd.values()) {
            assertEquals(2, w.size());
            assertEquals(1, w.get(0)[0] + w.get(1)[0], "partitions 0 and 1 once each");
        }
        final List<long[]> capped = byEnd.get(1_086_600L);
        final long[] atB = capped.get(0)[0] == 1 ? capped.get(0) : capped.get(1);
        assertEquals(1, atB[3], "the frame arriving at 1,086,600 ps is delivered before the window-end work");
    }

    /**
     * A cut link's two outboxes: a frame offered in one window is waiting after the flip (its
     * arrival reported for the next window's start), reaches the receiving simulator only when the
     * receiving partition drains it, and a flip that finds the drained side still holding frames
     * says so.
     */
    @Test
    void aCutLinksFramesWaitInTheFlippedOutboxUntilTheReceiverDrainsThem() {
        final Fabric f = new Fabric(true, 1);
        final Packet p = new Packet();
        p.frameBytes = FRAME_BYTES;
        f.ab.offer(p, 2_000_000, 0);
        assertEquals(2_000_000, f.ab.flip());
        assertEquals(1, f.ab.framesInFlight());
        assertEquals(Long.MAX_VALUE, f.simB.nextEventTimePs(), "not on the receiving simulator before the drain");
        f.ab.drain();
        assertEquals(2_000_000, f.simB.nextEventTimePs());
        assertEquals(1, f.ab.framesHandedOver());
        assertEquals(Long.MAX_VALUE, f.ab.flip(), "nothing sent in the second window");
        f.ab.offer(new Packet(), 3_000_000, 0);
        f.ab.flip();
        final IllegalStateException e = assertThrows(IllegalStateException.class, f.ab::flip);
        assertEquals("cut link 0: 1 frames of the previous window were not taken over by the receiving partition", e.getMessage());
        f.run.close();
    }

    @Test
    void aWorkersExceptionReachesTheCaller() {
        final Fabric f = new Fabric(true, 2);
        final IllegalStateException boom = new IllegalStateException("b: broken");
        f.b.failOnReceive = boom; // b's partition runs on the worker thread
        f.simA.schedule(0, f.a, 0, 1, null);
        assertSame(boom, assertThrows(IllegalStateException.class, () -> f.runTo(10_000_000)));
    }

    /** 20 round trips of two frames on 2 threads, with counters; {@code jitCompileMs} as the JIT gate's source (null: none). */
    private static Fabric pingPong(final LongSupplier jitCompileMs) {
        return runPingPong(new Fabric(true, 2, jitCompileMs, 0, true));
    }

    /** Runs the 20 round trips of two frames on {@code f}; returns it. */
    private static Fabric runPingPong(final Fabric f) {
        f.a.bounces = 20;
        f.b.bounces = 20;
        f.simA.schedule(0, f.a, 0, 1, null);
        f.simA.schedule(300_000, f.a, 0, 2, null);
        f.runTo(100_000_000);
        return f;
    }

    /**
     * The counters add up: every window runs both partitions once, on one thread or the other; the
     * threads' busy times sum to the per-window totals; the slowest thread's share lies between
     * 1/threads and 1; the phase is at least the slowest thread's busy time.
     */
    @Test
    void theCountersAddUp() {
        final Fabric f = pingPong(null);
        final PartitionStats st = f.run.stats;
        final long windows = f.run.windows();
        assertTrue(windows > 20, "windows " + windows); // 42 deliveries, at most one look-ahead apart
        assertEquals(2 * windows, st.get(0, PartitionStats.PARTITIONS_RUN) + st.get(1, PartitionStats.PARTITIONS_RUN));
        assertEquals(st.allBusyNs, st.get(0, PartitionStats.BUSY_NS) + st.get(1, PartitionStats.BUSY_NS));
        assertTrue(2 * st.slowestBusyNs >= st.allBusyNs && st.slowestBusyNs <= st.allBusyNs,
            st.slowestBusyNs + " of " + st.allBusyNs);
        assertTrue(st.phaseNs >= st.slowestBusyNs, st.phaseNs + " < " + st.slowestBusyNs);
        assertTrue(st.longestRunNs <= st.slowestBusyNs, st.longestRunNs + " > " + st.slowestBusyNs);
        assertTrue(st.get(1, PartitionStats.WAKES_SPIN) + st.get(1, PartitionStats.WAKES_PARKED) <= windows);
        assertEquals(0, f.run.soloWindows());
        assertEquals(42, f.a.arrivals.size() + f.b.arrivals.size());
        for (int t = 0; t < 2; t++) { // a partition run away from home or moved is still a partition run
            assertTrue(st.get(t, PartitionStats.AWAY) <= st.get(t, PartitionStats.PARTITIONS_RUN));
            assertTrue(st.get(t, PartitionStats.MOVES) <= st.get(t, PartitionStats.PARTITIONS_RUN));
        }
    }

    /**
     * A JIT gate that always sees the compiler busy (1 s of compilation per reading, read every
     * window) runs every window on the coordinator alone, with the same arrivals; one that never
     * sees it busy runs none alone.
     */
    @Test
    void aShutJitGateRunsEveryWindowOnTheCoordinatorWithTheSameResults() {
        final long[] compiledMs = {0};
        final Fabric busy = pingPong(() -> compiledMs[0] += 1000);
        final Fabric idle = pingPong(() -> 5);
        final Fabric sequential = runPingPong(new Fabric(false, 1));
        assertEquals(busy.run.windows(), busy.run.soloWindows());
        assertEquals(0, busy.run.stats.get(1, PartitionStats.PARTITIONS_RUN), "the worker ran a partition");
        assertEquals(0, idle.run.soloWindows());
        for (final Fabric f : new Fabric[] {busy, idle}) {
            assertEquals(sequential.b.arrivals.size(), f.b.arrivals.size());
            for (int i = 0; i < f.b.arrivals.size(); i++) {
                assertEquals(sequential.b.arrivals.get(i)[0], f.b.arrivals.get(i)[0], "arrival " + i);
                assertEquals(sequential.b.arrivals.get(i)[1], f.b.arrivals.get(i)[1], "arrival " + i);
            }
        }
    }

    /**
     * The partitions are claimed longest first: with b's partition (1) spending 3 ms of wall time
     * on an arrival and a's almost nothing, the window after the arrival's claims partition 1 first.
     */
    @Test
    void thePartitionThatTookLongestIsClaimedFirst() {
        final Fabric f = new Fabric(true, 1);
        assertArrayEquals(new int[] {0, 1}, f.run.scheduler.claimOrder());
        f.b.busyNsPerReceive = 3_000_000;
        f.simA.schedule(0, f.a, 0, 1, null);
        // the frame reaches b at 1,081,600 ps, in the window ending at 2,000,000 (the global event's
        // time); the window of the global event at 3,000,000 runs in the order set after it
        final int[][] seen = new int[1][];
        f.global.schedule(2_000_000, (kind, arg, ref) -> { }, 0, 0, null);
        f.global.schedule(3_000_000, (kind, arg, ref) -> seen[0] = f.run.scheduler.claimOrder(), 0, 0, null);
        f.runTo(10_000_000);
        assertArrayEquals(new int[] {1, 0}, seen[0]);
        assertEquals(SERIALISATION_PS + PROPAGATION_PS, f.b.arrivals.get(0)[0]);
    }

    /**
     * Four partitions on two threads: homes 0, 1, 0, 1 (partition index modulo threads) until the
     * first plan. A thread claims its own partitions first, in claim order, then takes the others';
     * each partition once per window; a thread holding an older window's number claims nothing.
     */
    @Test
    void aThreadClaimsItsOwnPartitionsFirstThenTheOthers() {
        final Simulator[] sims = {new Simulator(), new Simulator(), new Simulator(), new Simulator()};
        final PacketPool[] pools = {new PacketPool(), new PacketPool(), new PacketPool(), new PacketPool()};
        try (PartitionedRun run = new PartitionedRun(sims, pools, new Simulator(), new CutLink[0], PROPAGATION_PS, 2,
                JitGate.OPEN, false)) {
            assertArrayEquals(new int[] {0, 1, 0, 1}, run.scheduler.homes());
            // window 1 (never published, so the worker stays idle): thread 1 first
            assertEquals(1, run.scheduler.claimNext(1, 1));
            assertEquals(3, run.scheduler.claimNext(1, 1));
            assertEquals(0, run.scheduler.claimNext(1, 1)); // thread 0's, still unclaimed
            assertEquals(2, run.scheduler.claimNext(1, 0));
            assertEquals(-1, run.scheduler.claimNext(1, 0));
            assertEquals(-1, run.scheduler.claimNext(1, 1));
            // window 2: thread 0 first
            assertEquals(0, run.scheduler.claimNext(2, 0));
            assertEquals(2, run.scheduler.claimNext(2, 0));
            assertEquals(-1, run.scheduler.claimNext(1, 1)); // an older window's number
            assertEquals(1, run.scheduler.claimNext(2, 1));
            assertEquals(3, run.scheduler.claimNext(2, 0));
            assertEquals(-1, run.scheduler.claimNext(2, 1));
        }
    }

    /** Longest processing time first, worked by hand: 24 -> t0, 23 -> t1, 16 -> t1 (23 < 24), 15 -> t0; ties by index. */
    @Test
    void homesArePlannedLongestFirstOntoTheLeastLoadedThread() {
        final int[] home = new int[4];
        assertEquals(39, WindowScheduler.planHomes(new long[] {15, 24, 23, 16}, 2, home, new long[2]));
        assertArrayEquals(new int[] {0, 0, 1, 1}, home);
        final int[] five = new int[5];
        assertEquals(15, WindowScheduler.planHomes(new long[] {5, 5, 5, 5, 5}, 2, five, new long[2]));
        assertArrayEquals(new int[] {0, 1, 0, 1, 0}, five);
        final int[] three = new int[4];
        assertEquals(10, WindowScheduler.planHomes(new long[] {1, 10, 4, 5}, 3, three, new long[3]));
        assertArrayEquals(new int[] {2, 0, 2, 1}, three);
        assertEquals(25, WindowScheduler.busiestShare(new long[] {1, 10, 4, 5, 20}, new int[] {0, 1, 0, 1, 0}, new long[2]));
    }

    @Test
    void aZeroDelayLinkCannotBeCut() {
        final Simulator sim = new Simulator();
        final EgressPort p = new EgressPort(sim, RATE_BITS_PER_SEC, 0) {
            @Override
            protected Packet nextDataPacket() {
                return null;
            }
        };
        p.connect(new Device("far", sim), 3);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CutLink(p, sim, 4));
        assertEquals("cut link 4 to far has a propagation delay of 0 ps; a partitioned run needs a positive delay on every"
            + " cut link", e.getMessage());
    }

    @Test
    void poolsBelowTheLowWaterMarkAreRefilledFromTheFullest() {
        final PacketPool full = new PacketPool();
        final PacketPool empty = new PacketPool();
        final List<Packet> ps = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ps.add(full.acquire());
        }
        ps.forEach(full::release);
        full.moveFreeTo(empty, 100);
        assertEquals(900, full.freeCount());
        assertEquals(100, empty.freeCount());
        final Packet p = empty.acquire(); // a moved packet, not a new one
        assertEquals(1000, full.allocated());
        assertEquals(0, empty.allocated());
        assertEquals(1, empty.outstanding());
        empty.release(p);
    }
}
