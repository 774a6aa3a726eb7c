package dev.nicsim.traces;

import dev.nicsim.pcc.PccEventLayout;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timestamp order ({@link CaptureDecoder}'s reorder window) and unsupported pcapng interfaces, on
 * the Soft-RoCE fixture ({@link Fixtures#softroceRaw()}: 12 RoCE packets, 5 events: 3 UD SENDs,
 * the WRITE (index 3, at S + 1000 us), its ACK (index 4, S + 1020 us), ...). The oracle for "the
 * same events" is the capture itself with the packets in timestamp order (or without the skipped
 * packet): the derived events are compared byte for byte (every 64-byte record and its time).
 */
class CaptureReorderTest {
    private static final RawCapture RAW = Fixtures.softroceRaw();
    private static final int WRITE = 3;
    private static final int ACK = 4;

    /** The derived events, one string per event: time in ps and the record's 64 bytes in hex. */
    private record Derived(List<String> events, long handled, CaptureStats stats) {
    }

    private static Derived derive(final byte[] capture, final boolean strict) throws CaptureException {
        final List<String> events = new ArrayList<>();
        final HexFormat hex = HexFormat.of();
        final PccEventDeriver deriver = new PccEventDeriver((e, timePs) -> {
            final byte[] b = new byte[PccEventLayout.RECORD_LENGTH];
            e.buffer().getBytes(e.offset(), b);
            events.add(timePs + " " + hex.formatHex(b));
        });
        final long[] handled = {0};
        final CaptureStats s = new CaptureDecoder(strict).decode("test", capture, p -> {
            handled[0]++;
            deriver.onPacket(p);
        });
        deriver.finish();
        return new Derived(events, handled[0], s);
    }

    private static byte[] pcap(final RawCapture c) {
        return c.toPcap(ByteOrder.LITTLE_ENDIAN, true);
    }

    private static RawCapture retime(final RawCapture c, final int index, final long timeNs) {
        final RawCapture.Rec r = c.records.get(index);
        return c.with(index, RawCapture.Rec.at(timeNs, r.data()));
    }

    private static RawCapture swap(final RawCapture c, final int i, final int j) {
        return c.with(i, c.records.get(j)).with(j, c.records.get(i));
    }

    @Test
    void aOneMicrosecondReorderIsPutInOrderAndCounted() throws CaptureException {
        // sorted: the WRITE at t, its ACK 1 us later; reordered: the ACK recorded first, so packet 5
        // (the WRITE) is stamped 1 us before packet 4 (the ACK), as a NIC's two receive queues merge
        final long t = RAW.records.get(WRITE).timeNs();
        final RawCapture sorted = retime(RAW, ACK, t + 1_000);
        final RawCapture reordered = swap(sorted, WRITE, ACK);
        final Derived want = derive(pcap(sorted), true);
        final Derived got = derive(pcap(reordered), true);
        assertEquals(5, want.events.size());
        assertEquals(want.events, got.events);
        assertEquals(12, got.handled);
        assertEquals(1, got.stats.reordered());
        assertEquals(1_000, got.stats.largestReorderNs());
        assertEquals(1, got.stats.largestReorderPackets());
        assertEquals("12 packets read: 12 RoCE/IB, 0 skipped, 1 reordered by timestamp (largest displacement 1000 ns,"
            + " 1 packet)", got.stats.summary());
        assertEquals("12 packets read: 12 RoCE/IB, 0 skipped", want.stats.summary());
        // without the reorder (window 0) the step back is refused: the window is what accepts it
        final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true, 0)
            .decode("test", pcap(reordered), p -> { })).getMessage();
        assertEquals("test: packet 5: timestamp 1000 ns before packet 4's, beyond the reorder window of 0 ns"
            + " (--reorder-window-ns); --lenient skips and counts such packets; 4 packets read: 4 RoCE/IB, 0 skipped", msg);
    }

    @Test
    void equalTimestampsKeepTheirFileOrderAndAPacketMayOvertakeSeveral() throws CaptureException {
        // the three UD SENDs (S, S + 150 us, S + 300 us) all stamped S + 300 us; the WRITE stamped
        // 1 ns before them and recorded after the ACK (S + 1020 us): file order UD UD UD ACK WRITE ...
        final long s300 = RAW.records.get(2).timeNs();
        final RawCapture c = retime(retime(retime(RAW, 0, s300), 1, s300), WRITE, s300 - 1);
        final RawCapture reordered = swap(c, WRITE, ACK);
        // the oracle, in timestamp order by hand: WRITE, the UDs in file order, ACK, the rest
        final List<RawCapture.Rec> recs = new ArrayList<>(c.records);
        recs.add(0, recs.remove(WRITE));
        final RawCapture sorted = RawCapture.of(RAW.linkType, RAW.snapLength, recs);
        final Derived want = derive(pcap(sorted), true);
        final Derived got = derive(pcap(reordered), true);
        assertEquals(5, want.events.size());
        assertEquals(want.events, got.events);
        // packets handed on (file numbers): the WRITE (5), the UDs in file order (1, 2, 3), the ACK (4), 6..12
        final List<Long> order = new ArrayList<>();
        new CaptureDecoder(true).decode("test", pcap(reordered), p -> order.add(p.packetNumber));
        assertEquals(List.of(5L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L, 10L, 11L, 12L), order);
        // the WRITE is stamped (S + 1020 us) - (S + 300 us - 1 ns) = 720,001 ns before the ACK and
        // overtakes 4 packets (the ACK and the three UDs stamped after it)
        assertEquals(1, got.stats.reordered());
        assertEquals(720_001, got.stats.largestReorderNs());
        assertEquals(4, got.stats.largestReorderPackets());
    }

    @Test
    void aTenSecondJumpBackIsRefusedOrSkippedAndCounted() throws CaptureException {
        // packet 6 (index 5) stamped 10 s before packet 5's time
        final long t5 = RAW.records.get(ACK).timeNs();
        final RawCapture back = retime(RAW, 5, t5 - 10_000_000_000L);
        final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true)
            .decode("back.pcap", pcap(back), p -> { })).getMessage();
        assertEquals("back.pcap: packet 6: timestamp 10000000000 ns before packet 5's, beyond the reorder window of"
            + " 1000000 ns (--reorder-window-ns); --lenient skips and counts such packets; 5 packets read: 5 RoCE/IB,"
            + " 0 skipped", msg);
        final Derived lenient = derive(pcap(back), false);
        assertEquals(11, lenient.handled);
        assertEquals("12 packets read: 11 RoCE/IB, 1 skipped (1 timestamp beyond the reorder window or absurd)",
            lenient.stats.summary());
        // the same events as the capture without that packet
        final RawCapture without = RawCapture.of(RAW.linkType, RAW.snapLength, withoutIndex(RAW.records, 5));
        assertEquals(derive(pcap(without), true).events, lenient.events);
    }

    private static List<RawCapture.Rec> withoutIndex(final List<RawCapture.Rec> recs, final int index) {
        final List<RawCapture.Rec> out = new ArrayList<>(recs);
        out.remove(index);
        return out;
    }

    @Test
    void aTimestampFrom2100OnIsRefusedNamingThePacket() throws CaptureException {
        // 2100-01-01T00:00:00Z = 4,102,444,800 s since the epoch (47,482 days): refused; 1 ns before it accepted
        final RawCapture one = RawCapture.of(RAW.linkType, RAW.snapLength, List.of(RAW.records.get(WRITE)));
        final long end = 4_102_444_800L * 1_000_000_000L;
        final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true)
            .decode("late.pcap", pcap(retime(one, 0, end)), p -> { })).getMessage();
        assertEquals("late.pcap: packet 1: absurd timestamp 2100-01-01T00:00:00Z, after 2100; --lenient skips and counts"
            + " such packets; 0 packets read: 0 RoCE/IB, 0 skipped", msg);
        assertEquals(1, derive(pcap(retime(one, 0, end - 1)), true).handled);
        // in a whole capture: packet 7 at 2100-01-01T00:00:00.5Z
        final RawCapture late = retime(RAW, 6, end + 500_000_000L);
        final String m2 = assertThrows(CaptureException.class, () -> new CaptureDecoder(true)
            .decode("late.pcap", pcap(late), p -> { })).getMessage();
        assertEquals("late.pcap: packet 7: absurd timestamp 2100-01-01T00:00:00.500Z, after 2100; --lenient skips and"
            + " counts such packets; 6 packets read: 6 RoCE/IB, 0 skipped", m2);
        final Derived lenient = derive(pcap(late), false);
        assertEquals(11, lenient.handled);
        assertEquals(1, lenient.stats.skipped(SkipReasons.BAD_TIMESTAMP));
    }

    @Test
    void aTimestampBefore1970IsRefusedNamingThePacket() throws CaptureException {
        // pcapng: interface 0 as usual; interface 1 with if_tsoffset -1,800,000,000 s, so packet 5 (the
        // ACK, at 1,700,000,000 s + ...) is stamped 100,000,000 s before the epoch: 1966-10-31
        final byte[] ng = twoInterfaces(idbWithOffset(-1_800_000_000L), ACK);
        final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true)
            .decode("early.pcapng", ng, p -> { })).getMessage();
        final long ackNs = RAW.records.get(ACK).timeNs() - 1_800_000_000L * 1_000_000_000L;
        assertEquals("early.pcapng: packet 5: absurd timestamp " + java.time.Instant.ofEpochSecond(
            Math.floorDiv(ackNs, 1_000_000_000L), Math.floorMod(ackNs, 1_000_000_000L)) + ", before 1970; --lenient"
            + " skips and counts such packets; 4 packets read: 4 RoCE/IB, 0 skipped", msg);
        assertTrue(msg.contains("absurd timestamp 1966-10-31T"), msg);
        final Derived lenient = derive(ng, false);
        assertEquals(11, lenient.handled);
        assertEquals("12 packets read: 11 RoCE/IB, 1 skipped (1 timestamp beyond the reorder window or absurd)",
            lenient.stats.summary());
    }

    @Test
    void aSecondPcapngInterfaceOfAnUnsupportedLinkTypeIsRefusedOrSkipped() throws CaptureException {
        final List<String> events = derive(pcap(RAW), true).events;
        for (final int link : new int[]{101, 113}) {
            // the 12 packets on interface 0 (Ethernet) and a 13th on interface 1 (raw IP / Linux cooked)
            // after packet 6: the IPv4 packet of the WRITE without its 14-byte Ethernet header
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(RawCapture.shb(ByteOrder.LITTLE_ENDIAN));
            out.writeBytes(RawCapture.idb(ByteOrder.LITTLE_ENDIAN, LinkTypes.ETHERNET, 65535, 9));
            out.writeBytes(RawCapture.idb(ByteOrder.LITTLE_ENDIAN, link, 65535, 9));
            for (int i = 0; i < RAW.records.size(); i++) {
                final RawCapture.Rec r = RAW.records.get(i);
                out.writeBytes(RawCapture.packet(ByteOrder.LITTLE_ENDIAN, RawCapture.Block.EPB, 0, r.timeNs(), r));
                if (i == 5) {
                    final byte[] d = RAW.records.get(WRITE).data();
                    final RawCapture.Rec ip = RawCapture.Rec.at(r.timeNs() + 1, java.util.Arrays.copyOfRange(d, 14, d.length));
                    out.writeBytes(RawCapture.packet(ByteOrder.LITTLE_ENDIAN, RawCapture.Block.EPB, 1, ip.timeNs(), ip));
                }
            }
            final byte[] ng = out.toByteArray();
            final String msg = assertThrows(CaptureException.class, () -> new CaptureDecoder(true)
                .decode("two.pcapng", ng, p -> { })).getMessage();
            assertEquals("two.pcapng: packet 7: interface 1 has link type " + LinkTypes.describe(link) + ", which nicsim"
                + " does not decode (it decodes 1 (Ethernet) and 197 (ERF)); --lenient skips and counts such packets;"
                + " 6 packets read: 6 RoCE/IB, 0 skipped", msg);
            final Derived lenient = derive(ng, false);
            assertEquals(12, lenient.handled);
            assertEquals("13 packets read: 12 RoCE/IB, 1 skipped (1 unsupported link type)", lenient.stats.summary());
            assertEquals(events, lenient.events);
        }
        assertEquals(5, events.size());
    }

    /** pcapng: interface 0 (Ethernet, ns), interface 1 as given; every packet on 0 except {@code onOne}. */
    private static byte[] twoInterfaces(final byte[] secondIdb, final int onOne) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(RawCapture.shb(ByteOrder.LITTLE_ENDIAN));
        out.writeBytes(RawCapture.idb(ByteOrder.LITTLE_ENDIAN, LinkTypes.ETHERNET, 65535, 9));
        out.writeBytes(secondIdb);
        for (int i = 0; i < RAW.records.size(); i++) {
            final RawCapture.Rec r = RAW.records.get(i);
            out.writeBytes(RawCapture.packet(ByteOrder.LITTLE_ENDIAN, RawCapture.Block.EPB, i == onOne ? 1 : 0,
                r.timeNs(), r));
        }
        return out.toByteArray();
    }

    /** An Ethernet IDB with if_tsresol 9 (ns) and if_tsoffset (option 14, pcapng §4.2) in seconds. */
    private static byte[] idbWithOffset(final long offsetSec) {
        final ByteBuffer body = ByteBuffer.allocate(8 + 8 + 12 + 4).order(ByteOrder.LITTLE_ENDIAN);
        body.putShort((short) LinkTypes.ETHERNET).putShort((short) 0).putInt(65535);
        body.putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3]);
        body.putShort((short) 14).putShort((short) 8).putLong(offsetSec);
        body.putShort((short) 0).putShort((short) 0);
        return RawCapture.block(ByteOrder.LITTLE_ENDIAN, 1, body.array());
    }

    @Test
    void theCountsAreNotPrintedWhenNothingWasReordered() throws CaptureException {
        assertEquals("12 packets read: 12 RoCE/IB, 0 skipped", derive(pcap(RAW), true).stats.summary());
    }
}
