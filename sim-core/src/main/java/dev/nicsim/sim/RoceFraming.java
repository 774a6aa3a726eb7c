package dev.nicsim.sim;

/**
 * RoCEv2 frame sizes in bytes, as they appear on the wire (IBTA Annex A17, RoCEv2): Ethernet II
 * header and FCS, IPv4, UDP (destination port 4791), BTH, optional RETH/AETH, payload and ICRC.
 * Serialisation adds the preamble, start-of-frame delimiter and minimum inter-frame gap.
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class RoceFraming {
    /** Ethernet II header (dst MAC, src MAC, EtherType), bytes. */
    public static final int ETH_HEADER_BYTES = 14;
    /** 802.1Q tag carrying the PCP priority, bytes. */
    public static final int VLAN_TAG_BYTES = 4;
    /** Ethernet frame check sequence, bytes. */
    public static final int ETH_FCS_BYTES = 4;
    /** Preamble + SFD (8) + inter-frame gap (12), bytes of line time per frame. */
    public static final int PREAMBLE_IFG_BYTES = 20;
    /** Minimum Ethernet frame without preamble, bytes. */
    public static final int MIN_FRAME_BYTES = 64;
    /** IPv4 header without options, bytes. */
    public static final int IPV4_BYTES = 20;
    /** UDP header, bytes. */
    public static final int UDP_BYTES = 8;
    /** InfiniBand base transport header, bytes. */
    public static final int BTH_BYTES = 12;
    /** RDMA extended transport header (WRITE first/only, READ request), bytes. */
    public static final int RETH_BYTES = 16;
    /** ACK extended transport header (ACK, NAK, READ response first/last/only), bytes. */
    public static final int AETH_BYTES = 4;
    /** Invariant CRC, bytes. */
    public static final int ICRC_BYTES = 4;
    /** Reserved payload of a RoCEv2 CNP, bytes. */
    public static final int CNP_PAYLOAD_BYTES = 16;
    /** UDP destination port of RoCEv2. */
    public static final int ROCEV2_UDP_PORT = 4791;
    /** Headers of every RoCEv2 packet around the payload: Eth+VLAN+IPv4+UDP+BTH+ICRC+FCS = 66 bytes. */
    public static final int ROCEV2_OVERHEAD_BYTES =
        ETH_HEADER_BYTES + VLAN_TAG_BYTES + IPV4_BYTES + UDP_BYTES + BTH_BYTES + ICRC_BYTES + ETH_FCS_BYTES;
    /** A PFC (MAC control, EtherType 0x8808, opcode 0x0101) frame: minimum frame, bytes. */
    public static final int PFC_FRAME_BYTES = MIN_FRAME_BYTES;
    /** Bit times in one PFC pause quantum (IEEE 802.1Qbb). */
    public static final int PFC_QUANTUM_BITS = 512;

    private RoceFraming() {
    }

    /**
     * Frame size of a RoCEv2 packet.
     *
     * @param payloadBytes   payload bytes, non-negative
     * @param extHeaderBytes extension headers (RETH, AETH) bytes
     * @return frame bytes (without preamble/IFG), at least {@link #MIN_FRAME_BYTES}
     */
    public static int frameBytes(final int payloadBytes, final int extHeaderBytes) {
        return Math.max(MIN_FRAME_BYTES, ROCEV2_OVERHEAD_BYTES + extHeaderBytes + payloadBytes);
    }

    /**
     * Time to serialise a frame on a link, including preamble and inter-frame gap.
     *
     * @param frameBytes     frame bytes
     * @param rateBitsPerSec link rate, bits/s, positive
     * @return serialisation time, ps, rounded up
     */
    public static long serializationPs(final int frameBytes, final long rateBitsPerSec) {
        final long bits = (long) (frameBytes + PREAMBLE_IFG_BYTES) * 8L;
        return (bits * 1_000_000_000_000L + rateBitsPerSec - 1) / rateBitsPerSec;
    }

    /**
     * Picoseconds per byte on the wire when that is a whole number, so that
     * {@code (frameBytes + 20) x psPerByte} is exactly {@link #serializationPs} without a division
     * (a link does this for every frame): 80 at 100 Gb/s, 20 at 400 Gb/s, 320 at 25 Gb/s.
     *
     * @param rateBitsPerSec link rate, bits/s, positive
     * @return {@code 8 x 10^12 / rate} if the rate divides {@code 8 x 10^12}, else 0 (no exact
     *         per-byte time: use {@link #serializationPs})
     */
    public static long exactPsPerByte(final long rateBitsPerSec) {
        return 8_000_000_000_000L % rateBitsPerSec == 0 ? 8_000_000_000_000L / rateBitsPerSec : 0;
    }

    /**
     * {@link #serializationPs}, with a link's {@link #exactPsPerByte} when it has one.
     *
     * @param frameBytes     frame bytes
     * @param rateBitsPerSec link rate, bits/s, positive
     * @param psPerByte      {@code exactPsPerByte(rateBitsPerSec)}
     * @return serialisation time, ps, rounded up
     */
    public static long serializationPs(final int frameBytes, final long rateBitsPerSec, final long psPerByte) {
        return psPerByte != 0 ? (frameBytes + PREAMBLE_IFG_BYTES) * psPerByte : serializationPs(frameBytes, rateBitsPerSec);
    }

    /**
     * Duration of a PFC pause.
     *
     * @param quanta         pause quanta, 0..65535
     * @param rateBitsPerSec link rate, bits/s
     * @return pause time, ps, rounded down (exact for rates up to 9.2 Tb/s)
     */
    public static long pauseDurationPs(final int quanta, final long rateBitsPerSec) {
        // quanta x 512 x 1e12 overflows a long above ~18 000 quanta: split the 1e12 into 1e6 x 1e6.
        final long bitsTimes1e6 = (long) quanta * PFC_QUANTUM_BITS * 1_000_000L;
        return bitsTimes1e6 / rateBitsPerSec * 1_000_000L + bitsTimes1e6 % rateBitsPerSec * 1_000_000L / rateBitsPerSec;
    }
}
