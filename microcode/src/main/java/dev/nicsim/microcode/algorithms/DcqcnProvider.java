package dev.nicsim.microcode.algorithms;

/**
 * Provider of {@code "dcqcn"}: the DCQCN reaction point (RP), the RoCE ECN/DCQCN article §7 (alpha update, rate
 * decrease, rate increase in fast recovery, additive and hyper increase with timer and byte
 * counter) with the Mellanox/NVIDIA firmware knobs and defaults listed in the DOCA PCC device model in docs/architecture.md.
 * The notification point (CNP generation) is in the NIC. See {@link DcqcnAlgorithm}.
 *
 * <p>The parameters (name, kind, default, range, unit, meaning and the Mellanox knob each one
 * is) and the counters are the rows of {@link #TABLE}, the one place they are written;
 * {@code AlgorithmTableTest} checks the table, and {@link TableProvider} serves it as this
 * provider's descriptors.
 *
 * <h2>Reproducing the HPCC ns-3 DCQCN run</h2>
 * {@code shared/peers/hpcc-ns3/config_fat_ws30_5ms_dcqcn.txt} runs ns-3's {@code RdmaHw} "Mellanox
 * version of DCQCN" (CC_MODE 1). Set these values:
 * <table>
 *   <caption>ns-3 key to dcqcn parameter</caption>
 *   <tr><th>ns-3 key (value in the file)</th><th>parameter = value</th><th>note</th></tr>
 *   <tr><td>CC_MODE 1</td><td>algorithm {@code dcqcn}</td><td>mlx DCQCN</td></tr>
 *   <tr><td>EWMA_GAIN 0.00390625</td><td>g = 0.00390625 (1/256)</td><td>same form (1-g) alpha + g</td></tr>
 *   <tr><td>ALPHA_RESUME_INTERVAL 1</td><td>alpha_update_period_ns = 1000</td><td>us to ns</td></tr>
 *   <tr><td>RATE_DECREASE_INTERVAL 4</td><td>rate_reduce_monitor_period_ns = 4000</td><td>us to ns</td></tr>
 *   <tr><td>RP_TIMER 300</td><td>rpg_time_reset_ns = 300000</td><td>us to ns</td></tr>
 *   <tr><td>FAST_RECOVERY_TIMES 1</td><td>rpg_threshold = 1</td><td></td></tr>
 *   <tr><td>RATE_AI 20Mb/s</td><td>rpg_ai_rate_mbps = 20</td><td></td></tr>
 *   <tr><td>RATE_HAI 200Mb/s</td><td>rpg_hai_rate_mbps = 200</td><td>fixed step: hai_scaling = 0</td></tr>
 *   <tr><td>MIN_RATE 1000Mb/s</td><td>rpg_min_rate_mbps = 1000</td><td></td></tr>
 *   <tr><td>CLAMP_TARGET_RATE 0</td><td>clamp_tgt_rate = 0, clamp_tgt_rate_after_time_inc = 1</td>
 *       <td>ns-3 clamps Rt when its timer stage is non-zero</td></tr>
 *   <tr><td>(no byte counter in ns-3)</td><td>rpg_byte_reset_bytes = 0</td><td>disables it</td></tr>
 *   <tr><td>(alpha = 1 on the first CNP)</td><td>initial_alpha = 1</td><td></td></tr>
 *   <tr><td>(RateOnFirstCnp default 1.0)</td><td>rate_on_first_cnp = 1</td><td></td></tr>
 *   <tr><td>(decrease Rc (1 - alpha/2))</td><td>rpg_gd = 11</td><td>default</td></tr>
 *   <tr><td>(no minimum decrease factor)</td><td>rpg_min_dec_fac = 0</td><td>50 never binds with gd 11</td></tr>
 *   <tr><td>DCTCP_RATE_AI</td><td>not used</td><td>only CC_MODE 8</td></tr>
 * </table>
 * The other keys are not the RP's: PACKET_PAYLOAD_SIZE 1000 is the NIC's MTU; KMIN_MAP, KMAX_MAP,
 * PMAX_MAP, BUFFER_SIZE, USE_DYNAMIC_PFC_THRESHOLD are the switch's; ENABLE_QCN 1 turns CNPs on. In
 * ns-3 every ACK (L2_ACK_INTERVAL 1, ACK_HIGH_PRIO 1) of a CE-marked packet carries the CNP flag,
 * so the NIC's notification point must send a CNP per marked packet (no CNP interval) to match;
 * several CNPs in one period act as one here as in ns-3.
 *
 * <p>Thread-safety: stateless.
 */
