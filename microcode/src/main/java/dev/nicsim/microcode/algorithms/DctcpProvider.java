package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccParameterValues;

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
public final class DctcpProvider extends TableProvider {
    /** dctcp as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("dctcp",
        "DCTCP sender on a RoCE window: alpha EWMA over observation windows, cwnd (1 - alpha/2) (the DCTCP draft §3.3)",
        """
        name                | kind    | default | min   | max  | unit
        g                   | 16.16   | 1/16    | 2^-16 | 1    | fraction
            alpha estimation gain, alpha = (1-g) alpha + g M, the DCTCP draft §3.3, §4
        initial_alpha       | 16.16   | 1       | 0     | 1    | fraction
            DCTCP.Alpha at flow start, the DCTCP draft §3.3
        init_window_bytes   | integer | 0       | 0     | 2^30 | bytes
            initial cwnd; 0 = path BDP (the DCTCP draft is silent; a RoCE QP starts at line rate)
        init_ssthresh_bytes | integer | 0       | 0     | 2^30 | bytes
            initial ssthresh; 0 = initial cwnd (congestion avoidance from the start), RFC 5681 §3.1
        min_window_packets  | integer | 2       | 1     | 1024 | packets
            floor of cwnd and ssthresh, RFC 5681 §3.1 (2 x SMSS)
        max_window_bytes    | integer | 0       | 0     | 2^30 | bytes
            ceiling of cwnd, the receiver window of RFC 5681 §2; 0 = 2^30 bytes
        """,
        "dctcp_alpha_updates", "dctcp_ecn_reductions", "dctcp_loss_reductions", "dctcp_acks_marked",
        "dctcp_stale_acks");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public DctcpProvider() {
        super(TABLE, DctcpAlgorithm::new);
    }

    /**
     * Refuses a window ceiling below the initial window.
     *
     * @throws IllegalArgumentException if max_window_bytes is set (non-zero) below init_window_bytes
     */
    @Override
    void checkConsistent(final PccParameterValues values) {
        final long max = values.raw("max_window_bytes");
        final long init = values.raw("init_window_bytes");
        if (max > 0 && init > max) {
            throw new IllegalArgumentException("dctcp max_window_bytes " + max
                + " must be >= init_window_bytes " + init + " (or 0 for no limit)");
        }
    }
}
