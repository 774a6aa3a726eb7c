package dev.nicsim.traces.replay;

import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.microcode.trace.PccTraceListener;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as the record stream of a nicsim PCC trace (Chronicle Queue
 * documents: each a 4-byte length/flags word and a binary-wire method call), read as {@code trace dump}
 * and {@code replay} read it: {@link ChronicleTraceReader#open} (header, every record's check, the
 * closing count), then {@link ChronicleTraceReader#read} with every record formatted. It ends normally or
 * in a one-line {@link TraceException}; anything else escaping is a finding.
 *
 * <p>Chronicle reads only mapped queue files, so one real trace (header, flow start, result, event,
 * flow end, end record) is written once per JVM into a temporary directory; each input is written over
 * that trace's cycle file from its first record on (the bytes after it zeroed), and the directory is
 * opened read-only. The queue's own headers (metadata file, cycle file header and index) are not
 * fuzzed: {@code TraceQueues.checkIsQueue} checks those before Chronicle maps them, and
 * {@code TraceBadInputTest} covers them. The committed corpus ({@code ChronicleTraceJazzerTestInputs/})
 * starts from that trace's records; {@code mvn test} replays it, {@code -Pfuzz} fuzzes it
 * (docs/reliability.md).
 */
class ChronicleTraceJazzerTest {
    /** Longest record stream tried, bytes: libFuzzer's inputs stay far below it. */
    private static final int MAX_RECORD_BYTES = 1 << 16;
    private static final Path DIR;
    private static final Path CYCLE_FILE;
    /** Offset of the first record's length word in the cycle file. */
    private static final long RECORDS_START;
    private static FileChannel cycle;
    private static int lastLength = MAX_RECORD_BYTES;

    static {
        try {
            DIR = Files.createTempDirectory("nicsim-trace-fuzz");
            writeTrace(DIR);
            try (Stream<Path> s = Files.list(DIR)) {
                CYCLE_FILE = s.filter(p -> p.getFileName().toString().endsWith(TraceQueues.CYCLE_SUFFIX)).findFirst()
                    .orElseThrow();
            }
            RECORDS_START = firstRecord(DIR);
            cycle = FileChannel.open(CYCLE_FILE, StandardOpenOption.WRITE);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    cycle.close();
                    TraceQueues.deleteTrace(DIR);
                    Files.deleteIfExists(DIR);
                } catch (final IOException e) {
                    // best effort: a temporary directory
                }
            }));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The seed trace: one record of every kind, as a run writes them. */
    static void writeTrace(final Path dir) {
        final TraceHeader h = new TraceHeader();
        h.origin = TraceHeader.ORIGIN_SIMULATION;
        h.input = "s.yaml";
        h.algorithm = "dcqcn";
        h.processor = "direct";
        h.parameters = "g=0.0625";
        h.seed = 7;
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        try (ChronicleTraceWriter w = ChronicleTraceWriter.create(dir, h)) {
            final PccTraceListener l = w.listener(3);
            l.onFlowStart(17, 1_000, 100_000_000_000L, 1024, 8_064, 16_777_200);
            l.onResult(17, new PccResult().rate(1 << 20).fastStartPackets(12), 1_000, 0);
            e.reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, 17, 15, 2).firstSn(0).tx(16_384, 16)
                .flags(PccEventLayout.FLAG_FIRST_IN_FLOW);
            l.onEvent(e, 2_500);
            l.onFlowEnd(17, 4_000_000);
            w.finish();
        }
    }

    /** @return the cycle-file offset of the header record's length word */
    private static long firstRecord(final Path dir) {
        try (SingleChronicleQueue q = TraceQueues.open(dir, TraceQueues.fixedTime(), true);
             ExcerptTailer t = q.createTailer();
             DocumentContext dc = t.readingDocument()) {
            return dc.wire().bytes().readPosition() - 4;
        }
    }

    /** @return the trace's record stream as the fuzz target takes it (for the seed corpus) */
    static byte[] seedRecords() throws IOException {
        final byte[] all = Files.readAllBytes(CYCLE_FILE);
        int end = all.length;
        while (end > RECORDS_START && all[end - 1] == 0) {
            end--;
        }
        end = (int) Math.min(all.length, (end + 3) & ~3);
        return java.util.Arrays.copyOfRange(all, (int) RECORDS_START, end);
    }

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyRecordsReadOrFailWithOneLine(final byte[] records) throws IOException {
        final int n = Math.min(records.length, MAX_RECORD_BYTES);
        final ByteBuffer b = ByteBuffer.allocate(Math.max(n, lastLength));
        b.put(records, 0, n);
        b.flip().limit(Math.max(n, lastLength));
        cycle.write(b, RECORDS_START);
        lastLength = n;
        final StringBuilder dump = new StringBuilder();
        try (ChronicleTraceReader r = ChronicleTraceReader.open(DIR)) {
            r.read(new TraceMessages() {
                @Override
                public void header(final TraceHeader header) {
                    dump.append(header);
                }

                @Override
                public void flowStart(final TraceFlowStart flowStart) {
                    dump.append(flowStart);
                }

                @Override
                public void flowEnd(final TraceFlowEnd flowEnd) {
                    dump.append(flowEnd);
                }

                @Override
                public void event(final TraceEvent event) {
                    dump.append(event);
                }

                @Override
                public void result(final TraceResult result) {
                    dump.append(result);
                }
            });
        } catch (final TraceException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
