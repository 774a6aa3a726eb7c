package dev.nicsim.traces;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader gives the same packets and timestamps whatever the framing: classic pcap in both byte
 * orders with microsecond and nanosecond resolution, and pcapng (both byte orders; EPB, SPB and the
 * obsolete PB; if_tsresol absent, 10^-9 and 2^-30; several sections; several interfaces with
 * different link types). The packets are the project's fixtures ({@link Fixtures}: the
 * Soft-RoCE-like exchange written by {@link PcapWriter} and the hand-built InfiniBand ERF records),
 * re-framed by {@link RawCapture} (which does not use the reader); the last test checks the ERF
 * timestamp of the real InfiniBand capture when it is present.
 */
class CaptureFormatsTest {
    private static final RawCapture SOFTROCE = Fixtures.softroceRaw();
    private static final RawCapture IB = RawCapture.parse(Fixtures.infinibandErf());

    private record Result(CaptureStats stats, List<Long> timesNs, List<Integer> psns) {
    }

    private static Result decode(final byte[] data) throws CaptureException {
        return decode(data, CaptureDecoder.DEFAULT_REORDER_WINDOW_NS);
    }

    private static Result decode(final byte[] data, final long reorderWindowNs) throws CaptureException {
        final List<Long> times = new ArrayList<>();
        final List<Integer> psns = new ArrayList<>();
        final CaptureDecoder d = new CaptureDecoder(true, reorderWindowNs);
        final CaptureStats s = d.decode("test", data, p -> {
            times.add(p.timeNs);
            psns.add(p.psn);
        });
        return new Result(s, times, psns);
    }

    private static List<Long> softroceTimes() {
        final List<Long> t = new ArrayList<>();
        for (final RawCapture.Rec r : SOFTROCE.records) {
            t.add(r.timeNs());
        }
        return t;
    }

    /** Counts of the exchange: 100 x5, 10, 17, 12, 13, 14 x2, 15. */
    private static void assertSoftroceCounts(final CaptureStats s) {
        assertEquals(12, s.transportPackets());
        assertEquals(5, s.opcodeCount(100));
        assertEquals(2, s.opcodeCount(14));
        assertEquals(1, s.opcodeCount(10));
        assertEquals(1, s.opcodeCount(17));
        assertEquals(12, s.icrcOk());
    }

