package dev.nicsim.traces;

import java.util.Arrays;

/**
 * Decodes one captured frame into a {@link RocePacket}: never throws on any input, bad input ends
 * as {@link RocePacket#KIND_SKIPPED} with {@link SkipReasons#CUT_BY_SNAPLEN} or
 * {@link SkipReasons#MALFORMED} and a one-line {@link RocePacket#problem}; the caller
 * ({@link CaptureDecoder}) decides whether that is fatal.
 *
 * <h2>What is decoded</h2>
 * <ul>
 *   <li>Link type {@link LinkTypes#ETHERNET}: Ethernet II with any number of 802.1Q (0x8100),
 *       802.1ad (0x88A8) or 0x9100 tags (PCP and VLAN id of the outer tag kept), then IPv4 (0x0800),
 *       IPv6 (0x86DD), RoCEv1 (0x8915: GRH with next header 0x1B, then BTH) or MAC control (0x8808:
 *       PFC opcode 0x0101 with its priority-enable vector and 8 quanta, IEEE 802.1Qbb §36.1.3;
 *       802.3x PAUSE opcode 0x0001).</li>
 *   <li>IPv4 / IPv6 carrying UDP to destination port 4791 (any source port) is RoCEv2 (IBTA Annex
 *       A17): DSCP and ECN from the TOS / traffic class (RFC 2474, RFC 3168), the IPv4 header
 *       checksum is verified. IPv4 fragments and IPv6 extension headers are skipped.</li>
 *   <li>Link type {@link LinkTypes#ERF}: the 16-byte ERF header (its own 32.32 fixed-point timestamp
 *       replaces the capture's), extension headers skipped; type 21 is native InfiniBand: LRH
 *       (IBTA §7.7), GRH when LNH = 3 (§8.3), then BTH; types 2, 10, 16, 20 are Ethernet after a
 *       2-byte pad.</li>
 *   <li>BTH (IBTA §9.2): opcode, SE, MigReq, pad count, TVer, P_Key, FECN, BECN, destination QP,
 *       AckReq, PSN; the extension headers of the opcode (§9.3, {@link IbOpcodes#layout}); AETH
 *       syndrome class and value (§9.3.5: ACK with credit count, RNR NAK with timer, NAK with code),
 *       MSN; RETH; DETH; immediate data. The payload length follows from the IP/UDP, GRH or LRH
 *       length fields, so it is right even when the capture cut the payload.</li>
 *   <li>ICRC ({@link Icrc}) when the packet is captured to its end; VCRC for native IB.</li>
 * </ul>
 *
 * <p>Allocation: none for well-formed packets and ordinary skips; building a {@code problem} text for
 * a malformed or cut packet allocates. Thread-safety: not thread-safe; one decoder per thread.
 */
public final class RoceDecoder {
    /** UDP destination port of RoCEv2 (IBTA Annex A17 §A17.2). */
    public static final int ROCE_V2_PORT = 4791;
    /** EtherType of IPv4. */
    public static final int ETHERTYPE_IPV4 = 0x0800;
    /** EtherType of IPv6. */
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    /** EtherType of RoCEv1. */
    public static final int ETHERTYPE_ROCE_V1 = 0x8915;
    /** EtherType of MAC control (pause, PFC). */
    public static final int ETHERTYPE_MAC_CONTROL = 0x8808;
    /** EtherType of an 802.1Q tag. */
    public static final int ETHERTYPE_VLAN = 0x8100;
    /** MAC control opcode of PFC (IEEE 802.1Qbb). */
    public static final int MAC_CONTROL_PFC = 0x0101;
    /** MAC control opcode of 802.3x PAUSE. */
    public static final int MAC_CONTROL_PAUSE = 0x0001;
    /** GRH next header value of IBA transport. */
    public static final int GRH_NEXT_HEADER_IBA = 0x1B;

    private static final int ERF_TYPE_INFINIBAND = 21;
    private static final int ICRC_V2_IPV4 = 1;
    private static final int ICRC_V2_IPV6 = 2;
    private static final int ICRC_GRH = 3;
    private static final int ICRC_IB_LOCAL = 4;

    private final Icrc icrc = new Icrc();
    private int icrcKind;
    private int icrcHeaderOffset;
    private int icrcIhl;

    /** Creates a decoder. */
    public RoceDecoder() {
    }

