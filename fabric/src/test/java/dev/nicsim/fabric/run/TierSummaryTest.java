package dev.nicsim.fabric.run;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TierSummary} ({@code tiers.csv}, {@code hot_ports.csv}): the nearest-rank percentile over
 * implicit zeros, the tiers of the shipped shapes, a one-packet flow on a two-host star against
 * figures derived by hand, a two-to-one incast against its own {@code queues.csv}, and a k = 4 fat
 * tree with its ports counted by hand, the same with two partitions as sequentially.
 */
class TierSummaryTest {
    @Test
    void percentileCountsTheZerosBeforeTheValues() {
        final long[] v = {10, 20, 30};
        // 5 zeros and 10, 20, 30: n = 8; p50 -> rank ceil(4) = 4 (a zero), p75 -> rank 6 (10), p76 -> rank
        // ceil(6.08) = 7 (20), p99 -> rank ceil(7.92) = 8 (30)
        assertEquals(0, TierSummary.percentileWithZeros(5, v, 3, 50));
        assertEquals(0, TierSummary.percentileWithZeros(5, v, 3, 62.5)); // rank 5: the last zero
        assertEquals(10, TierSummary.percentileWithZeros(5, v, 3, 75));
        assertEquals(20, TierSummary.percentileWithZeros(5, v, 3, 76));
        assertEquals(30, TierSummary.percentileWithZeros(5, v, 3, 99));
        // no zeros: p50 of 3 -> rank ceil(1.5) = 2
        assertEquals(20, TierSummary.percentileWithZeros(0, v, 3, 50));
        assertEquals(10, TierSummary.percentileWithZeros(0, v, 3, 33)); // ceil(0.99) = 1
        // only zeros
        assertEquals(0, TierSummary.percentileWithZeros(4, v, 0, 99));
    }

    @Test
    void utilisationIsBytesOverRateTimesTime() {
        // 1250 B in 1 us at 10 Gb/s: 10 000 bits of 10 000
        assertEquals(1.0, TierSummary.utilisation(1250, 10_000_000_000L, 1_000_000), 1e-12);
        assertEquals(0.25, TierSummary.utilisation(1250, 40_000_000_000L, 1_000_000), 1e-12);
        assertEquals(0, TierSummary.utilisation(1250, 40_000_000_000L, 0));
    }

    private static Scenario scenario(final Path dir, final String topology, final String more) throws Exception {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: tiers\ntopology: " + topology + "\nnic: {mtu_bytes: 1024}\nalgorithm: {name: dcqcn}\n" + more);
        return ScenarioLoader.load(f, List.of(), null);
    }

    @Test
    void aSwitchsTierIsItsHopsFromTheNearestHost(@TempDir final Path tmp) throws Exception {
        final String flow = "workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000}]}\n";
        final TopologyGraph ft = TopologyGraph.build(scenario(tmp,
            "{type: fat_tree, k: 4, host_link: {rate_gbps: 100, delay_ns: 1000}}", flow).topology());
        final int[] d = TierSummary.hopsFromHosts(ft);
        assertEquals(16, ft.hosts());
        for (int h = 0; h < 16; h++) {
            assertEquals(0, d[h]);
        }
        for (int s = 0; s < ft.switches(); s++) {
            final String name = ft.switchName(s);
            final int want = name.startsWith("edge") ? 1 : name.startsWith("agg") ? 2 : 3;
            assertEquals(want, d[16 + s], name);
        }
        final TopologyGraph ls = TopologyGraph.build(scenario(tmp,
            "{type: leaf_spine, leaves: 2, spines: 3, hosts_per_leaf: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}",
            flow).topology());
        final int[] e = TierSummary.hopsFromHosts(ls);
        assertEquals(List.of(1, 1, 2, 2, 2), List.of(e[4], e[5], e[6], e[7], e[8])); // leaf0, leaf1, spine0..2
        final TopologyGraph db = TopologyGraph.build(scenario(tmp,
            "{type: dumbbell, hosts_per_side: 1, host_link: {rate_gbps: 100, delay_ns: 1000}}", flow).topology());
        final int[] b = TierSummary.hopsFromHosts(db);
        assertEquals(1, b[2]); // left
        assertEquals(1, b[3]); // right: the middle link is "across"
    }

