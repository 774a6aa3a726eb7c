package dev.nicsim.traces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Each class of bad input gives a {@link CaptureException} whose one-line message names the file,
 * the packet and what was read and skipped before; the bad files are the project's fixtures
 * ({@link Fixtures}), truncated or mutated in a temporary directory.
 *
 * <p>Layout of the Soft-RoCE-like exchange used below, as a little-endian microsecond pcap (the
 * framing of the real rxe capture, with the same record lengths): 24-byte header,
 * then 12 records of 16-byte header + data; data lengths 322, 322, 322, 94, 62, 74, 1086, 1082, 1082,
 * 1086, 322, 322 (6392 bytes in all). In a record's data: Ethernet 0..13, IPv4 14..33, UDP 34..41,
 * BTH 42..53, then RETH / AETH.
 */
class BadInputTest {
    private static final RawCapture RAW = Fixtures.softroceRaw();
    private static final byte[] SOFTROCE = le(RAW);

    @TempDir
    Path dir;

    private Path write(final String name, final byte[] data) throws IOException {
        final Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }

    private static CaptureException fails(final Path file, final boolean strict) {
        final CaptureException e = assertThrows(CaptureException.class,
            () -> new CaptureDecoder(strict).decode(file, p -> { }));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e;
    }

    /** A copy of record {@code index} with data byte {@code at} set to {@code value}. */
    private static RawCapture poke(final int index, final int at, final int value) {
        final RawCapture.Rec r = RAW.records.get(index);
        final byte[] data = r.data().clone();
        data[at] = (byte) value;
        return RAW.with(index, new RawCapture.Rec(r.sec(), r.nsec(), data, r.origLen()));
    }

    private static byte[] le(final RawCapture c) {
        return c.toPcap(ByteOrder.LITTLE_ENDIAN, false);
    }

    @Test
    void truncatedInsideTheLastPacket() throws IOException {
        final byte[] all = SOFTROCE.clone();
        assertEquals(6392, all.length);
        // cut 100 bytes: the 12th record's data starts at 6392 - 322 = 6070, so 6292 - 6070 = 222 remain
        final Path f = write("cut.pcap", Arrays.copyOf(all, all.length - 100));
        final CaptureException e = fails(f, true);
        assertEquals(f + ": packet 12: truncated file: packet record needs 322 bytes, 222 left; "
            + "11 packets read: 11 RoCE/IB, 0 skipped", e.getMessage());
    }

    @Test
    void truncatedInsideARecordHeader() throws IOException {
        // header 24 + record 1 (16 + 322) + 8 bytes of record 2's header
        final Path f = write("cut-header.pcap", Arrays.copyOf(SOFTROCE.clone(), 24 + 16 + 322 + 8));
        assertEquals(f + ": packet 2: truncated file: packet record header needs 16 bytes, 8 left; "
            + "1 packet read: 1 RoCE/IB, 0 skipped", fails(f, true).getMessage());
        // lenient mode keeps the packet before the cut: HostileCaptureTest (issue 23)
    }

    @Test
    void truncatedInsideTheFileHeader() throws IOException {
        final Path f = write("stub.pcap", Arrays.copyOf(SOFTROCE.clone(), 10));
        assertEquals(f + ": truncated file: pcap header needs 24 bytes, the file has 10", fails(f, true).getMessage());
        final Path empty = write("empty.pcap", new byte[0]);
        assertEquals(empty + ": empty file (not a pcap or pcapng capture)", fails(empty, true).getMessage());
        final Path missing = dir.resolve("missing.pcap");
        assertEquals(missing + ": no such file", fails(missing, true).getMessage());
    }

    @Test
    void wrongMagic() throws IOException {
        final byte[] b = SOFTROCE.clone();
        b[0] = 0;
        final Path f = write("magic.pcap", b);
        assertEquals(f + ": wrong magic 00 c3 b2 a1: not a pcap (a1 b2 c3 d4 / a1 b2 3c 4d) or pcapng (0a 0d 0d 0a) file",
            fails(f, true).getMessage());
    }

