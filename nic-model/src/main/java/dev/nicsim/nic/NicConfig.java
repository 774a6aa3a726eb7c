package dev.nicsim.nic;

import dev.nicsim.sim.Packet;

import java.util.List;

/**
 * Configuration of one {@link RoceNic}: path MTU, responder ACK policy, notification point (NP),
 * retransmission timeout, PCC TX-burst granularity, and the DSCP / 802.1p priority / ECN codepoint
 * of each frame class. Fields are public and mutable while a scenario is being built; the NIC
 * copies them (after {@link #validate()}) when it is constructed, so later changes have no effect
 * on an existing NIC.
 *
 * <p>Thread-safety: not thread-safe; configure on one thread, then hand to the NIC.
 */
public final class NicConfig implements Cloneable {
    /** DOCA's initial Hop Limit of IFA2 probes ({@code doca_pcc_rp_set_ifa2_hop_limit} default 0xFE, fact sheet B.1). */
    public static final int DEFAULT_PROBE_IFA2_HOP_LIMIT = 0xFE;
    /** Default {@link #mtuBytes}, bytes. */
    public static final int DEFAULT_MTU_BYTES = 1024;
    /** Default {@link #ackEveryPackets}: per-packet ACK. */
    public static final int DEFAULT_ACK_EVERY_PACKETS = 1;
    /** Default {@link #cnpIntervalNs}, ns (mlx5 {@code min_time_between_cnps}, 4 us). */
    public static final long DEFAULT_CNP_INTERVAL_NS = 4_000;
    /** Default {@link #npEnabled}. */
    public static final boolean DEFAULT_NP_ENABLED = true;
    /** Default {@link #rtoNs}, ns (1 ms). */
    public static final long DEFAULT_RTO_NS = 1_000_000;
    /** Default {@link #txBurstPackets}, packets. */
    public static final int DEFAULT_TX_BURST_PACKETS = 8;
    /** Default {@link #dataDscp} (common RoCE DSCP). */
    public static final int DEFAULT_DATA_DSCP = 26;
    /** Default {@link #dataPriority}. */
    public static final int DEFAULT_DATA_PRIORITY = 3;
    /** Default {@link #ackDscp}: the data DSCP (mlx5 ACKs use the QP's traffic class). */
    public static final int DEFAULT_ACK_DSCP = DEFAULT_DATA_DSCP;
    /** Default {@link #ackPriority}: the data priority. */
    public static final int DEFAULT_ACK_PRIORITY = DEFAULT_DATA_PRIORITY;
    /** Default {@link #cnpDscp} (mlx5 {@code CNP_DSCP}). */
    public static final int DEFAULT_CNP_DSCP = 48;
    /** Default {@link #cnpPriority} (mlx5 {@code CNP_802P_PRIO}). */
    public static final int DEFAULT_CNP_PRIORITY = 6;
    /** Default {@link #probeIfa2Gns} (DOCA default 0xF). */
    public static final int DEFAULT_PROBE_IFA2_GNS = 0xF;
    /** {@link #lossRecovery}: go-back-N, RoCEv2's RC behaviour (default). */
    public static final int LOSS_RECOVERY_GO_BACK_N = 0;
    /** {@link #lossRecovery}: selective repeat with an out-of-order receiver and SACK (UET, IRN). */
    public static final int LOSS_RECOVERY_SELECTIVE_REPEAT = 1;
    /** Default {@link #lossRecovery}: go-back-N. */
    public static final int DEFAULT_LOSS_RECOVERY = LOSS_RECOVERY_GO_BACK_N;
    /** Default {@link #ackCoalesceBytes}: 0, the ACK policy of {@link #ackEveryPackets}. */
    public static final int DEFAULT_ACK_COALESCE_BYTES = 0;
    /** Default {@link #srWindowPackets}: 1024 packets. */
    public static final int DEFAULT_SR_WINDOW_PACKETS = 1024;
    /** Default {@link #srLossThresholdPackets}: RFC 6675's DupThresh, 3. */
    public static final int DEFAULT_SR_LOSS_THRESHOLD_PACKETS = 3;
    /** {@link #pathPolicy}: one UDP source port per QP, the switches' per-flow ECMP (RoCEv2; the default). */
    public static final int PATH_ECMP = 0;
    /** {@link #pathPolicy}: a fresh EV per packet, round robin over the EVs in an order re-drawn every cycle. */
    public static final int PATH_OBLIVIOUS = 1;
    /** {@link #pathPolicy}: as oblivious, skipping EVs penalised by ECN echoes, NACKs and timeouts. */
    public static final int PATH_BITMAP = 2;
    /** {@link #pathPolicy}: REPS, recycling the EVs of ACKs without ECN (up to 8 cached), freezing after a timeout. */
    public static final int PATH_REPS = 3;
    /** {@link #pathPolicy}: the EVs of ACKs without ECN from a FIFO, else bitmap. */
    public static final int PATH_MIXED = 4;
    /** The scenario names of the path policies, indexed by their {@link #pathPolicy} value. */
    public static final List<String> PATH_POLICY_NAMES = List.of("ecmp", "oblivious", "bitmap", "reps",
        "mixed");
    /** Default {@link #pathEntropies} (uet-htsim's {@code -paths} default). */
    public static final int DEFAULT_PATH_ENTROPIES = 64;
    /** Largest {@link #pathEntropies}: the 14 low bits of a RoCEv2 UDP source port (49152 .. 65535). */
    public static final int MAX_PATH_ENTROPIES = 1 << 14;