    /**
     * Decodes one frame. Fills the decode fields of {@code p} (the caller clears it and sets the
     * capture metadata first; for ERF the record's timestamp overwrites {@link RocePacket#timeNs}).
     *
     * @param linkType       {@link LinkTypes#ETHERNET} or {@link LinkTypes#ERF}; others are skipped as
     *                       {@link SkipReasons#UNSUPPORTED_LINK_TYPE}
     * @param d              buffer holding the frame
     * @param offset         offset of the frame's first byte
     * @param capturedLength bytes present, {@code offset + capturedLength <= d.length}
     * @param wireLength     bytes the frame had on the wire (a smaller value is taken as
     *                       {@code capturedLength})
     * @param p              the packet to fill
     * @return {@code p.kind}
     */
    public int decode(final int linkType, final byte[] d, final int offset, final int capturedLength,
                      final int wireLength, final RocePacket p) {
        p.linkType = linkType;
        p.capturedBytes = capturedLength;
        p.wireBytes = Math.max(wireLength, capturedLength);
        final int capEnd = offset + capturedLength;
        final int wireEnd = offset + Math.max(wireLength, capturedLength);
        final int kind = switch (linkType) {
            case LinkTypes.ETHERNET -> ethernet(d, offset, capEnd, wireEnd, p);
            case LinkTypes.ERF -> erf(d, offset, capEnd, p);
            default -> skip(p, SkipReasons.UNSUPPORTED_LINK_TYPE);
        };
        p.kind = kind;
        return kind;
    }

    private static int skip(final RocePacket p, final int reason) {
        p.skipReason = reason;
        return RocePacket.KIND_SKIPPED;
    }

    private static int cut(final RocePacket p, final String what) {
        p.skipReason = SkipReasons.CUT_BY_SNAPLEN;
        p.problem = what + " cut by the snap length (" + p.capturedBytes + " of " + p.wireBytes + " bytes captured)";
        return RocePacket.KIND_SKIPPED;
    }

    private static int malformed(final RocePacket p, final String what) {
        p.skipReason = SkipReasons.MALFORMED;
        p.problem = "garbage in a field: " + what;
        return RocePacket.KIND_SKIPPED;
    }

    private int ethernet(final byte[] d, final int start, final int capEnd, final int wireEnd, final RocePacket p) {
        if (capEnd - start < 14) {
            return cut(p, "Ethernet header");
        }
        p.dstMac = Bytes.u48be(d, start);
        p.srcMac = Bytes.u48be(d, start + 6);
        int type = Bytes.u16be(d, start + 12);
        int pos = start + 14;
        int tags = 0;
        while (type == ETHERTYPE_VLAN || type == 0x88A8 || type == 0x9100) {
            if (capEnd - pos < 4) {
                return cut(p, "802.1Q tag");
            }
            final int tci = Bytes.u16be(d, pos);
            if (tags == 0) {
                p.pcp = tci >>> 13;
                p.vlanId = tci & 0xFFF;
            }
            type = Bytes.u16be(d, pos + 2);
            pos += 4;
            tags++;
        }
        p.vlanTags = tags;
        return switch (type) {
            case ETHERTYPE_IPV4 -> ipv4(d, pos, capEnd, wireEnd, p);
            case ETHERTYPE_IPV6 -> ipv6(d, pos, capEnd, wireEnd, p);
            case ETHERTYPE_ROCE_V1 -> roceV1(d, pos, capEnd, wireEnd, p);
            case ETHERTYPE_MAC_CONTROL -> macControl(d, pos, capEnd, p);
            default -> skip(p, SkipReasons.NON_ROCE_ETHERTYPE);
        };
    }

