package dev.nicsim.traces;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RoCEv2 over IPv6 and RoCEv1 (EtherType 0x8915), which the shared captures do not contain: an ACK
 * built by hand in each, with the ICRC computed independently (Python {@code zlib.crc32} over 8 bytes
 * of 0xFF, the header with traffic class, flow label, hop limit, UDP checksum and BTH resv8a set to
 * ones, then the AETH; the masking Linux rxe's {@code rxe_icrc_hdr} uses), and non-RoCE traffic.
 */
class EncapsulationTest {
    /** IPv6 ACK: TClass 0x6A (DSCP 26, ECT(0)), flow label 0x12345, hop limit 64, fe80::1 -> fe80::2,
     *  UDP 0xC000 -> 4791 length 28 checksum 0x1234, BTH ACK to QP 0x123 PSN 100, AETH 0x1F MSN 4. */
    private static final String IPV6_ACK = "02000000000202000000000186dd66a12345001c1140fe800000000000000000000000000001"
        + "fe800000000000000000000000000002c00012b7001c12341100ffff00000123000000641f000004";
    /** zlib.crc32 of the masked IPv6 ACK (see the class comment). */
    private static final int IPV6_ACK_ICRC = 0x2EFD4113;
    /** RoCEv1 ACK: same GRH fields (payload length 20, next header 0x1B), same BTH and AETH. */
    private static final String ROCEV1_ACK = "020000000002020000000001891566a1234500141b40fe800000000000000000000000000001"
        + "fe8000000000000000000000000000021100ffff00000123000000641f000004";
    private static final int ROCEV1_ACK_ICRC = 0x248FE740;

    private static byte[] withIcrc(final String hex, final int icrc) {
        final byte[] b = HexFormat.of().parseHex(hex);
        final byte[] f = Arrays.copyOf(b, b.length + 4);
        Icrc.write(f, b.length, icrc);
        return f;
    }

    private static RocePacket decode(final byte[] frame) {
        final RocePacket p = new RocePacket();
        new RoceDecoder().decode(LinkTypes.ETHERNET, frame, 0, frame.length, frame.length, p);
        return p;
    }

    @Test
    void roceV2OverIpv6() {
        final RocePacket p = decode(withIcrc(IPV6_ACK, IPV6_ACK_ICRC));
        assertEquals(RocePacket.KIND_ROCE, p.kind, String.valueOf(p.problem));
        assertEquals(RocePacket.ENCAP_ROCE_V2, p.encapsulation);
        assertEquals(6, p.ipVersion);
        assertEquals(26, p.dscp);                      // 0x6A >> 2
        assertEquals(2, p.ecn);                        // 0x6A & 3
        assertEquals(0x12345, p.flowLabel);
        assertEquals(64, p.ttl);
        assertEquals(0xFE80_0000_0000_0000L, p.srcAddrHi);
        assertEquals(1L, p.srcAddrLo);
        assertEquals(2L, p.dstAddrLo);
        assertEquals(0xC000, p.udpSrcPort);
        assertEquals(IbOpcodes.RC_ACKNOWLEDGE, p.opcode);
        assertEquals(0x123, p.destQp);
        assertEquals(100, p.psn);
        assertEquals(RocePacket.AETH_ACK, p.aethClass);
        assertEquals(4, p.aethMsn);
        assertEquals(IPV6_ACK_ICRC, p.icrcComputed);
        assertEquals(RocePacket.CRC_OK, p.icrcStatus);
        // the masked fields do not change the ICRC: new traffic class (CE), flow label, hop limit, UDP checksum
        final byte[] f = withIcrc(IPV6_ACK, IPV6_ACK_ICRC);
        f[14] = 0x6F;
        f[15] = (byte) 0xF0;
        f[21] = 1;
        f[60] = 0;
        f[61] = 0;
        final RocePacket q = decode(f);
        assertEquals(3, q.ecn);
        assertEquals(RocePacket.CRC_OK, q.icrcStatus);
        // an invariant field does: the P_Key (BTH bytes 2-3 at frame offsets 64-65)
        f[65] = 0x7F;
        assertEquals(RocePacket.CRC_BAD, decode(f).icrcStatus);
    }

    @Test
    void roceV1() {
        final RocePacket p = decode(withIcrc(ROCEV1_ACK, ROCEV1_ACK_ICRC));
        assertEquals(RocePacket.KIND_ROCE, p.kind, String.valueOf(p.problem));
        assertEquals(RocePacket.ENCAP_ROCE_V1, p.encapsulation);
        assertEquals(26, p.dscp);
        assertEquals(0x123, p.destQp);
        assertEquals(100, p.psn);
        assertEquals(ROCEV1_ACK_ICRC, p.icrcComputed);
        assertEquals(RocePacket.CRC_OK, p.icrcStatus);
    }

    @Test
    void nonRoceTrafficIsSkippedWithItsReason() {
        // IPv4/TCP, IPv4/UDP to port 53, an IPv4 fragment, an 802.1Q-tagged ARP, an LLDP frame
        final byte[] tcp = HexFormat.of().parseHex("0200000000020200000000010800450000280001400040060000"
            + "0a0000010a000002c000005000000000000000005002ffff00000000");
        assertEquals(SkipReasons.IP_NOT_UDP, decode(tcp).skipReason);
        final byte[] dns = HexFormat.of().parseHex("0200000000020200000000010800450000240001400040110000"
            + "0a0000010a000002c00000350010000000000000000000000000");
        assertEquals(SkipReasons.UDP_NOT_ROCE, decode(dns).skipReason);
        final byte[] frag = HexFormat.of().parseHex("0200000000020200000000010800450000240001200040110000"
            + "0a0000010a000002c00012b70010000000000000000000000000");
        assertEquals(SkipReasons.IP_FRAGMENT, decode(frag).skipReason);
        final byte[] arp = HexFormat.of().parseHex("02000000000202000000000181006064080600010800060400010200000000010a000001"
            + "0000000000000a000002");
        final RocePacket a = decode(arp);
        assertEquals(SkipReasons.NON_ROCE_ETHERTYPE, a.skipReason);
        assertEquals(3, a.pcp);                        // TCI 0x6064: PCP 3, VLAN 100
        assertEquals(100, a.vlanId);
        final byte[] lldp = HexFormat.of().parseHex("0180c200000e02000000000188cc0000000000000000000000000000");
        assertEquals(SkipReasons.NON_ROCE_ETHERTYPE, decode(lldp).skipReason);
        assertTrue(decode(lldp).kind == RocePacket.KIND_SKIPPED);
    }
}
