package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;

/**
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
public final class LdcpPccAlgorithm implements PccAlgorithm {
    /** Context word: window W in packets, 16.16. */
    public static final int W_WINDOW = 0;
    /** Context word: smoothed RTT, ns. */
    public static final int W_SRTT_NS = 1;
    /** Context word: flags. */
    public static final int W_FLAGS = 2;
    /** Context word: timestamp of the latest RTT probe request, ns. */
    public static final int W_PROBE_REQUEST_NS = 3;
    /** Number of context words used. */
    public static final int CONTEXT_WORDS = 4;
    /** Flag bit: an RTT response has been measured. */
    public static final int FLAG_RTT_SAMPLED = 1;

    /**
     * Handler cycles per event type (cost model on {@code LdcpAlgorithm}): TX_BURST, ACK, NACK 4
     * (ignored); CNP: subtract, floor, rate with two divides, 55; RTT_RESPONSE: stale check, RTT
     * from four timestamps, EWMA, add, cap with a divide, rate with two divides, probe and timer,
     * 95; TIMER: elapsed check, probe and timer, 15.
     */
    private static final int[] CYCLES = {4, 4, 4, 55, 95, 15};

    private final int alpha;
    private final int beta;
    private final int minWindow;
    private final long initWindowBytes;
    private final int rttGain;
    private final int probeTimeoutNs;
    private final PccCounters counters = new PccCounters();
    private final int cResponses;
    private final int cStale;
    private final int cCnps;
    private final int cTimeouts;

    /**
     * Creates an instance from validated parameter values (see {@link LdcpPccProvider}).
     *
     * @param values ldcp-pcc parameter values
     */
    LdcpPccAlgorithm(final PccParameterValues values) {
        alpha = values.rawInt(LdcpPccProvider.ALPHA);
        beta = values.rawInt(LdcpPccProvider.BETA);
        minWindow = values.rawInt(LdcpPccProvider.MIN_WINDOW);
        initWindowBytes = values.raw(LdcpPccProvider.INIT_WINDOW_BYTES);
        rttGain = values.rawInt(LdcpPccProvider.RTT_GAIN);
        probeTimeoutNs = values.rawInt(LdcpPccProvider.PROBE_TIMEOUT_NS);
        cResponses = counters.allocate("ldcp_pcc_rtt_responses");
        cStale = counters.allocate("ldcp_pcc_stale_responses");
        cCnps = counters.allocate("ldcp_pcc_cnps");
        cTimeouts = counters.allocate("ldcp_pcc_probe_timeouts");
    }

    /** @return {@value #CONTEXT_WORDS} */
    @Override
    public int contextWords() {
        return CONTEXT_WORDS;
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
                counters.increment(cCnps);
                final int w = Math.max(minWindow, context.get(W_WINDOW) - beta);
                context.set(W_WINDOW, w);
                publishRate(context, w, attributes, result);
            }
            case PccEventType.TIMER -> {
                if (probeTimeoutNs > 0
                    && FixedPoint.nsSince(context.get(W_PROBE_REQUEST_NS), event.timestampNs()) >= probeTimeoutNs) {
                    counters.increment(cTimeouts);
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
            counters.increment(cStale);
            return;
        }
        counters.increment(cResponses);
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

    /**
     * Estimated handler length per event type: TX_BURST 4, ACK 4, NACK 4, CNP 55,
     * RTT_RESPONSE 95, TIMER 15.
     *
     * @param eventType event type code
     * @return cycles; 4 for unknown codes
     */
    @Override
    public int handlerCycles(final int eventType) {
        return eventType >= 0 && eventType < CYCLES.length ? CYCLES[eventType] : 4;
    }

    @Override
    public PccCounters counters() {
        return counters;
    }
}
