package dev.nicsim.traces;

import java.util.Arrays;

/**
 * One decoded captured frame: a RoCEv2/RoCEv1/native-IB transport packet, a pause frame, or a
 * skipped frame with the reason. Reused for every packet ({@link #clear()}); fields are public for
 * the decode path's speed, as in the simulator's {@code Packet}. The same holder gives
 * {@link PcapWriter} its field values.
 *
 * <p>Header fields carry their wire meaning (IBTA Vol. 1 §9.2 BTH, §9.3 extension headers; RFC 791 /
 * 8200 IP; RFC 3168 ECN). Addresses are two longs: an IPv6 address or GID as its high and low 64
 * bits; an IPv4 address as the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d} (hi 0, lo
 * {@code 0xFFFF_xxxxxxxx}); an InfiniBand LID as hi {@link #LID_TAG}, lo the 16-bit LID.
 *
 * <p>Thread-safety: not thread-safe; owned by one decoder or writer.
 */
public final class RocePacket {
    /** Kind: skipped, see {@link #skipReason}. */
    public static final int KIND_SKIPPED = 0;
    /** Kind: an InfiniBand transport packet (BTH decoded) carried as RoCEv2, RoCEv1 or native IB. */
    public static final int KIND_ROCE = 1;
    /** Kind: MAC control pause frame (EtherType 0x8808): PFC (opcode 0x0101) or 802.3x PAUSE (0x0001). */
    public static final int KIND_PAUSE = 2;

    /** Encapsulation: RoCEv2 (IP/UDP destination port 4791). */
    public static final int ENCAP_ROCE_V2 = 2;
    /** Encapsulation: RoCEv1 (EtherType 0x8915, GRH). */
    public static final int ENCAP_ROCE_V1 = 1;
    /** Encapsulation: native InfiniBand (LRH, optional GRH). */
    public static final int ENCAP_IB = 3;

    /** ICRC status: not checked, because the packet is cut by the snap length before its end. */
    public static final int CRC_NOT_CHECKED = 0;
    /** ICRC status: the stored CRC equals the computed one. */
    public static final int CRC_OK = 1;
    /** ICRC status: the stored CRC differs. */
    public static final int CRC_BAD = 2;

    /** AETH syndrome class: ACK (0b00x_xxxxx); {@link #aethValue} is the credit count code. */
    public static final int AETH_ACK = 0;
    /** AETH syndrome class: RNR NAK (0b01x_xxxxx); {@link #aethValue} is the RNR timer code. */
    public static final int AETH_RNR_NAK = 1;
    /** AETH syndrome class: reserved (0b10x_xxxxx). */
    public static final int AETH_RESERVED = 2;
    /** AETH syndrome class: NAK (0b11x_xxxxx); {@link #aethValue} is the NAK code. */
    public static final int AETH_NAK = 3;

    /** NAK code 0: PSN sequence error. */
    public static final int NAK_PSN_SEQUENCE_ERROR = 0;
    /** NAK code 1: invalid request. */
    public static final int NAK_INVALID_REQUEST = 1;
    /** NAK code 2: remote access error. */
    public static final int NAK_REMOTE_ACCESS_ERROR = 2;
    /** NAK code 3: remote operational error. */
    public static final int NAK_REMOTE_OPERATIONAL_ERROR = 3;
    /** NAK code 4: invalid RD request. */
    public static final int NAK_INVALID_RD_REQUEST = 4;

    /** High word marking an address as an InfiniBand LID. */
    public static final long LID_TAG = 0x4C49_4400_0000_0000L;
    /** Low-word prefix of an IPv4-mapped address ({@code ::ffff:0:0/96}). */
    public static final long IPV4_MAPPED = 0x0000_FFFF_0000_0000L;

