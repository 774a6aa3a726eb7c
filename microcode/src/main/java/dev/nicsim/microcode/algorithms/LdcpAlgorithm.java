package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
 * LDCP, uNIC window form (the LDCP draft §2.2, §2.3, §3.1): a congestion window cw in packets (16.16)
 * updated on every ACK by the ECN echo (PAWA), with a zero-RTT fast start.
 *
 * <h2>Stages</h2>
 * <ul>
 *   <li><b>Fast start</b> (§2.3, §3.1). {@link #initFlow} sets window = IW (iw_bytes, default the
 *       path's BDP, rounded up to whole packets), rate = line rate and a fast-start budget of IW
 *       packets (the NIC sends them Not-ECT except the IW-th and a message's last packet). ACKs
 *       during fast start do not change cw. It ends
 *       <ol>
 *         <li>on loss: NACK OUT_OF_SEQUENCE with expected PSN {@code sn}: the flow's packets from
 *             its first PSN (kept in the context at {@link #initFlow}) up to {@code sn} were
 *             acknowledged in order before the loss, {@code acked = psnDelta(firstPsn, sn)}
 *             (24-bit serial arithmetic, RFC 1982, so any first PSN and the wrap at 2^24 work);
 *             cw = acked packets (at least 1, the smallest window of Eq. (1); the draft gives no
 *             rule for 0), fast-start budget 0; the NIC goes back N from sn;</li>
 *         <li>when a full IW has been acknowledged (ACK with
 *             {@code acked = psnDelta(firstPsn, sn) + 1 >= IW packets}):
 *             cw = BDP in packets (bdpBytes / MTU, 16.16). Packets the same ACK covers beyond the
 *             IW are applied with Eq. (2).</li>
 *       </ol></li>
 *   <li><b>Stable stage</b> (§2.2). An ACK for n = psnDelta(firstSn, sn) + 1 packets:
 *       <ul>
 *         <li>cw &gt;= 1, ECE = 0: {@code cw = cw + n x alpha / cw} (Eq. 2; Eq. 1 for n = 1);</li>
 *         <li>cw &gt;= 1, ECE = 1: {@code cw = cw - n x beta}, not below gamma (Eq. 2);</li>
 *         <li>cw &lt; 1, ECE = 0: {@code cw = cw + n x gamma};</li>
 *         <li>cw &lt; 1, ECE = 1: {@code cw = max(gamma, eta x cw)} applied n times (at most 64; a
 *             flow below one packet has one packet in flight, so n is 1 unless ACKs coalesced).</li>
 *       </ul>
 *       A NACK OUT_OF_SEQUENCE in the stable stage (a stable-stage packet dropped at a full buffer;
 *       the draft is silent) counts as one marked ACK.</li>
 * </ul>
 *
 * <h2>Window and rate</h2>
 * With cw &gt;= 1 the result is window = floor(cw x MTU) bytes at line rate (ACK-clocked). With
 * cw &lt; 1 the flow "is ticked out by a timer, whose timeout is set as RTT/cw" (§2.2): nicsim
 * implements the tick as the NIC's pacer, window = one MTU and rate = one MTU per RTT/cw, i.e.
 * {@code rate = cw x MTU x 8 / RTT} as a fraction of line rate, recomputed on every ACK. The flow
 * TIMER is not used. RTT is an EWMA (gain rtt_gain) of {@code timestampNs - rttRequestSendNs} on
 * ACKs that echo a transmit time (non-zero) and of RTT responses, starting at the base RTT.
 *
 * <h2>Context words</h2>
 * <table>
 *   <caption>ldcp context layout (5 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_STABLE}: fast start over; bit 1
 *       {@link #FLAG_RTT_SAMPLED}: an RTT sample was taken</td></tr>
 *   <tr><td>1 {@link #W_CW}</td><td>cw, packets, 16.16 (IW during fast start)</td></tr>
 *   <tr><td>2 {@link #W_SRTT_NS}</td><td>smoothed RTT, ns (base RTT before the first sample)</td></tr>
 *   <tr><td>3 {@link #W_IW_PACKETS}</td><td>IW in packets</td></tr>
 *   <tr><td>4 {@link #W_FIRST_PSN}</td><td>the flow's first PSN ({@link PccAttributes#initialPsn()}), 24 bits</td></tr>
 * </table>
 *
 * <p>Counters: {@code ldcp_acks_unmarked}, {@code ldcp_acks_marked}, {@code ldcp_acks_below_one}
 * (ACKs handled with cw &lt; 1), {@code ldcp_fast_start_exit_loss}, {@code ldcp_fast_start_exit_iw},
 * {@code ldcp_nacks}, {@code ldcp_rtt_samples}, {@code ldcp_stale_acks} (ACKs with firstSn after sn).
 *
 * <p>Allocation-free in {@link #initFlow} and {@link #onEvent}. Thread-safety: not thread-safe;
 * one instance is driven by one thread (per-flow state is in the context).
 */
public final class LdcpAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_CW = 1, W_SRTT_NS = 2, W_IW_PACKETS = 3, W_FIRST_PSN = 4, CONTEXT_WORDS = 5;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_STABLE = 1, FLAG_RTT_SAMPLED = 2;

    /** Most eta steps applied for one marked ACK below one packet. */
    private static final int MAX_ETA_STEPS = 64;
    /**
     * Handler cycles per event type. Cost model for all built-in algorithms: one cycle per ALU
     * operation, branch, context-word access or result-field write, 3 per multiply, 20 per 64-bit
     * divide. TX_BURST, CNP, TIMER: dispatch and return (4). ACK: n from the PSNs (3), RTT sample
     * and EWMA (8), flags and stage branch (4), PAWA with one divide (28), window (5), and for
     * cw &lt; 1 the pacing rate with two divides (~45 worst case, amortised to 30): 80. NACK: stage
     * branch, cw from sn or one marked step, window (40). RTT_RESPONSE: sample and EWMA (20).
     */
    private static final int[] CYCLES = {4, 80, 40, 4, 20, 4};
    /** Counter ids: index {@code i} is {@code LdcpProvider.TABLE.counters().get(i)}. */
    private static final int C_ACKS_UNMARKED = 0, C_ACKS_MARKED = 1, C_ACKS_BELOW_ONE = 2, C_FAST_START_EXIT_LOSS = 3,
        C_FAST_START_EXIT_IW = 4, C_NACKS = 5, C_RTT_SAMPLES = 6, C_STALE_ACKS = 7;

    private final int alpha = rawInt("alpha");
    private final int beta = rawInt("beta");
    private final int gamma = rawInt("gamma");
    private final int eta = rawInt("eta");
    private final long iwBytes = raw("iw_bytes");
    private final int rttGain = rawInt("rtt_gain");

    /**
     * Creates an instance from validated parameter values (see {@link LdcpProvider}).
     *
     * @param values ldcp parameter values
     */
    LdcpAlgorithm(final PccParameterValues values) {
        super(LdcpProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Starts fast start (the LDCP draft §2.3, §3.1): window = IW packets x MTU, rate = line rate,
     * fast-start budget = IW packets, where IW packets = ceil(IW bytes / MTU), at least 1.
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        final int mtu = attributes.mtuBytes();
        final long iw = iwBytes > 0 ? iwBytes : attributes.bdpBytes();
        final int iwPackets = (int) Math.max(1, Math.min(32767, (iw + mtu - 1) / mtu));
        context.set(W_FLAGS, 0);
        context.set(W_CW, iwPackets << 16);
        context.set(W_SRTT_NS, attributes.baseRttNs());
        context.set(W_IW_PACKETS, iwPackets);
        context.set(W_FIRST_PSN, attributes.initialPsn());
        result.rate(FixedPoint.RATE_ONE).windowBytes((long) iwPackets * mtu).fastStartPackets(iwPackets);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        switch (event.type()) {
            case PccEventType.ACK -> onAck(context, event, attributes, result);
            case PccEventType.NACK -> onNack(context, event, attributes, result);
            case PccEventType.RTT_RESPONSE -> {
                final int sample = (event.timestampNs() - event.rttRequestSendNs())
                    - (event.rttResponseSendNs() - event.rttRequestReceiveNs());
                sampleRtt(context, sample);
            }
            default -> {
                // TX_BURST, CNP and TIMER do not drive the uNIC form (ECN echo on ACKs does)
            }
        }
    }

    private void onAck(final PccContext context, final PccEvent event, final PccAttributes attributes,
                       final PccResult result) {
        final int sn = event.sn();
        final int n = FixedPoint.psnDelta(event.firstSn(), sn) + 1;
        if (n <= 0) {
            counters.increment(C_STALE_ACKS);
            return;
        }
        if (event.rttRequestSendNs() != 0) {
            sampleRtt(context, event.timestampNs() - event.rttRequestSendNs());
        }
        final boolean ece = event.hasFlag(PccEventLayout.FLAG_ECE);
        final int flags = context.get(W_FLAGS);
        int cw;
        if ((flags & FLAG_STABLE) == 0) {
            final int iwPackets = context.get(W_IW_PACKETS);
            final int acked = FixedPoint.psnDelta(context.get(W_FIRST_PSN), sn) + 1;
            if (acked < iwPackets) {
                return; // still in fast start: the window stays IW
            }
            counters.increment(C_FAST_START_EXIT_IW);
            context.set(W_FLAGS, flags | FLAG_STABLE);
            cw = Math.max(gamma, CcMath.packetsFixed(attributes.bdpBytes(), attributes.mtuBytes()));
            final int beyond = Math.min(n, acked - iwPackets);
            if (beyond > 0) {
                cw = pawa(cw, beyond, ece);
            }
            result.fastStartPackets(0);
        } else {
            cw = pawa(context.get(W_CW), n, ece);
        }
        context.set(W_CW, cw);
        publish(context, cw, attributes, result);
    }

    private void onNack(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        counters.increment(C_NACKS);
        if (event.subtype() != PccEventType.NACK_OUT_OF_SEQUENCE) {
            return; // RNR and duplicate-read NAKs are not congestion signals
        }
        final int flags = context.get(W_FLAGS);
        final int cw;
        if ((flags & FLAG_STABLE) == 0) {
            // §3.1 transition 1): cw = packets acknowledged in order before the loss, from the
            // flow's first PSN up to the expected PSN (clamped before the shift cannot overflow)
            final int acked = FixedPoint.psnDelta(context.get(W_FIRST_PSN), event.sn());
            cw = (int) Math.min(CcMath.MAX_WINDOW_PACKETS_FIXED, (long) Math.max(1, acked) << 16);
            context.set(W_FLAGS, flags | FLAG_STABLE);
            counters.increment(C_FAST_START_EXIT_LOSS);
            result.fastStartPackets(0);
        } else {
            cw = pawa(context.get(W_CW), 1, true);
        }
        context.set(W_CW, cw);
        publish(context, cw, attributes, result);
    }

    /**
     * PAWA, the LDCP draft §2.2 Eq. (1), (2) and the rule for cw below one packet.
     *
     * @param cw  window, packets 16.16
     * @param n   packets the ACK covers, positive
     * @param ece whether the ACK echoes CE
     * @return new window, packets 16.16, in {@code [gamma, MAX_WINDOW_PACKETS_FIXED]}
     */
    private int pawa(final int cw, final int n, final boolean ece) {
        counters.increment(ece ? C_ACKS_MARKED : C_ACKS_UNMARKED);
        if (cw >= FixedPoint.ONE) {
            if (ece) {
                final long c = cw - (long) n * beta;
                return c < gamma ? gamma : (int) c;
            }
            final long c = cw + (((long) n * alpha) << 16) / cw;
            return (int) Math.min(CcMath.MAX_WINDOW_PACKETS_FIXED, c);
        }
        counters.increment(C_ACKS_BELOW_ONE);
        if (ece) {
            int c = cw;
            final int steps = Math.min(n, MAX_ETA_STEPS);
            for (int i = 0; i < steps && c > gamma; i++) {
                c = FixedPoint.mul(c, eta);
            }
            return Math.max(gamma, c);
        }
        return (int) Math.min(CcMath.MAX_WINDOW_PACKETS_FIXED, cw + (long) n * gamma);
    }

    private void publish(final PccContext context, final int cw, final PccAttributes attributes,
                         final PccResult result) {
        final int mtu = attributes.mtuBytes();
        if (cw >= FixedPoint.ONE) {
            result.windowBytes(CcMath.windowBytes(cw, mtu)).rate(FixedPoint.RATE_ONE);
        } else {
            result.windowBytes(mtu)
                .rate(CcMath.rateForWindow(cw, mtu, context.get(W_SRTT_NS), attributes.lineRateBitsPerSec()));
        }
    }

    private void sampleRtt(final PccContext context, final int sampleNs) {
        if (sampleNs <= 0) {
            return;
        }
        counters.increment(C_RTT_SAMPLES);
        final int flags = context.get(W_FLAGS);
        if ((flags & FLAG_RTT_SAMPLED) == 0) {
            context.set(W_FLAGS, flags | FLAG_RTT_SAMPLED);
            context.set(W_SRTT_NS, sampleNs);
        } else {
            context.set(W_SRTT_NS, CcMath.ewmaNs(context.get(W_SRTT_NS), sampleNs, rttGain));
        }
    }
}
