package dev.nicsim.traces;

import java.util.zip.CRC32;

/**
 * Invariant CRC (ICRC) and variant CRC (VCRC) of InfiniBand, RoCEv1 and RoCEv2 packets.
 *
 * <h2>ICRC (IBTA Vol. 1 §7.8.1; Annex A16 §A16.4 RoCEv1; Annex A17 §A17.3.3 RoCEv2)</h2>
 * CRC-32 with the Ethernet polynomial (0x04C11DB7, reflected, initial value 0xFFFFFFFF, final
 * complement; {@link CRC32}) over the packet from the start of the routing headers to the end of
 * the payload (including the pad bytes), with the fields a router or switch may change replaced by
 * ones:
 * <ul>
 *   <li>native IB without GRH (LNH = IBA local): the LRH with its VL field masked;</li>
 *   <li>native IB with GRH (LNH = IBA global), RoCEv1 and RoCEv2: 8 bytes of ones in place of the
 *       LRH;</li>
 *   <li>GRH / IPv6: traffic class, flow label and hop limit;</li>
 *   <li>IPv4: type of service (DSCP+ECN), time to live and header checksum;</li>
 *   <li>UDP: checksum;</li>
 *   <li>BTH: the resv8a byte (FECN, BECN and 6 reserved bits).</li>
 * </ul>
 * The ICRC is the 4 bytes before the end of the transport packet (before the VCRC on native IB),
 * stored least significant byte first (as Linux rxe and the IB link layer do); {@link #read} returns
 * it as the CRC value to compare with.
 *
 * <h2>VCRC (IBTA Vol. 1 §7.8.2)</h2>
 * CRC-16 with polynomial 0x100B, reflected, initial value 0xFFFF, final complement, over the whole
 * packet from the LRH to the end of the ICRC; stored least significant byte first.
 *
 * <p>Allocation: none (one reused {@link CRC32} and scratch array). Thread-safety: not
 * thread-safe; one instance per thread.
 */
public final class Icrc {
    /** Bytes of the ICRC. */
    public static final int ICRC_BYTES = 4;
    /** Bytes of the VCRC (native IB only). */
    public static final int VCRC_BYTES = 2;