    // ---- capture metadata
    /** 1-based packet number in the capture. */
    public long packetNumber;
    /** Capture timestamp, ns since the Unix epoch (the ERF record's own timestamp for ERF). */
    public long timeNs;
    /** pcapng interface id (0 for pcap). */
    public int interfaceId;
    /** Link type the frame was decoded as ({@link LinkTypes}). */
    public int linkType;
    /** Bytes captured (after the snap length cut). */
    public int capturedBytes;
    /** Bytes on the wire as the capture records them (original length). */
    public int wireBytes;

    // ---- outcome
    /** {@link #KIND_SKIPPED}, {@link #KIND_ROCE} or {@link #KIND_PAUSE}. */
    public int kind;
    /** Why the frame was skipped ({@link SkipReasons}); {@link SkipReasons#NONE} otherwise. */
    public int skipReason;
    /** For {@link SkipReasons#MALFORMED} and {@link SkipReasons#CUT_BY_SNAPLEN}: what is wrong, one line. */
    public String problem;
    /** {@link #ENCAP_ROCE_V2}, {@link #ENCAP_ROCE_V1} or {@link #ENCAP_IB}; 0 when not a transport packet. */
    public int encapsulation;

    // ---- Ethernet
    /** Destination MAC address, 48 bits. */
    public long dstMac;
    /** Source MAC address, 48 bits. */
    public long srcMac;
    /** Number of 802.1Q/802.1ad tags, 0..2 counted. */
    public int vlanTags;
    /** VLAN id of the outer tag, 0..4095; -1 when untagged. */
    public int vlanId;
    /** Priority code point of the outer tag, 0..7; -1 when untagged. */
    public int pcp;

    // ---- IP / GRH
    /** 4, 6, or 0 (native IB without GRH). RoCEv1 GRHs report 6. */
    public int ipVersion;
    /** Source address, high 64 bits (see the class comment). */
    public long srcAddrHi;
    /** Source address, low 64 bits. */
    public long srcAddrLo;
    /** Destination address, high 64 bits. */
    public long dstAddrHi;
    /** Destination address, low 64 bits. */
    public long dstAddrLo;
    /** DSCP, 0..63 (IPv4 TOS or IPv6/GRH traffic class, upper 6 bits); 0 when absent. */
    public int dscp;
    /** ECN codepoint, 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE; 0 when absent. */
    public int ecn;
    /** IPv4 TTL or IPv6/GRH hop limit; 0 when absent. */
    public int ttl;
    /** IPv4 identification (for writing; decoded too). */
    public int ipId;
    /** IPv6/GRH flow label, 20 bits. */
    public int flowLabel;
    /** Whether the IPv4 header checksum is correct (true for IPv6 and IB, which have none). */
    public boolean ipChecksumOk;
    /** UDP source port (RoCEv2 flow entropy; any value). */
    public int udpSrcPort;
    /** UDP destination port (4791 for RoCEv2). */
    public int udpDstPort;

    // ---- native IB LRH
    /** LRH virtual lane, 0..15; -1 without LRH. */
    public int vl;
    /** LRH service level, 0..15; -1 without LRH. */
    public int sl;
    /** LRH destination LID; -1 without LRH. */
    public int dlid;
    /** LRH source LID; -1 without LRH. */
    public int slid;

    // ---- BTH
    /** BTH opcode, 0..255. */
    public int opcode;
    /** BTH solicited event bit. */
    public boolean solicitedEvent;
    /** BTH MigReq bit. */
    public boolean migReq;
    /** BTH pad count, 0..3. */
    public int padCount;
    /** BTH transport header version, 0..15 (0 for IBTA 1.x). */
    public int tver;
    /** BTH partition key. */
    public int pkey;
    /** BTH FECN bit (forward explicit congestion notification). */
    public boolean fecn;
    /** BTH BECN bit (backward explicit congestion notification; set on CNPs). */
    public boolean becn;
    /** BTH destination QP, 24 bits. */
    public int destQp;
    /** BTH AckReq bit. */
    public boolean ackReq;
    /** BTH PSN, 24 bits. */
    public int psn;

