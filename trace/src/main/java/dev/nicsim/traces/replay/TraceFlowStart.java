package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * A flow started on a source's CC processor ({@link TraceMessages#flowStart}; the arguments of
 * {@link dev.nicsim.pcc.CcProcessor#startFlow}).
 *
 * <p>Binary form: {@code source, qpn (int32), timePs, lineRateBitsPerSec (int64), mtuBytes,
 * baseRttNs, initialPsn (int32)}, 36 bytes; format version 1 had no {@code initialPsn} (32 bytes),
 * which reads as 0. Thread-safety: not thread-safe; a reused holder.
 */
public final class TraceFlowStart extends BytesInBinaryMarshallable {
    /** The NIC (simulation: host index) or requester address index (captures) whose processor this is. */
    public int source;
    /** Flow id (requester QPN, 24 bits). */
    public int qpn;
    /** Start time, ps. */
    public long timePs;
    /** Line rate of the NIC port, bits/s. */
    public long lineRateBitsPerSec;
    /** Payload bytes per full packet. */
    public int mtuBytes;
    /** Unloaded path RTT, ns. */
    public int baseRttNs;
    /** PSN of the flow's first packet, 0..2^24 - 1 (0 in traces of format version 1). */
    public int initialPsn;

    /** Creates a zeroed record. */
    public TraceFlowStart() {
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeInt(source);
        bytes.writeInt(qpn);
        bytes.writeLong(timePs);
        bytes.writeLong(lineRateBitsPerSec);
        bytes.writeInt(mtuBytes);
        bytes.writeInt(baseRttNs);
        bytes.writeInt(initialPsn);
        bytes.writeInt(check());
    }

    /** @return the record check of the fields ({@link TraceRecordCheck}) */
    private int check() {
        long h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.FLOW_START, source), qpn);
        h = TraceRecordCheck.mix(TraceRecordCheck.mix(h, timePs), lineRateBitsPerSec);
        h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(h, mtuBytes), baseRttNs), initialPsn);
        return TraceRecordCheck.finish(h);
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        source = bytes.readInt();
        qpn = bytes.readInt();
        timePs = bytes.readLong();
        lineRateBitsPerSec = bytes.readLong();
        mtuBytes = bytes.readInt();
        baseRttNs = bytes.readInt();
        initialPsn = bytes.readRemaining() >= Integer.BYTES ? bytes.readInt() : 0; // absent in version 1
        if (bytes.readRemaining() >= Integer.BYTES) { // absent before version 3
            TraceRecordCheck.verify(bytes.readInt(), check(), "flow_start");
        }
    }

    /** Zeroes every field. */
    @Override
    public void reset() {
        source = 0;
        qpn = 0;
        timePs = 0;
        lineRateBitsPerSec = 0;
        mtuBytes = 0;
        baseRttNs = 0;
        initialPsn = 0;
    }

    @Override
    public String toString() {
        return "flow_start time_ns=" + TraceText.ns(timePs) + " src=" + source + " qpn=" + qpn
            + " line_rate_bits_per_sec=" + lineRateBitsPerSec + " mtu_bytes=" + mtuBytes + " base_rtt_ns=" + baseRttNs
            + " initial_psn=" + initialPsn;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceFlowStart f && f.source == source && f.qpn == qpn && f.timePs == timePs
            && f.lineRateBitsPerSec == lineRateBitsPerSec && f.mtuBytes == mtuBytes && f.baseRttNs == baseRttNs
            && f.initialPsn == initialPsn;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timePs) * 31 + qpn;
    }
}
