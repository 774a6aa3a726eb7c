package dev.nicsim.traces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PcapWriter}: frames written are read back by our reader with every ICRC and IPv4 checksum
 * valid and every field equal; a frame specified by hand, with its IPv4 checksum and ICRC computed
 * independently, comes out byte for byte; and real frames (an rxe ACK and READ request, a ConnectX-4
 * Lx CNP, from the captures beside the repository, skipped when absent), decoded and written again
 * from their fields, come out byte for byte as captured.
 */
class PcapWriterTest {
    @TempDir
    Path dir;

    /** Copies every field the writer uses. */
    private static RocePacket copy(final RocePacket p) {
        final RocePacket c = new RocePacket();
        c.dstMac = p.dstMac;
        c.srcMac = p.srcMac;
        c.vlanId = p.vlanId;
        c.pcp = p.pcp;
        c.ipVersion = p.ipVersion;
        c.srcAddrHi = p.srcAddrHi;
        c.srcAddrLo = p.srcAddrLo;
        c.dstAddrHi = p.dstAddrHi;
        c.dstAddrLo = p.dstAddrLo;
        c.dscp = p.dscp;
        c.ecn = p.ecn;
        c.ttl = p.ttl;
        c.ipId = p.ipId;
        c.ipChecksumOk = p.ipChecksumOk;
        c.udpSrcPort = p.udpSrcPort;
        c.opcode = p.opcode;
        c.solicitedEvent = p.solicitedEvent;
        c.migReq = p.migReq;
        c.padCount = p.padCount;
        c.tver = p.tver;
        c.pkey = p.pkey;
        c.fecn = p.fecn;
        c.becn = p.becn;
        c.destQp = p.destQp;
        c.ackReq = p.ackReq;
        c.psn = p.psn;
        c.hasReth = p.hasReth;
        c.rethVa = p.rethVa;
        c.rethRkey = p.rethRkey;
        c.rethDmaLength = p.rethDmaLength;
        c.hasAeth = p.hasAeth;
        c.aethSyndrome = p.aethSyndrome;
        c.aethClass = p.aethClass;
        c.aethValue = p.aethValue;
        c.aethMsn = p.aethMsn;
        c.hasDeth = p.hasDeth;
        c.dethQkey = p.dethQkey;
        c.dethSrcQp = p.dethSrcQp;
        c.hasImm = p.hasImm;
        c.immData = p.immData;
        c.payloadBytes = p.payloadBytes;
        c.icrcStatus = p.icrcStatus;
        c.wireBytes = p.wireBytes;
        c.kind = p.kind;
        c.timeNs = p.timeNs;
        c.pauseOpcode = p.pauseOpcode;
        c.pfcClassEnable = p.pfcClassEnable;
        System.arraycopy(p.pauseQuanta, 0, c.pauseQuanta, 0, 8);
        return c;
    }

    private static List<RocePacket> readBack(final byte[] pcap) throws CaptureException {
        final List<RocePacket> out = new ArrayList<>();
        new CaptureDecoder(true).decode("written", pcap, p -> out.add(copy(p)));
        return out;
    }

    private static RocePacket base(final int opcode, final int psn) {
        final RocePacket p = new RocePacket();
        p.dstMac = 0x0202_0000_0002L;
        p.srcMac = 0x0202_0000_0001L;
        p.srcIpv4(0x0A00_0001);  // 10.0.0.1
        p.dstIpv4(0x0A00_0002);  // 10.0.0.2
        p.dscp = 26;
        p.ecn = 2;
        p.udpSrcPort = 49_152 + psn % 1000;
        p.opcode = opcode;
        p.pkey = 0xFFFF;
        p.destQp = 0x00_0123;
        p.psn = psn;
        return p;
    }

