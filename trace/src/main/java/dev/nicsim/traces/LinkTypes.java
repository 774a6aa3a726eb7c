package dev.nicsim.traces;

/**
 * Link-layer header types (the tcpdump.org LINKTYPE_ registry, as stored in a pcap file header or
 * a pcapng Interface Description Block) that nicsim decodes. Thread-safety: constants only.
 */
public final class LinkTypes {
    /** LINKTYPE_ETHERNET: IEEE 802.3 Ethernet, optionally with 802.1Q/802.1ad tags. */
    public static final int ETHERNET = 1;
    /** LINKTYPE_ERF: Endace Extensible Record Format; type 21 records carry native InfiniBand. */
    public static final int ERF = 197;

    private LinkTypes() {
    }

    /**
     * Whether nicsim decodes a link type.
     *
     * @param linkType link type from a pcap header or pcapng IDB, 0..65535
     * @return true for {@link #ETHERNET} and {@link #ERF}
     */
    public static boolean isSupported(final int linkType) {
        return linkType == ETHERNET || linkType == ERF;
    }

    /**
     * A short name for messages.
     *
     * @param linkType link type, any value
     * @return e.g. {@code "1 (Ethernet)"}, {@code "113 (Linux cooked)"} or just the number
     */
    public static String describe(final int linkType) {
        return switch (linkType) {
            case ETHERNET -> "1 (Ethernet)";
            case ERF -> "197 (ERF)";
            case 0 -> "0 (BSD loopback)";
            case 101 -> "101 (raw IP)";
            case 105 -> "105 (IEEE 802.11)";
            case 113 -> "113 (Linux cooked)";
            case 127 -> "127 (802.11 radiotap)";
            case 228 -> "228 (raw IPv4)";
            case 229 -> "229 (raw IPv6)";
            case 276 -> "276 (Linux cooked v2)";
            default -> Integer.toString(linkType);
        };
    }
}
