package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Congestion region detection (the RCM paper §3.2) across two input-output-queued switches: when a
 * congestion notification (CN) is sent, what it carries (quantised F_b, harmful flow IDs from the
 * CAM filtered by ingress port), how it travels (its own priority and size, on the link), what the
 * receiver does with it (remote flag, F_br, the root's IDs, role), and Eq. (2) in the CN the
 * receiver then sends further upstream.
 *
 * <p>Both switches: output queues of 5 000 bytes, VOQs of 100 000, lossy priority 3, 1000-byte
 * frames, CAM of depth 4 writing every arrival ({@code camCongestedBytes = 0}), Q_eq = 2 000,
 * w_q = 1, so F_bmax = 2 000 x (1 + 2) = 6 000 and code = ceil(F_b x 63 / 6 000); w = 0.5.
 */
class RcmNotificationTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    /** A CN with at most 2 IDs is 64 bytes: (64 + 20) x 8 / 100 Gb/s = 6 720 ps on the wire. */
    private static final long CN_WIRE_PS = 6_720;
    private static final int DSCP3 = 24;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    /** Records every frame that arrives (copies), releasing the original. */
    private final class Capture implements NetDevice {
        final List<Packet> frames = new ArrayList<>();
        final List<Long> arrivalPs = new ArrayList<>();

        @Override
        public void receive(final Packet packet, final int inPort) {
            final Packet copy = new Packet();
            copy.copyFrom(packet);
            frames.add(copy);
            arrivalPs.add(sim.nowPs());
            pool.release(packet);
        }

        @Override
        public String name() {
            return "capture";
        }
    }

    private static SwitchConfig config(final long sampleBytes) {
        final SwitchConfig c = new SwitchConfig();
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        c.voqBytes = 100_000;
        c.outputQueueBytes = 5_000;
        c.maxFrameBytes = 1000;
        c.camDepth = 4;
        c.camSamplePeriod = 1;
        c.camCongestedBytes = 0;
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.qEqBytes = 2_000;
        c.rcm.wq = 1.0;
        c.rcm.w = 0.5;
        c.rcm.sampleBytes = sampleBytes;
        return c;
    }

    private Packet data(final int src, final int udp) {
        return TestDevices.data(pool, src, 2, DSCP3, Packet.ECN_ECT0, 1000, udp);
    }

    private long counter(final String component, final String name) {
        return counters.value(component, name);
    }

    @Test
    void rootSendsCnUpstreamAndTheNextSwitchBecomesInnerAndAppliesEq2() {
        // ---- downstream switch D: port 0 <- flow X, port 1 <- flow Y, port 2 -> destination (held by PFC)
        final SwitchAsic d = new SwitchAsic(sim, "d", 3, config(2_000), counters, pool, 3);
        final Capture dIn0 = new Capture();
        final Capture dIn1 = new Capture();
        d.connectPort(0, RATE, PROP, dIn0, 0);
        d.connectPort(1, RATE, PROP, dIn1, 0);
        d.connectPort(2, RATE, PROP, new TestDevices.Sink(pool, "dst"), 0);
        d.setRoute(2, new int[] {2});
        d.setNotifyNeighbour(0, true); // stand-ins for upstream switches
        d.setNotifyNeighbour(1, true);
        d.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        final int keyX = SwitchAsic.flowKey(data(0, 100));
        final int keyY = SwitchAsic.flowKey(data(1, 200));

        for (int i = 1; i <= 5; i++) {
            d.receive(data(0, 100), 0);  // X1..X5 fill the output queue
        }
        // Output congestion point (every packet entering the output queue; countdown 2 000):
        //  X2: Q = 2 000, Q_old = 0: 0 + 2 000 = 2 000 -> ceil(21.0) = 21, next after 2 000 / (1 + 168 >> 6 = 2) = 666
        //  X3: Q = 3 000: 1 000 + 1 000 = 2 000 -> 21; X4: 2 000 + 1 000 = 3 000 -> ceil(31.5) = 32, next 2 000 / 5 = 400
        //  X5: Q = 5 000: 3 000 + 1 000 = 4 000 -> ceil(42.0) = 42
        assertEquals(42, d.regionalCongestionDegree(2, 3));
        assertEquals(CongestionRole.ROOT, d.congestionRole(2, 3));
        d.receive(data(1, 200), 1);      // Y1 waits in VOQ 1 -> 2
        d.receive(data(0, 100), 0);      // X6 waits in VOQ 0 -> 2
        d.receive(data(0, 100), 0);      // X7
        // Input congestion point of port 0 (VOQ bytes after the output's scheduler ran; countdown 2 000):
        //  X2: Q = 0 -> F_b = -2 000; X4: Q = 0 -> -2 000; X6: Q = 1 000, Q_old = 0: -1 000 + 1 000 = 0, not congested
        assertEquals(0, counter("d/port0/rcm", "rcm_cn_sent"));
        assertEquals(CongestionRole.NONE, d.congestionRole(0, 3));
        d.receive(data(0, 100), 0);      // X8
        //  X8: Q = 3 000, Q_old = 1 000: 1 000 + 2 000 = 3 000 > 0 -> code ceil(31.5) = 32: a CN goes upstream
        assertEquals(1, counter("d/port0/rcm", "rcm_cn_sent"));
        assertEquals(0, counter("d/port1/rcm", "rcm_cn_sent"), "port 1's countdown has not run out (1 000 left)");
        assertEquals(CongestionRole.ROOT, d.congestionRole(0, 3));
        // CFR: the CAM (depth 4, cyclic) holds the last four arrivals Y1, X6, X7, X8; recognitions = IDs new to
        // the CAM when written: X1 and Y1
        assertTrue(d.isHarmfulFlow(2, 3, keyX));
        assertTrue(d.isHarmfulFlow(2, 3, keyY));
        assertEquals(2, counter("d/port2/rcm", "rcm_flows_recognised"));

        // the CN leaves port 0 at t = 0 on an idle link: it arrives after 6 720 ps + 1 us propagation
        sim.runUntil(PROP + CN_WIRE_PS);
        assertEquals(1, dIn0.frames.size());
        assertEquals(PROP + CN_WIRE_PS, (long) dIn0.arrivalPs.get(0));
        final Packet cn = dIn0.frames.get(0);
        assertEquals(Packet.KIND_RCM_CN, cn.kind);
        assertEquals(7, cn.priority, "sent with the notification priority");
        assertEquals(64, cn.frameBytes, "max(64, 26 + 13 x 1)");
        assertEquals(3, cn.rcmPriority);
        assertEquals(32, cn.rcmFb, "no CN held downstream: F_b' = F_b");
        // only the harmful flows that entered through port 0: X (Y came in on port 1)
        assertEquals(1, cn.rcmFlowCount);
        assertEquals(keyX, cn.rcmFlowIds[0]);
        assertTrue(dIn1.frames.isEmpty());

        // ---- upstream switch U: port 0 <- flow X, port 1 -> D (held by PFC); its sampling interval is 3 000 bytes
        final SwitchAsic u = new SwitchAsic(sim, "u", 2, config(3_000), counters, pool, 4);
        final Capture uIn0 = new Capture();
        u.connectPort(0, RATE, PROP, uIn0, 0);
        u.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "toD"), 0);
        u.setRoute(2, new int[] {1});
        u.setNotifyNeighbour(0, true);
        u.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 1);
        final Packet delivered = pool.acquire();
        delivered.copyFrom(cn);
        u.receive(delivered, 1); // D's CN arrives on U's port 1
        assertEquals(1, counter("u/port1/rcm", "rcm_cn_received"));
        // remote flag only: the edge of the region; the harmful flows there are the root's IDs
        assertEquals(CongestionRole.EDGE, u.congestionRole(1, 3));
        assertTrue(u.isHarmfulFlow(1, 3, keyX));
        assertFalse(u.isHarmfulFlow(1, 3, keyY));
        // regional degree with no local congestion yet: (1 - 0.5) x 0 + 0.5 x 32 = 16
        assertEquals(16, u.regionalCongestionDegree(1, 3));

        final long t1 = sim.nowPs();
        for (int i = 1; i <= 9; i++) {
            u.receive(data(0, 100), 0);
        }
        // U's output queue sees X1..X5 as D's did: code 42, congested, and it holds a CN: inner point,
        // regional degree (1 - 0.5) x 42 + 0.5 x 32 = 37
        assertEquals(CongestionRole.INNER, u.congestionRole(1, 3));
        assertEquals(37, u.regionalCongestionDegree(1, 3));
        // U's input port 0 (countdown 3 000): X3: Q = 0 -> -2 000; X6: Q = 1 000, Q_old = 0 -> 0, not congested;
        // X9: Q = 4 000, Q_old = 1 000: 2 000 + 3 000 = 5 000 -> code ceil(52.5) = 53.
        // Eq. (2) with the F_br = 32 of the CN held by output 1, which X (seen arriving on port 0) feeds:
        //   F_b' = 0.5 x 53 + 0.5 x 32 = 42.5 -> 43
        assertEquals(1, counter("u/port0/rcm", "rcm_cn_sent"));
        sim.runUntil(t1 + PROP + CN_WIRE_PS);
        assertEquals(1, uIn0.frames.size());
        final Packet cn2 = uIn0.frames.get(0);
        assertEquals(43, cn2.rcmFb);
        assertEquals(1, cn2.rcmFlowCount, "the inner point forwards the root's IDs");
        assertEquals(keyX, cn2.rcmFlowIds[0]);
        assertEquals(t1 + PROP + CN_WIRE_PS, (long) uIn0.arrivalPs.get(0));
    }

    @Test
    void outputQueuedSwitchWatchesThePgOccupancyAsItsInputQueue() {
        // shared-buffer switch: the input queue of (port 0, priority 3) is PG 3 of port 0, which grows by
        // 1 000 bytes with every packet while the output is held
        final SwitchConfig c = config(2_000);
        c.queueing = SwitchConfig.Queueing.OUTPUT_QUEUED;
        final SwitchAsic d = new SwitchAsic(sim, "oq", 3, c, counters, pool, 3);
        final Capture in0 = new Capture();
        d.connectPort(0, RATE, PROP, in0, 0);
        d.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "a"), 0);
        d.connectPort(2, RATE, PROP, new TestDevices.Sink(pool, "dst"), 0);
        d.setRoute(2, new int[] {2});
        d.setNotifyNeighbour(0, true);
        d.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        d.receive(data(0, 100), 0);
        assertEquals(0, counter("oq/port0/rcm", "rcm_cn_sent"));
        d.receive(data(0, 100), 0);
        // second packet: both countdowns (2 000) run out. Output queue and PG both hold Q = 2 000, Q_old = 0:
        // F_b = 0 + 1 x 2 000 = 2 000 -> code ceil(2 000 x 63 / 6 000) = 21; the output is congested first, so
        // the CN the input sends names X (in the CAM with ingress port 0)
        assertEquals(1, counter("oq/port0/rcm", "rcm_cn_sent"));
        assertEquals(2_000, d.pgBytes(0, 3));
        sim.runUntil(PROP + CN_WIRE_PS);
        final Packet cn = in0.frames.get(0);
        assertEquals(21, cn.rcmFb);
        assertEquals(1, cn.rcmFlowCount);
        final Packet probe = data(0, 100);
        assertEquals(SwitchAsic.flowKey(probe), cn.rcmFlowIds[0]);
        pool.release(probe);
        assertEquals(0, d.sharedUsedBytes() - 2_000, "the CN took no buffer");
    }

    @Test
    void hostsGetNoCnAndRcmOffSendsNone() throws java.io.IOException {
        // a switch whose input neighbour is not a switch never sends CNs there (hosts are not in a region)
        final SwitchAsic d = new SwitchAsic(sim, "d", 3, config(2_000), counters, pool, 3);
        final Capture in0 = new Capture();
        d.connectPort(0, RATE, PROP, in0, 0);
        d.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "a"), 0);
        d.connectPort(2, RATE, PROP, new TestDevices.Sink(pool, "dst"), 0);
        d.setRoute(2, new int[] {2});
        d.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        for (int i = 0; i < 20; i++) {
            d.receive(data(0, 100), 0);
        }
        assertEquals(CongestionRole.ROOT, d.congestionRole(0, 3), "the input is congested");
        assertEquals(0, counter("d/port0/rcm", "rcm_cn_sent"));
        sim.runUntil(10 * PROP);
        assertTrue(in0.frames.isEmpty());

        // the same traffic with RCM off: no RCM counter, no role, no CN
        final SwitchConfig off = config(2_000);
        off.rcm = new RcmConfig();
        final SwitchAsic plain = new SwitchAsic(sim, "plain", 3, off, counters, pool, 3);
        final Capture in0b = new Capture();
        plain.connectPort(0, RATE, PROP, in0b, 0);
        plain.connectPort(1, RATE, PROP, new TestDevices.Sink(pool, "b"), 0);
        plain.connectPort(2, RATE, PROP, new TestDevices.Sink(pool, "dst2"), 0);
        plain.setRoute(2, new int[] {2});
        plain.setNotifyNeighbour(0, true);
        plain.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        for (int i = 0; i < 20; i++) {
            plain.receive(data(0, 100), 0);
        }
        assertFalse(plain.rcmEnabled());
        assertEquals(CongestionRole.NONE, plain.congestionRole(0, 3));
        final java.util.List<String> rcmRows = new java.util.ArrayList<>();
        counters.forEach(true, (c, n, v) -> {
            if (c.startsWith("plain/") && n.startsWith("rcm_")) {
                rcmRows.add(c + "/" + n);
            }
        });
        assertTrue(rcmRows.isEmpty(), rcmRows.toString());
        sim.runUntil(20 * PROP);
        assertTrue(in0b.frames.isEmpty());
    }

    @Test
    void refusesAPoolWhosePacketsCannotCarryFlowIds() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new SwitchAsic(sim, "agg0", 4, config(1_000), counters, new PacketPool(false), 1));
        assertEquals("agg0: regional congestion mitigation needs a packet pool whose packets carry RCM flow IDs",
            e.getMessage());
    }
}