    @Test
    void classicPcapBothByteOrdersBothResolutions() throws CaptureException {
        // PcapWriter's own output: little-endian, nanosecond magic; first packet at the fixture epoch,
        // the WRITE (#4) 1000 us later
        final Result reference = decode(Fixtures.softroceWriteRead());
        assertEquals(Fixtures.EPOCH_NS, reference.timesNs.get(0));
        assertEquals(Fixtures.EPOCH_NS + 1_000_000, reference.timesNs.get(3));
        assertEquals(Fixtures.SOFTROCE_PSN, reference.psns.get(3));
        for (final ByteOrder order : new ByteOrder[]{ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            for (final boolean nanos : new boolean[]{false, true}) {
                final Result r = decode(SOFTROCE.toPcap(order, nanos));
                assertSoftroceCounts(r.stats);
                assertEquals(softroceTimes(), r.timesNs, order + " nanos=" + nanos);
                assertEquals(reference.psns, r.psns);
            }
        }
    }

    @Test
    void pcapngEnhancedPacketBlocksBothByteOrders() throws CaptureException {
        // if_tsresol absent = microseconds; 9 = 10^-9 s: both give the records' times exactly
        for (final ByteOrder order : new ByteOrder[]{ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            for (final int tsresol : new int[]{-1, 6, 9}) {
                final Result r = decode(SOFTROCE.toPcapng(order, tsresol, RawCapture.Block.EPB));
                assertSoftroceCounts(r.stats);
                assertEquals(softroceTimes(), r.timesNs, order + " tsresol=" + tsresol);
            }
        }
    }

    @Test
    void pcapngBinaryResolution() throws CaptureException {
        // if_tsresol 0x80 | 30: units of 2^-30 s. units = sec * 2^30 + floor(nsec * 2^30 / 10^9), so
        // converting back to ns loses less than 2^-30 s (< 1 ns) plus the ns truncation: |error| <= 1 ns
        final Result r = decode(SOFTROCE.toPcapng(ByteOrder.LITTLE_ENDIAN, 0x80 | 30, RawCapture.Block.EPB));
        assertSoftroceCounts(r.stats);
        final List<Long> expected = softroceTimes();
        for (int i = 0; i < expected.size(); i++) {
            final long diff = Math.abs(expected.get(i) - r.timesNs.get(i));
            assertTrue(diff <= 1, "packet " + (i + 1) + " off by " + diff + " ns");
        }
    }

    @Test
    void pcapngSimpleAndObsoletePacketBlocks() throws CaptureException {
        final Result spb = decode(SOFTROCE.toPcapng(ByteOrder.BIG_ENDIAN, -1, RawCapture.Block.SPB));
        assertSoftroceCounts(spb.stats);
        // SPBs carry no timestamp: every packet gets the previous packet's time, here none = 0
        assertEquals(0L, spb.timesNs.get(11));
        final Result pb = decode(SOFTROCE.toPcapng(ByteOrder.LITTLE_ENDIAN, -1, RawCapture.Block.PB));
        assertSoftroceCounts(pb.stats);
        assertEquals(softroceTimes(), pb.timesNs);
    }

    @Test
    void pcapngSeveralSectionsAndInterfacesWithTheirOwnLinkTypes() throws CaptureException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        // section 1, little-endian: interface 0 Ethernet (us), interface 1 ERF (ns); the first 6 packets
        // of each interleaved, then the other 6 RoCEv2 packets
        out.writeBytes(RawCapture.shb(ByteOrder.LITTLE_ENDIAN));
        out.writeBytes(RawCapture.idb(ByteOrder.LITTLE_ENDIAN, LinkTypes.ETHERNET, 65535, -1));
        out.writeBytes(RawCapture.idb(ByteOrder.LITTLE_ENDIAN, LinkTypes.ERF, 65535, 9));
        for (int i = 0; i < 12; i++) {
            final RawCapture.Rec e = SOFTROCE.records.get(i);
            out.writeBytes(RawCapture.packet(ByteOrder.LITTLE_ENDIAN, RawCapture.Block.EPB, 0, RawCapture.units(e, -1), e));
            if (i < 6) {
                final RawCapture.Rec ib = IB.records.get(i);
                out.writeBytes(RawCapture.packet(ByteOrder.LITTLE_ENDIAN, RawCapture.Block.EPB, 1, RawCapture.units(ib, 9), ib));
            }
        }
        // section 2, big-endian: its own single interface (ERF) for the other 4 IB packets
        out.writeBytes(RawCapture.shb(ByteOrder.BIG_ENDIAN));
        out.writeBytes(RawCapture.idb(ByteOrder.BIG_ENDIAN, LinkTypes.ERF, 65535, -1));
        for (int i = 6; i < IB.records.size(); i++) {
            final RawCapture.Rec ib = IB.records.get(i);
            out.writeBytes(RawCapture.packet(ByteOrder.BIG_ENDIAN, RawCapture.Block.EPB, 0, RawCapture.units(ib, -1), ib));
        }
        // window 0: nothing is held back, so the packets come in file order
        final Result r = decode(out.toByteArray(), 0);
        // 12 RoCEv2 + 10 IB = 22 transport packets; opcode 100 = 5 (RoCE UD) + 3 (IB UD) = 8;
        // opcode 17 = 1 (RoCE) + 3 (IB) = 4; opcode 4 = 4 (IB)
        assertEquals(22, r.stats.transportPackets());
        assertEquals(12, r.stats.byEncapsulation(RocePacket.ENCAP_ROCE_V2));
        assertEquals(10, r.stats.byEncapsulation(RocePacket.ENCAP_IB));
        assertEquals(8, r.stats.opcodeCount(100));
        assertEquals(4, r.stats.opcodeCount(17));
        assertEquals(4, r.stats.opcodeCount(4));
        assertEquals(22, r.stats.icrcOk());
        assertEquals(10, r.stats.vcrcOk());
        // order: RoCE #1, IB #1, RoCE #2, IB #2, ...: the second packet has IB #1's ERF time, the
        // fourth IB #2's (S + 1/4 s); the last is IB #10 at S + 5 s from section 2
        assertEquals(Fixtures.ibTimeNs(0), r.timesNs.get(1));
        assertEquals(Fixtures.ibTimeNs(1), r.timesNs.get(3));
        assertEquals(Fixtures.ibTimeNs(9), r.timesNs.get(21));
        assertEquals(Fixtures.EPOCH_NS + 1_000_000, r.timesNs.get(6)); // RoCE #4 (the WRITE)

        // the default window holds each packet until its interface has a packet stamped more than 1 ms
        // later: the same packets, and each interface (RoCE 2023, IB 2008) still in its own time order
        final Result held = decode(out.toByteArray());
        assertEquals(22, held.stats.transportPackets());
        assertEquals(0, held.stats.reordered());
        final List<Long> sorted = new ArrayList<>(r.timesNs);
        sorted.sort(null);
        final List<Long> heldSorted = new ArrayList<>(held.timesNs);
        heldSorted.sort(null);
        assertEquals(sorted, heldSorted);
        long lastRoce = 0;
        long lastIb = 0;
        for (final long t : held.timesNs) {
            if (t >= Fixtures.EPOCH_NS) {
                assertTrue(t >= lastRoce, "RoCE out of order at " + t);
                lastRoce = t;
            } else {
                assertTrue(t >= lastIb, "IB out of order at " + t);
                lastIb = t;
            }
        }
    }

    @Test
    void erfRecordTimestampReplacesThePcapRecords() throws CaptureException {
        // the ERF header's 32.32 time wins over the pcap record's microseconds: #4 is at
        // S + 1.5 s + 1/1024 s = S + 1,500,976,562 ns, its pcap record at S + 1,500,976 us
        final Result r = decode(Fixtures.infinibandErf());
        assertEquals(Fixtures.IB_SECOND * 1_000_000_000L + 1_500_976_562L, r.timesNs.get(3));
        assertEquals(13_896_277, r.psns.get(3));
        assertEquals(10, r.stats.transportPackets());
    }

    @Test
    void erfRecordTimestampAgreesWithThePcapRecord() throws CaptureException {
        final Result r = decode(TestPaths.sharedCaptureBytes("infiniband-erf.pcap"));
        // first record: pcap header 0x482B41EF s + 0x79FED = 499693 us; ERF header fraction 0x7FEBEA60 / 2^32 s
        // = 2146167392 / 4294967296 = 0.49969300... s: the ERF time lies in the same microsecond
        final long sec = 0x482B41EFL;
        final long t = r.timesNs.get(0);
        assertTrue(t >= sec * 1_000_000_000L + 499_693_000L && t < sec * 1_000_000_000L + 499_694_000L, "got " + t);
    }
}
