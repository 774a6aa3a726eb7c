package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.RngStreams;

import java.util.Arrays;

/**
 * Routing stage of the {@link SwitchAsic} pipeline: the ECMP group of egress ports per destination
 * host, and the member a flow hashes to. The member is {@code mix(flowKey ^ salt) mod n}
 * ({@link #ecmpIndex}), where the flow key is {@link SwitchAsic#flowKey} (the RoCEv2 5-tuple) and
 * the salt is drawn once per switch from {@code RngStreams.stream(seed, "switch/" + name + "/ecmp")},
 * so switches hash differently and a flow keeps its path. Regional congestion mitigation may move a
 * flow afterwards (switch-level adaptive routing, the RCM paper §3.4, {@link RegionalCongestion}).
 *
 * <p>Allocation-free on the packet path (the table grows at set-up only). Thread-safety: not
 * thread-safe; simulation thread only.
 */
final class EcmpRouter {
    private final long salt;
    /** ECMP group per destination host, or null (no route). Equal groups share one array. */
    private int[][] routes = new int[0][];
    /** The distinct groups set so far: a destination's group is one of these (set-up only). */
    private int[][] distinct = new int[0][];

    /**
     * @param salt the switch's ECMP salt (a whole 64-bit draw of its ECMP stream)
     */
    EcmpRouter(final long salt) {
        this.salt = salt;
    }

    /**
     * Sets (replaces) the group of a destination. Set-up only; the caller validated the arguments.
     * Destinations with equal groups (same ports in the same order) share one array, so the table
     * a switch reads per frame is a few arrays (one per distinct group: a leaf has its up-link
     * group and one group per local host) rather than one per destination: fewer cache lines per
     * switch on the packet path. The order of the ports is kept, so the member a key selects is
     * unchanged.
     *
     * @param dstHost destination host id, {@code >= 0}
     * @param group   egress ports, non-empty (kept, not copied, unless an equal group is already held)
     */
    void setRoute(final int dstHost, final int[] group) {
        if (dstHost >= routes.length) {
            routes = Arrays.copyOf(routes, Math.max(dstHost + 1, routes.length * 2));
        }
        routes[dstHost] = intern(group);
    }

    private int[] intern(final int[] group) {
        for (final int[] g : distinct) {
            if (Arrays.equals(g, group)) {
                return g;
            }
        }
        distinct = Arrays.copyOf(distinct, distinct.length + 1);
        distinct[distinct.length - 1] = group;
        return group;
    }

    /** @return number of distinct groups held (set-up and tests) */
    int distinctGroups() {
        return distinct.length;
    }

    /**
     * @param dstHost destination host id (any value)
     * @return the ECMP group of egress ports (not to be modified), or null when there is no route
     */
    int[] group(final int dstHost) {
        final int[][] r = routes;
        return dstHost >= 0 && dstHost < r.length ? r[dstHost] : null;
    }

    /**
     * Look-ahead hint for {@link SwitchAsic#touch}: reads the frame's routing group and the first
     * member's queue of the frame's priority, which the switch's receive path reads next. Reads only.
     *
     * @param p     the frame about to arrive (read only)
     * @param ports the switch's ports (entries may be null before they are connected)
     * @return a value of the touched state, meaningless except that it depends on the loads
     */
    int touch(final Packet p, final SwitchPort[] ports) {
        final int[] group = group(p.dstHost);
        if (group == null) {
            return 0;
        }
        final SwitchPort port = ports[group[0]];
        return port == null ? group.length : group.length + port.touchQueue(p.priority);
    }

    /**
     * The member of a group a flow takes.
     *
     * @param group the destination's group, non-empty
     * @param key   the flow key (ignored for a single-member group)
     * @return egress port
     */
    int select(final int[] group, final int key) {
        return group.length == 1 ? group[0]
            : group[ecmpIndex(RngStreams.mix((key & 0xFFFFFFFFL) ^ salt), group.length)];
    }

    /**
     * ECMP member for a hash: the hash modulo the group size as an unsigned number; a mask when the
     * size is a power of two (the same value, without a 64-bit division per packet).
     *
     * @param hash    the flow's ECMP hash, all 64 bits
     * @param members group size, 1..number of ports
     * @return member index, 0..members-1
     */
    static int ecmpIndex(final long hash, final int members) {
        return (members & (members - 1)) == 0 ? (int) (hash & (members - 1)) : (int) Long.remainderUnsigned(hash, members);
    }
}
