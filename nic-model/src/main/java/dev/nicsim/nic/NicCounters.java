package dev.nicsim.nic;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.sim.CounterLayout;
import dev.nicsim.sim.CounterRegistry;

import java.util.ArrayList;
import java.util.List;

/**
 * The counters of one {@link RoceNic}: one {@code long[]} ({@link #cells}) that every part of the
 * NIC updates in place, indexed by the constants below, registered as one block under the NIC's name
 * with a {@link CounterLayout} shared by every NIC (no object, string or map entry per counter).
 * Report order ({@code counters.csv}), mlx5 ethtool/sysfs names where mlx5 has one:
 * {@code np_cnp_sent, np_ecn_marked_roce_packets, rp_cnp_handled, rp_cnp_ignored, out_of_sequence,
 * packet_seq_err, duplicate_request, local_ack_timeout_err, implied_nak_seq_err, roce_adp_retrans,
 * tx_data_packets, rx_data_packets, tx_bytes, rx_bytes, ecn_ce_received, pfc_pause_received,
 * tx_ack_packets, tx_nak_packets, rx_ack_packets, rx_nak_packets, tx_read_requests, rx_read_requests,
 * tx_rtt_probes, tx_rtt_responses, rx_unknown_qp_packets, cc_results_applied, flows_started,
 * flows_completed, rx_trimmed_packets, tx_trim_nak_packets, sr_out_of_order_accepted, sr_sack_resends,
 * sr_nack_resends} (the last five are nicsim's, for trimming and selective repeat); later blocks, registered
 * when they first apply: the spraying counters
 * ({@link #registerPath}: {@code path_ev_round_robin, path_ev_random, path_ev_recycled,
 * path_ev_penalised_skips, path_ev_penalties, path_reps_freezes}), the NP-program counters
 * ({@link #registerNpProgram}), and at the end of a run {@code rx_pause_duration_us} and the CC
 * processor's counters under {@code <name>/cc} ({@link #publishEnd}).
 *
 * <p>The eight counters of every frame sent or received are cells 0..7, one cache line. Values are
 * event counts, except {@code tx_bytes}/{@code rx_bytes} (frame bytes), {@code np_program_cycles}
 * (cycles) and {@code rx_pause_duration_us}.
 *
 * <p>Thread-safety: not thread-safe; allocated during set-up, updated on the simulation thread.
 */
