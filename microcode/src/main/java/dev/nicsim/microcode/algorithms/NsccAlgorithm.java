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
 * NSCC, the Ultra Ethernet Transport's sender congestion control, as uet-htsim's {@code UecSrc}
 * runs it ({@code htsim/sim/uec.cpp}: {@code processAck}, {@code updateCwndOnAck_NSCC},
 * {@code updateCwndOnNack_NSCC}, {@code quick_adapt}, {@code fulfill_adjustment}); a byte window on
 * the PCC event API. The rate stays at line rate.
 *
 * <h2>Units</h2>
 * Windows count wire bytes as htsim's do: a packet is MSS + {@code header_bytes}, where the MSS is
 * the flow's payload MTU ({@link PccAttributes#mtuBytes}); the window result is
 * {@code floor(cwnd x MSS / (MSS + header))} payload bytes, which admits exactly the full packets htsim's
 * {@code cwnd >= in_flight + packet} admits. Delays are in ps as in htsim, from ns event times.
 *
 * <h2>Constants (per event, from the attributes and parameters; htsim {@code initNsccParams})</h2>
 * <pre>
 *   network RTT R (network_rtt_ns, else the flow's base RTT), rate C (network_rate_mbps, else line rate)
 *   a = floor(R x C / 8) / reference_bdp            target T = 0.75 R with trimming, else R
 *   b = T / reference_rtt      alpha = 4 MSS a b / T (B/ps)      fi = 5 MSS a      eta = 0.15 MSS a
 *   fast-increase scale 0.25 a     quick-adapt threshold 4 T     adjust bytes 8 (MSS + header)
 * </pre>
 * Per flow: base RTT B starts at the flow's base RTT and follows lower samples; maxwnd =
 * floor(1.5 x floor(B x line rate / 8)); cwnd within [MSS + header, maxwnd].
 *
 * <h2>Per ACK (n newly acknowledged packets, N = n (MSS + header) bytes)</h2>
 * achieved, received and ignored bytes grow by N. With an echoed send time, raw = now - send; B =
 * min(B, raw); delay d = raw - B; avg = w s + (1 - w) avg (truncated to ps) where the sample s = d,
 * or B / 4 for an unmarked ACK with d above T. Without an echo d = avg. Then quick adapt (below); if
 * it acted, nothing else. Else one of four cases:
 * <ul>
 *   <li>no ECN, d &gt;= T: fair increase, inc += fi x N;</li>
 *   <li>no ECN, d &lt; T: fast increase if d stays under 1 us for more than a window (fi_count &gt;
 *       cwnd, or already increasing): cwnd += 0.25 a N at once; otherwise proportional increase,
 *       inc += alpha N (T - d);</li>
 *   <li>ECN, d &gt;= T: multiplicative decrease if avg &gt; T and more than B since the last one:
 *       cwnd = cwnd x max(1 - 0.8 (avg - T) / avg, 0.5);</li>
 *   <li>ECN, d &lt; T: no change.</li>
 * </ul>
 * Then, when more than 8 packets' bytes were received or more than R passed since the last
 * adjustment: cwnd += floor(inc / cwnd), plus floor(eta) if at least R passed (then the adjustment
 * time moves); inc and received reset.
 *
 * <h2>Quick adapt</h2>
 * Skipped (counted as ignored, increases dropped) for an ECN ACK or a NACK while the ignored bytes are
 * under the bytes in flight at the last quick adapt. Otherwise, at most once per period B + T: at the
 * period's end, if a NACK came or the delay exceeds 4 T, and the bytes achieved in the period are
 * under maxwnd / 8, cwnd = max(achieved, one packet); a new period starts either way.
 *
 * <h2>NACK (OUT_OF_SEQUENCE: the receiver NACKs a trimmed packet)</h2>
 * The RTT sample of an echoed send time lowers B (base_rtt_on_nack); ignored bytes grow by one
 * packet; avg takes the sample R; quick adapt is triggered; if it did not act, cwnd loses one packet.
 *
 * <h2>Not modelled</h2>
 * The last packet of a message counts as a full one; the bytes in flight at quick adapt are the PSNs
 * between the ACK and the last TX_BURST's (up to {@code tx_burst_packets} - 1 short); times are ns;
 * the sums htsim keeps in 32 bits do not wrap here; RTO and receiver-window penalties have no event.
 *
 * <table>
 *   <caption>nscc context layout (18 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_QA_STARTED}, bit 1 {@link #FLAG_INCREASING},
 *       bit 2 {@link #FLAG_TRIGGER_QA}, bit 3 {@link #FLAG_SENT}</td></tr>
 *   <tr><td>1 {@link #W_CWND_BYTES}</td><td>cwnd, wire bytes</td></tr>
 *   <tr><td>2 {@link #W_MAXWND_BYTES}</td><td>maxwnd, wire bytes</td></tr>
 *   <tr><td>3 {@link #W_BASE_RTT_NS}</td><td>base RTT B, ns</td></tr>
 *   <tr><td>4-5 {@link #W_AVG_DELAY_PS}</td><td>average delay, ps (long)</td></tr>
 *   <tr><td>6-7 {@link #W_INC_BYTES}</td><td>accumulated increase inc, bytes^2 (long)</td></tr>
 *   <tr><td>8 {@link #W_FI_COUNT_BYTES}</td><td>bytes acked at a delay under 1 us</td></tr>
 *   <tr><td>9 {@link #W_ACHIEVED_BYTES}</td><td>bytes acked in this quick-adapt period</td></tr>
 *   <tr><td>10 {@link #W_RECEIVED_BYTES}</td><td>bytes acked since the last adjustment</td></tr>
 *   <tr><td>11 {@link #W_IGNORED_BYTES}</td><td>bytes acked or NACKed since the last quick adapt</td></tr>
 *   <tr><td>12 {@link #W_TO_IGNORE_BYTES}</td><td>bytes in flight at the last quick adapt</td></tr>
 *   <tr><td>13 {@link #W_QA_END_NS}</td><td>end of the quick-adapt period, ns</td></tr>
 *   <tr><td>14 {@link #W_LAST_DEC_NS}</td><td>time of the last decrease (flow start at first), ns</td></tr>
 *   <tr><td>15 {@link #W_LAST_ADJUST_NS}</td><td>time of the last eta adjustment (flow start at first), ns</td></tr>
 *   <tr><td>16 {@link #W_SENT_PSN}</td><td>last PSN sent, from TX_BURST</td></tr>
 *   <tr><td>17 {@link #W_WINDOW_BYTES}</td><td>last window result, payload bytes</td></tr>
 * </table>
 *
 * <p>Counters: the rows of {@link NsccProvider#TABLE}. Allocation-free. Thread-safety: not
 * thread-safe; one driving thread.
 */
public final class NsccAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_CWND_BYTES = 1, W_MAXWND_BYTES = 2, W_BASE_RTT_NS = 3, W_AVG_DELAY_PS = 4,
        W_INC_BYTES = 6, W_FI_COUNT_BYTES = 8, W_ACHIEVED_BYTES = 9, W_RECEIVED_BYTES = 10, W_IGNORED_BYTES = 11,
        W_TO_IGNORE_BYTES = 12, W_QA_END_NS = 13, W_LAST_DEC_NS = 14, W_LAST_ADJUST_NS = 15, W_SENT_PSN = 16,
        W_WINDOW_BYTES = 17, CONTEXT_WORDS = 18;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_QA_STARTED = 1, FLAG_INCREASING = 2, FLAG_TRIGGER_QA = 4, FLAG_SENT = 8;

    /**
     * Handler cycles per event type (cost model on {@code LdcpAlgorithm}): TX_BURST: PSN compare and
     * store, 10; ACK: the constants (two divides, five multiplies, cached per flow attributes), the
     * RTT and EWMA (multiplies), one case and the adjustment divide: 150; NACK: EWMA, quick adapt,
     * 60; CNP, RTT_RESPONSE, TIMER: 4.
     */
    private static final int[] CYCLES = {10, 150, 60, 4, 4, 4};
    /** Counter ids: index {@code i} is {@code NsccProvider.TABLE.counters().get(i)}. */
    private static final int C_ACKS = 0, C_ACKS_WITHOUT_TIMESTAMP = 1, C_STALE_ACKS = 2, C_FAIR = 3, C_PROPORTIONAL = 4,
        C_FAST = 5, C_FAST_BYTES = 6, C_MD = 7, C_MD_BYTES = 8, C_ECN_BELOW_TARGET = 9, C_QA = 10, C_QA_BYTES = 11,
        C_ACKS_IGNORED = 12, C_NACKS = 13, C_NACK_BYTES = 14, C_FULFIL = 15, C_ETA = 16, C_BASE_RTT = 17;
    private static final double PPM = 1_000_000.0;
    private static final int INT_MAX = Integer.MAX_VALUE;

    private final long networkRttNsParam = raw("network_rtt_ns");
    private final long networkRateMbps = raw("network_rate_mbps");
    private final long targetNsParam = raw("target_delay_ns");
    private final boolean trimming = flag("trimming");
    private final int headerBytes = rawInt("header_bytes");
    private final long initialWindow = raw("initial_window_bytes");
    private final double maxwndFactor = raw("maxwnd_bdp_ppm") / PPM;
    private final long referenceBdpBytes = raw("reference_bdp_bytes");
    private final long referenceRttPs = raw("reference_rtt_ns") * 1000L;
    private final int alphaMss = rawInt("alpha_mss");
    private final int fairMss = rawInt("fair_increase_mss");
    private final double etaMss = raw("eta_mss_ppm") / PPM;
    private final double fastScale = raw("fast_increase_ppm") / PPM;
    private final long fastDelayPs = raw("fast_increase_delay_ns") * 1000L;
    private final double gamma = raw("gamma_ppm") / PPM;
    private final double mdFloor = raw("md_floor_ppm") / PPM;
    private final double w = raw("delay_ewma_ppm") / PPM;
    private final int qaThresholdTargets = rawInt("qa_threshold_target");
    private final int qaGate = rawInt("qa_gate");
    private final boolean quickAdaptOn = flag("quick_adapt");
    private final int adjustPackets = rawInt("adjust_bytes_mtus");
    private final boolean baseRttOnNack = flag("base_rtt_on_nack");

    // constants derived from the last attributes seen (recomputed when they change)
    private long keyRate = -1;
    private int keyMtu = -1;
    private int keyBaseRtt = -1;
    private int mss;
    private int packetBytes;
    private long networkRttPs;
    private long targetPs;
    private double alpha;
    private double fi;
    private double eta;
    private double fiScale;
    private double qaThresholdPs;
    private long adjustBytes;

    /**
     * Creates an instance from validated parameter values (see {@link NsccProvider}).
     *
     * @param values nscc parameter values
     */
    NsccAlgorithm(final PccParameterValues values) {
        super(NsccProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Derives the constants (htsim {@code initNsccParams}) for the flow's attributes; cached while
     * the line rate, MTU and base RTT stay the same.
     *
     * @param a the flow's attributes
     */
    private void derive(final PccAttributes a) {
        if (a.lineRateBitsPerSec() == keyRate && a.mtuBytes() == keyMtu && a.baseRttNs() == keyBaseRtt) {
            return;
        }
        keyRate = a.lineRateBitsPerSec();
        keyMtu = a.mtuBytes();
        keyBaseRtt = a.baseRttNs();
        mss = a.mtuBytes();
        packetBytes = mss + headerBytes;
        networkRttPs = (networkRttNsParam > 0 ? networkRttNsParam : a.baseRttNs()) * 1000L;
        final long rateBps = networkRateMbps > 0 ? networkRateMbps * 1_000_000L : a.lineRateBitsPerSec();
        final long networkBdp = (long) (networkRttPs / 1e12 * (rateBps / 8));
        targetPs = targetNsParam > 0 ? targetNsParam * 1000L : (long) (networkRttPs * (trimming ? 0.75 : 1.0));
        final double sa = (double) networkBdp / referenceBdpBytes;
        final double sb = (double) targetPs / referenceRttPs;
        alpha = alphaMss * 1.0 * mss * sa * sb / targetPs;
        fi = fairMss * mss * sa;
        eta = etaMss * mss * sa;
        fiScale = fastScale * sa;
        qaThresholdPs = qaThresholdTargets * (double) targetPs;
        adjustBytes = (long) adjustPackets * packetBytes;
    }

    /** Sets B, maxwnd and cwnd (initial_window_bytes or maxwnd); result: line rate and the window. */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        derive(attributes);
        final int base = attributes.baseRttNs();
        final long bdp = (long) (base * 1000L / 1e12 * (attributes.lineRateBitsPerSec() / 8));
        final int maxwnd = (int) Math.min(INT_MAX, (long) (maxwndFactor * bdp));
        final long init = initialWindow > 0 ? initialWindow : maxwnd;
        final int cwnd = (int) Math.max(packetBytes, Math.min(maxwnd, init));
        for (int i = 0; i < CONTEXT_WORDS; i++) {
            context.set(i, 0);
        }
        context.set(W_CWND_BYTES, cwnd);
        context.set(W_MAXWND_BYTES, maxwnd);
        context.set(W_BASE_RTT_NS, base);
        context.set(W_LAST_DEC_NS, nowNs);
        context.set(W_LAST_ADJUST_NS, nowNs);
        context.set(W_SENT_PSN, (attributes.initialPsn() - 1) & PccEventLayout.MASK_24);
        final long window = window(cwnd);
        context.set(W_WINDOW_BYTES, (int) window);
        result.rate(FixedPoint.RATE_ONE).windowBytes(window);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        derive(attributes);
        switch (event.type()) {
            case PccEventType.TX_BURST -> {
                final int sn = event.sn() & PccEventLayout.MASK_24;
                final int flags = context.get(W_FLAGS);
                if ((flags & FLAG_SENT) == 0 || FixedPoint.psnDelta(context.get(W_SENT_PSN), sn) > 0) {
                    context.set(W_SENT_PSN, sn);
                    context.set(W_FLAGS, flags | FLAG_SENT);
                }
                return;
            }
            case PccEventType.ACK -> onAck(context, event, attributes);
            case PccEventType.NACK -> {
                if (event.subtype() != PccEventType.NACK_OUT_OF_SEQUENCE) {
                    return;
                }
                onNack(context, event, attributes);
            }
            default -> {
                return;
            }
        }
        final long window = window(context.get(W_CWND_BYTES));
        if (window != context.get(W_WINDOW_BYTES)) {
            context.set(W_WINDOW_BYTES, (int) window);
            result.windowBytes(window);
        }
    }

    private long window(final long cwnd) {
        return Math.max(1, cwnd * mss / packetBytes);
    }

    private void onAck(final PccContext c, final PccEvent event, final PccAttributes attributes) {
        final int packets = FixedPoint.psnDelta(event.firstSn(), event.sn()) + 1;
        if (packets <= 0) {
            counters.increment(C_STALE_ACKS);
            return;
        }
        counters.increment(C_ACKS);
        final int now = event.timestampNs();
        final long bytes = (long) packets * packetBytes;
        add(c, W_ACHIEVED_BYTES, bytes);
        add(c, W_RECEIVED_BYTES, bytes);
        add(c, W_IGNORED_BYTES, bytes);
        final boolean ecn = event.hasFlag(PccEventLayout.FLAG_ECE);
        final long delayPs;
        final int echo = event.rttRequestSendNs();
        final int rawNs = FixedPoint.nsSince(echo, now);
        if (echo != 0 && rawNs >= 0) {
            updateBaseRtt(c, rawNs, attributes);
            final long basePs = c.get(W_BASE_RTT_NS) * 1000L;
            delayPs = rawNs * 1000L - basePs;
            final double sample = !ecn && delayPs > targetPs ? w * basePs * 0.25 : w * delayPs;
            setLong(c, W_AVG_DELAY_PS, (long) (sample + (1 - w) * getLong(c, W_AVG_DELAY_PS)));
        } else {
            counters.increment(C_ACKS_WITHOUT_TIMESTAMP);
            delayPs = getLong(c, W_AVG_DELAY_PS);
        }
        final long inFlight = Math.max(0, FixedPoint.psnDelta(event.sn(), c.get(W_SENT_PSN))) * (long) packetBytes;
        if (quickAdapt(c, now, false, ecn, delayPs, inFlight)) {
            return;
        }
        if (!ecn && delayPs >= targetPs) {
            counters.increment(C_FAIR);
            setLong(c, W_INC_BYTES, (long) (getLong(c, W_INC_BYTES) + fi * bytes));
        } else if (!ecn) {
            if (!fastIncrease(c, bytes, delayPs)) {
                counters.increment(C_PROPORTIONAL);
                setLong(c, W_INC_BYTES, (long) (getLong(c, W_INC_BYTES) + alpha * bytes * (targetPs - delayPs)));
            }
        } else if (delayPs >= targetPs) {
            multiplicativeDecrease(c, now);
        } else {
            counters.increment(C_ECN_BELOW_TARGET);
        }
        bound(c);
        final long sinceAdjustPs = FixedPoint.nsSince(c.get(W_LAST_ADJUST_NS), now) * 1000L;
        if (c.get(W_RECEIVED_BYTES) > adjustBytes || sinceAdjustPs > networkRttPs) {
            counters.increment(C_FULFIL);
            final long cwnd = c.get(W_CWND_BYTES);
            long next = cwnd + getLong(c, W_INC_BYTES) / cwnd;
            if (sinceAdjustPs >= networkRttPs) {
                counters.increment(C_ETA);
                next = (long) (next + eta);
                c.set(W_LAST_ADJUST_NS, now);
            }
            c.set(W_CWND_BYTES, (int) Math.min(INT_MAX, next));
            setLong(c, W_INC_BYTES, 0);
            c.set(W_RECEIVED_BYTES, 0);
        }
        bound(c);
    }

    /** Fast increase; returns whether it applies (and then the proportional increase does not). */
    private boolean fastIncrease(final PccContext c, final long bytes, final long delayPs) {
        final int flags = c.get(W_FLAGS);
        if (delayPs < fastDelayPs) {
            final long count = Math.min(INT_MAX, c.get(W_FI_COUNT_BYTES) + bytes);
            c.set(W_FI_COUNT_BYTES, (int) count);
            final long cwnd = c.get(W_CWND_BYTES);
            if (count > cwnd || (flags & FLAG_INCREASING) != 0) {
                final long next = Math.min(INT_MAX, (long) (cwnd + bytes * fiScale));
                counters.increment(C_FAST);
                counters.add(C_FAST_BYTES, next - cwnd);
                c.set(W_CWND_BYTES, (int) next);
                c.set(W_FLAGS, flags | FLAG_INCREASING);
                return true;
            }
        } else {
            c.set(W_FI_COUNT_BYTES, 0);
        }
        c.set(W_FLAGS, flags & ~FLAG_INCREASING);
        return false;
    }

    private void multiplicativeDecrease(final PccContext c, final int now) {
        c.set(W_FLAGS, c.get(W_FLAGS) & ~FLAG_INCREASING);
        c.set(W_FI_COUNT_BYTES, 0);
        final long avg = getLong(c, W_AVG_DELAY_PS);
        final long basePs = c.get(W_BASE_RTT_NS) * 1000L;
        if (avg > targetPs && FixedPoint.nsSince(c.get(W_LAST_DEC_NS), now) * 1000L > basePs) {
            final long cwnd = c.get(W_CWND_BYTES);
            final double factor = Math.max(1 - gamma * (avg - targetPs) / avg, mdFloor);
            final long next = Math.max(packetBytes, (long) (cwnd * factor));
            counters.increment(C_MD);
            counters.add(C_MD_BYTES, cwnd - next);
            c.set(W_CWND_BYTES, (int) next);
            c.set(W_LAST_DEC_NS, now);
        }
    }

    /** htsim {@code quick_adapt}: returns whether it acted or ignored the signal. */
    private boolean quickAdapt(final PccContext c, final int now, final boolean loss, final boolean skip,
                               final long delayPs, final long inFlight) {
        if (!quickAdaptOn) {
            return false;
        }
        boolean done = false;
        int flags = c.get(W_FLAGS);
        if (skip && c.get(W_IGNORED_BYTES) < c.get(W_TO_IGNORE_BYTES)) {
            counters.increment(C_ACKS_IGNORED);
            done = true;
        } else if ((flags & FLAG_QA_STARTED) == 0 || FixedPoint.nsSince(c.get(W_QA_END_NS), now) > 0) {
            final long achieved = c.get(W_ACHIEVED_BYTES);
            if ((flags & FLAG_QA_STARTED) != 0
                && ((flags & FLAG_TRIGGER_QA) != 0 || loss || delayPs > qaThresholdPs)
                && achieved < (c.get(W_MAXWND_BYTES) >> qaGate)) {
                final long cwnd = c.get(W_CWND_BYTES);
                final long next = Math.max(achieved, packetBytes);
                counters.increment(C_QA);
                counters.add(C_QA_BYTES, cwnd - next);
                c.set(W_CWND_BYTES, (int) next);
                c.set(W_TO_IGNORE_BYTES, (int) Math.min(INT_MAX, inFlight));
                c.set(W_IGNORED_BYTES, 0);
                flags &= ~FLAG_TRIGGER_QA;
                done = true;
            }
            c.set(W_ACHIEVED_BYTES, 0);
            c.set(W_QA_END_NS, (int) (now + c.get(W_BASE_RTT_NS) + targetPs / 1000));
            flags |= FLAG_QA_STARTED;
            c.set(W_FLAGS, flags);
        }
        if (done) {
            setLong(c, W_INC_BYTES, 0);
            c.set(W_RECEIVED_BYTES, 0);
        }
        return done;
    }

    private void onNack(final PccContext c, final PccEvent event, final PccAttributes attributes) {
        counters.increment(C_NACKS);
        final int now = event.timestampNs();
        final int echo = event.rttRequestSendNs();
        final int rawNs = FixedPoint.nsSince(echo, now);
        if (baseRttOnNack && echo != 0 && rawNs >= 0) {
            updateBaseRtt(c, rawNs, attributes);
        }
        add(c, W_IGNORED_BYTES, packetBytes);
        // the NACK's delay sample is the network RTT (htsim: update_delay(base + network RTT), marked)
        setLong(c, W_AVG_DELAY_PS, (long) (w * networkRttPs + (1 - w) * getLong(c, W_AVG_DELAY_PS)));
        c.set(W_FLAGS, c.get(W_FLAGS) | FLAG_TRIGGER_QA);
        final long inFlight = Math.max(0, FixedPoint.psnDelta(event.sn(), c.get(W_SENT_PSN)) + 1) * (long) packetBytes;
        if (!quickAdapt(c, now, true, true, 0, inFlight)) {
            final long cwnd = c.get(W_CWND_BYTES);
            counters.add(C_NACK_BYTES, packetBytes);
            c.set(W_CWND_BYTES, (int) (cwnd - packetBytes));
            bound(c);
        }
    }

    private void updateBaseRtt(final PccContext c, final int rawNs, final PccAttributes attributes) {
        if (rawNs < c.get(W_BASE_RTT_NS)) {
            counters.increment(C_BASE_RTT);
            c.set(W_BASE_RTT_NS, rawNs);
            final long bdp = (long) (rawNs / 1000.0 * attributes.lineRateBitsPerSec() / 8_000_000);
            c.set(W_MAXWND_BYTES, (int) Math.min(INT_MAX, (long) (maxwndFactor * bdp)));
        }
    }

    private void bound(final PccContext c) {
        final int cwnd = c.get(W_CWND_BYTES);
        c.set(W_CWND_BYTES, Math.min(c.get(W_MAXWND_BYTES), Math.max(packetBytes, cwnd)));
    }

    private static void add(final PccContext c, final int word, final long bytes) {
        c.set(word, (int) Math.min(INT_MAX, c.get(word) + bytes));
    }

    private static long getLong(final PccContext c, final int w) {
        return (c.get(w) & 0xFFFF_FFFFL) | (long) c.get(w + 1) << 32;
    }

    private static void setLong(final PccContext c, final int w, final long v) {
        c.set(w, (int) v);
        c.set(w + 1, (int) (v >>> 32));
    }

    /**
     * Reads a long from two context words (tests).
     *
     * @param c the context
     * @param w first word (low half)
     * @return the value
     */
    static long readLong(final PccContext c, final int w) {
        return getLong(c, w);
    }
}
