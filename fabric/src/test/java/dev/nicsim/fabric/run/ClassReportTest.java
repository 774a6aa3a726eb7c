package dev.nicsim.fabric.run;

import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClassReport} and {@link ThroughputSampler}: per-class counts, delivered bytes, goodput,
 * mean and nearest-rank FCT and slowdown, computed by hand from four constructed flows, and the
 * sampler's per-interval rows.
 */
class ClassReportTest {
    private static final long SIMULATED_PS = 10_000_000; // 10 us

    /** Counts a data frame of {@code payload} bytes of flow {@code id}, as a host-facing switch port would. */
    private static void deliver(final ThroughputSampler s, final int id, final int payload, final long timePs) {
        final Packet p = new Packet();
        p.kind = Packet.KIND_DATA;
        p.flowId = id;
        p.payloadBytes = payload;
        s.onTransmit(null, p, timePs);
    }

    private static final List<FlowSpec> FLOWS = List.of(
        new FlowSpec(0, 0, 9, 1_000, 0, "background"),
        new FlowSpec(1, 1, 9, 20_000, 1_000_000, "hot"),
        new FlowSpec(2, 2, 9, 3_000, 2_000_000, "background"),
        new FlowSpec(3, 3, 9, 5_000, SIMULATED_PS, "hot")); // starts when the run ends: not started

    private static final List<FlowRecord> RECORDS = List.of(
        new FlowRecord(0, 0, 9, 1_000, 0, 4_000, 1_000),       // 4.0 us, slowdown 4.0
        new FlowRecord(1, 1, 9, 20_000, 1_000, 10_000, 5_000), // 10.0 us, slowdown 2.0
        new FlowRecord(2, 2, 9, 3_000, 2_000, 3_000, 2_000),   // 3.0 us, slowdown 1.5
        new FlowRecord(3, 3, 9, 5_000, 10_000, -1, 1_000));    // unfinished

    private static ClassReport report(final Path tmp) throws Exception {
        try (TimeSeriesWriter w = new TimeSeriesWriter(tmp.resolve("series"))) {
            final ThroughputSampler s = new ThroughputSampler(new Simulator(), w, 4, 1_000_000, List.of());
            deliver(s, 0, 1_000, 100);
            deliver(s, 1, 8_000, 200);
            deliver(s, 1, 4_000, 300);
            deliver(s, 2, 3_000, 400);
            assertEquals(12_000, s.deliveredBytes(1));
            assertEquals(0, s.deliveredBytes(3));
            return ClassReport.of(FLOWS, RECORDS, s, SIMULATED_PS);
        }
    }

    @Test
    void rowsPerClassInOrderOfFirstAppearanceThenAll(@TempDir final Path tmp) throws Exception {
        final List<ClassReport.Row> rows = report(tmp).rows();
        assertEquals(3, rows.size());
        // background: flows 0 and 2, 4000 B x 8 / 10 us = 3.2 Gb/s; FCT {3, 4} us: mean 3.5, p50 rank 1 = 3, p99 rank 2 = 4;
        // slowdown {1.5, 4}: mean 2.75, p99 4
        assertEquals(new ClassReport.Row("background", 2, 2, 2, 4_000, 3.2, 3.5, 3.0, 4.0, 2.75, 4.0), rows.get(0));
        final ClassReport.Row hot = rows.get(1);
        assertEquals("hot", hot.name());
        assertEquals(2, hot.flows());
        assertEquals(1, hot.started());
        assertEquals(1, hot.completed());
        assertEquals(12_000, hot.deliveredBytes());
        assertEquals(9.6, hot.throughputGbps(), 1e-12);
        assertEquals(10.0, hot.meanFctUs());
        assertEquals(10.0, hot.p50FctUs());
        assertEquals(10.0, hot.p99FctUs());
        assertEquals(2.0, hot.meanSlowdown());
        assertEquals(2.0, hot.p99Slowdown());
        // all: FCT {3, 4, 10}: mean 17/3, p50 rank 2 = 4, p99 rank 3 = 10; slowdown {1.5, 2, 4}: mean 2.5, p99 4
        final ClassReport.Row all = rows.get(2);
        assertEquals(ClassReport.ALL, all.name());
        assertEquals(4, all.flows());
        assertEquals(3, all.started());
        assertEquals(3, all.completed());
        assertEquals(16_000, all.deliveredBytes());
        assertEquals(12.8, all.throughputGbps(), 1e-12);
        assertEquals(17.0 / 3, all.meanFctUs(), 1e-12);
        assertEquals(4.0, all.p50FctUs());
        assertEquals(10.0, all.p99FctUs());
        assertEquals(2.5, all.meanSlowdown(), 1e-12);
        assertEquals(4.0, all.p99Slowdown());
    }

