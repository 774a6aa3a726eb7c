package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
 * The LDCP-PCC handler as it was before one RTT-to-line-bits conversion came to serve both the
 * window cap and the rate, and the divide by the MTU in bits a reciprocal (main 5e2005c, verbatim
 * but for the name): the oracle {@code HandlerEquivalenceTest} compares {@link LdcpPccAlgorithm}
 * with, event by event. Not used outside the tests.
 *
 * <p>Original class comment follows.
 *
 * LDCP rate form for commodity PCC NICs (the LDCP draft §3.2): a window W in packets (16.16) that grows
 * by alpha per RTT and shrinks by beta per CNP, turned into a pacing rate.
 *
 * <ul>
 *   <li>{@link #initFlow}: W = init_window_bytes / MTU (default the BDP), RTT = base RTT,
 *       rate = W x MTU x 8 / RTT (line rate for W = BDP), window unlimited (rate-only control),
 *       an RTT probe is requested and the probe timeout armed.</li>
 *   <li>RTT_RESPONSE: RTT = (timestampNs - rttRequestSendNs) - (rttResponseSendNs -
 *       rttRequestReceiveNs), averaged with gain rtt_gain; "one RTT has elapsed", so
 *       W += alpha; rate recomputed; the next probe is requested at once (back-to-back probes) and
 *       the timeout re-armed. A response whose request was sent before the latest probe request
 *       (a late answer to a probe already given up on) is ignored, so timeouts never double the AI.</li>
 *   <li>CNP: W = max(min_window, W - beta) on every CNP; rate recomputed.</li>
 *   <li>TIMER (probe timeout): if at least probe_timeout_ns passed since the latest probe request,
 *       a new probe is requested ("or a timeout is experienced"), without AI.</li>
 * </ul>
 * W is capped at the window that fills the line for the current RTT (a nicsim choice: the draft
 * does not bound W, and without a cap a flow held at line rate would grow W without limit and need
 * as many CNPs to come down). Rate = {@code W x MTU x 8 / RTT} as a fraction of line rate.
 *
 * <table>
 *   <caption>ldcp-pcc context layout (4 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_WINDOW}</td><td>W, packets, 16.16</td></tr>
 *   <tr><td>1 {@link #W_SRTT_NS}</td><td>smoothed probe RTT, ns (base RTT before the first response)</td></tr>
 *   <tr><td>2 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_RTT_SAMPLED}</td></tr>
 *   <tr><td>3 {@link #W_PROBE_REQUEST_NS}</td><td>time of the latest probe request, ns</td></tr>
 * </table>
 *
 * <p>Counters: {@code ldcp_pcc_rtt_responses}, {@code ldcp_pcc_stale_responses},
 * {@code ldcp_pcc_cnps}, {@code ldcp_pcc_probe_timeouts}.
 *
 * <p>Allocation-free in {@link #initFlow} and {@link #onEvent}. Thread-safety: not thread-safe;
 * one driving thread.
 */
final class LdcpPccReference extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_WINDOW = 0, W_SRTT_NS = 1, W_FLAGS = 2, W_PROBE_REQUEST_NS = 3, CONTEXT_WORDS = 4;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_RTT_SAMPLED = 1;

    /**
     * Handler cycles per event type (cost model on {@code LdcpAlgorithm}): TX_BURST, ACK, NACK 4
     * (ignored); CNP: subtract, floor, rate with two divides, 55; RTT_RESPONSE: stale check, RTT
     * from four timestamps, EWMA, add, cap with a divide, rate with two divides, probe and timer,
     * 95; TIMER: elapsed check, probe and timer, 15.
     */
    private static final int[] CYCLES = {4, 4, 4, 55, 95, 15};
    /** Counter ids: index {@code i} is {@code LdcpPccProvider.TABLE.counters().get(i)}. */
    private static final int C_RTT_RESPONSES = 0, C_STALE_RESPONSES = 1, C_CNPS = 2, C_PROBE_TIMEOUTS = 3;

    private final int alpha = rawInt("alpha");
    private final int beta = rawInt("beta");
    private final int minWindow = rawInt("min_window");
    private final long initWindowBytes = raw("init_window_bytes");
    private final int rttGain = rawInt("rtt_gain");
    private final int probeTimeoutNs = rawInt("probe_timeout_ns");

    /**
     * Creates an instance from validated parameter values (see {@link LdcpPccProvider}).
     *
     * @param values ldcp-pcc parameter values
     */
    LdcpPccReference(final PccParameterValues values) {
        super(LdcpPccProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
    }

    /**
     * Sets W = initial window (at least min_window), rate = W / base RTT, window unlimited, asks
     * for the first RTT probe and arms the probe timeout (the LDCP draft §3.2 "at the beginning of a
     * flow, an RTT request is sent out").
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        final int mtu = attributes.mtuBytes();
        final long bytes = initWindowBytes > 0 ? initWindowBytes : attributes.bdpBytes();
        final int w = Math.max(minWindow, CcMath.packetsFixed(bytes, mtu));
        context.set(W_WINDOW, w);
        context.set(W_SRTT_NS, attributes.baseRttNs());
        context.set(W_FLAGS, 0);
        result.windowBytes(PccResult.WINDOW_UNLIMITED);
        probe(context, nowNs, result);
        publishRate(context, w, attributes, result);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        switch (event.type()) {
            case PccEventType.RTT_RESPONSE -> onRttResponse(context, event, attributes, result);
            case PccEventType.CNP -> {
                counters.increment(C_CNPS);
                final int w = Math.max(minWindow, context.get(W_WINDOW) - beta);
                context.set(W_WINDOW, w);
                publishRate(context, w, attributes, result);
            }
            case PccEventType.TIMER -> {
                if (probeTimeoutNs > 0
                    && FixedPoint.nsSince(context.get(W_PROBE_REQUEST_NS), event.timestampNs()) >= probeTimeoutNs) {
                    counters.increment(C_PROBE_TIMEOUTS);
                    probe(context, event.timestampNs(), result);
                }
            }
            default -> {
                // TX_BURST, ACK, NACK: standard RoCE ACKs do not drive this form (§3.2)
            }
        }
    }

    private void onRttResponse(final PccContext context, final PccEvent event, final PccAttributes attributes,
                               final PccResult result) {
        if (!CcMath.atOrAfter(event.rttRequestSendNs(), context.get(W_PROBE_REQUEST_NS))) {
            counters.increment(C_STALE_RESPONSES);
            return;
        }
        counters.increment(C_RTT_RESPONSES);
        final int sample = (event.timestampNs() - event.rttRequestSendNs())
            - (event.rttResponseSendNs() - event.rttRequestReceiveNs());
        if (sample > 0) {
            final int flags = context.get(W_FLAGS);
            if ((flags & FLAG_RTT_SAMPLED) == 0) {
                context.set(W_FLAGS, flags | FLAG_RTT_SAMPLED);
                context.set(W_SRTT_NS, sample);
            } else {
                context.set(W_SRTT_NS, CcMath.ewmaNs(context.get(W_SRTT_NS), sample, rttGain));
            }
        }
        final int cap = Math.max(minWindow,
            CcMath.lineWindowFixed(attributes.mtuBytes(), context.get(W_SRTT_NS), attributes.lineRateBitsPerSec()));
        final int w = (int) Math.min(cap, (long) context.get(W_WINDOW) + alpha);
        context.set(W_WINDOW, w);
        probe(context, event.timestampNs(), result);
        publishRate(context, w, attributes, result);
    }

    private void probe(final PccContext context, final int nowNs, final PccResult result) {
        context.set(W_PROBE_REQUEST_NS, nowNs);
        result.requestRttProbe();
        if (probeTimeoutNs > 0) {
            result.armTimerNs(probeTimeoutNs);
        }
    }

    private static void publishRate(final PccContext context, final int w, final PccAttributes attributes,
                                    final PccResult result) {
        result.rate(CcMath.rateForWindow(w, attributes.mtuBytes(), context.get(W_SRTT_NS),
            attributes.lineRateBitsPerSec()));
    }
}
