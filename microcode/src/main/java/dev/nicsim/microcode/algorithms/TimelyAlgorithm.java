package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
 * TIMELY (Mittal et al., SIGCOMM 2015, Algorithm 1) as the HPCC ns-3 simulator's {@code RdmaHw}
 * runs it (CC_MODE 7, {@code HandleAckTimely} / {@code UpdateRateTimely}): a rate per QP updated
 * from RTT samples at most once per RTT.
 *
 * <h2>RTT samples and the once-per-RTT update</h2>
 * An ACK's RTT is its arrival time minus the transmit time of the acknowledged packet echoed in it
 * ({@link PccEvent#rttRequestSendNs()}, as ns-3's TS-mode INT header echoes it); ACKs without an
 * echo (0) are ignored. ns-3 updates when the ACK acknowledges beyond {@code snd_nxt} as it was at
 * the last update, i.e. when the acknowledged packet was sent at or after that update: here, when
 * the echoed transmit time is at or after the time of the last update. The first such ACK of a
 * flow only records its RTT (no rate change).
 *
 * <h2>Update (all in integers: rates in kb/s, RTT difference in ps, factors in 16.16)</h2>
 * <pre>
 *   new_diff = rtt - prev_rtt                                     (ns, as ps)
 *   rtt_diff = ((1 - alpha) rtt_diff + alpha new_diff)            (alpha 16.16, floor)
 *   rtt &lt; T_low                -&gt; increase
 *   rtt &gt; T_high               -&gt; rate = max(min_rate, rate x (1 - beta (1 - T_high / rtt)))
 *   rtt_diff &lt;= 0              -&gt; increase
 *   otherwise                   -&gt; rate = max(min_rate, rate x max(0, 1 - beta rtt_diff / min_rtt))
 *   increase: rate = min(line, rate + (stage &lt; hai_after_stages ? AI : HAI)), stage += 1;
 *   a decrease sets stage = 0. prev_rtt = rtt.
 * </pre>
 * The multiplicative factor {@code c} is computed in 16.16 ({@code c = 2^16 - beta16 x num / den},
 * floor), so a rate differs from ns-3's double arithmetic by less than 2^-16 of the rate.
 *
 * <table>
 *   <caption>timely context layout (6 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_SAMPLED}: the first RTT was recorded</td></tr>
 *   <tr><td>1 {@link #W_RATE_KBPS}</td><td>current rate, kb/s</td></tr>
 *   <tr><td>2 {@link #W_STAGE}</td><td>consecutive increases</td></tr>
 *   <tr><td>3 {@link #W_PREV_RTT_NS}</td><td>RTT of the last update, ns</td></tr>
 *   <tr><td>4 {@link #W_RTT_DIFF_PS}</td><td>EWMA of the RTT difference, ps, signed</td></tr>
 *   <tr><td>5 {@link #W_LAST_UPDATE_NS}</td><td>time of the last update, ns (wrapping)</td></tr>
 * </table>
 *
 * <p>Counters: {@code timely_rtt_samples}, {@code timely_updates}, {@code timely_increases},
 * {@code timely_hai_increases}, {@code timely_gradient_decreases}, {@code timely_t_high_decreases},
 * {@code timely_acks_without_timestamp}.
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; one driving thread.
 */
public final class TimelyAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_RATE_KBPS = 1, W_STAGE = 2, W_PREV_RTT_NS = 3, W_RTT_DIFF_PS = 4,
        W_LAST_UPDATE_NS = 5, CONTEXT_WORDS = 6;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_SAMPLED = 1;

    /** Handler cycles: ACK (RTT, EWMA, one divide, compare chain, rate divide) 70; others 4. */
    private static final int[] CYCLES = {4, 70, 4, 4, 4, 4};
    /** Counter ids: index {@code i} is {@code TimelyProvider.TABLE.counters().get(i)}. */
    private static final int C_RTT_SAMPLES = 0, C_UPDATES = 1, C_INCREASES = 2, C_HAI_INCREASES = 3,
        C_GRADIENT_DECREASES = 4, C_T_HIGH_DECREASES = 5, C_ACKS_WITHOUT_TIMESTAMP = 6;
    private static final long ONE = 1L << 16;

    private final long alpha = raw("alpha");
    private final long beta = raw("beta");
    private final int tLowNs = rawInt("t_low_ns");
    private final int tHighNs = rawInt("t_high_ns");
    private final long minRttPs = raw("min_rtt_ns") * 1000L;
    private final long aiKbps = raw("rate_ai_mbps") * 1000L;
    private final long haiKbps = raw("rate_hai_mbps") * 1000L;
    private final int haiAfter = rawInt("hai_after_stages");
    private final long minRateKbps = raw("min_rate_mbps") * 1000L;

    /**
     * Creates an instance from validated parameter values (see {@link TimelyProvider}).
     *
     * @param values timely parameter values
     */
    TimelyAlgorithm(final PccParameterValues values) {
        super(TimelyProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Starts at line rate with no window (ns-3: {@code m_curRate = m_bps}).
     *
     * @throws IllegalArgumentException if the line rate exceeds 2^31 - 1 kb/s
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        context.set(W_RATE_KBPS, CcMath.lineKbps(attributes, "timely"));
        result.rate(FixedPoint.RATE_ONE).windowBytes(PccResult.WINDOW_UNLIMITED);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        if (event.type() != PccEventType.ACK) {
            return;
        }
        final int echo = event.rttRequestSendNs();
        if (echo == 0) {
            counters.increment(C_ACKS_WITHOUT_TIMESTAMP);
            return;
        }
        final int now = event.timestampNs();
        final int rtt = FixedPoint.nsSince(echo, now);
        counters.increment(C_RTT_SAMPLES);
        final int flags = context.get(W_FLAGS);
        if ((flags & FLAG_SAMPLED) == 0) {
            context.set(W_FLAGS, flags | FLAG_SAMPLED);
            context.set(W_PREV_RTT_NS, rtt);
            context.set(W_LAST_UPDATE_NS, now);
            return;
        }
        if (FixedPoint.nsSince(context.get(W_LAST_UPDATE_NS), echo) < 0) {
            return; // sent before the last update: not a full RTT of feedback yet
        }
        counters.increment(C_UPDATES);
        final long newDiffPs = ((long) rtt - context.get(W_PREV_RTT_NS)) * 1000L;
        final long diffPs = clampInt(((ONE - alpha) * context.get(W_RTT_DIFF_PS) + alpha * newDiffPs) >> 16);
        final long rate = context.get(W_RATE_KBPS);
        final long line = CcMath.lineKbps(attributes, "timely");
        long newRate;
        if (rtt < tLowNs || (rtt <= tHighNs && diffPs <= 0)) {
            final int stage = context.get(W_STAGE);
            counters.increment(C_INCREASES);
            if (stage >= haiAfter) {
                counters.increment(C_HAI_INCREASES);
            }
            newRate = Math.min(line, rate + (stage < haiAfter ? aiKbps : haiKbps));
            context.set(W_STAGE, stage + 1 < 0 ? stage : stage + 1);
        } else {
            final long c;
            if (rtt > tHighNs) {
                counters.increment(C_T_HIGH_DECREASES);
                c = ONE - beta * (rtt - (long) tHighNs) / rtt;
            } else {
                counters.increment(C_GRADIENT_DECREASES);
                c = Math.max(0, ONE - beta * diffPs / minRttPs);
            }
            newRate = Math.max(minRateKbps, (rate * c) >> 16);
            context.set(W_STAGE, 0);
        }
        newRate = Math.min(line, newRate);
        context.set(W_RATE_KBPS, (int) newRate);
        context.set(W_RTT_DIFF_PS, (int) diffPs);
        context.set(W_PREV_RTT_NS, rtt);
        context.set(W_LAST_UPDATE_NS, now);
        result.rate(DcqcnAlgorithm.toRate((int) newRate, attributes.lineRateBitsPerSec()));
    }

    private static long clampInt(final long v) {
        return Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }
}