final class NicCounters {
    /** Cell of {@code rx_bytes}. */
    static final int RX_BYTES = 0;
    /** Cell of {@code rx_data_packets}. */
    static final int RX_DATA_PACKETS = 1;
    /** Cell of {@code tx_data_packets}. */
    static final int TX_DATA_PACKETS = 2;
    /** Cell of {@code rx_ack_packets}. */
    static final int RX_ACK_PACKETS = 3;
    /** Cell of {@code tx_ack_packets}. */
    static final int TX_ACK_PACKETS = 4;
    /** Cell of {@code ecn_ce_received}. */
    static final int ECN_CE_RECEIVED = 5;
    /** Cell of {@code np_ecn_marked_roce_packets}. */
    static final int NP_ECN_MARKED = 6;
    /** Cell of {@code np_cnp_sent}. */
    static final int NP_CNP_SENT = 7;
    /** Cell of {@code rp_cnp_handled}. */
    static final int RP_CNP_HANDLED = 8;
    /** Cell of {@code rp_cnp_ignored}. */
    static final int RP_CNP_IGNORED = 9;
    /** Cell of {@code out_of_sequence}. */
    static final int OUT_OF_SEQUENCE = 10;
    /** Cell of {@code packet_seq_err}. */
    static final int PACKET_SEQ_ERR = 11;
    /** Cell of {@code duplicate_request}. */
    static final int DUPLICATE_REQUEST = 12;
    /** Cell of {@code local_ack_timeout_err}. */
    static final int LOCAL_ACK_TIMEOUT_ERR = 13;
    /** Cell of {@code implied_nak_seq_err}. */
    static final int IMPLIED_NAK_SEQ_ERR = 14;
    /** Cell of {@code roce_adp_retrans}. */
    static final int ROCE_ADP_RETRANS = 15;
    /** Cell of {@code tx_bytes}. */
    static final int TX_BYTES = 16;
    /** Cell of {@code pfc_pause_received}. */
    static final int PFC_PAUSE_RECEIVED = 17;
    /** Cell of {@code tx_nak_packets}. */
    static final int TX_NAK_PACKETS = 18;
    /** Cell of {@code rx_nak_packets}. */
    static final int RX_NAK_PACKETS = 19;
    /** Cell of {@code tx_read_requests}. */
    static final int TX_READ_REQUESTS = 20;
    /** Cell of {@code rx_read_requests}. */
    static final int RX_READ_REQUESTS = 21;
    /** Cell of {@code tx_rtt_probes}. */
    static final int TX_RTT_PROBES = 22;
    /** Cell of {@code tx_rtt_responses}. */
    static final int TX_RTT_RESPONSES = 23;
    /** Cell of {@code rx_unknown_qp_packets}. */
    static final int RX_UNKNOWN_QP = 24;
    /** Cell of {@code cc_results_applied}. */
    static final int CC_RESULTS_APPLIED = 25;
    /** Cell of {@code flows_started}. */
    static final int FLOWS_STARTED = 26;
    /** Cell of {@code flows_completed}. */
    static final int FLOWS_COMPLETED = 27;
    /** First cell of the NP-program counters: calls, failed, faults, budget exceeded, cycles. */
    static final int NP_PROGRAM = 28;
    /** Cell of {@code np_program_calls}. */
    static final int NP_PROGRAM_CALLS = NP_PROGRAM;
    /** Cell of {@code np_program_failed}. */
    static final int NP_PROGRAM_FAILED = NP_PROGRAM + 1;
    /** Cell of {@code np_program_faults}. */
    static final int NP_PROGRAM_FAULTS = NP_PROGRAM + 2;
    /** Cell of {@code np_program_budget_exceeded}. */
    static final int NP_PROGRAM_BUDGET_EXCEEDED = NP_PROGRAM + 3;
    /** Cell of {@code np_program_cycles}. */
    static final int NP_PROGRAM_CYCLES = NP_PROGRAM + 4;
    /** Cell of {@code rx_pause_duration_us}. */
    static final int RX_PAUSE_DURATION_US = NP_PROGRAM + 5;
    /** Cell of {@code rx_trimmed_packets}: data packets that arrived trimmed to their header. */
    static final int RX_TRIMMED_PACKETS = RX_PAUSE_DURATION_US + 1;
    /** Cell of {@code tx_trim_nak_packets}: NAKs sent in answer to a trimmed packet. */
    static final int TX_TRIM_NAK_PACKETS = RX_PAUSE_DURATION_US + 2;
    /** Cell of {@code sr_out_of_order_accepted}: selective repeat, packets held beyond the expected PSN. */
    static final int SR_OUT_OF_ORDER_ACCEPTED = RX_PAUSE_DURATION_US + 3;
    /** Cell of {@code sr_sack_resends}: selective repeat, packets queued for resend because SACKs showed them lost. */
    static final int SR_SACK_RESENDS = RX_PAUSE_DURATION_US + 4;
    /** Cell of {@code sr_nack_resends}: selective repeat, packets queued for resend by a NACK naming them. */
    static final int SR_NACK_RESENDS = RX_PAUSE_DURATION_US + 5;
    /** First cell of the spraying counters ({@link PathSelector}), registered when the path policy is not ECMP. */
    static final int PATH = SR_NACK_RESENDS + 1;
    /** Cell of {@code path_ev_round_robin}: data packets on an EV of the round robin (oblivious, bitmap, mixed's fallback). */
    static final int PATH_EV_ROUND_ROBIN = PATH;
    /** Cell of {@code path_ev_random}: data packets on a random EV (REPS with no cached EV, or exploring). */
    static final int PATH_EV_RANDOM = PATH + 1;
    /** Cell of {@code path_ev_recycled}: data packets on the EV of a good ACK (REPS, mixed). */
    static final int PATH_EV_RECYCLED = PATH + 2;
    /** Cell of {@code path_ev_penalised_skips}: penalised EVs the bitmap's round robin skipped. */
    static final int PATH_EV_PENALISED_SKIPS = PATH + 3;
    /** Cell of {@code path_ev_penalties}: ECN echoes, NACKs and timeouts that penalised an EV (bitmap, mixed). */
    static final int PATH_EV_PENALTIES = PATH + 4;
    /** Cell of {@code path_reps_freezes}: timeouts that froze REPS's cache. */
    static final int PATH_REPS_FREEZES = PATH + 5;
    private static final int CELLS = PATH_REPS_FREEZES + 1;

