package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;

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
public final class HpccProvider implements PccAlgorithmProvider {
    /** Provider name used in scenarios. */
    public static final String NAME = "hpcc";
    /** Parameter id of eta. */
    public static final int ETA = 0;
    /** Parameter id of max_stage. */
    public static final int MAX_STAGE = 1;
    /** Parameter id of rate_ai_mbps. */
    public static final int RATE_AI_MBPS = 2;
    /** Parameter id of min_rate_mbps. */
    public static final int MIN_RATE_MBPS = 3;
    /** Parameter id of has_win. */
    public static final int HAS_WIN = 4;
    /** Parameter id of window_bytes. */
    public static final int WINDOW_BYTES = 5;
    /** Parameter id of base_rtt_ns. */
    public static final int BASE_RTT_NS = 6;
    /** Parameter id of var_win. */
    public static final int VAR_WIN = 7;
    /** Parameter id of fast_react. */
    public static final int FAST_REACT = 8;
    /** Parameter id of multi_rate. */
    public static final int MULTI_RATE = 9;
    /** Parameter id of sample_feedback. */
    public static final int SAMPLE_FEEDBACK = 10;
    /** Parameter id of int_multi. */
    public static final int INT_MULTI = 11;

    private static final List<PccParameter> PARAMETERS = List.of(
        new PccParameter(ETA, "eta", Kind.FIXED_16_16, 0.95, 0.01, 1.0, "fraction", "target utilisation (U_TARGET), HPCC §3.3"),
        new PccParameter(MAX_STAGE, "max_stage", Kind.INTEGER, 5, 0, 1000, "updates",
            "additive-increase stages before a multiplicative update (MI_THRESH), HPCC Algorithm 1"),
        new PccParameter(RATE_AI_MBPS, "rate_ai_mbps", Kind.INTEGER, 5, 0, 1_000_000, "Mb/s", "additive increase (RATE_AI)"),
        new PccParameter(MIN_RATE_MBPS, "min_rate_mbps", Kind.INTEGER, 100, 1, 2_000_000, "Mb/s", "rate floor (MIN_RATE)"),
        new PccParameter(HAS_WIN, "has_win", Kind.INTEGER, 1, 0, 1, "flag", "bound bytes in flight by the window (HAS_WIN)"),
        new PccParameter(WINDOW_BYTES, "window_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "reference window W; 0 = the flow's path BDP"),
        new PccParameter(BASE_RTT_NS, "base_rtt_ns", Kind.INTEGER, 0, 0, 1 << 30, "ns",
            "base RTT T of the U average; 0 = the flow's path RTT"),
        new PccParameter(VAR_WIN, "var_win", Kind.INTEGER, 0, 0, 1, "flag", "window = W x rate / line rate (VAR_WIN)"),
        new PccParameter(FAST_REACT, "fast_react", Kind.INTEGER, 1, 0, 1, "flag", "react to every ACK (FAST_REACT)"),
        new PccParameter(MULTI_RATE, "multi_rate", Kind.INTEGER, 0, 0, 1, "flag", "one rate per hop (MULTI_RATE)"),
        new PccParameter(SAMPLE_FEEDBACK, "sample_feedback", Kind.INTEGER, 0, 0, 1, "flag",
            "fast reactions skip hops with an empty queue (SAMPLE_FEEDBACK)"),
        new PccParameter(INT_MULTI, "int_multi", Kind.INTEGER, 1, 1, 1024, "factor", "INT unit multiplier (INT_MULTI)"));

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public HpccProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "HPCC: per-ACK rate and window from INT (queue, tx bytes, time, link rate per hop), eta, max_stage, W_AI"
            + " (Li et al. SIGCOMM 2019; HPCC ns-3 rdma-hw.cc)";
    }

    @Override
    public List<PccParameter> parameters() {
        return PARAMETERS;
    }

    /**
     * Creates an hpcc instance.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new {@link HpccAlgorithm} with its own counters
     * @throws IllegalArgumentException if the values belong to another algorithm
     */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(PARAMETERS)) {
            throw new IllegalArgumentException("parameter values are not hpcc's: " + values);
        }
        return new HpccAlgorithm(values);
    }
}
