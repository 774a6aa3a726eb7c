package dev.nicsim.sw;

import dev.nicsim.sim.Simulator;

/**
 * Switch-level adaptive routing (SAR, the RCM paper §3.4) of one {@link SwitchAsic}, run after
 * ECMP: when the ECMP-chosen port has a regional congestion degree above 0
 * ({@link RegionDetection#regionalDegree}) and the flow is not harmful there
 * ({@link FlowRecognition#isHarmful}), the flow moves to the member of its ECMP group with the
 * lowest degree if that is strictly lower than the ECMP port's; among members of that lowest
 * degree, the one whose output queue at the packet's priority holds the fewest bytes (the "local
 * output ports' load" SAR decides on besides the regional degree, §3.4), and among equal loads the
 * first after the ECMP port in the group's order, cyclically (so flows hashed to different ports
 * spread over the idle members instead of all taking the group's first). A member no lower than
 * the ECMP port's degree never takes the flow; unconnected members are skipped. The choice is
 * pinned in a direct-mapped detour table ({@link RcmConfig#detourTableEntries} slots, indexed by
 * the low bits of the flow key) while the flow's packets keep arriving within
 * {@link RcmConfig#detourIdlePs}. A harmful flow, a flow with a single path, a priority RCM does
 * not watch, or a flow whose port is not congested never moves.
 *
 * <p>Counter: {@code rcm_flows_detoured} (flows moved away from the port). Allocation-free after
 * construction. Thread-safety: not thread-safe; simulation thread only.
 */
final class AdaptiveRouting {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final Simulator sim;
    private final SwitchPort[] ports;
    private final boolean enabled;
    private final RegionDetection crd;
    private final FlowRecognition recognition;
    private final int detourMask;
    private final long detourIdlePs;
    private final int[] detourKey;
    private final int[] detourPort;
    private final long[] detourExpiryPs;
    /** The switch's RCM counters, {@code [port x RCM_ROW + RCM_*]} ({@link RegionalCongestion}). */
    private final long[] rcmStats;

    /**
     * @param sim           simulator
     * @param ports         the switch's ports (shared; filled as ports connect)
     * @param c             validated RCM configuration
     * @param crd           region detection (degrees)
     * @param recognition   flow recognition (harmful test)
     * @param rcmStats  the switch's RCM counters ({@code rcm_flows_detoured} at {@code [port x RCM_ROW + RCM_FLOWS_DETOURED]})
     */
    AdaptiveRouting(final Simulator sim, final SwitchPort[] ports, final RcmConfig c, final RegionDetection crd,
                    final FlowRecognition recognition, final long[] rcmStats) {
        this.sim = sim;
        this.ports = ports;
        this.enabled = c.adaptiveRouting;
        this.crd = crd;
        this.recognition = recognition;
        this.detourMask = c.detourTableEntries - 1;
        this.detourIdlePs = c.detourIdlePs;
        final int tableSize = enabled ? c.detourTableEntries : 1;
        this.detourKey = new int[tableSize];
        this.detourPort = new int[tableSize];
        this.detourExpiryPs = new long[tableSize];
        this.rcmStats = rcmStats;
    }

    /**
     * The port a flow takes (see the class comment).
     *
     * @param key      the flow's key
     * @param priority the packet's priority
     * @param group    the ECMP group of the destination
     * @param ecmpOut  the port ECMP chose
     * @return the port to use
     */
    int route(final int key, final int priority, final int[] group, final int ecmpOut) {
        if (!enabled || group.length < 2 || !crd.watched(priority)) {
            return ecmpOut;
        }
        final long now = sim.nowPs();
        final int slot = key & detourMask;
        if (detourExpiryPs[slot] > now && detourKey[slot] == key) {
            final int pinned = detourPort[slot];
            for (final int m : group) {
                if (m == pinned) { // a 32-bit key collision across destinations must not misroute
                    detourExpiryPs[slot] = now + detourIdlePs;
                    return pinned;
                }
            }
        }
        final int q = ecmpOut * PRIORITIES + priority;
        final int current = crd.regionalDegree(q, now);
        if (current == 0 || recognition.isHarmful(q, key, now)) {
            return ecmpOut;
        }
        final int n = group.length;
        int start = 0;
        while (start < n && group[start] != ecmpOut) {
            start++;
        }
        int best = ecmpOut;
        int bestDegree = current;
        long bestLoad = Long.MAX_VALUE;
        for (int i = 1; i <= n; i++) {
            final int m = group[(start + i) % n]; // the members after the ECMP port, cyclically
            if (m == ecmpOut || ports[m] == null) {
                continue;
            }
            final int d = crd.regionalDegree(m * PRIORITIES + priority, now);
            if (d >= current || d > bestDegree) {
                continue;
            }
            final long load = ports[m].depthBytes(priority);
            if (d < bestDegree || load < bestLoad) {
                best = m;
                bestDegree = d;
                bestLoad = load;
            }
        }
        if (best != ecmpOut) {
            detourKey[slot] = key;
            detourPort[slot] = best;
            detourExpiryPs[slot] = now + detourIdlePs;
            rcmStats[ecmpOut * RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_FLOWS_DETOURED]++;
        }
        return best;
    }
}
