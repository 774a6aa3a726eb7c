package dev.nicsim.traces.replay;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * Last record of a trace of format version 3 and later ({@link TraceMessages#end}), written when
 * the writer is finished ({@link ChronicleTraceWriter#finish}): the number of records between the
 * header and itself. A trace without it was cut short or never finished (a crash, a failed run);
 * a trace whose count differs lost records. {@link ChronicleTraceReader#open} checks both.
 *
 * <p>Binary form: {@code records (int64), check (int32)}, 12 bytes. Thread-safety: not
 * thread-safe; a reused holder.
 */
public final class TraceEnd extends BytesInBinaryMarshallable {
    /** Records between the header and this one (flow starts, events, results, flow ends), 0.. */
    public long records;

    /** Creates a record of zeros. */
    public TraceEnd() {
    }

    private int check() {
        return TraceRecordCheck.finish(TraceRecordCheck.mix(TraceRecordCheck.TRACE_END, records));
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeLong(records);
        bytes.writeInt(check());
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        records = bytes.readLong();
        TraceRecordCheck.verify(bytes.readRemaining() >= Integer.BYTES ? bytes.readInt() : ~check(), check(), "end");
    }

    /** Zeroes the count. */
    @Override
    public void reset() {
        records = 0;
    }

    @Override
    public String toString() {
        return "end records=" + records;
    }
}
