package dev.nicsim.fabric.rcm;

import dev.nicsim.fabric.run.ClassReport;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.ThroughputChart;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throughput.csv} for trivial runs derived by hand: one flow alone on a two-host star
 * (100 Gb/s, 1 us links, output-queued switch, MTU 1024), counted when its frames start
 * serialisation on the switch port toward the receiver.
 *
 * <p>Frame times: a WRITE FIRST frame is 1024 + 66 + 16 (RETH) = 1106 bytes, 1126 with preamble and
 * gap, 90.08 ns at 100 Gb/s; a MIDDLE/LAST frame is 1090 bytes, 1110 on the wire, 88.8 ns. DCQCN
 * starts a flow at line rate, so the NIC sends back to back from t = 0: frame 0 is fully at the
 * switch at 90.08 + 1000 = 1090.08 ns and starts on the switch's egress at once (store and
 * forward, no switch latency) until 1180.16 ns; frame 1 has arrived at 90.08 + 88.8 + 1000 =
 * 1178.88 ns and follows at 1180.16 ns; from then on frame i (i >= 1) starts at
 * {@code 1180.16 + (i - 1) x 88.8} ns.
 */
class ThroughputCsvTest {
    @TempDir
    Path dir;

    private List<String> run(final int packets, final double intervalUs, final boolean chart) throws IOException {
        final Path f = dir.resolve("t.yaml");
        Files.writeString(f, """
            name: tput
            topology: {type: star, hosts: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}
            nic: {mtu_bytes: 1024}
            algorithm: {name: dcqcn}
            workload:
              type: flows
              flows: [{src: 0, dst: 1, size_bytes: %d, class: solo}]
            sampling: {throughput_interval_us: %s, throughput_chart: %s}
            """.formatted(packets * 1024, intervalUs, chart));
        final Scenario s = ScenarioLoader.load(f, List.of(), null);
        final Path out = dir.resolve("out");
        final Runner r;
        final RunResult result;
        try (TimeSeriesWriter w = new TimeSeriesWriter(out)) {
            r = new Runner(s, w);
            result = r.run(x -> { });
        }
        if (chart) {
            final Path png = ThroughputChart.write(out, s.name(), r.flows(), s.sampling().throughputIntervalPs());
            assertTrue(Files.size(png) > 1000, "throughput.png is nearly empty");
            final byte[] head = Files.readAllBytes(png);
            assertEquals((byte) 0x89, head[0]); // PNG signature 0x89 'P' 'N' 'G'
            assertEquals('P', head[1]);
        }
        final ClassReport classes = ClassReport.of(r.flows(), result.flows(), r.throughput(), result.simulatedPs());
        assertEquals("solo", classes.rows().get(0).name());
        assertEquals(packets * 1024L, classes.rows().get(0).deliveredBytes());
        assertEquals(ClassReport.ALL, classes.rows().get(1).name());
        return Files.readAllLines(out.resolve("throughput.csv"));
    }

    @Test
    void tenPacketsInOneTenMicrosecondIntervalGiveOneRow() throws IOException {
        // all 10 frames start before 1180.16 + 8 x 88.8 = 1890.56 ns, inside (0, 10 us]; the run ends at
        // the last ACK (about 3 us), and the interval it ended in is written, stamped with its end:
        // 10 x 1024 bytes x 8 / 10 us = 8 192 000 000 bits/s
        assertEquals(List.of("time_ns,flow_id,bits_per_sec", "10000,0,8192000000"), run(10, 10, true));
    }

    @Test
    void thirtyPacketsAcrossOneMicrosecondIntervals() throws IOException {
        // (1, 2] us: frame 0 (1090.08 ns) and frames i >= 1 with 1180.16 + (i - 1) 88.8 <= 2000, i.e. i <= 10:
        //            11 frames -> 11 x 1024 x 8 / 1 us = 90 112 000 000
        // (2, 3] us: i - 1 <= (3000 - 1180.16) / 88.8 = 20.49, i.e. frames 11..21: 11 frames -> 90 112 000 000
        // (3, 4] us: frames 22..29 (frame 29 starts at 1180.16 + 28 x 88.8 = 3666.56 ns): 8 frames
        //            -> 8 x 1024 x 8 / 1 us = 65 536 000 000
        // (0, 1] us: nothing yet (the first frame reaches the switch at 1090.08 ns): no row
        assertEquals(List.of("time_ns,flow_id,bits_per_sec", "2000,0,90112000000", "3000,0,90112000000",
            "4000,0,65536000000"), run(30, 1, false));
    }
}
