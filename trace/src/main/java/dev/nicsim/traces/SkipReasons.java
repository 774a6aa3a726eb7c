package dev.nicsim.traces;

/**
 * Why a captured frame was not decoded as RoCE/InfiniBand transport or a pause frame; the index
 * into {@link CaptureStats#skipped(int)}. Codes are dense from 0. Thread-safety: constants only.
 */
public final class SkipReasons {
    /** Not skipped (a decoded packet). */
    public static final int NONE = 0;
    /** Ethernet frame whose EtherType is not IPv4, IPv6, RoCEv1 (0x8915) or MAC control (ARP, LLDP, ...). */
    public static final int NON_ROCE_ETHERTYPE = 1;
    /** IPv4/IPv6 packet that is not UDP (TCP, ICMP, IPv6 extension headers, ...). */
    public static final int IP_NOT_UDP = 2;
    /** UDP datagram whose destination port is not 4791. */
    public static final int UDP_NOT_ROCE = 3;
    /** IPv4 fragment (RoCEv2 is never fragmented). */
    public static final int IP_FRAGMENT = 4;
    /** ERF record of a type other than InfiniBand (21) or Ethernet (2, 10, 16, 20). */
    public static final int ERF_NOT_IB_OR_ETHERNET = 5;
    /** InfiniBand packet without IBA transport (LNH raw, or GRH next header not 0x1B). */
    public static final int IB_NOT_IBA_TRANSPORT = 6;
    /** MAC control frame other than PAUSE (0x0001) or PFC (0x0101). */
    public static final int MAC_CONTROL_OTHER = 7;
    /** Packet on a pcapng interface whose link type nicsim does not decode. */
    public static final int UNSUPPORTED_LINK_TYPE = 8;
    /** Headers needed to classify or decode the packet are cut by the snap length (lenient mode). */
    public static final int CUT_BY_SNAPLEN = 9;
    /** A header field holds garbage (lenient mode); {@link RocePacket#problem} says which. */
    public static final int MALFORMED = 10;
    /**
     * The capture's last record is cut short by the end of the file (a capture stopped mid-write;
     * lenient mode: the packets before it are kept, strict mode refuses the file).
     */
    public static final int CUT_AT_END_OF_FILE = 11;
    /**
     * The packet's timestamp is more than {@link CaptureDecoder}'s reorder window before the latest
     * one read on its interface, or is before 1970 or from 2100 on (lenient mode; strict mode refuses
     * the capture): no reordering explains it and it would corrupt every event time derived from it.
     */
    public static final int BAD_TIMESTAMP = 12;
    /** A RoCE packet whose ICRC does not match (strict mode; lenient mode keeps it as an event). */
    public static final int BAD_ICRC = 13;
    /** Number of codes. */
    public static final int COUNT = 14;

    private static final String[] NAMES = {
        "none", "non-RoCE EtherType", "IP not UDP", "UDP not port 4791", "IP fragment",
        "ERF type not InfiniBand/Ethernet", "InfiniBand without IBA transport", "other MAC control",
        "unsupported link type", "cut by snap length", "malformed", "last record cut by the end of the file",
        "timestamp beyond the reorder window or absurd", "bad ICRC"};

    private SkipReasons() {
    }

    /**
     * The reason's name for messages and summaries.
     *
     * @param reason a code {@code 0 .. COUNT-1}
     * @return the name, e.g. {@code "non-RoCE EtherType"}
     * @throws IllegalArgumentException if the code is out of range
     */
    public static String name(final int reason) {
        if (reason < 0 || reason >= COUNT) {
            throw new IllegalArgumentException("skip reason " + reason + " is not in 0.." + (COUNT - 1));
        }
        return NAMES[reason];
    }
}
