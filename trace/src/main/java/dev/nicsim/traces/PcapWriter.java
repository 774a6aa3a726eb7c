package dev.nicsim.traces;

import dev.nicsim.pcc.Units;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes a classic pcap file (draft-ietf-opsawg-pcap: nanosecond magic {@code 0xA1B23C4D},
 * little-endian, version 2.4, snap length 262144, link type {@link LinkTypes#ETHERNET}) of RoCEv2
 * frames and PFC pause frames with real encodings, from plain field values (a {@link RocePacket}
 * used as a field holder); nothing here depends on the simulator.
 *
 * <h2>RoCEv2 frames ({@link #writeRoceV2})</h2>
 * Ethernet II (optionally one 802.1Q tag with PCP and VLAN id), IPv4 (IHL 5, TOS = DSCP &lt;&lt; 2 | ECN,
 * DF set, protocol 17, correct header checksum per RFC 791), UDP to port 4791 with checksum 0
 * (allowed for RoCEv2 over IPv4, IBTA Annex A17 §A17.4.1), BTH (IBTA §9.2), the extension headers
 * the opcode calls for ({@link IbOpcodes#layout}: DETH, RETH, AETH, immediate data / IETH; XRCETH,
 * AtomicETH and AtomicAckETH as zeros), a zero-filled payload plus pad to a multiple of 4 bytes
 * (the BTH pad count says how many), and the ICRC computed by {@link Icrc}. A CNP (opcode 0x81)
 * always carries its 16 reserved bytes. Frames shorter than 60 bytes are zero-padded (no FCS is
 * written, as captures usually hold none).
 *
 * <h2>PFC frames ({@link #writePfc})</h2>
 * Destination 01:80:C2:00:00:01, EtherType 0x8808, opcode 0x0101, priority-enable vector, eight
 * 16-bit quanta (IEEE 802.1Qbb §36.1.3), zero-padded to 60 bytes.
 *
 * <p>Errors: bad field values throw {@link IllegalArgumentException} naming the field; I/O failures
 * throw {@link UncheckedIOException} (so the writer can sit behind an observer interface).
 * Allocation: none per frame. Thread-safety: not thread-safe; one writer per thread.
 */
public final class PcapWriter implements AutoCloseable {
    /** Largest payload accepted, bytes (jumbo MTU 9000 is below it). */
    public static final int MAX_PAYLOAD_BYTES = 9_600;
    /** Snap length written in the header, bytes. */
    public static final int SNAP_LENGTH = 262_144;
    /** Destination MAC address of PFC frames (01:80:C2:00:00:01). */
    public static final long PFC_DESTINATION_MAC = 0x0180_C200_0001L;
    /** Default TTL when the packet's is 0. */
    public static final int DEFAULT_TTL = 64;

    private static final int MIN_FRAME = 60;
    private static final long MAX_EPOCH_NS = 0xFFFF_FFFFL * 1_000_000_000L;

    private final OutputStream out;
    private final long baseEpochNs;
    private final byte[] frame = new byte[MAX_PAYLOAD_BYTES + 256];
    private final byte[] record = new byte[16];
    private final Icrc icrc = new Icrc();
    private boolean closed;

    /**
     * Creates (or replaces) a pcap file and writes its header; frame times are written as
     * {@code timePs} after the epoch (1970-01-01).
     *
     * @param file the file
     * @return the writer
     * @throws UncheckedIOException if the file cannot be written
     */
    public static PcapWriter create(final Path file) {
        try {
            return new PcapWriter(Files.newOutputStream(file), 0);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates a writer on a stream and writes the pcap header.
     *
     * @param out         the stream; closed by {@link #close()}
     * @param baseEpochNs wall-clock time of {@code timePs = 0}, ns since the Unix epoch, 0 .. 2^32 s (so
     *                    tools show a plausible date; 0 shows 1970)
     * @throws IllegalArgumentException if baseEpochNs is negative
     * @throws UncheckedIOException     if the header cannot be written
     */
    public PcapWriter(final OutputStream out, final long baseEpochNs) {
        if (baseEpochNs < 0 || baseEpochNs >= MAX_EPOCH_NS) {
            throw new IllegalArgumentException("baseEpochNs: expected 0.." + (MAX_EPOCH_NS - 1) + " ns, got " + baseEpochNs);
        }
        this.out = new BufferedOutputStream(out, 65_536);
        this.baseEpochNs = baseEpochNs;
        final byte[] h = new byte[24];
        Bytes.put32le(h, 0, 0xA1B23C4D);
        Bytes.put16le(h, 4, 2);
        Bytes.put16le(h, 6, 4);
        Bytes.put32le(h, 16, SNAP_LENGTH);
        Bytes.put32le(h, 20, LinkTypes.ETHERNET);
        try {
            this.out.write(h);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write the pcap header: " + e.getMessage(), e);
        }
    }

    /**
     * Writes one RoCEv2 frame over IPv4.
     *
     * <p>Fields used: {@code dstMac, srcMac, vlanId, pcp} (a tag is written when either is &gt;= 0;
     * a missing one counts as 0), {@code srcAddr*, dstAddr*} (IPv4-mapped, see
     * {@link RocePacket#srcIpv4(int)}), {@code dscp, ecn, ttl} (0 means {@value #DEFAULT_TTL}),
     * {@code ipId, udpSrcPort, opcode, solicitedEvent, migReq, tver, pkey, fecn, becn, destQp,
     * ackReq, psn}, {@code rethVa, rethRkey, rethDmaLength} (if the opcode has a RETH),
     * {@code aethSyndrome, aethMsn} (AETH), {@code dethQkey, dethSrcQp} (DETH), {@code immData}
     * (ImmDt / IETH), {@code payloadBytes} (ignored for a CNP). The pad count and ICRC are computed.
     *
     * @param p      the field values (not modified)
     * @param timePs when the frame was seen, ps after {@code baseEpochNs}, &gt;= 0
     * @throws IllegalArgumentException if a field is out of range (named in the message)
     * @throws UncheckedIOException     on an I/O failure
     */
    public void writeRoceV2(final RocePacket p, final long timePs) {
        writeRoceV2(p, timePs, MIN_FRAME);
    }

    /**
     * Writes one RoCEv2 frame over IPv4 as {@link #writeRoceV2(RocePacket, long)} does, zero-padded
     * after the ICRC up to at least {@code minFrameBytes} (Ethernet padding, outside the IP packet):
     * e.g. a trimmed packet's header frame shown at the size the switch sends it.
     *
     * @param p             the field values (not modified)
     * @param timePs        when the frame was seen, ps after {@code baseEpochNs}, &gt;= 0
     * @param minFrameBytes the record's least length, bytes (no FCS); values up to 60 change nothing
     * @throws IllegalArgumentException if a field is out of range (named in the message), or
     *                                  {@code minFrameBytes} is above the frame buffer
     * @throws UncheckedIOException     on an I/O failure
     */
    public void writeRoceV2(final RocePacket p, final long timePs, final int minFrameBytes) {
        check(minFrameBytes <= frame.length, "minFrameBytes", "at most " + frame.length, minFrameBytes);
        final int layout = IbOpcodes.layout(p.opcode);
        check(layout != IbOpcodes.UNKNOWN, "opcode", "an opcode with a known header layout", p.opcode);
        check(p.srcAddrHi == 0 && (p.srcAddrLo >>> 32) == 0xFFFFL, "srcAddr", "an IPv4-mapped address", p.srcAddrLo);
        check(p.dstAddrHi == 0 && (p.dstAddrLo >>> 32) == 0xFFFFL, "dstAddr", "an IPv4-mapped address", p.dstAddrLo);
        check(p.dscp >= 0 && p.dscp <= 63, "dscp", "0..63", p.dscp);
        check(p.ecn >= 0 && p.ecn <= 3, "ecn", "0..3", p.ecn);
        check(p.ttl >= 0 && p.ttl <= 255, "ttl", "0..255", p.ttl);
        check(p.udpSrcPort >= 0 && p.udpSrcPort <= 0xFFFF, "udpSrcPort", "0..65535", p.udpSrcPort);
        check(p.vlanId <= 4095, "vlanId", "-1..4095", p.vlanId);
        check(p.pcp <= 7, "pcp", "-1..7", p.pcp);
        check(p.tver >= 0 && p.tver <= 15, "tver", "0..15", p.tver);
        final int payload = p.opcode == IbOpcodes.CNP ? 16 : p.payloadBytes;
        check(payload >= 0 && payload <= MAX_PAYLOAD_BYTES, "payloadBytes", "0.." + MAX_PAYLOAD_BYTES, payload);
        checkTime(timePs);

        final byte[] f = frame;
        int pos = ethernet(f, p.dstMac, p.srcMac, p.vlanId, p.pcp, RoceDecoder.ETHERTYPE_IPV4);
        final int ip = pos;
        final int ext = IbOpcodes.extensionBytes(layout);
        final int pad = (4 - (payload & 3)) & 3;
        final int udpLength = 8 + 12 + ext + payload + pad + Icrc.ICRC_BYTES;
        final int totalLength = 20 + udpLength;
        // IPv4
        f[ip] = 0x45;
        f[ip + 1] = (byte) (p.dscp << 2 | p.ecn);
        Bytes.put16be(f, ip + 2, totalLength);
        Bytes.put16be(f, ip + 4, p.ipId);
        Bytes.put16be(f, ip + 6, 0x4000);        // DF
        f[ip + 8] = (byte) (p.ttl == 0 ? DEFAULT_TTL : p.ttl);
        f[ip + 9] = 17;
        Bytes.put16be(f, ip + 10, 0);
        Bytes.put32be(f, ip + 12, p.srcIpv4());
        Bytes.put32be(f, ip + 16, p.dstIpv4());
        Bytes.put16be(f, ip + 10, RoceDecoder.ipv4Checksum(f, ip, 20));
        // UDP
        final int udp = ip + 20;
        Bytes.put16be(f, udp, p.udpSrcPort);
        Bytes.put16be(f, udp + 2, RoceDecoder.ROCE_V2_PORT);
        Bytes.put16be(f, udp + 4, udpLength);
        Bytes.put16be(f, udp + 6, 0);
        // BTH
        final int bth = udp + 8;
        f[bth] = (byte) p.opcode;
        f[bth + 1] = (byte) ((p.solicitedEvent ? 0x80 : 0) | (p.migReq ? 0x40 : 0) | pad << 4 | p.tver);
        Bytes.put16be(f, bth + 2, p.pkey);
        f[bth + 4] = (byte) ((p.fecn ? 0x80 : 0) | (p.becn ? 0x40 : 0));
        Bytes.put24be(f, bth + 5, p.destQp);
        f[bth + 8] = (byte) (p.ackReq ? 0x80 : 0);
        Bytes.put24be(f, bth + 9, p.psn);
        final int extAt = bth + 12;
        Arrays.fill(f, extAt, extAt + ext + payload + pad, (byte) 0);
        if ((layout & IbOpcodes.DETH) != 0) {
            final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.DETH);
            Bytes.put32be(f, at, p.dethQkey);
            Bytes.put24be(f, at + 5, p.dethSrcQp);
        }
        if ((layout & IbOpcodes.RETH) != 0) {
            final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.RETH);
            Bytes.put64be(f, at, p.rethVa);
            Bytes.put32be(f, at + 8, p.rethRkey);
            Bytes.put32be(f, at + 12, (int) p.rethDmaLength);
        }
        if ((layout & IbOpcodes.AETH) != 0) {
            final int at = extAt + IbOpcodes.offset(layout, IbOpcodes.AETH);
            f[at] = (byte) p.aethSyndrome;
            Bytes.put24be(f, at + 1, p.aethMsn);
        }
        if ((layout & (IbOpcodes.IMM | IbOpcodes.IETH)) != 0) {
            Bytes.put32be(f, extAt + IbOpcodes.offset(layout, IbOpcodes.IMM), p.immData);
        }
        pos = extAt + ext + payload + pad;
        Icrc.write(f, pos, icrc.roceV2Ipv4(f, ip, 20, pos));
        pos += Icrc.ICRC_BYTES;
        if (pos < minFrameBytes) {
            Arrays.fill(f, pos, minFrameBytes, (byte) 0);
            pos = minFrameBytes;
        }
        writeFrame(timePs, pos);
    }

    /** IP protocol number of the IFA header in {@link #writeIfa2Probe} (253, RFC 3692 experimental). */
    public static final int IFA2_IP_PROTOCOL = 253;

    /**
     * Writes one IFA2 probe as nicsim models it (DOCA PCC fact sheet Addendum B.2; firmware/ABI.md section 9):
     * Ethernet (802.1Q tag with PCP = {@code pcp}), IPv4 (protocol {@link #IFA2_IP_PROTOCOL}, DF, TTL 64 minus the
     * records), the IFA header (version 2, GNS, next header UDP, no flags, Max Length {@code 8 x maxRecords}), UDP
     * to 4791 (its length covering UDP, a 24-byte MAD header of zeros and the 4-byte send timestamp only: the
     * metadata is foreign to L4), the metadata header (request and action vectors 0, Hop Limit, Current Length
     * {@code 8 x recordCount}), the records newest first, the MAD header and the send timestamp, big-endian.
     *
     * @param timePs      when the frame was seen, ps after {@code baseEpochNs}, &gt;= 0
     * @param dstMac      destination MAC, 48 bits
     * @param srcMac      source MAC, 48 bits
     * @param pcp         802.1Q priority, 0..7
     * @param srcIpv4     source IPv4 address
     * @param dstIpv4     destination IPv4 address
     * @param dscp        0..63
     * @param ecn         0..3
     * @param udpSrcPort  0..65535
     * @param gns         the IFA header's GNS, 0..15
     * @param hopLimit    the metadata header's Hop Limit, 0..255
     * @param records     the records in insertion order, 4 longs each (eight record bytes big-endian); may be null when none
     * @param recordCount 0..maxRecords
     * @param maxRecords  the stack's room in records, 1..7 (Max Length = 8 x this, 4-octet units)
     * @param sendNs      the probe's send timestamp, ns
     * @throws IllegalArgumentException if a field is out of range (named in the message)
     * @throws UncheckedIOException     on an I/O failure
     */
    public void writeIfa2Probe(final long timePs, final long dstMac, final long srcMac, final int pcp, final int srcIpv4,
                               final int dstIpv4, final int dscp, final int ecn, final int udpSrcPort, final int gns,
                               final int hopLimit, final long[] records, final int recordCount, final int maxRecords,
                               final int sendNs) {
        check(pcp >= 0 && pcp <= 7, "pcp", "0..7", pcp);
        check(dscp >= 0 && dscp <= 63, "dscp", "0..63", dscp);
        check(ecn >= 0 && ecn <= 3, "ecn", "0..3", ecn);
        check(udpSrcPort >= 0 && udpSrcPort <= 0xFFFF, "udpSrcPort", "0..65535", udpSrcPort);
        check(gns >= 0 && gns <= 15, "gns", "0..15", gns);
        check(hopLimit >= 0 && hopLimit <= 255, "hopLimit", "0..255", hopLimit);
        check(maxRecords >= 1 && maxRecords <= 7, "maxRecords", "1..7", maxRecords);
        check(recordCount >= 0 && recordCount <= maxRecords && (recordCount == 0 || records != null
            && records.length >= 4 * recordCount), "recordCount", "0..maxRecords with 4 longs each", recordCount);
        checkTime(timePs);
        final byte[] f = frame;
        final int ip = ethernet(f, dstMac, srcMac, 0, pcp, RoceDecoder.ETHERTYPE_IPV4);
        final int l4Bytes = 8 + 24 + 4;
        final int totalLength = 20 + 4 + l4Bytes + 4 + 32 * recordCount;
        Arrays.fill(f, ip, ip + totalLength, (byte) 0);
        f[ip] = 0x45;
        f[ip + 1] = (byte) (dscp << 2 | ecn);
        Bytes.put16be(f, ip + 2, totalLength);
        Bytes.put16be(f, ip + 6, 0x4000);
        f[ip + 8] = (byte) (DEFAULT_TTL - recordCount);
        f[ip + 9] = (byte) IFA2_IP_PROTOCOL;
        Bytes.put32be(f, ip + 12, srcIpv4);
        Bytes.put32be(f, ip + 16, dstIpv4);
        Bytes.put16be(f, ip + 10, RoceDecoder.ipv4Checksum(f, ip, 20));
        final int ifa = ip + 20;
        f[ifa] = (byte) (0x20 | gns);
        f[ifa + 1] = 17;
        f[ifa + 3] = (byte) (8 * maxRecords);
        final int udp = ifa + 4;
        Bytes.put16be(f, udp, udpSrcPort);
        Bytes.put16be(f, udp + 2, RoceDecoder.ROCE_V2_PORT);
        Bytes.put16be(f, udp + 4, l4Bytes);
        final int md = udp + 8;
        f[md + 2] = (byte) hopLimit;
        f[md + 3] = (byte) (8 * recordCount);
        int pos = md + 4;
        for (int k = recordCount - 1; k >= 0; k--) {
            for (int w = 0; w < 4; w++) {
                Bytes.put64be(f, pos, records[4 * k + w]);
                pos += 8;
            }
        }
        pos += 24;
        Bytes.put32be(f, pos, sendNs);
        writeFrame(timePs, pos + 4);
    }

    /**
     * Writes one PFC pause frame.
     *
     * @param timePs           when the frame was seen, ps after {@code baseEpochNs}, &gt;= 0
     * @param srcMac           source MAC address, 48 bits
     * @param priorityEnable   priority-enable vector, bit i = priority i, 0..255
     * @param quanta           pause quanta per priority (512 bit times each), 8 values 0..65535
     * @throws IllegalArgumentException if a value is out of range (named in the message)
     * @throws UncheckedIOException     on an I/O failure
     */
    public void writePfc(final long timePs, final long srcMac, final int priorityEnable, final int[] quanta) {
        check(priorityEnable >= 0 && priorityEnable <= 0xFF, "priorityEnable", "0..255", priorityEnable);
        check(quanta != null && quanta.length == 8, "quanta", "8 values", quanta == null ? -1 : quanta.length);
        for (int i = 0; i < 8; i++) {
            check(quanta[i] >= 0 && quanta[i] <= 0xFFFF, "quanta[" + i + "]", "0..65535", quanta[i]);
        }
        checkTime(timePs);
        final byte[] f = frame;
        int pos = ethernet(f, PFC_DESTINATION_MAC, srcMac, -1, -1, RoceDecoder.ETHERTYPE_MAC_CONTROL);
        Bytes.put16be(f, pos, RoceDecoder.MAC_CONTROL_PFC);
        Bytes.put16be(f, pos + 2, priorityEnable);
        for (int i = 0; i < 8; i++) {
            Bytes.put16be(f, pos + 4 + 2 * i, quanta[i]);
        }
        pos += 20;
        writeFrame(timePs, pos);
    }

    private static int ethernet(final byte[] f, final long dst, final long src, final int vlanId, final int pcp,
                                final int etherType) {
        Bytes.put48be(f, 0, dst);
        Bytes.put48be(f, 6, src);
        int pos = 12;
        if (vlanId >= 0 || pcp >= 0) {
            Bytes.put16be(f, pos, RoceDecoder.ETHERTYPE_VLAN);
            Bytes.put16be(f, pos + 2, Math.max(pcp, 0) << 13 | Math.max(vlanId, 0));
            pos += 4;
        }
        Bytes.put16be(f, pos, etherType);
        return pos + 2;
    }

    private void writeFrame(final long timePs, final int length) {
        int n = length;
        if (n < MIN_FRAME) {
            Arrays.fill(frame, n, MIN_FRAME, (byte) 0);
            n = MIN_FRAME;
        }
        final long ns = baseEpochNs + timePs / Units.PS_PER_NS;
        Bytes.put32le(record, 0, (int) (ns / 1_000_000_000L));
        Bytes.put32le(record, 4, (int) (ns % 1_000_000_000L));
        Bytes.put32le(record, 8, n);
        Bytes.put32le(record, 12, n);
        try {
            out.write(record, 0, 16);
            out.write(frame, 0, n);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write a pcap record: " + e.getMessage(), e);
        }
    }

    private void checkTime(final long timePs) {
        if (closed) {
            throw new IllegalStateException("the pcap writer is closed");
        }
        check(timePs >= 0 && timePs / Units.PS_PER_NS < MAX_EPOCH_NS - baseEpochNs, "timePs",
            "a time after baseEpochNs that fits the 32-bit pcap seconds field", timePs);
    }

    private static void check(final boolean ok, final String field, final String expected, final long got) {
        if (!ok) {
            throw new IllegalArgumentException(field + ": expected " + expected + ", got " + got);
        }
    }

    /**
     * Flushes buffered frames to the stream.
     *
     * @throws UncheckedIOException on an I/O failure
     */
    public void flush() {
        try {
            out.flush();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot flush the pcap file: " + e.getMessage(), e);
        }
    }

    /**
     * Flushes and closes the stream; further writes throw {@link IllegalStateException}.
     *
     * @throws UncheckedIOException on an I/O failure
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close the pcap file: " + e.getMessage(), e);
        }
    }
}
