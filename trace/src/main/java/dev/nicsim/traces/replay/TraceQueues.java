package dev.nicsim.traces.replay;

import dev.nicsim.riscv.IoReasons;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * How nicsim lays out a trace on disk: one Chronicle Queue directory, binary wire, roll cycle
 * {@link #ROLL_CYCLE} and a fixed time provider. Simulated time is not wall-clock time, so the
 * queue's clock is pinned (by default to the Unix epoch, {@link #DEFAULT_EPOCH_MS}): every trace is
 * one cycle file ({@code 19700101F.cq4}) plus {@code metadata.cq4t}, and the same run writes the
 * same bytes (the project's rule: same seed, same output bytes). Tests pass their own fixed time provider.
 *
 * <p>Thread-safety: stateless.
 */
public final class TraceQueues {
    /** Roll cycle of every trace: one file per (pinned) day, up to 2^32 entries. */
    public static final RollCycles ROLL_CYCLE = RollCycles.FAST_DAILY;
    /** Time the default time provider is pinned to, ms since the Unix epoch. */
    public static final long DEFAULT_EPOCH_MS = 0;
    /** Chronicle block (mapping chunk) size, bytes: small traces stay small on disk. */
    static final long BLOCK_BYTES = 1 << 20;
    /** Name of the queue's metadata file. */
    static final String METADATA_FILE = "metadata.cq4t";
    /** Suffix of the queue's cycle files. */
    static final String CYCLE_SUFFIX = ".cq4";

    static {
        ChronicleSetup.init();
    }

    private TraceQueues() {
    }

    /** @return a new time provider pinned at {@link #DEFAULT_EPOCH_MS} */
    public static TimeProvider fixedTime() {
        return new SetTimeProvider(DEFAULT_EPOCH_MS * 1_000_000L);
    }

    /**
     * Opens (creating if needed) the queue of a trace directory.
     *
     * @param dir      the trace directory
     * @param time     the queue's clock (fixed; see the class comment)
     * @param readOnly true to read an existing trace without touching it
     * @return the queue; the caller closes it
     */
    static SingleChronicleQueue open(final Path dir, final TimeProvider time, final boolean readOnly) {
        return SingleChronicleQueueBuilder.binary(dir)
            .rollCycle(ROLL_CYCLE)
            .timeProvider(time)
            .blockSize(BLOCK_BYTES)
            .readOnly(readOnly)
            .build();
    }

    /**
     * Whether a file name belongs to a Chronicle Queue directory ({@code *.cq4}, {@code *.cq4t}).
     *
     * @param name file name
     * @return true for queue files
     */
    static boolean isQueueFile(final String name) {
        return name.endsWith(CYCLE_SUFFIX) || name.endsWith(".cq4t");
    }

    /**
     * Checks that a directory holds a Chronicle Queue (a metadata file and at least one cycle file).
     *
     * @param dir the directory
     * @throws TraceException naming the directory when it is missing, not a directory or not a queue
     */
    static void checkIsQueue(final Path dir) {
        if (!Files.exists(dir)) {
            throw new TraceException(dir + ": no such trace directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new TraceException(dir + ": not a nicsim trace directory (a file, not a directory)");
        }
        boolean cycle = false;
        try (Stream<Path> s = Files.list(dir)) {
            for (final Path p : (Iterable<Path>) s::iterator) {
                if (p.getFileName().toString().endsWith(CYCLE_SUFFIX) && Files.isRegularFile(p)) {
                    cycle = true;
                }
            }
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot list the trace directory: " + IoReasons.why(e));
        }
        if (!cycle || !Files.isRegularFile(dir.resolve(METADATA_FILE))) {
            throw new TraceException(dir + ": not a nicsim trace directory (no Chronicle Queue files: "
                + METADATA_FILE + " and *" + CYCLE_SUFFIX + ")");
        }
        // Chronicle maps these files and would fault reading past a cut end, or wait ~10 s for a
        // garbled header to become ready: check their size and first header before it opens them
        checkQueueFile(dir, dir.resolve(METADATA_FILE), METADATA_HEADER, PAGE_BYTES);
        try (Stream<Path> s = Files.list(dir)) {
            for (final Path p : (Iterable<Path>) s::iterator) {
                if (p.getFileName().toString().endsWith(CYCLE_SUFFIX)) {
                    checkQueueFile(dir, p, CYCLE_HEADER, BLOCK_BYTES);
                    checkRecordLengths(dir, p);
                }
            }
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot list the trace directory: " + IoReasons.why(e));
        }
    }

    /** Chronicle's file granule, bytes: every queue file it writes is a whole number of these. */
    static final long PAGE_BYTES = 4096;
    /** Bytes 4.. of every metadata file: the binary-wire document {@code header: !STStore}. */
    private static final byte[] METADATA_HEADER = wireHeader("STStore");
    /** Bytes 4.. of every cycle file: the binary-wire document {@code header: !SCQStore}. */
    private static final byte[] CYCLE_HEADER = wireHeader("SCQStore");

    private static byte[] wireHeader(final String type) {
        final byte[] b = new byte[2 + 6 + 2 + type.length()];
        b[0] = (byte) 0xB9; // binary wire: field name of 6 characters
        b[1] = 6;
        System.arraycopy("header".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, 2, 6);
        b[8] = (byte) 0xB6; // type prefix
        b[9] = (byte) type.length();
        System.arraycopy(type.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, 10, type.length());
        return b;
    }

    /**
     * Refuses a queue file that was cut (not a whole number of pages, or smaller than Chronicle
     * makes it) or whose first header is not the one Chronicle writes.
     */
    private static void checkQueueFile(final Path dir, final Path file, final byte[] header, final long minBytes) {
        try {
            final long size = Files.size(file);
            if (size < minBytes || size % PAGE_BYTES != 0) {
                throw new TraceException(dir + ": the trace is cut short: " + file.getFileName() + " is " + size
                    + " bytes, not a whole Chronicle Queue file (at least " + minBytes + " bytes, a multiple of " + PAGE_BYTES
                    + "); last good record: none can be read");
            }
            final byte[] start = new byte[4 + header.length];
            try (InputStream in = Files.newInputStream(file)) {
                in.readNBytes(start, 0, start.length);
            }
            if (!Arrays.equals(start, 4, start.length, header, 0, header.length)) {
                throw new TraceException(dir + ": the trace is corrupt: " + file.getFileName() + " does not start with"
                    + " Chronicle Queue's header (overwritten or not a queue file)");
            }
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot read " + file.getFileName() + ": " + IoReasons.why(e));
        }
    }

    /** Chronicle wire header flag: the document is still being written (set until the write completes). */
    static final int HEADER_NOT_COMPLETE = 0x8000_0000;
    /** Chronicle wire header flag: the document is queue metadata (index, padding), not a record. */
    static final int HEADER_META_DATA = 0x4000_0000;
    /** Low 30 bits of a Chronicle wire header: the document's length in bytes, after the 4-byte header. */
    static final int HEADER_LENGTH_MASK = 0x3FFF_FFFF;
    /** Chronicle's end-of-data marker, written when a cycle file is closed for good. */
    static final int HEADER_END_OF_DATA = HEADER_NOT_COMPLETE | HEADER_META_DATA;
    /** Bytes read at a time while walking a cycle file's headers. */
    private static final int WALK_CHUNK_BYTES = 1 << 16;
    /** {@link #WALK_CHUNK_BYTES} zeros, never written: what the tail after the written data is compared with. */
    private static final byte[] ZEROS = new byte[WALK_CHUNK_BYTES];

    /**
     * Walks a cycle file's document headers (4-byte little-endian words: length in the low 30 bits,
     * {@link #HEADER_META_DATA} and {@link #HEADER_NOT_COMPLETE} flags; each document starts at the
     * next 4-byte boundary after the previous one, as Chronicle Queue 5 writes them) from byte 0 to the
     * first zero word (end of written data) or end-of-data marker, and checks that every byte after
     * that end is zero. Chronicle reads mapped files with unchecked (Unsafe) access: a length that runs
     * past the file makes it read past the mapping, which can kill the JVM, so this runs before it maps
     * the file. Reads the file sequentially, {@value #WALK_CHUNK_BYTES} bytes at a time.
     *
     * @param dir  the trace directory (named in the message)
     * @param file the cycle file
     * @throws TraceException one line naming the trace, the file and the byte offset of the first
     *                        impossible header: a length past the file's end, a zero length, a
     *                        not-complete document, or data after the end of the written data
     */
    static void checkRecordLengths(final Path dir, final Path file) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ)) {
            final long size = ch.size();
            final java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(WALK_CHUNK_BYTES)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
            long bufStart = 0;
            long bufEnd = 0; // file offsets [bufStart, bufEnd) are in buf
            long pos = 0;
            while (pos + 4 <= size) {
                if (pos + 4 > bufEnd || pos < bufStart) {
                    bufStart = pos;
                    bufEnd = fill(ch, buf, pos, size);
                }
                final int h = buf.getInt((int) (pos - bufStart));
                if (h == 0 || h == HEADER_END_OF_DATA) {
                    break;
                }
                final String at = dir + ": the trace is corrupt: " + file.getFileName() + " at byte offset " + pos
                    + ": ";
                if ((h & HEADER_NOT_COMPLETE) != 0) {
                    throw new TraceException(at + "a record marked not complete (header 0x" + Integer.toHexString(h)
                        + "), a write cut off or an overwritten length");
                }
                final long length = h & HEADER_LENGTH_MASK;
                if (length == 0) {
                    throw new TraceException(at + "a record of length 0 (header 0x" + Integer.toHexString(h)
                        + "), an overwritten length");
                }
                final long end = pos + 4 + length;
                if (end > size) {
                    throw new TraceException(at + "a record length of " + length + " bytes runs past the file's end ("
                        + size + " bytes), an overwritten length");
                }
                pos = (end + 3) & ~3L;
            }
            // after the written data Chronicle leaves zeros: anything else is data a zeroed length cut off.
            // Compared a chunk at a time with Arrays.mismatch (vectorised): a trace's cycle file is at least
            // 1.25 MB, nearly all of it this zero tail, and the check runs on every open
            final long dataEnd = pos;
            pos = dataEnd + 4 <= size ? dataEnd + 4 : dataEnd; // the terminating word itself may be the end marker
            while (pos < size) {
                bufEnd = fill(ch, buf, pos, size);
                final int n = (int) (bufEnd - pos);
                if (n == 0) {
                    break; // the file shrank while being read: Chronicle's own open reports it
                }
                final int m = Arrays.mismatch(buf.array(), 0, n, ZEROS, 0, n);
                if (m >= 0) {
                    throw new TraceException(dir + ": the trace is corrupt: " + file.getFileName() + " at byte offset "
                        + dataEnd + ": the written data ends there (a zero length or end marker), but byte "
                        + (pos + m) + " holds data: an overwritten length");
                }
                pos = bufEnd;
            }
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot read " + file.getFileName() + ": " + IoReasons.why(e));
        }
    }

    /** Reads {@code [pos, min(pos + capacity, size))} into buf (from index 0); @return the file offset read to */
    private static long fill(final java.nio.channels.FileChannel ch, final java.nio.ByteBuffer buf, final long pos,
            final long size) throws IOException {
        buf.clear();
        buf.limit((int) Math.min(buf.capacity(), size - pos));
        while (buf.hasRemaining()) {
            if (ch.read(buf, pos + buf.position()) < 0) {
                break;
            }
        }
        return pos + buf.position();
    }

    /**
     * Deletes the queue files of a trace directory, best effort (after a failed import, so no
     * partial trace is left behind); other files and the directory itself stay.
     *
     * @param dir the trace directory
     */
    public static void deleteTrace(final Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            for (final Path p : (Iterable<Path>) s::iterator) {
                if (isQueueFile(p.getFileName().toString())) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (final IOException e) {
            // best effort: the caller is already reporting the failure that made it delete
        }
    }

    /**
     * The checks of {@link #prepareForWriting} that write nothing: the path is not a file, and an
     * existing directory holds trace files only.
     *
     * @param dir the trace directory, existing or not
     * @throws TraceException naming the directory and what is in the way
     */
    static void checkForWriting(final Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new TraceException(dir + ": is a file; a trace is written to a directory");
        }
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (final Path p : (Iterable<Path>) s::iterator) {
                if (!isQueueFile(p.getFileName().toString()) || !Files.isRegularFile(p)) {
                    throw new TraceException(dir + ": holds " + p.getFileName()
                        + ", which is not a trace file; give an empty or new directory for the trace");
                }
            }
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot write the trace directory: " + IoReasons.why(e));
        }
    }

    /**
     * Prepares a directory to receive a new trace: creates it if missing; if it holds an earlier
     * trace, deletes that trace's queue files (so a re-run replaces its trace); refuses a directory
     * holding anything else.
     *
     * @param dir the directory
     * @throws TraceException if the path is a file, holds other files, or cannot be written
     */
    static void prepareForWriting(final Path dir) {
        checkForWriting(dir);
        try {
            Files.createDirectories(dir);
            try (Stream<Path> s = Files.list(dir)) {
                for (final Path p : (Iterable<Path>) s::iterator) {
                    Files.delete(p);
                }
            }
            checkSpace(dir, Files.getFileStore(dir).getUsableSpace());
        } catch (final IOException e) {
            throw new TraceException(dir + ": cannot write the trace directory: " + IoReasons.why(e));
        }
    }

    /**
     * Bytes a new trace takes on disk before its first records: the metadata file (64 KiB, as
     * Chronicle 5 makes it) and a cycle file of at least one block and its index (1.25 MB), both
     * written through memory mappings.
     */
    static final long MIN_TRACE_BYTES = BLOCK_BYTES + (BLOCK_BYTES >> 1) + (64 << 10);

    /**
     * Refuses to start a trace on a file system without room for it: on a full disk Chronicle's first
     * write through the mapping of {@code metadata.cq4t} faults, and the JVM reports an
     * {@code InternalError} with a stack trace. A trace that fills the disk later is reported by
     * {@code NicsimCommand} (the same fault, as one line).
     *
     * @param dir         the trace directory (named in the message)
     * @param usableBytes bytes free for this process on its file system
     * @throws TraceException one line naming the directory, the free bytes and the bytes needed
     */
    static void checkSpace(final Path dir, final long usableBytes) {
        if (usableBytes < MIN_TRACE_BYTES) {
            throw new TraceException(dir + ": cannot write the trace directory: no space left on device (" + usableBytes
                + " bytes free; a trace needs at least " + MIN_TRACE_BYTES + " bytes to start)");
        }
    }
}