    /**
     * RoCE path MTU: payload bytes per full data packet. IBTA path MTUs are 256, 512, 1024, 2048
     * and 4096; any value in {@code 1 .. 9000} is accepted for exploration. Default 1024.
     */
    public int mtuBytes = DEFAULT_MTU_BYTES;

    /**
     * Responder ACK coalescing, in data packets, {@code >= 1}. 1 (default) = one ACK per data
     * packet (LDCP per-packet ACK, the LDCP draft §2.2 and §3.1). m &gt; 1 = delayed ACK covering up to m
     * in-order packets, with the DCTCP CE state machine of the DCTCP draft §3.2: when a packet's CE bit
     * differs from the QP's DCTCP.CE state, the packets not yet acknowledged are acknowledged at
     * once (ECE = the old state) before the state flips. A packet with AckReq set is acknowledged
     * at once.
     */
    public int ackEveryPackets = DEFAULT_ACK_EVERY_PACKETS;

    /**
     * Delayed-ACK timeout, ns, {@code >= 0}: with {@link #ackEveryPackets} &gt; 1, in-order packets
     * left unacknowledged this long after the first of them arrived are acknowledged (so a
     * window-limited sender cannot stall until its retransmission timeout). 0 = no timer. Default
     * 2000 ns. Not used with per-packet ACK.
     */
    public long delayedAckTimeoutNs = 2_000;

    /**
     * NP: minimum time between two CNPs for the same QP, ns, {@code >= 0} (mlx5
     * {@code min_time_between_cnps}, default 4 us; the RoCE ECN/DCQCN article §4: one CNP for several CE-marked
     * packets of a QP). 0 = a CNP for every CE-marked packet.
     */
    public long cnpIntervalNs = DEFAULT_CNP_INTERVAL_NS;

    /** Whether the notification point sends CNPs for CE-marked packets (the RoCE ECN/DCQCN article §4). Default true. */
    public boolean npEnabled = DEFAULT_NP_ENABLED;

    /**
     * Local ACK timeout (retransmission timeout), ns, {@code > 0}: when no ACK has advanced the
     * oldest unacknowledged PSN for this long, the requester goes back to that PSN (go-back-N,
     * the LDCP draft §3.1) and counts {@code local_ack_timeout_err}. Default 1 ms.
     */
    public long rtoNs = DEFAULT_RTO_NS;

    /**
     * A {@code TX_BURST} PCC event is emitted every this many data packets sent by a requester QP,
     * or when the QP has sent its message's last packet; {@code >= 1}. Default 8.
     */
    public int txBurstPackets = DEFAULT_TX_BURST_PACKETS;