    // ---- extension headers
    /** Extension header layout of the opcode ({@link IbOpcodes#layout(int)}), {@link IbOpcodes#UNKNOWN} if unknown. */
    public int layout;
    /** RETH present. */
    public boolean hasReth;
    /** RETH virtual address. */
    public long rethVa;
    /** RETH R_Key. */
    public int rethRkey;
    /** RETH DMA length, bytes (unsigned 32 bits held in a long). */
    public long rethDmaLength;
    /** AETH present. */
    public boolean hasAeth;
    /** AETH syndrome byte, 0..255. */
    public int aethSyndrome;
    /** AETH syndrome class: {@link #AETH_ACK}, {@link #AETH_RNR_NAK}, {@link #AETH_NAK}, {@link #AETH_RESERVED}. */
    public int aethClass;
    /** Low 5 bits of the syndrome: credit count (ACK), RNR timer (RNR NAK) or NAK code (NAK). */
    public int aethValue;
    /** AETH message sequence number, 24 bits. */
    public int aethMsn;
    /** DETH present (UD). */
    public boolean hasDeth;
    /** DETH Q_Key. */
    public int dethQkey;
    /** DETH source QP, 24 bits. */
    public int dethSrcQp;
    /** Immediate data present. */
    public boolean hasImm;
    /** Immediate data. */
    public int immData;

    // ---- lengths and CRCs
    /** Payload bytes after the extension headers, without pad and ICRC (16 reserved bytes for a CNP). */
    public int payloadBytes;
    /** ICRC status: {@link #CRC_OK}, {@link #CRC_BAD} or {@link #CRC_NOT_CHECKED}. */
    public int icrcStatus;
    /** ICRC stored in the packet (valid unless {@link #CRC_NOT_CHECKED}). */
    public int icrcStored;
    /** ICRC computed over the packet (valid unless {@link #CRC_NOT_CHECKED}). */
    public int icrcComputed;
    /** VCRC status (native IB only; {@link #CRC_NOT_CHECKED} otherwise). */
    public int vcrcStatus;

    // ---- pause frames
    /** MAC control opcode: 0x0101 PFC or 0x0001 PAUSE. */
    public int pauseOpcode;
    /** PFC priority-enable vector, bits 0..7 = priorities 0..7 (0xFF for 802.3x PAUSE). */
    public int pfcClassEnable;
    /** Pause quanta per priority (512 bit times each); for 802.3x PAUSE all eight hold the one value. */
    public final int[] pauseQuanta = new int[8];

    /** Creates a cleared packet. */
    public RocePacket() {
        clear();
    }

    /** Resets every field to "absent" (kind skipped, no reason). */
    public void clear() {
        packetNumber = 0;
        timeNs = 0;
        interfaceId = 0;
        linkType = 0;
        capturedBytes = 0;
        wireBytes = 0;
        kind = KIND_SKIPPED;
        skipReason = SkipReasons.NONE;
        problem = null;
        encapsulation = 0;
        dstMac = 0;
        srcMac = 0;
        vlanTags = 0;
        vlanId = -1;
        pcp = -1;
        ipVersion = 0;
        srcAddrHi = 0;
        srcAddrLo = 0;
        dstAddrHi = 0;
        dstAddrLo = 0;
        dscp = 0;
        ecn = 0;
        ttl = 0;
        ipId = 0;
        flowLabel = 0;
        ipChecksumOk = true;
        udpSrcPort = 0;
        udpDstPort = 0;
        vl = -1;
        sl = -1;
        dlid = -1;
        slid = -1;
        opcode = 0;
        solicitedEvent = false;
        migReq = false;
        padCount = 0;
        tver = 0;
        pkey = 0;
        fecn = false;
        becn = false;
        destQp = 0;
        ackReq = false;
        psn = 0;
        layout = IbOpcodes.UNKNOWN;
        hasReth = false;
        rethVa = 0;
        rethRkey = 0;
        rethDmaLength = 0;
        hasAeth = false;
        aethSyndrome = 0;
        aethClass = 0;
        aethValue = 0;
        aethMsn = 0;
        hasDeth = false;
        dethQkey = 0;
        dethSrcQp = 0;
        hasImm = false;
        immData = 0;
        payloadBytes = 0;
        icrcStatus = CRC_NOT_CHECKED;
        icrcStored = 0;
        icrcComputed = 0;
        vcrcStatus = CRC_NOT_CHECKED;
        pauseOpcode = 0;
        pfcClassEnable = 0;
        Arrays.fill(pauseQuanta, 0);
    }

