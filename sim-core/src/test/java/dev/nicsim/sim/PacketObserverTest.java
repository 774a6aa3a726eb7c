package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The optional {@link PacketObserver} of {@link EgressPort}: what it sees and when. */
class PacketObserverTest {

    /** A port that sends the frames queued on it, in order. */
    private static final class QueuePort extends EgressPort {
        final ArrayDeque<Packet> queue = new ArrayDeque<>();
        final List<Integer> startedPsns = new ArrayList<>();

        QueuePort(final Simulator sim, final long rate, final long delay) {
            super(sim, rate, delay);
        }

        @Override
        protected Packet nextDataPacket() {
            return queue.poll();
        }

        @Override
        protected void onTransmitStart(final Packet frame) {
            startedPsns.add(frame.psn);
            frame.txTimestampNs = 7; // bookkeeping done before the observer runs
        }
    }

    /** Records what it sees and when the peer received each frame. */
    private static final class Sink implements NetDevice {
        final Simulator sim;
        final List<Long> arrivals = new ArrayList<>();

        Sink(final Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            arrivals.add(sim.nowPs());
        }

        @Override
        public String name() {
            return "sink";
        }
    }

    @Test
    void seesEveryFrameAtTheStartOfItsSerialisationAfterThePortsOwnHook() {
        final Simulator sim = new Simulator();
        // 100 Gb/s, 1 us propagation
        final QueuePort port = new QueuePort(sim, 100_000_000_000L, 1_000_000);
        final Sink sink = new Sink(sim);
        port.connect(sink, 0);
        final List<long[]> seen = new ArrayList<>();
        final PacketObserver observer = (p, frame, timePs) -> {
            assertSame(port, p);
            seen.add(new long[] {timePs, frame.psn, frame.txTimestampNs});
        };
        port.setPacketObserver(observer);
        assertSame(observer, port.packetObserver());
        for (int i = 0; i < 3; i++) {
            final Packet f = new Packet();
            f.psn = i;
            f.frameBytes = 1086;
            port.queue.add(f);
        }
        port.kick();
        sim.runUntil(Long.MAX_VALUE);
        // serialisation of 1086 + 20 (preamble, IFG) bytes at 100 Gb/s = 8848 bits / 1e11 = 88,480 ps:
        // starts at 0, 88,480 and 176,960 ps; arrivals one propagation (1,000,000 ps) after each end
        assertEquals(3, seen.size());
        assertEquals(0L, seen.get(0)[0]);
        assertEquals(88_480L, seen.get(1)[0]);
        assertEquals(176_960L, seen.get(2)[0]);
        for (int i = 0; i < 3; i++) {
            assertEquals(i, seen.get(i)[1]);
            assertEquals(7, seen.get(i)[2], "the port's onTransmitStart ran first");
        }
        assertEquals(List.of(1_088_480L, 1_176_960L, 1_265_440L), sink.arrivals);
    }

    @Test
    void noObserverByDefaultAndClearingStopsIt() {
        final Simulator sim = new Simulator();
        final QueuePort port = new QueuePort(sim, 10_000_000_000L, 0);
        port.connect(new Sink(sim), 0);
        assertNull(port.packetObserver());
        final int[] count = {0};
        port.setPacketObserver((p, f, t) -> count[0]++);
        final Packet a = new Packet();
        a.frameBytes = 64;
        port.queue.add(a);
        port.kick();
        sim.runUntil(Long.MAX_VALUE);
        port.setPacketObserver(null);
        final Packet b = new Packet();
        b.frameBytes = 64;
        port.queue.add(b);
        port.kick();
        sim.runUntil(Long.MAX_VALUE);
        // one frame seen while the observer was set; the second frame still went out
        assertEquals(1, count[0]);
        assertEquals(2, port.txFrames());
    }
}
