package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * A flow ended on a source's CC processor ({@link TraceMessages#flowEnd};
 * {@link dev.nicsim.pcc.CcProcessor#endFlow}).
 *
 * <p>Binary form: {@code source, qpn (int32), timePs (int64), check (int32, version 3 on;
 * {@link TraceRecordCheck})}, 20 bytes. Thread-safety: not
 * thread-safe; a reused holder.
 */
public final class TraceFlowEnd extends BytesInBinaryMarshallable {
    /** The source whose processor this is. */
    public int source;
    /** Flow id (requester QPN). */
    public int qpn;
    /** Time of the end, ps. */
    public long timePs;

    /** Creates a zeroed record. */
    public TraceFlowEnd() {
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeInt(source);
        bytes.writeInt(qpn);
        bytes.writeLong(timePs);
        bytes.writeInt(check());
    }

    /** @return the record check of the fields ({@link TraceRecordCheck}) */
    private int check() {
        return TraceRecordCheck.finish(TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(
            TraceRecordCheck.FLOW_END, source), qpn), timePs));
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        source = bytes.readInt();
        qpn = bytes.readInt();
        timePs = bytes.readLong();
        if (bytes.readRemaining() >= Integer.BYTES) { // absent before version 3
            TraceRecordCheck.verify(bytes.readInt(), check(), "flow_end");
        }
    }

    /** Zeroes every field. */
    @Override
    public void reset() {
        source = 0;
        qpn = 0;
        timePs = 0;
    }

    @Override
    public String toString() {
        return "flow_end time_ns=" + TraceText.ns(timePs) + " src=" + source + " qpn=" + qpn;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceFlowEnd f && f.source == source && f.qpn == qpn && f.timePs == timePs;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timePs) * 31 + qpn;
    }
}
