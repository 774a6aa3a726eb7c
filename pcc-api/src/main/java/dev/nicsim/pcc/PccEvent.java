package dev.nicsim.pcc;

import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

import static dev.nicsim.pcc.PccEventLayout.*;

/**
 * Flyweight over one PCC event record laid out as {@link PccEventLayout} draws it. Wrap it over a
 * buffer and offset, then read or write fields in place; nothing is allocated or copied.
 *
 * <p>Byte order is little-endian. Thread-safety: not thread-safe; one flyweight per thread.
 */
public final class PccEvent {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;
    /**
     * The heap buffer's array, or null for an off-heap buffer. On a little-endian machine the
     * getters read the record with one Unsafe access at {@link #address} (wrap checked that the
     * record lies inside the buffer), without the buffer's per-access bounds check, and are a few
     * bytes of bytecode each so that the JIT inlines all of them into a handler; on a big-endian
     * machine they read through the buffer. The buffer reference keeps off-heap memory alive.
     */
    private byte[] array;
    /** Address of the record: inside {@link #array} (Unsafe offset), or absolute for an off-heap buffer. */
    private long address;

    /** Creates an unwrapped flyweight; call {@link #wrap} before use. */
    public PccEvent() {
    }

    /**
     * Points this flyweight at a record.
     *
     * @param buffer buffer holding the record; at least {@code offset + RECORD_LENGTH} bytes
     * @param offset byte offset of the record in the buffer
     * @return this
     * @throws IndexOutOfBoundsException if the record does not lie inside the buffer
     */
    public PccEvent wrap(final MutableDirectBuffer buffer, final int offset) {
        if (offset < 0 || (long) offset + RECORD_LENGTH > buffer.capacity()) {
            throw new IndexOutOfBoundsException("event record at byte " + offset + " does not fit a buffer of "
                + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.offset = offset;
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset() + offset;
        return this;
    }

    private int int32(final int fieldOffset) {
        return NATIVE_LITTLE_ENDIAN ? UnsafeApi.getInt(array, address + fieldOffset)
            : buffer.getInt(offset + fieldOffset, ORDER);
    }

    private int uint8(final int fieldOffset) {
        return UnsafeApi.getByte(array, address + fieldOffset) & 0xFF;
    }

    /** @return the wrapped buffer */
    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /** @return the offset of the record in the wrapped buffer */
    public int offset() {
        return offset;
    }

    /**
     * Zeroes the record and writes the fields every event has; number coalesced is set to 1 and the
     * first timestamp and sequence number equal the given ones.
     *
     * @param type        event type ({@link PccEventType})
     * @param subtype     subtype, {@link PccEventType#SUBTYPE_NONE} when none
     * @param flowId      flow id (QPN, 24 bits)
     * @param sn          sequence number (PSN, 24 bits)
     * @param timestampNs 32-bit wrapping timestamp in nanoseconds
     * @return this
     */
    public PccEvent reset(final int type, final int subtype, final int flowId, final int sn, final int timestampNs) {
        buffer.setMemory(offset, RECORD_LENGTH, (byte) 0);
        buffer.putByte(offset + TYPE_OFFSET, (byte) type);
        buffer.putByte(offset + SUBTYPE_OFFSET, (byte) subtype);
        buffer.putInt(offset + FLOW_ID_OFFSET, flowId & MASK_24, ORDER);
        buffer.putInt(offset + SN_OFFSET, sn & MASK_24, ORDER);
        buffer.putInt(offset + TIMESTAMP_OFFSET, timestampNs, ORDER);
        buffer.putInt(offset + FIRST_TIMESTAMP_OFFSET, timestampNs, ORDER);
        buffer.putInt(offset + FIRST_SN_OFFSET, sn & MASK_24, ORDER);
        buffer.putInt(offset + NUM_COALESCED_OFFSET, 1, ORDER);
        return this;
    }

    /** @return event type, {@code 0 .. PccEventType.COUNT-1} */
    public int type() {
        return uint8(TYPE_OFFSET);
    }

    /** @return subtype ({@link PccEventType#SUBTYPE_NONE} when none) */
    public int subtype() {
        return uint8(SUBTYPE_OFFSET);
    }

    /** @return NIC port number, 0..255 */
    public int port() {
        return uint8(PORT_OFFSET);
    }

    /**
     * @param port NIC port number, 0..255
     * @return this
     */
    public PccEvent port(final int port) {
        buffer.putByte(offset + PORT_OFFSET, (byte) port);
        return this;
    }

    /** @return flag bits ({@link PccEventLayout#FLAG_ECE} etc.) */
    public int flags() {
        return uint8(FLAGS_OFFSET);
    }

    /**
     * @param flags flag bits, 0..255
     * @return this
     */
    public PccEvent flags(final int flags) {
        buffer.putByte(offset + FLAGS_OFFSET, (byte) flags);
        return this;
    }

    /**
     * @param flag one flag bit
     * @return whether the flag is set
     */
    public boolean hasFlag(final int flag) {
        return (flags() & flag) != 0;
    }

    /** @return flow id: the requester QPN, 24 bits */
    public int flowId() {
        return int32(FLOW_ID_OFFSET);
    }

    /** @return sequence number (PSN, 24 bits) */
    public int sn() {
        return int32(SN_OFFSET);
    }

    /**
     * @param sn sequence number; masked to 24 bits
     * @return this
     */
    public PccEvent sn(final int sn) {
        buffer.putInt(offset + SN_OFFSET, sn & MASK_24, ORDER);
        return this;
    }

    /** @return timestamp of the (last merged) event, ns, 32-bit wrapping */
    public int timestampNs() {
        return int32(TIMESTAMP_OFFSET);
    }

    /**
     * @param timestampNs ns, 32-bit wrapping
     * @return this
     */
    public PccEvent timestampNs(final int timestampNs) {
        buffer.putInt(offset + TIMESTAMP_OFFSET, timestampNs, ORDER);
        return this;
    }

    /** @return timestamp of the first merged event, ns, 32-bit wrapping */
    public int firstTimestampNs() {
        return int32(FIRST_TIMESTAMP_OFFSET);
    }

    /** @return sequence number of the first merged event */
    public int firstSn() {
        return int32(FIRST_SN_OFFSET);
    }

    /**
     * Sets the first sequence number (for an ACK: the first PSN it newly acknowledges).
     *
     * @param firstSn sequence number; masked to 24 bits
     * @return this
     */
    public PccEvent firstSn(final int firstSn) {
        buffer.putInt(offset + FIRST_SN_OFFSET, firstSn & MASK_24, ORDER);
        return this;
    }

    /** @return number of events merged into this one, at least 1 */
    public int numCoalesced() {
        return int32(NUM_COALESCED_OFFSET);
    }

    /**
     * @param numCoalesced number of merged events, at least 1
     * @return this
     */
    public PccEvent numCoalesced(final int numCoalesced) {
        buffer.putInt(offset + NUM_COALESCED_OFFSET, numCoalesced, ORDER);
        return this;
    }

    /** @return bytes sent in the TX burst */
    public int txBytes() {
        return int32(TX_BYTES_OFFSET);
    }

    /** @return packets sent in the TX burst */
    public int txPackets() {
        return int32(TX_PACKETS_OFFSET);
    }

    /**
     * Sets the TX burst totals.
     *
     * @param bytes   bytes sent, non-negative
     * @param packets packets sent, non-negative
     * @return this
     */
    public PccEvent tx(final int bytes, final int packets) {
        buffer.putInt(offset + TX_BYTES_OFFSET, bytes, ORDER);
        buffer.putInt(offset + TX_PACKETS_OFFSET, packets, ORDER);
        return this;
    }

    /** @return RTT request send timestamp (ns, wraps); for ACK the echoed transmit timestamp */
    public int rttRequestSendNs() {
        return int32(RTT_REQUEST_SEND_OFFSET);
    }

    /** @return RTT request receive timestamp at the responder (ns, wraps) */
    public int rttRequestReceiveNs() {
        return int32(RTT_REQUEST_RECEIVE_OFFSET);
    }

    /** @return RTT response send timestamp at the responder (ns, wraps) */
    public int rttResponseSendNs() {
        return int32(RTT_RESPONSE_SEND_OFFSET);
    }

    /**
     * Sets the RTT timestamps.
     *
     * @param requestSendNs     request send time (ns, wraps); for an ACK the echoed transmit time
     * @param requestReceiveNs  request receive time at the responder
     * @param responseSendNs    response send time at the responder
     * @return this
     */
    public PccEvent rtt(final int requestSendNs, final int requestReceiveNs, final int responseSendNs) {
        buffer.putInt(offset + RTT_REQUEST_SEND_OFFSET, requestSendNs, ORDER);
        buffer.putInt(offset + RTT_REQUEST_RECEIVE_OFFSET, requestReceiveNs, ORDER);
        buffer.putInt(offset + RTT_RESPONSE_SEND_OFFSET, responseSendNs, ORDER);
        return this;
    }

    /**
     * One byte of the RTT raw data of an {@code RTT_RESPONSE} event (DOCA's
     * {@code doca_pcc_dev_get_rtt_raw_data}, DOCA PCC fact sheet Addendum A.7 step 5): the 12 bytes
     * the probe's answerer put in the response. They are the same bytes the three RTT timestamps are
     * read from: byte {@code k} is byte {@code k mod 4} of the big-endian encoding of word {@code k / 4}
     * (request send, request receive, response send). With the NIC's hardware responder they hold its
     * three timestamps; with a notification-point program ({@code firmware.np}) they hold what its
     * handler wrote, and the timestamp getters then return those bytes read big-endian, as on the DPA.
     *
     * @param k byte index, 0..{@link PccEventLayout#RTT_RAW_DATA_BYTES} - 1
     * @return the byte, 0..255
     * @throws IndexOutOfBoundsException if k is out of range
     */
    public int rttRawByte(final int k) {
        if (k < 0 || k >= PccEventLayout.RTT_RAW_DATA_BYTES) {
            throw new IndexOutOfBoundsException("RTT raw data byte " + k + " of " + PccEventLayout.RTT_RAW_DATA_BYTES);
        }
        final int word = buffer.getInt(offset + RTT_REQUEST_SEND_OFFSET + 4 * (k >>> 2), ORDER);
        return word >>> (24 - 8 * (k & 3)) & 0xFF;
    }

    /**
     * Merges a later event of the same type and flow into this one, as NIC hardware coalesces: the
     * first timestamp and first sequence number stay, the timestamp, sequence number and flags take
     * the later event's values (flags are OR-ed), the count adds up, TX bytes and packets add up, and
     * the RTT timestamps take the later event's.
     *
     * @param later the later event, same type and flow
     * @return this
     * @throws IllegalArgumentException if type or flow differ
     */
    public PccEvent coalesce(final PccEvent later) {
        if (later.type() != type() || later.flowId() != flowId()) {
            throw new IllegalArgumentException("coalesce needs the same type and flow: "
                + type() + "/" + flowId() + " vs " + later.type() + "/" + later.flowId());
        }
        if (later.hasFlag(PccEventLayout.FLAG_INT)) {
            // INT telemetry is the latest packet's, never a sum: take the later record's hops
            flags(((flags() | later.flags()) & ~PccEventLayout.FLAG_INT_HOPS_MASK)
                | (later.flags() & PccEventLayout.FLAG_INT_HOPS_MASK));
            sn(later.sn());
            timestampNs(later.timestampNs());
            numCoalesced(numCoalesced() + later.numCoalesced());
            buffer.putInt(offset + RTT_REQUEST_SEND_OFFSET, later.rttRequestSendNs(), ORDER);
            for (final int o : PccEventLayout.INT_WORD_OFFSETS) {
                buffer.putLong(offset + o, later.buffer.getLong(later.offset + o, ORDER), ORDER);
            }
            return this;
        }
        flags(flags() | later.flags());
        sn(later.sn());
        timestampNs(later.timestampNs());
        numCoalesced(numCoalesced() + later.numCoalesced());
        tx(txBytes() + later.txBytes(), txPackets() + later.txPackets());
        rtt(later.rttRequestSendNs(), later.rttRequestReceiveNs(), later.rttResponseSendNs());
        return this;
    }

    /** @return the INT hop count of an ACK with {@link PccEventLayout#FLAG_INT}, else 0 */
    public int intHops() {
        final int f = flags();
        return (f & PccEventLayout.FLAG_INT) == 0 ? 0
            : (f & PccEventLayout.FLAG_INT_HOPS_MASK) >>> PccEventLayout.FLAG_INT_HOPS_SHIFT;
    }

    /**
     * Sets the INT hop count and the INT flag (the hop records are set with {@link #intHop(int, long)}).
     *
     * @param hops 0..{@link PccEventLayout#INT_MAX_HOPS}
     * @return this
     * @throws IllegalArgumentException if hops is out of range
     */
    public PccEvent intHops(final int hops) {
        if (hops < 0 || hops > PccEventLayout.INT_MAX_HOPS) {
            throw new IllegalArgumentException("INT hops must be 0.." + PccEventLayout.INT_MAX_HOPS + ", got " + hops);
        }
        return flags((flags() & ~PccEventLayout.FLAG_INT_HOPS_MASK) | PccEventLayout.FLAG_INT
            | hops << PccEventLayout.FLAG_INT_HOPS_SHIFT);
    }

    /**
     * Reads one INT hop record ({@link PccIntHop}).
     *
     * @param i hop index, 0..{@link PccEventLayout#INT_MAX_HOPS} - 1
     * @return the packed 51-bit record
     */
    public long intHop(final int i) {
        final int pos = i * PccIntHop.BITS;
        final int w = pos >>> 6;
        final int sh = pos & 63;
        long v = buffer.getLong(offset + PccEventLayout.INT_WORD_OFFSETS[w], ORDER) >>> sh;
        if (sh + PccIntHop.BITS > 64) {
            v |= buffer.getLong(offset + PccEventLayout.INT_WORD_OFFSETS[w + 1], ORDER) << (64 - sh);
        }
        return v & ((1L << PccIntHop.BITS) - 1);
    }

    /**
     * Writes one INT hop record.
     *
     * @param i   hop index, 0..{@link PccEventLayout#INT_MAX_HOPS} - 1
     * @param hop the packed 51-bit record ({@link PccIntHop#pack})
     * @return this
     */
    public PccEvent intHop(final int i, final long hop) {
        final long mask = (1L << PccIntHop.BITS) - 1;
        final long v = hop & mask;
        final int pos = i * PccIntHop.BITS;
        final int w = pos >>> 6;
        final int sh = pos & 63;
        final int o0 = offset + PccEventLayout.INT_WORD_OFFSETS[w];
        buffer.putLong(o0, (buffer.getLong(o0, ORDER) & ~(mask << sh)) | v << sh, ORDER);
        if (sh + PccIntHop.BITS > 64) {
            final int o1 = offset + PccEventLayout.INT_WORD_OFFSETS[w + 1];
            final int bitsInNext = sh + PccIntHop.BITS - 64;
            final long m1 = (1L << bitsInNext) - 1;
            buffer.putLong(o1, (buffer.getLong(o1, ORDER) & ~m1) | v >>> (64 - sh), ORDER);
        }
        return this;
    }

    /**
     * Copies the whole record from another event.
     *
     * @param other source record
     * @return this
     */
    public PccEvent copyFrom(final PccEvent other) {
        buffer.putBytes(offset, other.buffer, other.offset, RECORD_LENGTH);
        return this;
    }

    @Override
    public String toString() {
        if (buffer == null) {
            return "PccEvent{unwrapped}";
        }
        return "PccEvent{type=" + PccEventType.name(type()) + ", subtype=" + subtype() + ", flow=" + flowId()
            + ", sn=" + sn() + ", ts=" + Integer.toUnsignedString(timestampNs()) + ", flags=" + flags()
            + ", n=" + numCoalesced() + ", txBytes=" + txBytes() + ", txPackets=" + txPackets() + "}";
    }
}