    private int ipv4(final byte[] d, final int ip, final int capEnd, final int wireEnd, final RocePacket p) {
        if (capEnd - ip < 20) {
            return cut(p, "IPv4 header");
        }
        final int version = (d[ip] >>> 4) & 0xF;
        if (version != 4) {
            return malformed(p, "IPv4 version field is " + version);
        }
        final int ihl = (d[ip] & 0xF) * 4;
        if (ihl < 20) {
            return malformed(p, "IPv4 header length " + ihl + " is less than 20");
        }
        if ((Bytes.u16be(d, ip + 6) & 0x3FFF) != 0) {
            return skip(p, SkipReasons.IP_FRAGMENT);
        }
        if (Bytes.u8(d, ip + 9) != 17) {
            return skip(p, SkipReasons.IP_NOT_UDP);
        }
        if (capEnd - ip < ihl + 8) {
            return cut(p, "IPv4 options or UDP header");
        }
        final int udp = ip + ihl;
        if (Bytes.u16be(d, udp + 2) != ROCE_V2_PORT) {
            return skip(p, SkipReasons.UDP_NOT_ROCE);
        }
        final int totalLength = Bytes.u16be(d, ip + 2);
        if (totalLength < ihl + 8) {
            return malformed(p, "IPv4 total length " + totalLength + " is shorter than its headers");
        }
        if (ip + totalLength > wireEnd) {
            return malformed(p, "IPv4 total length " + totalLength + " exceeds the frame (" + (wireEnd - ip)
                + " bytes after the Ethernet header)");
        }
        final int udpLength = Bytes.u16be(d, udp + 4);
        if (udpLength > totalLength - ihl) {
            return malformed(p, "UDP length " + udpLength + " exceeds the IPv4 payload of " + (totalLength - ihl) + " bytes");
        }
        if (udpLength < 8 + 12 + Icrc.ICRC_BYTES) {
            return malformed(p, "UDP length " + udpLength + " is too short for BTH and ICRC");
        }
        p.ipVersion = 4;
        final int tos = Bytes.u8(d, ip + 1);
        p.dscp = tos >>> 2;
        p.ecn = tos & 3;
        p.ipId = Bytes.u16be(d, ip + 4);
        p.ttl = Bytes.u8(d, ip + 8);
        p.srcAddrHi = 0;
        p.srcAddrLo = RocePacket.IPV4_MAPPED | Bytes.u32be(d, ip + 12);
        p.dstAddrHi = 0;
        p.dstAddrLo = RocePacket.IPV4_MAPPED | Bytes.u32be(d, ip + 16);
        p.ipChecksumOk = ipv4Checksum(d, ip, ihl) == 0;
        p.udpSrcPort = Bytes.u16be(d, udp);
        p.udpDstPort = ROCE_V2_PORT;
        p.encapsulation = RocePacket.ENCAP_ROCE_V2;
        icrcKind = ICRC_V2_IPV4;
        icrcHeaderOffset = ip;
        icrcIhl = ihl;
        return transport(d, udp + 8, udp + udpLength, capEnd, p);
    }