    @Test
    void framesRoundTripWithValidIcrcAndEqualFields() throws CaptureException {
        final List<RocePacket> written = new ArrayList<>();
        RocePacket p = base(0x06, 100);               // RDMA WRITE First, RETH, 1024 bytes, VLAN 100 PCP 3
        p.vlanId = 100;
        p.pcp = 3;
        p.rethVa = 0x0000_7F00_1234_5000L;
        p.rethRkey = 0x1234_5678;
        p.rethDmaLength = 3049;
        p.payloadBytes = 1024;
        written.add(p);
        p = base(0x07, 101);                           // WRITE Middle, CE marked
        p.ecn = 3;
        p.payloadBytes = 1024;
        written.add(p);
        p = base(0x08, 102);                           // WRITE Last, 1001 bytes -> pad 3, AckReq
        p.payloadBytes = 1001;
        p.ackReq = true;
        written.add(p);
        p = base(0x0C, 103);                           // READ Request, RETH length 4096, no payload
        p.rethVa = 0x1000;
        p.rethRkey = 7;
        p.rethDmaLength = 4096;
        p.ackReq = true;
        written.add(p);
        p = base(0x0D, 103);                           // READ Response First, AETH ACK credit 31, MSN 5
        p.aethSyndrome = 0x1F;
        p.aethMsn = 5;
        p.payloadBytes = 1024;
        written.add(p);
        p = base(0x11, 102);                           // ACK
        p.aethSyndrome = 0x1F;
        p.aethMsn = 4;
        written.add(p);
        p = base(0x11, 104);                           // NAK, PSN sequence error (syndrome 0x60)
        p.aethSyndrome = 0x60;
        written.add(p);
        p = base(0x11, 104);                           // RNR NAK, timer 14 (syndrome 0x2E)
        p.aethSyndrome = 0x2E;
        written.add(p);
        p = base(IbOpcodes.CNP, 0);                    // CNP: BECN, DSCP 48, ECT(0), source port 0
        p.becn = true;
        p.dscp = 48;
        p.udpSrcPort = 0;
        p.destQp = 0x118;
        written.add(p);
        p = base(0x05, 105);                           // SEND Only with Immediate, 7 bytes -> pad 1
        p.immData = 0xCAFE_BABE;
        p.payloadBytes = 7;
        p.solicitedEvent = true;
        written.add(p);
        p = base(IbOpcodes.UD_SEND_ONLY, 9);           // UD SEND Only to QP1, DETH Q_Key 0x80010000, source QP 1
        p.destQp = 1;
        p.dethQkey = 0x8001_0000;
        p.dethSrcQp = 1;
        p.payloadBytes = 256;
        written.add(p);

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int[] pfc1 = {0, 0, 0, 0xFFFF, 0, 0, 0, 0};
        final int[] pfc2 = {1, 2, 3, 4, 500, 600, 7000, 65535};
        try (PcapWriter w = new PcapWriter(bytes, 1_700_000_000_000_000_000L)) {
            long t = 0;
            for (final RocePacket f : written) {
                w.writeRoceV2(f, t);
                t += 1_234_567;                        // ps
            }
            w.writePfc(t, 0x0202_0000_0003L, 0x08, pfc1);
            w.writePfc(t + 1_000, 0x0202_0000_0003L, 0xFF, pfc2);
        }
        final List<RocePacket> read = readBack(bytes.toByteArray());
        assertEquals(13, read.size());
        for (int i = 0; i < written.size(); i++) {
            final RocePacket w = written.get(i);
            final RocePacket r = read.get(i);
            final String at = "frame " + (i + 1) + " " + r;
            assertEquals(RocePacket.CRC_OK, r.icrcStatus, at);
            assertTrue(r.ipChecksumOk, at);
            assertEquals(w.opcode, r.opcode, at);
            assertEquals(w.psn, r.psn, at);
            assertEquals(w.destQp, r.destQp, at);
            assertEquals(w.ackReq, r.ackReq, at);
            assertEquals(w.becn, r.becn, at);
            assertEquals(w.solicitedEvent, r.solicitedEvent, at);
            assertEquals(w.pkey, r.pkey, at);
            assertEquals(w.dscp, r.dscp, at);
            assertEquals(w.ecn, r.ecn, at);
            assertEquals(w.vlanId, r.vlanId, at);
            assertEquals(w.pcp, r.pcp, at);
            assertEquals(w.udpSrcPort, r.udpSrcPort, at);
            assertEquals(w.srcAddrLo, r.srcAddrLo, at);
            assertEquals(w.dstAddrLo, r.dstAddrLo, at);
            assertEquals(w.srcMac, r.srcMac, at);
            assertEquals(w.dstMac, r.dstMac, at);
            assertEquals(w.opcode == IbOpcodes.CNP ? 16 : w.payloadBytes, r.payloadBytes, at);
            if (r.hasReth) {
                assertEquals(w.rethVa, r.rethVa, at);
                assertEquals(w.rethRkey, r.rethRkey, at);
                assertEquals(w.rethDmaLength, r.rethDmaLength, at);
            }
            if (r.hasAeth) {
                assertEquals(w.aethSyndrome, r.aethSyndrome, at);
                assertEquals(w.aethMsn, r.aethMsn, at);
            }
        }
        // hand-derived encodings
        assertTrue(read.get(0).hasReth);
        assertEquals(1_700_000_000_000_000_000L, read.get(0).timeNs); // t = 0 at the base epoch
        assertEquals(1_700_000_000_000_001_234L, read.get(1).timeNs); // 1 234 567 ps -> 1234 ns
        assertEquals(3, read.get(2).padCount);                         // 1001 + 3 = 1004, a multiple of 4
        // WRITE Last: 14 Ethernet + 20 IPv4 + 8 UDP + 12 BTH + 1001 + 3 pad + 4 ICRC = 1062 bytes
        assertEquals(1062, read.get(2).wireBytes);
        // WRITE First with a VLAN tag: 14 + 4 + 20 + 8 + 12 + 16 RETH + 1024 + 4 = 1102
        assertEquals(1102, read.get(0).wireBytes);
        assertEquals(RocePacket.AETH_NAK, read.get(6).aethClass);
        assertEquals(RocePacket.NAK_PSN_SEQUENCE_ERROR, read.get(6).aethValue);
        assertEquals(RocePacket.AETH_RNR_NAK, read.get(7).aethClass);
        assertEquals(14, read.get(7).aethValue);
        // CNP: 14 + 20 + 8 + 12 + 16 reserved + 4 ICRC = 74 bytes, as the ConnectX-4 Lx capture's
        assertEquals(74, read.get(8).wireBytes);
        assertTrue(read.get(9).hasImm);
        assertEquals(1, read.get(9).padCount);
        assertTrue(read.get(10).hasDeth);
        // PFC: 14 + 2 opcode + 2 enable + 16 quanta = 34, padded to the 60-byte minimum
        final RocePacket pause = read.get(11);
        assertEquals(RocePacket.KIND_PAUSE, pause.kind);
        assertEquals(RoceDecoder.MAC_CONTROL_PFC, pause.pauseOpcode);
        assertEquals(0x08, pause.pfcClassEnable);
        assertArrayEquals(pfc1, pause.pauseQuanta);
        assertEquals(PcapWriter.PFC_DESTINATION_MAC, pause.dstMac);
        assertEquals(60, pause.wireBytes);
        assertArrayEquals(pfc2, read.get(12).pauseQuanta);
        assertEquals(0xFF, read.get(12).pfcClassEnable);
    }