    /** The NIC's counters in report order, over cells 0..27 and the trimming / selective-repeat cells; shared by every NIC. */
    static final CounterLayout LAYOUT = CounterLayout.builder(33)
        .row("", "np_cnp_sent", NP_CNP_SENT)
        .row("", "np_ecn_marked_roce_packets", NP_ECN_MARKED)
        .row("", "rp_cnp_handled", RP_CNP_HANDLED)
        .row("", "rp_cnp_ignored", RP_CNP_IGNORED)
        .row("", "out_of_sequence", OUT_OF_SEQUENCE)
        .row("", "packet_seq_err", PACKET_SEQ_ERR)
        .row("", "duplicate_request", DUPLICATE_REQUEST)
        .row("", "local_ack_timeout_err", LOCAL_ACK_TIMEOUT_ERR)
        .row("", "implied_nak_seq_err", IMPLIED_NAK_SEQ_ERR)
        .row("", "roce_adp_retrans", ROCE_ADP_RETRANS)
        .row("", "tx_data_packets", TX_DATA_PACKETS)
        .row("", "rx_data_packets", RX_DATA_PACKETS)
        .row("", "tx_bytes", TX_BYTES)
        .row("", "rx_bytes", RX_BYTES)
        .row("", "ecn_ce_received", ECN_CE_RECEIVED)
        .row("", "pfc_pause_received", PFC_PAUSE_RECEIVED)
        .row("", "tx_ack_packets", TX_ACK_PACKETS)
        .row("", "tx_nak_packets", TX_NAK_PACKETS)
        .row("", "rx_ack_packets", RX_ACK_PACKETS)
        .row("", "rx_nak_packets", RX_NAK_PACKETS)
        .row("", "tx_read_requests", TX_READ_REQUESTS)
        .row("", "rx_read_requests", RX_READ_REQUESTS)
        .row("", "tx_rtt_probes", TX_RTT_PROBES)
        .row("", "tx_rtt_responses", TX_RTT_RESPONSES)
        .row("", "rx_unknown_qp_packets", RX_UNKNOWN_QP)
        .row("", "cc_results_applied", CC_RESULTS_APPLIED)
        .row("", "flows_started", FLOWS_STARTED)
        .row("", "flows_completed", FLOWS_COMPLETED)
        .row("", "rx_trimmed_packets", RX_TRIMMED_PACKETS)
        .row("", "tx_trim_nak_packets", TX_TRIM_NAK_PACKETS)
        .row("", "sr_out_of_order_accepted", SR_OUT_OF_ORDER_ACCEPTED)
        .row("", "sr_sack_resends", SR_SACK_RESENDS)
        .row("", "sr_nack_resends", SR_NACK_RESENDS)
        .build();
    /** The NP-program counters, cells {@link #NP_PROGRAM}.. of the block. */
    static final CounterLayout NP_PROGRAM_LAYOUT = CounterLayout.of("np_program_calls", "np_program_failed",
        "np_program_faults", "np_program_budget_exceeded", "np_program_cycles");
    /** The spraying counters, cells {@link #PATH}.. of the block. */
    static final CounterLayout PATH_LAYOUT = CounterLayout.of("path_ev_round_robin", "path_ev_random", "path_ev_recycled",
        "path_ev_penalised_skips", "path_ev_penalties", "path_reps_freezes");
    /** {@code rx_pause_duration_us}, cell {@link #RX_PAUSE_DURATION_US}. */
    static final CounterLayout RX_PAUSE_LAYOUT = CounterLayout.of("rx_pause_duration_us");

