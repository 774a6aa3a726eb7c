package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ECMP by 5-tuple hash, routing drops, and CAM congestion-flow recognition (the RCM paper §3.3). */
class EcmpCamTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PROP = 1_000_000;
    private static final int DSCP3 = 24;

    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool();
    private final CounterRegistry counters = new CounterRegistry();

    private SwitchAsic fivePortSwitch(final String name, final SwitchConfig c) {
        final SwitchAsic sw = new SwitchAsic(sim, name, 5, c, counters, pool, 11);
        for (int p = 0; p < 5; p++) {
            sw.connectPort(p, RATE, PROP, new TestDevices.Sink(pool, "h" + p), 0);
        }
        return sw;
    }

    /** Sends one packet of flow (udpSrcPort) and returns the port whose priority-3 queue took it. */
    private int portOf(final SwitchAsic sw, final int udpSrcPort) {
        final long[] before = new long[5];
        for (int p = 0; p < 5; p++) {
            before[p] = counters.value(sw.name() + "/port" + p + "/q3", "enqueued_packets");
        }
        sw.receive(TestDevices.data(pool, 0, 7, DSCP3, Packet.ECN_ECT0, 1000, udpSrcPort), 0);
        int chosen = -1;
        for (int p = 0; p < 5; p++) {
            if (counters.value(sw.name() + "/port" + p + "/q3", "enqueued_packets") != before[p]) {
                assertEquals(-1, chosen, "one packet, one port");
                chosen = p;
            }
        }
        return chosen;
    }

    @Test
    void ecmpSpreadsFlowsDeterministically() {
        final SwitchAsic a = fivePortSwitch("a", new SwitchConfig());
        final SwitchAsic b = fivePortSwitch("b", new SwitchConfig());
        a.setRoute(7, new int[] {1, 2, 3, 4});
        b.setRoute(7, new int[] {1, 2, 3, 4});
        final int flows = 1000;
        final int[] perPort = new int[5];
        final int[] first = new int[flows];
        int differ = 0;
        for (int f = 0; f < flows; f++) {
            first[f] = portOf(a, f);
            perPort[first[f]]++;
            if (portOf(b, f) != first[f]) {
                differ++;
            }
        }
        for (int f = 0; f < flows; f++) {
            assertEquals(first[f], portOf(a, f), "a flow always takes the same member");
        }
        assertEquals(0, perPort[0]);
        // 1000 flows over 4 members: Binomial(1000, 1/4) per member, mean 250, sigma = sqrt(1000 x 0.25 x 0.75) = 13.7,
        // 4 sigma = 55: each member gets 195..305 flows.
        for (int p = 1; p <= 4; p++) {
            assertTrue(perPort[p] >= 195 && perPort[p] <= 305, "port " + p + ": " + perPort[p]);
        }
        // Switches hash with their own salt: independent choices agree with probability 1/4, so ~750 of 1000
        // flows differ (sigma 13.7): at least 750 - 55 = 695.
        assertTrue(differ >= 695, "flows mapped differently by the two switches: " + differ);
    }

    @Test
    void singlePathRouteAndUnknownDestination() {
        final SwitchAsic sw = fivePortSwitch("sw", new SwitchConfig());
        sw.setRoute(7, new int[] {3});
        for (int f = 0; f < 50; f++) {
            assertEquals(3, portOf(sw, f));
        }
        final long outstanding = pool.outstanding();
        sw.receive(TestDevices.data(pool, 0, 99, DSCP3, Packet.ECN_ECT0, 1000, 1), 0);
        sw.receive(TestDevices.data(pool, 0, -1, DSCP3, Packet.ECN_ECT0, 1000, 1), 0);
        assertEquals(2, counters.value("sw", "no_route_drops"));
        assertEquals(2, sw.totalDrops());
        assertEquals(outstanding, pool.outstanding(), "dropped packets are released");
    }

    @Test
    void classificationWritesPriority() {
        final SwitchConfig c = new SwitchConfig();
        c.dscpToPriority[26] = 5;
        final SwitchAsic sw = fivePortSwitch("sw", c);
        sw.setRoute(7, new int[] {2});
        sw.receive(TestDevices.pfc(pool, 0xFF, 0xFFFF), 2); // hold the egress
        final Packet p = TestDevices.data(pool, 0, 7, 26, Packet.ECN_ECT0, 1000, 1);
        sw.receive(p, 4);
        assertEquals(5, p.priority);
        assertEquals(4, p.ingressPort);
        assertEquals(1000, sw.queueDepthBytes(2, 5));
    }

    private SwitchAsic camSwitch(final int depth, final int period) {
        final SwitchConfig c = new SwitchConfig();
        c.camDepth = depth;
        c.camSamplePeriod = period;
        c.camCongestedBytes = 5_000;
        final SwitchAsic sw = fivePortSwitch("sw", c);
        sw.setRoute(1, new int[] {1});
        sw.setRoute(2, new int[] {2});
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 1); // ports 1 and 2 hold their queues
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 2);
        return sw;
    }

    private static Packet flow(final PacketPool pool, final int dst, final int udp) {
        return TestDevices.data(pool, 0, dst, DSCP3, Packet.ECN_ECT0, 1000, udp);
    }

    @Test
    void camReportsTheFlowThatCongestsAQueueNotVictimsOrIdleQueues() {
        final SwitchAsic sw = camSwitch(4, 1);
        final int keyA = SwitchAsic.flowKey(flow(pool, 1, 200));
        final int keyB = SwitchAsic.flowKey(flow(pool, 2, 300));
        final int keyC = SwitchAsic.flowKey(flow(pool, 1, 100));
        final int keyD = SwitchAsic.flowKey(flow(pool, 1, 400));
        // C passes queue (1,3) while it is empty (q = 0 < 5 000): not sampled
        sw.receive(flow(pool, 1, 100), 0);
        // A then sends 10 frames: they see q = 1 000 .. 10 000; those at q >= 5 000 (6 of them) are sampled
        for (int i = 0; i < 10; i++) {
            sw.receive(flow(pool, 1, 200), 0);
        }
        // B sends 3 frames to the idle queue (2,3): q = 0, 1 000, 2 000 < 5 000, never congested
        for (int i = 0; i < 3; i++) {
            sw.receive(flow(pool, 2, 300), 0);
        }
        assertTrue(sw.isCongestingFlow(1, 3, keyA));
        assertFalse(sw.isCongestingFlow(1, 3, keyC));
        assertFalse(sw.isCongestingFlow(2, 3, keyB));
        assertFalse(sw.isCongestingFlow(2, 3, keyA));
        assertFalse(sw.isCongestingFlow(1, 2, keyA)); // another priority's queue on the same port
        // the CAM is cyclic with depth 4: four congested frames of D overwrite every entry of A
        for (int i = 0; i < 4; i++) {
            sw.receive(flow(pool, 1, 400), 0);
        }
        assertTrue(sw.isCongestingFlow(1, 3, keyD));
        assertFalse(sw.isCongestingFlow(1, 3, keyA));
        // when the queue drains empty the congestion episode is over and the CAM is invalidated
        new TestDevices.Injector(sw).deliverAt(sim, 1_000, TestDevices.pfc(pool, 1 << 3, 0), 1);
        sim.runUntil(Long.MAX_VALUE - 1);
        assertEquals(0, sw.queueDepthBytes(1, 3));
        assertFalse(sw.isCongestingFlow(1, 3, keyD));
    }

    @Test
    void camSamplesEveryNthCongestedPacket() {
        // period 3: of the congested arrivals X X Y X X Z, the 3rd (Y) and 6th (Z) are written, so X, with 4 of
        // the 6 frames, happens not to be stored: sampling is periodic, not a rate measurement.
        final SwitchAsic sw = camSwitch(8, 3);
        for (int i = 0; i < 5; i++) {
            sw.receive(flow(pool, 1, 1), 0); // fill to 5 000 bytes: congested from the 6th frame on
        }
        final int[] pattern = {10, 10, 20, 10, 10, 30};
        for (final int udp : pattern) {
            sw.receive(flow(pool, 1, udp), 0);
        }
        assertFalse(sw.isCongestingFlow(1, 3, SwitchAsic.flowKey(flow(pool, 1, 1))));
        assertFalse(sw.isCongestingFlow(1, 3, SwitchAsic.flowKey(flow(pool, 1, 10))));
        assertTrue(sw.isCongestingFlow(1, 3, SwitchAsic.flowKey(flow(pool, 1, 20))));
        assertTrue(sw.isCongestingFlow(1, 3, SwitchAsic.flowKey(flow(pool, 1, 30))));
    }
}