    /** The captured frame bytes of a packet number in a shared classic pcap. */
    private static byte[] frame(final String file, final int packetNumber) {
        return RawCapture.parse(TestPaths.sharedCaptureBytes(file)).records.get(packetNumber - 1).data();
    }

    /**
     * An ACK written by hand: 02:00:00:00:00:02 -> :01, IPv4 TOS 0x6A (DSCP 26, ECT(0)), total length
     * 48, id 0x1234, DF, TTL 64, UDP, checksum 0x141d, 10.0.0.2 -> 10.0.0.1, UDP 0xC000 -> 4791 length
     * 28 checksum 0, BTH ACK (17) P_Key 0xFFFF to QP 0x123 PSN 100, AETH 0x1F MSN 4, ICRC 0x97f78f2e
     * stored least significant byte first. Checksum and ICRC computed with Python (RFC 1071 sum;
     * {@code zlib.crc32} over 8 bytes of ones, the IPv4/UDP/BTH headers with TOS, TTL, IPv4 and UDP
     * checksums and BTH resv8a set to ones, and the AETH). 62 bytes.
     */
    private static final String HAND_ACK = "0200000000010200000000020800456a0030123440004011141d0a0000020a000001"
        + "c00012b7001c00001100ffff00000123000000641f0000042e8ff797";