    private static List<String> lines(final Path f) throws Exception {
        return Files.readAllLines(f);
    }

    private record Run(Runner runner, RunResult result, Path out) {
    }

    private static Run run(final Scenario s, final Path out, final int partitions) throws Exception {
        final Runner r;
        final RunResult result;
        try (TimeSeriesWriter w = new TimeSeriesWriter(out)) {
            r = new Runner(s, w, null, partitions, 1);
            result = r.run(x -> { });
        }
        r.tiers().write(out, result.simulatedPs());
        return new Run(r, result, out);
    }

    @Test
    void aOnePacketFlowOnATwoHostStar(@TempDir final Path tmp) throws Exception {
        final Scenario s = scenario(tmp, "{type: star, hosts: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}",
            "workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000}]}\n"
                + "sampling: {queue_interval_us: 1}\n");
        final Run r = run(s, tmp.resolve("out"), 1);
        // RunnerTinyScenarioTest: data frame 1000 + 66 + 16 = 1082 B, ACK 70 B, the run ends at the ACK, 4 190 720 ps.
        assertEquals(4_190_720, r.result().simulatedPs());
        // utilisation = bytes x 8 / (100 Gb/s x 4.19072 us): 1082 B -> 8656 / 419 072 = 0.020655, 70 B -> 0.001336;
        // mean 0.010996; of two ports p50 is rank ceil(1) = 1 (the lower), p99 rank 2.
        // sw0 (tier 1, no name for a star) sends the data frame to host1 and the ACK to host0: both ports down.
        // Queue samples at 0, 1, 2, 3, 4 us (while the flow runs) x 2 ports x 8 priorities = 80, none non-empty
        // (the frame waits less than 1 us): p50, p99, max 0; no non-empty percentiles; the peak is the frame, 1082 B.
        assertEquals(List.of(
            "tier,name,direction,ports,tx_bytes,util_mean,util_p50,util_p99,util_max,queue_samples,nonempty_samples,"
                + "queue_p50_bytes,queue_p99_bytes,queue_max_bytes,nonempty_p50_bytes,nonempty_p99_bytes,peak_depth_bytes,"
                + "ecn_marked_packets,pfc_pauses_sent,drops",
            "0,host,up,2,1152,0.010996,0.001336,0.020655,0.020655,,,,,,,,,,,",
            "1,tier1,down,2,1152,0.010996,0.001336,0.020655,0.020655,80,0,0,0,0,,,1082,0,0,0"),
            lines(r.out().resolve(TierSummary.FILE)));
        // both ports queued one frame, never seen by a sample: port 1 toward host1 the data frame (1082 B), then
        // port 0 toward host0 the ACK (70 B)
        assertEquals(List.of("rank,switch,port,tier,direction,peer,peak_depth_bytes,sampled_max_bytes,utilisation,tx_bytes,"
                + "ecn_marked_packets,pfc_pauses_sent,drops",
            "1,sw0,1,1,down,host1,1082,0,0.020655,1082,0,0,0", "2,sw0,0,1,down,host0,70,0,0.001336,70,0,0,0"),
            lines(r.out().resolve(TierSummary.HOT_FILE)));
    }

    @Test
    void aDumbbellsMiddleLinkIsAcross(@TempDir final Path tmp) throws Exception {
        final Scenario s = scenario(tmp, "{type: dumbbell, hosts_per_side: 1, host_link: {rate_gbps: 100, delay_ns: 1000}}",
            "workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000}]}\n");
        final Run r = run(s, tmp.resolve("out"), 1);
        final List<String> groups = new ArrayList<>();
        final List<String> rows = lines(r.out().resolve(TierSummary.FILE));
        for (final String row : rows.subList(1, rows.size())) {
            final String[] f = row.split(",");
            groups.add(String.join(",", f[0], f[1], f[2], f[3], f[4]));
        }
        // left and right are both tier 1: their host ports are down, the link between them across. The data frame
        // (1082 B) crosses host0 -> left -> right -> host1, the ACK (70 B) the other way: 1152 B on each pair
        assertEquals(List.of("0,host,up,2,1152", "1,tier1,down,2,1152", "1,tier1,across,2,1152"), groups);
    }