    @Test
    void classesCsvAndTable(@TempDir final Path tmp) throws Exception {
        final ClassReport r = report(tmp);
        r.write(tmp);
        assertEquals(List.of(
                "class,flows,started,completed,delivered_bytes,throughput_gbps,mean_fct_us,p50_fct_us,p99_fct_us,mean_slowdown,p99_slowdown",
                "background,2,2,2,4000,3.200,3.500,3.000,4.000,2.750,4.000",
                "hot,2,1,1,12000,9.600,10.000,10.000,10.000,2.000,2.000",
                "all,4,3,3,16000,12.800,5.667,4.000,10.000,2.500,4.000"),
            Files.readAllLines(tmp.resolve(ClassReport.FILE)));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(List.of(
            "class            flows completed  tput_Gbps mean_fct_us  p99_fct_us mean_slowdn",
            "background           2         2       3.20       3.500       4.000       2.750",
            "hot                  2         1       9.60      10.000      10.000       2.000",
            "all                  4         3      12.80       5.667      10.000       2.500"),
            bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void oneClassPrintsNothingAndAClassWithoutCompletionsHasEmptyFigures(@TempDir final Path tmp) throws Exception {
        final List<FlowSpec> flows = List.of(new FlowSpec(0, 0, 1, 100, 0), new FlowSpec(1, 0, 1, 200, 0));
        final List<FlowRecord> recs = List.of(new FlowRecord(0, 0, 1, 100, 0, -1, 10), new FlowRecord(1, 0, 1, 200, 0, -1, 10));
        try (TimeSeriesWriter w = new TimeSeriesWriter(tmp.resolve("series"))) {
            final ThroughputSampler s = new ThroughputSampler(new Simulator(), w, 2, 1_000, List.of());
            final ClassReport r = ClassReport.of(flows, recs, s, 1);
            assertEquals(2, r.rows().size());
            final ClassReport.Row row = r.rows().get(0);
            assertEquals(FlowSpec.DEFAULT_CLASS, row.name());
            assertEquals(2, row.flows());
            assertEquals(2, row.started()); // start 0 < 1 ps
            assertEquals(0, row.completed());
            assertEquals(0.0, row.throughputGbps());
            assertTrue(Double.isNaN(row.meanFctUs()) && Double.isNaN(row.p50FctUs()) && Double.isNaN(row.p99FctUs())
                && Double.isNaN(row.meanSlowdown()) && Double.isNaN(row.p99Slowdown()));
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            assertEquals(0, bytes.size());
            r.write(tmp);
            assertEquals("flow,2,2,0,0,0.000,,,,,", Files.readAllLines(tmp.resolve(ClassReport.FILE)).get(1));
            final IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
                () -> ClassReport.of(flows, recs.subList(0, 1), s, 1));
            assertEquals("flows (2) and records (1) differ", e1.getMessage());
            final IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class, () -> ClassReport.of(flows, recs, s, 0));
            assertEquals("simulatedPs must be > 0, got 0", e2.getMessage());
        }
    }

    @Test
    void samplerWritesOneRowPerFlowAndIntervalInGbps(@TempDir final Path tmp) throws Exception {
        final Simulator sim = new Simulator();
        try (TimeSeriesWriter w = new TimeSeriesWriter(tmp)) {
            final ThroughputSampler s = new ThroughputSampler(sim, w, 3, 1_000_000, List.of()); // 1 us
            assertEquals(1_000_000, s.intervalPs());
            deliver(s, 2, 1_000, 100);
            deliver(s, 0, 250, 200);
            deliver(s, 0, 250, 300);
            deliver(s, 3, 9_999, 300);  // no such flow: ignored
            deliver(s, -1, 9_999, 300); // no flow id: ignored
            final Packet ack = new Packet();
            ack.kind = Packet.KIND_DATA + 1;
            ack.flowId = 1;
            ack.payloadBytes = 777;
            s.onTransmit(null, ack, 400); // not data: ignored
            sim.runUntil(1_500_000);      // the sample at 1 us writes the first interval
            deliver(s, 1, 125, 1_600_000);
            s.finish(1_700_000);          // the interval it stopped in, stamped with its end, 2 us
            assertEquals(500, s.deliveredBytes(0));
            assertEquals(125, s.deliveredBytes(1));
            assertEquals(1_000, s.deliveredBytes(2));
            // on a fresh simulator (time 0), so only the sampler's own checks can refuse
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ThroughputSampler(new Simulator(), w, 1, 0, List.of()));
            assertEquals("intervalPs must be > 0, got 0", e.getMessage());
            assertEquals("flows must be >= 0, got -1", assertThrows(IllegalArgumentException.class,
                () -> new ThroughputSampler(new Simulator(), w, -1, 1, List.of())).getMessage());
            assertEquals(0, new ThroughputSampler(new Simulator(), w, 0, 1, List.of()).intervalPs() - 1); // no flows: allowed
        }
        // 500 B in 1 us = 4 Gb/s; 1000 B = 8 Gb/s; 125 B = 1 Gb/s; flows in id order within an interval
        assertEquals(List.of("time_ns,flow_id,bits_per_sec", "1000,0,4000000000", "1000,2,8000000000", "2000,1,1000000000"),
            Files.readAllLines(tmp.resolve(TimeSeriesWriter.THROUGHPUT_FILE)));
    }
}