    /** DSCP of data packets, READ requests and RTT probes, 0..63. Default 26 (common RoCE DSCP). */
    public int dataDscp = DEFAULT_DATA_DSCP;
    /** 802.1p priority (PCP) of data packets, READ requests and RTT probes, 0..7. Default 3. */
    public int dataPriority = DEFAULT_DATA_PRIORITY;
    /**
     * DSCP of ACK/NAK and RTT response frames, 0..63. Default 26: mlx5 sends ACKs in the QP's
     * traffic class, the same as its data.
     */
    public int ackDscp = DEFAULT_ACK_DSCP;
    /** 802.1p priority of ACK/NAK and RTT response frames, 0..7. Default 3, as data. */
    public int ackPriority = DEFAULT_ACK_PRIORITY;
    /** DSCP of CNPs, 0..63. Default 48 (mlx5 {@code CNP_DSCP}). */
    public int cnpDscp = DEFAULT_CNP_DSCP;
    /** 802.1p priority of CNPs, 0..7. Default 6 (mlx5 {@code CNP_802P_PRIO}). */
    public int cnpPriority = DEFAULT_CNP_PRIORITY;

    /**
     * IP ECN codepoint of data packets and READ requests outside fast start, {@link Packet#ECN_NOT_ECT}
     * .. {@link Packet#ECN_ECT0}. Default ECT(0) ('10', the RoCE ECN/DCQCN article §5 step 1). First-RTT packets of
     * the fast-start budget go Not-ECT regardless (the LDCP draft §2.3, §3.1).
     */
    public int ecnCodepoint = Packet.ECN_ECT0;
    /**
     * IP ECN codepoint of ACK/NAK and RTT frames, 0..2. Default ECT(0), so a switch WRED profile
     * that drops Not-ECT first-RTT packets above K (the LDCP draft Eq. 3) never drops ACKs.
     */
    public int ackEcnCodepoint = Packet.ECN_ECT0;
    /** IP ECN codepoint of CNPs, 0..2. Default ECT(1) ('01', the RoCE ECN/DCQCN article §5 steps 6-7). */
    public int cnpEcnCodepoint = Packet.ECN_ECT1;
    /**
     * HPCC INT: bytes of the INT header every data packet and ACK carries on the wire (the HPCC ns-3
     * {@code IntHeader} in NORMAL mode: 5 hops x 8 bytes + a 2-byte hop count = 42), and whether the
     * responder echoes the data packet's hop records ({@link Packet#intHops}) in its ACK and the ACK
     * PCC event carries them. 0 = no INT (default; costs nothing).
     */
    public int intHeaderBytes;
    /** HPCC INT: ns-3's INT_MULTI, the unit multiplier of the byte and queue fields in ACK events. */
    public int intMulti = 1;
    /**
     * RTT probe format: -1 = CCMAD probes (default, as before), 0..255 = IFA2 probes whose metadata
     * header starts with this Hop Limit (DOCA's {@code doca_pcc_set_ifa2_probe_packet_format} with
     * {@code doca_pcc_rp_set_ifa2_hop_limit}, default there 0xFE; DOCA PCC fact sheet Addendum B.1).
     * IFA2 probes need a packet pool with INT room; the sending NIC inserts no record of its own.
     */
    public int probeIfa2HopLimit = -1;
    /** IFA2 probes: the IFA header's GNS, 0..15 ({@code doca_pcc_rp_set_ifa2_gns}, DOCA default 0xF). */
    public int probeIfa2Gns = DEFAULT_PROBE_IFA2_GNS;

    /**
     * Loss recovery of RC data (WRITE/SEND): {@link #LOSS_RECOVERY_GO_BACK_N} (default; RoCEv2) or
     * {@link #LOSS_RECOVERY_SELECTIVE_REPEAT}: the responder accepts packets beyond the expected PSN
     * into a bitmap of {@link #srWindowPackets}, ACKs carry the cumulative PSN and a 64-bit SACK
     * bitmap, NACKs name one PSN, and the requester resends only missing packets
     * ({@link SelectiveRepeat}). Both ends of a flow must use the same mode.
     */
    public int lossRecovery = DEFAULT_LOSS_RECOVERY;

