package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;

/**
 * Provider of {@code "ldcp"}: LDCP in its uNIC window form, the LDCP draft (draft-dai-tsvwg-pfc-free-
 * congestion-control-01) §2.2 (PAWA per-ACK window update, Eq. (1) and (2), window below one
 * packet), §2.3 (zero-RTT fast start) and §3.1 (the programmable-NIC implementation). See
 * {@link LdcpAlgorithm} for the state machine and the context layout.
 *
 * <p>Parameters (id, name, default, range, unit):
 * <table>
 *   <caption>ldcp parameters</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>alpha</td><td>1</td><td>[2^-16, 1]</td><td>packets</td>
 *       <td>additive step: unmarked ACK for n packets adds n x alpha / cw (Eq. 1, 2)</td></tr>
 *   <tr><td>1</td><td>beta</td><td>1/2</td><td>[2^-16, 1]</td><td>packets</td>
 *       <td>marked ACK for n packets removes n x beta (Eq. 1, 2)</td></tr>
 *   <tr><td>2</td><td>gamma</td><td>1/8</td><td>[1/1024, 1/2]</td><td>packets</td>
 *       <td>below one packet: unmarked step and minimum window (§2.2)</td></tr>
 *   <tr><td>3</td><td>eta</td><td>1/2</td><td>[1/16, 15/16]</td><td>fraction</td>
 *       <td>below one packet: marked ACK multiplies cw by eta (§2.2, "we choose eta = 1/2")</td></tr>
 *   <tr><td>4</td><td>iw_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>fast-start initial window; 0 = the path's BDP (§2.3 "e.g., BDP", §3.1 "IW is set to BDP")</td></tr>
 *   <tr><td>5</td><td>rtt_gain</td><td>1/8</td><td>[2^-16, 1]</td><td>fraction</td>
 *       <td>EWMA gain of the RTT measured from ACK echoes (1 = latest sample); base RTT before the first sample</td></tr>
 * </table>
 *
 * <p>Why these defaults: the draft gives only {@code 0 < alpha, beta <= 1}. alpha = 1 grows cw by one
 * packet per RTT, TCP's and DCTCP's additive increase. beta = 1/2 makes a round in which every ACK
 * is marked remove cw/2, the same halving DCTCP applies when alpha = 1 and ECN TCP applies on a
 * mark. gamma = 1/8 is the middle of the draft's typical values (1/4, 1/8, 1/16): eight times more
 * flows than the bottleneck's packets-per-RTT can share it, and a flow at the floor climbs back to
 * one packet in 7 unmarked ACKs. eta = 1/2 is the draft's own choice.
 *
 * <p>Thread-safety: stateless; {@link #create} returns a new algorithm each call.
 */
public final class LdcpProvider implements PccAlgorithmProvider {
    /** Provider name used in scenarios. */
    public static final String NAME = "ldcp";
    /** Parameter id of alpha. */
    public static final int ALPHA = 0;
    /** Parameter id of beta. */
    public static final int BETA = 1;
    /** Parameter id of gamma. */
    public static final int GAMMA = 2;
    /** Parameter id of eta. */
    public static final int ETA = 3;
    /** Parameter id of iw_bytes. */
    public static final int IW_BYTES = 4;
    /** Parameter id of rtt_gain. */
    public static final int RTT_GAIN = 5;

    private static final double MIN_FRACTION = 1.0 / 65536;
    private static final List<PccParameter> PARAMETERS = List.of(
        new PccParameter(ALPHA, "alpha", Kind.FIXED_16_16, 1.0, MIN_FRACTION, 1.0, "packets",
            "additive increase per RTT: unmarked ACK for n packets adds n*alpha/cw, the LDCP draft §2.2 Eq. (1), (2)"),
        new PccParameter(BETA, "beta", Kind.FIXED_16_16, 0.5, MIN_FRACTION, 1.0, "packets",
            "decrease per marked packet: marked ACK for n packets removes n*beta, the LDCP draft §2.2 Eq. (1), (2)"),
        new PccParameter(GAMMA, "gamma", Kind.FIXED_16_16, 0.125, 1.0 / 1024, 0.5, "packets",
            "below one packet: increase per unmarked ACK and minimum window, the LDCP draft §2.2"),
        new PccParameter(ETA, "eta", Kind.FIXED_16_16, 0.5, 1.0 / 16, 15.0 / 16, "fraction",
            "below one packet: cw = max(gamma, eta*cw) per marked packet, the LDCP draft §2.2"),
        new PccParameter(IW_BYTES, "iw_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "fast-start initial window; 0 = path BDP, the LDCP draft §2.3, §3.1"),
        new PccParameter(RTT_GAIN, "rtt_gain", Kind.FIXED_16_16, 0.125, MIN_FRACTION, 1.0, "fraction",
            "EWMA gain of RTT samples from ACK echoes (1 = latest sample; base RTT before the first) for the RTT/cw tick, the LDCP draft §2.2"));

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public LdcpProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "LDCP uNIC window form: PAWA per-ACK window, cw below one packet, zero-RTT fast start (the LDCP draft §2.2, §2.3, §3.1)";
    }

    @Override
    public List<PccParameter> parameters() {
        return PARAMETERS;
    }

    /**
     * Creates an LDCP instance.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new {@link LdcpAlgorithm} with its own counters
     * @throws IllegalArgumentException if the values belong to another algorithm
     */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(PARAMETERS)) {
            throw new IllegalArgumentException("parameter values are not ldcp's: " + values);
        }
        return new LdcpAlgorithm(values);
    }
}
