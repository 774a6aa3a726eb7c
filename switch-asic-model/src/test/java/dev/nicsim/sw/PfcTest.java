package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PFC xoff/xon per (ingress port, PG) and headroom ("Understanding DCQCN"): source --100G, 1 us--> switch port 0;
 * switch port 1 --> sink. Priority 3 (DSCP 24) is lossless, 1000-byte frames.
 *
 * <p>Timeline used throughout (T = (1000 + 20) x 8 / 100 Gb/s = 81 600 ps, prop = 1 000 000 ps):
 * the source starts frame j at j T; it arrives whole at the switch at (j + 1) T + prop.
 */
class PfcTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final long T = 81_600;
    private static final int BYTES = 1000;
    private static final String PG = "sw/port0/pg3";
    private static final String Q_OUT = "sw/port1/q3";

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();
    private TestDevices.Source src;
    private TestDevices.Sink sink;
    private SwitchAsic sw;

    private SwitchConfig staticConfig(final long headroomBytes) {
        final SwitchConfig c = new SwitchConfig();
        c.pfcEnabled[3] = true;
        c.pfcThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.xoffBytes[3] = 10_000;
        c.xonBytes[3] = 5_000;
        c.headroomBytes[3] = headroomBytes;
        c.maxFrameBytes = BYTES;
        return c;
    }

    private void build(final SwitchConfig c, final long egressRate) {
        sw = new SwitchAsic(sim, "sw", 2, c, counters, pool, 7);
        src = new TestDevices.Source(sim, pool, "h0", RATE, PROP);
        src.srcHost = 0;
        src.dstHost = 1;
        src.dscp = 24;
        src.port.connect(sw, 0);
        sink = new TestDevices.Sink(pool, "h1");
        sw.connectPort(0, RATE, PROP, src, 0);
        sw.connectPort(1, egressRate, PROP, sink, 0);
        sw.setRoute(1, new int[] {1});
    }

    /** Pauses the switch's egress toward the sink (priority 3) at t = 0, as if the sink had sent XOFF. */
    private void pauseEgress() {
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 1);
    }

    private void resumeEgressAt(final long timePs) {
        new TestDevices.Injector(sw).deliverAt(sim, timePs, TestDevices.pfc(pool, 1 << 3, 0), 1);
    }

    private long counter(final String component, final String name) {
        return counters.value(component, name);
    }

    @Test
    void xoffExactlyWhenPgReachesXoffAndXonWhenItFallsToXon() {
        // headroom from the formula: 2 x 1 us x 100 Gb/s / 8 + 2 x 1020 + 84 + 1000 (the frame that
        // crosses xoff) = 28 124 bytes
        build(staticConfig(SwitchConfig.HEADROOM_AUTO), RATE);
        assertEquals(28_124, sw.headroomLimitBytes(0, 3));
        pauseEgress();
        src.send(100);

        // frame j = 9 (the 10th) arrives at 10 T + prop = 1 816 000 ps and brings the PG to 10 000 = xoff
        sim.runUntil(10 * T + PROP - 1);
        assertEquals(9_000, sw.pgBytes(0, 3));
        assertEquals(0, counter(PG, "pfc_xoff_sent"));
        sim.runUntil(10 * T + PROP);
        assertEquals(10_000, sw.pgBytes(0, 3));
        assertEquals(1, counter(PG, "pfc_xoff_sent"));
        assertTrue(sw.isXoff(0, 3));

        // The XOFF leaves at once (port 0 idle), 64 + 20 bytes = 6 720 ps, then 1 us: it reaches the source at
        // 1 816 000 + 6 720 + 1 000 000 = 2 822 720 ps. Frames started before that: j T < 2 822 720, j <= 34,
        // so 35 frames are sent; frames 11..35 (25 000 bytes) land in headroom.
        sim.runUntil(4_000_000);
        assertEquals(1, src.pfcFramesReceived);
        assertEquals(35, src.sent);
        assertEquals(35_000, sw.pgBytes(0, 3));
        assertEquals(25_000, sw.headroomUsedBytes(0, 3));
        assertEquals(25_000, counter(PG, "peak_headroom_bytes"));
        assertEquals(0, counter(Q_OUT, "headroom_drops"));

        // Egress resumes at 5 us and starts a frame every T, freeing headroom first. After the (j + 1)-th start the
        // PG holds 35 000 - 1000 (j + 1); headroom is empty from j = 24 on; PG <= xon = 5 000 first at j = 29:
        // XON at 5 000 000 + 29 T = 7 366 400 ps.
        resumeEgressAt(5_000_000);
        sim.runUntil(5_000_000 + 29 * T - 1);
        assertEquals(0, counter(PG, "pfc_xon_sent"));
        assertEquals(6_000, sw.pgBytes(0, 3));
        sim.runUntil(5_000_000 + 29 * T);
        assertEquals(1, counter(PG, "pfc_xon_sent"));
        assertEquals(5_000, sw.pgBytes(0, 3));
        assertFalse(sw.isXoff(0, 3));

        // the source resumes and, with egress rate = ingress rate, never builds a queue again: lossless delivery
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(100, sink.packets);
        assertEquals(0, sw.totalDrops());
        assertEquals(1, counter(PG, "pfc_xoff_sent"));
        assertEquals(1, counter(PG, "pfc_xon_sent"));
        assertEquals(2, sw.totalPauseFramesSent());
        assertEquals(2, counter(Q_OUT, "pfc_pause_received")); // the test's pause and resume
        assertEquals(0, pool.outstanding(), "every packet and PFC frame went back to the pool");
    }

    @ParameterizedTest(name = "headroom {0} B -> {1} drops")
    @CsvSource({
        // in flight during the pause round trip: frames 11..35 = 25 000 bytes (derivation above)
        "28124, 0", // the formula's headroom covers it
        "25000, 0", // exactly what is in flight
        "24999, 1", // one byte short: frame 35 does not fit
        "20000, 5", // frames 11..30 fit (20 000 bytes), 31..35 dropped
    })
    void headroomAbsorbsWhatIsInFlightDuringOnePauseRoundTrip(final long headroom, final int drops) {
        build(staticConfig(headroom), RATE);
        pauseEgress();
        src.send(100);
        sim.runUntil(4_000_000);
        assertEquals(35, src.sent);
        assertEquals(drops, counter(Q_OUT, "headroom_drops"));
        assertEquals(drops, sw.totalDrops());
        assertEquals(35_000 - 1000L * drops, sw.pgBytes(0, 3));
        assertEquals(1, counter(PG, "pfc_xoff_sent"));
    }

    @Test
    void pauseIsRefreshedWhileAboveXon() {
        build(staticConfig(SwitchConfig.HEADROOM_AUTO), RATE);
        pauseEgress(); // egress paused 0xFFFF x 512 bit / 100 Gb/s = 335 539 200 ps
        src.send(100);
        // XOFF at 1 816 000; refresh every 335 539 200 / 2 = 167 769 600 ps: next XOFF at 169 585 600
        sim.runUntil(1_816_000 + 167_769_600 - 1);
        assertEquals(1, counter(PG, "pfc_xoff_sent"));
        sim.runUntil(1_816_000 + 167_769_600);
        assertEquals(2, counter(PG, "pfc_xoff_sent"));
        // Without the refresh the source's pause (from 2 822 720) would end at 2 822 720 + 335 539 200 =
        // 338 361 920 ps; the refresh (arriving at 169 585 600 + 6 720 + 1 000 000) extends it past that.
        // (The egress pause ends at 335 539 200; 35 frames drain, XON at 335 539 200 + 29 T = 337 905 600,
        // reaching the source at 338 912 320.)
        sim.runUntil(338_500_000);
        assertEquals(35, src.sent);
        assertEquals(1, counter(PG, "pfc_xon_sent"));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(100, sink.packets);
        assertEquals(0, sw.totalDrops());
    }

    @Test
    void dynamicThresholdFollowsFreeSharedBuffer() {
        // shared pool S = 190 000 - 2 ports x 50 000 headroom = 90 000; alpha = 1/8.
        // xoff when PG >= (S - PG) / 8, i.e. 9 PG >= 90 000, PG >= 10 000: the 10th frame again.
        // xon when PG + 3 072 <= (S - PG) / 8, i.e. 9 PG <= 65 424, PG <= 7 000 (multiples of 1000):
        // after 28 departures, j = 27: at 5 000 000 + 27 T = 7 203 200 ps.
        final SwitchConfig c = new SwitchConfig();
        c.pfcEnabled[3] = true;
        c.pfcThresholdMode = SwitchConfig.ThresholdMode.DYNAMIC;
        c.pfcAlpha = 0.125;
        c.pfcXonOffsetBytes = 3072;
        c.headroomBytes[3] = 50_000;
        c.bufferBytes = 190_000;
        build(c, RATE);
        assertEquals(90_000, sw.sharedPoolBytes());
        pauseEgress();
        src.send(100);
        sim.runUntil(10 * T + PROP - 1);
        assertEquals(0, counter(PG, "pfc_xoff_sent"));
        sim.runUntil(10 * T + PROP);
        assertEquals(1, counter(PG, "pfc_xoff_sent"));
        sim.runUntil(4_000_000);
        assertEquals(25_000, sw.headroomUsedBytes(0, 3));
        assertEquals(10_000, sw.sharedUsedBytes());
        resumeEgressAt(5_000_000);
        sim.runUntil(5_000_000 + 27 * T - 1);
        assertEquals(0, counter(PG, "pfc_xon_sent"));
        sim.runUntil(5_000_000 + 27 * T);
        assertEquals(1, counter(PG, "pfc_xon_sent"));
        assertEquals(7_000, sw.pgBytes(0, 3));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(100, sink.packets);
    }

    @Test
    void slowEgressIsLosslessWithPfcAndDropsWithout() {
        // 100 Gb/s in, 10 Gb/s out, 2 000 frames: the queue must build ~90 % of what arrives.
        build(staticConfig(SwitchConfig.HEADROOM_AUTO), 10_000_000_000L);
        src.send(2_000);
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(2_000, sink.packets);
        assertEquals(0, sw.totalDrops());
        assertTrue(counter(PG, "pfc_xoff_sent") >= 1);
        assertTrue(counter(PG, "pfc_xon_sent") >= 1);
        assertFalse(sw.isXoff(0, 3));
        assertTrue(counter(PG, "peak_headroom_bytes") <= sw.headroomLimitBytes(0, 3));
        // the queue never exceeds xoff + headroom
        assertTrue(sw.peakQueueBytes() <= 10_000 + sw.headroomLimitBytes(0, 3));
        assertEquals(0, pool.outstanding());
    }

    @Test
    void slowEgressWithoutPfcTailDrops() {
        final SwitchConfig c = new SwitchConfig();
        c.egressThresholdMode = SwitchConfig.ThresholdMode.STATIC;
        c.queueLimitBytes[3] = 20_000;
        build(c, 10_000_000_000L);
        src.send(2_000);
        sim.runUntil(Long.MAX_VALUE);
        final long drops = counter(Q_OUT, "tail_drops");
        assertTrue(drops > 0);
        assertEquals(2_000, sink.packets + drops, "every packet is delivered or counted as dropped");
        assertEquals(0, src.pfcFramesReceived);
        assertTrue(sw.peakQueueBytes() <= 20_000);
        assertEquals(0, pool.outstanding());
    }
}
