package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccResult;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * A result a source's CC processor delivered ({@link TraceMessages#result};
 * {@link dev.nicsim.pcc.CcResultSink#onResult}): when it takes effect, the cycles the event
 * took, and every field of the {@link PccResult} as the algorithm left it ("unchanged" values
 * included, so a replay can be compared field by field).
 *
 * <p>Binary form: {@code source, qpn (int32), effectivePs, cycles (int64), rate (int32),
 * windowBytes (int64), rttProbe (1 byte), timerNs, fastStartPackets (int32), check (int32, version 3 on;
 * {@link TraceRecordCheck})}, 49 bytes.
 *
 * <p>Thread-safety: not thread-safe; a reused holder.
 */
public final class TraceResult extends BytesInBinaryMarshallable {
    /** The source whose processor delivered the result. */
    public int source;
    /** Flow id (requester QPN). */
    public int qpn;
    /** Time the result takes effect, ps. */
    public long effectivePs;
    /** Processor cycles the event took. */
    public long cycles;
    /** Rate, 20-bit fixed-point fraction of line rate in {@code [1, 1 << 20]}, or {@link PccResult#RATE_UNCHANGED}. */
    public int rate = PccResult.RATE_UNCHANGED;
    /** Window, bytes; {@link PccResult#WINDOW_UNLIMITED} (0) or {@link PccResult#WINDOW_UNCHANGED} (-1). */
    public long windowBytes = PccResult.WINDOW_UNCHANGED;
    /** Whether an RTT probe was asked for. */
    public boolean rttProbe;
    /** Timer armed, ns; 0 when none. */
    public int timerNs;
    /** Fast-start budget, packets, or {@link PccResult#FAST_START_UNCHANGED}. */
    public int fastStartPackets = PccResult.FAST_START_UNCHANGED;

    /** Creates a record with every result field "unchanged". */
    public TraceResult() {
    }

    /**
     * Fills the record.
     *
     * @param sourceId    the source
     * @param flowQpn     flow id
     * @param result      the result (read, not kept)
     * @param effectiveAt time the result takes effect, ps
     * @param cycleCount  processor cycles
     * @return this
     */
    public TraceResult set(final int sourceId, final int flowQpn, final PccResult result, final long effectiveAt,
                           final long cycleCount) {
        source = sourceId;
        qpn = flowQpn;
        effectivePs = effectiveAt;
        cycles = cycleCount;
        rate = result.rate();
        windowBytes = result.windowBytes();
        rttProbe = result.rttProbeRequest();
        timerNs = result.timerNs();
        fastStartPackets = result.fastStartPackets();
        return this;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeInt(source);
        bytes.writeInt(qpn);
        bytes.writeLong(effectivePs);
        bytes.writeLong(cycles);
        bytes.writeInt(rate);
        bytes.writeLong(windowBytes);
        bytes.writeBoolean(rttProbe);
        bytes.writeInt(timerNs);
        bytes.writeInt(fastStartPackets);
        bytes.writeInt(check());
    }

    /** @return the record check of the fields ({@link TraceRecordCheck}) */
    private int check() {
        long h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.RESULT, source), qpn);
        h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(h, effectivePs), cycles), rate);
        h = TraceRecordCheck.mix(TraceRecordCheck.mix(h, windowBytes), rttProbe ? 1 : 0);
        return TraceRecordCheck.finish(TraceRecordCheck.mix(TraceRecordCheck.mix(h, timerNs), fastStartPackets));
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        source = bytes.readInt();
        qpn = bytes.readInt();
        effectivePs = bytes.readLong();
        cycles = bytes.readLong();
        rate = bytes.readInt();
        windowBytes = bytes.readLong();
        rttProbe = bytes.readBoolean();
        timerNs = bytes.readInt();
        fastStartPackets = bytes.readInt();
        if (bytes.readRemaining() >= Integer.BYTES) { // absent before version 3
            TraceRecordCheck.verify(bytes.readInt(), check(), "result");
        }
    }

    /** Sets every field back to a fresh record's. */
    @Override
    public void reset() {
        source = 0;
        qpn = 0;
        effectivePs = 0;
        cycles = 0;
        rate = PccResult.RATE_UNCHANGED;
        windowBytes = PccResult.WINDOW_UNCHANGED;
        rttProbe = false;
        timerNs = 0;
        fastStartPackets = PccResult.FAST_START_UNCHANGED;
    }

    /**
     * Appends the record as {@code nicsim trace dump} prints it, e.g. {@code result time_ns=1000
     * src=0 qpn=1 rate=1048576 rate_bits_per_sec=100000000000 window_bytes=-1 cycles=0 rtt_probe=0
     * timer_ns=0 fast_start_packets=-1}; {@code rate_bits_per_sec} only when the flow's line rate
     * is known and the rate is set.
     *
     * @param b                  where to append
     * @param lineRateBitsPerSec the flow's line rate, or 0 if unknown
     * @return b
     */
    public StringBuilder appendTo(final StringBuilder b, final long lineRateBitsPerSec) {
        b.append("result time_ns=");
        TraceText.appendNs(b, effectivePs);
        b.append(" src=").append(source).append(" qpn=").append(qpn).append(" rate=").append(rate);
        if (lineRateBitsPerSec > 0 && rate != PccResult.RATE_UNCHANGED) {
            b.append(" rate_bits_per_sec=").append(FixedPoint.rateToBitsPerSec(rate, lineRateBitsPerSec));
        }
        b.append(" window_bytes=").append(windowBytes)
            .append(" cycles=").append(cycles)
            .append(" rtt_probe=").append(rttProbe ? 1 : 0)
            .append(" timer_ns=").append(timerNs)
            .append(" fast_start_packets=").append(fastStartPackets);
        return b;
    }

    @Override
    public String toString() {
        return appendTo(new StringBuilder(160), 0).toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceResult r && r.source == source && r.qpn == qpn && r.effectivePs == effectivePs
            && r.cycles == cycles && r.rate == rate && r.windowBytes == windowBytes && r.rttProbe == rttProbe
            && r.timerNs == timerNs && r.fastStartPackets == fastStartPackets;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(effectivePs) * 31 + qpn;
    }
}
