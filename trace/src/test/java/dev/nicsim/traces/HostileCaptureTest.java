package dev.nicsim.traces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defects 2 and 6 on the capture side, on the Soft-RoCE fixture (12 RoCE packets): a
 * last record cut by the end of the file (lenient keeps the packets before it), timestamps beyond
 * the reorder window or absurd (strict refuses naming the packet, lenient skips and counts), and a packet with
 * a bad ICRC (strict derives nothing from it, lenient keeps it). Before the fix lenient mode
 * refused the cut file, bad timestamps passed silently and the bad-ICRC packet reached the handler
 * in strict mode.
 */
class HostileCaptureTest {
    private static final RawCapture RAW = Fixtures.softroceRaw();

    @TempDir
    Path dir;

    private Path write(final String name, final RawCapture c) throws IOException {
        return Files.write(dir.resolve(name), c.toPcap(ByteOrder.LITTLE_ENDIAN, false));
    }

    private static long[] decode(final Path f, final boolean strict, final CaptureStats[] stats) throws CaptureException {
        final long[] handled = new long[1];
        stats[0] = new CaptureDecoder(strict).decode(f, p -> handled[0]++);
        return handled;
    }

    @Test
    void lenientKeepsThePacketBeforeACutRecordHeader() throws IOException, CaptureException {
        // header 24 + record 1 (16 + 322) + 8 bytes of record 2's header
        final byte[] all = RAW.toPcap(ByteOrder.LITTLE_ENDIAN, false);
        final Path f = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(all, 24 + 16 + 322 + 8));
        final CaptureStats[] s = new CaptureStats[1];
        assertEquals(1, decode(f, false, s)[0]);
        assertEquals(1, s[0].transportPackets());
        assertEquals("1 last record cut by the end of the file", s[0].skippedSummary());
    }

    @Test
    void aBadIcrcIsSkippedAndCountedUnlessLenient() throws IOException, CaptureException {
        // one payload byte of packet 7 (READ Response First, 1086 bytes) flipped: its ICRC no longer matches
        final RawCapture.Rec r = RAW.records.get(6);
        final byte[] data = r.data().clone();
        data[500] ^= 0x01;
        final Path f = write("icrc.pcap", RAW.with(6, new RawCapture.Rec(r.sec(), r.nsec(), data, r.origLen())));
        final CaptureStats[] s = new CaptureStats[1];
        assertEquals(11, decode(f, true, s)[0]);
        assertEquals("1 bad ICRC", s[0].skippedSummary());
        assertEquals(11, s[0].icrcOk());
        assertEquals(12, decode(f, false, s)[0]);
        assertEquals(1, s[0].icrcBad());
    }

    private static RawCapture retime(final int index, final long sec, final long nsec) {
        final RawCapture.Rec r = RAW.records.get(index);
        return RAW.with(index, new RawCapture.Rec(sec, nsec, r.data(), r.origLen()));
    }

    @Test
    void timestampsBeyondTheReorderWindowOrAbsurdAreRefusedOrSkippedAndCounted() throws IOException, CaptureException {
        // packet 5 stamped 1 s before packet 4: 1000 times the default 1 ms reorder window
        final RawCapture.Rec r4 = RAW.records.get(3);
        final Path back = write("back.pcap", retime(4, r4.sec() - 1, r4.nsec()));
        final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true).decode(back, p -> { }))
            .getMessage();
        assertEquals(back + ": packet 5: timestamp 1000000000 ns before packet 4's, beyond the reorder window of 1000000 ns"
            + " (--reorder-window-ns); --lenient skips and counts such packets; 4 packets read: 4 RoCE/IB, 0 skipped", msg);
        final CaptureStats[] s = new CaptureStats[1];
        assertEquals(11, decode(back, false, s)[0]);
        assertEquals("1 timestamp beyond the reorder window or absurd", s[0].skippedSummary());

        // packet 5 stamped ts_sec 0xFFFFFFFF (year 2106)
        final Path absurd = write("absurd.pcap", retime(4, 0xFFFF_FFFFL, 0));
        final String m2 = assertThrows(CaptureException.class, () -> new CaptureDecoder(true).decode(absurd, p -> { }))
            .getMessage();
        assertTrue(m2.startsWith(absurd + ": packet 5: absurd timestamp 2106-02-07T06:28:15Z, after 2100; "), m2);
        assertEquals(11, decode(absurd, false, s)[0]);
        assertEquals("1 timestamp beyond the reorder window or absurd", s[0].skippedSummary());
    }
}
