package dev.nicsim.sw;

import dev.nicsim.sim.RngStreams;

import java.util.Arrays;

/**
 * Routing stage of the {@link SwitchAsic} pipeline: the ECMP group of egress ports per destination
 * host, and the member a flow hashes to. The member is {@code mix(flowKey ^ salt) mod n}
 * ({@link #ecmpIndex}), where the flow key is {@link SwitchAsic#flowKey} (the RoCEv2 5-tuple) and
 * the salt is drawn once per switch from {@code RngStreams.stream(seed, "switch/" + name + "/ecmp")},
 * so switches hash differently and a flow keeps its path. The key holds the UDP source port, so a NIC that
 * sprays (a fresh port, UET's entropy value, per packet) spreads one flow's packets: the member is then
 * {@code hash(flow, EV, salt) mod n}, as uet-htsim's switches choose. Regional congestion mitigation may move a
 * flow afterwards (switch-level adaptive routing, the RCM paper §3.4, {@link RegionalCongestion}).
 *
 * <p>Allocation-free on the packet path (the table changes at set-up only). Thread-safety: not
 * thread-safe; simulation thread only.
 */
final class EcmpRouter {
    private final long salt;
    /**
     * The table as runs of consecutive destination hosts: run {@code i} covers hosts
     * {@code runFirst[i] .. runFirst[i + 1] - 1} (the last run: up to {@code Integer.MAX_VALUE}),
     * {@code runFirst[0] == 0}, ascending; entries past {@link #runs} are spare room.
     */
    private int[] runFirst = {0};
    /** Each run's ECMP group, or null (no route); adjacent runs hold different groups. Equal groups share one array. */
    private int[][] runGroup = {null};
    /** Runs in use, {@code >= 1}. */
    private int runs = 1;
    /** The distinct groups set so far: a destination's group is one of these (set-up only). */
    private int[][] distinct = new int[0][];

    /**
     * @param salt the switch's ECMP salt (a whole 64-bit draw of its ECMP stream)
     */
    EcmpRouter(final long salt) {
        this.salt = salt;
    }

    /**
     * Sets (replaces) the group of the destinations {@code firstHost .. endHost - 1}. Set-up only.
     * The table holds runs of consecutive destinations with one group each (a fabric's switch has a
     * few per port: a leaf one per local host and one or two for the hosts behind its up-links), and
     * equal groups (same ports in the same order) share one array, so a switch's routing memory grows
     * with its ports, not with the hosts of the fabric. The order of the ports is kept, so the member a
     * key selects is unchanged. Cheapest when the runs are set in ascending host order.
     *
     * @param firstHost   first destination host id
     * @param endHost     one past the last destination host id
     * @param group       egress ports (kept, not copied, unless an equal group is already held)
     * @param portCount   the switch's number of ports
     * @param switchName  the switch's name, for the messages
     * @throws IllegalArgumentException if {@code firstHost < 0}, {@code endHost <= firstHost}, the group is
     *                                  null or empty or a port is outside {@code 0 .. portCount-1}
     */
    void setRoutes(final int firstHost, final int endHost, final int[] group, final int portCount,
                   final String switchName) {
        if (firstHost < 0 || endHost <= firstHost) {
            throw new IllegalArgumentException("destination hosts must be 0 <= first < end, got " + firstHost + ".."
                + endHost + " on " + switchName);
        }
        if (group == null || group.length == 0) {
            throw new IllegalArgumentException("egressPorts for host " + firstHost + " on " + switchName
                + " must be non-empty");
        }
        for (final int p : group) {
            if (p < 0 || p >= portCount) {
                throw new IllegalArgumentException("port must be in 0.." + (portCount - 1) + " on " + switchName
                    + ", got " + p);
            }
        }
        final int[] g = intern(group);
        final int last = runs - 1;
        if (firstHost >= runFirst[last] && runGroup[last] == null) {
            // appending in host order: the open tail run (no route) ends at firstHost, then endHost on has none
            runs = firstHost == runFirst[last] ? last : runs;
            append(firstHost, g);
            append(endHost, null);
            return;
        }
        final int[] oldFirst = runFirst;
        final int[][] oldGroup = runGroup;
        final int oldRuns = runs;
        final int tailGroupRun = runAt(endHost);
        runFirst = new int[oldRuns + 2];
        runGroup = new int[oldRuns + 2][];
        runs = 0;
        int i = 0;
        for (; i < oldRuns && oldFirst[i] < firstHost; i++) {
            append(oldFirst[i], oldGroup[i]);
        }
        append(firstHost, g);
        append(endHost, oldGroup[tailGroupRun]);
        for (i = tailGroupRun + 1; i < oldRuns; i++) {
            append(oldFirst[i], oldGroup[i]);
        }
    }

    /** Appends a run after the last one, or extends the last one when it has the same group (interned: the same array, or both null). */
    private void append(final int first, final int[] group) {
        if (runs > 0 && runGroup[runs - 1] == group) {
            return;
        }
        if (runs == runFirst.length) {
            runFirst = Arrays.copyOf(runFirst, runs * 2);
            runGroup = Arrays.copyOf(runGroup, runs * 2);
        }
        runFirst[runs] = first;
        runGroup[runs++] = group;
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

    /** @return number of runs of consecutive destinations the table holds, the last (open) one included (tests) */
    int runCount() {
        return runs;
    }

    /** The run holding a host id {@code >= 0}: binary search for the last run starting at or below it. */
    private int runAt(final int host) {
        final int[] f = runFirst;
        int lo = 0;
        int hi = runs - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (f[mid] <= host) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The group of a destination: a binary search over the runs ({@code log2} of a few per port
     * steps). Allocation-free.
     *
     * @param dstHost destination host id (any value)
     * @return the ECMP group of egress ports (not to be modified), or null when there is no route
     */
    int[] group(final int dstHost) {
        return dstHost >= 0 ? runGroup[runAt(dstHost)] : null;
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
