package dev.nicsim.sim;

/**
 * One frame on the simulated wire: a RoCEv2 packet (data, ACK/NAK, CNP, RTT probe or response), a
 * PFC pause frame, or a switch-to-switch RCM congestion notification ({@link #KIND_RCM_CN}). Instances come from a {@link PacketPool} and are reused; fields are public for
 * the packet path's speed and are reset by {@link #clear()}.
 *
 * <p>Header fields carry their wire meaning (BTH opcode, PSN, destination QPN, AckReq, AETH
 * syndrome and MSN, IP DSCP and ECN, UDP source port). Fields marked "model" are the simulator's
 * bookkeeping and have no wire encoding. Thread-safety: not thread-safe; owned by whoever holds it.
 */
public final class Packet {
    /** Kind: RoCEv2 data packet (SEND, WRITE, READ response payload). */
    public static final int KIND_DATA = 0;
    /** Kind: RoCEv2 ACK or NAK (BTH opcode 0x11 with AETH). */
    public static final int KIND_ACK = 1;
    /** Kind: RoCEv2 CNP (BTH opcode 0x81). */
    public static final int KIND_CNP = 2;
    /** Kind: PFC pause frame (MAC control 0x8808, opcode 0x0101). */
    public static final int KIND_PFC = 3;
    /** Kind: RDMA READ request (BTH opcode 0x0C with RETH). */
    public static final int KIND_READ_REQUEST = 4;
    /** Kind: PCC RTT probe request. */
    public static final int KIND_RTT_PROBE = 5;
    /** Kind: PCC RTT probe response. */
    public static final int KIND_RTT_RESPONSE = 6;
    /**
     * Kind: regional congestion notification (RCM CN, the RCM paper §3.2), a link-local frame a switch
     * sends to its upstream neighbour switch carrying the quantised congestion degree
     * {@link #rcmFb}, the congested priority {@link #rcmPriority} and up to
     * {@link #RCM_MAX_FLOW_IDS} harmful flow IDs ({@link #rcmFlowIds}). Wire layout and size:
     * the switch model's {@code CongestionNotification}. Never forwarded; hosts do not receive it.
     */
    public static final int KIND_RCM_CN = 7;

    /** Most harmful flow IDs one RCM congestion notification carries ({@link #rcmFlowIds}). */
    public static final int RCM_MAX_FLOW_IDS = 16;

    /** IP ECN codepoint Not-ECT (00). */
    public static final int ECN_NOT_ECT = 0;
    /** IP ECN codepoint ECT(1) (01). */
    public static final int ECN_ECT1 = 1;
    /** IP ECN codepoint ECT(0) (10). */
    public static final int ECN_ECT0 = 2;
    /** IP ECN codepoint CE (11). */
    public static final int ECN_CE = 3;

    /** AETH syndrome of an ACK with no credit count (0b000_11111). */
    public static final int AETH_ACK = 0x1F;
    /** AETH syndrome of a NAK: PSN sequence error (0b011_00000). */
    public static final int AETH_NAK_PSN_SEQ_ERR = 0x60;
    /** AETH syndrome of an RNR NAK (0b001_xxxxx, timer field zero). */
    public static final int AETH_RNR_NAK = 0x20;

