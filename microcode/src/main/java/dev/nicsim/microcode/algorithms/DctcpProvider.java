package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;

/**
 * Provider of {@code "dctcp"}: the DCTCP sender, the DCTCP draft (draft-bensley-tcpm-dctcp-03) §3.3 and
 * §4, on a RoCE QP's window. See {@link DctcpAlgorithm}.
 *
 * <table>
 *   <caption>dctcp parameters</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>g</td><td>1/16</td><td>[2^-16, 1]</td><td>fraction</td>
 *       <td>estimation gain (§4: Windows Server 2012 uses 1/16)</td></tr>
 *   <tr><td>1</td><td>initial_alpha</td><td>1</td><td>[0, 1]</td><td>fraction</td>
 *       <td>DCTCP.Alpha at start (§3.3 "initialized to 1")</td></tr>
 *   <tr><td>2</td><td>init_window_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>initial cwnd; 0 = the path's BDP</td></tr>
 *   <tr><td>3</td><td>init_ssthresh_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>initial ssthresh; 0 = the initial window (start in congestion avoidance)</td></tr>
 *   <tr><td>4</td><td>min_window_packets</td><td>2</td><td>[1, 1024]</td><td>packets</td>
 *       <td>floor of cwnd and ssthresh (RFC 5681's 2 x SMSS)</td></tr>
 *   <tr><td>5</td><td>max_window_bytes</td><td>0</td><td>[0, 2^30]</td><td>bytes</td>
 *       <td>ceiling of cwnd; 0 = 2^30</td></tr>
 * </table>
 *
 * <p>Why the initial window is the BDP: the spec is silent (TCP would use RFC 6928's 10 segments
 * and slow start), but a RoCE QP starts at line rate, and one BDP is the window that lets the
 * first RTT fill the path exactly without queueing; it is also what the HPCC ns-3 reference
 * simulator gives window-limited flows. Because that window already fills the path, ssthresh
 * starts equal to it (no slow start beyond the BDP); set init_ssthresh_bytes to get RFC 5681
 * slow start from a smaller init_window_bytes.
 *
 * <p>Thread-safety: stateless.
 */
public final class DctcpProvider implements PccAlgorithmProvider {
    /** Provider name used in scenarios. */
    public static final String NAME = "dctcp";
    /** Parameter id of g. */
    public static final int G = 0;
    /** Parameter id of initial_alpha. */
    public static final int INITIAL_ALPHA = 1;
    /** Parameter id of init_window_bytes. */
    public static final int INIT_WINDOW_BYTES = 2;
    /** Parameter id of init_ssthresh_bytes. */
    public static final int INIT_SSTHRESH_BYTES = 3;
    /** Parameter id of min_window_packets. */
    public static final int MIN_WINDOW_PACKETS = 4;
    /** Parameter id of max_window_bytes. */
    public static final int MAX_WINDOW_BYTES = 5;

    private static final List<PccParameter> PARAMETERS = List.of(
        new PccParameter(G, "g", Kind.FIXED_16_16, 1.0 / 16, 1.0 / 65536, 1.0, "fraction",
            "alpha estimation gain, alpha = (1-g) alpha + g M, the DCTCP draft §3.3, §4"),
        new PccParameter(INITIAL_ALPHA, "initial_alpha", Kind.FIXED_16_16, 1.0, 0.0, 1.0, "fraction",
            "DCTCP.Alpha at flow start, the DCTCP draft §3.3"),
        new PccParameter(INIT_WINDOW_BYTES, "init_window_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "initial cwnd; 0 = path BDP (the DCTCP draft is silent; a RoCE QP starts at line rate)"),
        new PccParameter(INIT_SSTHRESH_BYTES, "init_ssthresh_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "initial ssthresh; 0 = initial cwnd (congestion avoidance from the start), RFC 5681 §3.1"),
        new PccParameter(MIN_WINDOW_PACKETS, "min_window_packets", Kind.INTEGER, 2, 1, 1024, "packets",
            "floor of cwnd and ssthresh, RFC 5681 §3.1 (2 x SMSS)"),
        new PccParameter(MAX_WINDOW_BYTES, "max_window_bytes", Kind.INTEGER, 0, 0, 1 << 30, "bytes",
            "ceiling of cwnd, the receiver window of RFC 5681 §2; 0 = 2^30 bytes"));

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public DctcpProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "DCTCP sender on a RoCE window: alpha EWMA over observation windows, cwnd (1 - alpha/2) (the DCTCP draft §3.3)";
    }

    @Override
    public List<PccParameter> parameters() {
        return PARAMETERS;
    }

    /**
     * Creates a dctcp instance.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new {@link DctcpAlgorithm} with its own counters
     * @throws IllegalArgumentException if the values belong to another algorithm, or
     *                                  max_window_bytes is set below init_window_bytes
     */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(PARAMETERS)) {
            throw new IllegalArgumentException("parameter values are not dctcp's: " + values);
        }
        final long max = values.raw(MAX_WINDOW_BYTES);
        final long init = values.raw(INIT_WINDOW_BYTES);
        if (max > 0 && init > max) {
            throw new IllegalArgumentException("dctcp max_window_bytes " + max
                + " must be >= init_window_bytes " + init + " (or 0 for no limit)");
        }
        return new DctcpAlgorithm(values);
    }
}
