package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccIntHop;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
 * HPCC (Li et al., SIGCOMM 2019, Algorithm 1) as the HPCC ns-3 simulator's {@code RdmaHw} runs it
 * (CC_MODE 3, {@code HandleAckHp} / {@code UpdateRateHp} / {@code FastReactHp}), on the INT hop
 * records an ACK carries ({@link PccEventLayout} "INT on ACK events", {@link PccIntHop}).
 *
 * <h2>Per ACK</h2>
 * An ACK whose acknowledged packet was sent at or after the last reference update (ns-3:
 * {@code ack_seq > m_lastUpdateSeq}; here the echoed transmit time against the update's time, as
 * {@link TimelyAlgorithm}) runs a full update; other ACKs a fast reaction if {@code fast_react}.
 * The first full update only stores the hops. Then, for every hop {@code i} (fast reactions with
 * {@code sample_feedback} skip hops whose queue is empty):
 * <pre>
 *   tau_i    = time_i - prev_time_i                    (ns)
 *   txRate_i = (bytes_i - prev_bytes_i) x 8 / tau_i    (bits/s)
 *   u_i      = txRate_i / B_i + min(qlen_i, prev_qlen_i) x line / (B_i x W)
 *   prev_i   = hop_i                                   (for fast reactions too)
 * </pre>
 * Single rate ({@code multi_rate 0}): {@code U = max u_i}, {@code dt} its tau, capped at the base
 * RTT T; {@code u = (u (T - dt) + U dt) / T} (kept, fast reactions included); {@code k = u / eta};
 * if {@code k >= 1} or {@code stage >= max_stage} then {@code rate = Rc / k + AI}, stage 0, else
 * {@code rate = Rc + AI}, stage + 1; rate within [min rate, line]. A full update commits
 * {@code Rc = rate} and the stage; a fast reaction only applies the rate. Multi rate: the same per
 * hop with its own {@code u_i}, {@code Rc_i} and stage, and the lowest hop rate applies.
 * The window (has_win) is W, or {@code max(1, W x rate / line)} with {@code var_win}. Arithmetic
 * is ns-3's: doubles for u, rates in bits/s truncated to integers ({@code DataRate}).
 *
 * <table>
 *   <caption>hpcc context layout (45 words)</caption>
 *   <tr><th>words</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_STARTED}: hops stored once; bits 4..6 hops stored</td></tr>
 *   <tr><td>1 {@link #W_STAGE}</td><td>increase stage</td></tr>
 *   <tr><td>2-3 {@link #W_RC_BPS}</td><td>reference rate Rc, bits/s (long)</td></tr>
 *   <tr><td>4-5 {@link #W_RATE_BPS}</td><td>applied rate, bits/s (long)</td></tr>
 *   <tr><td>6-7 {@link #W_U}</td><td>u, IEEE double</td></tr>
 *   <tr><td>8 {@link #W_LAST_UPDATE_NS}</td><td>time of the last full update, ns</td></tr>
 *   <tr><td>10-19 {@link #W_HOPS}</td><td>previous hop records, one long each</td></tr>
 *   <tr><td>20-29 {@link #W_HOP_U}</td><td>multi rate: u per hop, doubles</td></tr>
 *   <tr><td>30-39 {@link #W_HOP_RC_BPS}</td><td>multi rate: Rc per hop, bits/s</td></tr>
 *   <tr><td>40-44 {@link #W_HOP_STAGE}</td><td>multi rate: stage per hop</td></tr>
 * </table>
 *
 * <p>Counters: {@code hpcc_acks_with_int}, {@code hpcc_acks_without_int}, {@code hpcc_full_updates},
 * {@code hpcc_fast_reactions}, {@code hpcc_multiplicative}, {@code hpcc_additive}.
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; one driving thread.
 */
public final class HpccAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_STAGE = 1, W_RC_BPS = 2, W_RATE_BPS = 4, W_U = 6, W_LAST_UPDATE_NS = 8,
        W_HOPS = 10, W_HOP_U = 20, W_HOP_RC_BPS = 30, W_HOP_STAGE = 40, CONTEXT_WORDS = 45;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_STARTED = 1;

    private static final int MAX_HOPS = PccEventLayout.INT_MAX_HOPS;
    /** Handler cycles: ACK (per hop two divides and a multiply, the EWMA, a divide) 200; others 4. */
    private static final int[] CYCLES = {4, 200, 4, 4, 4, 4};
    /** Counter ids: index {@code i} is {@code HpccProvider.TABLE.counters().get(i)}. */
    private static final int C_ACKS_WITH_INT = 0, C_ACKS_WITHOUT_INT = 1, C_FULL_UPDATES = 2, C_FAST_REACTIONS = 3,
        C_MULTIPLICATIVE = 4, C_ADDITIVE = 5;

    private final double eta = raw("eta") / (double) FixedPoint.ONE;
    private final int maxStage = rawInt("max_stage");
    private final long aiBps = raw("rate_ai_mbps") * 1_000_000L;
    private final long minRateBps = raw("min_rate_mbps") * 1_000_000L;
    private final boolean hasWin = flag("has_win");
    private final long windowParam = raw("window_bytes");
    private final int baseRttParam = rawInt("base_rtt_ns");
    private final boolean varWin = flag("var_win");
    private final boolean fastReact = flag("fast_react");
    private final boolean multiRate = flag("multi_rate");
    private final boolean sampleFeedback = flag("sample_feedback");
    private final int multi = rawInt("int_multi");
    private final boolean[] updated = new boolean[MAX_HOPS];
    private final long[] hopRate = new long[MAX_HOPS];
    private final int[] hopStage = new int[MAX_HOPS];

    /**
     * Creates an instance from validated parameter values (see {@link HpccProvider}).
     *
     * @param values hpcc parameter values
     */
    HpccAlgorithm(final PccParameterValues values) {
        super(HpccProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /** Line rate, window W (has_win) or none. */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        final long line = attributes.lineRateBitsPerSec();
        setLong(context, W_RC_BPS, line);
        setLong(context, W_RATE_BPS, line);
        for (int i = 0; i < MAX_HOPS; i++) {
            setLong(context, W_HOP_RC_BPS + 2 * i, line);
        }
        result.rate(FixedPoint.RATE_ONE).windowBytes(hasWin ? window(attributes) : PccResult.WINDOW_UNLIMITED);
    }

    private long window(final PccAttributes a) {
        return Math.max(1, windowParam > 0 ? windowParam : a.bdpBytes());
    }

    private long baseRtt(final PccAttributes a) {
        return Math.max(1, baseRttParam > 0 ? baseRttParam : a.baseRttNs());
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        if (event.type() != PccEventType.ACK) {
            return;
        }
        if (!event.hasFlag(PccEventLayout.FLAG_INT) || event.rttRequestSendNs() == 0) {
            counters.increment(C_ACKS_WITHOUT_INT);
            return;
        }
        counters.increment(C_ACKS_WITH_INT);
        final int now = event.timestampNs();
        final boolean full = (context.get(W_FLAGS) & FLAG_STARTED) == 0
            || FixedPoint.nsSince(context.get(W_LAST_UPDATE_NS), event.rttRequestSendNs()) >= 0;
        if (full) {
            counters.increment(C_FULL_UPDATES);
            update(context, event, attributes, result, false);
            context.set(W_LAST_UPDATE_NS, now);
        } else if (fastReact) {
            counters.increment(C_FAST_REACTIONS);
            update(context, event, attributes, result, true);
        }
    }

    private void update(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result, final boolean fast) {
        final int hops = event.intHops();
        final int flags = context.get(W_FLAGS);
        if ((flags & FLAG_STARTED) == 0) {
            for (int i = 0; i < hops; i++) {
                setLong(context, W_HOPS + 2 * i, event.intHop(i));
            }
            context.set(W_FLAGS, FLAG_STARTED | hops << 4);
            return;
        }
        final long line = attributes.lineRateBitsPerSec();
        final double win = window(attributes);
        final long baseRtt = baseRtt(attributes);
        double bigU = 0;
        long dt = 0;
        boolean any = false;
        for (int i = 0; i < hops; i++) {
            updated[i] = false;
            final long hop = event.intHop(i);
            final long prev = getLong(context, W_HOPS + 2 * i);
            if (sampleFeedback && fast && PccIntHop.qlenBytes(hop, multi) == 0) {
                continue;
            }
            long tau = PccIntHop.timeDeltaNs(hop, prev);
            setLong(context, W_HOPS + 2 * i, hop);
            if (tau == 0) {
                continue; // no time passed at this hop: no rate sample (ns-3 would divide by zero)
            }
            updated[i] = true;
            any = true;
            final double b = PccIntHop.lineRateBitsPerSec(hop);
            final double txRate = PccIntHop.bytesDelta(hop, prev, multi) * 8 / (tau * 1e-9);
            final double u = txRate / b
                + (double) Math.min(PccIntHop.qlenBytes(hop, multi), PccIntHop.qlenBytes(prev, multi)) * line / b / win;
            if (!multiRate) {
                if (u > bigU) {
                    bigU = u;
                    dt = tau;
                }
            } else {
                tau = Math.min(tau, baseRtt);
                final double hu = getDouble(context, W_HOP_U + 2 * i);
                setDouble(context, W_HOP_U + 2 * i, (hu * (baseRtt - tau) + u * tau) / baseRtt);
            }
        }
        if (!any) {
            return;
        }
        long rate;
        int stage = 0;
        if (!multiRate) {
            dt = Math.min(dt, baseRtt);
            final double u = (getDouble(context, W_U) * (baseRtt - dt) + bigU * dt) / baseRtt;
            setDouble(context, W_U, u);
            final double k = u / eta;
            final long rc = getLong(context, W_RC_BPS);
            final int st = context.get(W_STAGE);
            if (k >= 1 || st >= maxStage) {
                counters.increment(C_MULTIPLICATIVE);
                rate = k > 0 ? (long) (rc / k) + aiBps : line;
            } else {
                counters.increment(C_ADDITIVE);
                rate = rc + aiBps;
                stage = st + 1;
            }
            rate = Math.min(line, Math.max(minRateBps, rate));
        } else {
            rate = line;
            for (int i = 0; i < hops; i++) {
                final long rc = getLong(context, W_HOP_RC_BPS + 2 * i);
                if (updated[i]) {
                    final double k = getDouble(context, W_HOP_U + 2 * i) / eta;
                    final int st = context.get(W_HOP_STAGE + i);
                    long r;
                    if (k >= 1 || st >= maxStage) {
                        r = k > 0 ? (long) (rc / k) + aiBps : line;
                        hopStage[i] = 0;
                    } else {
                        r = rc + aiBps;
                        hopStage[i] = st + 1;
                    }
                    r = Math.min(line, Math.max(minRateBps, r));
                    hopRate[i] = r;
                    rate = Math.min(rate, r);
                } else {
                    rate = Math.min(rate, rc);
                }
            }
        }
        setLong(context, W_RATE_BPS, rate);
        if (!fast) {
            if (!multiRate) {
                setLong(context, W_RC_BPS, rate);
                context.set(W_STAGE, stage);
            } else {
                for (int i = 0; i < hops; i++) {
                    if (updated[i]) {
                        setLong(context, W_HOP_RC_BPS + 2 * i, hopRate[i]);
                        context.set(W_HOP_STAGE + i, hopStage[i]);
                    }
                }
            }
        }
        result.rate((int) Math.max(1, Math.min(FixedPoint.RATE_ONE, (rate << 20) / line)));
        if (hasWin && varWin) {
            result.windowBytes(Math.max(1, (long) win * rate / line));
        }
    }

    private static long getLong(final PccContext c, final int w) {
        return (c.get(w) & 0xFFFF_FFFFL) | (long) c.get(w + 1) << 32;
    }

    private static void setLong(final PccContext c, final int w, final long v) {
        c.set(w, (int) v);
        c.set(w + 1, (int) (v >>> 32));
    }

    private static double getDouble(final PccContext c, final int w) {
        return Double.longBitsToDouble(getLong(c, w));
    }

    private static void setDouble(final PccContext c, final int w, final double v) {
        setLong(c, w, Double.doubleToRawLongBits(v));
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
