package dev.nicsim.microcode.algorithms;

/**
 * Provider of {@code "dctcp-rate"}: the rate-based DCTCP of the HPCC ns-3 simulator's {@code RdmaHw}
 * (CC_MODE 8, {@code rdma-hw.cc HandleAckDctcp}): DCTCP's alpha estimator (Alizadeh et al., "Data
 * Center TCP (DCTCP)", SIGCOMM 2010, §3.1; RFC 8257 §3.3) driving a sending rate instead of a
 * window: a cut by (1 - alpha / 2) at most once per window of data on an ECN echo, an additive
 * increase of DCTCP_RATE_AI per window otherwise. nicsim's window-based {@code dctcp} follows the
 * RFC; this one follows the reference simulator. See {@link DctcpRateAlgorithm}.
 *
 * <table>
 *   <caption>dctcp-rate parameters (ns-3 attribute and configuration key in brackets)</caption>
 *   <tr><th>id</th><th>name</th><th>default</th><th>range</th><th>unit</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>g</td><td>1/16</td><td>[0, 1]</td><td>fraction</td>
 *       <td>EWMA gain of alpha [EwmaGain, config EWMA_GAIN; rdma-hw.cc default 1/16. third.cc's own
 *       default {@code 1 / 16} is an integer division, 0, used when the file has no EWMA_GAIN]</td></tr>
 *   <tr><td>1</td><td>rate_ai_mbps</td><td>1000</td><td>[0, 1000000]</td><td>Mb/s</td>
 *       <td>additive increase per window of data [DctcpRateAI, config DCTCP_RATE_AI]</td></tr>
 *   <tr><td>2</td><td>min_rate_mbps</td><td>100</td><td>[1, 2000000]</td><td>Mb/s</td>
 *       <td>floor of a cut [MinRate, config MIN_RATE]</td></tr>
 *   <tr><td>3</td><td>initial_alpha</td><td>1</td><td>[0, 1]</td><td>fraction</td>
 *       <td>alpha of a new flow (rdma-queue-pair.cc {@code dctcp.m_alpha = 1}; RFC 8257 §3.3 also 1)</td></tr>
 * </table>
 *
 * <p>Thread-safety: stateless.
 */
public final class DctcpRateProvider extends TableProvider {
    /** dctcp-rate as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("dctcp-rate",
        "rate-based DCTCP: alpha per window, rate x (1 - alpha/2) once per window on ECE, + DCTCP_RATE_AI"
            + " per window otherwise (HPCC ns-3 rdma-hw.cc CC_MODE 8; DCTCP paper SIGCOMM 2010, RFC 8257)",
        """
        name          | kind    | default | min | max       | unit
        g             | 16.16   | 1/16    | 0   | 1         | fraction
            EWMA gain of alpha (EWMA_GAIN), RFC 8257 §3.3
        rate_ai_mbps  | integer | 1000    | 0   | 1_000_000 | Mb/s
            additive increase once per window of data (DCTCP_RATE_AI)
        min_rate_mbps | integer | 100     | 1   | 2_000_000 | Mb/s
            floor of a rate cut (MIN_RATE)
        initial_alpha | 16.16   | 1       | 0   | 1         | fraction
            alpha of a new flow, RFC 8257 §3.3 and rdma-queue-pair.cc (INITIAL_ALPHA)
        """,
        "dctcp_rate_alpha_updates", "dctcp_rate_cuts", "dctcp_rate_increases", "dctcp_rate_acks_marked",
        "dctcp_rate_min_rate_clamps");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public DctcpRateProvider() {
        super(TABLE, DctcpRateAlgorithm::new);
    }
}
