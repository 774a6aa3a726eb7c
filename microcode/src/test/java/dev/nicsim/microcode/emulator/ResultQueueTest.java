package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ResultQueue}: a result's five fields live in its entry's row of 8 longs and come back
 * exactly, "unchanged" values included, with the row's cells where the layout drawing puts them.
 */
class ResultQueueTest {

    /**
     * Entry 1 of a two-entry queue (longs 8..15): every field set. Hand-derived cells: QPN 0xABCDEF,
     * effective 1,234,567 ps, 216 cycles, seq 42, rate RATE_ONE / 2 = 524,288, window 65,536 B,
     * timer 55,000 ns, and fast start 12 with the probe bit: 12 << 32 | 1 = 51,539,607,553.
     */
    @Test
    void everyFieldSetRoundTripsInItsCell() {
        final long[] meta = new long[2 * ResultQueue.ROW];
        final PccResult r = new PccResult().rate(FixedPoint.RATE_ONE / 2).windowBytes(65_536).requestRttProbe()
            .armTimerNs(55_000).fastStartPackets(12);
        ResultQueue.set(meta, 1, 0xABCDEF, 1_234_567L, 216, 42, r);
        assertEquals(0L, meta[7], "entry 0 untouched");
        assertEquals(0xABCDEF, meta[8]);
        assertEquals(1_234_567L, meta[9]);
        assertEquals(216L, meta[10]);
        assertEquals(42L, meta[11]);
        assertEquals(524_288L, meta[12]);
        assertEquals(65_536L, meta[13]);
        assertEquals(55_000L, meta[14]);
        assertEquals(51_539_607_553L, meta[15]);
        assertEquals(0xABCDEF, ResultQueue.qpn(meta, 1));
        assertEquals(1_234_567L, ResultQueue.effectivePs(meta, 1));
        assertEquals(216L, ResultQueue.cycles(meta, 1));
        assertEquals(42L, ResultQueue.seq(meta, 1));

        final PccResult back = new PccResult().rate(7).windowBytes(1).armTimerNs(1).fastStartPackets(1);
        ResultQueue.result(meta, 1, back);
        assertEquals(524_288, back.rate());
        assertEquals(65_536L, back.windowBytes());
        assertTrue(back.rttProbeRequest());
        assertEquals(55_000, back.timerNs());
        assertEquals(12, back.fastStartPackets());
    }

    /**
     * A result that changes nothing: rate -1, window -1, timer 0, fast start -1, no probe; the last
     * cell is -1 << 32 = -4,294,967,296. Read back into a result that had every field set, all are
     * "unchanged" again. Window 0 (unlimited) and fast start 0 are values, not "unchanged".
     */
    @Test
    void unchangedFieldsStayUnchangedAndZeroIsAValue() {
        final long[] meta = new long[ResultQueue.ROW];
        ResultQueue.set(meta, 0, 5, 0, 0, 0, new PccResult());
        assertEquals(-1L, meta[4]);
        assertEquals(-1L, meta[5]);
        assertEquals(0L, meta[6]);
        assertEquals(-4_294_967_296L, meta[7]);
        final PccResult back = new PccResult().rate(9).windowBytes(9).requestRttProbe().armTimerNs(9).fastStartPackets(9);
        ResultQueue.result(meta, 0, back);
        assertEquals(PccResult.RATE_UNCHANGED, back.rate());
        assertEquals(PccResult.WINDOW_UNCHANGED, back.windowBytes());
        assertFalse(back.rttProbeRequest());
        assertEquals(0, back.timerNs());
        assertEquals(PccResult.FAST_START_UNCHANGED, back.fastStartPackets());

        ResultQueue.set(meta, 0, 5, 0, 0, 0, new PccResult().windowBytes(PccResult.WINDOW_UNLIMITED).fastStartPackets(0)
            .rate(FixedPoint.RATE_ONE));
        ResultQueue.result(meta, 0, back);
        assertEquals(0L, back.windowBytes());
        assertEquals(0, back.fastStartPackets());
        assertEquals(FixedPoint.RATE_ONE, back.rate());
    }
}