public final class DcqcnProvider extends TableProvider {
    /** dcqcn as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("dcqcn",
        "DCQCN reaction point with Mellanox knobs: alpha, rate decrease, fast recovery/AI/HAI by timer and byte counter (the RoCE ECN/DCQCN article §7)",
        """
        name                          | kind    | default   | min   | max       | unit
        g                             | 16.16   | 5/1024    | 2^-16 | 1         | fraction
            alpha gain: alpha = (1-g) alpha + g if a CNP arrived in the period; 1 - DCE_TCP_G/1024, the RoCE
            ECN/DCQCN article §7.1
        initial_alpha                 | 16.16   | 1023/1024 | 0     | 1         | fraction
            alpha set on the first CNP (INITIAL_ALPHA_VALUE), the RoCE ECN/DCQCN article §7.1
        alpha_update_period_ns        | integer | 1000      | 1     | 2^30      | ns
            alpha update period (DCE_TCP_RTT), the RoCE ECN/DCQCN article §7.1
        rate_reduce_monitor_period_ns | integer | 4000      | 1     | 2^30      | ns
            at most one rate decrease per period (RATE_REDUCE_MONITOR_PERIOD), the RoCE ECN/DCQCN article §7.2
        rate_on_first_cnp             | 16.16   | 1         | 2^-16 | 1         | fraction of line rate
            current and target rate set on the first CNP (RATE_TO_SET_ON_FIRST_CNP)
        rpg_gd                        | integer | 11        | 0     | 15        | log2
            decrease Rc by alpha_1024 / 2^gd (RPG_GD; 11 = alpha/2), the RoCE ECN/DCQCN article §7.2
        rpg_min_dec_fac               | integer | 50        | 0     | 100       | %
            a decrease keeps at least this percentage of Rc (RPG_MIN_DEC_FAC)
        rpg_min_rate_mbps             | integer | 1         | 1     | 2_000_000 | Mb/s
            floor of the current rate (RPG_MIN_RATE)
        rpg_time_reset_ns             | integer | 300_000   | 1     | 2^30      | ns
            rate-increase timer period (RPG_TIME_RESET), the RoCE ECN/DCQCN article §7.3
        rpg_byte_reset_bytes          | integer | 32_767    | 0     | 2^30      | bytes
            rate-increase byte counter, 0 = disabled (RPG_BYTE_RESET), the RoCE ECN/DCQCN article §7.3
        rpg_threshold                 | integer | 1         | 0     | 1024      | stages
            F: fast-recovery stages before additive increase (RPG_THRESHOLD), the RoCE ECN/DCQCN article §7.3
        rpg_ai_rate_mbps              | integer | 5         | 0     | 1_000_000 | Mb/s
            additive increase of the target rate (RPG_AI_RATE), the RoCE ECN/DCQCN article §7.3
        rpg_hai_rate_mbps             | integer | 50        | 0     | 1_000_000 | Mb/s
            hyper increase of the target rate (RPG_HAI_RATE), the RoCE ECN/DCQCN article §7.3
        clamp_tgt_rate                | integer | 0         | 0     | 1         | flag
            1: target rate = current rate on every decrease (CLAMP_TGT_RATE)
        clamp_tgt_rate_after_time_inc | integer | 1         | 0     | 1         | flag
            clamp the target rate if the timer (1) or only the byte counter (0) raised the rate
            (CLAMP_TGT_RATE_AFTER_TIME_INC)
        hai_scaling                   | integer | 0         | 0     | 1         | flag
            0: Rt += HAI per hyper stage; 1: Rt += i x HAI at the i-th hyper stage (QCN)
        """,
        "dcqcn_cnp_handled", "dcqcn_first_cnp", "dcqcn_rate_decreases", "dcqcn_timer_increase_events",
        "dcqcn_byte_increase_events", "dcqcn_fast_recovery", "dcqcn_additive_increase", "dcqcn_hyper_increase");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public DcqcnProvider() {
        super(TABLE, DcqcnAlgorithm::new);
    }
}
