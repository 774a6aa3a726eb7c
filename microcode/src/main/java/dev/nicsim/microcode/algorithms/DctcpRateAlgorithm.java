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
 * Rate-based DCTCP as the HPCC ns-3 simulator's {@code RdmaHw} runs it (CC_MODE 8,
 * {@code rdma-hw.cc HandleAckDctcp}, state {@code RdmaQueuePair::dctcp}): DCTCP's estimate of the
 * marked fraction (Alizadeh et al., SIGCOMM 2010, §3.1 eq. 1; RFC 8257 §3.3) with the window's
 * reaction replaced by one on the sending rate. nicsim's {@code dctcp} ({@link DctcpAlgorithm}) is
 * the RFC's window algorithm; this one differs in what it controls (rate, not cwnd), in its
 * increase (DCTCP_RATE_AI per window instead of slow start / one MTU per RTT) and in how it counts
 * the marked fraction (ECN-echo ACKs over a packet count fixed when the window starts).
 *
 * <h2>Signal</h2>
 * ns-3 sets the CNP flag of the ACK of every CE-marked data packet (an ACK per packet), and
 * {@code HandleAckDctcp} reads that flag; it never sends CNP packets. Here the flag is
 * {@link PccEventLayout#FLAG_ECE} of the ACK event; CNP events are ignored (run with the NP off, so
 * no CNP packets are sent). ns-3 sequence numbers are bytes from 0; here PSNs from the flow's
 * first PSN ({@link PccAttributes#initialPsn()}, kept in the context), compared with 24-bit serial
 * arithmetic, so any first PSN and the wrap at 2^24 work. "snd_nxt" is the PSN after the last one
 * sent (from TX_BURST; exact with {@code tx_burst_packets: 1}, up to a burst behind otherwise; an
 * ACK of PSN p proves p was sent).
 *
 * <h2>Per ACK (highest acknowledged PSN {@code sn}, {@code cnp} = ECE)</h2>
 * <pre>
 *   ecn_count += cnp
 *   if sn &gt;= update_psn (ns-3: ack_seq &gt; m_lastUpdateSeq):              new batch
 *       first time:  batch = packets sent + 1 (ns-3: snd_nxt / mtu + 1), ecn_count kept
 *       otherwise:   alpha = (1 - g) alpha + g min(1, ecn_count / batch); ecn_count = 0;
 *                    batch = packets sent and not acknowledged + 1 (ns-3: (snd_nxt - ack_seq) / mtu + 1)
 *       update_psn = snd_nxt
 *   if in CWR and sn &gt;= high_psn:  leave CWR                           (ns-3: ack_seq &gt; m_highSeq)
 *   if cnp and not in CWR:  rate = max(min_rate, rate (1 - alpha / 2)); enter CWR; high_psn = snd_nxt
 *   if not in CWR and new batch:  rate = min(line rate, rate + rate_ai)
 * </pre>
 * "Packets" follow ns-3's byte arithmetic: a short last packet of the message, once sent, does not
 * count (floor of bytes / MTU); a TX_BURST whose bytes fall short of packets x MTU marks it.
 * NACK OUT_OF_SEQUENCE (ns-3 runs {@code HandleAckDctcp} on NACKs too, after
 * {@code RecoverQueue} set snd_nxt = snd_una): snd_nxt = the NACK's PSN, then the steps above with
 * {@code sn} = NACK PSN - 1 and no ECE (nicsim's NAK carries no echo; ns-3 sets the flag on a NACK
 * whose out-of-order packet was marked). Other events change nothing.
 *
 * <h2>Arithmetic</h2>
 * Rates in kb/s, alpha and g in 16.16: {@code rate - floor(rate x alpha / 2^17)}, alpha floored; a
 * rate differs from ns-3's {@code DataRate x double} by less than 1 kb/s plus 2^-16 of the rate. The
 * rate starts at line rate (ns-3 {@code qp->m_rate = m_bps}), with no window.
 *
 * <table>
 *   <caption>dctcp-rate context layout (9 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_STARTED} (first batch begun: ns-3
 *       m_lastUpdateSeq != 0), bit 1 {@link #FLAG_IN_CWR} (m_caState 1), bit 2
 *       {@link #FLAG_SHORT_SENT} (the short last packet has been sent)</td></tr>
 *   <tr><td>1 {@link #W_RATE_KBPS}</td><td>current rate, kb/s</td></tr>
 *   <tr><td>2 {@link #W_ALPHA}</td><td>alpha, 16.16</td></tr>
 *   <tr><td>3 {@link #W_ECN_COUNT}</td><td>ECN-echo ACKs in this batch (m_ecnCnt)</td></tr>
 *   <tr><td>4 {@link #W_BATCH_PACKETS}</td><td>batch size of alpha (m_batchSizeOfAlpha), packets</td></tr>
 *   <tr><td>5 {@link #W_UPDATE_PSN}</td><td>snd_nxt at the last alpha update (m_lastUpdateSeq), PSN</td></tr>
 *   <tr><td>6 {@link #W_HIGH_PSN}</td><td>snd_nxt at the last cut (m_highSeq), PSN</td></tr>
 *   <tr><td>7 {@link #W_NEXT_PSN}</td><td>snd_nxt, PSN</td></tr>
 *   <tr><td>8 {@link #W_FIRST_PSN}</td><td>the flow's first PSN (byte 0 of ns-3)</td></tr>
 * </table>
 *
 * <p>Counters: {@code dctcp_rate_alpha_updates}, {@code dctcp_rate_cuts},
 * {@code dctcp_rate_increases}, {@code dctcp_rate_acks_marked}, {@code dctcp_rate_min_rate_clamps}.
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; one driving thread.
 */
public final class DctcpRateAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_RATE_KBPS = 1, W_ALPHA = 2, W_ECN_COUNT = 3, W_BATCH_PACKETS = 4,
        W_UPDATE_PSN = 5, W_HIGH_PSN = 6, W_NEXT_PSN = 7, W_FIRST_PSN = 8, CONTEXT_WORDS = 9;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_STARTED = 1, FLAG_IN_CWR = 2, FLAG_SHORT_SENT = 4;

    private static final int MASK = PccEventLayout.MASK_24;
    /** Handler cycles: TX_BURST 10; ACK (count, compare, one divide and two multiplies, cut multiply) 60; NACK 60; others 4. */
    private static final int[] CYCLES = {10, 60, 60, 4, 4, 4};
    /** Counter ids: index {@code i} is {@code DctcpRateProvider.TABLE.counters().get(i)}. */
    private static final int C_ALPHA_UPDATES = 0, C_CUTS = 1, C_INCREASES = 2, C_ACKS_MARKED = 3, C_MIN_RATE_CLAMPS = 4;

    private final long g = raw("g");
    private final int initialAlpha = rawInt("initial_alpha");
    private final long aiKbps = raw("rate_ai_mbps") * 1000L;
    private final long minRateKbps = raw("min_rate_mbps") * 1000L;

    /**
     * Creates an instance from validated parameter values (see {@link DctcpRateProvider}).
     *
     * @param values dctcp-rate parameter values
     */
    DctcpRateAlgorithm(final PccParameterValues values) {
        super(DctcpRateProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Starts at line rate with no window, alpha = initial_alpha, snd_nxt = update PSN = the first PSN.
     *
     * @throws IllegalArgumentException if the line rate is outside 1 kb/s .. 2^31 - 1 kb/s
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        final int first = attributes.initialPsn() & MASK;
        context.set(W_FLAGS, 0);
        context.set(W_RATE_KBPS, CcMath.lineKbps(attributes, "dctcp-rate"));
        context.set(W_ALPHA, initialAlpha);
        context.set(W_ECN_COUNT, 0);
        context.set(W_BATCH_PACKETS, 0);
        context.set(W_UPDATE_PSN, first);
        context.set(W_HIGH_PSN, first);
        context.set(W_NEXT_PSN, first);
        context.set(W_FIRST_PSN, first);
        result.rate(FixedPoint.RATE_ONE).windowBytes(PccResult.WINDOW_UNLIMITED);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        switch (event.type()) {
            case PccEventType.TX_BURST -> {
                context.set(W_NEXT_PSN, (event.sn() + 1) & MASK);
                final int flags = context.get(W_FLAGS) & ~FLAG_SHORT_SENT;
                final boolean isShort = (long) event.txBytes() < (long) event.txPackets() * attributes.mtuBytes();
                context.set(W_FLAGS, isShort ? flags | FLAG_SHORT_SENT : flags);
            }
            case PccEventType.ACK -> {
                final boolean ece = event.hasFlag(PccEventLayout.FLAG_ECE);
                if (ece) {
                    counters.increment(C_ACKS_MARKED);
                }
                onAck(context, event.sn() & MASK, ece, attributes, result);
            }
            case PccEventType.NACK -> {
                if (event.subtype() == PccEventType.NACK_OUT_OF_SEQUENCE) {
                    final int sn = event.sn() & MASK;
                    context.set(W_NEXT_PSN, sn); // RecoverQueue: snd_nxt = snd_una
                    context.set(W_FLAGS, context.get(W_FLAGS) & ~FLAG_SHORT_SENT);
                    onAck(context, (sn - 1) & MASK, false, attributes, result);
                }
            }
            default -> {
                // CNP, RTT_RESPONSE, TIMER: CC_MODE 8 reads only the ECN echo of ACKs
            }
        }
    }

    /** {@code HandleAckDctcp} for an acknowledgement up to and including PSN {@code sn}. */
    private void onAck(final PccContext context, final int sn, final boolean cnp, final PccAttributes attributes,
                       final PccResult result) {
        int next = context.get(W_NEXT_PSN);
        if (FixedPoint.psnDelta(next, sn) >= 0) {
            next = (sn + 1) & MASK; // acknowledged, so sent: TX_BURST lags by up to a burst
            context.set(W_NEXT_PSN, next);
        }
        int flags = context.get(W_FLAGS);
        int ecn = context.get(W_ECN_COUNT) + (cnp ? 1 : 0);
        boolean newBatch = false;
        if (FixedPoint.psnDelta(context.get(W_UPDATE_PSN), sn) >= 0) {
            newBatch = true;
            final boolean shortSent = (flags & FLAG_SHORT_SENT) != 0;
            if ((flags & FLAG_STARTED) == 0) {
                flags |= FLAG_STARTED;
                final int sent = (next - context.get(W_FIRST_PSN)) & MASK;
                context.set(W_BATCH_PACKETS, sent - (shortSent && sent > 0 ? 1 : 0) + 1);
            } else {
                final long frac = Math.min(FixedPoint.ONE, ((long) ecn << 16) / context.get(W_BATCH_PACKETS));
                context.set(W_ALPHA, (int) (((FixedPoint.ONE - g) * context.get(W_ALPHA) + g * frac) >> 16));
                ecn = 0;
                final int inFlight = (next - sn - 1) & MASK;
                context.set(W_BATCH_PACKETS, inFlight - (shortSent && inFlight > 0 ? 1 : 0) + 1);
                counters.increment(C_ALPHA_UPDATES);
            }
            context.set(W_UPDATE_PSN, next);
        }
        context.set(W_ECN_COUNT, ecn);
        if ((flags & FLAG_IN_CWR) != 0 && FixedPoint.psnDelta(context.get(W_HIGH_PSN), sn) >= 0) {
            flags &= ~FLAG_IN_CWR;
        }
        final long old = context.get(W_RATE_KBPS);
        long rate = old;
        if (cnp && (flags & FLAG_IN_CWR) == 0) {
            rate = rate - ((rate * context.get(W_ALPHA)) >> 17);
            if (rate < minRateKbps) {
                rate = minRateKbps;
                counters.increment(C_MIN_RATE_CLAMPS);
            }
            flags |= FLAG_IN_CWR;
            context.set(W_HIGH_PSN, next);
            counters.increment(C_CUTS);
        }
        if ((flags & FLAG_IN_CWR) == 0 && newBatch) {
            rate = Math.min(CcMath.lineKbps(attributes, "dctcp-rate"), rate + aiKbps);
            counters.increment(C_INCREASES);
        }
        context.set(W_FLAGS, flags);
        if (rate != old) {
            context.set(W_RATE_KBPS, (int) rate);
            result.rate(DcqcnAlgorithm.toRate((int) rate, attributes.lineRateBitsPerSec()));
        }
    }
}