    @Test
    void aHandSpecifiedFrameIsWrittenByteForByte() throws CaptureException {
        final RocePacket p = new RocePacket();
        p.dstMac = 0x0200_0000_0001L;
        p.srcMac = 0x0200_0000_0002L;
        p.srcIpv4(0x0A00_0002).dstIpv4(0x0A00_0001);
        p.dscp = 26;
        p.ecn = 2;
        p.ipId = 0x1234;
        p.udpSrcPort = 0xC000;
        p.opcode = IbOpcodes.RC_ACKNOWLEDGE;
        p.pkey = 0xFFFF;
        p.destQp = 0x123;
        p.psn = 100;
        p.aethSyndrome = 0x1F;
        p.aethMsn = 4;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, 0)) {
            w.writeRoceV2(p, 5_000_000);               // 5 us
        }
        final RawCapture out = RawCapture.parse(bytes.toByteArray());
        assertEquals(HAND_ACK, java.util.HexFormat.of().formatHex(out.records.get(0).data()));
        assertEquals(5_000, out.records.get(0).timeNs());
        // and the frame written by hand, decoded and re-written, is the same again
        final List<RocePacket> read = readBack(bytes.toByteArray());
        assertEquals(RocePacket.CRC_OK, read.get(0).icrcStatus);
        final ByteArrayOutputStream again = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(again, 0)) {
            w.writeRoceV2(read.get(0), 5_000_000);
        }
        assertArrayEquals(bytes.toByteArray(), again.toByteArray());
    }

    @Test
    void aTrimmedHeaderFrameIsItsHeadersPaddedToTheTrimmedSize() throws CaptureException {
        // WRITE MIDDLE with its payload cut: Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 62
        // bytes, more than the 60 of a 64-byte frame without FCS, so 60 changes nothing; at a 128-byte trim
        // (124 without FCS) the frame is padded with 62 zeros after the ICRC and still decodes, ICRC valid
        final RocePacket p = base(0x07, 7);
        p.pcp = 3;
        p.payloadBytes = 0;
        final ByteArrayOutputStream plain = new ByteArrayOutputStream();
        final ByteArrayOutputStream padded = new ByteArrayOutputStream();
        try (PcapWriter a = new PcapWriter(plain, 0); PcapWriter b = new PcapWriter(padded, 0)) {
            a.writeRoceV2(p, 0, 60);
            b.writeRoceV2(p, 0, 124);
        }
        final byte[] header = RawCapture.parse(plain.toByteArray()).records.get(0).data();
        final byte[] frame = RawCapture.parse(padded.toByteArray()).records.get(0).data();
        assertEquals(62, header.length);
        assertEquals(124, frame.length);
        assertArrayEquals(header, Arrays.copyOf(frame, 62));
        assertArrayEquals(new byte[62], Arrays.copyOfRange(frame, 62, 124));
        final List<RocePacket> read = readBack(padded.toByteArray());
        assertEquals(RocePacket.CRC_OK, read.get(0).icrcStatus);
        assertEquals(0, read.get(0).payloadBytes);
        assertEquals(7, read.get(0).psn);
    }

    @Test
    void realFramesAreReproducedByteForByte() throws CaptureException {
        // rxe ACK (#5, 62 bytes) and READ Request (#6, 74 bytes) carry no payload, so re-encoding their
        // decoded fields must give the captured bytes, ICRC and IPv4 checksum included
        final List<RocePacket> soft = new ArrayList<>();
        new CaptureDecoder().decode(TestPaths.sharedCapture("softroce-write-read.pcap"), p -> soft.add(copy(p)));
        final List<RocePacket> cnp = new ArrayList<>();
        new CaptureDecoder().decode(TestPaths.sharedCapture("cnp-connectx4lx.pcap"), p -> cnp.add(copy(p)));
        final byte[] cnpFrame = Arrays.copyOfRange(TestPaths.sharedCaptureBytes("cnp-connectx4lx.pcap"), 308, 308 + 74);

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, 0)) {
            w.writeRoceV2(soft.get(4), 0);
            w.writeRoceV2(soft.get(5), 1_000);
            w.writeRoceV2(cnp.get(0), 2_000);
        }
        final RawCapture out = RawCapture.parse(bytes.toByteArray());
        assertArrayEquals(frame("softroce-write-read.pcap", 5), out.records.get(0).data());
        assertArrayEquals(frame("softroce-write-read.pcap", 6), out.records.get(1).data());
        assertArrayEquals(cnpFrame, out.records.get(2).data());
    }

    @Test
    void fileOnDiskReadsBack(@TempDir final Path tmp) throws CaptureException {
        final Path f = tmp.resolve("sim.pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            final RocePacket p = base(0x0A, 7);
            p.payloadBytes = 4096;
            p.rethDmaLength = 4096;
            for (int i = 0; i < 100; i++) {
                p.psn = i;
                w.writeRoceV2(p, i * 330_000L);
            }
        }
        final CaptureStats s = new CaptureDecoder().decode(f, q -> { });
        assertEquals(100, s.opcodeCount(0x0A));
        assertEquals(100, s.icrcOk());
        assertEquals(100 * 4096L, s.payloadBytes());
    }

    @Test
    void badFieldValuesAreRejectedNamingTheField() {
        final PcapWriter w = new PcapWriter(new ByteArrayOutputStream(), 0);
        final RocePacket p = base(0x0A, 1);
        p.dscp = 64;
        assertEquals("dscp: expected 0..63, got 64",
            assertThrows(IllegalArgumentException.class, () -> w.writeRoceV2(p, 0)).getMessage());
        final RocePacket q = base(0x15, 1);            // reserved RC opcode 21
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.writeRoceV2(q, 0)).getMessage().startsWith("opcode"));
        final RocePacket r = base(0x0A, 1);
        r.payloadBytes = PcapWriter.MAX_PAYLOAD_BYTES + 1;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.writeRoceV2(r, 0)).getMessage().startsWith("payloadBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.writeRoceV2(base(0x0A, 1), -1)).getMessage().startsWith("timePs"));
        assertEquals("quanta[2]: expected 0..65535, got 70000", assertThrows(IllegalArgumentException.class,
            () -> w.writePfc(0, 1, 0xFF, new int[]{0, 0, 70_000, 0, 0, 0, 0, 0})).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.writePfc(0, 1, 256, new int[8])).getMessage()
            .startsWith("priorityEnable"));
    }
}
