package dev.nicsim.fabric.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Reports} and {@link FlowRecord}: nearest-rank percentiles, the size buckets, the slowdown
 * selection, {@code flows.csv} and the summary table, against figures computed by hand from a small
 * constructed set of flows.
 */
class ReportsTest {
    private static final double[] ONE_TO_TEN = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

    @Test
    void percentileIsTheNearestRank() {
        // rank = ceil(p / 100 x n), value = sorted[rank - 1]
        assertEquals(5, Reports.percentile(ONE_TO_TEN, 50));   // ceil(5.0) = 5
        assertEquals(10, Reports.percentile(ONE_TO_TEN, 95));  // ceil(9.5) = 10
        assertEquals(10, Reports.percentile(ONE_TO_TEN, 99));  // ceil(9.9) = 10
        assertEquals(10, Reports.percentile(ONE_TO_TEN, 100)); // ceil(10) = 10
        assertEquals(1, Reports.percentile(ONE_TO_TEN, 10));   // ceil(1.0) = 1
        assertEquals(2, Reports.percentile(ONE_TO_TEN, 11));   // ceil(1.1) = 2
        assertEquals(3, Reports.percentile(ONE_TO_TEN, 21));   // ceil(2.1) = 3
        assertEquals(1, Reports.percentile(ONE_TO_TEN, 0.01)); // ceil(0.001) = 1
        assertEquals(7.5, Reports.percentile(new double[] {7.5}, 50));
        assertEquals(7.5, Reports.percentile(new double[] {7.5}, 99));
        // 4 values: p50 -> rank 2, p75 -> rank 3, p76 -> rank 4 (ceil 3.04)
        final double[] four = {0.5, 1.5, 2.5, 3.5};
        assertEquals(1.5, Reports.percentile(four, 50));
        assertEquals(2.5, Reports.percentile(four, 75));
        assertEquals(3.5, Reports.percentile(four, 76));
    }

