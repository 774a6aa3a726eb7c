package dev.nicsim.traces.replay;

import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * House rule "hot paths allocate nothing in steady state", for the two per-event paths of this
 * package: recording (the simulation thread writing each event and result through Chronicle's
 * generated method writer) and replaying (each event offered, its result written to the CSVs).
 * After a warm-up (recording: 100,000 events and results, past the classes Chronicle loads when
 * its first index blocks fill; replaying: 20,000 events), 20,000 more are measured: any per-event
 * allocation (at least 16 bytes each) would exceed 320,000 bytes; the bound is 8,192 bytes (JIT
 * deoptimisation may allocate a little once). Recording is measured over three such windows and
 * the smallest counts: Chronicle allocates a few kilobytes once in a while for its own
 * housekeeping (an index block, a newly mapped chunk; seen as 9,008 bytes in one window of one
 * run out of many), which is not per event.
 */
class TraceAllocationTest {
    private static final int N = 20_000;
    private static final int RECORDING_WARM_UP = 100_000;
    private static final long BOUND_BYTES = 8_192;

    @TempDir
    Path dir;

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void recordingAllocatesNothingPerEvent() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0);
        final PccResult r = new PccResult();
        try (ChronicleTraceWriter w = ChronicleTraceWriter.create(dir.resolve("t"), new TraceHeader())) {
            final PccTraceListener l = w.listener(0);
            l.onFlowStart(1, 0, 100_000_000_000L, 1024, 8_000, 0);
            long before = 0;
            long fewest = Long.MAX_VALUE;
            for (int i = 0; i < RECORDING_WARM_UP + 3 * N; i++) {
                if (i >= RECORDING_WARM_UP && (i - RECORDING_WARM_UP) % N == 0) {
                    if (i > RECORDING_WARM_UP) {
                        fewest = Math.min(fewest, allocated() - before);
                    }
                    before = allocated();
                }
                e.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 1, i, i);
                l.onEvent(e, i * 1_000L);
                l.onResult(1, r.reset().rate(1 << 19), i * 1_000L, 40);
            }
            fewest = Math.min(fewest, allocated() - before);
            assertTrue(fewest < BOUND_BYTES, "recording allocated " + fewest + " bytes for " + N + " events and results");
            assertEquals(RECORDING_WARM_UP + 3 * N, w.events());
        }
    }

    @Test
    void replayingAllocatesNothingPerEvent() throws IOException {
        final ReplayEngine.Settings s = new ReplayEngine.Settings(PccAlgorithms.byName("dctcp"),
            PccAlgorithms.byName("dctcp").defaults(), ReplayProcessor.DIRECT, 100_000_000_000L, 1024, 8_000, false);
        final TraceEvent te = new TraceEvent();
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0);
        try (ReplayEngine engine = new ReplayEngine(s, dir.resolve("replay"))) {
            long before = 0;
            for (int i = 0; i < 2 * N; i++) {
                if (i == N) {
                    before = allocated();
                }
                // a TX_BURST then its ACK, PSNs advancing: the DCTCP window grows, results change
                e.reset(i % 2 == 0 ? PccEventType.TX_BURST : PccEventType.ACK, PccEventType.SUBTYPE_NONE, 7, i / 2, i)
                    .tx(1024, 1);
                engine.event(te.set(0, e, i * 1_000L));
            }
            final long bytes = allocated() - before;
            assertTrue(bytes < BOUND_BYTES, "replaying allocated " + bytes + " bytes for " + N + " events");
            engine.finish();
            // one result for the flow start (at the first event) and one per event
            assertEquals(2L * N + 1, engine.results());
        }
    }
}
