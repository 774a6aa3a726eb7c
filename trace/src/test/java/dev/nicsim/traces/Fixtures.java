package dev.nicsim.traces;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The project's own captures, so that a clone without the real captures still covers every reader
 * path. The RoCEv2 ones are written by {@link PcapWriter} from hand-specified exchanges; the native
 * InfiniBand one is built byte by byte here, with its ICRC and VCRC computed by this class's own
 * CRC code (bit by bit from IBTA Vol. 1 §7.8, not the reader's {@link Icrc}).
 *
 * <h2>Soft-RoCE-like RC exchange ({@link #softroceWriteRead()})</h2>
 * The opcode mix of an rxe WRITE + READ with connection management, requester 192.168.7.5 (QP 0x11),
 * responder 192.168.7.4 (QP 0x12), all Not-ECT, DSCP 0, times after {@link #EPOCH_NS}:
 * <pre>
 *   #   us    opcode                         dir        PSN       frame bytes
 *   1      0  UD SEND Only (100) QP1, DETH   req->resp  0x000100  14+20+8+12+8+256+4 = 322
 *   2    150  UD SEND Only (100) QP1, DETH   resp->req  0x000200  322
 *   3    300  UD SEND Only (100) QP1, DETH   req->resp  0x000101  322
 *   4   1000  RDMA WRITE Only (10) A=1, RETH DMA 18, 18 bytes + 2 pad   P      14+20+8+12+16+20+4 = 94
 *   5   1020  Acknowledge (17) AETH 0x1F MSN 1        resp->req  P      14+20+8+12+4+4 = 62
 *   6   1600  RDMA READ Request (12) A=1, RETH DMA 4096  P+1    14+20+8+12+16+4 = 74
 *   7   1619  READ Response First (13) AETH 0x1F, 1024 bytes   P+1    14+20+8+12+4+1024+4 = 1086
 *   8   1630  READ Response Middle (14), 1024 bytes           P+2    14+20+8+12+1024+4 = 1082
 *   9   1641  READ Response Middle (14)                       P+3    1082
 *  10   1652  READ Response Last (15) AETH 0x1F MSN 2          P+4    1086
 *  11   5000  UD SEND Only (100) QP1         req->resp  0x000102  322
 *  12   5150  UD SEND Only (100) QP1         resp->req  0x000201  322
 * </pre>
 * P = {@link #SOFTROCE_PSN} (0xABCDEF = 11259375). Opcodes: 100 x5, 10, 17, 12, 13, 14 x2, 15 = 12;
 * AETH syndrome 0x1F on #5, #7, #10 = 3. As little-endian microsecond pcap: 24 + 12 x 16 + 5 x 322 +
 * 94 + 62 + 74 + 1086 + 1082 + 1082 + 1086 = 6392 bytes.
 *
 * <h2>The same with ARP ({@link #softroceWriteReadWithArp()})</h2>
 * The exchange on 10.1.1.25 (requester QP 0x17) -> 10.1.1.24 (responder QP 0x11), PSN
 * {@link #ARP_PSN} (0xC0FFEE = 12648430), shifted 100 us later, with 4 hand-built 42-byte ARP frames
 * inserted as records: request "who has 10.1.1.24" at 0 us and its reply at 40 us (before #1), and
 * request "who has 10.1.1.25" at 3000 us and its reply at 3040 us (between #10 and #11): 16 records.
 *
 * <h2>ConnectX-style CNP ({@link #cnpPcapng()})</h2>
 * One CNP (opcode 0x81) from 10.2.0.2 to 10.2.0.1, destination QP {@link #CNP_QP} (0x2A5 = 677), BECN
 * set, DSCP 48, ECT(0), UDP source port 0, P_Key 0xFFFF, PSN 0, 16 reserved bytes: 14 + 20 + 8 + 12 +
 * 16 + 4 = 74 bytes; in pcapng (little-endian, {@link RawCapture#toPcapng}, EPB): SHB 28 bytes at 0,
 * IDB 24 at 28 (link type field at 36), NRB 16 at 52, custom block 20 at 68, EPB 12 + 20 + 76 = 108 at 88
 * (file 196 bytes).
 *
 * <h2>Native InfiniBand in ERF ({@link #infinibandErf()})</h2>
 * Classic pcap, link type 197 (ERF), each record an ERF type 21 header (timestamp = second S =
 * {@link #IB_SECOND} plus a binary fraction) and one IB packet with VCRC:
 * <pre>
 *   #  time after S      LNH  LIDs    opcode                    dest QP   PSN       bytes LRH..ICRC
 *   1  1/8 s             2    ffff->ffff VL15 UD SEND Only (100) 0x000000  489       8+12+8+256+4 = 288
 *   2  1/4 s             3    5->c000  UD SEND Only (100), GRH    0xffffff  911096    8+40+12+8+100+4 = 172
 *   3  1 1/2 s           2    4->1     RC SEND Only (4) A=1, 82 B 0xfc0407  13896277  8+12+82+2+4 = 108
 *   4  1 1/2 s + 1/1024  2    1->4     Acknowledge (17) AETH 0x1F 0x870408  13896277  8+12+4+4 = 28
 *   5  2 1/2 s           2    4->1     RC SEND Only (4) A=1, 82 B 0xfc0407  13896278  108
 *   6  2 1/2 s + 1/1024  2    1->4     Acknowledge (17)           0x870408  13896278  28
 *   7  3 1/2 s           2    2->4     RC SEND Only (4) A=1, 82 B 0x890407  12391883  108
 *   8  3 1/2 s + 1/1024  2    4->2     Acknowledge (17)           0x6c004a  12391883  28
 *   9  4 1/2 s           2    2->4     RC SEND Only (4) A=1, 82 B 0x890407  12391884  108 (unanswered)
 *  10  5 s               2    4->1     UD SEND Only (100) QP1     0x000001  12057     288; ERF extension header
 * </pre>
 * Opcodes: 4 x4, 17 x3, 100 x3 = 10 packets. The ERF fractions are exact in ns: 1/8 s = 125,000,000,
 * 1/1024 s = 976,562.5 -> 976,562 ns (truncated); the pcap record holds the same time in microseconds.
 *
 * <p>Thread-safety: stateless; every call builds new arrays.
 */
final class Fixtures {
    /** Wall-clock time of the first packet of the RoCEv2 fixtures, ns since the epoch (2023-11-14). */
    static final long EPOCH_NS = 1_700_000_000_000_000_000L;
    /** PSN of the RDMA WRITE of {@link #softroceWriteRead()}. */
    static final int SOFTROCE_PSN = 0xABCDEF;
    /** PSN of the RDMA WRITE of {@link #softroceWriteReadWithArp()}. */
    static final int ARP_PSN = 0xC0FFEE;
    /** Destination QP of the CNP fixture. */
    static final int CNP_QP = 0x2A5;
    /** Second of the ERF timestamps of {@link #infinibandErf()}. */
    static final long IB_SECOND = 1_210_000_000L;

    /** The endpoints of one exchange. */
    private record Ends(int reqIp, int respIp, long reqMac, long respMac, int reqQp, int respQp, int psn, long startUs) {
    }

    private static final Ends SOFTROCE = new Ends(0xC0A8_0705, 0xC0A8_0704, 0x0200_0000_0705L, 0x0200_0000_0704L,
        0x11, 0x12, SOFTROCE_PSN, 0);
    private static final Ends WITH_ARP = new Ends(0x0A01_0119, 0x0A01_0118, 0x0200_0A01_0119L, 0x0200_0A01_0118L,
        0x17, 0x11, ARP_PSN, 100);

    private Fixtures() {
    }

    /** @return the Soft-RoCE-like exchange as {@link PcapWriter} writes it (nanosecond magic, little-endian) */
    static byte[] softroceWriteRead() {
        return exchange(SOFTROCE);
    }

    /** @return {@link #softroceWriteRead()} as records */
    static RawCapture softroceRaw() {
        return RawCapture.parse(softroceWriteRead());
    }

    /** @return the exchange with ARP, little-endian microsecond pcap */
    static byte[] softroceWriteReadWithArp() {
        RawCapture c = RawCapture.parse(exchange(WITH_ARP));
        final long t0 = EPOCH_NS;
        c = c.insert(0, RawCapture.Rec.at(t0, arp(1, WITH_ARP.reqMac, WITH_ARP.reqIp, 0, WITH_ARP.respIp)));
        c = c.insert(1, RawCapture.Rec.at(t0 + 40_000, arp(2, WITH_ARP.respMac, WITH_ARP.respIp, WITH_ARP.reqMac,
            WITH_ARP.reqIp)));
        // records now: 2 ARP + #1..#12; the second pair goes after #10 (index 2 + 10 = 12)
        c = c.insert(12, RawCapture.Rec.at(t0 + 3_000_000, arp(1, WITH_ARP.respMac, WITH_ARP.respIp, 0, WITH_ARP.reqIp)));
        c = c.insert(13, RawCapture.Rec.at(t0 + 3_040_000, arp(2, WITH_ARP.reqMac, WITH_ARP.reqIp, WITH_ARP.respMac,
            WITH_ARP.respIp)));
        return c.toPcap(ByteOrder.LITTLE_ENDIAN, false);
    }

    /** @return the CNP as PcapWriter writes it (classic pcap) */
    static byte[] cnpPcap() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, EPOCH_NS)) {
            final RocePacket p = new RocePacket();
            p.dstMac = 0x0200_0A02_0001L;
            p.srcMac = 0x0200_0A02_0002L;
            p.srcIpv4(0x0A02_0002).dstIpv4(0x0A02_0001);
            p.opcode = IbOpcodes.CNP;
            p.becn = true;
            p.dscp = 48;
            p.ecn = 2;
            p.udpSrcPort = 0;
            p.pkey = 0xFFFF;
            p.destQp = CNP_QP;
            w.writeRoceV2(p, 0);
        }
        return out.toByteArray();
    }

    /** @return the CNP in pcapng (see the class comment for the block offsets) */
    static byte[] cnpPcapng() {
        return RawCapture.parse(cnpPcap()).toPcapng(ByteOrder.LITTLE_ENDIAN, -1, RawCapture.Block.EPB);
    }

    private static byte[] exchange(final Ends e) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, EPOCH_NS)) {
            final long s = e.startUs * 1_000_000L;     // ps
            w.writeRoceV2(ud(e, true, 0x100), s);
            w.writeRoceV2(ud(e, false, 0x200), s + us(150));
            w.writeRoceV2(ud(e, true, 0x101), s + us(300));
            RocePacket p = rc(e, true, IbOpcodes.RC_RDMA_WRITE_ONLY, e.psn);
            p.ackReq = true;
            p.rethVa = 0x0000_5555_0000_1000L;
            p.rethRkey = 0x0000_1234;
            p.rethDmaLength = 18;
            p.payloadBytes = 18;
            w.writeRoceV2(p, s + us(1000));
            p = rc(e, false, IbOpcodes.RC_ACKNOWLEDGE, e.psn);
            p.aethSyndrome = 0x1F;
            p.aethMsn = 1;
            w.writeRoceV2(p, s + us(1020));
            p = rc(e, true, 12, e.psn + 1);              // RDMA READ Request
            p.ackReq = true;
            p.rethVa = 0x0000_5555_0000_2000L;
            p.rethRkey = 0x0000_1235;
            p.rethDmaLength = 4096;
            w.writeRoceV2(p, s + us(1600));
            for (int i = 0; i < 4; i++) {               // READ Response First, Middle, Middle, Last
                p = rc(e, false, 13 + Math.min(i, 1) + (i == 3 ? 1 : 0), e.psn + 1 + i);
                p.payloadBytes = 1024;
                if (i == 0 || i == 3) {
                    p.aethSyndrome = 0x1F;
                    p.aethMsn = i == 0 ? 1 : 2;
                }
                w.writeRoceV2(p, s + us(1619 + 11L * i));
            }
            w.writeRoceV2(ud(e, true, 0x102), s + us(5000));
            w.writeRoceV2(ud(e, false, 0x201), s + us(5150));
        }
        return out.toByteArray();
    }

    private static long us(final long us) {
        return us * 1_000_000L;
    }

    private static RocePacket rc(final Ends e, final boolean fromRequester, final int opcode, final int psn) {
        final RocePacket p = new RocePacket();
        p.srcMac = fromRequester ? e.reqMac : e.respMac;
        p.dstMac = fromRequester ? e.respMac : e.reqMac;
        p.srcIpv4(fromRequester ? e.reqIp : e.respIp).dstIpv4(fromRequester ? e.respIp : e.reqIp);
        p.udpSrcPort = fromRequester ? 0xC011 : 0xC012;
        p.pkey = 0xFFFF;
        p.opcode = opcode;
        p.destQp = fromRequester ? e.respQp : e.reqQp;
        p.psn = psn & 0xFF_FFFF;
        return p;
    }

    /** A connection-management MAD: UD SEND Only to QP1, Q_Key 0x80010000, source QP 1, 256 bytes. */
    private static RocePacket ud(final Ends e, final boolean fromRequester, final int psn) {
        final RocePacket p = rc(e, fromRequester, IbOpcodes.UD_SEND_ONLY, psn);
        p.destQp = 1;
        p.dethQkey = 0x8001_0000;
        p.dethSrcQp = 1;
        p.payloadBytes = 256;
        return p;
    }

    /** An ARP frame (RFC 826), 42 bytes: operation 1 (request, broadcast) or 2 (reply). */
    static byte[] arp(final int operation, final long senderMac, final int senderIp, final long targetMac,
                      final int targetIp) {
        final byte[] f = new byte[42];
        Bytes.put48be(f, 0, operation == 1 ? 0xFFFF_FFFF_FFFFL : targetMac);
        Bytes.put48be(f, 6, senderMac);
        Bytes.put16be(f, 12, 0x0806);
        Bytes.put16be(f, 14, 1);                       // hardware type Ethernet
        Bytes.put16be(f, 16, 0x0800);                  // protocol type IPv4
        f[18] = 6;
        f[19] = 4;
        Bytes.put16be(f, 20, operation);
        Bytes.put48be(f, 22, senderMac);
        Bytes.put32be(f, 28, senderIp);
        Bytes.put48be(f, 32, targetMac);
        Bytes.put32be(f, 38, targetIp);
        return f;
    }

    // ---------------------------------------------------------------- native InfiniBand in ERF

    /** One native IB packet to build. */
    private record Ib(long fracOfSecond32, long wholeSeconds, int vl, int lnh, int dlid, int slid, int opcode,
                      int destQp, boolean ackReq, int psn, int payloadBytes, boolean erfExtension) {
    }

    private static final long EIGHTH = 0x2000_0000L;
    private static final long QUARTER = 0x4000_0000L;
    private static final long HALF = 0x8000_0000L;
    private static final long KI = 0x0040_0000L;       // 1/1024 s in 2^-32 s units

    private static final List<Ib> IB = List.of(
        new Ib(EIGHTH, 0, 15, 2, 0xFFFF, 0xFFFF, IbOpcodes.UD_SEND_ONLY, 0, false, 489, 256, false),
        new Ib(QUARTER, 0, 0, 3, 0xC000, 0x0005, IbOpcodes.UD_SEND_ONLY, 0xFF_FFFF, false, 911_096, 100, false),
        new Ib(HALF, 1, 0, 2, 0x0001, 0x0004, 4, 0xFC_0407, true, 13_896_277, 82, false),
        new Ib(HALF + KI, 1, 0, 2, 0x0004, 0x0001, IbOpcodes.RC_ACKNOWLEDGE, 0x87_0408, false, 13_896_277, 0, false),
        new Ib(HALF, 2, 0, 2, 0x0001, 0x0004, 4, 0xFC_0407, true, 13_896_278, 82, false),
        new Ib(HALF + KI, 2, 0, 2, 0x0004, 0x0001, IbOpcodes.RC_ACKNOWLEDGE, 0x87_0408, false, 13_896_278, 0, false),
        new Ib(HALF, 3, 0, 2, 0x0004, 0x0002, 4, 0x89_0407, true, 12_391_883, 82, false),
        new Ib(HALF + KI, 3, 0, 2, 0x0002, 0x0004, IbOpcodes.RC_ACKNOWLEDGE, 0x6C_004A, false, 12_391_883, 0, false),
        new Ib(HALF, 4, 0, 2, 0x0004, 0x0002, 4, 0x89_0407, true, 12_391_884, 82, false),
        new Ib(0, 5, 0, 2, 0x0001, 0x0004, IbOpcodes.UD_SEND_ONLY, 1, false, 12_057, 256, true));

    /** @return the native IB fixture as a little-endian microsecond pcap of ERF records */
    static byte[] infinibandErf() {
        final List<RawCapture.Rec> recs = new ArrayList<>();
        for (final Ib p : IB) {
            final byte[] pkt = ibPacket(p);
            final int ext = p.erfExtension ? 8 : 0;
            final ByteBuffer r = ByteBuffer.allocate(16 + ext + pkt.length);
            final long sec = IB_SECOND + p.wholeSeconds;
            r.order(ByteOrder.LITTLE_ENDIAN).putLong(sec << 32 | p.fracOfSecond32).order(ByteOrder.BIG_ENDIAN);
            r.put((byte) (21 | (ext > 0 ? 0x80 : 0)));  // type 21 (InfiniBand), bit 7: an extension header follows
            r.put((byte) 0x04);                        // flags: varying-length record
            r.putShort((short) ((16 + ext + pkt.length + 7) & ~7)); // rlen, padded to 8 (not read by nicsim)
            r.putShort((short) 0);                     // loss counter
            r.putShort((short) pkt.length);            // wlen: the packet with its VCRC
            if (ext > 0) {
                r.putLong(0x0500_0000_0000_0001L);     // extension header type 5, last (bit 7 clear)
            }
            r.put(pkt);
            final long nsec = (p.fracOfSecond32 * 1_000_000L >>> 32) * 1_000L; // the record's microseconds
            recs.add(new RawCapture.Rec(sec, nsec, r.array(), r.array().length));
        }
        return RawCapture.of(LinkTypes.ERF, 65_535, recs).toPcap(ByteOrder.LITTLE_ENDIAN, false);
    }

    /** @return the ERF time of IB packet {@code i} (0-based), ns since the epoch, as the decoder computes it */
    static long ibTimeNs(final int i) {
        final Ib p = IB.get(i);
        return (IB_SECOND + p.wholeSeconds) * 1_000_000_000L + (p.fracOfSecond32 * 1_000_000_000L >>> 32);
    }

    /** @return IB packet {@code i} (0-based) of the table, LRH through VCRC */
    static byte[] ibPacket(final int i) {
        return ibPacket(IB.get(i));
    }

    /** LRH, optional GRH, BTH, DETH or AETH, payload and pad, ICRC, VCRC. */
    private static byte[] ibPacket(final Ib p) {
        final boolean ud = p.opcode == IbOpcodes.UD_SEND_ONLY;
        final boolean ack = p.opcode == IbOpcodes.RC_ACKNOWLEDGE;
        final int grh = p.lnh == 3 ? 40 : 0;
        final int ext = ud ? 8 : ack ? 4 : 0;
        final int pad = (4 - (p.payloadBytes & 3)) & 3;
        final int transport = 12 + ext + p.payloadBytes + pad;
        final int pktLen = 8 + grh + transport + 4;    // LRH .. ICRC, a multiple of 4
        final ByteBuffer b = ByteBuffer.allocate(pktLen + 2);
        b.put((byte) (p.vl << 4)).put((byte) p.lnh).putShort((short) p.dlid).putShort((short) (pktLen / 4))
            .putShort((short) p.slid);
        if (grh > 0) {
            b.putInt(0x6000_0000).putShort((short) (transport + 4)).put((byte) 0x1B).put((byte) 1);
            b.putLong(0xFE80_0000_0000_0000L).putLong(0x0002_C903_0000_0005L);   // SGID
            b.putLong(0xFF12_401B_FFFF_0000L).putLong(0x0000_0000_FFFF_FFFFL);   // DGID (multicast)
        }
        b.put((byte) p.opcode).put((byte) (pad << 4)).putShort((short) 0xFFFF).put((byte) 0)
            .put((byte) (p.destQp >>> 16)).putShort((short) p.destQp)
            .put((byte) (p.ackReq ? 0x80 : 0)).put((byte) (p.psn >>> 16)).putShort((short) p.psn);
        if (ud) {
            b.putInt(p.destQp <= 1 ? 0x8001_0000 : 0x0000_000B).putInt(p.destQp == 0 ? 0 : 1);
        } else if (ack) {
            b.putInt(0x1F00_0001);                     // AETH syndrome 0x1F (ACK, credits unlimited), MSN 1
        }
        for (int i = 0; i < p.payloadBytes; i++) {
            b.put((byte) i);
        }
        b.put(new byte[pad]);
        final byte[] a = b.array();
        final int icrc = icrc(a, grh, pktLen - 4);
        for (int i = 0; i < 4; i++) {                  // least significant byte first
            a[pktLen - 4 + i] = (byte) (icrc >>> (8 * i));
        }
        final int vcrc = vcrc(a, pktLen);
        a[pktLen] = (byte) vcrc;
        a[pktLen + 1] = (byte) (vcrc >>> 8);
        return a;
    }

    /**
     * ICRC (IBTA Vol. 1 §7.8.1): CRC-32 over the packet up to the ICRC with the variant fields set to
     * ones: without GRH the LRH's VL nibble; with GRH the whole LRH, the GRH's traffic class, flow
     * label and hop limit; the BTH's resv8a byte (FECN, BECN) always.
     */
    static int icrc(final byte[] pkt, final int grhBytes, final int icrcAt) {
        final byte[] m = java.util.Arrays.copyOf(pkt, icrcAt);
        if (grhBytes == 0) {
            m[0] |= (byte) 0xF0;
        } else {
            java.util.Arrays.fill(m, 0, 8, (byte) 0xFF);
            m[8] |= 0x0F;
            m[9] = m[10] = m[11] = (byte) 0xFF;
            m[15] = (byte) 0xFF;
        }
        m[8 + grhBytes + 4] = (byte) 0xFF;
        final CRC32 c = new CRC32();
        c.update(m);
        return (int) c.getValue();
    }

    /** VCRC (IBTA Vol. 1 §7.8.2): CRC-16, polynomial 0x100B, reflected, initial 0xFFFF, final complement; bitwise. */
    static int vcrc(final byte[] pkt, final int length) {
        int c = 0xFFFF;
        for (int i = 0; i < length; i++) {
            c ^= pkt[i] & 0xFF;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xD008 : c >>> 1;
            }
        }
        return ~c & 0xFFFF;
    }
}
