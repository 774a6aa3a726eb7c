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
 * Switch-level adaptive routing (the RCM paper §3.4): in a congestion region a flow that misses the CAM
 * moves to the equal-cost port with the lowest regional congestion degree; a harmful flow never
 * moves; with no other path nothing moves.
 *
 * <p>Port 0 is the input; destination 7 has the ECMP group {1, 2, 3}, destination 8 the single
 * path {1}. Degrees are set by CNs received on the output ports (no local congestion: the queues
 * stay short), with w = 0.5: regional degree = round(0.5 x 0 + 0.5 x F_br).
 */
class AdaptiveRoutingTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final int DSCP3 = 24;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    private SwitchAsic build(final String name, final SwitchConfig c, final CounterRegistry reg) {
        final SwitchAsic sw = new SwitchAsic(sim, name, 4, c, reg, pool, 21);
        for (int p = 0; p < 4; p++) {
            sw.connectPort(p, RATE, PROP, new TestDevices.Sink(pool, "h" + p), 0);
        }
        sw.setRoute(7, new int[] {1, 2, 3});
        sw.setRoute(8, new int[] {1});
        return sw;
    }

    /** Sends one packet of flow (dst, udp) into port 0 and returns the port whose priority-3 queue took it. */
    private static int portOf(final SwitchAsic sw, final CounterRegistry reg, final PacketPool pool, final int dst,
                              final int udp) {
        final long[] before = new long[4];
        for (int p = 0; p < 4; p++) {
            before[p] = reg.value(sw.name() + "/port" + p + "/q3", "enqueued_packets");
        }
        sw.receive(TestDevices.data(pool, 0, dst, DSCP3, Packet.ECN_ECT0, 1000, udp), 0);
        int chosen = -1;
        for (int p = 0; p < 4; p++) {
            if (reg.value(sw.name() + "/port" + p + "/q3", "enqueued_packets") != before[p]) {
                chosen = p;
            }
        }
        return chosen;
    }

    private int key(final int dst, final int udp) {
        final Packet p = TestDevices.data(pool, 0, dst, DSCP3, Packet.ECN_ECT0, 1000, udp);
        final int k = SwitchAsic.flowKey(p);
        pool.release(p);
        return k;
    }

    private void notifyPort(final SwitchAsic sw, final int port, final int fb, final int... ids) {
        final Packet cn = pool.acquire();
        cn.kind = Packet.KIND_RCM_CN;
        cn.priority = 7;
        cn.rcmPriority = 3;
        cn.rcmFb = fb;
        cn.rcmFlowCount = ids.length;
        System.arraycopy(ids, 0, cn.rcmFlowIds, 0, ids.length);
        cn.frameBytes = CongestionNotification.frameBytes(ids.length);
        sw.receive(cn, port);
    }

    @Test
    void detourDecisions() {
        // ECMP's own choice, seen on a twin switch without RCM (same name and seed: same hash salt)
        final CounterRegistry probeRegistry = new CounterRegistry();
        final SwitchAsic probe = build("sar", new SwitchConfig(), probeRegistry);
        int flowF = -1;
        int flowH = -1;
        int flowG = -1;
        int flowK = -1;
        for (int udp = 1; udp < 1000 && (flowF < 0 || flowH < 0 || flowG < 0 || flowK < 0); udp++) {
            final int port = portOf(probe, probeRegistry, pool, 7, udp);
            if (port == 1 && flowF < 0) {
                flowF = udp;
            } else if (port == 1 && flowH < 0) {
                flowH = udp;
            } else if (port == 2 && flowG < 0) {
                flowG = udp;
            } else if (port == 3 && flowK < 0) {
                flowK = udp;
            }
        }

        final SwitchConfig c = new SwitchConfig();
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.adaptiveRouting = true;
        c.rcm.w = 0.5;
        c.rcm.notificationLifetimePs = 1_000_000_000;
        c.rcm.detourIdlePs = 1_000_000;
        final SwitchAsic sw = build("sar", c, counters);

        // no congestion anywhere: every flow takes its ECMP port
        assertEquals(1, portOf(sw, counters, pool, 7, flowF));
        assertEquals(3, portOf(sw, counters, pool, 7, flowK));

        // port 1 is notified with F_br = 40 naming H harmful, port 2 with 10, port 3 with 20 (no IDs)
        notifyPort(sw, 1, 40, key(7, flowH));
        notifyPort(sw, 2, 10);
        notifyPort(sw, 3, 20);
        // regional degrees: 0.5 x 40 = 20, 0.5 x 10 = 5, 0.5 x 20 = 10
        assertEquals(20, sw.regionalCongestionDegree(1, 3));
        assertEquals(5, sw.regionalCongestionDegree(2, 3));
        assertEquals(10, sw.regionalCongestionDegree(3, 3));

        // F misses the CAM (not among port 1's harmful IDs): moves to port 2, the lowest degree
        assertFalse(sw.isHarmfulFlow(1, 3, key(7, flowF)));
        assertEquals(2, portOf(sw, counters, pool, 7, flowF));
        assertEquals(1, counters.value("sar/port1/rcm", "rcm_flows_detoured"));
        // ... and stays there while its packets keep coming (one detour, not one per packet)
        assertEquals(2, portOf(sw, counters, pool, 7, flowF));
        assertEquals(1, counters.value("sar/port1/rcm", "rcm_flows_detoured"));
        // H is harmful at port 1: it never moves
        assertTrue(sw.isHarmfulFlow(1, 3, key(7, flowH)));
        assertEquals(1, portOf(sw, counters, pool, 7, flowH));
        // G's ECMP port already has the lowest degree (5): no strictly better port, it stays
        assertEquals(2, portOf(sw, counters, pool, 7, flowG));
        assertEquals(0, counters.value("sar/port2/rcm", "rcm_flows_detoured"));
        // K's port 3 has degree 10 > 5: it moves to port 2
        assertEquals(2, portOf(sw, counters, pool, 7, flowK));
        assertEquals(1, counters.value("sar/port3/rcm", "rcm_flows_detoured"));
        // a single path: port 1 is congested but there is no other way, nothing moves
        assertEquals(1, portOf(sw, counters, pool, 8, flowF));

        // 2 us later (F idle for more than detourIdlePs = 1 us) port 2 is notified with 63: degree 32 is now the
        // highest; F decides again from its ECMP port 1 (20): the lowest is port 3 (10)
        sim.runUntil(2_000_000);
        notifyPort(sw, 2, 63);
        assertEquals(32, sw.regionalCongestionDegree(2, 3));
        assertEquals(3, portOf(sw, counters, pool, 7, flowF));
        assertEquals(2, counters.value("sar/port1/rcm", "rcm_flows_detoured"));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(0, pool.outstanding());
    }
    @Test
    void amongTheLowestDegreesTheLeastLoadedPortThenTheNextAfterTheEcmpPortTakesTheFlow() {
        final CounterRegistry probeRegistry = new CounterRegistry();
        final SwitchAsic probe = build("sar", new SwitchConfig(), probeRegistry);
        int onPort1 = -1;
        int onPort1Too = -1;
        int onPort2 = -1;
        for (int udp = 1; udp < 1000 && (onPort1 < 0 || onPort1Too < 0 || onPort2 < 0); udp++) {
            final int port = portOf(probe, probeRegistry, pool, 7, udp);
            if (port == 1 && onPort1 < 0) {
                onPort1 = udp;
            } else if (port == 1 && onPort1Too < 0) {
                onPort1Too = udp;
            } else if (port == 2 && onPort2 < 0) {
                onPort2 = udp;
            }
        }
        sim.runUntil(Long.MAX_VALUE); // the probe's packets leave

        final SwitchConfig c = new SwitchConfig();
        c.rcm.detection = true;
        c.rcm.flowRecognition = true;
        c.rcm.adaptiveRouting = true;
        c.rcm.w = 0.5;
        c.rcm.notificationLifetimePs = 1_000_000_000;
        final SwitchAsic sw = build("sar", c, counters);
        sw.setRoute(9, new int[] {2});

        // port 2 alone congested (degree 0.5 x 40 = 20), ports 1 and 3 at 0 and both idle: a flow hashed
        // to port 2 takes the next member after it, port 3 (not the group's first, port 1)
        notifyPort(sw, 2, 40);
        assertEquals(20, sw.regionalCongestionDegree(2, 3));
        assertEquals(3, portOf(sw, counters, pool, 7, onPort2));

        // now port 1 alone congested; port 2 holds two 1000-byte frames waiting (three sent to the single-path
        // destination 9: one serialising), port 3 none: a flow hashed to port 1 takes port 3, the less loaded
        // of the two at degree 0, though port 2 comes first after port 1
        sim.runUntil(sim.nowPs() + 10_000_000); // the CN on port 2 is replaced below; the earlier frame has left
        notifyPort(sw, 2, 0);
        notifyPort(sw, 1, 40);
        assertEquals(0, sw.regionalCongestionDegree(2, 3));
        for (int i = 0; i < 3; i++) {
            assertEquals(2, portOf(sw, counters, pool, 9, 5));
        }
        assertEquals(2000, sw.queueDepthBytes(2, 3));
        assertEquals(0, sw.queueDepthBytes(3, 3));
        assertEquals(3, portOf(sw, counters, pool, 7, onPort1));
        // with port 3 loaded more than port 2, the next flow hashed to port 1 takes port 2
        for (int i = 0; i < 3; i++) {
            sw.receive(TestDevices.data(pool, 0, 7, DSCP3, Packet.ECN_ECT0, 1000, onPort1), 0); // pinned to 3
        }
        assertTrue(sw.queueDepthBytes(3, 3) > sw.queueDepthBytes(2, 3));
        assertEquals(2, portOf(sw, counters, pool, 7, onPort1Too));
        sim.runUntil(Long.MAX_VALUE);
        assertEquals(0, pool.outstanding());
    }
}
