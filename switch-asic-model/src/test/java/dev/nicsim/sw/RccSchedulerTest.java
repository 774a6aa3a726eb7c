package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Regional congestion control (the RCM paper §3.4) in the input-output-queued switch: the output's
 * scheduler measures the harmful flow's share for one window after a CN arrives, then lets it pass
 * at most W_c per window and serves the other input meanwhile; it quits when the CN expires.
 *
 * <p>Ports 0 (flow X) and 1 (flow Y) feed port 2 (100 Gb/s). Output queue 5 000 bytes, VOQs
 * 100 000, lossy priority 3, 1000-byte frames, T = 2 us (W = 25 000 bytes). Q_eq is set far above
 * any queue here so the switch never finds local congestion: only the CN drives RCC. A frame lasts
 * T_f = (1000 + 20) x 8 / 100 Gb/s = 81 600 ps; frame k (k = 0, 1, ...) starts at k T_f.
 */
class RccSchedulerTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final long TF = 81_600;
    private static final int DSCP3 = 24;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    @Test
    void harmfulFlowHeldAfterWcUntilTheWindowEndsThenReleasedWhenCongestionClears() {
        final SwitchConfig c = new SwitchConfig();
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        c.voqBytes = 100_000;
        c.outputQueueBytes = 5_000;
        c.maxFrameBytes = 1000;
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.regionalControl = true;
        c.rcm.qEqBytes = 10_000_000;
        c.rcm.windowPeriodPs = 2_000_000;
        c.rcm.notificationLifetimePs = 5_000_000;
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 3, c, counters, pool, 9);
        final TestDevices.Sink dst = new TestDevices.Sink(pool, "dst");
        sw.connectPort(0, RATE, PROP, new TestDevices.Sink(pool, "sx"), 0);
        sw.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "sy"), 0);
        sw.connectPort(2, RATE, PROP, dst, 0);
        sw.setRoute(2, new int[] {2});
        final RccWindow win = sw.rcm().window(2, 3);
        assertEquals(25_000, win.windowBytes());

        final Packet probe = TestDevices.data(pool, 0, 2, DSCP3, Packet.ECN_ECT0, 1000, 100);
        final int keyX = SwitchAsic.flowKey(probe);
        pool.release(probe);
        // t = 0: the downstream neighbour names X harmful with the largest degree, 63
        final Packet cn = pool.acquire();
        cn.kind = Packet.KIND_RCM_CN;
        cn.priority = 7;
        cn.rcmPriority = 3;
        cn.rcmFb = 63;
        cn.rcmFlowCount = 1;
        cn.rcmFlowIds[0] = keyX;
        cn.frameBytes = CongestionNotification.frameBytes(1);
        sw.receive(cn, 2);
        assertEquals(RccWindow.MEASURING, win.state());
        for (int i = 0; i < 40; i++) {
            sw.receive(TestDevices.data(pool, 0, 2, DSCP3, Packet.ECN_ECT0, 1000, 100), 0);
            sw.receive(TestDevices.data(pool, 1, 2, DSCP3, Packet.ECN_ECT0, 1000, 200), 1);
        }
        // At t = 0: X1 starts on the wire at once, Y1 X2 Y2 X3 Y3 fill the output queue; the scheduler then
        // waits at input 0. Each later frame start (k = 1, 2, ...) moves one packet, inputs alternating:
        // X at odd k, Y at even k.
        // Window 1 = [0, 2 us) measures: 6 moves at t = 0 (3 X) + k = 1..24 (24 x 81 600 = 1 958 400 < 2e6: 12 X)
        sim.runUntil(1_999_999);
        assertEquals(RccWindow.MEASURING, win.state());
        assertEquals(15_000, win.harmfulBytes());
        assertEquals(30_000, win.passedBytes());
        // At k = 25 (2 040 000) window 2 = [2 us, 4 us) begins: W_c0 = 15 000, W_c = 15 000 x (1 - 63/126) = 7 500,
        // W_nc = 25 000 - 7 500 = 17 500. Moves k = 25..49 (49 x 81 600 = 3 998 400): X at k = 25, 27, ..., 39
        // while its bytes are below 7 500 (0, 1 000, ..., 7 000: 8 packets, 8 000 bytes); from k = 41 X is held
        // and Y is served at every move.
        sim.runUntil(3_999_999);
        assertEquals(RccWindow.CONTROLLING, win.state());
        assertEquals(7_500, win.wcBytes());
        assertEquals(17_500, win.wncBytes());
        assertEquals(8_000, win.harmfulBytes());
        assertEquals(25_000, win.passedBytes());
        // X moved 3 + 12 + 8 = 23 of 40, Y 3 + 12 + 17 = 32 of 40
        assertEquals(17_000, sw.voqDepthBytes(0, 2, 3));
        assertEquals(8_000, sw.voqDepthBytes(1, 2, 3));
        assertEquals(0, counters.value("sw/port2/rcm", "rcm_held_bytes"));
        // k = 50 (4 080 000) is in window 3: the held X head passes again and its bytes count as held back
        sim.runUntil(4_080_000);
        assertEquals(1_000, counters.value("sw/port2/rcm", "rcm_held_bytes"));
        assertEquals(16_000, sw.voqDepthBytes(0, 2, 3));
        // the CN expires at 5 us and the output is not congested: the first move after it (k = 62, 5 059 200) quits
        sim.runUntil(5_059_199);
        assertEquals(RccWindow.CONTROLLING, win.state());
        sim.runUntil(5_059_200);
        assertEquals(RccWindow.IDLE, win.state());
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(80, dst.packets);
        assertEquals(0, pool.outstanding());
    }
}
