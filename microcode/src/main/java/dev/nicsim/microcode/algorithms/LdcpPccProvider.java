package dev.nicsim.microcode.algorithms;

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
public final class LdcpPccProvider extends TableProvider {
    /** ldcp-pcc as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("ldcp-pcc",
        "LDCP rate form for PCC NICs: AI per RTT probe response, MD per CNP, rate = window/RTT (the LDCP draft §3.2)",
        """
        name              | kind    | default   | min    | max  | unit
        alpha             | 16.16   | 1         | 2^-16  | 16   | packets
            window increase per RTT response (AI), the LDCP draft §3.2
        beta              | 16.16   | 0.5       | 2^-16  | 16   | packets
            window decrease per CNP (MD), the LDCP draft §3.2
        min_window        | 16.16   | 0.125     | 1/1024 | 1024 | packets
            smallest window, the LDCP draft §2.2 (gamma) applied to §3.2
        init_window_bytes | integer | 0         | 0      | 2^30 | bytes
            initial window; 0 = path BDP (start at line rate), the LDCP draft §2.3
        rtt_gain          | 16.16   | 1         | 2^-16  | 1    | fraction
            EWMA gain of probe RTT samples; 1 = latest sample, the LDCP draft §3.2
        probe_timeout_ns  | integer | 1_000_000 | 0      | 2^30 | ns
            send the next RTT probe after this long without a response; 0 = never, the LDCP draft §3.2
        """,
        "ldcp_pcc_rtt_responses", "ldcp_pcc_stale_responses", "ldcp_pcc_cnps", "ldcp_pcc_probe_timeouts");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public LdcpPccProvider() {
        super(TABLE, LdcpPccAlgorithm::new);
    }
}