    /**
     * Responder ACK coalescing by bytes, {@code >= 0}. 0 (default) = the policy of
     * {@link #ackEveryPackets}. n &gt; 0 = UET's rule as uet-htsim implements it
     * ({@code UecSink::processData}, {@code _bytes_unacked_threshold = 16384}): an ACK once n frame
     * bytes have been accepted since the last ACK, and at once for a CE-marked packet (the ACK's ECE
     * is that packet's CE bit), the flow's first packet, or a packet with AckReq (then once more when
     * the out-of-order packets drain, under selective repeat). The requester then also sets AckReq on
     * a packet that fills its window. The delayed-ACK timer ({@link #delayedAckTimeoutNs}) does not
     * run: uet-htsim's sink has none, and a flow slower than 16 KiB per 2 us (an outcast's) would be
     * ACKed per packet by it.
     */
    public int ackCoalesceBytes = DEFAULT_ACK_COALESCE_BYTES;

    /**
     * Selective repeat: the window, packets, a power of two in {@code 64 .. 65536}. The responder
     * accepts PSNs up to {@code expected + window - 1} into its bitmap (a packet further ahead is
     * dropped and counts {@code out_of_sequence}); the requester never has a packet more than
     * {@code window - 1} past its oldest unacknowledged one outstanding (IRN's BDP-FC cap, Mittal et al.,
     * SIGCOMM 2018, §3.2), so with equal windows nothing is dropped for being too far ahead. Default 1024.
     */
    public int srWindowPackets = DEFAULT_SR_WINDOW_PACKETS;

    /**
     * Selective repeat: a packet not yet acknowledged is deemed lost, and resent once, when at least
     * this many packets beyond it have been SACKed (RFC 6675 §4 {@code IsLost}, DupThresh); {@code 0
     * .. 63}, 0 = never (resends on NACK and timeout only, as uet-htsim without SLEEK). Default 3.
     */
    public int srLossThresholdPackets = DEFAULT_SR_LOSS_THRESHOLD_PACKETS;

    /**
     * How a requester chooses the entropy (UDP source port; UET's entropy value, EV) of each WRITE/SEND data
     * packet, which switches hash with ECMP: {@link #PATH_ECMP} (default), {@link #PATH_OBLIVIOUS},
     * {@link #PATH_BITMAP}, {@link #PATH_REPS} or {@link #PATH_MIXED}, as uet-htsim's {@code UecMultipath}
     * policies (docs/uet.md, "Spraying"). READ requests, READ responses, ACKs, CNPs and RTT frames keep the
     * QP's one port.
     */
    public int pathPolicy = PATH_ECMP;
    /**
     * EVs per flow for the spraying policies, a power of two in {@code 1 .. 16384} (uet-htsim {@code -paths},
     * default 64): EV {@code i} of a QP is UDP source port {@code 0xC000 | ((qpPort ^ i) & 0x3FFF)}. Unused with
     * {@link #PATH_ECMP}.
     */
    public int pathEntropies = DEFAULT_PATH_ENTROPIES;
    /** Seed of the spraying policies' per-QP random streams (the fabric sets it from the scenario seed); default 0. */
    public long pathSeed;

    /** Creates a configuration holding every default. */
    public NicConfig() {
    }

