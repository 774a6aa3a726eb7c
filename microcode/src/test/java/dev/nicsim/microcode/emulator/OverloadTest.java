package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Overload: a full queue drops and counts per type; the algorithm sees the flag above the high-water mark. */
class OverloadTest {
    private static final long NS = 1_000L;

    /**
     * One core, one thread, queue of 4 events, high-water mark 2; each event 100 ns.
     * <pre>
     * @0   ACK f1        dispatched at once (queue empty again)     runs 0-100
     * @10  ACK f2..f5    queue depth 1, 2, 3, 4                      all accepted
     * @10  CNP f6        depth 4 = capacity                          dropped: cnp_events_dropped = 1
     * @100 f2 taken with 3 still waiting (3 > 2): overloaded          runs 100-200
     * @200 f3 taken with 2 waiting (not > 2)                          ...
     * @600 CNP f6 again  queue empty                                  accepted, runs 600-700
     * </pre>
     */
    @Test
    void fullRingDropsTheNextEventAndCountsExactlyOneDropOfItsType() {
        final Stepper s = new Stepper();
        final List<RecordingAlgorithm.Seen> seen = new ArrayList<>();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).ringCapacity(4)
            .overloadHighWaterMark(2).dispatchCycles(0).contextHitCycles(0).contextMissCycles(0).writeBackCycles(0);
        final UnicEmulator emu = new UnicEmulator(cfg,
            () -> new RecordingAlgorithm(0, seen, 100, 100, 100, 100, 100, 100), 0, s);
        s.processor = emu;
        for (int f = 1; f <= 6; f++) {
            emu.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        s.results.clear();

        s.event.reset(PccEventType.ACK, 0, 1, 1, 0);
        assertTrue(s.offer(0));
        for (int f = 2; f <= 5; f++) {
            s.event.reset(PccEventType.ACK, 0, f, 1, 10);
            assertTrue(s.offer(10 * NS));
        }
        s.event.reset(PccEventType.CNP, 0, 6, 1, 10);
        assertFalse(s.offer(10 * NS));

        final Map<String, Long> c = new LinkedHashMap<>();
        emu.forEachCounter(c::put);
        assertEquals(1L, c.get("cnp_events_dropped"));
        for (final String t : new String[] {"tx", "ack", "nack", "rtt", "timer"}) {
            assertEquals(0L, c.get(t + "_events_dropped"), t);
        }
        assertEquals(4L, c.get("ring_high_water_events"));
        assertEquals(1L, c.get("core0_events_dropped"));

        s.event.reset(PccEventType.CNP, 0, 6, 2, 600);
        assertTrue(s.offer(600 * NS));
        s.finish();
        assertEquals(1, emu.dropped(PccEventType.CNP)); // still exactly one
        assertEquals(5, emu.handled(PccEventType.ACK));
        assertEquals(1, emu.handled(PccEventType.CNP));
        assertEquals(6, seen.size());
        // overloaded as seen by f1..f5 and the late CNP: waiting behind each when taken: 0, 3, 2, 1, 0, 0
        final boolean[] expected = {false, true, false, false, false, false};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], seen.get(i).overloaded(), "event " + i);
        }
        assertEquals(700 * NS, s.results.get(5).effectivePs());
    }

    /**
     * With the queue full even an event that would merge is dropped: merging happens where the core
     * takes events off the ring, which the dropped event never reaches. Queue of 2: ACK f1 runs,
     * ACK f2 and TX f2 wait (full); ACK f2 again is dropped (ack_events_dropped = 1).
     */
    @Test
    void fullQueueDropsEvenAMergeableEvent() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).ringCapacity(2)
            .dispatchCycles(0).contextHitCycles(0).contextMissCycles(0).writeBackCycles(0);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(100, 100, 100, 100, 100, 100), 0, s);
        s.processor = emu;
        emu.startFlow(1, 0, 100_000_000_000L, 1000, 10_000);
        emu.startFlow(2, 0, 100_000_000_000L, 1000, 10_000);
        s.event.reset(PccEventType.ACK, 0, 1, 1, 0);
        assertTrue(s.offer(0));
        s.event.reset(PccEventType.ACK, 0, 2, 1, 1);
        assertTrue(s.offer(NS));
        s.event.reset(PccEventType.TX_BURST, 0, 2, 1, 2);
        assertTrue(s.offer(2 * NS));
        s.event.reset(PccEventType.ACK, 0, 2, 2, 3);
        assertFalse(s.offer(3 * NS));
        s.finish();
        assertEquals(1, emu.dropped(PccEventType.ACK));
        assertEquals(0, emu.coalesced(PccEventType.ACK));
        assertEquals(2, emu.handled(PccEventType.ACK));
    }
    /**
     * Stepped cores write their events straight into their own queues of {@code ringCapacity}:
     * two cores, one thread and a queue of 2 each, 100 ns per event. At 0 each core gets three
     * ACKs of three flows it owns (one runs, two wait) and a fourth, dropped; the drop on one core
     * does not touch the other. No ring is used when stepped (producer position 0), also after a
     * spell of free-running (which takes a TX burst on each core through the core's own ring).
     */
    @Test
    void steppedCoresEachHoldTheirOwnQueue() {
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(2).threadsPerCore(1).ringCapacity(2)
            .dispatchCycles(0).contextHitCycles(0).contextMissCycles(0).writeBackCycles(0);
        final UnicEmulator emu = new UnicEmulator(cfg, () -> new RecordingAlgorithm(100, 100, 100, 100, 100, 100), 0, s);
        s.processor = emu;
        final int[][] flowsOf = new int[2][4];
        final int[] n = new int[2];
        for (int q = 1; n[0] < 4 || n[1] < 4; q++) {
            final int c = emu.coreOf(q);
            if (n[c] < 4) {
                flowsOf[c][n[c]++] = q;
                emu.startFlow(q, 0, 100_000_000_000L, 1000, 10_000);
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int k = 0; k < 4; k++) {
                s.event.reset(PccEventType.ACK, 0, flowsOf[c][k], 1, 0);
                assertEquals(k < 3, s.offer(0), "core " + c + " event " + k);
                assertEquals(0L, emu.ringProducerPosition(0));
                assertEquals(0L, emu.ringProducerPosition(1));
            }
        }
        s.finish();
        final Map<String, Long> c = new LinkedHashMap<>();
        emu.forEachCounter(c::put);
        assertEquals(1L, c.get("core0_events_dropped"));
        assertEquals(1L, c.get("core1_events_dropped"));
        assertEquals(3L, c.get("core0_events_handled"));
        assertEquals(3L, c.get("core1_events_handled"));

        emu.startFreeRunning(2, org.agrona.concurrent.BackoffIdleStrategy::new);
        for (int k = 0; k < 2; k++) {
            s.event.reset(PccEventType.TX_BURST, 0, flowsOf[k][0], 1, 500).tx(1000, 1);
            while (!emu.offer(s.event, 500 * NS)) {
                Thread.onSpinWait();
            }
        }
        emu.stopFreeRunning();
        assertEquals(2, emu.handled(PccEventType.TX_BURST));
        s.event.reset(PccEventType.ACK, 0, flowsOf[1][3], 2, 1000);
        assertTrue(s.offer(1000 * NS));
        assertEquals(0L, emu.ringProducerPosition(1));
        s.finish();
        assertEquals(7, emu.handled(PccEventType.ACK));
        assertEquals(1100 * NS, s.results.get(s.results.size() - 1).effectivePs());
    }
}
