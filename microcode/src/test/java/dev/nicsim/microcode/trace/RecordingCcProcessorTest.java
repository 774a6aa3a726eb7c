package dev.nicsim.microcode.trace;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link RecordingCcProcessor} reports every call and result in order and changes nothing. */
class RecordingCcProcessorTest {

    /** Halves the rate on every CNP (context word 0 holds the rate); other events change nothing. */
    private static final class HalvingAlgorithm implements PccAlgorithm {
        private final PccCounters counters = new PccCounters();

        @Override
        public int contextWords() {
            return 1;
        }

        @Override
        public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                             final PccResult result) {
            context.set(0, FixedPoint.RATE_ONE);
            result.rate(FixedPoint.RATE_ONE);
        }

        @Override
        public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                            final PccResult result) {
            if (event.type() == PccEventType.CNP) {
                context.set(0, context.get(0) / 2);
                result.rate(context.get(0));
            }
        }

        @Override
        public PccCounters counters() {
            return counters;
        }
    }

    /** Writes each call as a line. */
    private static final class Log implements PccTraceListener {
        final List<String> lines = new ArrayList<>();

        @Override
        public void onFlowStart(final int qpn, final long timePs, final long lineRateBitsPerSec, final int mtuBytes,
                                final int baseRttNs, final int initialPsn) {
            lines.add("start " + qpn + " @" + timePs + " " + lineRateBitsPerSec + " " + mtuBytes + " " + baseRttNs
                + (initialPsn != 0 ? " psn " + initialPsn : ""));
        }

        @Override
        public void onFlowEnd(final int qpn, final long timePs) {
            lines.add("end " + qpn + " @" + timePs);
        }

        @Override
        public void onEvent(final PccEvent event, final long timePs) {
            lines.add("event " + PccEventType.name(event.type()) + " " + event.flowId() + " sn=" + event.sn() + " @" + timePs);
        }

        @Override
        public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
            lines.add("result " + qpn + " rate=" + result.rate() + " @" + effectivePs + " cycles=" + cycles);
        }
    }

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    private final PccEvent event = new PccEvent().wrap(buffer, 0);

    @Test
    void reportsStartsEventsResultsAndEndsInOrderAndForwardsResults() {
        final Log log = new Log();
        final List<String> nic = new ArrayList<>();
        final CcResultSink downstream = (qpn, r, eff, cycles) -> nic.add(qpn + ":" + r.rate() + "@" + eff);
        final RecordingCcProcessor p = new RecordingCcProcessor(log, downstream,
            sink -> new DirectCcProcessor(new HalvingAlgorithm(), 0, sink));
        p.startFlow(7, 1_000, 100_000_000_000L, 1024, 8_000);
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, 7, 5, 2);
        assertEquals(true, p.offer(event, 2_000));
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 7, 6, 3);
        p.offer(event, 3_000);
        p.advance(4_000);
        p.endFlow(7);
        // rate: line rate 2^20 = 1048576 at start, halved by the CNP to 524288; the ACK changes
        // nothing (RATE_UNCHANGED = -1); the direct processor's results take effect at arrival with
        // 0 cycles; endFlow is reported at the latest time seen (the advance at 4000 ps)
        assertEquals(List.of(
            "start 7 @1000 100000000000 1024 8000",
            "result 7 rate=1048576 @1000 cycles=0",
            "event CNP 7 sn=5 @2000",
            "result 7 rate=524288 @2000 cycles=0",
            "event ACK 7 sn=6 @3000",
            "result 7 rate=-1 @3000 cycles=0",
            "end 7 @4000"), log.lines);
        // the NIC gets the same results, unchanged, in the same order
        assertEquals(List.of("7:1048576@1000", "7:524288@2000", "7:-1@3000"), nic);
        // counters come from the wrapped processor: one CNP and one ACK handled
        final List<String> counters = new ArrayList<>();
        p.forEachCounter((name, v) -> counters.add(name + "=" + v));
        assertEquals("cnp_events_handled=1", counters.get(PccEventType.CNP));
        assertEquals("ack_events_handled=1", counters.get(PccEventType.ACK));
    }

    @Test
    void eventsOfferedFromAResultCallbackAreReportedAfterThatResult() {
        final Log log = new Log();
        final RecordingCcProcessor[] self = new RecordingCcProcessor[1];
        final UnsafeBuffer other = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent again = new PccEvent().wrap(other, 0);
        final CcResultSink downstream = (qpn, r, eff, cycles) -> {
            if (r.rate() == FixedPoint.RATE_ONE / 2) {
                // the NIC reacts to the halved rate by offering another CNP at once (re-entrant)
                again.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, qpn, 9, 5);
                self[0].offer(again, eff);
            }
        };
        self[0] = new RecordingCcProcessor(log, downstream, sink -> new DirectCcProcessor(new HalvingAlgorithm(), 0, sink));
        self[0].startFlow(3, 0, 25_000_000_000L, 4096, 10_000);
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, 3, 8, 4);
        self[0].offer(event, 5_000);
        // 2^20 -> 2^19 (first CNP) -> 2^18 (the re-entrant CNP, run after the first one's result)
        assertEquals(List.of(
            "start 3 @0 25000000000 4096 10000",
            "result 3 rate=1048576 @0 cycles=0",
            "event CNP 3 sn=8 @5000",
            "result 3 rate=524288 @5000 cycles=0",
            "event CNP 3 sn=9 @5000",
            "result 3 rate=262144 @5000 cycles=0"), log.lines);
    }

    @Test
    void theNoOpListenerAndAccessors() {
        final CcResultSink downstream = (qpn, r, eff, cycles) -> { };
        final DirectCcProcessor[] inner = new DirectCcProcessor[1];
        final RecordingCcProcessor p = new RecordingCcProcessor(PccTraceListener.NO_OP, downstream, sink -> {
            inner[0] = new DirectCcProcessor(new HalvingAlgorithm(), 0, sink);
            return inner[0];
        });
        assertSame(inner[0], p.delegate());
        assertSame(PccTraceListener.NO_OP, p.listener());
        p.startFlow(1, 0, 1_000_000_000L, 1024, 1_000);
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, 1, 0, 0);
        p.offer(event, 10);
        assertEquals(1, inner[0].handled(PccEventType.CNP));
        assertEquals(Long.MAX_VALUE, p.advance(20)); // the direct processor never needs waking
        assertThrows(IllegalArgumentException.class, () -> new RecordingCcProcessor(null, downstream, s -> inner[0]));
        assertThrows(IllegalArgumentException.class, () -> new RecordingCcProcessor(PccTraceListener.NO_OP, downstream, s -> null));
        final CcProcessor unused = inner[0];
        assertSame(unused, p.delegate());
    }
}