    /** Model: what kind of frame this is ({@code KIND_*}). */
    public int kind;
    // Field order: HotSpot lays out longs first, then ints in declaration order. The fields a
    // switch reads or writes for every frame (routing, ECMP hash, classification, WRED, buffer
    // accounting, INT) come first, so they share the first 64 bytes of the object: one cache line
    // for a frame that arrives cold, rather than two or three.
    /** Model: time the packet entered its current queue, ps. */
    public long enqueuePs;
    /** Destination host id (stands for the destination IP address). */
    public int dstHost;
    /** Source host id (stands for the source IP address). */
    public int srcHost;
    /** BTH destination QPN, 24 bits. */
    public int dstQpn;
    /** UDP source port: flow-entropy hash used by ECMP. */
    public int udpSrcPort;
    /** IP DSCP, 0..63. */
    public int dscp;
    /** 802.1p priority (PCP) / traffic class, 0..7. */
    public int priority;
    /** IP ECN codepoint ({@code ECN_*}). */
    public int ecn;
    /** Frame bytes on the wire without preamble/IFG. */
    public int frameBytes;
    /** Model: switch ingress port the packet arrived on. */
    public int ingressPort;
    /** INT (HPCC): number of valid hop records in {@link #intHops}, 0..{@link #INT_MAX_HOPS}. */
    public int intHopCount;
    /** BTH opcode (e.g. 0x0A WRITE ONLY, 0x11 ACKNOWLEDGE, 0x81 CNP). */
    public int opcode;
    /** Source QPN (model: carried in the connection state, not in BTH). */
    public int srcQpn;
    /** BTH PSN, 24 bits. */
    public int psn;
    /** BTH AckReq bit. */
    public boolean ackReq;
    /** BTH BECN bit (set on CNPs). */
    public boolean becn;
    /** AETH syndrome ({@link #AETH_ACK}, {@link #AETH_NAK_PSN_SEQ_ERR}, {@link #AETH_RNR_NAK}). */
    public int aethSyndrome;
    /** AETH MSN, 24 bits. */
    public int msn;
    /** ECN-Echo carried by an ACK (model: stands for the echo header the uNIC microcode adds). */
    public boolean ece;
    /** Payload bytes (data packets) or requested bytes (READ request). */
    public int payloadBytes;
    /** Model: simulation flow index this packet belongs to, or -1. */
    public int flowId;
    /** Model: last packet of its message. */
    public boolean lastOfMessage;
    /** Model: transmit time of a data packet (ns, 32-bit) echoed in its ACK; probe timestamps. */
    public int txTimestampNs;
    /** RTT probe: time the responder received the request (ns, 32-bit). */
    public int rttRequestReceiveNs;
    /** RTT probe: time the responder sent the response (ns, 32-bit). */
    public int rttResponseSendNs;
    /**
     * Model: an RTT response whose three words ({@link #txTimestampNs}, {@link #rttRequestReceiveNs},
     * {@link #rttResponseSendNs}) are the 12 bytes a notification-point program wrote (DOCA's RTT raw
     * data, read big-endian as the timestamp getters read it), not the hardware responder's
     * timestamps: the transmitter then leaves the response send time as it is.
     */
    public boolean rttRawFromNp;
    /** PFC: priority-enable vector, bit i = priority i. */
    public int pfcClassEnable;
    /**
     * PFC: pause quanta per priority (0 = resume), 16 bits each, two priorities per field
     * (priority p in {@code pfcQuanta<2(p/2)><2(p/2)+1>} at bits 16 (p mod 2)); read and write them
     * with {@link #pfcQuanta(int)} and {@link #setPfcQuanta(int, int)}. Fields rather than an
     * array, so no per-packet array sits beside every pooled packet; ints rather than longs, so
     * they go after the hot fields above instead of before them.
     */
    private int pfcQuanta01;
    private int pfcQuanta23;
    private int pfcQuanta45;
    private int pfcQuanta67;
    /** Model: number of data packets an ACK covers (coalesced ACKs). */
    public int ackedPackets;
    /**
     * Trimming (UET 1.0 packet trimming; uet-htsim's switch): a switch cut this data packet to its
     * header ({@link #frameBytes} is then the header's size and the payload is gone); the receiver
     * NACKs it at once.
     */
    public boolean trimmed;
    /**
     * Selective repeat, on an ACK: the SACK bitmap, bit i set = the packet with PSN
     * {@code psn + 1 + i} (modulo 2^24) was received; 0 when the ACK carries no SACK (go-back-N).
     */
    public long sackBitmap;
    /**
     * Multipath, on an ACK or NACK: the entropy value (UDP source port in RoCEv2, the EV in UET) of
     * the data packet that triggered it, echoed so the sender can score paths; -1 when not echoed.
     */
    public int echoUdpSrcPort;
    /** Whether the packet sits in its pool (guards against a second release). */
    boolean inPool;
    /** RCM CN: quantised congestion degree F_b' (the RCM paper §3.2 Eq. (2)), 0..2^bits - 1. */
    public int rcmFb;
    /** RCM CN: the data priority (queue) the congestion was found on, 0..7. */
    public int rcmPriority;
    /** RCM CN: number of valid entries in {@link #rcmFlowIds}, 0..{@link #RCM_MAX_FLOW_IDS}. */
    public int rcmFlowCount;
    /**
     * RCM CN: harmful flow IDs (32-bit five-tuple keys), the first {@link #rcmFlowCount} valid;
     * {@link #RCM_MAX_FLOW_IDS} entries, or null in packets of a pool for a fabric without RCM
     * ({@link PacketPool#PacketPool(boolean)}), which never carry a notification.
     */
    public final int[] rcmFlowIds;
    /** Most INT hop records a data packet collects (the HPCC ns-3 {@code IntHeader::maxHop}). */
    public static final int INT_MAX_HOPS = 5;
    /** Values per INT hop record in {@link #intHops}: time ns, port tx bytes, port queue bytes, link rate bits/s. */
    public static final int INT_HOP_FIELDS = 4;
    /**
     * INT (HPCC): hop records a switch egress appends to a data packet and a responder echoes in the
     * ACK, {@link #INT_HOP_FIELDS} values each ({@code [4 i]} dequeue time ns, {@code [4 i + 1]} bytes
     * the egress port had transmitted before the packet, {@code [4 i + 2]} bytes queued at the port
     * after its dequeue, {@code [4 i + 3]} the link rate, bits/s); null in packets of a pool without INT.
     */
    public final long[] intHops;
    /**
     * IFA2 (draft-kumar-ippm-ifa; DOCA PCC fact sheet Addendum B.2): on an RTT probe request, the
     * metadata header's Hop Limit, 0..255, while the probe carries an IFA header and metadata header;
     * -1 on every other frame. Each IFA-capable switch that inserts a per-hop record decrements it.
     * The records themselves are kept in {@link #intHops}, {@link #IFA2_RECORD_LONGS} longs per record
     * in insertion order (oldest first), each long eight record bytes big-endian; their number is
     * {@link #intHopCount}, so the metadata header's Current Length is {@code 8 x intHopCount} 4-octet
     * units. Frames of a pool without INT room never carry IFA2.
     */
    public int ifa2HopLimit;
    /** IFA2: the IFA header's Global Namespace (GNS), 0..15 (0xF: no global namespace); read only while {@link #ifa2HopLimit} {@code >= 0}. */
    public int ifa2Gns;
    /** Bytes of one IFA2 per-hop record (Addendum B.3). */
    public static final int IFA2_RECORD_BYTES = 32;
    /** Longs of {@link #intHops} one IFA2 record takes (32 bytes, eight per long, big-endian). */
    public static final int IFA2_RECORD_LONGS = 4;
    /** Bytes an IFA2 probe carries beyond the CCMAD probe: the IFA header and the metadata header, 4 each (records come on top). */
    public static final int IFA2_HEADER_BYTES = 8;

