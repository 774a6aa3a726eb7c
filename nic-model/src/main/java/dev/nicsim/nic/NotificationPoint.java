package dev.nicsim.nic;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * The notification point (NP) of RoCEv2 congestion management (the DCQCN paper, Zhu et al.,
 * SIGCOMM 2015; CNP format per IBTA Annex A17): turns CE-marked packets into CNPs to the sender.
 *
 * <p>Every CE-marked data packet or READ request for a known QP counts
 * {@code np_ecn_marked_roce_packets}; if {@link NicConfig#npEnabled}, a CNP (opcode 0x81, BECN,
 * CNP DSCP/priority/ECN, 16-byte reserved payload, frame {@link RoceNic#CNP_FRAME_BYTES},
 * destination QPN = the marked packet's source QPN) is queued unless one was sent for the same
 * local QP less than {@link NicConfig#cnpIntervalNs} ago (mlx5 {@code min_time_between_cnps});
 * counter {@code np_cnp_sent}. The CNP is queued before the packet's ACK. CNPs for READ responses
 * reach the responder QP, which is not congestion controlled ({@code rp_cnp_ignored} there).
 *
 * <p>Times are ps of simulated time. Allocates nothing.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class NotificationPoint {
    private final Simulator sim;
    private final TxArbiter tx;
    private final boolean npEnabled;
    private final long cnpIntervalPs;
    private final int cnpDscp;
    private final int cnpPriority;
    private final int cnpEcnCodepoint;
    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;

    /**
     * Creates the notification point of a NIC.
     *
     * @param sim      simulator
     * @param tx       the NIC's transmit arbiter (CNPs are control frames)
     * @param config   validated configuration (NP switch, CNP interval, CNP DSCP/priority/ECN)
     * @param counters the NIC's counters
     */
    NotificationPoint(final Simulator sim, final TxArbiter tx, final NicConfig config, final NicCounters counters) {
        this.sim = sim;
        this.tx = tx;
        this.npEnabled = config.npEnabled;
        this.cnpIntervalPs = config.cnpIntervalNs * 1000L;
        this.cnpDscp = config.cnpDscp;
        this.cnpPriority = config.cnpPriority;
        this.cnpEcnCodepoint = config.cnpEcnCodepoint;
        this.cells = counters.cells;
    }

    /**
     * NP: CE-marked RoCE packet -> at most one CNP per QP per interval.
     *
     * @param q the local QP the packet is for
     * @param p the received packet (not kept)
     */
    void onPacket(final Qp q, final Packet p) {
        if (p.ecn != Packet.ECN_CE) {
            return;
        }
        cells[NicCounters.NP_ECN_MARKED]++;
        if (!npEnabled) {
            return;
        }
        final long now = sim.nowPs();
        if (now - q.lastCnpPs < cnpIntervalPs) {
            return;
        }
        q.lastCnpPs = now;
        final Packet c = tx.controlFrame(Packet.KIND_CNP, RoceOpcodes.CNP, p.srcHost, q.qpn, p.srcQpn, cnpDscp,
            cnpPriority, cnpEcnCodepoint, RoceNic.CNP_FRAME_BYTES, q.udpSrcPort, p.flowId);
        c.becn = true;
        cells[NicCounters.NP_CNP_SENT]++;
        tx.enqueueControl(c);
    }
}