    private static final byte[] ONES = {-1, -1, -1, -1, -1, -1, -1, -1};
    private static final int[] VCRC_TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xD008 : c >>> 1; // 0xD008 = 0x100B reflected
            }
            VCRC_TABLE[i] = c;
        }
    }

    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[96];

    /** Creates a calculator. */
    public Icrc() {
    }

    /**
     * ICRC of a RoCEv2 packet over IPv4.
     *
     * @param d          packet bytes
     * @param ipOffset   offset of the IPv4 header
     * @param ihlBytes   IPv4 header length in bytes (IHL x 4), 20..60
     * @param icrcOffset offset of the ICRC (end of the payload and pad)
     * @return the CRC the packet's ICRC field should hold
     */
    public int roceV2Ipv4(final byte[] d, final int ipOffset, final int ihlBytes, final int icrcOffset) {
        final int headers = ihlBytes + 8 + 12; // IPv4 + UDP + BTH
        System.arraycopy(d, ipOffset, scratch, 0, headers);
        scratch[1] = -1;                         // TOS: DSCP + ECN
        scratch[8] = -1;                         // TTL
        scratch[10] = -1;                        // header checksum
        scratch[11] = -1;
        scratch[ihlBytes + 6] = -1;              // UDP checksum
        scratch[ihlBytes + 7] = -1;
        scratch[ihlBytes + 8 + 4] = -1;          // BTH resv8a (FECN, BECN)
        return finish(scratch, headers, d, ipOffset + headers, icrcOffset);
    }

    /**
     * ICRC of a RoCEv2 packet over IPv6.
     *
     * @param d          packet bytes
     * @param ipOffset   offset of the IPv6 header (40 bytes, UDP follows directly)
     * @param icrcOffset offset of the ICRC
     * @return the CRC the packet's ICRC field should hold
     */
    public int roceV2Ipv6(final byte[] d, final int ipOffset, final int icrcOffset) {
        final int headers = 40 + 8 + 12;
        System.arraycopy(d, ipOffset, scratch, 0, headers);
        maskGrh(scratch, 0);
        scratch[46] = -1;                        // UDP checksum
        scratch[47] = -1;
        scratch[48 + 4] = -1;                    // BTH resv8a
        return finish(scratch, headers, d, ipOffset + headers, icrcOffset);
    }

    /**
     * ICRC of a RoCEv1 packet (GRH, then BTH) or of a native IB packet with a GRH (pass the GRH's
     * offset; the LRH counts as 8 bytes of ones either way).
     *
     * @param d          packet bytes
     * @param grhOffset  offset of the GRH (40 bytes, BTH follows)
     * @param icrcOffset offset of the ICRC
     * @return the CRC the packet's ICRC field should hold
     */
    public int grh(final byte[] d, final int grhOffset, final int icrcOffset) {
        final int headers = 40 + 12;
        System.arraycopy(d, grhOffset, scratch, 0, headers);
        maskGrh(scratch, 0);
        scratch[40 + 4] = -1;                    // BTH resv8a
        return finish(scratch, headers, d, grhOffset + headers, icrcOffset);
    }

    /**
     * ICRC of a native IB packet without GRH (LNH = IBA local): the LRH with VL masked.
     *
     * @param d          packet bytes
     * @param lrhOffset  offset of the LRH (8 bytes, BTH follows)
     * @param icrcOffset offset of the ICRC
     * @return the CRC the packet's ICRC field should hold
     */
    public int ibLocal(final byte[] d, final int lrhOffset, final int icrcOffset) {
        final int headers = 8 + 12;
        System.arraycopy(d, lrhOffset, scratch, 0, headers);
        scratch[0] |= (byte) 0xF0;               // VL
        scratch[8 + 4] = -1;                     // BTH resv8a
        crc.reset();
        crc.update(scratch, 0, headers);
        crc.update(d, lrhOffset + headers, icrcOffset - lrhOffset - headers);
        return (int) crc.getValue();
    }

    private static void maskGrh(final byte[] h, final int o) {
        h[o] |= 0x0F;                            // traffic class, high nibble
        h[o + 1] = -1;                           // traffic class low nibble + flow label
        h[o + 2] = -1;
        h[o + 3] = -1;
        h[o + 7] = -1;                           // hop limit
    }

    private int finish(final byte[] headers, final int headerBytes, final byte[] d, final int restOffset,
                       final int icrcOffset) {
        crc.reset();
        crc.update(ONES, 0, 8);                  // masked LRH
        crc.update(headers, 0, headerBytes);
        crc.update(d, restOffset, icrcOffset - restOffset);
        return (int) crc.getValue();
    }

    /**
     * Reads a stored ICRC.
     *
     * @param d          packet bytes
     * @param icrcOffset offset of the ICRC
     * @return the stored value (least significant byte first on the wire)
     */
    public static int read(final byte[] d, final int icrcOffset) {
        return Bytes.i32le(d, icrcOffset);
    }

    /**
     * Stores an ICRC.
     *
     * @param d          packet bytes
     * @param icrcOffset offset of the ICRC
     * @param icrc       the value from one of the calculators
     */
    public static void write(final byte[] d, final int icrcOffset, final int icrc) {
        Bytes.put32le(d, icrcOffset, icrc);
    }

    /**
     * VCRC of a native IB packet.
     *
     * @param d      packet bytes
     * @param offset offset of the LRH
     * @param length bytes from the LRH through the ICRC (LRH PktLen x 4)
     * @return the 16-bit CRC the VCRC field (read least significant byte first) should hold
     */
    public static int vcrc(final byte[] d, final int offset, final int length) {
        int c = 0xFFFF;
        for (int i = offset; i < offset + length; i++) {
            c = (c >>> 8) ^ VCRC_TABLE[(c ^ d[i]) & 0xFF];
        }
        return c ^ 0xFFFF;
    }
}
