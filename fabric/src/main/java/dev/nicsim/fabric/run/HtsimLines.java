package dev.nicsim.fabric.run;

import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * A run's figures as uet-htsim's validation runner prints them: the first and last finish time of
 * the flows ({@code FCT Spread MIN -> MAX}, us from time 0, so a flow started at 40 us that took
 * 74 us finishes at 114 us) and the packet counts ({@code New: N Rtx: N ACKs: N NACKs: N Pulls: N}),
 * summed over the hosts' NIC counters: new data packets are {@value #TX_DATA} less
 * {@value #RETRANSMITTED}, ACKs {@value #ACKS}, NACKs {@value #NACKS}, pulls {@value #PULLS} (0 when
 * the counter does not exist). {@code nicsim run} prints the two lines after its summary for a
 * scenario whose name starts with {@value #SCENARIO_PREFIX} (as {@code nicsim htsim import} names
 * them); {@code nicsim htsim compare} computes the same figures from a run's files.
 *
 * <p>Thread-safety: immutable.
 *
 * @param flows         flows of the run
 * @param finished      flows that finished
 * @param firstFinishUs earliest finish (start + FCT), us; NaN when none finished
 * @param lastFinishUs  latest finish (htsim's tail FCT), us; NaN when none finished
 * @param newPackets    data packets sent for the first time
 * @param rtxPackets    data packets retransmitted
 * @param acks          ACKs sent
 * @param nacks         NACKs (NAKs) sent
 * @param pulls         pull packets sent
 */
public record HtsimLines(int flows, int finished, double firstFinishUs, double lastFinishUs, long newPackets,
                         long rtxPackets, long acks, long nacks, long pulls) {
    /** The name prefix of scenarios whose runs print htsim's lines. */
    public static final String SCENARIO_PREFIX = "htsim-";
    /** Component prefix of the NICs' counters. */
    public static final String HOSTS = "host";
    /** Data packets sent, retransmissions included. */
    public static final String TX_DATA = "tx_data_packets";
    /** Data packets retransmitted. */
    public static final String RETRANSMITTED = "roce_adp_retrans";
    /** ACKs sent. */
    public static final String ACKS = "tx_ack_packets";
    /** NAKs sent. */
    public static final String NACKS = "tx_nak_packets";
    /** Pull (credit) packets sent by receivers. */
    public static final String PULLS = "tx_pull_packets";

    /**
     * The figures of a run.
     *
     * @param flows     the flows: start and FCT, ns (FCT negative when unfinished)
     * @param hostTotal a counter's sum over every host, by counter name (0 for a counter that does not exist)
     * @return the figures
     */
    public static HtsimLines of(final List<FlowRecord> flows, final ToLongFunction<String> hostTotal) {
        double first = Double.NaN;
        double last = Double.NaN;
        int done = 0;
        for (final FlowRecord f : flows) {
            if (!f.completed()) {
                continue;
            }
            done++;
            final double t = (f.startNs() + f.fctNs()) / 1000.0;
            first = Double.isNaN(first) ? t : Math.min(first, t);
            last = Double.isNaN(last) ? t : Math.max(last, t);
        }
        final long rtx = hostTotal.applyAsLong(RETRANSMITTED);
        return new HtsimLines(flows.size(), done, first, last, hostTotal.applyAsLong(TX_DATA) - rtx, rtx,
            hostTotal.applyAsLong(ACKS), hostTotal.applyAsLong(NACKS), hostTotal.applyAsLong(PULLS));
    }

    /** @return {@code FCT Spread MIN -> MAX} in us, 3 decimals (htsim's first line) */
    public String spreadLine() {
        return String.format(Locale.ROOT, "FCT Spread %.3f -> %.3f", firstFinishUs, lastFinishUs);
    }

    /** @return {@code New: N Rtx: N ACKs: N NACKs: N Pulls: N} (htsim's summary line without what nicsim does not count) */
    public String countsLine() {
        return "New: " + newPackets + " Rtx: " + rtxPackets + " ACKs: " + acks + " NACKs: " + nacks + " Pulls: " + pulls;
    }
}
