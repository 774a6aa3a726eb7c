package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.HostCallRecorder;
import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.traces.PccEventSink;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.nio.file.Path;

/**
 * Writes a nicsim PCC trace to a Chronicle Queue ({@link TraceQueues}) through a Chronicle
 * {@code MethodWriter} of {@link TraceMessages}: the header first, then whatever the model emits.
 * Two ways in:
 * <ul>
 *   <li>{@link #listener(int)}: a {@link PccTraceListener} for one NIC's CC processor
 *       ({@code nicsim run --record}: the runner wraps each NIC's processor in a
 *       {@link dev.nicsim.microcode.trace.RecordingCcProcessor} reporting to the listener of that
 *       host);</li>
 *   <li>{@link #eventSink()}: a {@link PccEventSink} for events derived from a capture
 *       ({@code nicsim trace import}; the source is the event's port, i.e. its requester address).</li>
 * </ul>
 *
 * <p>Allocation: none per record in steady state (reused records; Chronicle's generated method
 * writer is garbage-free). Errors: a directory that cannot be written is a {@link TraceException};
 * Chronicle's own runtime exceptions (disk full, ...) pass through. Thread-safety: not thread-safe;
 * one writing thread (the simulation thread).
 */
public final class ChronicleTraceWriter implements AutoCloseable, HostCallRecorder {
    static {
        ChronicleSetup.init();
    }

    private final Path dir;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final TraceMessages out;
    private final TraceFlowStart flowStart = new TraceFlowStart();
    private final TraceFlowEnd flowEnd = new TraceFlowEnd();
    private final TraceEvent event = new TraceEvent();
    private final TraceResult result = new TraceResult();
    private final TraceEnd end = new TraceEnd();
    private final TraceHostCall hostCall = new TraceHostCall();
    private long hostCalls;
    private long flowStarts;
    private long flowEnds;
    private long events;
    private long results;
    private boolean closed;
    private boolean finished;

    private ChronicleTraceWriter(final Path dir, final TimeProvider time, final TraceHeader header) {
        this.dir = dir;
        TraceQueues.prepareForWriting(dir);
        this.queue = TraceQueues.open(dir, time, false);
        this.appender = queue.createAppender();
        this.out = appender.methodWriter(TraceMessages.class);
        out.header(header);
    }

    /**
     * Creates a trace in a directory with the default pinned clock ({@link TraceQueues#fixedTime()}).
     *
     * @param dir    the trace directory: new, empty, or holding an earlier trace (replaced)
     * @param header the header to write first
     * @return the writer; close it to finish the trace
     * @throws TraceException if the directory cannot hold a trace
     */
    public static ChronicleTraceWriter create(final Path dir, final TraceHeader header) {
        return create(dir, header, TraceQueues.fixedTime());
    }

    /**
     * Creates a trace in a directory with a given queue clock (tests pin it to a chosen instant).
     *
     * @param dir    the trace directory: new, empty, or holding an earlier trace (replaced)
     * @param header the header to write first
     * @param time   the Chronicle time provider (it names the cycle file); should not advance
     * @return the writer; close it to finish the trace
     * @throws TraceException if the directory cannot hold a trace
     */
    public static ChronicleTraceWriter create(final Path dir, final TraceHeader header, final TimeProvider time) {
        return new ChronicleTraceWriter(dir, time, header);
    }

    /**
     * Checks, writing nothing, that {@link #create} may write a trace in a directory: it is not a
     * file, and if it exists it holds trace files only (which {@link #create} replaces). Commands
     * call it with their other checks, before their first write.
     *
     * @param dir the trace directory
     * @throws TraceException naming the directory and what is in the way
     */
    public static void checkDirectory(final Path dir) {
        TraceQueues.checkForWriting(dir);
    }

    /** @return the trace directory */
    public Path dir() {
        return dir;
    }

    /**
     * A listener that records one source's processor (made once per NIC, not per call).
     *
     * @param source the NIC's index (host id), 0..2^31-1
     * @return a listener writing to this trace
     * @throws IllegalArgumentException if source is negative
     */
    public PccTraceListener listener(final int source) {
        if (source < 0) {
            throw new IllegalArgumentException("source: expected a host index >= 0, got " + source);
        }
        return new SourceListener(source);
    }