    @Test
    void unsupportedLinkType() throws IOException {
        final Path f = write("sll.pcap", le(RAW.withLinkType(113)));
        assertEquals(f + ": link type 113 (Linux cooked) is not supported (nicsim decodes 1 (Ethernet) and 197 (ERF))",
            fails(f, true).getMessage());
        // pcapng: the CNP fixture's IDB starts at byte 28 (after the 28-byte SHB); its link type at 28 + 8
        final byte[] ng = Fixtures.cnpPcapng();
        assertEquals(1, ng[36]);
        ng[36] = (byte) 147;
        final Path g = write("user0.pcapng", ng);
        assertEquals(g + ": packet 1: interface 0 has link type 147, which nicsim does not decode (it decodes "
            + "1 (Ethernet) and 197 (ERF)); --lenient skips and counts such packets; 0 packets read: 0 RoCE/IB, 0 skipped",
            fails(g, true).getMessage());
        assertEquals(g + ": no packet on a supported link type: link type 147 is not supported (nicsim decodes "
            + "1 (Ethernet) and 197 (ERF)); 1 packet read: 0 RoCE/IB, 1 skipped (1 unsupported link type)",
            fails(g, false).getMessage());
    }

    @Test
    void packetCutBySnapLengthInItsHeaders() throws IOException, CaptureException {
        // packet 4 (RDMA WRITE Only, 94 bytes) captured to 40 bytes: Ethernet 14 + IPv4 20 + 6 of 8 UDP bytes
        final RawCapture.Rec w = RAW.records.get(3);
        final RawCapture cut = RAW.with(3, new RawCapture.Rec(w.sec(), w.nsec(), Arrays.copyOf(w.data(), 40), 94));
        final Path f = write("snap40.pcap", le(cut));
        assertEquals(f + ": packet 4: IPv4 options or UDP header cut by the snap length (40 of 94 bytes captured); "
            + "3 packets read: 3 RoCE/IB, 0 skipped", fails(f, true).getMessage());
        // lenient: skipped and counted, the other 11 decode
        final CaptureStats s = new CaptureDecoder(false).decode(f, p -> { });
        assertEquals(1, s.skipped(SkipReasons.CUT_BY_SNAPLEN));
        assertEquals(11, s.transportPackets());
        assertEquals(0, s.opcodeCount(10));
    }

    @Test
    void packetCutOnlyInItsPayloadStillDecodes() throws IOException, CaptureException {
        // packet 4 captured to 70 bytes = Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + RETH 16: headers
        // complete, payload and ICRC cut: decoded, payload from the UDP length (60 - 8 - 12 - 16 - 2 pad
        // - 4 ICRC = 18), ICRC not checked
        final RawCapture.Rec w = RAW.records.get(3);
        final RawCapture cut = RAW.with(3, new RawCapture.Rec(w.sec(), w.nsec(), Arrays.copyOf(w.data(), 70), 94));
        final int[] payload = {-1};
        final CaptureStats s = new CaptureDecoder(true).decode(write("snap70.pcap", le(cut)), p -> {
            if (p.opcode == IbOpcodes.RC_RDMA_WRITE_ONLY) {
                payload[0] = p.payloadBytes;
            }
        });
        assertEquals(12, s.transportPackets());
        assertEquals(1, s.icrcNotChecked());
        assertEquals(11, s.icrcOk());
        assertEquals(18, payload[0]);
    }

