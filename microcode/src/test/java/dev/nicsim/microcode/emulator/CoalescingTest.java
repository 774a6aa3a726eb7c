package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Coalescing as NIC hardware does it (issue 3; {@code PccEvent.coalesce}): an event whose flow
 * already has an event of the same type waiting is merged into it.
 */
class CoalescingTest {
    private static final int A = 5;
    private static final int B = 6;
    private static final long NS = 1_000L;

    private final Stepper s = new Stepper();
    private final List<RecordingAlgorithm.Seen> seen = new ArrayList<>();

    private UnicEmulator emulator(final boolean coalescing) {
        // one core, one thread; every event costs exactly 100 cycles = 100 ns (D = H = W = 0,
        // handlers 100) so later events wait while the first runs
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).dispatchCycles(0)
            .contextHitCycles(0).contextMissCycles(0).writeBackCycles(0).coalescing(coalescing);
        final UnicEmulator emu = new UnicEmulator(cfg,
            () -> new RecordingAlgorithm(0, seen, 100, 100, 100, 100, 100, 100), 0, s);
        s.processor = emu;
        emu.startFlow(A, 0, 100_000_000_000L, 1000, 10_000);
        emu.startFlow(B, 0, 100_000_000_000L, 1000, 10_000);
        s.results.clear();
        return emu;
    }

    /**
     * Stream (ns): ACK A sn 1 @0 (runs 0-100); TX A sn 5 @10 (1000 B, 1 pkt); TX A sn 7 @20
     * (2000 B, 2 pkts, BECN flag); TX A sn 9 @30 (3000 B, 3 pkts); ACK A sn 3 (first sn 2) @40;
     * TX B sn 100 @50; ACK A sn 4 (first sn 4) @60.
     * <p>Waiting at 60: [TX A (3 merged), ACK A (2 merged), TX B]. The merged TX A keeps first
     * timestamp 10 and first sn 5, takes timestamp 30 and sn 9, count 3, bytes 1000 + 2000 + 3000
     * = 6000, packets 1 + 2 + 3 = 6, flags 0 | 4 | 0 = 4. The merged ACK keeps first sn 2 and first
     * timestamp 40, takes sn 4 and timestamp 60, count 2. They run 100-200, 200-300, 300-400 ns.
     */
    @Test
    void mergesFirstTimestampAndSequenceCountAndBytesExactly() {
        final UnicEmulator emu = emulator(true);
        s.event.reset(PccEventType.ACK, 0, A, 1, 0);
        s.offer(0);
        s.event.reset(PccEventType.TX_BURST, 0, A, 5, 10).tx(1000, 1);
        s.offer(10 * NS);
        s.event.reset(PccEventType.TX_BURST, 0, A, 7, 20).tx(2000, 2).flags(PccEventLayout.FLAG_BECN);
        s.offer(20 * NS);
        s.event.reset(PccEventType.TX_BURST, 0, A, 9, 30).tx(3000, 3);
        s.offer(30 * NS);
        s.event.reset(PccEventType.ACK, 0, A, 3, 40);
        s.firstSn(2);
        s.offer(40 * NS);
        s.event.reset(PccEventType.TX_BURST, 0, B, 100, 50).tx(500, 1);
        s.offer(50 * NS);
        s.event.reset(PccEventType.ACK, 0, A, 4, 60);
        s.firstSn(4);
        s.offer(60 * NS);
        assertEquals(3, emu.pendingEvents(0)); // three entries wait, not six
        s.finish();

        assertEquals(4, seen.size());
        final RecordingAlgorithm.Seen tx = seen.get(1);
        assertEquals(PccEventType.TX_BURST, tx.type());
        assertEquals(A, tx.qpn());
        assertEquals(10, tx.firstTimestampNs());
        assertEquals(5, tx.firstSn());
        assertEquals(30, tx.timestampNs());
        assertEquals(9, tx.sn());
        assertEquals(3, tx.numCoalesced());
        assertEquals(6000, tx.txBytes());
        assertEquals(6, tx.txPackets());
        assertEquals(PccEventLayout.FLAG_BECN, tx.flags());
        final RecordingAlgorithm.Seen ack = seen.get(2);
        assertEquals(PccEventType.ACK, ack.type());
        assertEquals(2, ack.firstSn());
        assertEquals(40, ack.firstTimestampNs());
        assertEquals(4, ack.sn());
        assertEquals(60, ack.timestampNs());
        assertEquals(2, ack.numCoalesced());
        final RecordingAlgorithm.Seen txB = seen.get(3);
        assertEquals(B, txB.qpn());
        assertEquals(1, txB.numCoalesced());
        assertEquals(500, txB.txBytes());

        assertArrayEquals(new long[] {100 * NS, 200 * NS, 300 * NS, 400 * NS}, s.effectiveTimes());
        assertEquals(2, emu.handled(PccEventType.TX_BURST)); // TX A (merged), TX B
        assertEquals(2, emu.coalesced(PccEventType.TX_BURST)); // sn 7 and sn 9 into sn 5
        assertEquals(2, emu.handled(PccEventType.ACK));
        assertEquals(1, emu.coalesced(PccEventType.ACK)); // sn 4 into sn 3
        // latency counts from the first merged arrival: ACK 100 - 0 = 100, TX A 200 - 10 = 190,
        // ACK A 300 - 40 = 260, TX B 400 - 50 = 350 ns; the median (2nd of 4) is 190
        assertEquals(190L, emu.latencyNsHistogram().getValueAtPercentile(50));
    }

    /** The same stream with coalescing off: all seven run, one by one, 100 ns each. */
    @Test
    void offHandlesEveryEvent() {
        final UnicEmulator emu = emulator(false);
        for (int i = 0; i < 7; i++) {
            s.event.reset(i % 2 == 0 ? PccEventType.TX_BURST : PccEventType.ACK, 0, A, i, 10 * i).tx(100, 1);
            s.offer(10 * i * NS);
        }
        s.finish();
        assertEquals(7, seen.size());
        assertEquals(0, emu.coalesced(PccEventType.TX_BURST) + emu.coalesced(PccEventType.ACK));
        assertEquals(4, emu.handled(PccEventType.TX_BURST));
        assertEquals(3, emu.handled(PccEventType.ACK));
        assertEquals(700 * NS, s.results.get(6).effectivePs()); // seven back to back from 0
    }

    /** An entry stops taking merges once a thread has taken it: a TX arriving while TX A runs waits anew. */
    @Test
    void noMergeIntoARunningEvent() {
        final UnicEmulator emu = emulator(true);
        s.event.reset(PccEventType.TX_BURST, 0, A, 1, 0).tx(100, 1);
        s.offer(0);
        s.event.reset(PccEventType.TX_BURST, 0, A, 2, 50).tx(100, 1);
        s.offer(50 * NS);
        s.finish();
        assertEquals(2, emu.handled(PccEventType.TX_BURST));
        assertEquals(0, emu.coalesced(PccEventType.TX_BURST));
        assertEquals(1, seen.get(1).numCoalesced());
    }
}
