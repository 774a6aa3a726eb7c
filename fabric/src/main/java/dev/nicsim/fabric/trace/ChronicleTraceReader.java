package dev.nicsim.fabric.trace;

import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.util.InvocationTargetRuntimeException;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.nio.file.Path;

/**
 * Reads a nicsim PCC trace ({@link ChronicleTraceWriter}) through a Chronicle {@code MethodReader}
 * of {@link TraceMessages}: {@link #open} checks the directory and reads the header, {@link #read}
 * calls a handler for every record in order.
 *
 * <h2>Bad input</h2>
 * A path that does not exist, is not a directory, holds no Chronicle Queue files, whose first
 * record is not a {@link TraceHeader#FORMAT} header, whose format version is newer than
 * {@link TraceHeader#VERSION}, or whose queue files Chronicle cannot read, is a
 * {@link TraceException} naming the directory. The queue is opened read-only: reading never
 * changes a trace. Exceptions thrown by the handler pass through unchanged.
 *
 * <p>Allocation: none per record (Chronicle's generated method reader reuses the record objects).
 * Thread-safety: not thread-safe; one reading thread.
 */
public final class ChronicleTraceReader implements AutoCloseable {
    static {
        ChronicleSetup.init();
    }

    private final Path dir;
    private final SingleChronicleQueue queue;
    private final TraceHeader header = new TraceHeader();

    private ChronicleTraceReader(final Path dir) {
        this.dir = dir;
        TraceQueues.checkIsQueue(dir);
        try {
            this.queue = TraceQueues.open(dir, TraceQueues.fixedTime(), true);
        } catch (final RuntimeException e) {
            throw unreadable(e);
        }
        try {
            readHeader();
        } catch (final RuntimeException e) {
            queue.close();
            throw e;
        }
    }

    /**
     * Opens a trace and reads its header.
     *
     * @param dir the trace directory
     * @return the reader; close it when done
     * @throws TraceException if the directory is not a readable nicsim trace (see the class comment)
     */
    public static ChronicleTraceReader open(final Path dir) {
        return new ChronicleTraceReader(dir);
    }

    /** @return the trace's header (a copy held by this reader) */
    public TraceHeader header() {
        return header;
    }

    /** @return the trace directory */
    public Path dir() {
        return dir;
    }

    private void readHeader() {
        final boolean[] seen = {false};
        final boolean[] other = {false};
        final TraceMessages first = new TraceMessages() {
            @Override
            public void header(final TraceHeader h) {
                header.copyFrom(h);
                seen[0] = true;
            }

            @Override
            public void flowStart(final TraceFlowStart flowStart) {
                other[0] = true;
            }

            @Override
            public void flowEnd(final TraceFlowEnd flowEnd) {
                other[0] = true;
            }

            @Override
            public void event(final TraceEvent event) {
                other[0] = true;
            }

            @Override
            public void result(final TraceResult result) {
                other[0] = true;
            }
        };
        try (ExcerptTailer tailer = queue.createTailer()) {
            final MethodReader reader = tailer.methodReader(first);
            final boolean any = reader.readOne();
            if (!any) {
                throw new TraceException(dir + ": not a nicsim trace (the queue is empty)");
            }
        } catch (final TraceException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw unreadable(e);
        }
        if (!seen[0] || other[0]) {
            throw new TraceException(dir + ": not a nicsim trace (the first record is not a trace header)");
        }
        if (!TraceHeader.FORMAT.equals(header.format)) {
            throw new TraceException(dir + ": not a nicsim trace (format '" + header.format + "', expected '"
                + TraceHeader.FORMAT + "')");
        }
        if (header.version < 1 || header.version > TraceHeader.VERSION) {
            throw new TraceException(dir + ": trace format version " + header.version
                + " is not supported (this nicsim reads 1.." + TraceHeader.VERSION + ")");
        }
    }

    /**
     * Reads every record, header included, calling the handler in trace order.
     *
     * @param handler receives the records (reused objects: copy what is kept)
     * @return number of records read
     * @throws TraceException if Chronicle cannot read the queue files
     */
    public long read(final TraceMessages handler) {
        long n = 0;
        try (ExcerptTailer tailer = queue.createTailer()) {
            final MethodReader reader = tailer.methodReader(handler);
            while (reader.readOne()) {
                n++;
            }
        } catch (final InvocationTargetRuntimeException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        } catch (final TraceException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw unreadable(e);
        }
        return n;
    }

    private TraceException unreadable(final RuntimeException e) {
        return new TraceException(dir + ": cannot read the trace: " + e.getClass().getSimpleName()
            + (e.getMessage() != null ? " " + e.getMessage() : ""));
    }

    /** Closes the queue (idempotent). */
    @Override
    public void close() {
        queue.close();
    }
}