    @Test
    void garbageInAField() throws IOException, CaptureException {
        // IPv4 version nibble of packet 4 set to 5
        final Path v = write("ipv5.pcap", le(poke(3, 14, 0x55)));
        assertEquals(v + ": packet 4: garbage in a field: IPv4 version field is 5; 3 packets read: 3 RoCE/IB, 0 skipped",
            fails(v, true).getMessage());
        final CaptureStats lenient = new CaptureDecoder(false).decode(v, p -> { });
        assertEquals(1, lenient.skipped(SkipReasons.MALFORMED));
        assertEquals(11, lenient.transportPackets());
        // UDP length of packet 5 (ACK, IPv4 total 48 -> UDP payload room 28) set to 0x01FF = 511
        final Path u = write("udplen.pcap", le(udpLength511()));
        assertEquals(u + ": packet 5: garbage in a field: UDP length 511 exceeds the IPv4 payload of 28 bytes; "
            + "4 packets read: 4 RoCE/IB, 0 skipped", fails(u, true).getMessage());
        // AETH syndrome of packet 5 (byte 54) set to 0x9F: bit 7 is reserved
        final Path a = write("aeth.pcap", le(poke(4, 54, 0x9F)));
        assertEquals(a + ": packet 5: garbage in a field: AETH syndrome 0x9f is reserved; 4 packets read: 4 RoCE/IB, 0 skipped",
            fails(a, true).getMessage());
    }

    private static RawCapture udpLength511() {
        final RawCapture.Rec r = RAW.records.get(4);
        final byte[] data = r.data().clone();
        data[38] = 0x01;
        data[39] = (byte) 0xFF;
        return RAW.with(4, new RawCapture.Rec(r.sec(), r.nsec(), data, r.origLen()));
    }

    @Test
    void corruptRecordLengths() throws IOException {
        // packet 2's captured length (record header bytes 8..11, at file offset 24 + 16 + 322 + 8) = 0x7FFFFFFF
        final byte[] b = SOFTROCE.clone();
        final int at = 24 + 16 + 322 + 8;
        b[at] = (byte) 0xFF;
        b[at + 1] = (byte) 0xFF;
        b[at + 2] = (byte) 0xFF;
        b[at + 3] = 0x7F;
        final Path f = write("caplen.pcap", b);
        assertEquals(f + ": packet 2: garbage in the record header: captured length 2147483647 exceeds the "
            + "262144-byte limit; 1 packet read: 1 RoCE/IB, 0 skipped", fails(f, true).getMessage());
        // original length (bytes 12..15 of packet 1's header) below the captured 322: strict only
        final byte[] c = SOFTROCE.clone();
        c[24 + 12] = 100;
        c[24 + 13] = 0;
        final Path g = write("origlen.pcap", c);
        assertEquals(g + ": packet 1: garbage in the record header: original length 100 is less than the captured "
            + "length 322; 0 packets read: 0 RoCE/IB, 0 skipped", fails(g, true).getMessage());
    }

    @Test
    void corruptPcapngBlocks() throws IOException {
        final byte[] ng = Fixtures.cnpPcapng();
        // the EPB starts at 28 + 24 + 16 + 20 = 88 (SHB, IDB, name resolution and custom blocks);
        // its trailing length is the file's last 4 bytes
        final byte[] trailing = ng.clone();
        trailing[ng.length - 4] = 0x70;
        final Path f = write("trailing.pcapng", trailing);
        assertEquals(f + ": packet 1: garbage in the block at offset 88: trailing total length 112 differs from "
            + "the leading 108; 0 packets read: 0 RoCE/IB, 0 skipped", fails(f, true).getMessage());
        final byte[] odd = ng.clone();
        odd[92] = 107;
        final Path g = write("odd.pcapng", odd);
        assertEquals(g + ": packet 1: garbage in the block at offset 88: total length 107 is not a multiple of 4; "
            + "0 packets read: 0 RoCE/IB, 0 skipped", fails(g, true).getMessage());
        final Path h = write("cut.pcapng", Arrays.copyOf(ng, ng.length - 20));
        assertEquals(h + ": packet 1: truncated file: block of type enhanced packet at offset 88 needs 108 bytes, "
            + "88 left; 0 packets read: 0 RoCE/IB, 0 skipped", fails(h, true).getMessage());
    }
    // a bad ICRC and bad timestamps: HostileCaptureTest (issue 23)
}
