package dev.nicsim.traces.replay;

/**
 * The records of a nicsim PCC trace, as a typed interface in the Chronicle Queue style: a trace is
 * written by calling these methods on a Chronicle {@code MethodWriter} proxy of this interface
 * ({@link ChronicleTraceWriter}) and read by a Chronicle {@code MethodReader} calling them on a
 * handler ({@link ChronicleTraceReader}). Each call is one queue entry (a document named after the
 * method, holding the argument's binary form, {@code BytesInBinaryMarshallable}).
 *
 * <p>Order in a trace: one {@link #header} first; then, for each NIC ("source"), its flow starts,
 * offered events and flow ends in the order its CC processor saw them, and each result after the
 * call that produced it; sources interleave in simulated-time order (times never decrease across
 * starts, events and ends); host calls into firmware ({@link #hostCall}, version 4 on) at their place among
 * them. Imported captures hold a header and events only.
 *
 * <p>Arguments are reused objects: a handler must copy what it keeps. Thread-safety: a writer or
 * reader is used by one thread.
 */
public interface TraceMessages {
    /**
     * The trace header, first entry of every trace.
     *
     * @param header format name and version, where the trace came from, the algorithm and processor
     */
    void header(TraceHeader header);

    /**
     * A flow started on a source's CC processor.
     *
     * @param flowStart source, QPN, time and the flow attributes the algorithm sees
     */
    void flowStart(TraceFlowStart flowStart);

    /**
     * A flow ended on a source's CC processor.
     *
     * @param flowEnd source, QPN, time
     */
    void flowEnd(TraceFlowEnd flowEnd);

    /**
     * A PCC event offered to a source's CC processor.
     *
     * @param event source, arrival time and the 64-byte event record
     */
    void event(TraceEvent event);

    /**
     * A result a source's CC processor delivered.
     *
     * @param result source, QPN, effective time, cycles and the result fields
     */
    void result(TraceResult result);

    /**
     * A call the host side made into a source's firmware (format version 4 on): a mailbox message or
     * a port-state change, at its place among the source's other records. Every handler that counts
     * or replays records must take it; the default ignores it.
     *
     * @param call source, kind, time and the call's arguments
     */
    default void hostCall(final TraceHostCall call) {
    }

    /**
     * The last record of a finished trace (format version 3 on): how many records came between the
     * header and it. {@link ChronicleTraceReader} checks it before any handler sees a record, so a
     * handler may ignore it (the default does).
     *
     * @param end the record count
     */
    default void end(final TraceEnd end) {
    }
}
