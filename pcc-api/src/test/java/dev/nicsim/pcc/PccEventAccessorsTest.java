package dev.nicsim.pcc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Every PccEvent accessor against the byte offsets PccEventLayout draws (little-endian, 64-byte
 * record), and the sums and last-wins rules of coalescing a non-INT event.
 */
class PccEventAccessorsTest {

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    /** A record in off-heap memory is read at its own absolute address, as a heap record is. */
    @Test
    void anOffHeapRecordReadsItsOwnFields() {
        final UnsafeBuffer buf = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(3 * PccEventLayout.RECORD_LENGTH));
        buf.setMemory(0, buf.capacity(), (byte) 0x7F);
        final PccEvent first = new PccEvent().wrap(buf, 0).reset(PccEventType.ACK, 0, 1, 2, 3);
        final PccEvent e = new PccEvent().wrap(buf, 64).reset(PccEventType.TX_BURST, 0, 77, 0x12_3456, -5).tx(9_000, 9);
        e.flags(PccEventLayout.FLAG_ECE);
        assertEquals(PccEventType.TX_BURST, e.type());
        assertEquals(PccEventLayout.FLAG_ECE, e.flags());
        assertEquals(77, e.flowId());
        assertEquals(0x12_3456, e.sn());
        assertEquals(-5, e.timestampNs());
        assertEquals(9_000, e.txBytes());
        assertEquals(9, e.txPackets());
        assertEquals(9_000, buf.getInt(64 + PccEventLayout.TX_BYTES_OFFSET, LE));
        assertEquals(PccEventType.ACK, first.type());
        assertEquals(3, first.timestampNs());
    }

    @Test
    void resetZeroesTheRecordAndSetsTheHeader() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[3 * PccEventLayout.RECORD_LENGTH]);
        buf.setMemory(0, buf.capacity(), (byte) 0x7F);
        final PccEvent e = new PccEvent().wrap(buf, 64);
        assertSame(buf, e.buffer());
        assertEquals(64, e.offset());
        assertSame(e, e.reset(PccEventType.CNP, 3, 0xFF_FFFF, 0xFF_FFFF, 123_456));
        assertEquals(PccEventType.CNP, e.type());
        assertEquals(3, e.subtype());
        assertEquals(0, e.port());
        assertEquals(0, e.flags());
        assertEquals(0xFF_FFFF, e.flowId());
        assertEquals(0xFF_FFFF, e.sn());
        assertEquals(123_456, e.timestampNs());
        assertEquals(123_456, e.firstTimestampNs());
        assertEquals(0xFF_FFFF, e.firstSn());
        assertEquals(1, e.numCoalesced());
        assertEquals(0, e.txBytes());
        assertEquals(0, e.txPackets());
        assertEquals(0, e.rttRequestSendNs());
        assertEquals(0, e.rttRequestReceiveNs());
        assertEquals(0, e.rttResponseSendNs());
        // the record is bytes 64..127 exactly: its neighbours keep 0x7F
        assertEquals(0x7F, buf.getByte(63));
        assertEquals(0x7F, buf.getByte(128));
        assertEquals(0, buf.getByte(64 + 63));
        // unsigned bytes: type 255 and subtype 200 read back as such
        e.reset(255, 200, 1, 1, 1).port(250).flags(0xF0);
        assertEquals(255, e.type());
        assertEquals(200, e.subtype());
        assertEquals(250, e.port());
        assertEquals(0xF0, e.flags());
    }

    @Test
    void settersWriteTheirOwnOffsets() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent e = new PccEvent().wrap(buf, 0).reset(PccEventType.RTT_RESPONSE, 0, 5, 6, 7);
        assertSame(e, e.sn(0x100_00AB));
        assertEquals(0xAB, e.sn(), "sn keeps 24 bits");
        assertEquals(6, e.firstSn());
        assertSame(e, e.firstSn(0x200_00CD));
        assertEquals(0xCD, e.firstSn());
        assertEquals(0xCD, buf.getInt(PccEventLayout.FIRST_SN_OFFSET, LE));
        assertSame(e, e.timestampNs(-100));
        assertEquals(-100, buf.getInt(PccEventLayout.TIMESTAMP_OFFSET, LE));
        assertEquals(7, e.firstTimestampNs());
        assertSame(e, e.numCoalesced(9));
        assertEquals(9, buf.getInt(PccEventLayout.NUM_COALESCED_OFFSET, LE));
        assertSame(e, e.tx(1_000_000, 250));
        assertEquals(1_000_000, buf.getInt(PccEventLayout.TX_BYTES_OFFSET, LE));
        assertEquals(250, buf.getInt(PccEventLayout.TX_PACKETS_OFFSET, LE));
        assertSame(e, e.rtt(11, 22, 33));
        assertEquals(11, e.rttRequestSendNs());
        assertEquals(22, e.rttRequestReceiveNs());
        assertEquals(33, e.rttResponseSendNs());
        assertEquals(11, buf.getInt(PccEventLayout.RTT_REQUEST_SEND_OFFSET, LE));
        assertEquals(22, buf.getInt(PccEventLayout.RTT_REQUEST_RECEIVE_OFFSET, LE));
        assertEquals(33, buf.getInt(PccEventLayout.RTT_RESPONSE_SEND_OFFSET, LE));
        assertSame(e, e.port(1));
        assertEquals(1, buf.getByte(PccEventLayout.PORT_OFFSET));
        assertSame(e, e.flags(PccEventLayout.FLAG_FIRST_IN_FLOW));
        assertEquals(PccEventLayout.FLAG_FIRST_IN_FLOW, buf.getByte(PccEventLayout.FLAGS_OFFSET));
    }

    @Test
    void copyFromCopiesTheWholeRecordAndToStringNamesTheFields() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[2 * PccEventLayout.RECORD_LENGTH]);
        final PccEvent a = new PccEvent().wrap(buf, 0).reset(PccEventType.ACK, 0, 42, 1000, -1)
            .tx(4096, 4).flags(PccEventLayout.FLAG_ECE);
        buf.putByte(63, (byte) 0x5A); // the last byte of the record travels too
        final PccEvent b = new PccEvent().wrap(buf, 64);
        assertSame(b, b.copyFrom(a));
        assertEquals(0x5A, buf.getByte(127));
        assertEquals(42, b.flowId());
        // the timestamp prints unsigned: -1 is 4294967295
        assertEquals("PccEvent{type=ACK, subtype=0, flow=42, sn=1000, ts=4294967295, flags=1, n=1, "
            + "txBytes=4096, txPackets=4}", b.toString());
        assertEquals("PccEvent{unwrapped}", new PccEvent().toString());
    }

    @Test
    void coalescingSumsTrafficAndTakesTheLaterRtt() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[2 * PccEventLayout.RECORD_LENGTH]);
        final PccEvent first = new PccEvent().wrap(buf, 0).reset(PccEventType.TX_BURST, 0, 3, 10, 100)
            .tx(1000, 1).rtt(1, 2, 3).numCoalesced(2);
        final PccEvent later = new PccEvent().wrap(buf, 64).reset(PccEventType.TX_BURST, 0, 3, 20, 300)
            .tx(3000, 2).rtt(4, 5, 6).numCoalesced(5).flags(PccEventLayout.FLAG_BECN);
        assertSame(first, first.coalesce(later));
        assertEquals(7, first.numCoalesced()); // 2 + 5
        assertEquals(4000, first.txBytes());
        assertEquals(3, first.txPackets());
        assertEquals(4, first.rttRequestSendNs());
        assertEquals(5, first.rttRequestReceiveNs());
        assertEquals(6, first.rttResponseSendNs());
        assertEquals(PccEventLayout.FLAG_BECN, first.flags());
        assertEquals(20, first.sn());
        assertEquals(300, first.timestampNs());
        // a different flow of the same type is refused, naming both
        later.reset(PccEventType.TX_BURST, 0, 4, 1, 1);
        final IllegalArgumentException ex = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> first.coalesce(later));
        assertEquals("coalesce needs the same type and flow: 0/3 vs 0/4", ex.getMessage());
    }
}
