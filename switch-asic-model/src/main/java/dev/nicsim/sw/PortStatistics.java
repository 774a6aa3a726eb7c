package dev.nicsim.sw;

/**
 * End-of-run figures of one switch's egress ports, summed over the port's 8 priorities, read from
 * the switch's counters ({@link SwitchCounters}) for reports that summarise many ports at once
 * (the fabric's {@code tiers.csv} and {@code hot_ports.csv}): the same values {@code counters.csv}
 * lists per queue and PG, without looking each one up by name.
 *
 * <p>Thread-safety: reads live counters without synchronisation; call after the simulation stopped
 * (or on the switch's simulation thread).
 */
public final class PortStatistics {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private PortStatistics() {
    }

    /**
     * Largest depth of any of the port's egress queues after an enqueue ({@code peak_depth_bytes},
     * the largest over its priorities).
     *
     * @param s    the switch
     * @param port port number, {@code 0 .. portCount()-1}
     * @return bytes
     * @throws IllegalArgumentException if the port is out of range
     */
    public static long peakDepthBytes(final SwitchAsic s, final int port) {
        long peak = 0;
        for (int prio = 0; prio < PRIORITIES; prio++) {
            peak = Math.max(peak, cell(s, port, prio, SwitchCounters.QS_PEAK_DEPTH));
        }
        return peak;
    }

    /**
     * Packets marked CE on the port's egress queues ({@code ecn_marked_packets} over its priorities).
     *
     * @param s    the switch
     * @param port port number
     * @return packets
     * @throws IllegalArgumentException if the port is out of range
     */
    public static long ecnMarkedPackets(final SwitchAsic s, final int port) {
        long n = 0;
        for (int prio = 0; prio < PRIORITIES; prio++) {
            n += cell(s, port, prio, SwitchCounters.QS_ECN_MARKED);
        }
        return n;
    }

    /**
     * Packets dropped at the port's egress queues: {@code wred_drops + tail_drops + headroom_drops}
     * over its priorities, plus {@code header_queue_drops} when the switch trims ({@code no_route_drops}
     * belong to no port and are not counted).
     *
     * @param s    the switch
     * @param port port number
     * @return packets
     * @throws IllegalArgumentException if the port is out of range
     */
    public static long drops(final SwitchAsic s, final int port) {
        long n = 0;
        for (int prio = 0; prio < PRIORITIES; prio++) {
            n += cell(s, port, prio, SwitchCounters.QS_WRED_DROPS) + cell(s, port, prio, SwitchCounters.QS_TAIL_DROPS)
                + cell(s, port, prio, SwitchCounters.QS_HEADROOM_DROPS);
        }
        final long[] trim = s.stats.trimStats;
        return trim == null ? n : n + trim[port * SwitchCounters.TR_ROW + SwitchCounters.TR_HEADER_DROPS];
    }

    /**
     * Data packets the port's full data queues cut to headers ({@code trimmed_packets}, {@link PacketTrimmer}).
     *
     * @param s    the switch
     * @param port port number
     * @return packets, or -1 when the switch does not trim
     * @throws IllegalArgumentException if the port is out of range
     */
    public static long trimmedPackets(final SwitchAsic s, final int port) {
        checkPort(s, port);
        final long[] trim = s.stats.trimStats;
        return trim == null ? -1 : trim[port * SwitchCounters.TR_ROW + SwitchCounters.TR_TRIMMED];
    }

    /**
     * Data packets the switch cut to headers, over its ports.
     *
     * @param s the switch
     * @return packets, or -1 when the switch does not trim
     */
    public static long trimmedPackets(final SwitchAsic s) {
        final long[] trim = s.stats.trimStats;
        if (trim == null) {
            return -1;
        }
        long n = 0;
        for (int p = 0; p < s.portCount(); p++) {
            n += trim[p * SwitchCounters.TR_ROW + SwitchCounters.TR_TRIMMED];
        }
        return n;
    }

    /**
     * PFC frames the switch sent out of this port, to its neighbour: {@code pfc_xoff_sent} (refreshes
     * included) {@code + pfc_xon_sent} over the port's 8 priority groups (the port as ingress port).
     *
     * @param s    the switch
     * @param port port number
     * @return frames
     * @throws IllegalArgumentException if the port is out of range
     */
    public static long pauseFramesSent(final SwitchAsic s, final int port) {
        checkPort(s, port);
        final SwitchCounters c = s.stats;
        long n = 0;
        for (int pg = 0; pg < PRIORITIES; pg++) {
            final int i = port * PRIORITIES + pg;
            final int row = c.pfcBase + i * SwitchCounters.PFC_ROW;
            n += c.queueStats[row + SwitchCounters.PFC_XOFF_SENT] + c.queueStats[row + SwitchCounters.PFC_XON_SENT];
        }
        return n;
    }

    private static void checkPort(final SwitchAsic s, final int port) {
        if (port < 0 || port >= s.portCount()) {
            throw new IllegalArgumentException("port must be in 0.." + (s.portCount() - 1) + " on " + s.name() + ", got " + port);
        }
    }

    private static long cell(final SwitchAsic s, final int port, final int priority, final int cell) {
        checkPort(s, port);
        return s.stats.queueStats[(port * PRIORITIES + priority) * SwitchCounters.QS_ROW + cell];
    }
}
