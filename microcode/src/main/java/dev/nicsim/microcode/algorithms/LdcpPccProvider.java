package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;

/**
 * Provider of {@code "ldcp-pcc"}: LDCP in its rate form for commodity PCC NICs, the LDCP draft §3.2
 * (ConnectX-6 Dx): back-to-back RTT probes, window += alpha per RTT response (AI), window -= beta
 * per CNP (MD), rate = window / RTT, no window limit. See {@link LdcpPccAlgorithm}.
 *
 * <table>
 *   <caption>ldcp-pcc parameters</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>alpha</td><td>1</td><td>[2^-16, 16]</td><td>packets</td>
 *       <td>window increase per RTT response (§3.2 "the window grows by alpha")</td></tr>
 *   <tr><td>1</td><td>beta</td><td>1/2</td><td>[2^-16, 16]</td><td>packets</td>
 *       <td>window decrease per CNP (§3.2 "decreased by beta upon every CNP")</td></tr>
 *   <tr><td>2</td><td>min_window</td><td>1/8</td><td>[1/1024, 1024]</td><td>packets</td>
 *       <td>floor of the window (the draft gives none; ldcp's gamma default)</td></tr>
 *   <tr><td>3</td><td>init_window_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>initial window; 0 = path BDP, so the flow starts at line rate (§2.3)</td></tr>
 *   <tr><td>4</td><td>rtt_gain</td><td>1</td><td>[2^-16, 1]</td><td>fraction</td>
 *       <td>EWMA gain of probe RTTs; 1 = each response's RTT ("divided by RTT", §3.2)</td></tr>
 *   <tr><td>5</td><td>probe_timeout_ns</td><td>1000000</td><td>[0, 2^30]</td><td>ns</td>
 *       <td>re-probe when no response came within this time (§3.2 "or a timeout"); 0 = never</td></tr>
 * </table>
 *
 * <p>alpha and beta default to the same values as {@code ldcp} (one packet per RTT; half a packet
 * per CNP), as the draft gives no numbers for this form either.
 *
 * <p>Thread-safety: stateless.
 */
public final class LdcpPccProvider implements PccAlgorithmProvider {
    /** Provider name used in scenarios. */
    public static final String NAME = "ldcp-pcc";
    /** Parameter id of alpha. */
    public static final int ALPHA = 0;
    /** Parameter id of beta. */
    public static final int BETA = 1;
    /** Parameter id of min_window. */
    public static final int MIN_WINDOW = 2;
    /** Parameter id of init_window_bytes. */
    public static final int INIT_WINDOW_BYTES = 3;
    /** Parameter id of rtt_gain. */
    public static final int RTT_GAIN = 4;
    /** Parameter id of probe_timeout_ns. */
    public static final int PROBE_TIMEOUT_NS = 5;

    private static final double MIN_FRACTION = 1.0 / 65536;
    private static final List<PccParameter> PARAMETERS = List.of(
        new PccParameter(ALPHA, "alpha", Kind.FIXED_16_16, 1.0, MIN_FRACTION, 16.0, "packets",
            "window increase per RTT response (AI), the LDCP draft §3.2"),
        new PccParameter(BETA, "beta", Kind.FIXED_16_16, 0.5, MIN_FRACTION, 16.0, "packets",
            "window decrease per CNP (MD), the LDCP draft §3.2"),
        new PccParameter(MIN_WINDOW, "min_window", Kind.FIXED_16_16, 0.125, 1.0 / 1024, 1024.0, "packets",
            "smallest window, the LDCP draft §2.2 (gamma) applied to §3.2"),
        new PccParameter(INIT_WINDOW_BYTES, "init_window_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "initial window; 0 = path BDP (start at line rate), the LDCP draft §2.3"),
        new PccParameter(RTT_GAIN, "rtt_gain", Kind.FIXED_16_16, 1.0, MIN_FRACTION, 1.0, "fraction",
            "EWMA gain of probe RTT samples; 1 = latest sample, the LDCP draft §3.2"),
        new PccParameter(PROBE_TIMEOUT_NS, "probe_timeout_ns", Kind.INTEGER, 1_000_000, 0, 1 << 30, "ns",
            "send the next RTT probe after this long without a response; 0 = never, the LDCP draft §3.2"));

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public LdcpPccProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "LDCP rate form for PCC NICs: AI per RTT probe response, MD per CNP, rate = window/RTT (the LDCP draft §3.2)";
    }

    @Override
    public List<PccParameter> parameters() {
        return PARAMETERS;
    }

    /**
     * Creates an ldcp-pcc instance.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new {@link LdcpPccAlgorithm} with its own counters
     * @throws IllegalArgumentException if the values belong to another algorithm
     */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(PARAMETERS)) {
            throw new IllegalArgumentException("parameter values are not ldcp-pcc's: " + values);
        }
        return new LdcpPccAlgorithm(values);
    }
}
