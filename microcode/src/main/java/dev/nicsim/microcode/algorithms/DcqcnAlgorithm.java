package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
 * DCQCN reaction point (the RoCE ECN/DCQCN article §7; Mellanox knobs in the DOCA PCC device model in docs/architecture.md; event timing as the
 * HPCC ns-3 {@code RdmaHw} Mellanox model): current rate Rc, target rate Rt and alpha per QP.
 * Rates are kept in kb/s so that the Mb/s-granular knobs are exact; the result is Rc as a 20-bit
 * fraction of line rate. Line rates up to 2^31 - 1 kb/s (2.1 Tb/s).
 *
 * <h2>Reaction point</h2>
 * <ul>
 *   <li><b>Before the first CNP</b> the flow runs at line rate with no timers (no rate limiter is
 *       allocated; window unlimited).</li>
 *   <li><b>First CNP</b> at t0: Rc = Rt = rate_on_first_cnp x line rate, alpha = initial_alpha, the
 *       alpha periods start at t0 (ticks at t0 + k x alpha period) and a rate decrease is due at
 *       t0 + monitor period (the first CNP counts for it, as in ns-3).</li>
 *   <li><b>Alpha</b> (§7.1): at the end of each period, alpha = (1 - g) alpha + g if a CNP arrived in
 *       the period, else (1 - g) alpha. Alpha is read only by a rate decrease, so ticks are applied
 *       lazily when a CNP arrives or a decrease runs, giving the same values as ticking every
 *       period without a TIMER event per period (1 us by default): the first pending tick takes the
 *       CNP flag, the following m ticks multiply by (1 - g)^m computed by square-and-multiply in
 *       0.32 fixed point (for m &gt; 1 within a few 2^-16 of m separately floored steps).</li>
 *   <li><b>Rate decrease</b> (§7.2), at most once per rate_reduce_monitor_period, at the first
 *       period boundary after a CNP (boundaries every period from t0, Mellanox "at the beginning
 *       of the next rate_reduce_monitor_period interval"): Rt = Rc if clamping applies (see
 *       {@link DcqcnProvider}), then {@code Rc = max(Rc - Rc x alpha_1024 / 2^gd,
 *       Rc x min_dec_fac / 100, min rate)} (Rc (1 - alpha/2) with gd = 11), and the increase state
 *       resets: timer and byte stages T = BC = 0, byte counter 0, the increase timer restarts.</li>
 *   <li><b>Rate increase</b> (§7.3), on each increase-timer expiry (every rpg_time_reset_ns after
 *       the last decrease) and each rpg_byte_reset_bytes sent (TX_BURST bytes; 0 disables). With
 *       stage s = max(T, BC) before the event (Mellanox: the machine advances when "rpByteStage or
 *       rpTimeStage" reaches F): s &lt; F fast recovery Rc = (Rt + Rc) / 2; s = F additive increase
 *       Rt += AI then Rc = (Rt + Rc) / 2; s &gt; F hyper increase Rt += HAI (or i x HAI with i = s - F
 *       when hai_scaling = 1) then Rc = (Rt + Rc) / 2; then T (timer) or BC (bytes) += 1. Rt is capped
 *       at line rate; averages round up so Rc reaches Rt. When Rc = Rt = line rate the increase
 *       timer stops (further increases would not change the rate).</li>
 * </ul>
 * All periodic work uses the flow's single TIMER: the absolute deadlines (decrease check, increase
 * timer) are kept in the context, handled in time order when any CNP, TX_BURST or TIMER event
 * finds them due (so a late TIMER still acts at the deadline's time), and the timer is re-armed
 * for the earliest. ACK, NACK and RTT_RESPONSE are ignored. Timestamps are 32-bit ns: events of
 * a rate-limited flow must be less than 2^31 ns (2.1 s) apart.
 *
 * <table>
 *   <caption>dcqcn context layout (9 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_ACTIVE} (a CNP was seen), bit 1
 *       {@link #FLAG_ALPHA_CNP} (CNP in the current alpha period), bit 2 {@link #FLAG_DECREASE_PENDING},
 *       bit 3 {@link #FLAG_INCREASING} (increase timer and byte counter running)</td></tr>
 *   <tr><td>1 {@link #W_RC_KBPS}</td><td>current rate Rc, kb/s</td></tr>
 *   <tr><td>2 {@link #W_RT_KBPS}</td><td>target rate Rt, kb/s</td></tr>
 *   <tr><td>3 {@link #W_ALPHA}</td><td>alpha, 16.16</td></tr>
 *   <tr><td>4 {@link #W_NEXT_ALPHA_NS}</td><td>time of the next alpha tick, ns</td></tr>
 *   <tr><td>5 {@link #W_NEXT_DECREASE_NS}</td><td>next rate-decrease boundary, ns</td></tr>
 *   <tr><td>6 {@link #W_NEXT_INCREASE_NS}</td><td>increase-timer deadline, ns</td></tr>
 *   <tr><td>7 {@link #W_STAGES}</td><td>timer stage T (bits 0-15), byte stage BC (bits 16-31)</td></tr>
 *   <tr><td>8 {@link #W_BYTE_COUNTER}</td><td>bytes sent since the last byte-counter event</td></tr>
 * </table>
 *
 * <p>Counters: {@code dcqcn_cnp_handled}, {@code dcqcn_first_cnp}, {@code dcqcn_rate_decreases},
 * {@code dcqcn_timer_increase_events}, {@code dcqcn_byte_increase_events},
 * {@code dcqcn_fast_recovery}, {@code dcqcn_additive_increase}, {@code dcqcn_hyper_increase}.
 *
 * <p>Allocation-free in {@link #initFlow} and {@link #onEvent}. Thread-safety: not thread-safe;
 * one driving thread.
 */
public final class DcqcnAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_FLAGS = 0, W_RC_KBPS = 1, W_RT_KBPS = 2, W_ALPHA = 3, W_NEXT_ALPHA_NS = 4,
        W_NEXT_DECREASE_NS = 5, W_NEXT_INCREASE_NS = 6, W_STAGES = 7, W_BYTE_COUNTER = 8, CONTEXT_WORDS = 9;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_ACTIVE = 1, FLAG_ALPHA_CNP = 2, FLAG_DECREASE_PENDING = 4, FLAG_INCREASING = 8;

    /** Left shifts that move {@link #FLAG_DECREASE_PENDING} and {@link #FLAG_INCREASING} to bit 31. */
    private static final int DECREASE_PENDING_TO_SIGN = 31 - Integer.numberOfTrailingZeros(FLAG_DECREASE_PENDING),
        INCREASING_TO_SIGN = 31 - Integer.numberOfTrailingZeros(FLAG_INCREASING);
    private static final int MAX_DEADLINES_PER_EVENT = 32;
    private static final int MAX_BYTE_EVENTS_PER_BURST = 16;
    private static final int STAGE_MAX = 0xFFFF;
    /**
     * Handler cycles per event type (cost model on {@code LdcpAlgorithm}). TX_BURST: due check,
     * byte-counter add and compare, rate write, 30 (plus an increase step when one fires, counted
     * in the estimate's slack). ACK, NACK, RTT_RESPONSE: 4. CNP: due check, alpha catch-up (one
     * multiply-add plus a short square-and-multiply), boundary with one divide, timer arm, rate
     * with one divide: 110. TIMER: a decrease (alpha catch-up, clamp, three multiplies) or an
     * increase (stage compare, add, average), timer arm, rate divide: 120.
     */
    private static final int[] CYCLES = {30, 4, 4, 110, 4, 120};
    /** Counter ids: index {@code i} is {@code DcqcnProvider.TABLE.counters().get(i)}. */
    private static final int C_CNP_HANDLED = 0, C_FIRST_CNP = 1, C_RATE_DECREASES = 2, C_TIMER_INCREASE_EVENTS = 3,
        C_BYTE_INCREASE_EVENTS = 4, C_FAST_RECOVERY = 5, C_ADDITIVE_INCREASE = 6, C_HYPER_INCREASE = 7;

    private final int g = rawInt("g");
    private final int initialAlpha = rawInt("initial_alpha");
    private final int alphaPeriodNs = rawInt("alpha_update_period_ns");
    private final int decreasePeriodNs = rawInt("rate_reduce_monitor_period_ns");
    private final int rateOnFirstCnp = rawInt("rate_on_first_cnp");
    private final int gdShift = rawInt("rpg_gd") + 6; // alpha_1024 / 2^gd = alpha_16.16 / 2^(gd + 6)
    private final int minDecFacPercent = rawInt("rpg_min_dec_fac");
    private final long minRateKbps = raw("rpg_min_rate_mbps") * 1000L;
    private final int timeResetNs = rawInt("rpg_time_reset_ns");
    private final int byteResetBytes = rawInt("rpg_byte_reset_bytes");
    private final int threshold = rawInt("rpg_threshold");
    private final long aiKbps = raw("rpg_ai_rate_mbps") * 1000L;
    private final long haiKbps = raw("rpg_hai_rate_mbps") * 1000L;
    private final boolean clampTgtRate = flag("clamp_tgt_rate");
    private final boolean clampAfterTimeInc = flag("clamp_tgt_rate_after_time_inc");
    private final boolean haiScaling = flag("hai_scaling");
    /**
     * {@code 1 - g} (16.16) and {@code g << 16} (g in the 2^-32 units of a 16.16 x 16.16 product):
     * one alpha tick is {@code ((1 - g) x alpha + (CNP in the period ? g << 16 : 0)) >> 16}.
     */
    private final long oneMinusG = FixedPoint.ONE - (long) g, gTimes2To16 = (long) g << 16;
    /** {@code 1.0 / alpha_update_period_ns} and {@code 1.0 / rate_reduce_monitor_period_ns}, for exact divides by them. */
    private final double inverseAlphaPeriod = 1.0 / alphaPeriodNs;
    private final double inverseDecreasePeriod = 1.0 / decreasePeriodNs;
    /**
     * {@link CcMath#divisionMultiplier} and {@link CcMath#multiplierShift} of the alpha and monitor
     * periods, for exact divides of a lateness (0..2^31 - 1 ns) by them with one multiply-high;
     * multiplier 0 for a period below 5 ns (then the reciprocal above divides).
     */
    private final long alphaPeriodMultiplier = alphaPeriodNs >= 5 ? CcMath.divisionMultiplier(alphaPeriodNs) : 0,
        decreasePeriodMultiplier = decreasePeriodNs >= 5 ? CcMath.divisionMultiplier(decreasePeriodNs) : 0;
    private final int alphaPeriodShift = alphaPeriodNs >= 5 ? CcMath.multiplierShift(alphaPeriodNs) : 0,
        decreasePeriodShift = decreasePeriodNs >= 5 ? CcMath.multiplierShift(decreasePeriodNs) : 0;
    /**
     * {@code (1 - g)^(2^k)} in 0.32 for k = 0..63, each the square of the previous floored to 0.32:
     * the successive bases a square-and-multiply loop for base {@code (1 - g) << 16} squares its
     * way through, computed once instead of per alpha catch-up.
     */
    private final long[] oneMinusGSquares = squares(oneMinusG << 16);
    /** Catch-ups of fewer than this many extra periods take their power from {@link #oneMinusGPowers}. */
    private static final int POWERS = 256;
    /**
     * {@code powOneMinusG32(m)} for m = 0..{@link #POWERS} - 1, each computed by that method once
     * here: a catch-up over m &lt; 256 extra periods (the common case: 1 us periods, CNPs and
     * decreases microseconds apart) reads its power instead of running the loop, whose trip count
     * (the set bits of m) changes from event to event and so is mispredicted.
     */
    private final long[] oneMinusGPowers = powers();

    /**
     * Creates an instance from validated parameter values (see {@link DcqcnProvider}).
     *
     * @param values dcqcn parameter values
     */
    DcqcnAlgorithm(final PccParameterValues values) {
        super(DcqcnProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Leaves the context zeroed (no rate limiter until the first CNP) and asks for line rate with
     * no window.
     *
     * @throws IllegalArgumentException if the line rate exceeds 2^31 - 1 kb/s
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        CcMath.lineKbps(attributes, "dcqcn");
        result.rate(FixedPoint.RATE_ONE).windowBytes(PccResult.WINDOW_UNLIMITED);
    }

    /**
     * One event, in the order the reaction point takes it: a CNP counts, a first CNP starts the
     * flow; otherwise the deadlines due by the event's time run ({@link #runDue}, entered only when
     * one is due, which the flags word and the two deadline words already read tell), then a CNP
     * catches alpha up and moves the decrease boundary, a TX burst feeds the byte counter; then the
     * timer is armed and the rate written. ACK, NACK and RTT_RESPONSE are ignored.
     *
     * <p>The flags word and the two deadline words are read once and carried in locals through the
     * common paths; after a path that may rewrite them (a deadline run; a CNP, for the decrease
     * boundary; a byte-counter increase, for the flags) they are read again. A TX burst with
     * nothing due, the common event, thus reads each of them once.
     */
    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        final int type = event.type();
        final boolean cnp = type == PccEventType.CNP;
        if (!cnp && type != PccEventType.TIMER && type != PccEventType.TX_BURST) {
            return; // ACK, NACK, RTT_RESPONSE do not drive the RP
        }
        final int now = event.timestampNs();
        int flags = context.get(W_FLAGS);
        if (cnp) {
            counters.increment(C_CNP_HANDLED);
        }
        int nextDecrease;
        int nextIncrease;
        if ((flags & FLAG_ACTIVE) == 0) {
            if (!cnp) {
                return;
            }
            flags = firstCnp(context, now, attributes);
            nextDecrease = now + decreasePeriodNs;
            nextIncrease = 0; // not running (flags), not read
        } else {
            nextDecrease = context.get(W_NEXT_DECREASE_NS);
            nextIncrease = context.get(W_NEXT_INCREASE_NS);
            // bit 31 of each term: the flag (shifted up) and "now - deadline >= 0" (the sign bit of
            // its complement), that is (pending && atOrAfter(now, next decrease)) || (increasing &&
            // atOrAfter(now, next increase)) with one branch instead of four
            if ((((flags << DECREASE_PENDING_TO_SIGN) & ~(now - nextDecrease))
                | ((flags << INCREASING_TO_SIGN) & ~(now - nextIncrease))) < 0) {
                runDue(context, now, attributes);
                flags = context.get(W_FLAGS);
                nextDecrease = context.get(W_NEXT_DECREASE_NS);
                nextIncrease = context.get(W_NEXT_INCREASE_NS);
            }
            if (cnp) {
                flags = onActiveCnp(context, now, flags, nextDecrease);
                nextDecrease = context.get(W_NEXT_DECREASE_NS);
            } else if (type == PccEventType.TX_BURST && byteResetBytes != 0 && (flags & FLAG_INCREASING) != 0) {
                final long bytes = (long) context.get(W_BYTE_COUNTER) + Math.max(0, event.txBytes());
                if (bytes < byteResetBytes) {
                    context.set(W_BYTE_COUNTER, (int) bytes);
                } else {
                    countBytes(context, bytes, attributes); // may change Rc, Rt, stages and flags, not the deadlines
                    flags = context.get(W_FLAGS);
                }
            }
        }
        armTimer(flags, now, nextDecrease, nextIncrease, result);
        result.rate(rateOf(context.get(W_RC_KBPS), attributes.lineRateBitsPerSec()));
    }

    /**
     * Line rate whose division multiplier {@link #lineRateMultiplier} and shift
     * {@link #lineRateShift} hold; 0 before the first event.
     */
    private long cachedLineRateBitsPerSec;
    /** {@link CcMath#divisionMultiplier} of the cached line rate; 0 when it is below 5 bit/s (then {@link #toRate} divides). */
    private long lineRateMultiplier;
    private int lineRateShift;

    /**
     * {@link #toRate} without a divide per event: the dividend {@code rc x 1000 x 2^20} is below
     * 2^61 for every rc in 0..2^31 - 1, so the floor quotient is one multiply-high by the line
     * rate's exact division multiplier ({@link CcMath#divisionMultiplier}, proof there; cached while
     * the line rate stays the same), bit for bit the division's. A negative rc (never written by
     * this algorithm) or a line rate below 5 bit/s goes to {@link #toRate} itself.
     */
    private int rateOf(final int rcKbps, final long lineRateBitsPerSec) {
        if (lineRateBitsPerSec != cachedLineRateBitsPerSec) {
            cacheLineRate(lineRateBitsPerSec);
        }
        if (rcKbps < 0 || lineRateMultiplier == 0) {
            return toRate(rcKbps, lineRateBitsPerSec);
        }
        final long r = CcMath.divideByMultiplier(((long) rcKbps * 1000L) << 20, lineRateMultiplier, lineRateShift);
        return (int) Math.max(1, Math.min(FixedPoint.RATE_ONE, r));
    }

    /** Caches the division multiplier of a new line rate (cold: once per line rate change). */
    private void cacheLineRate(final long lineRateBitsPerSec) {
        cachedLineRateBitsPerSec = lineRateBitsPerSec;
        if (lineRateBitsPerSec >= 5) {
            lineRateMultiplier = CcMath.divisionMultiplier(lineRateBitsPerSec);
            lineRateShift = CcMath.multiplierShift(lineRateBitsPerSec);
        } else {
            lineRateMultiplier = 0;
        }
    }

    /**
     * The first CNP: Rc = Rt = rate_on_first_cnp x line rate, alpha = initial_alpha, the alpha
     * periods and the first decrease boundary start now.
     *
     * @return the new flags word
     */
    private int firstCnp(final PccContext context, final int now, final PccAttributes attributes) {
        counters.increment(C_FIRST_CNP);
        final int rate = (int) Math.max(1, ((long) CcMath.lineKbps(attributes, "dcqcn") * rateOnFirstCnp) >> 16);
        context.set(W_RC_KBPS, rate);
        context.set(W_RT_KBPS, rate);
        context.set(W_ALPHA, initialAlpha);
        context.set(W_NEXT_ALPHA_NS, now + alphaPeriodNs);
        context.set(W_NEXT_DECREASE_NS, now + decreasePeriodNs);
        context.set(W_STAGES, 0);
        context.set(W_BYTE_COUNTER, 0);
        context.set(W_FLAGS, FLAG_ACTIVE | FLAG_DECREASE_PENDING);
        return FLAG_ACTIVE | FLAG_DECREASE_PENDING;
    }

    /**
     * A CNP on an active flow, after the due deadlines ran: alpha catches up to now, the CNP marks
     * the current alpha period, and a decrease is made pending at the first boundary after now.
     *
     * @param flags        the flags word as it is in the context
     * @param nextDecrease the decrease-boundary word as it is in the context
     * @return the new flags word (also written to the context)
     */
    private int onActiveCnp(final PccContext context, final int now, final int flags, final int nextDecrease) {
        int f = catchUpAlpha(context, now, flags) | FLAG_ALPHA_CNP;
        if ((f & FLAG_DECREASE_PENDING) == 0) {
            int next = nextDecrease;
            final int late = FixedPoint.nsSince(next, now);
            if (late >= 0) {
                next += late < decreasePeriodNs ? decreasePeriodNs
                    : (int) ((periods(late, decreasePeriodNs, decreasePeriodMultiplier, decreasePeriodShift,
                        inverseDecreasePeriod) + 1) * decreasePeriodNs);
                context.set(W_NEXT_DECREASE_NS, next);
            }
            f |= FLAG_DECREASE_PENDING;
        }
        context.set(W_FLAGS, f);
        return f;
    }

    /** Runs the decrease check and increase timer deadlines due at or before {@code now}, in time order. */
    private void runDue(final PccContext context, final int now, final PccAttributes attributes) {
        for (int i = 0; i < MAX_DEADLINES_PER_EVENT; i++) {
            final int flags = context.get(W_FLAGS);
            final boolean decreaseDue = (flags & FLAG_DECREASE_PENDING) != 0
                && CcMath.atOrAfter(now, context.get(W_NEXT_DECREASE_NS));
            final boolean increaseDue = (flags & FLAG_INCREASING) != 0
                && CcMath.atOrAfter(now, context.get(W_NEXT_INCREASE_NS));
            if (decreaseDue && (!increaseDue
                || CcMath.atOrAfter(context.get(W_NEXT_INCREASE_NS), context.get(W_NEXT_DECREASE_NS)))) {
                decrease(context, context.get(W_NEXT_DECREASE_NS), attributes);
            } else if (increaseDue) {
                final int at = context.get(W_NEXT_INCREASE_NS);
                counters.increment(C_TIMER_INCREASE_EVENTS);
                increase(context, true, attributes);
                context.set(W_NEXT_INCREASE_NS, at + timeResetNs);
            } else {
                return;
            }
        }
    }

    /** Rate decrease at boundary time {@code at}, the RoCE ECN/DCQCN article §7.2. */
    private void decrease(final PccContext context, final int at, final PccAttributes attributes) {
        counters.increment(C_RATE_DECREASES);
        catchUpAlpha(context, at, context.get(W_FLAGS));
        final int stages = context.get(W_STAGES);
        final int timeStage = stages & STAGE_MAX;
        final int byteStage = stages >>> 16;
        final boolean clamp = clampTgtRate
            || (clampAfterTimeInc ? (timeStage != 0 || byteStage != 0) : byteStage != 0);
        final long rc = context.get(W_RC_KBPS);
        if (clamp) {
            context.set(W_RT_KBPS, (int) rc);
        }
        final long alpha = context.get(W_ALPHA);
        final long reduced = rc - ((rc * alpha) >> gdShift);
        final long floor = rc * minDecFacPercent / 100;
        final long line = CcMath.lineKbps(attributes, "dcqcn");
        final long newRc = Math.min(line, Math.max(Math.max(reduced, floor), minRateKbps));
        context.set(W_RC_KBPS, (int) newRc);
        context.set(W_STAGES, 0);
        context.set(W_BYTE_COUNTER, 0);
        context.set(W_NEXT_DECREASE_NS, at + decreasePeriodNs);
        context.set(W_NEXT_INCREASE_NS, at + timeResetNs);
        final int flags = context.get(W_FLAGS);
        context.set(W_FLAGS, (flags & ~FLAG_DECREASE_PENDING) | FLAG_INCREASING);
    }

    /** One rate-increase event, the RoCE ECN/DCQCN article §7.3; {@code timer} tells whether the timer or the byte counter fired. */
    private void increase(final PccContext context, final boolean timer, final PccAttributes attributes) {
        final int stages = context.get(W_STAGES);
        final int timeStage = stages & STAGE_MAX;
        final int byteStage = stages >>> 16;
        final int stage = Math.max(timeStage, byteStage);
        final long line = CcMath.lineKbps(attributes, "dcqcn");
        long rt = context.get(W_RT_KBPS);
        final long rc = context.get(W_RC_KBPS);
        if (stage < threshold) {
            counters.increment(C_FAST_RECOVERY);
        } else if (stage == threshold) {
            counters.increment(C_ADDITIVE_INCREASE);
            rt = Math.min(line, rt + aiKbps);
        } else {
            counters.increment(C_HYPER_INCREASE);
            rt = Math.min(line, rt + (haiScaling ? haiKbps * (stage - threshold) : haiKbps));
        }
        final long newRc = Math.min(line, (rc + rt + 1) >> 1);
        context.set(W_RT_KBPS, (int) rt);
        context.set(W_RC_KBPS, (int) newRc);
        context.set(W_STAGES, timer
            ? (byteStage << 16) | Math.min(STAGE_MAX, timeStage + 1)
            : (Math.min(STAGE_MAX, byteStage + 1) << 16) | timeStage);
        if (newRc >= line && rt >= line) {
            context.set(W_FLAGS, context.get(W_FLAGS) & ~FLAG_INCREASING);
        }
    }

    /**
     * The byte counter reached rpg_byte_reset_bytes: byte-counter increase events, one per
     * rpg_byte_reset_bytes, while the flow is increasing (at most {@link #MAX_BYTE_EVENTS_PER_BURST}
     * per burst), the remainder kept.
     *
     * @param bytes the counter plus the burst's bytes, at least rpg_byte_reset_bytes (&gt; 0)
     */
    private void countBytes(final PccContext context, final long bytes, final PccAttributes attributes) {
        long b = bytes;
        for (int i = 0; i < MAX_BYTE_EVENTS_PER_BURST && b >= byteResetBytes
            && (context.get(W_FLAGS) & FLAG_INCREASING) != 0; i++) {
            b -= byteResetBytes;
            counters.increment(C_BYTE_INCREASE_EVENTS);
            increase(context, false, attributes);
        }
        context.set(W_BYTE_COUNTER, (int) (b < byteResetBytes ? b : b % byteResetBytes)); // b >= 0
    }

    /**
     * Applies the alpha ticks at or before {@code now}, the RoCE ECN/DCQCN article §7.1.
     *
     * @param flags the flags word as it is in the context
     * @return the flags word after the catch-up (written to the context, with alpha and the next
     *         tick's time, unchanged when no tick was due)
     */
    private int catchUpAlpha(final PccContext context, final int now, final int flags) {
        final int next = context.get(W_NEXT_ALPHA_NS);
        final int late = FixedPoint.nsSince(next, now);
        if (late >= alphaPeriodNs) {
            return catchUpAlphaPeriods(context, next, late, flags);
        }
        // late < one period, the common case: no tick (late < 0) or one, without a branch on which
        // (the two are about equally likely): tick is all ones for one tick, 0 for none, and with
        // no tick the three words are written back unchanged
        final int tick = late >> 31 ^ -1;
        final int alpha = context.get(W_ALPHA);
        final int ticked = (int) alphaTick(alpha, flags);
        context.set(W_ALPHA, alpha ^ ((alpha ^ ticked) & tick));
        context.set(W_NEXT_ALPHA_NS, next + (alphaPeriodNs & tick));
        final int f = flags & ~(FLAG_ALPHA_CNP & tick);
        context.set(W_FLAGS, f);
        return f;
    }

    /**
     * {@link #catchUpAlpha} when at least one whole period has passed since the next tick:
     * {@code 1 + floor(late / period)} ticks.
     */
    private int catchUpAlphaPeriods(final PccContext context, final int next, final int late, final int flags) {
        final long ticks = periods(late, alphaPeriodNs, alphaPeriodMultiplier, alphaPeriodShift, inverseAlphaPeriod) + 1;
        long alpha = alphaTick(context.get(W_ALPHA), flags);
        final long m = ticks - 1;
        if (m > 0 && alpha > 0) {
            alpha = (alpha * (m < POWERS ? oneMinusGPowers[(int) m] : powOneMinusG32(m))) >>> 32;
        }
        context.set(W_ALPHA, (int) alpha);
        context.set(W_NEXT_ALPHA_NS, (int) (next + ticks * alphaPeriodNs));
        final int f = flags & ~FLAG_ALPHA_CNP;
        context.set(W_FLAGS, f);
        return f;
    }

    /**
     * One alpha tick, the RoCE ECN/DCQCN article §7.1: {@code alpha = (1 - g) x alpha + g} when a
     * CNP arrived in the period, {@code (1 - g) x alpha} otherwise, in 16.16 (the g term without a
     * branch on the flag).
     *
     * @param alpha alpha in 16.16, 0..2^16
     * @param flags the flags word ({@link #FLAG_ALPHA_CNP} read)
     * @return the new alpha in 16.16
     */
    private long alphaTick(final int alpha, final int flags) {
        return (oneMinusG * alpha + (gTimes2To16 & -(long) ((flags & FLAG_ALPHA_CNP) >>> 1))) >> 16;
    }

    /**
     * Whole periods in a lateness, {@code late / period}, exactly and without a divide instruction:
     * one multiply-high by the period's multiplier, or for a period below 5 ns (no multiplier) the
     * reciprocal estimate and its correction ({@link CcMath#floorDivide}).
     *
     * @param late       ns, 0..2^31 - 1
     * @param period     ns, positive
     * @param multiplier {@link CcMath#divisionMultiplier} of the period, or 0
     * @param shift      {@link CcMath#multiplierShift} of the period
     * @param inverse    {@code 1.0 / period}
     * @return {@code late / period}
     */
    private static long periods(final int late, final int period, final long multiplier, final int shift,
                                final double inverse) {
        return multiplier != 0 ? CcMath.divideByMultiplier(late, multiplier, shift)
            : CcMath.floorDivide(late, period, inverse);
    }

    /**
     * {@code (1 - g)^m} in 0.32 by square-and-multiply with each product floored to 0.32, the
     * squares taken from {@link #oneMinusGSquares}: the result is multiplied by the k-th square
     * for each set bit k of m, lowest first, as the plain loop does (the tests check it against
     * that loop), without its squaring chain (one multiply per bit of m, each waiting for the last).
     *
     * @param m exponent, 0..2^63 - 1
     * @return {@code (1 - g)^m} in 0.32; 2^32 for m = 0
     */
    long powOneMinusG32(final long m) {
        long result = 1L << 32;
        long e = m;
        while (e != 0 && result != 0) {
            result = (result * oneMinusGSquares[Long.numberOfTrailingZeros(e)]) >>> 32;
            e &= e - 1;
        }
        return result;
    }

    /** @return {@link #powOneMinusG32} of 0..{@link #POWERS} - 1 (field initialiser, after {@link #oneMinusGSquares}) */
    private long[] powers() {
        final long[] t = new long[POWERS];
        for (int m = 0; m < POWERS; m++) {
            t[m] = powOneMinusG32(m);
        }
        return t;
    }

    /**
     * The bases a square-and-multiply loop squares its way through.
     *
     * @param base base in 0.32, below 2^32
     * @return 64 entries: base, then each the square of the previous, floored to 0.32
     */
    static long[] squares(final long base) {
        final long[] t = new long[64];
        long b = base;
        for (int k = 0; k < t.length; k++) {
            t[k] = b;
            b = (b * b) >>> 32;
        }
        return t;
    }

    /**
     * Arms the timer for the earliest running deadline; {@code flags}, {@code nextDecrease} and
     * {@code nextIncrease} are the flags and deadline words as they are in the context.
     */
    private static void armTimer(final int flags, final int now, final int nextDecrease, final int nextIncrease,
                                 final PccResult result) {
        long delay = Long.MAX_VALUE;
        if ((flags & FLAG_DECREASE_PENDING) != 0) {
            delay = FixedPoint.nsSince(now, nextDecrease);
        }
        if ((flags & FLAG_INCREASING) != 0) {
            delay = Math.min(delay, FixedPoint.nsSince(now, nextIncrease));
        }
        if (delay != Long.MAX_VALUE) {
            result.armTimerNs((int) Math.max(1, delay));
        }
    }

    /**
     * Rc in kb/s as a 20-bit fraction of line rate, rounded down, at least 1.
     *
     * @param rcKbps             rate, kb/s
     * @param lineRateBitsPerSec line rate, bits/s
     * @return rate fraction in {@code [1, RATE_ONE]}
     */
    static int toRate(final int rcKbps, final long lineRateBitsPerSec) {
        final long r = (((long) rcKbps * 1000L) << 20) / lineRateBitsPerSec;
        return (int) Math.max(1, Math.min(FixedPoint.RATE_ONE, r));
    }
}
