package dev.nicsim.traces;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link PcapWriter#writeIfa2Probe}: an IFA2 probe with two records as DOCA PCC fact sheet Addendum B.2 lays it
 * out, every offset counted by hand: pcap header 24 + record header 16, then Ethernet 12 + 802.1Q 4 + EtherType 2
 * (IPv4 at 18), IPv4 20 (IFA header at 38), UDP 8 at 42, metadata header at 50, records at 54 and 86, MAD header
 * at 118, send timestamp at 142: frame 146 bytes.
 */
class PcapIfa2ProbeTest {
    @Test
    void headersAndRecordsNewestFirst() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final long[] records = new long[8];
        records[0] = 0x1111_1111_1111_1111L; // the first switch's record (inserted first)
        records[4] = 0x2222_2222_2222_2222L; // the second switch's record: newest, written first
        records[7] = 0x0000_0000_0000_00AAL; // its last eight bytes
        try (PcapWriter w = new PcapWriter(bytes, 0)) {
            w.writeIfa2Probe(5_000, 0x0200_0000_0000L, 0x0200_8000_0001L, 3, 0x0A00_0002, 0x0A00_0001, 26, 2, 0xC001,
                0xF, 0xFC, records, 2, 5, 0x1234_5678);
        }
        final byte[] b = bytes.toByteArray();
        final int f = 24 + 16;
        assertEquals(f + 146, b.length);
        assertEquals(146, b[24 + 8] & 0xFF); // captured length (little-endian low byte)
        final int ip = f + 18;
        assertEquals(0x45, b[ip] & 0xFF);
        assertEquals(26 << 2 | 2, b[ip + 1] & 0xFF);
        assertEquals(146 - 18, (b[ip + 2] & 0xFF) << 8 | (b[ip + 3] & 0xFF)); // total length 128
        assertEquals(62, b[ip + 8] & 0xFF);   // TTL 64 - 2 hops
        assertEquals(253, b[ip + 9] & 0xFF);
        assertEquals(0xFFFF, onesComplement(b, ip, 20));
        final int ifa = ip + 20;
        assertEquals(0x2F, b[ifa] & 0xFF);     // version 2, GNS 0xF
        assertEquals(17, b[ifa + 1] & 0xFF);   // next header UDP
        assertEquals(0, b[ifa + 2] & 0xFF);    // no flags
        assertEquals(40, b[ifa + 3] & 0xFF);   // Max Length: 5 records x 8
        final int udp = ifa + 4;
        assertEquals(0xC001, (b[udp] & 0xFF) << 8 | (b[udp + 1] & 0xFF));
        assertEquals(4791, (b[udp + 2] & 0xFF) << 8 | (b[udp + 3] & 0xFF));
        assertEquals(36, (b[udp + 4] & 0xFF) << 8 | (b[udp + 5] & 0xFF)); // UDP + MAD + timestamp, not the metadata
        final int md = udp + 8;
        assertEquals(0xFC, b[md + 2] & 0xFF);
        assertEquals(16, b[md + 3] & 0xFF);
        assertEquals(0x22, b[md + 4] & 0xFF);            // newest record first
        assertEquals(0x11, b[md + 4 + 32] & 0xFF);
        assertEquals(0xAA, b[md + 4 + 31] & 0xFF);       // last byte of the newest record
        assertEquals(0, b[md + 4 + 32 + 31] & 0xFF);     // last byte of the older one
        final int ts = md + 4 + 64 + 24;
        assertEquals(0x12, b[ts] & 0xFF);
        assertEquals(0x78, b[ts + 3] & 0xFF);
        assertThrows(IllegalArgumentException.class, () -> new PcapWriter(new ByteArrayOutputStream(), 0)
            .writeIfa2Probe(0, 0, 0, 3, 0, 0, 0, 0, 0, 16, 0, null, 0, 5, 0));
    }

    private static int onesComplement(final byte[] b, final int at, final int len) {
        int sum = 0;
        for (int i = at; i < at + len; i += 2) {
            sum += (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return (sum & 0xFFFF) + (sum >>> 16);
    }
}