    /**
     * A sink for events derived from a capture: each event goes to the source named by its port
     * (the requester address index, see {@link dev.nicsim.traces.PccEventDeriver}).
     *
     * @return a sink writing to this trace
     */
    public PccEventSink eventSink() {
        return (e, timePs) -> writeEvent(e.port(), e, timePs);
    }

    private void writeEvent(final int source, final PccEvent e, final long timePs) {
        out.event(event.set(source, e, timePs));
        events++;
    }

    /**
     * Records a host mailbox message delivered to a source's firmware ({@link TraceHostCall#KIND_MAILBOX}),
     * at the time it is delivered (before the firmware runs it).
     *
     * @param source           the host index
     * @param timePs           delivery time, ps
     * @param messageIndex     the message's index in the scenario's list
     * @param request          the request bytes, at most {@link TraceHostCall#MAX_REQUEST_BYTES}
     * @param maxResponseBytes the most reply bytes the host takes
     * @param rateBitsPerSec   the port speed the firmware reads, bits/s
     */
    @Override
    public void mailbox(final int source, final long timePs, final int messageIndex, final byte[] request,
                        final int maxResponseBytes, final long rateBitsPerSec) {
        out.hostCall(hostCall.mailbox(source, timePs, messageIndex, request, maxResponseBytes, rateBitsPerSec));
        hostCalls++;
    }

    /**
     * Records a port-state change a source's firmware learns ({@link TraceHostCall#KIND_PORT_STATE}),
     * before the firmware is told.
     *
     * @param source         the host index
     * @param timePs         time of the change, ps
     * @param up             the port's new state
     * @param rateBitsPerSec the port speed, bits/s
     */
    @Override
    public void portState(final int source, final long timePs, final boolean up, final long rateBitsPerSec) {
        out.hostCall(hostCall.portState(source, timePs, up, rateBitsPerSec));
        hostCalls++;
    }

    /** @return host-call records written (mailbox messages and port-state changes) */
    public long hostCalls() {
        return hostCalls;
    }

    /** @return flow-start records written */
    public long flowStarts() {
        return flowStarts;
    }

    /** @return flow-end records written */
    public long flowEnds() {
        return flowEnds;
    }

    /** @return event records written */
    public long events() {
        return events;
    }

    /** @return result records written */
    public long results() {
        return results;
    }

    /**
     * Writes the closing {@link TraceEnd} (the record count), which marks the trace complete; call
     * it once everything was recorded, then {@link #close}. A trace closed without it stays marked
     * as cut short and every reader refuses it (a failed run or import never leaves a trace that
     * looks whole).
     *
     * @throws IllegalStateException if called twice or after {@link #close}
     */
    public void finish() {
        if (finished || closed) {
            throw new IllegalStateException("trace " + dir + " is already " + (closed ? "closed" : "finished"));
        }
        finished = true;
        end.records = flowStarts + flowEnds + events + results + hostCalls;
        out.end(end);
    }

    /**
     * Closes the appender and the queue (idempotent). The trace is complete only if {@link #finish}
     * was called first.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            appender.close();
        } finally {
            queue.close();
        }
    }

    /** Records one source's calls. */
    private final class SourceListener implements PccTraceListener {
        private final int source;

        SourceListener(final int source) {
            this.source = source;
        }

        @Override
        public void onFlowStart(final int qpn, final long timePs, final long lineRateBitsPerSec, final int mtuBytes,
                                final int baseRttNs, final int initialPsn) {
            final TraceFlowStart f = flowStart;
            f.source = source;
            f.qpn = qpn;
            f.timePs = timePs;
            f.lineRateBitsPerSec = lineRateBitsPerSec;
            f.mtuBytes = mtuBytes;
            f.baseRttNs = baseRttNs;
            f.initialPsn = initialPsn;
            out.flowStart(f);
            flowStarts++;
        }

        @Override
        public void onFlowEnd(final int qpn, final long timePs) {
            final TraceFlowEnd f = flowEnd;
            f.source = source;
            f.qpn = qpn;
            f.timePs = timePs;
            out.flowEnd(f);
            flowEnds++;
        }

        @Override
        public void onEvent(final PccEvent e, final long timePs) {
            writeEvent(source, e, timePs);
        }

        @Override
        public void onResult(final int qpn, final PccResult r, final long effectivePs, final long cycles) {
            out.result(result.set(source, qpn, r, effectivePs, cycles));
            results++;
        }
    }
}
