package dev.nicsim.microcode.algorithms;

/**
 * Provider of {@code "nscc"}: the Ultra Ethernet Transport's network-signal congestion control at the
 * sender (NSCC), a byte window driven per ACK by the RTT sample and the ECN echo, and by NACKs of
 * trimmed packets, as the consortium's reference simulator uet-htsim runs it ({@code htsim/sim/uec.cpp},
 * public repository ultraethernet/uet-htsim at 40ccb05). See {@link NsccAlgorithm}.
 *
 * <p>The parameters are the rows of {@link #TABLE}. Each names the uet-htsim function or static it
 * comes from: {@code UecSrc::initNsccParams} scales the constants from the network BDP and target
 * delay, {@code UecSrc::initNscc} sets the per-flow window bounds. With the defaults and a 100 Gb/s
 * flow whose network RTT is 14,022.72 ns (htsim's three-tier fat tree) the derived values are those
 * htsim prints in its "Initializing static NSCC parameters" line: a = 1.16856, target 10,517,040 ps,
 * b = 0.87642, alpha = 0.00159158 B/ps, fi = 23,873.7 B, eta = 716.21 B, fast-increase scale 0.29214,
 * maxwnd 262,926 B, adjust bytes 33,200 B. Dimensionless factors are integers in parts per million
 * ({@code _ppm}) so that the defaults are exactly htsim's doubles.
 *
 * <p>Thread-safety: stateless.
 */
public final class NsccProvider extends TableProvider {
    /** nscc as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("nscc",
        "UET NSCC sender window: per-ACK fair/proportional/fast increase and multiplicative decrease from RTT and"
            + " ECN, quick adapt, NACK on trim, constants scaled from the BDP (uet-htsim uec.cpp, UecSrc NSCC)",
        """
        name                   | kind    | default   | min   | max        | unit
        network_rtt_ns         | integer | 0         | 0     | 2^30       | ns
            network RTT the constants scale from; 0 = the flow's base RTT (uec.cpp initNsccParams network_rtt,
            htsim's network_max_unloaded_rtt); also the fulfil period (_adjust_period_threshold) and the NACK's
            delay sample
        network_rate_mbps      | integer | 0         | 0     | 2_000_000  | Mb/s
            link speed of the network BDP; 0 = the flow's line rate (uec.cpp initNsccParams linkspeed)
        target_delay_ns        | integer | 0         | 0     | 2^30       | ns
            target queueing delay; 0 = 0.75 x network RTT with trimming, 1 x without (uec.cpp initNsccParams
            _target_Qdelay)
        trimming               | integer | 1         | 0     | 1          | flag
            the network trims: target 0.75 x RTT (uec.cpp initNsccParams trimming_enabled)
        header_bytes           | integer | 64        | 0     | 4096       | bytes
            header per packet; windows count payload + header as htsim's do (uec.cpp UecSrc::_hdr_size)
        initial_window_bytes   | integer | 0         | 0     | 2^30       | bytes
            first cwnd; 0 = maxwnd (uec.cpp initNscc cwnd, htsim -cwnd)
        maxwnd_bdp_ppm         | integer | 1_500_000 | 1     | 16_000_000 | ppm of BDP
            maxwnd = 1.5 x the flow's BDP (uec.cpp initNscc setMaxWnd, update_base_rtt)
        reference_bdp_bytes    | integer | 150_000   | 1     | 2^30       | bytes
            a = network BDP / this: 100 Gb/s x 12 us (uec.cpp initNsccParams _reference_network_bdp)
        reference_rtt_ns       | integer | 12_000    | 1     | 2^30       | ns
            b = target / this (uec.cpp initNsccParams _reference_network_rtt, _scaling_factor_b)
        alpha_mss              | integer | 4         | 0     | 1024       | MSS
            proportional gain alpha = 4 x MSS x a x b / target, bytes per ps (uec.cpp initNsccParams _alpha)
        fair_increase_mss      | integer | 5         | 0     | 1024       | MSS
            fair increase fi = 5 x MSS x a per window (uec.cpp initNsccParams _fi)
        eta_mss_ppm            | integer | 150_000   | 0     | 16_000_000 | ppm of MSS
            eta = 0.15 x MSS x a added once per network RTT (uec.cpp initNsccParams _eta, fulfill_adjustment)
        fast_increase_ppm      | integer | 250_000   | 0     | 16_000_000 | ppm
            fast increase adds 0.25 x a of the bytes acked (uec.cpp initNsccParams _fi_scale, fast_increase)
        fast_increase_delay_ns | integer | 1000      | 0     | 2^30       | ns
            fast increase while the delay stays under 1 us for a window (uec.cpp fast_increase timeFromUs(1))
        gamma_ppm              | integer | 800_000   | 0     | 1_000_000  | ppm
            decrease cwnd x (1 - 0.8 x (avg - target) / avg) (uec.cpp initNsccParams _gamma,
            multiplicative_decrease)
        md_floor_ppm           | integer | 500_000   | 0     | 1_000_000  | ppm
            a decrease keeps at least half of cwnd (uec.cpp multiplicative_decrease max(..., 0.5))
        delay_ewma_ppm         | integer | 12_500    | 1     | 1_000_000  | ppm
            weight of a sample in the average delay (uec.cpp initNsccParams _delay_alpha, update_delay)
        qa_threshold_target    | integer | 4         | 0     | 1024       | targets
            quick adapt on a delay above 4 x target (uec.cpp initNsccParams _qa_threshold)
        qa_gate                | integer | 3         | 0     | 30         | log2
            quick adapt only if the bytes achieved are under maxwnd / 2^3 (uec.cpp initNsccParams _qa_gate)
        quick_adapt            | integer | 1         | 0     | 1          | flag
            0 disables quick adapt (uec.cpp quick_adapt, UecSrc::_disable_quick_adapt)
        adjust_bytes_mtus      | integer | 8         | 1     | 1024       | packets
            accumulated increases are applied after 8 packets' bytes are acked or a network RTT passed
            (uec.cpp initNsccParams _adjust_bytes_threshold)
        base_rtt_on_nack       | integer | 1         | 0     | 1          | flag
            a NACK's RTT sample (when the NACK echoes the send time) may lower the base RTT (uec.cpp processNack,
            UecSrc::update_base_rtt_on_nack)
        """,
        "nscc_acks", "nscc_acks_without_timestamp", "nscc_stale_acks", "nscc_fair_increases",
        "nscc_proportional_increases", "nscc_fast_increases", "nscc_fast_increase_bytes",
        "nscc_multiplicative_decreases", "nscc_multiplicative_decrease_bytes", "nscc_ecn_below_target",
        "nscc_quick_adapts", "nscc_quick_adapt_bytes", "nscc_acks_ignored", "nscc_nacks", "nscc_nack_decrease_bytes",
        "nscc_fulfil_adjustments", "nscc_eta_increases", "nscc_base_rtt_updates");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public NsccProvider() {
        super(TABLE, NsccAlgorithm::new);
    }
}
