package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Packet trimming at a full egress data queue and ECN at dequeue, as uet-htsim's switch does
 * ({@link PacketTrimmer}, {@link WredEcnStage#onDequeue}), against hand-derived outcomes.
 *
 * <p>Set-up: switch {@code sw}, ports 0 and 1 face senders, port 2 the receiver (100 Gb/s, 1 us);
 * 1000-byte data packets on lossy priority 3 (DSCP 24), PSN = arrival order, alternating between
 * ingress ports 0 and 1 one serialisation time (81.6 ns with preamble and gap) apart. The
 * receiver's PFC frame holds port 2's transmitter until the test resumes it, so the queues fill
 * exactly as the arrivals say.
 */
class TrimmingTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP_PS = 1_000_000;
    private static final long SLOT_PS = 81_600;
    private static final long SEED = 5;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();
    private final Wire wire = new Wire();
    private final TestDevices.Injector[] in = new TestDevices.Injector[2];
    private SwitchAsic sw;
    private int psn;

    /** The receiver: what arrives on port 2's link, in order. */
    private final class Wire implements NetDevice {
        final List<Integer> psns = new ArrayList<>();
        final List<Boolean> trimmed = new ArrayList<>();
        final List<Integer> bytes = new ArrayList<>();
        final List<Boolean> ce = new ArrayList<>();

        @Override
        public void receive(final Packet p, final int inPort) {
            if (p.kind == Packet.KIND_DATA) {
                psns.add(p.psn);
                trimmed.add(p.trimmed);
                bytes.add(p.frameBytes);
                ce.add(p.ecn == Packet.ECN_CE);
            }
            pool.release(p);
        }

        @Override
        public String name() {
            return "rx";
        }
    }

    private SwitchConfig trimming(final long queueLimitBytes) {
        final SwitchConfig c = new SwitchConfig();
        c.trimmingEnabled = true;
        c.dataQueueLimitBytes = queueLimitBytes;
        return c;
    }

    /** Builds the switch with port 2's transmitter held by a PFC pause. */
    private void build(final SwitchConfig c) {
        build(c, SEED);
    }

    private void build(final SwitchConfig c, final long seed) {
        sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, seed);
        sw.connectPort(0, RATE, PROP_PS, new TestDevices.Sink(pool, "tx0"), 0);
        sw.connectPort(1, RATE, PROP_PS, new TestDevices.Sink(pool, "tx1"), 0);
        sw.connectPort(2, RATE, PROP_PS, wire, 0);
        sw.setRoute(9, new int[] {2});
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        in[0] = new TestDevices.Injector(sw);
        in[1] = new TestDevices.Injector(sw);
    }

    /** {@code n} more packets of {@code bytes}, alternating ingress ports, one slot apart from {@code startPs}. */
    private long arrive(final long startPs, final int n, final int bytes, final int ecn) {
        long t = startPs;
        for (int i = 0; i < n; i++) {
            final Packet p = TestDevices.data(pool, 0, 9, 24, ecn, bytes, 4000 + psn);
            p.psn = psn;
            p.payloadBytes = bytes - 66;
            in[psn & 1].deliverAt(sim, t, p, psn & 1);
            psn++;
            t += SLOT_PS;
        }
        return t;
    }

    private void resumeAt(final long ps) {
        final Packet xon = TestDevices.pfc(pool, 1 << 3, 0);
        in[0].deliverAt(sim, ps, xon, 2);
    }

    private long trimCounter(final String name) {
        return counters.value("sw/port2/trim", name);
    }

    /**
     * The first scenario seed (from 1) whose trim stream {@code RngStreams.stream(seed, "switch/sw/trim")}
     * tosses the given sides ({@code nextDouble() < 0.5} = the tail): the coin forced by choice of seed.
     */
    private static long seedTossing(final boolean... tails) {
        for (long seed = 1; ; seed++) {
            final SplittableRandom r = RngStreams.stream(seed, "switch/sw/trim");
            boolean all = true;
            for (final boolean t : tails) {
                all &= (r.nextDouble() < 0.5) == t;
            }
            if (all) {
                return seed;
            }
        }
    }

    @Test
    void aFullQueueTrimsTheArrivingPacketsWhenTheCoinSaysSo() {
        // queue of 4 packets (4000 B); 7 arrive: PSN 0..3 fill it, 4, 5, 6 find it full and are cut to
        // 64-byte headers. Released, the headers go first (strict priority), then 0..3 whole.
        build(trimming(4000), seedTossing(false, false, false));
        final long end = arrive(0, 7, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertEquals(4000, sw.queueDepthBytes(2, 3));
        assertEquals(3, trimCounter("trimmed_packets"));
        assertEquals(0, trimCounter("trimmed_tail_packets"));
        assertEquals(3, trimCounter("header_enqueued_packets"));
        assertEquals(3 * 64, trimCounter("peak_header_queue_bytes"));
        assertEquals(0, counters.value("sw/port2/q3", "tail_drops"));
        assertEquals(4, counters.value("sw/port2/q3", "enqueued_packets"));
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        assertEquals(List.of(4, 5, 6, 0, 1, 2, 3), wire.psns);
        assertEquals(List.of(true, true, true, false, false, false, false), wire.trimmed);
        assertEquals(List.of(64, 64, 64, 1000, 1000, 1000, 1000), wire.bytes);
        assertEquals(4, counters.value("sw/port2/q3", "dequeued_packets"), "headers are not data dequeues");
        assertEquals(0, pool.outstanding());
        assertEquals(0, sw.totalDrops());
    }

    @Test
    void aFullQueueTrimsItsTailWhenTheCoinSaysSoAndTheArrivalTakesItsPlace() {
        // 4 fill the queue [0 1 2 3]; 4 arrives: tail 3 cut, [0 1 2 4]; 5: tail 4 cut, [0 1 2 5]; 6: [0 1 2 6]
        build(trimming(4000), seedTossing(true, true, true));
        final long end = arrive(0, 7, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertEquals(4000, sw.queueDepthBytes(2, 3));
        assertEquals(3, trimCounter("trimmed_packets"));
        assertEquals(3, trimCounter("trimmed_tail_packets"));
        assertEquals(7, counters.value("sw/port2/q3", "enqueued_packets"));
        assertEquals(4000, sw.sharedUsedBytes(), "the tails' buffer was freed, headers hold none");
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        assertEquals(List.of(3, 4, 5, 0, 1, 2, 6), wire.psns);
        assertEquals(List.of(true, true, true, false, false, false, false), wire.trimmed);
        assertEquals(0, pool.outstanding());
    }

    @Test
    void theSeededCoinDecidesEachFullArrival() {
        // The switch's trim stream: the first five draws of RngStreams.stream(5, "switch/sw/trim") are
        // < 0.5 (tail) for exactly [true, true, false, true, false] (checked here, so the derivation
        // below stands on that sequence). Queue of 3: [0 1 2]; 3 arrives: tail -> cut 2, [0 1 3];
        // 4: tail -> cut 3, [0 1 4]; 5: arriving cut; 6: tail -> cut 4, [0 1 6]; 7: arriving cut.
        // Headers in the order cut: 2 3 5 4 7, then the data 0 1 6.
        final SplittableRandom oracle = RngStreams.stream(SEED, "switch/sw/trim");
        final boolean[] tails = new boolean[5];
        for (int i = 0; i < 5; i++) {
            tails[i] = oracle.nextDouble() < 0.5;
        }
        assertEquals("[true, true, false, true, false]", java.util.Arrays.toString(tails));
        build(trimming(3000));
        final long end = arrive(0, 8, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertEquals(5, trimCounter("trimmed_packets"));
        assertEquals(3, trimCounter("trimmed_tail_packets"));
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        assertEquals(List.of(2, 3, 5, 4, 7, 0, 1, 6), wire.psns);
        assertEquals(List.of(true, true, true, true, true, false, false, false), wire.trimmed);
    }

    @Test
    void aHeaderArrivingWhileDataWaitsOvertakesIt() {
        // Queue of 4, coin on the arriving packet. 4 packets wait; released at t0, PSN 0 starts at once
        // (81.6 ns on the wire). During it PSN 4 arrives (t0 + 10 ns) and joins [1 2 3] (4000), and PSN 5
        // (t0 + 20 ns) finds the queue full and is cut: its header leaves right after 0, ahead of 1 2 3 4.
        build(trimming(4000), seedTossing(false));
        final long t0 = arrive(0, 4, 1000, Packet.ECN_ECT0);
        resumeAt(t0);
        arrive(t0 + 10_000, 1, 1000, Packet.ECN_ECT0);
        arrive(t0 + 20_000, 1, 1000, Packet.ECN_ECT0);
        sim.runUntil(t0 + 10_000_000);
        assertEquals(List.of(0, 5, 1, 2, 3, 4), wire.psns);
        assertEquals(List.of(false, true, false, false, false, false), wire.trimmed);
    }

    @Test
    void aPacketThatArrivesTrimmedGoesToTheHeaderQueueWithoutATrim() {
        build(trimming(4000));
        final long t = arrive(0, 2, 1000, Packet.ECN_ECT0);
        final Packet h = TestDevices.data(pool, 0, 9, 24, Packet.ECN_ECT0, 64, 1);
        h.trimmed = true;
        h.psn = 77;
        in[0].deliverAt(sim, t, h, 0);
        sim.runUntil(t + SLOT_PS);
        assertEquals(0, trimCounter("trimmed_packets"));
        assertEquals(1, trimCounter("header_enqueued_packets"));
        assertEquals(2000, sw.queueDepthBytes(2, 3));
        resumeAt(t + SLOT_PS);
        sim.runUntil(t + 10_000_000);
        assertEquals(List.of(77, 0, 1), wire.psns);
        assertEquals(0, counters.value("sw/port2/q3", "ecn_marked_packets"));
    }

    @Test
    void theHeaderQueueDropsAboveTwiceTheDataQueueLimit() {
        // Data queue of 1000 B: PSN 0 fills it; each of the next 40 makes one 64-byte header, whichever
        // side the coin takes (the arrival, or the one packet in the queue, which the arrival replaces).
        // The header queue takes a header iff its bytes + 64 <= 2 x 1000: 31 fit (31 x 64 = 1984;
        // 32 x 64 = 2048 > 2000), 9 are dropped.
        build(trimming(1000));
        final long end = arrive(0, 41, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertEquals(40, trimCounter("trimmed_packets"));
        assertEquals(31, trimCounter("header_enqueued_packets"));
        assertEquals(9, trimCounter("header_queue_drops"));
        assertEquals(1984, trimCounter("peak_header_queue_bytes"));
        assertEquals(9, sw.totalDrops());
        assertEquals(9, PortStatistics.drops(sw, 2));
        assertEquals(40, PortStatistics.trimmedPackets(sw, 2));
        assertEquals(32, pool.outstanding(), "1 data packet and 31 headers wait");
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        assertEquals(32, wire.psns.size());
        assertEquals(31, wire.trimmed.stream().filter(b -> b).count());
        assertFalse(wire.trimmed.get(31), "the data packet leaves after every header");
    }

    @Test
    void theSharedBufferLimitIsFullToo() {
        // No fixed queue size: the static egress limit of priority 3 (3500 B) makes the queue full. Coin
        // on the tail both times. [0 1 2] = 3000; a 2000-byte arrival cannot take the 1000-byte tail's
        // place (3000 - 1000 + 2000 = 4000 > 3500): it is cut itself; a 1500-byte one can (3500 fits).
        final SwitchConfig c = new SwitchConfig();
        c.trimmingEnabled = true;
        c.egressThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.queueLimitBytes[3] = 3500;
        build(c, seedTossing(true, true));
        long t = arrive(0, 3, 1000, Packet.ECN_ECT0);
        t = arrive(t, 1, 2000, Packet.ECN_ECT0); // PSN 3: tail 2 stays, 3 is cut
        t = arrive(t, 1, 1500, Packet.ECN_ECT0); // PSN 4: tail 2 cut, [0 1 4] = 3500
        sim.runUntil(t);
        assertEquals(3500, sw.queueDepthBytes(2, 3));
        assertEquals(2, trimCounter("trimmed_packets"));
        assertEquals(1, trimCounter("trimmed_tail_packets"));
        resumeAt(t);
        sim.runUntil(t + 10_000_000);
        assertEquals(List.of(3, 2, 0, 1, 4), wire.psns);
    }

    @Test
    void ecnAtDequeueMarksOnTheDepthLeftBehind() {
        // Kmin 2000, Kmax 6000, Pmax 1, no trimming. 8 ECT packets wait (no mark at arrival, though the
        // depth passes Kmax). Released, packet i leaves q = (7 - i) x 1000 behind: i = 0 (7000 > Kmax) and
        // 1 (6000 = Kmax) are marked; 2, 3, 4 with p = 0.75, 0.5, 0.25, one draw each of the WRED stream in
        // that order; 5 (q = Kmin), 6, 7 never.
        final SwitchConfig c = new SwitchConfig();
        c.ecnAtDequeue = true;
        c.wredProfiles[3] = new WredProfile(2000, 6000, 1.0, true, WredProfile.NEVER_DROP);
        build(c);
        final long end = arrive(0, 8, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertEquals(0, counters.value("sw/port2/q3", "ecn_marked_packets"));
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        final SplittableRandom oracle = RngStreams.stream(SEED, "switch/sw/wred");
        final List<Boolean> expected = new ArrayList<>(List.of(true, true));
        for (final double p : new double[] {0.75, 0.5, 0.25}) {
            expected.add(oracle.nextDouble() < p);
        }
        expected.addAll(List.of(false, false, false));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), wire.psns);
        assertEquals(expected, wire.ce);
        assertEquals(expected.stream().filter(b -> b).count(), counters.value("sw/port2/q3", "ecn_marked_packets"));
        assertEquals(expected.stream().filter(b -> b).count(), sw.totalCeMarked());
    }

    @Test
    void ecnAtArrivalIsTodaysRule() {
        // the same arrivals with ECN at arrival: packet i sees q = 1000 i; 6 and 7 (q >= Kmax) are marked,
        // 0, 1, 2 (q <= Kmin) never
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(2000, 6000, 1.0, true, WredProfile.NEVER_DROP);
        build(c);
        final long end = arrive(0, 8, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        resumeAt(end);
        sim.runUntil(end + 10_000_000);
        assertEquals(List.of(false, false, false), wire.ce.subList(0, 3));
        assertEquals(List.of(true, true), wire.ce.subList(6, 8));
    }

    @Test
    void withTrimmingOffNothingIsRegisteredAndFullQueuesTailDrop() {
        final SwitchConfig c = new SwitchConfig();
        c.dataQueueLimitBytes = 4000;
        build(c);
        final long end = arrive(0, 7, 1000, Packet.ECN_ECT0);
        sim.runUntil(end);
        assertFalse(counters.has("sw/port2/trim", "trimmed_packets"));
        assertEquals(3, counters.value("sw/port2/q3", "tail_drops"));
        assertEquals(-1, PortStatistics.trimmedPackets(sw, 2));
    }

    @Test
    void theConfigurationChecksItsTrimmingFields() {
        final SwitchConfig a = new SwitchConfig();
        a.trimHeaderBytes = 63;
        assertThrows(IllegalArgumentException.class, a::validate);
        final SwitchConfig b = new SwitchConfig();
        b.dataQueueLimitBytes = -1;
        assertThrows(IllegalArgumentException.class, b::validate);
        final SwitchConfig d = new SwitchConfig();
        d.trimmingEnabled = true;
        d.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        assertThrows(IllegalArgumentException.class, d::validate);
    }
}
