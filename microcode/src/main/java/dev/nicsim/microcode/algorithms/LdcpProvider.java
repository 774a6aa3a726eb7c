package dev.nicsim.microcode.algorithms;

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
public final class LdcpProvider extends TableProvider {
    /** ldcp as data: parameters (table format on {@link AlgorithmTable}), then counters in id order. */
    static final AlgorithmTable TABLE = AlgorithmTable.of("ldcp",
        "LDCP uNIC window form: PAWA per-ACK window, cw below one packet, zero-RTT fast start (the LDCP draft §2.2, §2.3, §3.1)",
        """
        name     | kind    | default | min    | max   | unit
        alpha    | 16.16   | 1       | 2^-16  | 1     | packets
            additive increase per RTT: unmarked ACK for n packets adds n*alpha/cw, the LDCP draft §2.2 Eq. (1),
            (2)
        beta     | 16.16   | 0.5     | 2^-16  | 1     | packets
            decrease per marked packet: marked ACK for n packets removes n*beta, the LDCP draft §2.2 Eq. (1),
            (2)
        gamma    | 16.16   | 0.125   | 1/1024 | 0.5   | packets
            below one packet: increase per unmarked ACK and minimum window, the LDCP draft §2.2
        eta      | 16.16   | 0.5     | 1/16   | 15/16 | fraction
            below one packet: cw = max(gamma, eta*cw) per marked packet, the LDCP draft §2.2
        iw_bytes | integer | 0       | 0      | 2^30  | bytes
            fast-start initial window; 0 = path BDP, the LDCP draft §2.3, §3.1
        rtt_gain | 16.16   | 0.125   | 2^-16  | 1     | fraction
            EWMA gain of RTT samples from ACK echoes (1 = latest sample; base RTT before the first) for the
            RTT/cw tick, the LDCP draft §2.2
        """,
        "ldcp_acks_unmarked", "ldcp_acks_marked", "ldcp_acks_below_one", "ldcp_fast_start_exit_loss",
        "ldcp_fast_start_exit_iw", "ldcp_nacks", "ldcp_rtt_samples", "ldcp_stale_acks");

    /** Creates the provider (ServiceLoader needs a public no-argument constructor). */
    public LdcpProvider() {
        super(TABLE, LdcpAlgorithm::new);
    }
}
