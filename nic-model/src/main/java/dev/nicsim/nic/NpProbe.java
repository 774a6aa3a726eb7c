package dev.nicsim.nic;

import dev.nicsim.sim.Packet;

/**
 * One RTT probe request handed to a {@link NpProgram}, and its answer. One instance per NIC is reused
 * for every probe (nothing is allocated per probe); its fields are plain public fields, like
 * {@link Packet}'s, for the packet path.
 *
 * <p>Inputs (set by the NIC before {@link NpProgram#handle}): the probe's header fields and the time.
 * Outputs (set by the program): the 12 response bytes as three words, each the big-endian reading of
 * four bytes (so {@code word0} is what DOCA's {@code doca_pcc_dev_get_rtt_req_send_timestamp} returns
 * at the requester; the bytes themselves are {@code doca_pcc_dev_get_rtt_raw_data}), and how long the
 * handler took.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
public final class NpProbe {
    /** Input: the NIC port the probe arrived on (nicsim NICs have one, 0). */
    public int port;
    /** Input: requester host id (its IPv4 address stands for it). */
    public int srcHost;
    /** Input: this NIC's host id. */
    public int dstHost;
    /** Input: requester QPN, 24 bits. */
    public int srcQpn;
    /** Input: destination QPN (this NIC's QP of the flow), 24 bits. */
    public int dstQpn;
    /** Input: UDP source port of the probe (flow entropy). */
    public int udpSrcPort;
    /** Input: IP DSCP of the probe, 0..63. */
    public int dscp;
    /** Input: IP ECN codepoint of the probe on arrival, 0..3. */
    public int ecn;
    /** Input: the requester's send timestamp carried by the probe, ns, 32-bit wrapping. */
    public int requestSendNs;
    /** Input: IFA2 probes: the metadata header's Hop Limit on arrival, 0..255; -1 for a CCMAD probe (DOCA PCC fact sheet Addendum B.2). */
    public int ifa2HopLimit = -1;
    /** Input: IFA2 probes: the IFA header's GNS, 0..15. */
    public int ifa2Gns;
    /**
     * Input: IFA2 probes: the per-hop records switches inserted, oldest first, 4 longs each holding eight
     * record bytes big-endian ({@link Packet#intHops} of the probe, valid during the call only);
     * null when none.
     */
    public long[] ifa2Records;
    /** Input: IFA2 probes: how many records {@link #ifa2Records} holds. */
    public int ifa2RecordCount;
    /** Input: simulated time the probe has fully arrived and the handler starts, ps. */
    public long nowPs;

    /** Output: response bytes 0..3, read big-endian. */
    public int word0;
    /** Output: response bytes 4..7, read big-endian. */
    public int word1;
    /** Output: response bytes 8..11, read big-endian. */
    public int word2;
    /** Output: simulated time the handler took, ps, at least 0; the response leaves that much after {@link #nowPs}. */
    public long handlerPs;
    /** Output: processor cycles the handler took (counted in {@code np_program_cycles}). */
    public long cycles;

    /** Creates an empty probe record. */
    public NpProbe() {
    }
}
