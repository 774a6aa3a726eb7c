package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 2 (captures): {@code --lenient} on a capture whose last record is cut by the
 * end of the file (a capture stopped mid-write) keeps every whole packet before it. Oracle: the
 * same capture with the last record removed at its record boundary. Before the fix the cut last
 * record stopped the import with exit 2 even in lenient mode.
 */
class LenientCutCaptureTest {
    @TempDir
    Path dir;

    @Test
    void lenientKeepsThePacketsBeforeACutLastRecord() throws IOException {
        final byte[] all = Files.readAllBytes(FixtureCaptures.softroce(dir.resolve("full.pcap")));
        // classic pcap: 24-byte file header, then per packet a 16-byte record header (incl_len at +8) and the data
        final ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if ((b.getInt(0) & 0xFFFF0000) != 0xA1B20000) { // magic a1b2c3d4 (us) or a1b23c4d (ns) as written
            b.order(ByteOrder.BIG_ENDIAN);
        }
        int lastStart = 24;
        for (int at = 24; at < all.length; at += 16 + b.getInt(at + 8)) {
            lastStart = at;
        }
        final Path whole = Files.write(dir.resolve("whole.pcap"), Arrays.copyOf(all, lastStart));
        final Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(all, all.length - 3));

        final Cli.Outcome strict = Cli.run("replay", cut.toString(), "--algorithm", "dcqcn", "--out",
            dir.resolve("s").toString());
        assertEquals(2, strict.exitCode(), strict.err());
        assertTrue(strict.err().contains("truncated file"), strict.err());

        final Cli.Outcome lenient = Cli.run("replay", cut.toString(), "--algorithm", "dcqcn", "--lenient", "--out",
            dir.resolve("l").toString());
        assertEquals(0, lenient.exitCode(), lenient.err());
        assertTrue(lenient.out().contains("1 last record cut by the end of the file"), lenient.out());
        final Cli.Outcome reference = Cli.run("replay", whole.toString(), "--algorithm", "dcqcn", "--lenient", "--out",
            dir.resolve("w").toString());
        assertEquals(0, reference.exitCode(), reference.err());
        assertEquals(Files.readString(dir.resolve("w/events.csv")), Files.readString(dir.resolve("l/events.csv")));
        assertEquals(Files.readString(dir.resolve("w/results.csv")), Files.readString(dir.resolve("l/results.csv")));
    }
}