    @Test
    void anIncastsQueuePercentilesAreThoseOfItsQueuesCsv(@TempDir final Path tmp) throws Exception {
        final Scenario s = scenario(tmp, "{type: star, hosts: 3, host_link: {rate_gbps: 100, delay_ns: 1000}}",
            "workload: {type: flows, flows: [{src: 0, dst: 2, size_bytes: 100000}, {src: 1, dst: 2, size_bytes: 100000}]}\n"
                + "sampling: {queue_interval_us: 1}\n");
        final Run r = run(s, tmp.resolve("out"), 1);
        final List<Long> depths = new ArrayList<>();
        final List<String> q = lines(r.out().resolve("queues.csv"));
        for (final String row : q.subList(1, q.size())) {
            final long depth = Long.parseLong(row.split(",")[4]);
            if (depth > 0) {
                depths.add(depth);
            }
        }
        depths.sort(null);
        final int n = depths.size();
        assertTrue(n >= 5, "the incast queue is sampled non-empty " + n + " times");
        final long samples = (r.result().simulatedPs() + 999_999) / 1_000_000; // at 0, 1, .. us while flows run
        final long all = samples * 3 * 8;
        // nearest rank over all - n zeros and the n depths
        final long p99 = 0.99 * all <= all - n ? 0 : depths.get((int) (Math.ceil(0.99 * all) - (all - n) - 1));
        final String[] row = lines(r.out().resolve(TierSummary.FILE)).get(2).split(",", -1);
        assertEquals("1,tier1,down,3", String.join(",", row[0], row[1], row[2], row[3]));
        assertEquals(List.of(String.valueOf(all), String.valueOf(n), "0", String.valueOf(p99), String.valueOf(depths.get(n - 1)),
            String.valueOf(depths.get((int) Math.ceil(0.5 * n) - 1)), String.valueOf(depths.get((int) Math.ceil(0.99 * n) - 1))),
            List.of(row[9], row[10], row[11], row[12], row[13], row[14], row[15]));
        final String[] hot = lines(r.out().resolve(TierSummary.HOT_FILE)).get(1).split(",");
        assertEquals(List.of("1", "sw0", "2", "host2", String.valueOf(depths.get(n - 1))), List.of(hot[0], hot[1], hot[2], hot[5], hot[7]));
    }

    @Test
    void aFatTreesTiersAreTheSameWithTwoPartitions(@TempDir final Path tmp) throws Exception {
        final Scenario s = ScenarioLoader.load(TestPaths.root().resolve("benchmarks/scale/fat-tree-websearch-dcqcn.yaml"),
            List.of("topology.k=4", "workload.flows=40", "workload.cdf=" + TestPaths.root().resolve("workloads/websearch.cdf")),
            null);
        final Run seq = run(s, tmp.resolve("seq"), 1);
        final Run two = run(s, tmp.resolve("two"), 2);
        final List<String> tiers = lines(seq.out().resolve(TierSummary.FILE));
        assertEquals(tiers, lines(two.out().resolve(TierSummary.FILE)));
        assertEquals(lines(seq.out().resolve(TierSummary.HOT_FILE)), lines(two.out().resolve(TierSummary.HOT_FILE)));
        // k = 4: 16 hosts; 8 edge switches with 2 hosts and 2 aggs each, 8 aggs with 2 edges and 2 cores, 4 cores with 4 aggs
        final List<String> groups = new ArrayList<>();
        for (final String row : tiers.subList(1, tiers.size())) {
            final String[] f = row.split(",");
            groups.add(String.join(",", f[0], f[1], f[2], f[3]));
        }
        assertEquals(List.of("0,host,up,16", "1,edge,up,16", "1,edge,down,16", "2,agg,up,16", "2,agg,down,16", "3,core,down,16"),
            groups);
        assertEquals(21, lines(seq.out().resolve(TierSummary.HOT_FILE)).size()); // header + 20
        // the hottest port's peak is the largest switch peak of the summary
        final long peak = seq.result().switches().stream().mapToLong(RunResult.SwitchFigures::peakQueueBytes).max().orElseThrow();
        assertEquals(String.valueOf(peak), lines(seq.out().resolve(TierSummary.HOT_FILE)).get(1).split(",")[6]);
    }
}
