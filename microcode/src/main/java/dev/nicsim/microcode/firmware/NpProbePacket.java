package dev.nicsim.microcode.firmware;

import java.util.Arrays;

import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_HEADER_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_IP_PROTOCOL;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_L4_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_MAX_RECORDS;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_METADATA_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.IFA2_RECORDS_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.L4_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.PAYLOAD_OFFSET;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.REQUEST_BYTES;
import static dev.nicsim.microcode.firmware.FirmwareNotificationPoint.ROCE_V2_UDP_PORT;

/**
 * The RTT probe packets an NP program's {@code doca_pcc_dev_np_user_packet_handler} reads, byte for
 * byte: the CCMAD probe of firmware/ABI.md section 9 and the IFA2 probe of the DOCA PCC fact sheet
 * Addendum B.2. Ethernet addresses are locally administered MACs {@code 02:00:00:hh:hh:hh} of the
 * host ids, IPv4 addresses {@code 10.x.y.z} of them; multi-byte fields big-endian.
 *
 * <p>Allocation-free. Thread-safety: stateless.
 */
final class NpProbePacket {
    private NpProbePacket() {
    }

    /**
     * Writes an IFA2 probe (Addendum B.2): Ethernet, IPv4 (protocol {@link FirmwareNotificationPoint#IFA2_IP_PROTOCOL},
     * TTL 64 less one per inserting hop), IFA header, UDP, metadata header, records newest first, MAD header
     * (zeros), send timestamp.
     *
     * @param b             receives the probe, at least {@link FirmwareNotificationPoint#MAX_REQUEST_BYTES}
     * @param requestSendNs the requester's send timestamp, ns (32 bits)
     * @param srcHost       requester host id
     * @param dstHost       responder host id
     * @param udpSrcPort    UDP source port
     * @param dscp          DSCP, 0..63
     * @param ecn           ECN codepoint, 0..3
     * @param hopLimit      the metadata header's Hop Limit, 0..255
     * @param gns           the IFA header's GNS, 0..15
     * @param records       the records oldest first, 4 longs of 8 bytes big-endian each
     * @param recordCount   records, 0..{@link FirmwareNotificationPoint#IFA2_MAX_RECORDS}
     * @return the probe's length, bytes
     */
    static int writeIfa2(final byte[] b, final int requestSendNs, final int srcHost, final int dstHost, final int udpSrcPort,
                         final int dscp, final int ecn, final int hopLimit, final int gns, final long[] records,
                         final int recordCount) {
        final int total = REQUEST_BYTES + 8 + 32 * recordCount;
        // each inserting hop decrements TTL
        ethernetIpv4(b, total, srcHost, dstHost, dscp, ecn, Math.max(0, 64 - recordCount), IFA2_IP_PROTOCOL);
        // IFA header: version 2 | GNS, next header UDP, no flags, Max Length in 4-octet units
        b[IFA2_HEADER_OFFSET] = (byte) (0x20 | (gns & 0xF));
        b[IFA2_HEADER_OFFSET + 1] = 17;
        b[IFA2_HEADER_OFFSET + 3] = (byte) (IFA2_MAX_RECORDS * 8);
        // UDP: its length covers UDP, MAD header and payload only (the metadata is foreign to L4)
        be16(b, IFA2_L4_OFFSET, udpSrcPort);
        be16(b, IFA2_L4_OFFSET + 2, ROCE_V2_UDP_PORT);
        be16(b, IFA2_L4_OFFSET + 4, REQUEST_BYTES - L4_OFFSET);
        // metadata header: request vector 0, action vector 0, Hop Limit, Current Length
        b[IFA2_METADATA_OFFSET + 2] = (byte) hopLimit;
        b[IFA2_METADATA_OFFSET + 3] = (byte) (8 * recordCount);
        for (int k = 0; k < recordCount; k++) { // newest (last inserted) first
            final int src = (recordCount - 1 - k) * 4;
            final int at = IFA2_RECORDS_OFFSET + 32 * k;
            for (int w = 0; w < 4; w++) {
                be64(b, at + 8 * w, records[src + w]);
            }
        }
        be32(b, total - 4, requestSendNs);
        return total;
    }

    /**
     * Writes a CCMAD probe as firmware/ABI.md section 9 lays it out: Ethernet, IPv4, UDP, MAD header
     * (zeros), send timestamp.
     *
     * @param b             receives the probe, at least {@link FirmwareNotificationPoint#REQUEST_BYTES}
     * @param requestSendNs the requester's send timestamp, ns (32 bits)
     * @param srcHost       requester host id
     * @param dstHost       responder host id
     * @param udpSrcPort    UDP source port
     * @param dscp          DSCP, 0..63
     * @param ecn           ECN codepoint, 0..3
     * @return the probe's length, {@link FirmwareNotificationPoint#REQUEST_BYTES} bytes
     */
    static int writeCcmad(final byte[] b, final int requestSendNs, final int srcHost, final int dstHost, final int udpSrcPort,
                          final int dscp, final int ecn) {
        ethernetIpv4(b, REQUEST_BYTES, srcHost, dstHost, dscp, ecn, 64, 17);
        // UDP: source port (flow entropy), RoCEv2 port, length, no checksum
        be16(b, L4_OFFSET, udpSrcPort);
        be16(b, L4_OFFSET + 2, ROCE_V2_UDP_PORT);
        be16(b, L4_OFFSET + 4, REQUEST_BYTES - L4_OFFSET);
        // MAD header (24 bytes at 42): zeros, the CCMAD layout is not established (fact sheet A.12)
        be32(b, PAYLOAD_OFFSET, requestSendNs);
        return REQUEST_BYTES;
    }

    /**
     * Zeros the frame and writes its Ethernet header (locally administered MACs 02:00:00:hh:hh:hh of
     * the host ids, EtherType IPv4) and IPv4 header (version 4, IHL 5, DSCP/ECN, total length, DF,
     * TTL, protocol, checksum, 10.x.y.z addresses).
     */
    private static void ethernetIpv4(final byte[] b, final int frameBytes, final int srcHost, final int dstHost,
                                     final int dscp, final int ecn, final int ttl, final int protocol) {
        Arrays.fill(b, 0, frameBytes, (byte) 0);
        mac(b, 0, dstHost);
        mac(b, 6, srcHost);
        be16(b, 12, 0x0800);
        b[14] = 0x45;
        b[15] = (byte) ((dscp & 0x3F) << 2 | (ecn & 3));
        be16(b, 16, frameBytes - 14);
        be16(b, 20, 0x4000);
        b[22] = (byte) ttl;
        b[23] = (byte) protocol;
        be32(b, 26, 0x0A00_0000 | (srcHost & 0xFF_FFFF));
        be32(b, 30, 0x0A00_0000 | (dstHost & 0xFF_FFFF));
        be16(b, 24, ipv4Checksum(b));
    }

    private static void mac(final byte[] b, final int at, final int host) {
        b[at] = 0x02;
        b[at + 3] = (byte) (host >>> 16);
        b[at + 4] = (byte) (host >>> 8);
        b[at + 5] = (byte) host;
    }

    private static void be16(final byte[] b, final int at, final int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private static void be64(final byte[] b, final int at, final long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    /** The IPv4 header checksum of bytes 14..33 (the checksum field zero). */
    private static int ipv4Checksum(final byte[] b) {
        int sum = 0;
        for (int i = 14; i < 34; i += 2) {
            sum += (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }

    private static void be32(final byte[] b, final int at, final int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
