package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A capture whose packets are recorded slightly out of timestamp order, as a NIC stamping on several
 * receive queues leaves them: {@code replay} and {@code trace import} put them back in order by
 * default, say so on the summary line, and give the same {@code events.csv} and {@code results.csv}
 * as the same capture in timestamp order; {@code --reorder-window-ns 0} refuses it (exit 2, one line
 * naming the file and the packet). The reordering: the ACK of the RDMA WRITE moved to 1 us after
 * the WRITE and recorded before it, so packet 5 (the WRITE) is stamped 1 us before packet 4 (the
 * ACK). Done on the project's Soft-RoCE fixture and on the real Soft-RoCE capture beside the
 * repository (read in place and changed in memory; skipped when absent). None of the real captures
 * in {@code ../shared/data/captures} is out of order itself.
 */
class ReorderedCaptureReplayTest {
    /** Packet indices (0-based) of the RDMA WRITE and its ACK in both Soft-RoCE captures. */
    private static final int WRITE = 3;
    private static final int ACK = 4;

    @TempDir
    Path dir;

    /** A little-endian classic pcap as its 24-byte header and its records (16-byte header + data). */
    private static final class Pcap {
        final byte[] header;
        final List<byte[]> records = new ArrayList<>();
        final long nsPerFrac;

        Pcap(final byte[] file) {
            final ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
            final int magic = b.getInt(0);
            assertTrue(magic == 0xA1B2C3D4 || magic == 0xA1B23C4D, "little-endian pcap expected");
            nsPerFrac = magic == 0xA1B23C4D ? 1 : 1_000;
            header = java.util.Arrays.copyOf(file, 24);
            int pos = 24;
            while (pos < file.length) {
                final int len = 16 + b.getInt(pos + 8);
                records.add(java.util.Arrays.copyOfRange(file, pos, pos + len));
                pos += len;
            }
        }

        long timeNs(final int i) {
            final ByteBuffer r = ByteBuffer.wrap(records.get(i)).order(ByteOrder.LITTLE_ENDIAN);
            return (r.getInt(0) & 0xFFFF_FFFFL) * 1_000_000_000L + (r.getInt(4) & 0xFFFF_FFFFL) * nsPerFrac;
        }

        void timeNs(final int i, final long ns) {
            final ByteBuffer r = ByteBuffer.wrap(records.get(i)).order(ByteOrder.LITTLE_ENDIAN);
            r.putInt(0, (int) (ns / 1_000_000_000L)).putInt(4, (int) (ns % 1_000_000_000L / nsPerFrac));
        }

        Path write(final Path file) throws IOException {
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(header);
            records.forEach(out::writeBytes);
            return Files.write(file, out.toByteArray());
        }
    }

    @Test
    void theFixtureReorderedReplaysAsSorted() throws IOException {
        assertReorderedReplaysAsSorted(Files.readAllBytes(FixtureCaptures.softroce(dir.resolve("softroce.pcap"))));
    }

    @Test
    void theRealSoftroceCaptureReorderedReplaysAsSorted() throws IOException {
        assertReorderedReplaysAsSorted(Files.readAllBytes(TraceCli.capture("softroce-write-read.pcap")));
    }

    private void assertReorderedReplaysAsSorted(final byte[] original) throws IOException {
        final Pcap p = new Pcap(original);
        assertEquals(12, p.records.size());
        p.timeNs(ACK, p.timeNs(WRITE) + 1_000);
        assertTrue(p.timeNs(ACK) < p.timeNs(ACK + 1));
        final Path sorted = p.write(dir.resolve("sorted.pcap"));
        Collections.swap(p.records, WRITE, ACK);
        final Path reordered = p.write(dir.resolve("reordered.pcap"));

        final Cli.Outcome a = Cli.run("replay", sorted.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("a").toString());
        assertEquals(0, a.exitCode(), a.err());
        assertTrue(a.out().startsWith(sorted + ": 12 packets read: 12 RoCE/IB, 0 skipped\n"), a.out());
        final Cli.Outcome b = Cli.run("replay", reordered.toString(), "--algorithm", "dcqcn", "--out",
            dir.resolve("b").toString());
        assertEquals(0, b.exitCode(), b.err());
        assertTrue(b.out().startsWith(reordered + ": 12 packets read: 12 RoCE/IB, 0 skipped, 1 reordered by timestamp"
            + " (largest displacement 1000 ns, 1 packet)\n"), b.out());
        // the 5 events (TX_BURST, ACK, RTT_RESPONSE, TX_BURST, RTT_RESPONSE) and their 6 results, byte for byte
        assertEquals(1 + 5, TraceCli.lines(dir.resolve("a").resolve("events.csv")).size());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve("events.csv")),
            Files.readAllBytes(dir.resolve("b").resolve("events.csv")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve("results.csv")),
            Files.readAllBytes(dir.resolve("b").resolve("results.csv")));

        final Cli.Outcome imp = Cli.run("trace", "import", reordered.toString(), "--to", dir.resolve("t").toString());
        assertEquals(0, imp.exitCode(), imp.err());
        assertTrue(imp.out().startsWith("12 packets read: 12 RoCE/IB, 0 skipped, 1 reordered by timestamp (largest"
            + " displacement 1000 ns, 1 packet)\n"), imp.out());
        assertTrue(imp.out().contains("events: TX_BURST 2, ACK 1, NACK 0, CNP 0, RTT_RESPONSE 2, TIMER 0 (5)"), imp.out());

        // no window: the step back is refused, naming the file and the packet
        final Cli.Outcome c = Cli.run("replay", reordered.toString(), "--algorithm", "dcqcn", "--reorder-window-ns", "0",
            "--out", dir.resolve("c").toString());
        assertEquals(2, c.exitCode(), c.err());
        assertEquals("nicsim: " + reordered + ": packet 5: timestamp 1000 ns before packet 4's, beyond the reorder window"
            + " of 0 ns (--reorder-window-ns); --lenient skips and counts such packets; 4 packets read: 4 RoCE/IB,"
            + " 0 skipped\n", c.err());
    }

    @Test
    void aWindowOutOfRangeIsRefusedBeforeAnythingIsWritten() {
        final Path capture = FixtureCaptures.softroce(dir.resolve("softroce.pcap"));
        for (final String[] cmd : List.of(
            new String[]{"replay", capture.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("r").toString()},
            new String[]{"trace", "import", capture.toString(), "--to", dir.resolve("r").toString()})) {
            for (final String bad : new String[]{"-1", "1000000001"}) {
                final String[] args = java.util.Arrays.copyOf(cmd, cmd.length + 2);
                args[cmd.length] = "--reorder-window-ns";
                args[cmd.length + 1] = bad;
                final Cli.Outcome o = Cli.run(args);
                assertEquals(2, o.exitCode(), o.err());
                assertEquals("nicsim: --reorder-window-ns: expected 0..1000000000 ns, got " + bad + "\n", o.err());
                assertFalse(Files.exists(dir.resolve("r")), String.join(" ", args));
            }
        }
    }
}