    /**
     * The ones'-complement sum of an IPv4 header, complemented (RFC 791 §3.1, RFC 1071): 0 when the
     * stored checksum is right; with the checksum field zeroed, the value to store.
     *
     * @param d   buffer
     * @param ip  offset of the IPv4 header
     * @param ihl header length in bytes
     * @return 16-bit checksum value
     */
    static int ipv4Checksum(final byte[] d, final int ip, final int ihl) {
        int sum = 0;
        for (int i = 0; i < ihl; i += 2) {
            sum += Bytes.u16be(d, ip + i);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    private int ipv6(final byte[] d, final int ip, final int capEnd, final int wireEnd, final RocePacket p) {
        if (capEnd - ip < 40) {
            return cut(p, "IPv6 header");
        }
        final int version = (d[ip] >>> 4) & 0xF;
        if (version != 6) {
            return malformed(p, "IPv6 version field is " + version);
        }
        if (Bytes.u8(d, ip + 6) != 17) {
            return skip(p, SkipReasons.IP_NOT_UDP);
        }
        if (capEnd - ip < 48) {
            return cut(p, "UDP header");
        }
        final int udp = ip + 40;
        if (Bytes.u16be(d, udp + 2) != ROCE_V2_PORT) {
            return skip(p, SkipReasons.UDP_NOT_ROCE);
        }
        final int payloadLength = Bytes.u16be(d, ip + 4);
        if (ip + 40 + payloadLength > wireEnd) {
            return malformed(p, "IPv6 payload length " + payloadLength + " exceeds the frame");
        }
        final int udpLength = Bytes.u16be(d, udp + 4);
        if (udpLength > payloadLength) {
            return malformed(p, "UDP length " + udpLength + " exceeds the IPv6 payload of " + payloadLength + " bytes");
        }
        if (udpLength < 8 + 12 + Icrc.ICRC_BYTES) {
            return malformed(p, "UDP length " + udpLength + " is too short for BTH and ICRC");
        }
        p.ipVersion = 6;
        grhFields(d, ip, p);
        p.udpSrcPort = Bytes.u16be(d, udp);
        p.udpDstPort = ROCE_V2_PORT;
        p.encapsulation = RocePacket.ENCAP_ROCE_V2;
        icrcKind = ICRC_V2_IPV6;
        icrcHeaderOffset = ip;
        return transport(d, udp + 8, udp + udpLength, capEnd, p);
    }

    /** Traffic class, flow label, hop limit and GIDs of an IPv6 header or GRH (same layout). */
    private static void grhFields(final byte[] d, final int h, final RocePacket p) {
        final int tclass = (Bytes.u16be(d, h) >>> 4) & 0xFF;
        p.dscp = tclass >>> 2;
        p.ecn = tclass & 3;
        p.flowLabel = Bytes.u24be(d, h + 1) & 0xF_FFFF;
        p.ttl = Bytes.u8(d, h + 7);
        p.srcAddrHi = Bytes.i64be(d, h + 8);
        p.srcAddrLo = Bytes.i64be(d, h + 16);
        p.dstAddrHi = Bytes.i64be(d, h + 24);
        p.dstAddrLo = Bytes.i64be(d, h + 32);
    }

    private int roceV1(final byte[] d, final int grh, final int capEnd, final int wireEnd, final RocePacket p) {
        if (capEnd - grh < 40) {
            return cut(p, "GRH");
        }
        final int version = (d[grh] >>> 4) & 0xF;
        if (version != 6) {
            return malformed(p, "GRH IPVer field is " + version);
        }
        if (Bytes.u8(d, grh + 6) != GRH_NEXT_HEADER_IBA) {
            return skip(p, SkipReasons.IB_NOT_IBA_TRANSPORT);
        }
        final int payloadLength = Bytes.u16be(d, grh + 4);
        if (grh + 40 + payloadLength > wireEnd) {
            return malformed(p, "GRH payload length " + payloadLength + " exceeds the frame");
        }
        if (payloadLength < 12 + Icrc.ICRC_BYTES) {
            return malformed(p, "GRH payload length " + payloadLength + " is too short for BTH and ICRC");
        }
        p.ipVersion = 6;
        grhFields(d, grh, p);
        p.encapsulation = RocePacket.ENCAP_ROCE_V1;
        icrcKind = ICRC_GRH;
        icrcHeaderOffset = grh;
        return transport(d, grh + 40, grh + 40 + payloadLength, capEnd, p);
    }

    private static int macControl(final byte[] d, final int pos, final int capEnd, final RocePacket p) {
        if (capEnd - pos < 4) {
            return cut(p, "MAC control frame");
        }
        final int opcode = Bytes.u16be(d, pos);
        if (opcode == MAC_CONTROL_PFC) {
            if (capEnd - pos < 20) {
                return cut(p, "PFC frame");
            }
            p.pauseOpcode = opcode;
            p.pfcClassEnable = Bytes.u16be(d, pos + 2);
            for (int i = 0; i < 8; i++) {
                p.pauseQuanta[i] = Bytes.u16be(d, pos + 4 + 2 * i);
            }
            return RocePacket.KIND_PAUSE;
        }
        if (opcode == MAC_CONTROL_PAUSE) {
            p.pauseOpcode = opcode;
            p.pfcClassEnable = 0xFF;
            Arrays.fill(p.pauseQuanta, Bytes.u16be(d, pos + 2));
            return RocePacket.KIND_PAUSE;
        }
        return skip(p, SkipReasons.MAC_CONTROL_OTHER);
    }

    /**
     * The timestamp of an ERF record (Endace ERF types reference, "ERF Record Header"): a
     * little-endian 64-bit value, seconds since the epoch in the high 32 bits and a binary fraction
     * of a second in the low 32.
     *
     * @param d     buffer holding the record, at least {@code start + 8} bytes
     * @param start offset of the record's first byte
     * @return ns since the epoch (fraction truncated to whole ns), 0 .. 2^32 s
     */
    static long erfTimeNs(final byte[] d, final int start) {
        final long ts = Bytes.i64le(d, start);
        return (ts >>> 32) * 1_000_000_000L + (((ts & 0xFFFF_FFFFL) * 1_000_000_000L) >>> 32);
    }

    private int erf(final byte[] d, final int start, final int capEnd, final RocePacket p) {
        if (capEnd - start < 16) {
            return cut(p, "ERF record header");
        }
        p.timeNs = erfTimeNs(d, start);
        final int typeByte = Bytes.u8(d, start + 8);
        final int wlen = Bytes.u16be(d, start + 14);
        int pos = start + 16;
        int more = typeByte & 0x80;
        while (more != 0) {
            if (capEnd - pos < 8) {
                return cut(p, "ERF extension header");
            }
            more = d[pos] & 0x80;
            pos += 8;
        }
        final int type = typeByte & 0x7F;
        if (type == ERF_TYPE_INFINIBAND) {
            p.wireBytes = wlen;
            return infiniband(d, pos, capEnd, pos + Math.max(wlen, capEnd - pos), p);
        }
        if (type == 2 || type == 10 || type == 16 || type == 20) {
            if (capEnd - pos < 2) {
                return cut(p, "ERF Ethernet pad");
            }
            p.wireBytes = wlen;
            final int eth = pos + 2;
            return ethernet(d, eth, capEnd, eth + Math.max(wlen, capEnd - eth), p);
        }
        return skip(p, SkipReasons.ERF_NOT_IB_OR_ETHERNET);
    }

    private int infiniband(final byte[] d, final int lrh, final int capEnd, final int wireEnd, final RocePacket p) {
        if (capEnd - lrh < 8) {
            return cut(p, "LRH");
        }
        final int lver = d[lrh] & 0xF;
        if (lver != 0) {
            return malformed(p, "LRH LVer field is " + lver);
        }
        p.vl = (d[lrh] >>> 4) & 0xF;
        p.sl = (d[lrh + 1] >>> 4) & 0xF;
        final int lnh = d[lrh + 1] & 3;
        p.dlid = Bytes.u16be(d, lrh + 2);
        final int packetLength = (Bytes.u16be(d, lrh + 4) & 0x7FF) * 4;
        p.slid = Bytes.u16be(d, lrh + 6);
        p.srcAddrHi = RocePacket.LID_TAG;
        p.srcAddrLo = p.slid;
        p.dstAddrHi = RocePacket.LID_TAG;
        p.dstAddrLo = p.dlid;
        if (lnh < 2) {
            return skip(p, SkipReasons.IB_NOT_IBA_TRANSPORT);
        }
        final int headers = lnh == 3 ? 8 + 40 : 8;
        if (packetLength < headers + 12 + Icrc.ICRC_BYTES) {
            return malformed(p, "LRH packet length " + packetLength + " is too short for its headers and ICRC");
        }
        if (lrh + packetLength > wireEnd) {
            return malformed(p, "LRH packet length " + packetLength + " exceeds the record's wire length "
                + (wireEnd - lrh));
        }
        if (lnh == 3) {
            if (capEnd - lrh < 48) {
                return cut(p, "GRH");
            }
            final int version = (d[lrh + 8] >>> 4) & 0xF;
            if (version != 6) {
                return malformed(p, "GRH IPVer field is " + version);
            }
            if (Bytes.u8(d, lrh + 8 + 6) != GRH_NEXT_HEADER_IBA) {
                return skip(p, SkipReasons.IB_NOT_IBA_TRANSPORT);
            }
            p.flowLabel = Bytes.u24be(d, lrh + 9) & 0xF_FFFF;
            p.ttl = Bytes.u8(d, lrh + 15);
            icrcKind = ICRC_GRH;
            icrcHeaderOffset = lrh + 8;
        } else {
            icrcKind = ICRC_IB_LOCAL;
            icrcHeaderOffset = lrh;
        }
        p.encapsulation = RocePacket.ENCAP_IB;
        final int kind = transport(d, lrh + headers, lrh + packetLength, capEnd, p);
        if (kind == RocePacket.KIND_ROCE && lrh + packetLength + Icrc.VCRC_BYTES <= capEnd) {
            final int stored = Bytes.u16le(d, lrh + packetLength);
            p.vcrcStatus = stored == Icrc.vcrc(d, lrh, packetLength) ? RocePacket.CRC_OK : RocePacket.CRC_BAD;
        }
        return kind;
    }

    /**
     * BTH, extension headers, payload length and ICRC.
     *
     * @param bth    offset of the BTH
     * @param end    offset just past the ICRC (wire position; may be beyond the captured bytes)
     * @param capEnd offset just past the captured bytes
     */
    private int transport(final byte[] d, final int bth, final int end, final int capEnd, final RocePacket p) {
        if (capEnd - bth < 12) {
            return cut(p, "BTH");
        }
        if (end - bth < 12 + Icrc.ICRC_BYTES) {
            return malformed(p, "transport packet of " + (end - bth) + " bytes is too short for BTH and ICRC");
        }
        p.opcode = Bytes.u8(d, bth);
        final int b1 = Bytes.u8(d, bth + 1);
        p.solicitedEvent = (b1 & 0x80) != 0;
        p.migReq = (b1 & 0x40) != 0;
        p.padCount = (b1 >>> 4) & 3;
        p.tver = b1 & 0xF;
        p.pkey = Bytes.u16be(d, bth + 2);
        final int b4 = Bytes.u8(d, bth + 4);
        p.fecn = (b4 & 0x80) != 0;
        p.becn = (b4 & 0x40) != 0;
        p.destQp = Bytes.u24be(d, bth + 5);
        p.ackReq = (d[bth + 8] & 0x80) != 0;
        p.psn = Bytes.u24be(d, bth + 9);
        final int layout = IbOpcodes.layout(p.opcode);
        p.layout = layout;
        final int ext = layout == IbOpcodes.UNKNOWN ? 0 : IbOpcodes.extensionBytes(layout);
        final int extAt = bth + 12;
        final int icrcAt = end - Icrc.ICRC_BYTES;
        final int payload = icrcAt - (extAt + ext) - p.padCount;
        if (payload < 0) {
            return malformed(p, IbOpcodes.name(p.opcode) + " needs " + (12 + ext + p.padCount + Icrc.ICRC_BYTES)
                + " bytes of headers, pad and ICRC but the transport packet has " + (end - bth));
        }
        if (layout != IbOpcodes.UNKNOWN && ext > 0) {
            if (capEnd - extAt < ext) {
                return cut(p, "extension headers of " + IbOpcodes.name(p.opcode));
            }
            if ((layout & IbOpcodes.DETH) != 0) {
                final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.DETH);
                p.hasDeth = true;
                p.dethQkey = Bytes.i32be(d, at);
                p.dethSrcQp = Bytes.u24be(d, at + 5);
            }
            if ((layout & IbOpcodes.RETH) != 0) {
                final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.RETH);
                p.hasReth = true;
                p.rethVa = Bytes.i64be(d, at);
                p.rethRkey = Bytes.i32be(d, at + 8);
                p.rethDmaLength = Bytes.u32be(d, at + 12);
            }
            if ((layout & IbOpcodes.AETH) != 0) {
                final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.AETH);
                final int syndrome = Bytes.u8(d, at);
                p.hasAeth = true;
                p.aethSyndrome = syndrome;
                p.aethClass = (syndrome & 0x80) != 0 ? RocePacket.AETH_RESERVED : (syndrome >>> 5) & 3;
                p.aethValue = syndrome & 0x1F;
                p.aethMsn = Bytes.u24be(d, at + 1);
                if (p.aethClass == RocePacket.AETH_RESERVED) {
                    return malformed(p, String.format("AETH syndrome 0x%02x is reserved", syndrome));
                }
            }
            if ((layout & (IbOpcodes.IMM | IbOpcodes.IETH)) != 0) {
                p.hasImm = (layout & IbOpcodes.IMM) != 0;
                p.immData = Bytes.i32be(d, extAt + IbOpcodes.offset(layout, IbOpcodes.IMM));
            }
        }
        p.payloadBytes = payload;
        if (end <= capEnd) {
            final int computed = switch (icrcKind) {
                case ICRC_V2_IPV4 -> icrc.roceV2Ipv4(d, icrcHeaderOffset, icrcIhl, icrcAt);
                case ICRC_V2_IPV6 -> icrc.roceV2Ipv6(d, icrcHeaderOffset, icrcAt);
                case ICRC_GRH -> icrc.grh(d, icrcHeaderOffset, icrcAt);
                default -> icrc.ibLocal(d, icrcHeaderOffset, icrcAt);
            };
            p.icrcStored = Icrc.read(d, icrcAt);
            p.icrcComputed = computed;
            p.icrcStatus = computed == p.icrcStored ? RocePacket.CRC_OK : RocePacket.CRC_BAD;
        }
        return RocePacket.KIND_ROCE;
    }
}
