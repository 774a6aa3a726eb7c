package dev.nicsim.traces.replay;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * First record of every trace ({@link TraceMessages#header}): the format name and version, where
 * the trace came from (a simulation or a capture, and which file), the algorithm and its parameter
 * values (simulations), the CC processor that produced the results, and the scenario seed.
 *
 * <p>Binary form (Chronicle {@code BytesInBinaryMarshallable}, written and read explicitly):
 * {@code format, version (int32), origin, input, algorithm, parameters, processor, seed (int64)},
 * strings as Chronicle UTF-8 with a stop-bit length.
 *
 * <p>Thread-safety: not thread-safe; a mutable holder reused by writers and readers.
 */
public final class TraceHeader extends BytesInBinaryMarshallable {
    /** Format name written by this version of nicsim. */
    public static final String FORMAT = "nicsim-pcc-trace";
    /**
     * Newest format version: readers accept this and older. Version 3 added a check to every record
     * ({@link TraceRecordCheck}) and the closing {@link TraceEnd}; version 4 the host calls into
     * firmware ({@link TraceHostCall}: mailbox messages, port-state changes), so a replay of a run
     * that had them makes them again. A trace is written as version 4 only when it may hold host
     * calls (a run with {@code firmware.mailbox} or {@code link_events}), else as
     * {@link #VERSION_WITHOUT_HOST_CALLS}, byte for byte as before version 4 existed, and readable by
     * older nicsim.
     */
    public static final int VERSION = 4;
    /** Version of a trace without host calls (the default of {@link #version}). */
    public static final int VERSION_WITHOUT_HOST_CALLS = 3;
    /** {@link #origin} of a trace recorded by {@code nicsim run --record}. */
    public static final String ORIGIN_SIMULATION = "simulation";
    /** {@link #origin} of a trace imported from a capture by {@code nicsim trace import}. */
    public static final String ORIGIN_CAPTURE = "capture";

    /** Format name, {@link #FORMAT}. */
    public String format = FORMAT;
    /** Format version, 1.. */
    public int version = VERSION_WITHOUT_HOST_CALLS;
    /** {@link #ORIGIN_SIMULATION} or {@link #ORIGIN_CAPTURE}. */
    public String origin = "";
    /** The scenario or capture file the trace came from, as given on the command line. */
    public String input = "";
    /** Algorithm name the results came from ({@code dcqcn}, ...); empty when the trace has no results. */
    public String algorithm = "";
    /** The algorithm's parameter values, {@code name=value} joined by commas, values in user units. */
    public String parameters = "";
    /** CC processor that produced the results ({@code direct}, ...); empty when none. */
    public String processor = "";
    /** Scenario seed (simulations), else 0. */
    public long seed;

    /** Creates a header with the current format and version and empty fields. */
    public TraceHeader() {
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeUtf8(format);
        bytes.writeInt(version);
        bytes.writeUtf8(origin);
        bytes.writeUtf8(input);
        bytes.writeUtf8(algorithm);
        bytes.writeUtf8(parameters);
        bytes.writeUtf8(processor);
        bytes.writeLong(seed);
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        format = nonNull(bytes.readUtf8());
        version = bytes.readInt();
        origin = nonNull(bytes.readUtf8());
        input = nonNull(bytes.readUtf8());
        algorithm = nonNull(bytes.readUtf8());
        parameters = nonNull(bytes.readUtf8());
        processor = nonNull(bytes.readUtf8());
        seed = bytes.readLong();
    }

    private static String nonNull(final String s) {
        return s == null ? "" : s;
    }

    /** Sets every field back to a fresh header's. */
    @Override
    public void reset() {
        format = FORMAT;
        version = VERSION_WITHOUT_HOST_CALLS;
        origin = "";
        input = "";
        algorithm = "";
        parameters = "";
        processor = "";
        seed = 0;
    }

    /**
     * Copies another header.
     *
     * @param o the source
     * @return this
     */
    public TraceHeader copyFrom(final TraceHeader o) {
        format = o.format;
        version = o.version;
        origin = o.origin;
        input = o.input;
        algorithm = o.algorithm;
        parameters = o.parameters;
        processor = o.processor;
        seed = o.seed;
        return this;
    }

    /** @return the header as the first line of {@code nicsim trace dump} prints it */
    @Override
    public String toString() {
        final StringBuilder b = new StringBuilder(128);
        b.append("# ").append(format).append(" v").append(version).append(" origin=").append(origin)
            .append(" input=").append(input);
        if (!algorithm.isEmpty()) {
            b.append(" algorithm=").append(algorithm);
        }
        if (!processor.isEmpty()) {
            b.append(" processor=").append(processor);
        }
        if (ORIGIN_SIMULATION.equals(origin)) {
            b.append(" seed=").append(seed);
        }
        if (!parameters.isEmpty()) {
            b.append(" parameters=").append(parameters);
        }
        return b.toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceHeader h && h.format.equals(format) && h.version == version && h.origin.equals(origin)
            && h.input.equals(input) && h.algorithm.equals(algorithm) && h.parameters.equals(parameters)
            && h.processor.equals(processor) && h.seed == seed;
    }

    @Override
    public int hashCode() {
        return format.hashCode() * 31 + input.hashCode();
    }
}
