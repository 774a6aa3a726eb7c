package dev.nicsim.traces.replay;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recorded trace whose record length words were overwritten (issue 23, the Chronicle Jazzer target's
 * JVM-killing finding): {@link ChronicleTraceReader#open} refuses it with one line naming the trace, the
 * cycle file and the byte offset of the bad header, before Chronicle maps the file. The record offsets
 * are taken from Chronicle's own tailer on the good trace, not from the walker under test.
 */
class TraceRecordLengthTest {
    @TempDir
    Path dir;

    private Path cycle() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(TraceQueues.CYCLE_SUFFIX)).findFirst().orElseThrow();
        }
    }

    /** @return the cycle-file offsets of every record's 4-byte header, in order (Chronicle's view) */
    private List<Long> recordOffsets() {
        final List<Long> out = new ArrayList<>();
        try (SingleChronicleQueue q = TraceQueues.open(dir, TraceQueues.fixedTime(), true);
             ExcerptTailer t = q.createTailer()) {
            while (true) {
                try (DocumentContext dc = t.readingDocument()) {
                    if (!dc.isPresent()) {
                        return out;
                    }
                    out.add(dc.wire().bytes().readPosition() - 4);
                }
            }
        }
    }

    private static String dump(final Path trace) {
        final StringBuilder sb = new StringBuilder();
        try (ChronicleTraceReader r = ChronicleTraceReader.open(trace)) {
            r.read(new TraceMessages() {
                @Override
                public void header(final TraceHeader h) {
                    sb.append(h).append('\n');
                }

                @Override
                public void flowStart(final TraceFlowStart f) {
                    sb.append(f).append('\n');
                }

                @Override
                public void flowEnd(final TraceFlowEnd f) {
                    sb.append(f).append('\n');
                }

                @Override
                public void event(final TraceEvent e) {
                    sb.append(e).append('\n');
                }

                @Override
                public void result(final TraceResult r) {
                    sb.append(r).append('\n');
                }
            });
        }
        return sb.toString();
    }

    private void putWord(final long offset, final int word) throws IOException {
        try (FileChannel ch = FileChannel.open(cycle(), StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, word);
            ch.write(b, offset);
        }
    }

    /** Overwrites the header word at offset and checks the one-line refusal naming file and offset. */
    private String refused(final long offset, final int word, final String why) throws IOException {
        putWord(offset, word);
        final TraceException e = assertThrows(TraceException.class, () -> dump(dir));
        final String m = e.getMessage();
        assertFalse(m.contains("\n"), m);
        assertTrue(m.startsWith(dir + ": the trace is corrupt: 19700101F.cq4 at byte offset " + offset + ": "), m);
        assertTrue(m.contains(why), m);
        return m;
    }

    private List<Long> record() {
        ChronicleTraceJazzerTest.writeTrace(dir);
        final List<Long> at = recordOffsets();
        assertEquals(6, at.size(), "header, flow start, result, event, flow end, end record: " + at);
        return at;
    }

    @Test
    void aGoodTraceStillReadsAndTheWalkAcceptsIt() throws IOException {
        record();
        TraceQueues.checkRecordLengths(dir, cycle());
        final String text = dump(dir);
        assertEquals(5, text.lines().count(), text); // the end record is checked, not delivered
        assertTrue(text.contains("flowStart") || text.contains("17"), text);
    }

    @Test
    void aHugeLengthIsRefused() throws IOException {
        final List<Long> at = record();
        refused(at.get(1), TraceQueues.HEADER_LENGTH_MASK, "a record length of 1073741823 bytes runs past the file's end");
    }

    @Test
    void aLengthJustPastTheEndIsRefused() throws IOException {
        final List<Long> at = record();
        final long size = Files.size(cycle());
        final long pastEnd = size - at.get(0) - 4 + 1;
        refused(at.get(0), (int) pastEnd, "a record length of " + pastEnd + " bytes runs past the file's end (" + size);
    }

    @Test
    void aLengthReachingExactlyTheEndIsNotPastIt() throws IOException {
        final List<Long> at = record();
        final long size = Files.size(cycle());
        // the last record now spans to the file's last byte: the walk accepts it, the reader refuses it
        putWord(at.get(5), (int) (size - at.get(5) - 4));
        TraceQueues.checkRecordLengths(dir, cycle());
    }

    @Test
    void aZeroLengthInsideTheDataIsRefusedAtTheFirstByteAfterIt() throws IOException {
        final List<Long> at = record();
        putWord(at.get(2), 0);
        final TraceException e = assertThrows(TraceException.class, () -> dump(dir));
        assertEquals(dir + ": the trace is corrupt: 19700101F.cq4 at byte offset " + at.get(2) + ": the written data"
            + " ends there (a zero length or end marker), but byte " + (at.get(2) + 4) + " holds data: an overwritten"
            + " length", e.getMessage());
    }

    @Test
    void aZeroLengthWithAFlagIsRefused() throws IOException {
        final List<Long> at = record();
        refused(at.get(3), TraceQueues.HEADER_META_DATA, "a record of length 0");
    }

    @Test
    void aNotCompleteRecordMidFileIsRefused() throws IOException {
        final List<Long> at = record();
        final ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(cycle())).order(ByteOrder.LITTLE_ENDIAN);
        final int word = b.getInt((int) (long) at.get(2));
        refused(at.get(2), word | TraceQueues.HEADER_NOT_COMPLETE, "a record marked not complete");
    }

    /**
     * The Jazzer finding of 2026-11-27 (the input is in the corpus as {@code crash-c6f91520c3bc...}): a header
     * record of 82 bytes whose argument is a marshallable with the 32-bit length 0xFFF60045. Its document
     * header is fine, so the walk accepts it; reading it on the mapped file made Chronicle read zeros past
     * the file's end and the JVM died ("Exception in thread main", the forked VM gone). Now the record is
     * decoded from a copy bounded by its own length: one line naming the trace.
     */
    @Test
    void aNestedLengthPastTheRecordIsOneLineNotAJvmDeath() throws IOException {
        final List<Long> at = record();
        final byte[] input = {0x52, 0, 0, 0, (byte) 0xB9, 6, 'h', 'e', 'a', 'd', 'e', 'r', (byte) 0x82, 0x45, 0, (byte) 0xF6,
            (byte) 0xFF, (byte) 0xEF, (byte) 0x8F, 'i', 'c', 's', 't', 'r', 'a', 0};
        try (FileChannel ch = FileChannel.open(cycle(), StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.allocate((int) (at.get(5) + 64 - at.get(0)));
            b.put(input).rewind();
            ch.write(b, at.get(0));
        }
        TraceQueues.checkRecordLengths(dir, cycle());
        final TraceException e = assertThrows(TraceException.class, () -> dump(dir));
        final String m = e.getMessage();
        assertFalse(m.contains("\n"), m);
        assertTrue(m.startsWith(dir + ": "), m);
    }
}
