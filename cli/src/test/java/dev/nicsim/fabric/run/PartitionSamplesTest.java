package dev.nicsim.fabric.run;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The partitions' shares of the samples ({@link PartitionSamples}, {@link ThroughputSampler#prepare}):
 * a partitioned run writes the same {@code queues.csv}, {@code rates.csv} and {@code throughput.csv}
 * bytes whether the partitions format their rows or the coordinator samples every device itself
 * ({@value Runner#SAMPLE_IN_PARTITIONS_PROPERTY}{@code =false}, the earlier code, here the oracle),
 * including at sample times where a global event changed devices just before the sample: the
 * permutation's 16 flows start at 10 us, a sample time, so the rate sample of 10 us must list all
 * 16 QPs at line rate (their start runs before the sample), which rows prepared at the window's
 * end, before the starts, would miss; a link goes down and up at sample times.
 */
class PartitionSamplesTest {
    @TempDir
    Path dir;

    @AfterEach
    void sampleInPartitionsDefault() {
        System.clearProperty(Runner.SAMPLE_IN_PARTITIONS_PROPERTY);
    }

    private static final String SCENARIO = """
        name: sample-shares
        seed: 3
        stop_time_us: 3000
        topology:
          type: leaf_spine
          leaves: 4
          spines: 2
          hosts_per_leaf: 4
          host_link: {rate_gbps: 100, delay_ns: 1000}
          fabric_link: {rate_gbps: 100, delay_ns: 1000}
        switch:
          buffer_bytes: 4194304
          pfc: {enabled: true, priorities: [3], mode: static, xoff_bytes: 100000, xon_bytes: 80000}
          wred: {priorities: [3], kmin_bytes: 20000, kmax_bytes: 80000, pmax: 0.2}
        algorithm:
          name: dcqcn
        workload:
          type: permutation
          size_bytes: 300000
          start_us: 10
        sampling: {queue_interval_us: 2, rate_interval_us: 2, throughput_interval_us: 2}
        link_events:
          - {at_us: 20, host: 5, state: down}
          - {at_us: 30, host: 5, state: up}
        """;

    private Path run(final Path scenario, final String name, final String sampleInPartitions) {
        System.setProperty(Runner.SAMPLE_IN_PARTITIONS_PROPERTY, sampleInPartitions);
        final Path out = dir.resolve(name);
        final Cli.Outcome o = Cli.run("run", scenario.toString(), "--out", out.toString(), "--no-progress",
            "--partitions", "4", "--threads", "2");
        assertEquals(0, o.exitCode(), o.err());
        return out;
    }

    @Test
    void partitionsWriteTheCoordinatorsSampleBytesIncludingAfterGlobalEventsAtTheSampleTime() throws IOException {
        final Path scenario = dir.resolve("sample-shares.yaml");
        Files.writeString(scenario, SCENARIO);
        final Path direct = run(scenario, "direct", "false");
        final Path shares = run(scenario, "shares", "true");
        for (final String f : List.of("queues.csv", "rates.csv", "throughput.csv", "flows.csv", "counters.csv")) {
            assertArrayEquals(Files.readAllBytes(direct.resolve(f)), Files.readAllBytes(shares.resolve(f)), f + " differs");
        }
        final List<String> rates = Files.readAllLines(shares.resolve("rates.csv"));
        final List<String> at10us = rates.stream().filter(l -> l.startsWith("10000,")).toList();
        assertEquals(16, at10us.size(), String.join("\n", at10us));
        assertTrue(at10us.stream().allMatch(l -> l.endsWith(",100000000000,0")), String.join("\n", at10us));
        assertTrue(rates.stream().noneMatch(l -> l.startsWith("8000,")), "no flow runs before 10 us");
        final long queueRows = Files.readAllLines(shares.resolve("queues.csv")).size() - 1;
        final long throughputRows = Files.readAllLines(shares.resolve("throughput.csv")).size() - 1;
        assertTrue(queueRows > 100 && throughputRows > 100, queueRows + " queue rows, " + throughputRows + " throughput rows");
    }
}
