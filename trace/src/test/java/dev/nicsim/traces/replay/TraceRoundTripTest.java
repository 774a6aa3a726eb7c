package dev.nicsim.traces.replay;

import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import net.openhft.chronicle.core.time.SetTimeProvider;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A trace written through the Chronicle method writer reads back record for record. */
class TraceRoundTripTest {
    @TempDir
    Path dir;

    /** Collects every record as its dump line. */
    static final class Lines implements TraceMessages {
        final List<String> lines = new ArrayList<>();

        @Override
        public void header(final TraceHeader header) {
            lines.add(header.toString());
        }

        @Override
        public void flowStart(final TraceFlowStart flowStart) {
            lines.add(flowStart.toString());
        }

        @Override
        public void flowEnd(final TraceFlowEnd flowEnd) {
            lines.add(flowEnd.toString());
        }

        @Override
        public void event(final TraceEvent event) {
            lines.add(event.toString());
        }

        @Override
        public void result(final TraceResult result) {
            lines.add(result.toString());
        }
    }

    private static TraceHeader header() {
        final TraceHeader h = new TraceHeader();
        h.origin = TraceHeader.ORIGIN_SIMULATION;
        h.input = "s.yaml";
        h.algorithm = "dcqcn";
        h.processor = "direct";
        h.parameters = "g=0.0625";
        h.seed = 7;
        return h;
    }

    private static List<String> files(final Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyRecordReadsBackInOrderAndTheTimeProviderNamesTheCycleFile() throws IOException {
        final Path t = dir.resolve("t");
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0);
        final PccResult r = new PccResult();
        // 2024-01-01T00:00:00Z pinned: the FAST_DAILY cycle file is 20240101F.cq4
        try (ChronicleTraceWriter w = ChronicleTraceWriter.create(t, header(),
            new SetTimeProvider(Instant.parse("2024-01-01T00:00:00Z")))) {
            final PccTraceListener l = w.listener(3);
            l.onFlowStart(17, 1_000, 100_000_000_000L, 1024, 8_064, 16_777_200);
            l.onResult(17, r.reset().rate(1 << 20).fastStartPackets(12), 1_000, 0);
            e.reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, 17, 15, 2).firstSn(0).tx(16_384, 16)
                .flags(PccEventLayout.FLAG_FIRST_IN_FLOW);
            l.onEvent(e, 2_500);
            l.onResult(17, r.reset().windowBytes(65_536).armTimerNs(40), 2_500, 120);
            e.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, 17, 15, -1).flags(PccEventLayout.FLAG_BECN);
            w.eventSink().onEvent(e, 3_000_001);
            l.onFlowEnd(17, 4_000_000);
            assertEquals(1, w.flowStarts());
            assertEquals(2, w.events());
            assertEquals(2, w.results());
            assertEquals(1, w.flowEnds());
            w.finish();
        }
        assertEquals(List.of("20240101F.cq4", "metadata.cq4t"), files(t));
        final Lines lines = new Lines();
        try (ChronicleTraceReader rd = ChronicleTraceReader.open(t)) {
            assertEquals(header(), rd.header());
            assertEquals(8, rd.read(lines)); // header, 6 records, end
        }
        assertEquals(List.of(
            "# nicsim-pcc-trace v3 origin=simulation input=s.yaml algorithm=dcqcn processor=direct seed=7 parameters=g=0.0625",
            "flow_start time_ns=1 src=3 qpn=17 line_rate_bits_per_sec=100000000000 mtu_bytes=1024 base_rtt_ns=8064 initial_psn=16777200",
            "result time_ns=1 src=3 qpn=17 rate=1048576 window_bytes=-1 cycles=0 rtt_probe=0 timer_ns=0 fast_start_packets=12",
            "event time_ns=2.500 src=3 qpn=17 type=TX_BURST subtype=0 sn=15 first_sn=0 num_coalesced=1 flags=0x02 port=0"
                + " ts_ns=2 first_ts_ns=2 tx_bytes=16384 tx_packets=16 rtt_request_send_ns=0 rtt_request_receive_ns=0"
                + " rtt_response_send_ns=0",
            "result time_ns=2.500 src=3 qpn=17 rate=-1 window_bytes=65536 cycles=120 rtt_probe=0 timer_ns=40"
                + " fast_start_packets=-1",
            // the capture sink takes the source from the event's port (0 here); the 32-bit ns
            // timestamp -1 prints unsigned: 2^32 - 1 = 4294967295
            "event time_ns=3000.001 src=0 qpn=17 type=CNP subtype=0 sn=15 first_sn=15 num_coalesced=1 flags=0x04 port=0"
                + " ts_ns=4294967295 first_ts_ns=4294967295 tx_bytes=0 tx_packets=0 rtt_request_send_ns=0"
                + " rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "flow_end time_ns=4000 src=3 qpn=17"), lines.lines);
    }

    @Test
    void theSameRecordsGiveTheSameBytesAndARerunReplacesTheTrace() throws IOException {
        final Path a = dir.resolve("a");
        final Path b = dir.resolve("b");
        for (final Path t : List.of(a, b, a)) { // a is written twice: the second run replaces the first
            try (ChronicleTraceWriter w = ChronicleTraceWriter.create(t, header())) {
                final PccTraceListener l = w.listener(0);
                l.onFlowStart(1, 0, 25_000_000_000L, 4096, 2_000, 0);
                l.onResult(1, new PccResult().rate(1 << 19), 0, 0);
                w.finish();
            }
        }
        // default clock pinned at the Unix epoch: 19700101F.cq4
        assertEquals(List.of("19700101F.cq4", "metadata.cq4t"), files(a));
        assertArrayEquals(Files.readAllBytes(a.resolve("19700101F.cq4")), Files.readAllBytes(b.resolve("19700101F.cq4")));
        final Lines lines = new Lines();
        try (ChronicleTraceReader rd = ChronicleTraceReader.open(a)) {
            assertEquals(4, rd.read(lines)); // header, flow start, result, end: not 7 (no appending to the old trace)
        }
    }

    @Test
    void directoriesThatAreNotTracesAreRejectedWithOneLine() throws IOException {
        final TraceException missing = assertThrows(TraceException.class, () -> ChronicleTraceReader.open(dir.resolve("nope")));
        assertEquals(dir.resolve("nope") + ": no such trace directory", missing.getMessage());
        final TraceException empty = assertThrows(TraceException.class, () -> ChronicleTraceReader.open(dir));
        assertTrue(empty.getMessage().contains("not a nicsim trace directory"), empty.getMessage());
        final Path file = Files.writeString(dir.resolve("f.txt"), "x");
        assertTrue(assertThrows(TraceException.class, () -> ChronicleTraceReader.open(file)).getMessage()
            .contains("a file, not a directory"));
        // writing into a directory that holds other files is refused, and nothing is deleted
        final TraceException occupied = assertThrows(TraceException.class, () -> ChronicleTraceWriter.create(dir, header()));
        assertTrue(occupied.getMessage().contains("f.txt"), occupied.getMessage());
        assertTrue(Files.exists(file));
    }
}
