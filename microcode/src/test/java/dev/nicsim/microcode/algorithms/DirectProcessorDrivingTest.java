package dev.nicsim.microcode.algorithms;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each algorithm found by name and driven through microcode's {@link DirectCcProcessor}: results
 * come back through the sink with the event's time, and the algorithm's counters appear among the
 * processor's. Path: 100 Gb/s, MTU 1000 B, base RTT 10 us (BDP 125,000 B).
 */
class DirectProcessorDrivingTest {
    private static final long LINE = 100_000_000_000L;
    private static final int QPN = 0x1234;

    /** Keeps a copy of the last result. */
    private static final class LastResult {
        final PccResult last = new PccResult();
        long effectivePs = -1;
        int results;
    }

    private final UnsafeBuffer eventBuffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    private final PccEvent event = new PccEvent().wrap(eventBuffer, 0);

    private DirectCcProcessor processor(final String name, final LastResult sink) {
        final PccAlgorithmProvider provider = PccAlgorithms.byName(name);
        final PccAlgorithm algorithm = provider.create(provider.defaults());
        return new DirectCcProcessor(algorithm, 0, (qpn, result, effectivePs, cycles) -> {
            assertEquals(QPN, qpn);
            sink.last.copyFrom(result);
            sink.effectivePs = effectivePs;
            sink.results++;
        });
    }

    private PccEvent ack(final int firstSn, final int sn, final boolean ece, final int tsNs) {
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, QPN, sn, tsNs).flags(ece ? PccEventLayout.FLAG_ECE : 0);
        eventBuffer.putInt(PccEventLayout.FIRST_SN_OFFSET, firstSn, ByteOrder.LITTLE_ENDIAN);
        return event;
    }

    private static Map<String, Long> counters(final DirectCcProcessor p) {
        final Map<String, Long> m = new LinkedHashMap<>();
        p.forEachCounter(m::put);
        return m;
    }

    @Test
    void ldcpThroughTheProcessor() {
        final LastResult sink = new LastResult();
        final DirectCcProcessor p = processor("ldcp", sink);
        p.startFlow(QPN, 0, LINE, 1000, 10_000);
        assertEquals(125_000, sink.last.windowBytes());
        assertEquals(125, sink.last.fastStartPackets());
        // loss at PSN 40 in fast start: cw = 40 packets, window 40,000 B
        event.reset(PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, QPN, 40, 20_000);
        p.offer(event, 20_000_000L);
        assertEquals(40_000, sink.last.windowBytes());
        assertEquals(0, sink.last.fastStartPackets());
        assertEquals(20_000_000L, sink.effectivePs);
        // marked ACK: 40 - 1/2 = 39.5 packets
        p.offer(ack(40, 40, true, 30_000), 30_000_000L);
        assertEquals(39_500, sink.last.windowBytes());
        final Map<String, Long> c = counters(p);
        assertEquals(1L, c.get("ack_events_handled"));
        assertEquals(1L, c.get("nack_events_handled"));
        assertEquals(1L, c.get("ldcp_fast_start_exit_loss"));
    }

    @Test
    void ldcpPccThroughTheProcessor() {
        final LastResult sink = new LastResult();
        final DirectCcProcessor p = processor("ldcp-pcc", sink);
        p.startFlow(QPN, 0, LINE, 1000, 10_000);
        assertEquals(FixedPoint.RATE_ONE, sink.last.rate());
        assertTrue(sink.last.rttProbeRequest());
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, QPN, 0, 5_000);
        p.offer(event, 5_000_000L);
        assertEquals(1_044_381, sink.last.rate()); // 124.5 / 125 of line, see LdcpPccAlgorithmTest
        assertEquals(1L, counters(p).get("ldcp_pcc_cnps"));
    }

    @Test
    void dctcpThroughTheProcessor() {
        final LastResult sink = new LastResult();
        final DirectCcProcessor p = processor("dctcp", sink);
        p.startFlow(QPN, 0, LINE, 1000, 10_000);
        assertEquals(125_000, sink.last.windowBytes());
        event.reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, QPN, 15, 1_000).tx(16_000, 16);
        p.offer(event, 1_000_000L);
        // first ACK with ECE: window 1 (this ACK) has M = 1 -> alpha stays 1; cwnd halves
        p.offer(ack(0, 0, true, 12_000), 12_000_000L);
        assertEquals(62_500, sink.last.windowBytes());
        assertEquals(1L, counters(p).get("dctcp_ecn_reductions"));
    }

    @Test
    void dcqcnThroughTheProcessor() {
        final LastResult sink = new LastResult();
        final DirectCcProcessor p = processor("dcqcn", sink);
        p.startFlow(QPN, 0, LINE, 1000, 10_000);
        assertEquals(FixedPoint.RATE_ONE, sink.last.rate());
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, QPN, 0, 10_000);
        p.offer(event, 10_000_000L);
        assertEquals(4_000, sink.last.timerNs());
        event.reset(PccEventType.TIMER, PccEventType.SUBTYPE_NONE, QPN, 0, 14_000);
        p.offer(event, 14_000_000L);
        assertEquals(534_960, sink.last.rate()); // see DcqcnAlgorithmTest: Rc 51,017,762 kb/s
        assertEquals(300_000, sink.last.timerNs());
        final Map<String, Long> c = counters(p);
        assertEquals(1L, c.get("dcqcn_cnp_handled"));
        assertEquals(1L, c.get("dcqcn_rate_decreases"));
        assertEquals(1L, c.get("timer_events_handled"));
    }

    @Test
    void handlersAllocateNothingInSteadyState() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (final String name : new String[] {"ldcp", "ldcp-pcc", "dctcp", "dcqcn"}) {
            final Harness h = new Harness(PccAlgorithms.byName(name));
            h.init(0);
            runMix(h, 0, 20_000); // warm up (class loading, JIT)
            final long before = threads.getCurrentThreadAllocatedBytes();
            runMix(h, 20_000, 20_000);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // 20,000 events x 6 types: any per-event allocation would be >= 120,000 x 16 bytes
            assertTrue(allocated < 4_096, name + " allocated " + allocated + " bytes");
        }
    }

    private static void runMix(final Harness h, final int from, final int count) {
        for (int i = from; i < from + count; i++) {
            final int t = 1_000 * i;
            h.tx(i * 4 + 3, 4_000, 4, t);
            h.ack(i * 4, i * 4 + 3, (i & 7) == 0, t + 100, t - 9_000);
            h.cnp(t + 200);
            h.rttResponse(t + 300, t - 10_000, t - 5_000, t - 4_900);
            h.timer(t + 400);
            h.nack((i & 15) == 0 ? PccEventType.NACK_OUT_OF_SEQUENCE : PccEventType.NACK_RNR, i * 4 + 4, i * 4 + 4, t + 500);
        }
    }
}
