package dev.nicsim.traces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each capture gives exactly the counts by BTH opcode it was built with, plus the encapsulation,
 * ECN, AETH and CRC counts that follow: first the project's own fixtures ({@link Fixtures}, whose
 * class comment lists every packet), then the real captures beside the repository (their content
 * table: "100 x5, 10, 17, 12, 13, 14 x2, 15" and so on), which are skipped when absent.
 */
class CaptureCountsTest {
    @TempDir
    Path dir;

    private static CaptureStats decode(final String file, final List<String> seen) throws CaptureException {
        final CaptureDecoder decoder = new CaptureDecoder();
        return decoder.decode(TestPaths.sharedCapture(file), p -> seen.add(p.toString()));
    }

    /** Writes a fixture to a file and decodes it from there (the file path of the reader). */
    private CaptureStats decodeFixture(final String name, final byte[] data, final List<RocePacket> seen)
        throws CaptureException, IOException {
        final Path f = Files.write(dir.resolve(name), data);
        return new CaptureDecoder(true).decode(f, p -> seen.add(copy(p)));
    }

    private static RocePacket copy(final RocePacket p) {
        final RocePacket copy = new RocePacket();
        copy.opcode = p.opcode;
        copy.becn = p.becn;
        copy.dscp = p.dscp;
        copy.ecn = p.ecn;
        copy.udpSrcPort = p.udpSrcPort;
        copy.destQp = p.destQp;
        copy.psn = p.psn;
        copy.payloadBytes = p.payloadBytes;
        copy.timeNs = p.timeNs;
        copy.vl = p.vl;
        copy.slid = p.slid;
        copy.dlid = p.dlid;
        return copy;
    }

    /**
     * Counts of a native IB capture of RC SEND Only (4), ACK (17) and UD SEND Only (100) packets, each
     * whole in its ERF record: all of them IB, none skipped, the ACKs the only AETHs, ICRC and VCRC good
     * on every packet, no IP ECN counted.
     */
    private static void assertInfinibandCounts(final CaptureStats s, final int sends, final int acks, final int ud) {
        final int all = sends + acks + ud;
        assertEquals(sends, s.opcodeCount(4));
        assertEquals(acks, s.opcodeCount(17));
        assertEquals(ud, s.opcodeCount(100));
        assertEquals(all, allOpcodes(s));
        assertEquals(all, s.packets());
        assertEquals(all, s.byEncapsulation(RocePacket.ENCAP_IB));
        assertEquals(0, s.skippedTotal());
        assertEquals(acks, s.aethAcks());
        assertEquals(all, s.icrcOk());
        assertEquals(0, s.icrcBad());
        assertEquals(all, s.vcrcOk());
        assertEquals(0, s.vcrcBad());
        assertEquals(0, s.ecnCount(0) + s.ecnCount(1) + s.ecnCount(2) + s.ecnCount(3));
    }