    /** Creates a cleared packet that can carry RCM flow IDs; use {@link PacketPool#acquire()} on the packet path. */
    public Packet() {
        this(true);
    }

    /**
     * Creates a cleared packet.
     *
     * @param rcmFlowIds whether it gets the {@link #rcmFlowIds} array (needed only where RCM runs)
     */
    public Packet(final boolean rcmFlowIds) {
        this(rcmFlowIds, false);
    }

    /**
     * Creates a cleared packet.
     *
     * @param rcmFlowIds whether it gets the {@link #rcmFlowIds} array (needed only where RCM runs)
     * @param intHops    whether it gets the {@link #intHops} array (needed only where HPCC's INT runs)
     */
    public Packet(final boolean rcmFlowIds, final boolean intHops) {
        this.rcmFlowIds = rcmFlowIds ? new int[RCM_MAX_FLOW_IDS] : null;
        this.intHops = intHops ? new long[INT_MAX_HOPS * INT_HOP_FIELDS] : null;
        clear();
    }

    /**
     * PFC pause quanta of one priority (IEEE 802.1Qbb: 512-bit times at the link rate).
     *
     * @param priority 0..7
     * @return the quanta for that priority, 0..65535 (0 = resume)
     * @throws IllegalArgumentException if the priority is outside 0..7
     */
    public int pfcQuanta(final int priority) {
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("PFC priority must be in 0..7, got " + priority);
        }
        final int word = switch (priority >>> 1) {
            case 0 -> pfcQuanta01;
            case 1 -> pfcQuanta23;
            case 2 -> pfcQuanta45;
            default -> pfcQuanta67;
        };
        return (word >>> ((priority & 1) * 16)) & 0xFFFF;
    }

    /**
     * Sets the PFC pause quanta of one priority.
     *
     * @param priority 0..7
     * @param quanta   0..65535 (0 = resume)
     * @throws IllegalArgumentException if either is out of range
     */
    public void setPfcQuanta(final int priority, final int quanta) {
        if (priority < 0 || priority > 7 || quanta < 0 || quanta > 0xFFFF) {
            throw new IllegalArgumentException("PFC priority must be in 0..7 and quanta in 0..65535, got "
                + priority + " and " + quanta);
        }
        final int shift = (priority & 1) * 16;
        final int mask = ~(0xFFFF << shift);
        final int bits = quanta << shift;
        switch (priority >>> 1) {
            case 0 -> pfcQuanta01 = (pfcQuanta01 & mask) | bits;
            case 1 -> pfcQuanta23 = (pfcQuanta23 & mask) | bits;
            case 2 -> pfcQuanta45 = (pfcQuanta45 & mask) | bits;
            default -> pfcQuanta67 = (pfcQuanta67 & mask) | bits;
        }
    }

    /** Resets every field to its empty value. */
    public void clear() {
        pfcQuanta01 = 0;
        pfcQuanta23 = 0;
        pfcQuanta45 = 0;
        pfcQuanta67 = 0;
        kind = KIND_DATA;
        opcode = 0;
        srcHost = -1;
        dstHost = -1;
        srcQpn = 0;
        dstQpn = 0;
        psn = 0;
        ackReq = false;
        becn = false;
        aethSyndrome = 0;
        msn = 0;
        ecn = ECN_NOT_ECT;
        ece = false;
        dscp = 0;
        priority = 0;
        udpSrcPort = 0;
        frameBytes = 0;
        payloadBytes = 0;
        flowId = -1;
        lastOfMessage = false;
        txTimestampNs = 0;
        rttRequestReceiveNs = 0;
        rttResponseSendNs = 0;
        rttRawFromNp = false;
        pfcClassEnable = 0;
        ingressPort = -1;
        enqueuePs = 0;
        ackedPackets = 0;
        trimmed = false;
        sackBitmap = 0;
        echoUdpSrcPort = -1;
        rcmFb = 0;
        rcmPriority = 0;
        rcmFlowCount = 0; // rcmFlowIds beyond the count are never read
        intHopCount = 0; // intHops beyond the count are never read
        ifa2HopLimit = -1;
        ifa2Gns = 0;
    }

    /**
     * Copies every field from another packet (used when a switch mirrors or a NIC retransmits).
     *
     * @param o source
     * @throws IllegalStateException if {@code o} carries RCM flow IDs and this packet has no room for them
     */
    public void copyFrom(final Packet o) {
        kind = o.kind;
        opcode = o.opcode;
        srcHost = o.srcHost;
        dstHost = o.dstHost;
        srcQpn = o.srcQpn;
        dstQpn = o.dstQpn;
        psn = o.psn;
        ackReq = o.ackReq;
        becn = o.becn;
        aethSyndrome = o.aethSyndrome;
        msn = o.msn;
        ecn = o.ecn;
        ece = o.ece;
        dscp = o.dscp;
        priority = o.priority;
        udpSrcPort = o.udpSrcPort;
        frameBytes = o.frameBytes;
        payloadBytes = o.payloadBytes;
        flowId = o.flowId;
        lastOfMessage = o.lastOfMessage;
        txTimestampNs = o.txTimestampNs;
        rttRequestReceiveNs = o.rttRequestReceiveNs;
        rttResponseSendNs = o.rttResponseSendNs;
        rttRawFromNp = o.rttRawFromNp;
        pfcClassEnable = o.pfcClassEnable;
        pfcQuanta01 = o.pfcQuanta01;
        pfcQuanta23 = o.pfcQuanta23;
        pfcQuanta45 = o.pfcQuanta45;
        pfcQuanta67 = o.pfcQuanta67;
        ingressPort = o.ingressPort;
        enqueuePs = o.enqueuePs;
        ackedPackets = o.ackedPackets;
        trimmed = o.trimmed;
        sackBitmap = o.sackBitmap;
        echoUdpSrcPort = o.echoUdpSrcPort;
        rcmFb = o.rcmFb;
        rcmPriority = o.rcmPriority;
        rcmFlowCount = o.rcmFlowCount;
        if (o.rcmFlowCount > 0) {
            if (rcmFlowIds == null) {
                throw new IllegalStateException("this packet cannot carry RCM flow IDs (pool without RCM)");
            }
            System.arraycopy(o.rcmFlowIds, 0, rcmFlowIds, 0, o.rcmFlowCount);
        }
        intHopCount = o.intHopCount;
        ifa2HopLimit = o.ifa2HopLimit;
        ifa2Gns = o.ifa2Gns;
        if (o.intHopCount > 0) {
            if (intHops == null) {
                throw new IllegalStateException("this packet cannot carry INT hops (pool without INT)");
            }
            System.arraycopy(o.intHops, 0, intHops, 0, o.intHopCount * INT_HOP_FIELDS);
        }
    }

    /** @return whether the packet is ECN-capable (ECT(0), ECT(1) or CE) */
    public boolean isEcnCapable() {
        return ecn != ECN_NOT_ECT;
    }

    @Override
    public String toString() {
        return "Packet{kind=" + kind + ", op=0x" + Integer.toHexString(opcode) + ", " + srcHost + "->" + dstHost
            + ", dqpn=" + dstQpn + ", psn=" + psn + ", bytes=" + frameBytes + ", ecn=" + ecn + ", prio=" + priority + "}";
    }
}