    /**
     * Sets the source address to an IPv4 address.
     *
     * @param ipv4 the address as a 32-bit big-endian value (e.g. {@code 0xC0A84105} = 192.168.65.5)
     * @return this
     */
    public RocePacket srcIpv4(final int ipv4) {
        srcAddrHi = 0;
        srcAddrLo = IPV4_MAPPED | (ipv4 & 0xFFFF_FFFFL);
        return this;
    }

    /**
     * Sets the destination address to an IPv4 address.
     *
     * @param ipv4 the address as a 32-bit big-endian value
     * @return this
     */
    public RocePacket dstIpv4(final int ipv4) {
        dstAddrHi = 0;
        dstAddrLo = IPV4_MAPPED | (ipv4 & 0xFFFF_FFFFL);
        return this;
    }

    /** @return the source IPv4 address as a 32-bit value (meaningful when {@link #ipVersion} is 4) */
    public int srcIpv4() {
        return (int) srcAddrLo;
    }

    /** @return the destination IPv4 address as a 32-bit value (meaningful when {@link #ipVersion} is 4) */
    public int dstIpv4() {
        return (int) dstAddrLo;
    }

    /**
     * Formats an address held as two longs, for messages and dumps (allocates).
     *
     * @param hi high 64 bits
     * @param lo low 64 bits
     * @return dotted IPv4, {@code lid:N}, or IPv6 in full hex groups
     */
    public static String formatAddress(final long hi, final long lo) {
        if (hi == 0 && (lo >>> 32) == 0xFFFFL) {
            return ((lo >>> 24) & 0xFF) + "." + ((lo >>> 16) & 0xFF) + "." + ((lo >>> 8) & 0xFF) + "." + (lo & 0xFF);
        }
        if (hi == LID_TAG) {
            return "lid:" + lo;
        }
        final StringBuilder b = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            final long w = i < 4 ? hi >>> (48 - 16 * i) : lo >>> (48 - 16 * (i - 4));
            if (i > 0) {
                b.append(':');
            }
            b.append(Long.toHexString(w & 0xFFFF));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        if (kind == KIND_SKIPPED) {
            return "RocePacket{#" + packetNumber + " skipped: " + SkipReasons.name(skipReason)
                + (problem != null ? " (" + problem + ")" : "") + "}";
        }
        if (kind == KIND_PAUSE) {
            return "RocePacket{#" + packetNumber + " pause opcode=0x" + Integer.toHexString(pauseOpcode)
                + " enable=0x" + Integer.toHexString(pfcClassEnable) + " quanta=" + Arrays.toString(pauseQuanta) + "}";
        }
        return "RocePacket{#" + packetNumber + " " + IbOpcodes.name(opcode) + " " + formatAddress(srcAddrHi, srcAddrLo)
            + " -> " + formatAddress(dstAddrHi, dstAddrLo) + " qp=0x" + Integer.toHexString(destQp) + " psn=" + psn
            + (ackReq ? " A" : "") + (becn ? " BECN" : "") + " ecn=" + ecn + " dscp=" + dscp + " payload=" + payloadBytes
            + (hasAeth ? " aeth=0x" + Integer.toHexString(aethSyndrome) + "/msn=" + aethMsn : "")
            + " icrc=" + (icrcStatus == CRC_OK ? "ok" : icrcStatus == CRC_BAD ? "bad" : "unchecked") + "}";
    }
}
