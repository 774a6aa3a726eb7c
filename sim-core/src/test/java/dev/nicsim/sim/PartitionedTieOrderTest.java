package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A partitioned run orders the events of one picosecond as the sequential run does, when one of
 * them is a frame that crossed a cut link. The fabric is built so that two such ties occur:
 * <pre>
 *   S (partition 0) --cut link, 1 us--> R --1 us--> K      (R, H, K: partition 1)
 *   H               --local, 0.9 us---> R
 * </pre>
 * Every link is 100 Gb/s; a 1000-byte frame serialises in (1000 + 20) x 8 bit / 100 Gb/s = 81,600
 * ps. R forwards every frame to K in arrival order, and on frame 10 also starts a timer of
 * 1,050,000 ps that sends frame 30. Derived by hand:
 * <ul>
 *   <li>S sends frame 10 at 0 (arrives at R at 0 + 81,600 + 1,000,000 = 1,081,600) and H frame 20
 *       at 100,000 (100,000 + 81,600 + 900,000 = 1,081,600): a tie at R. On one simulator frame
 *       10's delivery was scheduled first (at 0, frame 20's at 100,000), so R forwards 10 at
 *       1,081,600 (at K 1,081,600 + 1,081,600 = 2,163,200) and 20 when 10's serialisation ends,
 *       1,163,200 (at K 2,244,800).</li>
 *   <li>S sends frame 11 at 1,050,000 (arrives 2,131,600), while frame 10 is still on the wire: frame
 *       10's delivery at 1,081,600 schedules frame 11's, and only then does R receive frame 10 and
 *       start its timer, due at 1,081,600 + 1,050,000 = 2,131,600: a second tie. Frame 11 goes
 *       first (at K 2,131,600 + 1,081,600 = 3,213,200), frame 30 after it (2,213,200 + 1,081,600 =
 *       3,294,800).</li>
 * </ul>
 * In the partitioned run (look-ahead 1 us) frame 10 is taken over by partition 1 at the start of
 * the window after its send, when frame 20's delivery is already scheduled, and frame 11 at the
 * start of the window after the timer was started; both must still run first.
 */
class PartitionedTieOrderTest {
    private static final long RATE_BITS_PER_SEC = 100_000_000_000L;
    private static final int FRAME_BYTES = 1000;
    private static final long TIMER_PS = 1_050_000;

    private static final class QueuePort extends EgressPort {
        final ArrayDeque<Packet> queue = new ArrayDeque<>();

        QueuePort(final Simulator sim, final long propagationPs) {
            super(sim, RATE_BITS_PER_SEC, propagationPs);
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

    /** A host: an event sends frame {@code arg}. */
    private static final class Host implements NetDevice, EventHandler {
        final String name;
        QueuePort port;

        Host(final String name) {
            this.name = name;
        }

        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            final Packet p = new Packet();
            p.frameBytes = FRAME_BYTES;
            p.flowId = (int) arg;
            port.send(p);
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
        }

        @Override
        public String name() {
            return name;
        }
    }

    /** Forwards every frame to K; frame 10 also starts the timer that sends frame 30. */
    private static final class Relay implements NetDevice, EventHandler {
        final Simulator sim;
        QueuePort port;

        Relay(final Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            if (packet.flowId == 10) {
                sim.scheduleIn(TIMER_PS, this, 0, 30, null);
            }
            port.send(packet);
        }

        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            final Packet p = new Packet();
            p.frameBytes = FRAME_BYTES;
            p.flowId = (int) arg;
            port.send(p);
        }

        @Override
        public String name() {
            return "R";
        }
    }

    /** Records each frame's arrival time. */
    private static final class Sink implements NetDevice {
        final Simulator sim;
        final Map<Integer, Long> arrivalPs = new TreeMap<>();

        Sink(final Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            arrivalPs.put(packet.flowId, sim.nowPs());
        }

        @Override
        public String name() {
            return "K";
        }
    }

    /**
     * Builds and runs the fabric.
     *
     * @param partitioned false: one simulator; true: S in partition 0, the rest in partition 1
     * @param threads     threads of the partitioned run
     * @return each frame's arrival time at K, ps
     */
    private static Map<Integer, Long> run(final boolean partitioned, final int threads) {
        final Simulator s0 = new Simulator();
        final Simulator s1 = partitioned ? new Simulator() : s0;
        final Host s = new Host("S");
        final Host h = new Host("H");
        final Relay r = new Relay(s1);
        final Sink k = new Sink(s1);
        s.port = new QueuePort(s0, 1_000_000);
        h.port = new QueuePort(s1, 900_000);
        r.port = new QueuePort(s1, 1_000_000);
        s.port.connect(r, 0);
        h.port.connect(r, 1);
        r.port.connect(k, 0);
        s0.schedule(0, s, 0, 10, null);
        s0.schedule(1_050_000, s, 0, 11, null);
        s1.schedule(100_000, h, 0, 20, null);
        if (!partitioned) {
            s0.runUntil(10_000_000);
            return k.arrivalPs;
        }
        final CutLink cut = new CutLink(s.port, s1, 0);
        try (PartitionedRun pr = new PartitionedRun(new Simulator[] {s0, s1}, new PacketPool[] {new PacketPool(), new PacketPool()},
            new Simulator(), new CutLink[] {cut}, 1_000_000, threads, JitGate.OPEN, false)) {
            pr.run(10_000_000, e -> false);
        }
        return k.arrivalPs;
    }

    @Test
    void framesTiedWithLocalEventsAcrossACutLinkRunInTheSequentialOrder() {
        final Map<Integer, Long> expected = new TreeMap<>(Map.of(
            10, 2_163_200L, 20, 2_244_800L, 11, 3_213_200L, 30, 3_294_800L));
        assertEquals(expected, run(false, 1), "sequential");
        assertEquals(expected, run(true, 1), "partitioned, one thread");
        assertEquals(expected, run(true, 2), "partitioned, two threads");
    }
}
