package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.sim.CounterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Packet spraying through switches: one flow from host 0 (leaf 0) to host 1 (leaf 1) over a leaf-spine with
 * four spines. The source leaf hashes (flow, UDP source port, its salt) to pick the spine, so per-packet EVs
 * spread one flow over the spines and one port keeps it on one. A spine's port 1 leads to leaf 1 and carries
 * this flow's data only (its ACKs go the other way), so its enqueued packets count the flow's data through
 * that spine.
 */
class SprayingTest {
    @TempDir
    Path dir;

    private static final int PACKETS = 512;

    private Runner run(final String path, final int fabricGbps) throws IOException {
        final Path f = dir.resolve("spray.yaml");
        Files.writeString(f, """
            name: spray
            topology: {type: leaf_spine, leaves: 2, spines: 4, hosts_per_leaf: 1,
                       host_link: {rate_gbps: 100, delay_ns: 1000}, fabric_link: {rate_gbps: %d, delay_ns: 1000}}
            nic: {mtu_bytes: 1024, path: %s}
            algorithm: {name: dcqcn}
            workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: %d}]}
            """.formatted(fabricGbps, path, PACKETS * 1024));
        final Scenario s = ScenarioLoader.load(f, List.of(), null);
        final Runner r;
        try (TimeSeriesWriter w = new TimeSeriesWriter(dir.resolve("out"))) {
            r = new Runner(s, w);
            final RunResult result = r.run(x -> { });
            assertTrue(result.flows().get(0).fctNs() > 0, "the flow completes");
        }
        return r;
    }

    private static long[] perSpine(final Runner r) {
        final CounterRegistry c = r.counters();
        final long[] n = new long[4];
        for (int j = 0; j < 4; j++) {
            n[j] = c.value("spine" + j + "/port1/q3", "enqueued_packets");
        }
        return n;
    }

    @Test
    void ecmpKeepsTheFlowOnOneSpine() throws IOException {
        final long[] n = perSpine(run("{policy: ecmp}", 100));
        int used = 0;
        for (final long x : n) {
            if (x > 0) {
                used++;
                assertEquals(PACKETS, x);
            }
        }
        assertEquals(1, used);
    }

    @Test
    void obliviousSpraysOneFlowOverEverySpineInWholeCycles() throws IOException {
        final Runner r = run("{policy: oblivious, entropies: 64}", 100);
        final long[] n = perSpine(r);
        // 512 packets are 8 cycles, each sending every one of the 64 EVs once; the leaf maps m_j of the 64 EVs
        // to spine j (sum 64), so spine j carries 8 m_j packets: a multiple of 8. 64 EVs hashed over 4 spines
        // leave one empty with probability 4 (3/4)^64 < 10^-7.
        long sum = 0;
        for (int j = 0; j < 4; j++) {
            assertTrue(n[j] > 0, "spine " + j + " carries none");
            assertEquals(0, n[j] % 8, "spine " + j + ": " + n[j]);
            sum += n[j];
        }
        assertEquals(PACKETS, sum);
        // equal paths at line rate: nothing overtakes, so nothing is out of order and nothing is resent
        assertEquals(0, r.counters().value("host1", "out_of_sequence"));
        assertEquals(0, r.counters().value("host0", "roce_adp_retrans"));
        assertEquals(PACKETS, r.counters().value("host0", "path_ev_round_robin"));
    }

    @Test
    void sprayingOverSlowerSpinesReordersAndGoBackNResends() throws IOException {
        // four 25 Gb/s uplinks under a 100 Gb/s host: the round robin's shuffled order queues unevenly at the
        // uplinks, so packets overtake each other; the go-back-N receiver drops what comes early and the
        // sender resends from the gap. One port (ECMP) keeps the flow in order on one uplink.
        final Runner sprayed = run("{policy: oblivious}", 25);
        final long ooo = sprayed.counters().value("host1", "out_of_sequence");
        final long resent = sprayed.counters().value("host0", "roce_adp_retrans");
        assertTrue(ooo > 0, "out of order: " + ooo);
        assertTrue(resent > 0, "resent: " + resent);
        assertEquals(sprayed.counters().value("host1", "tx_nak_packets"), sprayed.counters().value("host0", "packet_seq_err"));
        final Runner ecmp = run("{policy: ecmp}", 25);
        assertEquals(0, ecmp.counters().value("host1", "out_of_sequence"));
        assertEquals(0, ecmp.counters().value("host0", "roce_adp_retrans"));
    }

    @Test
    void badPathFieldsAreRejected() {
        final String word = assertThrows(ScenarioException.class, () -> run("{policy: random}", 100)).getMessage();
        assertTrue(word.contains("nic.path.policy"), word);
        final String pow = assertThrows(ScenarioException.class, () -> run("{policy: bitmap, entropies: 48}", 100))
            .getMessage();
        assertTrue(pow.endsWith("nic.path.entropies: expected a power of two, got 48"), pow);
    }
}
