package dev.nicsim.traces.replay;

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
 * {@link TraceException} naming the directory. From format version 3 on, {@link #open} also
 * reads the whole trace once before anything else sees it: a record whose check does not match
 * ({@link TraceRecordCheck}), a missing closing {@link TraceEnd} (the trace was cut short or its
 * writer never finished) or an end whose count differs from the records read is a
 * {@link TraceException} naming the directory and the last good record. The queue is opened
 * read-only: reading never changes a trace. Exceptions thrown by the handler pass through unchanged.
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
            if (header.version >= 3) {
                checkWhole();
            }
        } catch (final RuntimeException e) {
            queue.close();
            throw e;
        } catch (final InternalError e) {
            // a fault reading a mapped file past its end; the JVM may raise it after the read that caused it
            queue.close();
            throw new TraceException(dir + ": the trace is corrupt: a record's length runs past the queue file"
                + " (overwritten or cut short)");
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

    /** Mailbox-message records, counted when the trace was checked whole (version 4 on). */
    private long mailboxMessages;

    /** @return the mailbox messages the trace records ({@link TraceHostCall#KIND_MAILBOX}), 0 before version 4 */
    public long mailboxMessages() {
        return mailboxMessages;
    }

    /** @return the trace directory */
    public Path dir() {
        return dir;
    }

    private void readHeader() {
        final boolean[] seen = {false};
        final boolean[] other = {false};
        final TraceMessages first = new AnyRecord() {
            @Override
            public void header(final TraceHeader h) {
                header.copyFrom(h);
                seen[0] = true;
            }

            @Override
            void record(final Object record) {
                other[0] = true;
            }
        };
        try (ExcerptTailer tailer = queue.createTailer()) {
            final BoundedReader reader = new BoundedReader(tailer, first);
            final boolean any = reader.readOne();
            if (!any) {
                throw new TraceException(dir + ": not a nicsim trace, or one cut or zeroed before its header (no readable"
                    + " record)");
            }
        } catch (final TraceException e) {
            throw e;
        } catch (final InternalError e) { // the JVM's report of a fault reading a mapped file past its end
            throw new TraceException(dir + ": the trace is corrupt: its first record's length runs past the queue file"
                + " (overwritten or cut short); last good record: none can be read");
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

    /** Reads every record once, checking each record's check and the closing record count. */
    private void checkWhole() {
        final long[] records = {0};
        final long[] endCount = {-1};
        final boolean[] headerSeen = {false};
        final TraceMessages counter = new AnyRecord() {
            @Override
            public void header(final TraceHeader h) {
                if (headerSeen[0]) {
                    throw new TraceRecordCheck.Corrupt("a second header");
                }
                headerSeen[0] = true;
            }

            @Override
            public void hostCall(final TraceHostCall call) {
                record(call);
                if (header.version < 4) {
                    throw new TraceRecordCheck.Corrupt("a host_call record in a version " + header.version + " trace");
                }
                if (call.kind == TraceHostCall.KIND_MAILBOX) {
                    mailboxMessages++;
                }
            }

            @Override
            public void end(final TraceEnd end) {
                if (endCount[0] >= 0) {
                    throw new TraceRecordCheck.Corrupt("a second end record");
                }
                endCount[0] = end.records;
            }

            @Override
            void record(final Object record) {
                if (endCount[0] >= 0) {
                    throw new TraceRecordCheck.Corrupt("a record after the end record");
                }
                records[0]++;
            }
        };
        try (ExcerptTailer tailer = queue.createTailer()) {
            final BoundedReader reader = new BoundedReader(tailer, counter);
            reader.readOne(); // the header, read and checked before
            while (reader.readOne()) {
                // counting
            }
        } catch (final InternalError e) { // the JVM's report of a fault reading a mapped file past its end
            throw new TraceException(dir + ": the trace is cut short: a queue file ends inside record " + (records[0] + 1)
                + "; " + lastGood(records[0]));
        } catch (final RuntimeException e) {
            final Throwable cause = e instanceof InvocationTargetRuntimeException && e.getCause() != null ? e.getCause() : e;
            throw new TraceException(dir + ": the trace is corrupt after record " + records[0] + ": "
                + (cause instanceof TraceRecordCheck.Corrupt ? cause.getMessage()
                : "a record Chronicle cannot decode (" + cause.getMessage() + ")") + "; " + lastGood(records[0]));
        }
        if (endCount[0] < 0) {
            throw new TraceException(dir + ": the trace is cut short: no end record after " + records[0]
                + " records (truncated, overwritten, or its run or import did not finish); " + lastGood(records[0]));
        }
        if (endCount[0] != records[0]) {
            throw new TraceException(dir + ": the trace lost records: its end record counts " + endCount[0] + ", "
                + records[0] + " were read; " + lastGood(records[0]));
        }
    }

    /**
     * Describes a record for an error message (error path only: reads the trace again).
     *
     * @param n the record's number after the header, 1..; 0 for none
     * @return e.g. {@code "last good record #2: event time_ns=..."}
     */
    private String lastGood(final long n) {
        if (n == 0) {
            return "no good record after the header";
        }
        final String[] text = {""};
        final TraceMessages describe = new AnyRecord() {
            @Override
            public void header(final TraceHeader h) {
                record(h);
            }

            @Override
            void record(final Object record) {
                text[0] = record.toString();
            }
        };
        try (ExcerptTailer tailer = queue.createTailer()) {
            final BoundedReader reader = new BoundedReader(tailer, describe);
            for (long i = 0; i <= n && reader.readOne(); i++) {
                // up to record n
            }
        } catch (final RuntimeException | InternalError e) {
            return "last good record #" + n;
        }
        return "last good record #" + n + ": " + text[0];
    }

    /**
     * Reads every record, header included, calling the handler in trace order.
     *
     * @param handler receives the records (reused objects: copy what is kept)
     * @return number of records read
     * @throws TraceException if Chronicle cannot read the queue files, or one ends inside a record
     */
    public long read(final TraceMessages handler) {
        long n = 0;
        try (ExcerptTailer tailer = queue.createTailer()) {
            final BoundedReader reader = new BoundedReader(tailer, handler);
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
        } catch (final InternalError e) { // a fault reading a mapped file past its end (a version 1-2 trace, never checked whole)
            throw new TraceException(dir + ": the trace is cut short: a queue file ends inside record " + n);
        } catch (final RuntimeException e) {
            throw unreadable(e);
        }
        return n;
    }

    private TraceException unreadable(final RuntimeException e) {
        return new TraceException(dir + ": cannot read the trace: " + e.getClass().getSimpleName()
            + (e.getMessage() != null ? " " + e.getMessage() : ""));
    }

    /**
     * A handler for the checks above that treats every record after the header alike: flow starts,
     * flow ends, events, results and host calls all go to {@link #record}; the end record is
     * ignored unless overridden.
     */
    private abstract static class AnyRecord implements TraceMessages {
        /** @param record a flow start, flow end, event, result or host call (a reused holder) */
        abstract void record(Object record);

        @Override
        public void flowStart(final TraceFlowStart flowStart) {
            record(flowStart);
        }

        @Override
        public void flowEnd(final TraceFlowEnd flowEnd) {
            record(flowEnd);
        }

        @Override
        public void event(final TraceEvent event) {
            record(event);
        }

        @Override
        public void result(final TraceResult result) {
            record(result);
        }

        @Override
        public void hostCall(final TraceHostCall call) {
            record(call);
        }
    }

    /**
     * A method reader that decodes each record from a bounded on-heap copy instead of the mapped
     * queue file: a record may hold nested lengths (a marshallable argument's 8/16/32-bit length) that
     * Chronicle trusts, and on the mapped file, whose capacity is Chronicle's virtual maximum, a
     * corrupt length such as 0xFFF60045 reads past the file's end into unmapped memory, a fault that
     * kills the JVM. On a copy whose capacity is the record's own length, Chronicle's limit check
     * refuses such a length with an exception the callers turn into one line. The document headers themselves were checked before the queue was opened
     * ({@link TraceQueues#checkRecordLengths}), so copying a record reads only bytes of the file.
     *
     * <p>Allocation: the copy buffer grows to the longest record once; steady state allocates nothing.
     * Not thread-safe (one per tailer).
     */
    private static final class BoundedReader {
        private final ExcerptTailer tailer;
        private final Object handler;
        private byte[] copy = new byte[0];
        private net.openhft.chronicle.bytes.Bytes<byte[]> bytes;
        private MethodReader reader;

        BoundedReader(final ExcerptTailer tailer, final Object handler) {
            this.tailer = tailer;
            this.handler = handler;
            grow(1024);
        }

        private void grow(final int capacity) {
            copy = new byte[capacity];
            bytes = net.openhft.chronicle.bytes.Bytes.wrapForRead(copy);
            reader = net.openhft.chronicle.wire.WireType.BINARY_LIGHT.apply(bytes).methodReader(handler);
        }

        /**
         * Decodes the next data record, calling the handler.
         *
         * @return false when the trace has no further record
         */
        boolean readOne() {
            try (net.openhft.chronicle.wire.DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return false;
                }
                final net.openhft.chronicle.bytes.Bytes<?> in = dc.wire().bytes();
                final int length = (int) in.readRemaining(); // below 2^30: the header's length field
                if (length + 4 > copy.length) {
                    grow(Math.max(length + 4, 2 * copy.length));
                }
                copy[0] = (byte) length;
                copy[1] = (byte) (length >>> 8);
                copy[2] = (byte) (length >>> 16);
                copy[3] = (byte) (length >>> 24); // a data document: the flag bits stay clear
                in.read(copy, 4, length);
                bytes.readPositionRemaining(0, length + 4);
                reader.readOne();
                return true;
            }
        }
    }

    /** Closes the queue (idempotent). */
    @Override
    public void close() {
        queue.close();
    }
}
