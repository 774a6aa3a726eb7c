package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;

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
public final class TimelyProvider implements PccAlgorithmProvider {
    /** Provider name used in scenarios. */
    public static final String NAME = "timely";
    /** Parameter id of alpha. */
    public static final int ALPHA = 0;
    /** Parameter id of beta. */
    public static final int BETA = 1;
    /** Parameter id of t_low_ns. */
    public static final int T_LOW_NS = 2;
    /** Parameter id of t_high_ns. */
    public static final int T_HIGH_NS = 3;
    /** Parameter id of min_rtt_ns. */
    public static final int MIN_RTT_NS = 4;
    /** Parameter id of rate_ai_mbps. */
    public static final int RATE_AI_MBPS = 5;
    /** Parameter id of rate_hai_mbps. */
    public static final int RATE_HAI_MBPS = 6;
    /** Parameter id of hai_after_stages. */
    public static final int HAI_AFTER_STAGES = 7;
    /** Parameter id of min_rate_mbps. */
    public static final int MIN_RATE_MBPS = 8;

    private static final List<PccParameter> PARAMETERS = List.of(
        new PccParameter(ALPHA, "alpha", Kind.FIXED_16_16, 0.875, 1.0 / 65536, 1.0, "fraction",
            "EWMA weight of the newest RTT difference (TimelyAlpha), TIMELY Algorithm 1"),
        new PccParameter(BETA, "beta", Kind.FIXED_16_16, 0.8, 0.0, 1.0, "fraction",
            "multiplicative decrease factor (TimelyBeta), TIMELY Algorithm 1"),
        new PccParameter(T_LOW_NS, "t_low_ns", Kind.INTEGER, 50_000, 0, 1 << 30, "ns",
            "RTT below which the rate increases whatever the gradient (TimelyTLow)"),
        new PccParameter(T_HIGH_NS, "t_high_ns", Kind.INTEGER, 500_000, 1, 1 << 30, "ns",
            "RTT above which the rate decreases by beta (1 - T_high/rtt) (TimelyTHigh)"),
        new PccParameter(MIN_RTT_NS, "min_rtt_ns", Kind.INTEGER, 20_000, 1, 1 << 30, "ns",
            "gradient normaliser: gradient = rtt_diff / min_rtt (TimelyMinRtt)"),
        new PccParameter(RATE_AI_MBPS, "rate_ai_mbps", Kind.INTEGER, 5, 0, 1_000_000, "Mb/s",
            "additive increase delta (RATE_AI)"),
        new PccParameter(RATE_HAI_MBPS, "rate_hai_mbps", Kind.INTEGER, 50, 0, 1_000_000, "Mb/s",
            "hyper-active increase delta (RATE_HAI)"),
        new PccParameter(HAI_AFTER_STAGES, "hai_after_stages", Kind.INTEGER, 5, 0, 1000, "updates",
            "consecutive increases before hyper-active increase (N of the paper; ns-3 5)"),
        new PccParameter(MIN_RATE_MBPS, "min_rate_mbps", Kind.INTEGER, 100, 1, 2_000_000, "Mb/s",
            "floor of the rate (MIN_RATE)"));

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public TimelyProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TIMELY: rate from RTT gradient, once per RTT, with T_low/T_high, AI/HAI (Mittal et al. SIGCOMM 2015; HPCC ns-3 rdma-hw.cc)";
    }

    @Override
    public List<PccParameter> parameters() {
        return PARAMETERS;
    }

    /**
     * Creates a timely instance.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new {@link TimelyAlgorithm} with its own counters
     * @throws IllegalArgumentException if the values belong to another algorithm, or t_low_ns exceeds t_high_ns
     */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(PARAMETERS)) {
            throw new IllegalArgumentException("parameter values are not timely's: " + values);
        }
        if (values.raw(T_LOW_NS) > values.raw(T_HIGH_NS)) {
            throw new IllegalArgumentException("timely: t_low_ns (" + values.raw(T_LOW_NS) + ") must not exceed t_high_ns ("
                + values.raw(T_HIGH_NS) + ")");
        }
        return new TimelyAlgorithm(values);
    }
}