    @Test
    void softroceFixture() throws CaptureException, IOException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureStats s = decodeFixture("softroce.pcap", Fixtures.softroceWriteRead(), seen);
        // built as 100 x3, 10, 17, 12, 13, 14 x2, 15, 100 x2 = 12 packets, all RoCEv2 over IPv4
        assertSoftroceWriteReadOpcodes(s);
        assertEquals(12, s.packets());
        assertEquals(12, s.byEncapsulation(RocePacket.ENCAP_ROCE_V2));
        assertEquals(0, s.skippedTotal());
        // AETH 0x1F on the ACK, READ Response First and Last = 3
        assertEquals(3, s.aethSyndromeCount(0x1F));
        assertEquals(3, s.aethAcks());
        assertEquals(0, s.aethNaks() + s.aethRnrNaks());
        assertEquals(12, s.ecnCount(0));
        assertEquals(0, s.ceMarks());
        assertEquals(12, s.icrcOk());
        assertEquals(0, s.icrcBad() + s.icrcNotChecked() + s.ipChecksumBad());
        // payload: 5 x 256 (UD) + 18 (WRITE) + 4 x 1024 (READ responses) = 1280 + 18 + 4096 = 5394 bytes
        assertEquals(5_394, s.payloadBytes());
        // PSNs and times as written: WRITE at 1000 us with PSN 0xABCDEF, READ Response Last PSN 0xABCDEF + 4
        final RocePacket write = seen.get(3);
        assertEquals(IbOpcodes.RC_RDMA_WRITE_ONLY, write.opcode);
        assertEquals(Fixtures.SOFTROCE_PSN, write.psn);
        assertEquals(0x12, write.destQp);
        assertEquals(Fixtures.EPOCH_NS + 1_000_000, write.timeNs);
        assertEquals(Fixtures.SOFTROCE_PSN + 4, seen.get(9).psn);
        assertEquals(Fixtures.EPOCH_NS + 1_652_000, seen.get(9).timeNs);
        assertEquals(0x11, seen.get(4).destQp);         // the ACK goes to the requester's QP
    }

    @Test
    void softroceWithArpFixture() throws CaptureException, IOException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureStats s = decodeFixture("arp.pcap", Fixtures.softroceWriteReadWithArp(), seen);
        // 12 RoCEv2 + 4 ARP = 16 frames; the ARP frames are skipped as a non-RoCE EtherType
        assertSoftroceWriteReadOpcodes(s);
        assertEquals(16, s.packets());
        assertEquals(4, s.skipped(SkipReasons.NON_ROCE_ETHERTYPE));
        assertEquals(4, s.skippedTotal());
        assertEquals(3, s.aethSyndromeCount(0x1F));
        assertEquals(12, s.icrcOk());
        assertEquals(0, s.icrcBad());
        assertTrue(s.summary().contains("4 non-RoCE EtherType"), s.summary());
        // the microsecond file: WRITE at 100 + 1000 us after the first ARP frame
        assertEquals(Fixtures.EPOCH_NS + 1_100_000, seen.get(3).timeNs);
        assertEquals(Fixtures.ARP_PSN, seen.get(3).psn);
    }

    @Test
    void infinibandErfFixture() throws CaptureException, IOException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureStats s = decodeFixture("ib.pcap", Fixtures.infinibandErf(), seen);
        // built as 4 x4, 17 x3, 100 x3 = 10 native IB packets in ERF type 21 records
        // whole packets: ICRC (VL-masked LRH for LNH 2, ones + masked GRH for LNH 3) and VCRC on all 10
        assertInfinibandCounts(s, 4, 3, 3);
        // payload: 256 + 100 + 4 x 82 + 256 = 940 bytes (pads and ICRC not counted)
        assertEquals(940, s.payloadBytes());
        // #1: VL15, LID 0xffff both ways, at S + 1/8 s (the ERF time, 125,000,000 ns)
        assertEquals(15, seen.get(0).vl);
        assertEquals(0xFFFF, seen.get(0).slid);
        assertEquals(Fixtures.IB_SECOND * 1_000_000_000L + 125_000_000L, seen.get(0).timeNs);
        // #4: ACK at S + 1 s + 1/2 s + 1/1024 s = S + 1.500976562 s (976,562.5 ns truncated)
        assertEquals(Fixtures.IB_SECOND * 1_000_000_000L + 1_500_976_562L, seen.get(3).timeNs);
        assertEquals(0x87_0408, seen.get(3).destQp);
        assertEquals(13_896_277, seen.get(3).psn);
        // #10 follows an ERF extension header: still decoded, GSI QP 1
        assertEquals(1, seen.get(9).destQp);
        assertEquals(256, seen.get(9).payloadBytes);
    }

    @Test
    void infinibandPacketMatchesItsIndependentlyComputedBytes() {
        // IB ACK #4 computed with Python (zlib.crc32 for the ICRC over the LRH with VL ones and BTH
        // resv8a ones; a bitwise CRC-16 0x100B for the VCRC), both checked first against the real
        // InfiniBand capture's ACKs: LRH 00 02 0004 0007 0001 | BTH 11 00 ffff 00 870408 00 d40a55 |
        // AETH 1f 000001 | ICRC d5 78 ae 9a | VCRC e8 3a
        assertEquals("00020004000700011100ffff0087040800d40a551f000001d578ae9ae83a",
            HexFormat.of().formatHex(Fixtures.ibPacket(3)));
    }

    @Test
    void cnpFixture() throws CaptureException, IOException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureStats s = decodeFixture("cnp.pcapng", Fixtures.cnpPcapng(), seen);
        // one CNP: BECN, DSCP 48, ECT(0), UDP source port 0, to QP 0x2A5; the file is pcapng
        assertEquals(1, s.opcodeCount(129));
        assertEquals(1, allOpcodes(s));
        assertEquals(1, s.packets());
        assertEquals(1, s.becnMarks());
        assertEquals(1, s.ecnCount(2));
        final RocePacket cnp = seen.get(0);
        assertEquals(IbOpcodes.CNP, cnp.opcode);
        assertTrue(cnp.becn);
        assertEquals(48, cnp.dscp);
        assertEquals(2, cnp.ecn);
        assertEquals(0, cnp.udpSrcPort);
        assertEquals(16, cnp.payloadBytes);             // the 16 reserved bytes
        assertEquals(Fixtures.CNP_QP, cnp.destQp);
        assertEquals(1, s.icrcOk());
        assertEquals(Fixtures.EPOCH_NS, cnp.timeNs);
    }

    /**
     * The 12 RoCEv2 packets of the soft-RoCE WRITE + READ exchange, by BTH opcode (README:
     * "100 x5, 10, 17, 12, 13, 14 x2, 15" = 5 + 1 + 1 + 1 + 1 + 2 + 1 = 12), and no other opcode.
     */
    private static void assertSoftroceWriteReadOpcodes(final CaptureStats s) {
        assertEquals(5, s.opcodeCount(100));
        assertEquals(1, s.opcodeCount(10));
        assertEquals(1, s.opcodeCount(17));
        assertEquals(1, s.opcodeCount(12));
        assertEquals(1, s.opcodeCount(13));
        assertEquals(2, s.opcodeCount(14));
        assertEquals(1, s.opcodeCount(15));
        assertEquals(12, allOpcodes(s));
    }

    /** Sum of the counts of every opcode, to prove no opcode beyond the listed ones was seen. */
    private static long allOpcodes(final CaptureStats s) {
        long n = 0;
        for (int op = 0; op < 256; op++) {
            n += s.opcodeCount(op);
        }
        return n;
    }

    // ---------------------------------------------------------------- the real captures (../shared)

    @Test
    void softroceWriteRead() throws CaptureException {
        final List<String> seen = new ArrayList<>();
        final CaptureStats s = decode("softroce-write-read.pcap", seen);
        // README: "100 x5, 10, 17, 12, 13, 14 x2, 15" = 5 + 1 + 1 + 1 + 1 + 2 + 1 = 12 packets, all RoCEv2
        assertSoftroceWriteReadOpcodes(s);
        assertEquals(12, s.packets());
        assertEquals(12, s.byEncapsulation(RocePacket.ENCAP_ROCE_V2));
        assertEquals(0, s.skippedTotal());
        assertEquals(12, seen.size());
        // README: "AETH syndrome 0x1F": the AETHs are on ACK (17), READ Response First (13) and Last (15) = 3
        assertEquals(3, s.aethSyndromeCount(0x1F));
        assertEquals(3, s.aethAcks());
        assertEquals(0, s.aethNaks() + s.aethRnrNaks());
        // README: "all Not-ECT"
        assertEquals(12, s.ecnCount(0));
        assertEquals(0, s.ceMarks());
        // rxe computes the ICRC on every packet; none is cut (snap length 262144)
        assertEquals(12, s.icrcOk());
        assertEquals(0, s.icrcBad());
        assertEquals(0, s.icrcNotChecked());
        assertEquals(0, s.ipChecksumBad());
    }

    @Test
    void softroceWriteReadWithArp() throws CaptureException {
        final List<String> seen = new ArrayList<>();
        final CaptureStats s = decode("softroce-write-read-with-arp.pcap", seen);
        // README: "as above + ARP" with "4 ARP frames mixed in": 12 RoCEv2 + 4 ARP = 16 frames
        assertSoftroceWriteReadOpcodes(s);
        assertEquals(16, s.packets());
        assertEquals(4, s.skipped(SkipReasons.NON_ROCE_ETHERTYPE));
        assertEquals(4, s.skippedTotal());
        assertEquals(3, s.aethSyndromeCount(0x1F));
        assertEquals(12, s.ecnCount(0));
        assertEquals(12, s.icrcOk());
        assertEquals(0, s.icrcBad());
        assertTrue(s.summary().contains("4 non-RoCE EtherType"), s.summary());
    }

    @Test
    void infinibandErf() throws CaptureException {
        final List<String> seen = new ArrayList<>();
        final CaptureStats s = decode("infiniband-erf.pcap", seen);
        // README: "4 x10, 17 x9, 100 x24" = 43 native IB packets in ERF type 21 records
        // the 9 ACKs are the only AETHs; each record holds the whole packet (wlen = captured - 16): ICRC
        // and VCRC checked on all 43
        assertInfinibandCounts(s, 10, 9, 24);
    }

    @Test
    void cnpConnectX4Lx() throws CaptureException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureDecoder decoder = new CaptureDecoder();
        final CaptureStats s = decoder.decode(TestPaths.sharedCapture("cnp-connectx4lx.pcap"), p -> {
            final RocePacket copy = new RocePacket();
            copy.opcode = p.opcode;
            copy.becn = p.becn;
            copy.dscp = p.dscp;
            copy.ecn = p.ecn;
            copy.udpSrcPort = p.udpSrcPort;
            copy.destQp = p.destQp;
            copy.payloadBytes = p.payloadBytes;
            seen.add(copy);
        });
        // README: "129 x1": one CNP, "BECN bit set, DSCP 48, ECT(0), UDP source port 0"; the file is pcapng
        assertEquals(1, s.opcodeCount(129));
        assertEquals(1, allOpcodes(s));
        assertEquals(1, s.packets());
        assertEquals(1, s.becnMarks());
        assertEquals(1, s.ecnCount(2));
        final RocePacket cnp = seen.get(0);
        assertEquals(IbOpcodes.CNP, cnp.opcode);
        assertTrue(cnp.becn);
        assertEquals(48, cnp.dscp);
        assertEquals(2, cnp.ecn);
        assertEquals(0, cnp.udpSrcPort);
        // README: "CNPs carry no payload beyond a 16-byte reserved field and the ICRC"
        assertEquals(16, cnp.payloadBytes);
        assertEquals(0x118, cnp.destQp);
        assertEquals(1, s.icrcOk());
    }
}
