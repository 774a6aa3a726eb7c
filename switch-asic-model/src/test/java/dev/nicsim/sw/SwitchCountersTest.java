package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A switch's counters are a few registry blocks whatever its port count (no object, string or map
 * entry per counter), listed in the order {@code counters.csv} always had: {@code no_route_drops},
 * then per port and priority the 9 queue counters and the 3 PG counters, then (input-output queued)
 * {@code peak_voq_bytes} per port, then (RCM) the 5 RCM counters per port.
 */
class SwitchCountersTest {
    private static List<String> rows(final CounterRegistry reg, final boolean zeros) throws IOException {
        final List<String> out = new ArrayList<>();
        reg.forEach(zeros, (c, n, v) -> out.add(c + "," + n + "," + v));
        return out;
    }

    @Test
    void aSwitchIsOneBlockPerPartWhateverItsPorts() {
        for (final int ports : new int[] {3, 32}) {
            final CounterRegistry reg = new CounterRegistry();
            final SwitchConfig c = new SwitchConfig();
            c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
            c.rcm.detection = true;
            new SwitchAsic(new Simulator(), "a", ports, c, reg, new PacketPool(true), 1);
            new SwitchAsic(new Simulator(), "b", ports, c, reg, new PacketPool(true), 2);
            // per switch: its counters, its VOQ peaks, its RCM counters: 3 blocks, not 1 + 98 x ports counters
            assertEquals(6, reg.blocks(), ports + " ports");
            assertEquals(2 * (1 + ports * 8 * 12 + ports + ports * 5), reg.rows(), ports + " ports");
        }
    }

    @Test
    void rowsInTheirOldOrderAndOnlyTheMovedOnesByDefault() throws IOException {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry reg = new CounterRegistry();
        final SwitchAsic sw = new SwitchAsic(sim, "sw", 2, new SwitchConfig(), reg, pool, 3);
        for (int p = 0; p < 2; p++) {
            sw.connectPort(p, 100_000_000_000L, 1_000_000, new TestDevices.Sink(pool, "h" + p), 0);
        }
        sw.receive(TestDevices.pfc(pool, 1 << 3, 0xFFFF), 1);  // pfc_pause_received of port 1, priority 3
        sw.receive(TestDevices.data(pool, 0, 7, 24, Packet.ECN_NOT_ECT, 1000, 1), 0); // no route to host 7
        sw.receive(TestDevices.data(pool, 0, 7, 24, Packet.ECN_NOT_ECT, 1000, 1), 0);

        final List<String> all = rows(reg, true);
        assertEquals(1 + 2 * 8 * 12, all.size());
        assertEquals(List.of("sw,no_route_drops,2",
            "sw/port0/q0,enqueued_packets,0", "sw/port0/q0,dequeued_packets,0", "sw/port0/q0,enqueued_bytes,0",
            "sw/port0/q0,ecn_marked_packets,0", "sw/port0/q0,wred_drops,0", "sw/port0/q0,tail_drops,0",
            "sw/port0/q0,headroom_drops,0", "sw/port0/q0,peak_depth_bytes,0", "sw/port0/q0,pfc_pause_received,0",
            "sw/port0/pg0,pfc_xoff_sent,0", "sw/port0/pg0,pfc_xon_sent,0", "sw/port0/pg0,peak_headroom_bytes,0",
            "sw/port0/q1,enqueued_packets,0"), all.subList(0, 14));
        // port 1, priority 3 is queue 11: its 12 rows start at 1 + 11 x 12
        assertEquals("sw/port1/q3,pfc_pause_received,1", all.get(1 + 11 * 12 + 8));
        assertEquals("sw/port1/pg7,peak_headroom_bytes,0", all.get(all.size() - 1));
        assertEquals(List.of("sw,no_route_drops,2", "sw/port1/q3,pfc_pause_received,1"), rows(reg, false));
    }
}
