package dev.nicsim.pcc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INT hop records (the 51-bit packing PccIntHop's javadoc draws) and their five slots in an ACK
 * record (PccEventLayout: bytes 28..35 then 40..63, one 256-bit string), with bit positions and
 * wrapped deltas computed by hand.
 */
class PccIntHopTest {

    private static final long GBPS = 1_000_000_000L;

    @Test
    void rateCodesFollowTheTable() {
        final long[] rates = {25, 50, 100, 200, 400, 800, 10, 40};
        for (int code = 0; code < rates.length; code++) {
            assertEquals(code, PccIntHop.rateCode(rates[code] * GBPS));
            assertEquals(rates[code] * GBPS, PccIntHop.lineRateBitsPerSec(code));
        }
        assertEquals(-1, PccIntHop.rateCode(1 * GBPS));
        assertEquals(-1, PccIntHop.rateCode(0));
    }

    @Test
    void packPutsEachFieldAtItsBits() {
        // rate code 7 in bits 0..2, time 1 at bit 3, one byte unit (128 B) at bit 23, one qlen unit (80 B) at bit 39
        assertEquals(7L | 1L << 3 | 1L << 23 | 1L << 39, PccIntHop.pack(7, 1, 128, 80, 1));
        // 0x1_2345_6789 ns keeps its low 20 bits 0x56789; 128,127 B = 1000 units (remainder dropped);
        // 4,079 B of queue = 50 units of 80 B
        final long hop = PccIntHop.pack(2, 0x1_2345_6789L, 128 * 1000 + 127, 80 * 50 + 79, 1);
        assertEquals(100 * GBPS, PccIntHop.lineRateBitsPerSec(hop));
        assertEquals(0x56789, PccIntHop.timeNs(hop));
        assertEquals(4000, PccIntHop.qlenBytes(hop, 1));
        assertEquals(1000L, hop >>> 23 & 0xFFFF);
        // multi 2: units of 256 B and 160 B
        final long hop2 = PccIntHop.pack(0, 0, 256 * 3, 160 * 7, 2);
        assertEquals(3L, hop2 >>> 23 & 0xFFFF);
        assertEquals(7 * 160, PccIntHop.qlenBytes(hop2, 2));
        // the queue saturates at 4095 units; transmitted bytes wrap at 2^16 units
        assertEquals(4095L * 80, PccIntHop.qlenBytes(PccIntHop.pack(0, 0, 0, 80L * 10_000, 1), 1));
        assertEquals(5L, PccIntHop.pack(0, 0, 128L * (65_536 + 5), 0, 1) >>> 23 & 0xFFFF);
        assertTrue(PccIntHop.pack(7, -1, -1, Long.MAX_VALUE, 1) < 1L << PccIntHop.BITS, "fits 51 bits");
    }

    @Test
    void deltasWrapAsNs3Does() {
        final long before = PccIntHop.pack(0, (1 << 20) - 3, 128L * 65_535, 0, 1);
        final long now = PccIntHop.pack(0, 5, 128L * 2, 0, 1);
        assertEquals(8, PccIntHop.timeDeltaNs(now, before)); // 5 - (2^20 - 3) mod 2^20
        assertEquals(3L * 128, PccIntHop.bytesDelta(now, before, 1)); // 2 - 65535 mod 2^16 units
        assertEquals(3L * 128 * 4, PccIntHop.bytesDelta(now, before, 4));
        final long later = PccIntHop.pack(0, 1_000, 128L * 100, 0, 1);
        final long earlier = PccIntHop.pack(0, 400, 128L * 40, 0, 1);
        assertEquals(600, PccIntHop.timeDeltaNs(later, earlier));
        assertEquals(60L * 128, PccIntHop.bytesDelta(later, earlier, 1));
    }

    @Test
    void fiveHopsFillTheirSlotsWithoutTouchingEachOther() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0).reset(PccEventType.ACK, 0, 1, 2, 3);
        final long all = (1L << PccIntHop.BITS) - 1;
        // hop i lies at bits 51 i .. 51 i + 50: hops 1, 2 and 3 straddle two 64-bit words
        for (int i = 0; i < 5; i++) {
            e.intHop(i, all);
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(all, e.intHop(i));
        }
        // 255 bits of ones: every INT word is all ones, except the top bit of the last word
        assertEquals(-1L, buf.getLong(28, ByteOrder.LITTLE_ENDIAN));
        assertEquals(-1L, buf.getLong(40, ByteOrder.LITTLE_ENDIAN));
        assertEquals(-1L, buf.getLong(48, ByteOrder.LITTLE_ENDIAN));
        assertEquals(Long.MAX_VALUE, buf.getLong(56, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0, buf.getInt(36, ByteOrder.LITTLE_ENDIAN), "the RTT request-send word is not a hop slot");
        // clear hop 2 (bits 102..152: word 1 bits 38..63 and word 2 bits 0..24) and nothing else
        e.intHop(2, 0);
        assertEquals(0, e.intHop(2));
        assertEquals(all, e.intHop(1));
        assertEquals(all, e.intHop(3));
        assertEquals((1L << 38) - 1, buf.getLong(40, ByteOrder.LITTLE_ENDIAN));
        assertEquals(-1L << 25, buf.getLong(48, ByteOrder.LITTLE_ENDIAN));
        // distinct values in every slot; extra high bits of the argument are dropped
        final long[] hops = new long[5];
        for (int i = 0; i < 5; i++) {
            hops[i] = PccIntHop.pack(i, 1000L * (i + 1), 128L * (i + 7), 80L * (i + 11), 1);
            e.intHop(i, hops[i] | 1L << 60);
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(hops[i], e.intHop(i), "hop " + i);
        }
        // hop 0 is the low 51 bits of the word at byte 28
        assertEquals(hops[0], buf.getLong(28, ByteOrder.LITTLE_ENDIAN) & all);
        // hop 4 is bits 12..62 of the word at byte 56
        assertEquals(hops[4], buf.getLong(56, ByteOrder.LITTLE_ENDIAN) >>> 12 & all);
    }

    @Test
    void hopCountLivesInFlagBits4To6() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0).reset(PccEventType.ACK, 0, 1, 2, 3);
        assertEquals(0, e.intHops());
        e.flags(PccEventLayout.FLAG_INT_HOPS_MASK);
        assertEquals(0, e.intHops(), "hop bits without FLAG_INT mean no INT");
        e.flags(PccEventLayout.FLAG_ECE);
        assertSame(e, e.intHops(3));
        // ECE 0x01 | INT 0x08 | 3 << 4 = 0x39
        assertEquals(0x39, e.flags());
        assertEquals(3, e.intHops());
        e.intHops(5);
        assertEquals(0x59, e.flags());
        assertEquals(5, e.intHops());
        e.intHops(0);
        assertEquals(0x09, e.flags());
        assertEquals(0, e.intHops());
        assertTrue(e.hasFlag(PccEventLayout.FLAG_INT));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> e.intHops(6));
        assertEquals("INT hops must be 0..5, got 6", ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> e.intHops(-1));
        assertFalse(e.hasFlag(PccEventLayout.FLAG_BECN));
    }

    @Test
    void coalescingAnIntAckTakesTheLaterTelemetry() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[2 * PccEventLayout.RECORD_LENGTH]);
        final PccEvent first = new PccEvent().wrap(buf, 0).reset(PccEventType.ACK, 0, 9, 10, 100)
            .flags(PccEventLayout.FLAG_ECE).intHops(4);
        first.intHop(0, 111).intHop(3, 333);
        first.rtt(7, 8, 9);
        final PccEvent later = new PccEvent().wrap(buf, PccEventLayout.RECORD_LENGTH)
            .reset(PccEventType.ACK, 0, 9, 14, 250).flags(PccEventLayout.FLAG_BECN).intHops(2);
        later.intHop(0, 555).intHop(1, 666);
        later.numCoalesced(3);
        buf.putInt(PccEventLayout.RECORD_LENGTH + PccEventLayout.RTT_REQUEST_SEND_OFFSET, 77, ByteOrder.LITTLE_ENDIAN);
        assertSame(first, first.coalesce(later));
        // flags: ECE | BECN | INT with the later's 2 hops: 0x01 | 0x04 | 0x08 | 0x20
        assertEquals(0x2D, first.flags());
        assertEquals(2, first.intHops());
        assertEquals(555, first.intHop(0));
        assertEquals(666, first.intHop(1));
        assertEquals(0, first.intHop(3), "the older record's hop 3 is replaced by the later's (empty) slot");
        assertEquals(14, first.sn());
        assertEquals(250, first.timestampNs());
        assertEquals(100, first.firstTimestampNs());
        assertEquals(10, first.firstSn());
        assertEquals(4, first.numCoalesced()); // 1 + 3
        assertEquals(77, first.rttRequestSendNs());
    }
}
