package dev.nicsim.traces;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each shared capture gives exactly the counts by BTH opcode listed in
 * {@code ../shared/data/README.md} ("captures/" table), plus the encapsulation, ECN, AETH and CRC
 * counts that follow from the same description.
 */
class CaptureCountsTest {

    private static CaptureStats decode(final String file, final List<String> seen) throws CaptureException {
        final CaptureDecoder decoder = new CaptureDecoder();
        return decoder.decode(TestPaths.capture(file), p -> seen.add(p.toString()));
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
        assertEquals(10, s.opcodeCount(4));
        assertEquals(9, s.opcodeCount(17));
        assertEquals(24, s.opcodeCount(100));
        assertEquals(43, allOpcodes(s));
        assertEquals(43, s.packets());
        assertEquals(43, s.byEncapsulation(RocePacket.ENCAP_IB));
        assertEquals(0, s.skippedTotal());
        // the 9 ACKs are the only AETHs
        assertEquals(9, s.aethAcks());
        // each record holds the whole packet (wlen = captured - 16): ICRC and VCRC checked on all 43
        assertEquals(43, s.icrcOk());
        assertEquals(0, s.icrcBad());
        assertEquals(43, s.vcrcOk());
        assertEquals(0, s.vcrcBad());
        // native IB has no IP ECN: none counted
        assertEquals(0, s.ecnCount(0) + s.ecnCount(1) + s.ecnCount(2) + s.ecnCount(3));
    }

    @Test
    void cnpConnectX4Lx() throws CaptureException {
        final List<RocePacket> seen = new ArrayList<>();
        final CaptureDecoder decoder = new CaptureDecoder();
        final CaptureStats s = decoder.decode(TestPaths.capture("cnp-connectx4lx.pcap"), p -> {
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