    /**
     * Checks every field.
     *
     * @return this
     * @throws IllegalArgumentException naming the first field that is out of range and what was expected
     */
    public NicConfig validate() {
        range("mtuBytes", mtuBytes, 1, 9000);
        range("ackEveryPackets", ackEveryPackets, 1, Integer.MAX_VALUE);
        range("delayedAckTimeoutNs", delayedAckTimeoutNs, 0, 1_000_000_000_000L);
        range("cnpIntervalNs", cnpIntervalNs, 0, 1_000_000_000_000L);
        range("rtoNs", rtoNs, 1, 1_000_000_000_000L);
        range("txBurstPackets", txBurstPackets, 1, Integer.MAX_VALUE);
        range("dataDscp", dataDscp, 0, 63);
        range("dataPriority", dataPriority, 0, 7);
        range("ackDscp", ackDscp, 0, 63);
        range("ackPriority", ackPriority, 0, 7);
        range("cnpDscp", cnpDscp, 0, 63);
        range("cnpPriority", cnpPriority, 0, 7);
        range("ecnCodepoint", ecnCodepoint, Packet.ECN_NOT_ECT, Packet.ECN_ECT0);
        range("ackEcnCodepoint", ackEcnCodepoint, Packet.ECN_NOT_ECT, Packet.ECN_ECT0);
        range("cnpEcnCodepoint", cnpEcnCodepoint, Packet.ECN_NOT_ECT, Packet.ECN_ECT0);
        range("probeIfa2HopLimit", probeIfa2HopLimit, -1, 255);
        range("probeIfa2Gns", probeIfa2Gns, 0, 15);
        range("lossRecovery", lossRecovery, LOSS_RECOVERY_GO_BACK_N, LOSS_RECOVERY_SELECTIVE_REPEAT);
        range("ackCoalesceBytes", ackCoalesceBytes, 0, Integer.MAX_VALUE);
        range("srWindowPackets", srWindowPackets, 64, 65536);
        if (Integer.bitCount(srWindowPackets) != 1) {
            throw new IllegalArgumentException("NicConfig.srWindowPackets must be a power of two, got " + srWindowPackets);
        }
        range("srLossThresholdPackets", srLossThresholdPackets, 0, 63);
        range("pathPolicy", pathPolicy, PATH_ECMP, PATH_MIXED);
        range("pathEntropies", pathEntropies, 1, MAX_PATH_ENTROPIES);
        if (Integer.bitCount(pathEntropies) != 1) {
            throw new IllegalArgumentException("NicConfig.pathEntropies must be a power of two, got " + pathEntropies);
        }
        return this;
    }

    /**
     * A copy of this configuration.
     *
     * @return a new object with the same field values
     */
    public NicConfig copy() {
        try {
            return (NicConfig) super.clone(); // every field is a primitive: the shallow copy is whole
        } catch (final CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private static void range(final String field, final long value, final long min, final long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("NicConfig." + field + " must be "
                + (max == Integer.MAX_VALUE ? ">= " + min : "in " + min + ".." + max) + ", got " + value);
        }
    }

    @Override
    public String toString() {
        return "NicConfig{mtuBytes=" + mtuBytes + ", ackEveryPackets=" + ackEveryPackets
            + ", delayedAckTimeoutNs=" + delayedAckTimeoutNs + ", cnpIntervalNs=" + cnpIntervalNs
            + ", npEnabled=" + npEnabled + ", rtoNs=" + rtoNs + ", txBurstPackets=" + txBurstPackets
            + ", dataDscp=" + dataDscp + ", dataPriority=" + dataPriority + ", ackDscp=" + ackDscp
            + ", ackPriority=" + ackPriority + ", cnpDscp=" + cnpDscp + ", cnpPriority=" + cnpPriority
            + ", ecnCodepoint=" + ecnCodepoint + ", ackEcnCodepoint=" + ackEcnCodepoint
            + ", cnpEcnCodepoint=" + cnpEcnCodepoint + ", lossRecovery=" + lossRecovery
            + ", ackCoalesceBytes=" + ackCoalesceBytes + ", srWindowPackets=" + srWindowPackets
            + ", srLossThresholdPackets=" + srLossThresholdPackets + ", pathPolicy="
            + (pathPolicy >= 0 && pathPolicy < PATH_POLICY_NAMES.size() ? PATH_POLICY_NAMES.get(pathPolicy) : pathPolicy)
            + ", pathEntropies=" + pathEntropies + "}";
    }
}
