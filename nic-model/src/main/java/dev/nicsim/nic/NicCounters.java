package dev.nicsim.nic;

import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;

/**
 * The counters of one {@link RoceNic}, allocated in one place and in a fixed order (the order of
 * {@code counters.csv}), with the mlx5 ethtool/sysfs names where mlx5 has one
 * ({@code np_cnp_sent}, {@code rp_cnp_handled}, {@code out_of_sequence}, ...). Each part of the NIC
 * copies the counters it updates into fields of its own.
 *
 * <p>Values are event counts, except {@code tx_bytes}/{@code rx_bytes} (frame bytes).
 *
 * <p>Thread-safety: not thread-safe; allocated during set-up, updated on the simulation thread.
 */
final class NicCounters {
    /** {@link #perFrame} cell of {@code rx_bytes}. */
    static final int RX_BYTES = 0;
    /** {@link #perFrame} cell of {@code rx_data_packets}. */
    static final int RX_DATA_PACKETS = 1;
    /** {@link #perFrame} cell of {@code tx_data_packets}. */
    static final int TX_DATA_PACKETS = 2;
    /** {@link #perFrame} cell of {@code rx_ack_packets}. */
    static final int RX_ACK_PACKETS = 3;
    /** {@link #perFrame} cell of {@code tx_ack_packets}. */
    static final int TX_ACK_PACKETS = 4;
    /** {@link #perFrame} cell of {@code ecn_ce_received}. */
    static final int ECN_CE_RECEIVED = 5;
    /** {@link #perFrame} cell of {@code np_ecn_marked_roce_packets}. */
    static final int NP_ECN_MARKED = 6;
    /** {@link #perFrame} cell of {@code np_cnp_sent}. */
    static final int NP_CNP_SENT = 7;

    /**
     * The counters a NIC updates for every frame it sends or receives (the cell indices above),
     * in one array: the receive and transmit paths update {@code perFrame[i]} directly, one cache line
     * for all of them, rather than one {@link Counter} object each (a cold object per counter would
     * be a cache miss per frame). The {@link Counter} fields of these
     * eight are views of the same cells, so the registry, reports and tests see the same values.
     */
    final long[] perFrame = new long[8];
    final Counter npCnpSent;
    final Counter npEcnMarked;
    final Counter rpCnpHandled;
    final Counter rpCnpIgnored;
    final Counter outOfSequence;
    final Counter packetSeqErr;
    final Counter duplicateRequest;
    final Counter localAckTimeoutErr;
    final Counter impliedNakSeqErr;
    final Counter roceAdpRetrans;
    final Counter txDataPackets;
    final Counter rxDataPackets;
    final Counter txBytes;
    final Counter rxBytes;
    final Counter ecnCeReceived;
    final Counter pfcPauseReceived;
    final Counter txAckPackets;
    final Counter txNakPackets;
    final Counter rxAckPackets;
    final Counter rxNakPackets;
    final Counter txReadRequests;
    final Counter rxReadRequests;
    final Counter txRttProbes;
    final Counter txRttResponses;
    final Counter rxUnknownQp;
    final Counter ccResultsApplied;
    final Counter flowsStarted;
    final Counter flowsCompleted;

    /**
     * Allocates the counters under one component.
     *
     * @param counters the run's registry
     * @param name     component, the NIC's name (e.g. {@code host3})
     */
    NicCounters(final CounterRegistry counters, final String name) {
        npCnpSent = counters.counter(name, "np_cnp_sent", perFrame, NP_CNP_SENT);
        npEcnMarked = counters.counter(name, "np_ecn_marked_roce_packets", perFrame, NP_ECN_MARKED);
        rpCnpHandled = counters.counter(name, "rp_cnp_handled");
        rpCnpIgnored = counters.counter(name, "rp_cnp_ignored");
        outOfSequence = counters.counter(name, "out_of_sequence");
        packetSeqErr = counters.counter(name, "packet_seq_err");
        duplicateRequest = counters.counter(name, "duplicate_request");
        localAckTimeoutErr = counters.counter(name, "local_ack_timeout_err");
        impliedNakSeqErr = counters.counter(name, "implied_nak_seq_err");
        roceAdpRetrans = counters.counter(name, "roce_adp_retrans");
        txDataPackets = counters.counter(name, "tx_data_packets", perFrame, TX_DATA_PACKETS);
        rxDataPackets = counters.counter(name, "rx_data_packets", perFrame, RX_DATA_PACKETS);
        txBytes = counters.counter(name, "tx_bytes");
        rxBytes = counters.counter(name, "rx_bytes", perFrame, RX_BYTES);
        ecnCeReceived = counters.counter(name, "ecn_ce_received", perFrame, ECN_CE_RECEIVED);
        pfcPauseReceived = counters.counter(name, "pfc_pause_received");
        txAckPackets = counters.counter(name, "tx_ack_packets", perFrame, TX_ACK_PACKETS);
        txNakPackets = counters.counter(name, "tx_nak_packets");
        rxAckPackets = counters.counter(name, "rx_ack_packets", perFrame, RX_ACK_PACKETS);
        rxNakPackets = counters.counter(name, "rx_nak_packets");
        txReadRequests = counters.counter(name, "tx_read_requests");
        rxReadRequests = counters.counter(name, "rx_read_requests");
        txRttProbes = counters.counter(name, "tx_rtt_probes");
        txRttResponses = counters.counter(name, "tx_rtt_responses");
        rxUnknownQp = counters.counter(name, "rx_unknown_qp_packets");
        ccResultsApplied = counters.counter(name, "cc_results_applied");
        flowsStarted = counters.counter(name, "flows_started");
        flowsCompleted = counters.counter(name, "flows_completed");
    }
}