    /** Every counter of the NIC, indexed by the cell constants; updated in place by the NIC's parts. */
    final long[] cells = new long[CELLS];
    private final CounterRegistry registry;
    private final String name;
    private boolean npProgramRegistered;
    private boolean rxPauseRegistered;
    /** The CC processor's values ({@link #publishEnd}); null until first published. */
    private long[] ccCells;
    private ProcessorLayout ccLayout;

    /**
     * Registers the NIC's counters as one block under one component.
     *
     * @param counters the run's registry
     * @param name     component, the NIC's name (e.g. {@code host3})
     */
    NicCounters(final CounterRegistry counters, final String name) {
        this.registry = counters;
        this.name = name;
        counters.register(name, LAYOUT, cells, 0);
    }

    /** Registers the NP-program counters (once; later calls do nothing). */
    void registerNpProgram() {
        if (!npProgramRegistered) {
            npProgramRegistered = true;
            registry.register(name, NP_PROGRAM_LAYOUT, cells, NP_PROGRAM);
        }
    }

    /** Registers the spraying counters ({@link #PATH_LAYOUT}); called once, by a NIC whose path policy is not ECMP. */
    void registerPath() {
        registry.register(name, PATH_LAYOUT, cells, PATH);
    }

    /**
     * End-of-run counters: sets {@code rx_pause_duration_us} (when {@code rxPauseUs >= 0}) and copies
     * the CC processor's counters (when it is not null) into a block under {@code <name>/cc}, with
     * the processor's names; both blocks are registered the first time and their values set
     * (not added) every time. The processor's names become one {@link CounterLayout} per distinct
     * name list in the run, shared by every NIC whose processor names the same counters in the same
     * order; a name the processor reports twice is one row, with the value it reported last. Allocates
     * (a visit's names and values): not for hot paths.
     *
     * @param rxPauseUs time the data priority was paused by received PFC, us; negative for none (no port)
     * @param processor the CC processor, or null
     */
    void publishEnd(final long rxPauseUs, final CcProcessor processor) {
        if (rxPauseUs >= 0) {
            if (!rxPauseRegistered) {
                rxPauseRegistered = true;
                registry.register(name, RX_PAUSE_LAYOUT, cells, RX_PAUSE_DURATION_US);
            }
            cells[RX_PAUSE_DURATION_US] = rxPauseUs;
        }
        if (processor == null) {
            return;
        }
        final List<String> names = new ArrayList<>();
        final long[][] values = {new long[16]};
        processor.forEachCounter((n, v) -> {
            final int i = names.size();
            if (i == values[0].length) {
                values[0] = java.util.Arrays.copyOf(values[0], i * 2);
            }
            values[0][i] = v;
            names.add(n);
        });
        final ProcessorLayout l = registry.shared(names, () -> ProcessorLayout.of(names));
        if (l != ccLayout) { // first publication, or the processor's names changed: a new block
            ccLayout = l;
            ccCells = new long[l.layout.width()];
            registry.register(name + "/cc", l.layout, ccCells, 0);
        }
        for (int i = 0; i < names.size(); i++) {
            ccCells[l.slotOfVisit[i]] = values[0][i];
        }
    }

    /** A CC processor's counter names as one layout, and the cell of each visited name. */
    private static final class ProcessorLayout {
        final CounterLayout layout;
        final int[] slotOfVisit;

        private ProcessorLayout(final CounterLayout layout, final int[] slotOfVisit) {
            this.layout = layout;
            this.slotOfVisit = slotOfVisit;
        }

        static ProcessorLayout of(final List<String> names) {
            final java.util.Map<String, Integer> rows = new java.util.LinkedHashMap<>();
            final int[] slots = new int[names.size()];
            for (int i = 0; i < slots.length; i++) {
                final Integer r = rows.putIfAbsent(names.get(i), rows.size());
                slots[i] = r == null ? rows.size() - 1 : r;
            }
            return new ProcessorLayout(CounterLayout.of(rows.keySet().toArray(new String[0])), slots);
        }
    }
}