    @Test
    void bucketsAreTheHpccPaperDecimalSizes() {
        assertEquals(4, Reports.SIZE_BUCKETS);
        assertEquals(0, Reports.bucketLowBytes(0));
        assertEquals(10_000, Reports.bucketLowBytes(1));
        assertEquals(100_000, Reports.bucketLowBytes(2));
        assertEquals(1_000_000, Reports.bucketLowBytes(3));
        assertEquals(Long.MAX_VALUE, Reports.bucketLowBytes(4));
        assertEquals("<10KB", Reports.bucketName(0));
        assertEquals("10-100KB", Reports.bucketName(1));
        assertEquals("100KB-1MB", Reports.bucketName(2));
        assertEquals(">=1MB", Reports.bucketName(3));
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> Reports.bucketName(4));
    }

    @Test
    void flowRecordSlowdownIsFctOverIdealAtLeastOne() {
        assertEquals(3.0, new FlowRecord(0, 0, 1, 100, 0, 3000, 1000).slowdown());
        assertEquals(1.0, new FlowRecord(0, 0, 1, 100, 0, 500, 1000).slowdown()); // faster than ideal: clamped
        assertEquals(1.0, new FlowRecord(0, 0, 1, 100, 0, 0, 1000).slowdown());
        assertTrue(new FlowRecord(0, 0, 1, 100, 0, 0, 1000).completed());
        assertTrue(Double.isNaN(new FlowRecord(0, 0, 1, 100, 0, -1, 1000).slowdown()));
        assertEquals(false, new FlowRecord(0, 0, 1, 100, 0, -1, 1000).completed());
    }

    /** Sizes on both sides of every bucket edge; flow 6 never completed. */
    private static List<FlowRecord> edgeFlows() {
        return List.of(
            new FlowRecord(0, 0, 9, 9_999, 0, 4000, 1000),         // <10KB, 4.0
            new FlowRecord(1, 1, 9, 10_000, 10, 2000, 1000),       // 10-100KB, 2.0
            new FlowRecord(2, 2, 9, 99_999, 20, 3000, 1000),       // 10-100KB, 3.0
            new FlowRecord(3, 3, 9, 100_000, 30, 1500, 1000),      // 100KB-1MB, 1.5
            new FlowRecord(4, 4, 9, 999_999, 40, 5000, 1000),      // 100KB-1MB, 5.0
            new FlowRecord(5, 5, 9, 1_000_000, 50, 1250, 1000),    // >=1MB, 1.25
            new FlowRecord(6, 6, 9, 1_000, 60, -1, 1000));         // <10KB, unfinished
    }

    @Test
    void sortedSlowdownsTakeTheCompletedFlowsOfABucketAscending() {
        final List<FlowRecord> f = edgeFlows();
        assertArrayEquals(new double[] {4.0}, Reports.sortedSlowdowns(f, 0, 10_000));
        assertArrayEquals(new double[] {2.0, 3.0}, Reports.sortedSlowdowns(f, 10_000, 100_000));
        assertArrayEquals(new double[] {1.5, 5.0}, Reports.sortedSlowdowns(f, 100_000, 1_000_000));
        assertArrayEquals(new double[] {1.25}, Reports.sortedSlowdowns(f, 1_000_000, Long.MAX_VALUE));
        assertArrayEquals(new double[] {1.25, 1.5, 2.0, 3.0, 4.0, 5.0}, Reports.sortedSlowdowns(f, Long.MIN_VALUE, Long.MAX_VALUE));
        assertArrayEquals(new double[0], Reports.sortedSlowdowns(f, 0, 9_999));
    }

    @Test
    void flowsCsvHasOneRowPerFlowAndEmptyFctWhenUnfinished(@TempDir final Path tmp) throws Exception {
        Reports.writeFlows(tmp, List.of(new FlowRecord(0, 3, 7, 1500, 250, 12_000, 3_000),
            new FlowRecord(1, 4, 7, 20_000, 500, -1, 5_000), new FlowRecord(2, 5, 7, 64, 0, 900, 1_000)));
        assertEquals(List.of("flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown",
                "0,3,7,1500,250,12000,3000,4.0000",
                "1,4,7,20000,500,,5000,",
                "2,5,7,64,0,900,1000,1.0000"),
            Files.readAllLines(tmp.resolve("flows.csv")));
    }

    @Test
    void runResultDerivedFigures() {
        final RunResult r = result(null);
        assertEquals(6, r.completedFlows());
        assertEquals(1.5e6, r.eventsPerSecond());        // 3e6 events in 2 s
        assertEquals(2e6, r.wallNsPerDataPacket());       // 2e9 ns over 1000 packets
        final RunResult idle = new RunResult("x", 1, List.of(), 0, 0, 5, 0, List.of(), 0, 0, 0, null, 0, 0, null);
        assertEquals(0, idle.eventsPerSecond());
        assertEquals(0, idle.wallNsPerDataPacket());
        assertEquals(0, idle.completedFlows());
        final RunResult.EmulatorFigures e = emulator();
        assertEquals(1 + 2 + 3 + 4 + 5 + 6, e.droppedTotal());
    }

    private static RunResult.EmulatorFigures emulator() {
        return new RunResult.EmulatorFigures(1234, 56, new long[] {1, 2, 3, 4, 5, 6}, 0.25, 0.875, 300, 1200, 600, 2400);
    }

    private static RunResult result(final RunResult.EmulatorFigures e) {
        return new RunResult("edges", 42, edgeFlows(), 12_345_678, 2_000_000_000L, 3_000_000, 1000,
            List.of(new RunResult.SwitchFigures("sw0", 81_920, 17, 3, 9), new RunResult.SwitchFigures("sw1", 0, 0, 0, 0)),
            11, 22, 33, e, 0, 0, null);
    }

    private static List<String> summary(final RunResult r) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Reports.printSummary(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void summaryTableOfADirectRun() {
        // all: 6 slowdowns 1.25 1.5 2 3 4 5: p50 rank 3 = 2.0, p95 rank ceil(5.7) = 6 = 5.0, p99 rank 6 = 5.0
        // <10KB: {4.0}; 10-100KB: {2, 3}: p50 rank 1 = 2.0, p95 rank 2 = 3.0; 100KB-1MB: {1.5, 5}; >=1MB: {1.25}
        // simulated 12 345 678 ps = 12.346 us; wall 2 s; 3e6 events / 2 s = 1.50 M/s; 2e9 ns / 1000 packets = 2000 us
        assertEquals(List.of("",
            "scenario edges (seed 42)",
            "flows done          6 / 7",
            "FCT slowdown           flows       p50       p95       p99",
            "all                        6     2.000     5.000     5.000",
            "<10KB                      1     4.000     4.000     4.000",
            "10-100KB                   2     2.000     3.000     3.000",
            "100KB-1MB                  2     1.500     5.000     5.000",
            ">=1MB                      1     1.250     1.250     1.250",
            "switch                 peak_queue_B  ce_marked      drops   pfc_sent",
            "sw0                           81920         17          3          9",
            "sw1                               0          0          0          0",
            "NIC CNPs sent       11",
            "NIC retransmissions 22 (timeouts 33)",
            "CC processor        direct (no processing delay)",
            "simulated time      12.346 us",
            "wall time           2.000 s",
            "events              3000000 (1.50 M events/s)",
            "data packets        1000 (2000.000 us wall per data packet)"), summary(result(null)));
    }

    @Test
    void summarySaysHowOftenTheKernelRanItsLookAhead() {
        final RunResult base = result(null);
        final RunResult r = new RunResult(base.scenarioName(), base.seed(), base.flows(), base.simulatedPs(),
            base.wallNanos(), base.events(), base.dataPackets(), base.switches(), base.cnpsSent(), base.retransmissions(),
            base.timeouts(), null, 1224, 76, null);
        final List<String> lines = summary(r);
        assertEquals("data packets        1000 (2000.000 us wall per data packet)", lines.get(lines.size() - 2));
        assertEquals("kernel look-ahead   on in 76 of 1224 epochs of 65536 events", lines.get(lines.size() - 1));
        // a result without kernel figures (epochs 0) prints no such line: the table above ends at data packets
    }

    @Test
    void summaryTableOfAnEmulatorRunAndOfEmptyBuckets() {
        final List<String> lines = summary(result(emulator()));
        assertEquals("uNIC emulator       1234 events handled, 56 coalesced, 21 dropped "
            + "(tx 1, ack 2, nack 3, cnp 4, rtt 5, timer 6)", lines.get(14));
        assertEquals("                    utilisation 25.0 % mean per NIC, 87.5 % busiest core; "
            + "latency p50 300 ns (600 cycles), p99 1200 ns (2400 cycles)", lines.get(15));
        assertEquals("simulated time      12.346 us", lines.get(16));
        final RunResult none = new RunResult("none", 7, List.of(new FlowRecord(0, 0, 1, 50, 0, -1, 10)), 1000, 0, 0, 0,
            List.of(), 0, 0, 0, null, 0, 0, null);
        final List<String> l = summary(none);
        assertEquals("flows done          0 / 1", l.get(2));
        assertEquals("all                        0         -         -         -", l.get(4));
        assertEquals("<10KB                      0         -         -         -", l.get(5));
        assertEquals("switch                 peak_queue_B  ce_marked      drops   pfc_sent", l.get(9));
        assertEquals("NIC CNPs sent       0", l.get(10));
    }
}
