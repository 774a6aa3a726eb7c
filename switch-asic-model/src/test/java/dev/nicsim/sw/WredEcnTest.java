package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WRED/ECN on the instantaneous egress queue: the LDCP draft §2.1 (marking probability) and §2.3 Eq. (3)
 * (Not-ECT drop at K).
 */
class WredEcnTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000; // 1 us
    private static final int BYTES = 1000;
    /** Serialisation of a 1000-byte frame at 100 Gb/s: (1000 + 20) * 8 bit / 1e11 b/s = 81.6 ns. */
    private static final long T = 81_600;
    private static final int DSCP3 = 24; // priority 3
    private static final int IN = 0;
    private static final int OUT = 1;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    private SwitchAsic build(final SwitchConfig c, final TestDevices.Sink sink) {
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 2, c, counters, pool, 42);
        sw.connectPort(IN, RATE, PROP, new TestDevices.Sink(pool, "upstream"), 0);
        sw.connectPort(OUT, RATE, PROP, sink, 0);
        sw.setRoute(1, new int[] {OUT});
        return sw;
    }

    /**
     * Holds the priority-3 queue at a fixed depth D and sends N ECT packets through it.
     *
     * <p>At t = 0, M = D/1000 + 1 Not-ECT packets of 1000 bytes arrive at once: the first starts
     * serialisation at once (freeing its buffer), so D = (M - 1) x 1000 bytes wait. The egress then
     * starts a frame every T = 81.6 ns (j T, j = 0, 1, ...). ECT test packet k arrives at
     * T/2 + k T: by then k + 1 frames have started and M + k arrived, so it sees exactly
     * (M + k - (k + 1)) x 1000 = D bytes, whatever k is.
     */
    private long marksAtDepth(final long depthBytes, final int n) {
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(20_000, 120_000, 0.2, true, WredProfile.NEVER_DROP);
        final TestDevices.Sink sink = new TestDevices.Sink(pool, "h1");
        final SwitchAsic sw = build(c, sink);
        final int m = (int) (depthBytes / BYTES) + 1;
        for (int i = 0; i < m; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_NOT_ECT, BYTES, 7), IN);
        }
        assertEquals(depthBytes, sw.queueDepthBytes(OUT, 3));
        final TestDevices.Injector inj = new TestDevices.Injector(sw);
        for (int k = 0; k < n; k++) {
            inj.deliverAt(sim, T / 2 + k * T, TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_ECT0, BYTES, 9), IN);
        }
        sim.runUntil(T / 2 + (n - 1L) * T);
        // right after the last arrival the queue is D + 1000 (the departure at the next multiple of T is pending)
        assertEquals(depthBytes + BYTES, sw.queueDepthBytes(OUT, 3));
        sim.runUntil(Long.MAX_VALUE);
        final long marks = counters.value("sw/port1/q3", "ecn_marked_packets");
        assertEquals(marks, sink.ceMarked, "every mark reaches the receiver as CE");
        assertEquals(m + n, sink.packets, "ECN-capable packets are never dropped by WRED");
        assertEquals(marks, sw.totalCeMarked());
        return marks;
    }

    @ParameterizedTest(name = "q = {0} B")
    @CsvSource({
        // q, expected marks of N = 20 000, 4-sigma tolerance of Binomial(N, p)
        // p = (70 000 - 20 000) / 100 000 * 0.2 = 0.1: E = 2 000, sigma = sqrt(20 000 * 0.1 * 0.9) = 42.4, 4 sigma = 170
        "70000, 2000, 170",
        // p = (110 000 - 20 000) / 100 000 * 0.2 = 0.18: E = 3 600, sigma = sqrt(20 000 * 0.18 * 0.82) = 54.3, 4 sigma = 217
        "110000, 3600, 217",
        // p = (30 000 - 20 000) / 100 000 * 0.2 = 0.02: E = 400, sigma = sqrt(20 000 * 0.02 * 0.98) = 19.8, 4 sigma = 79
        "30000, 400, 79",
    })
    void markedFractionMatchesProbabilityAtFixedDepth(final long q, final long expected, final long tolerance) {
        final long marks = marksAtDepth(q, 20_000);
        assertTrue(Math.abs(marks - expected) <= tolerance, "marks " + marks + " vs " + expected + " +- " + tolerance);
    }

    @Test
    void serialisationTimeUsedAbove() {
        // (1000 + 20) bytes * 8 / 1e11 b/s = 81.6 ns
        assertEquals(T, RoceFraming.serializationPs(BYTES, RATE));
    }

    @Test
    void noMarksAtOrBelowKmin() {
        // q = 19 000 < Kmin and q = Kmin = 20 000 both give p = 0 exactly
        assertEquals(0, marksAtDepth(19_000, 2_000));
        assertEquals(0, new WredEcnTest().marksAtDepth(20_000, 2_000));
    }

    @Test
    void everyPacketMarkedAtKmax() {
        // q = Kmax = 120 000: p = 1, all 2 000 marked
        assertEquals(2_000, marksAtDepth(120_000, 2_000));
    }

    /** Pauses the egress (priority 3) so the queue only grows, then offers packets one at a time. */
    private SwitchAsic pausedSwitch(final SwitchConfig c) {
        final SwitchAsic sw = build(c, new TestDevices.Sink(pool, "h1"));
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), OUT);
        return sw;
    }

    @ParameterizedTest(name = "K = {0} B")
    @CsvSource({
        // packet k (0-based) sees q = 1000 k; admitted iff 1000 k < K (Eq. 3):
        // K = 50 000: k = 0..49 admitted (q up to 49 000), k = 50 (q = 50 000 = K) dropped, and every later
        // one too since the queue no longer grows: 50 admitted, 50 dropped
        "50000, 50, 50",
        // K = 50 500: q = 50 000 < K still admitted (51), q = 51 000 >= K dropped: 49 dropped
        "50500, 51, 49",
    })
    void notEctDroppedAtOrAboveKNeverBelow(final long k, final int admitted, final int dropped) {
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(200_000, 300_000, 0.2, true, k);
        final SwitchAsic sw = pausedSwitch(c);
        for (int i = 0; i < 100; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_NOT_ECT, BYTES, 7), IN);
        }
        assertEquals(admitted * (long) BYTES, sw.queueDepthBytes(OUT, 3));
        assertEquals(dropped, counters.value("sw/port1/q3", "wred_drops"));
        assertEquals(dropped, sw.totalDrops());
        assertEquals(admitted, pool.outstanding(), "dropped packets go back to the pool");
        // ECT packets at the same depth are not subject to K (q < Kmin = 200 000: not marked either)
        for (int i = 0; i < 10; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_ECT1, BYTES, 7), IN);
        }
        assertEquals((admitted + 10L) * BYTES, sw.queueDepthBytes(OUT, 3));
        assertEquals(0, counters.value("sw/port1/q3", "ecn_marked_packets"));
    }

    @Test
    void losslessPriorityNeverWredDrops() {
        // Same profile as above with K = 50 000, but priority 3 is PFC-enabled (static xoff far away):
        // all 100 Not-ECT packets are admitted, none WRED-dropped (documented choice in SwitchAsic).
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(20_000, 20_000, 1.0, true, 50_000);
        c.pfcEnabled[3] = true;
        c.pfcThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.xoffBytes[3] = 1_000_000;
        final SwitchAsic sw = pausedSwitch(c);
        for (int i = 0; i < 100; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_NOT_ECT, BYTES, 7), IN);
        }
        assertEquals(100_000, sw.queueDepthBytes(OUT, 3));
        assertEquals(0, sw.totalDrops());
        // ECT packets are still marked: q = 100 000 >= Kmax = 20 000, p = 1
        sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_ECT0, BYTES, 7), IN);
        assertEquals(1, counters.value("sw/port1/q3", "ecn_marked_packets"));
    }

    @Test
    void withoutEcnTheProfileDropsEctPacketsToo() {
        // ecnEnabled = false, step at 50 000 (Kmin = Kmax, p = 1 from 50 000): ECT packets are dropped, not marked;
        // packets k = 0..49 see q < 50 000 and are admitted, k = 50..99 dropped.
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(50_000, 50_000, 1.0, false, WredProfile.NEVER_DROP);
        final SwitchAsic sw = pausedSwitch(c);
        for (int i = 0; i < 100; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_ECT0, BYTES, 7), IN);
        }
        assertEquals(50_000, sw.queueDepthBytes(OUT, 3));
        assertEquals(50, counters.value("sw/port1/q3", "wred_drops"));
        assertEquals(0, counters.value("sw/port1/q3", "ecn_marked_packets"));
    }

    @Test
    void perQueueProfileOverride() {
        // Config: priority 3 marks from Kmin = Kmax = 0 (p = 1 at any depth). Port 1 is overridden to no profile.
        final SwitchConfig c = new SwitchConfig();
        c.wredProfiles[3] = new WredProfile(0, 0, 1.0, true, WredProfile.NEVER_DROP);
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, 42);
        for (int p = 0; p < 3; p++) {
            sw.connectPort(p, RATE, PROP, new TestDevices.Sink(pool, "h" + p), 0);
        }
        sw.setRoute(1, new int[] {1});
        sw.setRoute(2, new int[] {2});
        sw.setWredProfile(1, 3, null);
        for (int i = 0; i < 10; i++) {
            sw.receive(TestDevices.data(pool, 0, 1, DSCP3, Packet.ECN_ECT0, BYTES, 7), IN);
            sw.receive(TestDevices.data(pool, 0, 2, DSCP3, Packet.ECN_ECT0, BYTES, 7), IN);
        }
        assertEquals(0, counters.value("sw/port1/q3", "ecn_marked_packets"));
        assertEquals(10, counters.value("sw/port2/q3", "ecn_marked_packets"));
        assertEquals(c.wredProfiles[3], sw.wredProfile(2, 3));
    }

    @Test
    void sameSeedSameMarks() {
        // determinism: two identical runs mark exactly the same number of packets
        assertEquals(new WredEcnTest().marksAtDepth(70_000, 3_000), new WredEcnTest().marksAtDepth(70_000, 3_000));
    }
}
