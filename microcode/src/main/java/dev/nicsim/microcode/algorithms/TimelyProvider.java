package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccParameterValues;

/**
 * Provider of {@code "timely"}: TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015, Algorithm 1), rate-based on RTT samples, with the update rules and
 * defaults of the HPCC ns-3 simulator's {@code RdmaHw} (CC_MODE 7, {@code UpdateRateTimely}). See
 * {@link TimelyAlgorithm}.
 *
 * <table>
 *   <caption>timely parameters (ns-3 attribute in brackets)</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>alpha</td><td>0.875</td><td>[2^-16, 1]</td><td>fraction</td>
 *       <td>EWMA weight of the newest RTT difference: rtt_diff = (1 - alpha) rtt_diff + alpha new_diff [TimelyAlpha]</td></tr>
 *   <tr><td>1</td><td>beta</td><td>0.8</td><td>[0, 1]</td><td>fraction</td>
 *       <td>multiplicative decrease factor [TimelyBeta]</td></tr>
 *   <tr><td>2</td><td>t_low_ns</td><td>50000</td><td>[0, 2^30]</td><td>ns</td>
 *       <td>below this RTT the rate always increases [TimelyTLow]</td></tr>
 *   <tr><td>3</td><td>t_high_ns</td><td>500000</td><td>[1, 2^30]</td><td>ns</td>
 *       <td>above this RTT the rate decreases by beta (1 - T_high / rtt) [TimelyTHigh]</td></tr>
 *   <tr><td>4</td><td>min_rtt_ns</td><td>20000</td><td>[1, 2^30]</td><td>ns</td>
 *       <td>normaliser of the gradient: gradient = rtt_diff / min_rtt [TimelyMinRtt]</td></tr>
 *   <tr><td>5</td><td>rate_ai_mbps</td><td>5</td><td>[0, 1000000]</td><td>Mb/s</td>
 *       <td>additive increase delta [RateAI, config RATE_AI]</td></tr>
 *   <tr><td>6</td><td>rate_hai_mbps</td><td>50</td><td>[0, 1000000]</td><td>Mb/s</td>
 *       <td>hyper-active increase delta once hai_after_stages increases ran in a row [RateHAI, config RATE_HAI]</td></tr>
 *   <tr><td>7</td><td>hai_after_stages</td><td>5</td><td>[0, 1000]</td><td>updates</td>
 *       <td>N of the paper: consecutive increases before HAI (ns-3: incStage &lt; 5 adds AI)</td></tr>
 *   <tr><td>8</td><td>min_rate_mbps</td><td>100</td><td>[1, 2000000]</td><td>Mb/s</td>
 *       <td>floor of a decrease [MinRate, config MIN_RATE]</td></tr>
 * </table>
 *
 * <p>Thread-safety: stateless.
 */
public final class TimelyProvider extends TableProvider {
    /** timely as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("timely",
        "TIMELY: rate from RTT gradient, once per RTT, with T_low/T_high, AI/HAI (Mittal et al. SIGCOMM 2015; HPCC ns-3 rdma-hw.cc)",
        """
        name             | kind    | default | min   | max       | unit
        alpha            | 16.16   | 0.875   | 2^-16 | 1         | fraction
            EWMA weight of the newest RTT difference (TimelyAlpha), TIMELY Algorithm 1
        beta             | 16.16   | 0.8     | 0     | 1         | fraction
            multiplicative decrease factor (TimelyBeta), TIMELY Algorithm 1
        t_low_ns         | integer | 50_000  | 0     | 2^30      | ns
            RTT below which the rate increases whatever the gradient (TimelyTLow)
        t_high_ns        | integer | 500_000 | 1     | 2^30      | ns
            RTT above which the rate decreases by beta (1 - T_high/rtt) (TimelyTHigh)
        min_rtt_ns       | integer | 20_000  | 1     | 2^30      | ns
            gradient normaliser: gradient = rtt_diff / min_rtt (TimelyMinRtt)
        rate_ai_mbps     | integer | 5       | 0     | 1_000_000 | Mb/s
            additive increase delta (RATE_AI)
        rate_hai_mbps    | integer | 50      | 0     | 1_000_000 | Mb/s
            hyper-active increase delta (RATE_HAI)
        hai_after_stages | integer | 5       | 0     | 1000      | updates
            consecutive increases before hyper-active increase (N of the paper; ns-3 5)
        min_rate_mbps    | integer | 100     | 1     | 2_000_000 | Mb/s
            floor of the rate (MIN_RATE)
        """,
        "timely_rtt_samples", "timely_updates", "timely_increases", "timely_hai_increases",
        "timely_gradient_decreases", "timely_t_high_decreases", "timely_acks_without_timestamp");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public TimelyProvider() {
        super(TABLE, TimelyAlgorithm::new);
    }

    /**
     * Refuses T_low above T_high.
     *
     * @throws IllegalArgumentException if t_low_ns exceeds t_high_ns
     */
    @Override
    void checkConsistent(final PccParameterValues values) {
        final long tLowNs = values.raw("t_low_ns");
        final long tHighNs = values.raw("t_high_ns");
        if (tLowNs > tHighNs) {
            throw new IllegalArgumentException("timely: t_low_ns (" + tLowNs + ") must not exceed t_high_ns (" + tHighNs + ")");
        }
    }
}
