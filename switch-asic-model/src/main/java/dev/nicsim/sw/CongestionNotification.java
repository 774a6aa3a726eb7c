package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RoceFraming;

/**
 * The regional congestion notification frame (CN, the RCM paper §3.2): "send a feedback message
 * containing quantified F_b to the neighbor switch", "send out congestion notification (CN) with
 * congestion flows' IDs (e.g. TCP/IP five tuple) to their neighbor switch". The paper gives no
 * format; this model's, sized like a real link-local frame:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  | Ethernet II: destination MAC (link-local), source MAC (12)    |
 *  | 802.1Q tag: TPID 0x8100, PCP = notification priority (4)      |
 *  | EtherType 0x88B5 (IEEE local experimental) (2)                |
 *  +---------------+---------------+---------------+---------------+
 *  | version = 1   | F_b' (quant.) | priority 0..7 | flow count n  |   RCM header, 4 bytes
 *  +---------------+---------------+---------------+---------------+
 *  | n x flow ID: IPv4 five-tuple, 13 bytes each (src IP, dst IP,  |
 *  |   src port, dst port, protocol)                               |
 *  +---------------------------------------------------------------+
 *  | FCS (4)                                                       |
 *  +---------------------------------------------------------------+
 * </pre>
 * {@code frameBytes = max(64, 14 + 4 + 4 + 13 n + 4) = max(64, 26 + 13 n)}: 64 bytes up to 2 IDs,
 * 234 bytes with the maximum {@link Packet#RCM_MAX_FLOW_IDS} = 16. In the model the frame is a
 * {@link Packet} of kind {@link Packet#KIND_RCM_CN}; a flow ID is carried as the 32-bit
 * {@link SwitchAsic#flowKey} of the five-tuple (the wire size still counts 13 bytes).
 *
 * <p>Sending: the switch puts the CN in the egress queue of its notification priority on the port
 * toward the upstream neighbour, so it is scheduled like any frame (strict priority 7 by default)
 * and is subject to PFC on that priority; it takes no buffer from the MMU and is counted in
 * {@code rcm_cn_sent}, not in the data counters. It goes only to neighbour switches (hosts are not
 * part of a congestion region); see {@link SwitchAsic#setNotifyNeighbour}.
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class CongestionNotification {
    /** EtherType of the CN (IEEE 802 local experimental EtherType 1). */
    public static final int ETHER_TYPE = 0x88B5;
    /** RCM header version. */
    public static final int VERSION = 1;
    /** RCM header: version, F_b', priority, flow count, bytes. */
    public static final int HEADER_BYTES = 4;
    /** Wire bytes of one flow ID (IPv4 five-tuple). */
    public static final int FLOW_ID_BYTES = 13;

    private CongestionNotification() {
    }

    /**
     * Frame size of a CN.
     *
     * @param flowCount flow IDs carried, 0..{@link Packet#RCM_MAX_FLOW_IDS}
     * @return frame bytes without preamble/IFG: {@code max(64, 26 + 13 x flowCount)}
     * @throws IllegalArgumentException if the count is out of range
     */
    public static int frameBytes(final int flowCount) {
        if (flowCount < 0 || flowCount > Packet.RCM_MAX_FLOW_IDS) {
            throw new IllegalArgumentException("flowCount must be in 0.." + Packet.RCM_MAX_FLOW_IDS + ", got " + flowCount);
        }
        return Math.max(RoceFraming.MIN_FRAME_BYTES, RoceFraming.ETH_HEADER_BYTES + RoceFraming.VLAN_TAG_BYTES
            + HEADER_BYTES + FLOW_ID_BYTES * flowCount + RoceFraming.ETH_FCS_BYTES);
    }
}
