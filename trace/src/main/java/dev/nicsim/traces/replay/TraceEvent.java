package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * A PCC event offered to a source's CC processor ({@link TraceMessages#event}): the arrival time
 * in simulated picoseconds and the 64-byte event record exactly as the processor got it
 * ({@link PccEventLayout}, little-endian), read through the {@link #event()} flyweight.
 *
 * <p>Binary form: {@code source (int32), timePs (int64), record (64 bytes), check (int32, version 3 on;
 * {@link TraceRecordCheck})}, 80 bytes; a record whose check does not match is refused.
 *
 * <p>Allocation: none after construction ({@link #set} copies into the owned record).
 * Thread-safety: not thread-safe; a reused holder.
 */
public final class TraceEvent extends BytesInBinaryMarshallable {
    /** The source whose processor got the event (simulation: host index; captures: the event's port). */
    public int source;
    /** Arrival time, ps (simulation time, or time since the capture's first packet). */
    public long timePs;
    private final byte[] record = new byte[PccEventLayout.RECORD_LENGTH];
    private final transient UnsafeBuffer view = new UnsafeBuffer(record);
    private final transient PccEvent flyweight = new PccEvent().wrap(view, 0);

    /** Creates a record of zeros. */
    public TraceEvent() {
    }

    /**
     * Fills the record.
     *
     * @param sourceId the source
     * @param event    the event; its 64 bytes are copied
     * @param atPs     arrival time, ps
     * @return this
     */
    public TraceEvent set(final int sourceId, final PccEvent event, final long atPs) {
        this.source = sourceId;
        this.timePs = atPs;
        flyweight.copyFrom(event);
        return this;
    }

    /** @return a flyweight over this record's 64 bytes (the same object every call; valid until the next read) */
    public PccEvent event() {
        return flyweight;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeInt(source);
        bytes.writeLong(timePs);
        bytes.write(record, 0, PccEventLayout.RECORD_LENGTH);
        bytes.writeInt(check());
    }

    /** @return the record check of the fields ({@link TraceRecordCheck}) */
    private int check() {
        long h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.EVENT, source), timePs);
        for (int i = 0; i < PccEventLayout.RECORD_LENGTH; i += Long.BYTES) {
            h = TraceRecordCheck.mix(h, view.getLong(i));
        }
        return TraceRecordCheck.finish(h);
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        source = bytes.readInt();
        timePs = bytes.readLong();
        final int n = bytes.read(record, 0, PccEventLayout.RECORD_LENGTH);
        if (n != PccEventLayout.RECORD_LENGTH) {
            throw new TraceRecordCheck.Corrupt("event record of " + n + " bytes, expected " + PccEventLayout.RECORD_LENGTH);
        }
        if (bytes.readRemaining() >= Integer.BYTES) { // absent before version 3
            TraceRecordCheck.verify(bytes.readInt(), check(), "event");
        }
    }

    /** Zeroes every field and the record. */
    @Override
    public void reset() {
        source = 0;
        timePs = 0;
        Arrays.fill(record, (byte) 0);
    }

    /**
     * Appends the record as {@code nicsim trace dump} prints it, e.g. {@code event time_ns=4686000
     * src=0 qpn=17 type=TX_BURST subtype=0 sn=9209053 first_sn=9209053 num_coalesced=1 flags=0x02
     * ts_ns=4686000 first_ts_ns=4686000 tx_bytes=18 tx_packets=1 rtt_request_send_ns=0
     * rtt_request_receive_ns=0 rtt_response_send_ns=0}. The 32-bit nanosecond fields are printed
     * unsigned.
     *
     * @param b where to append
     * @return b
     */
    public StringBuilder appendTo(final StringBuilder b) {
        final PccEvent e = flyweight;
        final int type = e.type();
        b.append("event time_ns=");
        TraceText.appendNs(b, timePs);
        b.append(" src=").append(source).append(" qpn=").append(e.flowId())
            .append(" type=").append(type < PccEventType.COUNT ? PccEventType.name(type) : Integer.toString(type))
            .append(" subtype=").append(e.subtype())
            .append(" sn=").append(e.sn())
            .append(" first_sn=").append(e.firstSn())
            .append(" num_coalesced=").append(e.numCoalesced())
            .append(" flags=0x");
        TraceText.appendHex2(b, e.flags());
        b.append(" port=").append(e.port())
            .append(" ts_ns=").append(Integer.toUnsignedLong(e.timestampNs()))
            .append(" first_ts_ns=").append(Integer.toUnsignedLong(e.firstTimestampNs()))
            .append(" tx_bytes=").append(e.txBytes())
            .append(" tx_packets=").append(e.txPackets())
            .append(" rtt_request_send_ns=").append(Integer.toUnsignedLong(e.rttRequestSendNs()))
            .append(" rtt_request_receive_ns=").append(Integer.toUnsignedLong(e.rttRequestReceiveNs()))
            .append(" rtt_response_send_ns=").append(Integer.toUnsignedLong(e.rttResponseSendNs()));
        return b;
    }

    @Override
    public String toString() {
        return appendTo(new StringBuilder(256)).toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceEvent t && t.source == source && t.timePs == timePs
            && Arrays.equals(t.record, record);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timePs) * 31 + Arrays.hashCode(record);
    }
}
