package dev.nicsim.pcc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PccContractTest {

    @Test
    void eventFieldsSitAtTheDrawnOffsetsLittleEndian() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[2 * PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, PccEventLayout.RECORD_LENGTH);
        e.reset(PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, 0x12345678, 0x1ABCDEF, -5)
            .port(2).flags(PccEventLayout.FLAG_ECE).tx(4096, 4).rtt(10, 20, 30).firstSn(0x1000001);
        final int base = PccEventLayout.RECORD_LENGTH;
        assertEquals(PccEventType.NACK, buf.getByte(base + PccEventLayout.TYPE_OFFSET));
        assertEquals(PccEventType.NACK_OUT_OF_SEQUENCE, buf.getByte(base + PccEventLayout.SUBTYPE_OFFSET));
        assertEquals(2, buf.getByte(base + PccEventLayout.PORT_OFFSET));
        // QPN and PSN keep their low 24 bits: 0x12345678 -> 0x345678, 0x1ABCDEF -> 0xABCDEF
        assertEquals(0x78, buf.getByte(base + PccEventLayout.FLOW_ID_OFFSET) & 0xFF); // little-endian low byte first
        assertEquals(0x345678, e.flowId());
        assertEquals(0xABCDEF, e.sn());
        assertEquals(1, e.firstSn()); // 0x1000001 masked to 24 bits
        assertEquals(-5, e.timestampNs()); // a wrapped 32-bit timestamp round-trips
        assertEquals(1, e.numCoalesced());
        assertEquals(4096, e.txBytes());
        assertEquals(30, e.rttResponseSendNs());
        assertTrue(e.hasFlag(PccEventLayout.FLAG_ECE));
        assertFalse(e.hasFlag(PccEventLayout.FLAG_BECN));
        assertEquals(0, buf.getInt(0), "the record before is untouched");
    }

    @Test
    void coalescingKeepsFirstAndAddsCounts() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[2 * PccEventLayout.RECORD_LENGTH]);
        final PccEvent first = new PccEvent().wrap(buf, 0).reset(PccEventType.TX_BURST, 0, 7, 100, 1000).tx(2048, 2);
        final PccEvent later = new PccEvent().wrap(buf, PccEventLayout.RECORD_LENGTH)
            .reset(PccEventType.TX_BURST, 0, 7, 103, 1500).tx(1024, 1).flags(PccEventLayout.FLAG_ECE);
        first.coalesce(later);
        // first timestamp 1000 and first sn 100 stay; sn 103 and timestamp 1500 are the later's;
        // count 1 + 1 = 2; bytes 2048 + 1024 = 3072; packets 2 + 1 = 3; flags OR-ed
        assertEquals(1000, first.firstTimestampNs());
        assertEquals(100, first.firstSn());
        assertEquals(103, first.sn());
        assertEquals(1500, first.timestampNs());
        assertEquals(2, first.numCoalesced());
        assertEquals(3072, first.txBytes());
        assertEquals(3, first.txPackets());
        assertTrue(first.hasFlag(PccEventLayout.FLAG_ECE));
        later.reset(PccEventType.ACK, 0, 7, 1, 1);
        assertThrows(IllegalArgumentException.class, () -> first.coalesce(later));
    }

    @Test
    void fixedPointHelpers() {
        assertEquals(16_384, FixedPoint.toFixed(0.25));
        assertEquals(FixedPoint.toFixed(0.125), FixedPoint.mul(FixedPoint.toFixed(0.5), FixedPoint.toFixed(0.25)));
        assertEquals(FixedPoint.toFixed(4), FixedPoint.div(FixedPoint.toFixed(1), FixedPoint.toFixed(0.25)));
        // half of line rate at 100 Gb/s: (1 << 19) x 1e11 >> 20 = 5e10
        assertEquals(50_000_000_000L, FixedPoint.rateToBitsPerSec(1 << 19, 100_000_000_000L));
        assertEquals(1 << 18, FixedPoint.bitsPerSecToRate(25_000_000_000L, 100_000_000_000L));
        assertEquals(1, FixedPoint.bitsPerSecToRate(0, 100_000_000_000L), "clamped to the smallest rate");
        // PSN distance across the 2^24 wrap: from 0xFFFFFE to 1 is 3
        assertEquals(3, FixedPoint.psnDelta(0xFFFFFE, 1));
        assertEquals(-3, FixedPoint.psnDelta(1, 0xFFFFFE));
        // 32-bit ns timestamps across the wrap
        assertEquals(20, FixedPoint.nsSince(Integer.MAX_VALUE - 9, Integer.MIN_VALUE + 10));
    }

    @Test
    void parametersAreValidatedByName() {
        final List<PccParameter> ps = List.of(
            new PccParameter(0, "alpha", PccParameter.Kind.FIXED_16_16, 0.25, 0, 1, "fraction", "gain"),
            new PccParameter(1, "iw_bytes", PccParameter.Kind.INTEGER, 0, 0, 1 << 20, "bytes", "initial window"));
        final PccParameterValues v = new PccParameterValues(ps);
        assertEquals(16_384, v.raw(0));
        v.set("alpha", 0.5).set("iw_bytes", 65536);
        assertEquals(32_768, v.rawInt(0));
        assertEquals(65536, v.raw(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.set("alpha", 1.5));
        assertEquals("parameter 'alpha' = 1.5 is out of range [0, 1] fraction", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> v.set("iw_bytes", 1.5));
        assertEquals("parameter 'iw_bytes' = 1.5 must be an integer (bytes)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> v.set("beta", 1));
        assertEquals("unknown parameter 'beta'; known: alpha, iw_bytes", e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(0, "x", PccParameter.Kind.INTEGER, 5, 0, 1, "u", "default out of range"));
    }

    @Test
    void resultStartsUnchangedAndClampsTheRate() {
        final PccResult r = new PccResult();
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        r.rate(0);
        assertEquals(1, r.rate());
        r.rate(FixedPoint.RATE_ONE + 5);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertThrows(IllegalArgumentException.class, () -> r.armTimerNs(0));
        r.reset();
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(0, r.timerNs());
    }
}
