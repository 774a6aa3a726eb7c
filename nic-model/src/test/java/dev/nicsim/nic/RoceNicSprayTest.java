package dev.nicsim.nic;

import dev.nicsim.sim.Packet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spraying end to end between two NICs ({@link Bench}: 100 Gb/s, 1 us each way, line rate, no window,
 * per-packet ACKs): the EV each data packet carries, the EV each ACK echoes, and the path counters.
 * A 256 KiB WRITE is 256 packets of 1024 B.
 */
class RoceNicSprayTest {
    private static final int PACKETS = 256;

    private static NicConfig config(final int policy, final int entropies) {
        final NicConfig c = new NicConfig();
        c.pathPolicy = policy;
        c.pathEntropies = entropies;
        return c;
    }

    /** Data ports in send order (a->b tap) and (echoed port, ECE) of the ACKs (b->a tap). */
    private static final class Run {
        final Bench bench;
        final List<Integer> dataPorts = new ArrayList<>();
        final List<int[]> acks = new ArrayList<>();

        Run(final NicConfig a, final Tap.Rule markData) {
            bench = new Bench(a, new NicConfig(), new FixedAlgorithm());
            bench.ab.rule = (p, n) -> {
                if (p.kind == Packet.KIND_DATA) {
                    dataPorts.add(p.udpSrcPort);
                }
                return markData.decide(p, n);
            };
            bench.ba.rule = (p, n) -> {
                if (p.kind == Packet.KIND_ACK) {
                    acks.add(new int[] {p.echoUdpSrcPort, p.ece ? 1 : 0});
                }
                return Tap.FORWARD;
            };
            bench.start(1, MessageOp.WRITE, PACKETS * 1024L);
            bench.run();
            bench.completionPs();
        }

        long counter(final String name) {
            return bench.counter("a", name);
        }
    }

    @Test
    void ecmpKeepsOnePortAndEchoesIt() {
        final Run r = new Run(new NicConfig(), (p, n) -> Tap.FORWARD);
        assertEquals(PACKETS, r.dataPorts.size());
        assertEquals(1, new HashSet<>(r.dataPorts).size(), "one UDP source port per flow");
        for (final int[] a : r.acks) {
            assertEquals(r.dataPorts.get(0), a[0], "every ACK echoes the data packet's port");
        }
        assertThrows(RuntimeException.class, () -> r.counter("path_ev_round_robin"), "no path counters with ECMP");
    }

    @Test
    void obliviousUsesEveryEvOncePerCycleOf64() {
        final Run r = new Run(config(NicConfig.PATH_OBLIVIOUS, 64), (p, n) -> Tap.FORWARD);
        assertEquals(PACKETS, r.dataPorts.size());
        for (int cycle = 0; cycle < PACKETS / 64; cycle++) {
            final Set<Integer> ports = new HashSet<>(r.dataPorts.subList(cycle * 64, cycle * 64 + 64));
            assertEquals(64, ports.size(), "cycle " + cycle + " uses 64 distinct EVs");
        }
        assertEquals(64, new HashSet<>(r.dataPorts).size());
        assertEquals(PACKETS, r.counter("path_ev_round_robin"));
        assertEquals(PACKETS, r.counter("tx_data_packets"));
        for (int i = 0; i < r.acks.size(); i++) {
            assertEquals(r.dataPorts.get(i), r.acks.get(i)[0], "ACK " + i + " echoes its packet's EV");
        }
    }

    @Test
    void bitmapSkipsTheEvOfAnEcnEchoOnce() {
        final int[] first = {-1};
        final Run r = new Run(config(NicConfig.PATH_BITMAP, 64), (p, n) -> {
            if (p.kind == Packet.KIND_DATA && first[0] < 0) {
                first[0] = p.udpSrcPort;
                return Tap.MARK_CE; // only the flow's first packet: its ACK echoes ECN for EV P0
            }
            return Tap.FORWARD;
        });
        final int p0 = first[0];
        assertEquals(1, r.counter("path_ev_penalties"));
        assertEquals(1, r.counter("path_ev_penalised_skips"));
        // The ECN echo comes back after ~24 packets, while cycle 1 (packets 0..63) runs; cycle 2 skips P0 and
        // gives 63 packets, cycles 3 and 4 give 64: the first 64 + 63 + 64 + 64 = 255 packets use P0 three times
        // and every other EV four times.
        final Map<Integer, Integer> uses = new HashMap<>();
        for (final int port : r.dataPorts.subList(0, 255)) {
            uses.merge(port, 1, Integer::sum);
        }
        assertEquals(64, uses.size());
        for (final Map.Entry<Integer, Integer> e : uses.entrySet()) {
            assertEquals(e.getKey() == p0 ? 3 : 4, e.getValue(), "uses of port " + e.getKey());
        }
        assertEquals(1, r.acks.stream().filter(a -> a[1] == 1).count());
    }

    @Test
    void repsReusesTheEvsOfGoodAcks() {
        final Run r = new Run(config(NicConfig.PATH_REPS, 64), (p, n) -> Tap.FORWARD);
        final long random = r.counter("path_ev_random");
        final long recycled = r.counter("path_ev_recycled");
        assertEquals(PACKETS, random + recycled);
        // Until the first ACK is back (1 us + 1 us + a data and an ACK frame's serialisation, 2.1 us, 23.6 packet
        // times of 88.8 ns) the ring is empty and EVs are random; then every ACK brings one EV back and every
        // packet takes one, so the rest is recycled.
        assertTrue(random >= 23 && random <= 26, "random EVs: " + random);
        // a recycled EV is one sent before, so every distinct EV of the flow entered by a random draw
        assertTrue(new HashSet<>(r.dataPorts).size() <= random);
        // packet k (after the first window) goes on the EV of the ACK that came back just before it
        final Set<Integer> echoed = new HashSet<>();
        for (final int[] a : r.acks) {
            echoed.add(a[0]);
        }
        assertTrue(echoed.containsAll(r.dataPorts.subList((int) random, PACKETS)));
    }
}
