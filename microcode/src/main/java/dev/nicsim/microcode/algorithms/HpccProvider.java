package dev.nicsim.microcode.algorithms;

/**
 * Provider of {@code "hpcc"}: HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM
 * 2019) on in-band network telemetry echoed in ACKs, with the per-ACK rate and window update and
 * the variants of the HPCC ns-3 simulator's {@code RdmaHw} (CC_MODE 3, {@code UpdateRateHp}). See
 * {@link HpccAlgorithm}.
 *
 * <table>
 *   <caption>hpcc parameters (ns-3 configuration key in brackets)</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>eta</td><td>0.95</td><td>[0.01, 1]</td><td>fraction</td><td>target utilisation [U_TARGET]</td></tr>
 *   <tr><td>1</td><td>max_stage</td><td>5</td><td>[0, 1000]</td><td>updates</td>
 *       <td>additive-increase updates before a multiplicative one [MI_THRESH]</td></tr>
 *   <tr><td>2</td><td>rate_ai_mbps</td><td>5</td><td>[0, 1000000]</td><td>Mb/s</td>
 *       <td>additive increase; the window grows with it when var_win is on (W_AI = rate_ai x base RTT) [RATE_AI]</td></tr>
 *   <tr><td>3</td><td>min_rate_mbps</td><td>100</td><td>[1, 2000000]</td><td>Mb/s</td><td>rate floor [MIN_RATE]</td></tr>
 *   <tr><td>4</td><td>has_win</td><td>1</td><td>{0, 1}</td><td>flag</td><td>bound the bytes in flight by the window [HAS_WIN]</td></tr>
 *   <tr><td>5</td><td>window_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>the reference window W; 0 = the flow's path BDP (GLOBAL_T 0); the importer writes the largest BDP of all
 *       pairs for GLOBAL_T 1</td></tr>
 *   <tr><td>6</td><td>base_rtt_ns</td><td>0</td><td>[0, 2^30]</td><td>ns</td>
 *       <td>T of the EWMA of U; 0 = the flow's path RTT (GLOBAL_T 0)</td></tr>
 *   <tr><td>7</td><td>var_win</td><td>0</td><td>{0, 1}</td><td>flag</td><td>window = W x rate / line rate [VAR_WIN]</td></tr>
 *   <tr><td>8</td><td>fast_react</td><td>1</td><td>{0, 1}</td><td>flag</td>
 *       <td>react to every ACK, not only once per RTT (without committing the reference rate) [FAST_REACT]</td></tr>
 *   <tr><td>9</td><td>multi_rate</td><td>0</td><td>{0, 1}</td><td>flag</td><td>a rate per hop, the lowest applies [MULTI_RATE]</td></tr>
 *   <tr><td>10</td><td>sample_feedback</td><td>0</td><td>{0, 1}</td><td>flag</td>
 *       <td>fast reactions skip hops with an empty queue [SAMPLE_FEEDBACK]</td></tr>
 *   <tr><td>11</td><td>int_multi</td><td>1</td><td>[1, 1024]</td><td>factor</td>
 *       <td>INT byte and queue units are 128 and 80 bytes times this [INT_MULTI]; switches use the same</td></tr>
 * </table>
 *
 * <p>Thread-safety: stateless.
 */
public final class HpccProvider extends TableProvider {
    /** hpcc as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("hpcc",
        "HPCC: per-ACK rate and window from INT (queue, tx bytes, time, link rate per hop), eta, max_stage,"
            + " W_AI (Li et al. SIGCOMM 2019; HPCC ns-3 rdma-hw.cc)",
        """
        name            | kind    | default | min  | max       | unit
        eta             | 16.16   | 0.95    | 0.01 | 1         | fraction
            target utilisation (U_TARGET), HPCC §3.3
        max_stage       | integer | 5       | 0    | 1000      | updates
            additive-increase stages before a multiplicative update (MI_THRESH), HPCC Algorithm 1
        rate_ai_mbps    | integer | 5       | 0    | 1_000_000 | Mb/s
            additive increase (RATE_AI)
        min_rate_mbps   | integer | 100     | 1    | 2_000_000 | Mb/s
            rate floor (MIN_RATE)
        has_win         | integer | 1       | 0    | 1         | flag
            bound bytes in flight by the window (HAS_WIN)
        window_bytes    | integer | 0       | 0    | 2^30      | bytes
            reference window W; 0 = the flow's path BDP
        base_rtt_ns     | integer | 0       | 0    | 2^30      | ns
            base RTT T of the U average; 0 = the flow's path RTT
        var_win         | integer | 0       | 0    | 1         | flag
            window = W x rate / line rate (VAR_WIN)
        fast_react      | integer | 1       | 0    | 1         | flag
            react to every ACK (FAST_REACT)
        multi_rate      | integer | 0       | 0    | 1         | flag
            one rate per hop (MULTI_RATE)
        sample_feedback | integer | 0       | 0    | 1         | flag
            fast reactions skip hops with an empty queue (SAMPLE_FEEDBACK)
        int_multi       | integer | 1       | 1    | 1024      | factor
            INT unit multiplier (INT_MULTI)
        """,
        "hpcc_acks_with_int", "hpcc_acks_without_int", "hpcc_full_updates", "hpcc_fast_reactions",
        "hpcc_multiplicative", "hpcc_additive");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public HpccProvider() {
        super(TABLE, HpccAlgorithm::new);
    }
}
