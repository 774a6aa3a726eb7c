package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latched harmful set of a root congestion point ({@link RcmConfig#latchHarmfulSet}, the RCM paper
 * §3.2 "Once a RCP is reported, it starts congestion control (RCC) to the flows recognized by CFR",
 * §3.4 "Once the congestion state disappears, the window-based congestion control will quit"): the
 * flows the CAM names when the output's RCC window starts controlling stay the harmful set, even
 * when the CAM then fills with another flow, until RCC quits.
 *
 * <p>Input-output-queued switch, ports 0 (flow X) and 1 (flow Y) feed port 2, which a PFC pause
 * holds so that every packet stays where the scheduler put it. Output queue and VOQs 100 000 bytes
 * (every head fits), 1000-byte frames, lossy priority 3. CAM depth 4 writing every arrival
 * ({@code camCongestedBytes = 0}, cyclic: entry 0, 1, 2, 3, 0, ...), {@code harmfulMinEntries = 2}.
 * Output congestion point: Q_eq = 2 000, w_q = 1, so F_bmax = 2 000 x (1 + 2 x 1) = 6 000 and the
 * 6-bit code is ceil(F_b x 63 / 6 000); sampleBytes = 1 000 so every 1000-byte packet entering the
 * output queue is sampled (the interval only shrinks with F_b). With the queue growing by one frame
 * per packet, the n-th packet in the queue samples F_b = (n x 1 000 - 2 000) + (1 000) = (n - 1) x
 * 1 000: n = 1: 0 (not congested); 2: 1 000 -> code 11; 3: 2 000 -> 21; 4: 32; 5: 42; 6: 53 (52.5 up);
 * 7 and more: 63. G_d auto = 1/126, so W_c = floor(W_c0 x (126 - code) / 126). T = 2 us.
 */
class RccLatchTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final int DSCP3 = 24;
    /** Output queue index of (port 2, priority 3). */
    private static final int Q = 2 * SwitchConfig.PRIORITIES + 3;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    private SwitchAsic build(final boolean latch) {
        final SwitchConfig c = new SwitchConfig();
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        c.voqBytes = 100_000;
        c.outputQueueBytes = 100_000;
        c.maxFrameBytes = 1000;
        c.camDepth = 4;
        c.camSamplePeriod = 1;
        c.camCongestedBytes = 0;
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.regionalControl = true;
        c.rcm.latchHarmfulSet = latch;
        c.rcm.harmfulMinEntries = 2;
        c.rcm.qEqBytes = 2_000;
        c.rcm.wq = 1.0;
        c.rcm.sampleBytes = 1_000;
        c.rcm.windowPeriodPs = 2_000_000;
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, 11);
        sw.connectPort(0, RATE, PROP, new TestDevices.Sink(pool, "sx"), 0);
        sw.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "sy"), 0);
        sw.connectPort(2, RATE, PROP, new TestDevices.Sink(pool, "dst"), 0);
        sw.setRoute(2, new int[] {2});
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2); // port 2 holds everything (335 us)
        return sw;
    }

    private Packet x() {
        return TestDevices.data(pool, 0, 2, DSCP3, Packet.ECN_ECT0, 1000, 100);
    }

    private Packet y() {
        return TestDevices.data(pool, 1, 2, DSCP3, Packet.ECN_ECT0, 1000, 200);
    }

    /**
     * t = 0: X1..X3 enter the output queue. X2's sample (code 11) starts RCC measuring; X3's gate
     * finds X in 3 of 4 CAM entries, so X3's 1 000 bytes are the harmful bytes of the first window.
     * t = 2 us: Y1 arrives; its gate ends the first window: W_c0 = 1 000, CONTROLLING, and latches the
     * CAM's harmful flows then: CAM = [X, X, X, Y], X has 3 entries (>= 2), Y 1: the set is {X}.
     */
    private void startEpisode(final SwitchAsic sw) {
        sw.receive(x(), 0);
        sw.receive(x(), 0);
        sw.receive(x(), 0);
        assertEquals(RccWindow.MEASURING, sw.rcm().window(2, 3).state());
        assertEquals(1_000, sw.rcm().window(2, 3).harmfulBytes());
        sim.runUntil(2_000_000);
        sw.receive(y(), 1);
    }

    @Test
    void harmfulSetStaysLatchedWhileTheCamChangesAndIsReleasedWhenRccQuits() {
        final SwitchAsic sw = build(true);
        final int keyX = keyX();
        final int keyY = keyY();
        startEpisode(sw);
        final RccWindow win = sw.rcm().window(2, 3);
        assertEquals(RccWindow.CONTROLLING, win.state());
        assertEquals(1, sw.rcm().latchedFlowCount(Q));
        assertEquals(keyX, sw.rcm().latchedFlowKey(Q, 0));
        // Y1 is not harmful: it entered the output queue (4th packet: code 32, W_c = 1 000 x 94 / 126 = 746)
        assertEquals(0, sw.voqDepthBytes(1, 2, 3));
        assertEquals(746, win.wcBytes());

        // Y2..Y4 overwrite CAM entries 0..2: CAM = [Y, Y, Y, Y]; the live CAM would name Y (4 entries)
        // and not X (0), but the latched set is still {X}, so none of them is held
        sw.receive(y(), 1);
        sw.receive(y(), 1);
        sw.receive(y(), 1);
        assertTrue(sw.isHarmfulFlow(2, 3, keyX), "X stays harmful though it has no CAM entry left");
        assertFalse(sw.isHarmfulFlow(2, 3, keyY), "Y is not harmful though it fills the CAM");
        assertEquals(0, sw.voqDepthBytes(1, 2, 3));
        assertEquals(7_000, sw.queueDepthBytes(2, 3)); // X1-X3, Y1-Y4
        // the 7th packet's sample is code 63: W_c = 1 000 x 63 / 126 = 500
        assertEquals(500, win.wcBytes());

        // X4 (CAM entry 3) passes: 0 harmful bytes in the window [2 us, 4 us) < 500; X5 (CAM entry 0)
        // is held: 1 000 >= 500. The latched set is unchanged: {X}.
        sw.receive(x(), 0);
        sw.receive(x(), 0);
        assertEquals(1_000, sw.voqDepthBytes(0, 2, 3));
        assertEquals(8_000, sw.queueDepthBytes(2, 3));
        assertEquals(1, sw.rcm().latchedFlowCount(Q));
        assertEquals(keyX, sw.rcm().latchedFlowKey(Q, 0));

        // Resume port 2 at 2 us: the 8 queued frames leave; X5 waits for the next window (the output's
        // last sample, code 63, still says congested). At 4 us the window timer lets X5 in; it is alone
        // in the output queue: F_b = (1 000 - 2 000) + (1 000 - 8 000) = -8 000 <= 0, congestion has
        // cleared, RCC quits and the latch is released.
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0), 2);
        sim.runUntil(3_999_999);
        assertEquals(RccWindow.CONTROLLING, win.state());
        assertEquals(1, sw.rcm().latchedFlowCount(Q));
        sim.runUntil(4_000_000);
        assertEquals(RccWindow.IDLE, win.state());
        assertEquals(-1, sw.rcm().latchedFlowCount(Q));
        assertEquals(1_000, counters.value("sw/port2/rcm", "rcm_held_bytes"));
        // released: "harmful" is the live CAM again. X5 went onto the wire at once, so the output queue
        // and its VOQs drained empty and the CAM was invalidated (end of the episode): it names nothing,
        // and X, which the latch named until now, is no longer harmful
        assertFalse(sw.isHarmfulFlow(2, 3, keyX));
        assertFalse(sw.isHarmfulFlow(2, 3, keyY));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(0, pool.outstanding());
    }

    @Test
    void withoutTheLatchTheLiveCamMovesTheHarmfulSetToTheOtherFlow() {
        final SwitchAsic sw = build(false);
        startEpisode(sw);
        // Y1: CAM [X, X, X, Y], Y has 1 entry: passes (code 32, W_c = 746).
        // Y2: CAM [Y, X, X, Y], 2 entries: harmful, 0 harmful bytes in the window < 746: passes (code 42,
        //     W_c = 1 000 x 84 / 126 = 666).
        // Y3: CAM [Y, Y, X, Y]: harmful, 1 000 >= 666: held; Y4 waits behind it.
        sw.receive(y(), 1);
        sw.receive(y(), 1);
        sw.receive(y(), 1);
        assertEquals(-1, sw.rcm().latchedFlowCount(Q));
        assertEquals(2_000, sw.voqDepthBytes(1, 2, 3));
        assertEquals(5_000, sw.queueDepthBytes(2, 3)); // X1-X3, Y1, Y2
        assertFalse(sw.isHarmfulFlow(2, 3, keyX()), "X has no CAM entry left: [Y, Y, Y, Y]");
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(0, pool.outstanding());
    }

    /** The key of X's packets (SwitchAsic.flowKey), from a packet released at once. */
    private int keyX() {
        final Packet p = x();
        final int key = SwitchAsic.flowKey(p);
        pool.release(p);
        return key;
    }

    /** The key of Y's packets. */
    private int keyY() {
        final Packet p = y();
        final int key = SwitchAsic.flowKey(p);
        pool.release(p);
        return key;
    }
}
