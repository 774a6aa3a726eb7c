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
 * The DCTCP sender (the DCTCP draft §3.3) on a RoCE QP: a byte window cwnd driven by ECN echoes on ACKs,
 * with the alpha estimate over observation windows. The receiver side (CE state machine with
 * delayed ACKs of up to m packets, §3.2) is the NIC responder's job; here every ACK covers
 * n = psnDelta(firstSn, sn) + 1 packets that share one ECE state.
 *
 * <h2>Per ACK (in this order)</h2>
 * <ol>
 *   <li>If a reduction window is open (CWR) and {@code sn} reaches its end PSN, it closes.</li>
 *   <li>Alpha estimator, §3.3 steps 1-8, counted in packets (every packet is one MTU, so
 *       BytesMarked / BytesSent equals packets marked / packets acked): acked += n; marked += n if
 *       ECE. The observation window ends when the ACK acknowledges the PSN that was the last one
 *       sent when the window began ("when all the sent bytes in flight at the beginning of the
 *       window have been acknowledged"; {@code sn >= windowEnd}, as Linux does, where the draft's
 *       step 4 compares one byte later): M = marked / acked,
 *       {@code alpha = ((1 - g) alpha + g M)} (16.16, floored), windowEnd = the last PSN sent so far
 *       (from TX_BURST, the RoCE {@code snd_nxt - 1}), counts reset. WindowEnd starts one before
 *       the flow's first PSN (SND.UNA; {@link PccAttributes#initialPsn()}), so the first ACK closes
 *       the first window; PSNs are compared with 24-bit serial arithmetic (RFC 1982), so any first
 *       PSN and the wrap at 2^24 work.</li>
 *   <li>Reaction, at most once per window of data (§3.3 last paragraph, RFC 3168): an ECE ACK
 *       outside CWR sets {@code cwnd = cwnd (1 - alpha / 2)} (not below min_window_packets x MTU),
 *       ssthresh = cwnd, and opens CWR until the last PSN sent so far is acknowledged.</li>
 *   <li>Growth, only outside CWR and on unmarked ACKs: slow start {@code cwnd += bytes acked} up to
 *       ssthresh (RFC 5681 §3.1 with RFC 3465 byte counting), then congestion avoidance by
 *       appropriate byte counting (RFC 3465 §2.1): one MTU per cwnd bytes acknowledged, i.e.
 *       MTU x MTU / cwnd per acknowledged MTU, exact in integers. Bytes acked = n x MTU.</li>
 * </ol>
 * NACK OUT_OF_SEQUENCE (loss; the NIC goes back N): the packets it newly acknowledges (firstSn to
 * sn - 1) go through steps 1-2, then, outside CWR, TCP's halving (RFC 5681 §3.2; RFC 8257 §3.5:
 * DCTCP reacts to loss as TCP does): {@code ssthresh = max(cwnd / 2, min window)},
 * cwnd = ssthresh, CWR opened. NACK RNR/duplicate read, CNP, RTT_RESPONSE and TIMER do not change
 * the window. The rate stays at line rate (window-only control).
 *
 * <table>
 *   <caption>dctcp context layout (10 of 12 words)</caption>
 *   <tr><th>word</th><th>content</th></tr>
 *   <tr><td>0 {@link #W_CWND_BYTES}</td><td>cwnd, bytes</td></tr>
 *   <tr><td>1 {@link #W_SSTHRESH_BYTES}</td><td>ssthresh, bytes</td></tr>
 *   <tr><td>2 {@link #W_ALPHA}</td><td>DCTCP.Alpha, 16.16</td></tr>
 *   <tr><td>3 {@link #W_ACKED_PACKETS}</td><td>DCTCP.BytesSent / MTU in this observation window</td></tr>
 *   <tr><td>4 {@link #W_MARKED_PACKETS}</td><td>DCTCP.BytesMarked / MTU in this observation window</td></tr>
 *   <tr><td>5 {@link #W_WINDOW_END_PSN}</td><td>DCTCP.WindowEnd as the last PSN of the window</td></tr>
 *   <tr><td>6 {@link #W_LAST_SENT_PSN}</td><td>last (highest) PSN sent, from TX_BURST</td></tr>
 *   <tr><td>7 {@link #W_CWR_END_PSN}</td><td>PSN whose acknowledgement closes CWR</td></tr>
 *   <tr><td>8 {@link #W_FLAGS}</td><td>bit 0 {@link #FLAG_SENT}: word 6 valid; bit 1 {@link #FLAG_IN_CWR}</td></tr>
 *   <tr><td>9 {@link #W_CA_BYTES}</td><td>bytes acknowledged towards the next congestion-avoidance step</td></tr>
 * </table>
 *
 * <p>Counters: {@code dctcp_alpha_updates}, {@code dctcp_ecn_reductions},
 * {@code dctcp_loss_reductions}, {@code dctcp_acks_marked}, {@code dctcp_stale_acks}.
 *
 * <p>Allocation-free in {@link #initFlow} and {@link #onEvent}. Thread-safety: not thread-safe;
 * one driving thread.
 */
public final class DctcpAlgorithm extends TableAlgorithm {
    /** Context words, as in the layout table above; CONTEXT_WORDS is the number used. */
    public static final int W_CWND_BYTES = 0, W_SSTHRESH_BYTES = 1, W_ALPHA = 2, W_ACKED_PACKETS = 3, W_MARKED_PACKETS =
        4, W_WINDOW_END_PSN = 5, W_LAST_SENT_PSN = 6, W_CWR_END_PSN = 7, W_FLAGS = 8, W_CA_BYTES = 9, CONTEXT_WORDS =
        10;
    /** Bits of the flags word, as in the layout table above. */
    public static final int FLAG_SENT = 1, FLAG_IN_CWR = 2;

    private static final int MAX_WINDOW_DEFAULT = 1 << 30;
    private static final int MAX_CA_STEPS = 8;
    /**
     * Handler cycles per event type (cost model on {@code LdcpAlgorithm}): TX_BURST: PSN compare
     * and store, 10; ACK: n, CWR check, counts, window-end compare, on window end a divide and two
     * multiplies for alpha (~35), reduction multiply or ABC growth loop (~20): 90; NACK: counts,
     * halving, 60; CNP, RTT_RESPONSE, TIMER: 4.
     */
    private static final int[] CYCLES = {10, 90, 60, 4, 4, 4};
    /** Counter ids: index {@code i} is {@code DctcpProvider.TABLE.counters().get(i)}. */
    private static final int C_ALPHA_UPDATES = 0, C_ECN_REDUCTIONS = 1, C_LOSS_REDUCTIONS = 2, C_ACKS_MARKED = 3,
        C_STALE_ACKS = 4;

    private final int g = rawInt("g");
    private final int initialAlpha = rawInt("initial_alpha");
    private final long initWindowBytes = raw("init_window_bytes");
    private final long initSsthreshBytes = raw("init_ssthresh_bytes");
    private final int minWindowPackets = rawInt("min_window_packets");
    private final long maxWindowBytes;

    /**
     * Creates an instance from validated parameter values (see {@link DctcpProvider}).
     *
     * @param values dctcp parameter values
     */
    DctcpAlgorithm(final PccParameterValues values) {
        super(DctcpProvider.TABLE, values, CONTEXT_WORDS, CYCLES);
        final long max = raw("max_window_bytes");
        maxWindowBytes = max > 0 ? max : MAX_WINDOW_DEFAULT;
    }

    /**
     * Sets cwnd = init_window_bytes (default BDP) within [min window, max window], ssthresh,
     * alpha = initial_alpha, WindowEnd = the PSN before the flow's first one
     * ({@code initialPsn - 1} modulo 2^24: SND.UNA before the first packet, so the first ACK closes
     * the first observation window whatever PSN the flow starts at); result: line rate and window cwnd.
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                         final PccResult result) {
        final int mtu = attributes.mtuBytes();
        final long minW = (long) minWindowPackets * mtu;
        final long init = initWindowBytes > 0 ? initWindowBytes : attributes.bdpBytes();
        final int cwnd = (int) Math.min(maxWindowBytes, Math.max(minW, init));
        final int ssthresh = initSsthreshBytes > 0 ? (int) Math.max(minW, initSsthreshBytes) : cwnd;
        context.set(W_CWND_BYTES, cwnd);
        context.set(W_SSTHRESH_BYTES, ssthresh);
        context.set(W_ALPHA, initialAlpha);
        context.set(W_ACKED_PACKETS, 0);
        context.set(W_MARKED_PACKETS, 0);
        context.set(W_WINDOW_END_PSN, (attributes.initialPsn() - 1) & PccEventLayout.MASK_24);
        context.set(W_LAST_SENT_PSN, 0);
        context.set(W_CWR_END_PSN, 0);
        context.set(W_FLAGS, 0);
        context.set(W_CA_BYTES, 0);
        result.rate(FixedPoint.RATE_ONE).windowBytes(cwnd);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        switch (event.type()) {
            case PccEventType.TX_BURST -> {
                final int sn = event.sn() & PccEventLayout.MASK_24;
                final int flags = context.get(W_FLAGS);
                if ((flags & FLAG_SENT) == 0 || FixedPoint.psnDelta(context.get(W_LAST_SENT_PSN), sn) > 0) {
                    context.set(W_LAST_SENT_PSN, sn);
                }
                context.set(W_FLAGS, flags | FLAG_SENT);
            }
            case PccEventType.ACK -> onAck(context, event, attributes, result);
            case PccEventType.NACK -> onNack(context, event, attributes, result);
            default -> {
                // CNP, RTT_RESPONSE, TIMER: DCTCP is driven by ECN echoes on ACKs
            }
        }
    }

    private void onAck(final PccContext context, final PccEvent event, final PccAttributes attributes,
                       final PccResult result) {
        final int sn = event.sn() & PccEventLayout.MASK_24;
        final int n = FixedPoint.psnDelta(event.firstSn(), sn) + 1;
        if (n <= 0) {
            counters.increment(C_STALE_ACKS);
            return;
        }
        final boolean ece = event.hasFlag(PccEventLayout.FLAG_ECE);
        if (ece) {
            counters.increment(C_ACKS_MARKED);
        }
        int flags = acknowledge(context, context.get(W_FLAGS), sn, n, ece);
        int cwnd = context.get(W_CWND_BYTES);
        if ((flags & FLAG_IN_CWR) == 0) {
            if (ece) {
                final int alpha = context.get(W_ALPHA);
                final long minW = (long) minWindowPackets * attributes.mtuBytes();
                cwnd = (int) Math.max(minW, cwnd - (((long) cwnd * alpha) >> 17));
                context.set(W_SSTHRESH_BYTES, cwnd);
                flags = openCwr(context, flags, sn);
                counters.increment(C_ECN_REDUCTIONS);
            } else {
                cwnd = grow(context, cwnd, Math.min(1L << 30, (long) n * attributes.mtuBytes()), attributes.mtuBytes());
            }
            context.set(W_CWND_BYTES, cwnd);
        }
        context.set(W_FLAGS, flags);
        result.windowBytes(cwnd);
    }

    private void onNack(final PccContext context, final PccEvent event, final PccAttributes attributes,
                        final PccResult result) {
        if (event.subtype() != PccEventType.NACK_OUT_OF_SEQUENCE) {
            return;
        }
        final int sn = event.sn() & PccEventLayout.MASK_24;
        final int newlyAcked = FixedPoint.psnDelta(event.firstSn(), sn);
        final int highestAcked = (sn - 1) & PccEventLayout.MASK_24;
        int flags = context.get(W_FLAGS);
        if (newlyAcked > 0) {
            flags = acknowledge(context, flags, highestAcked, newlyAcked, event.hasFlag(PccEventLayout.FLAG_ECE));
        }
        int cwnd = context.get(W_CWND_BYTES);
        if ((flags & FLAG_IN_CWR) == 0) {
            final long minW = (long) minWindowPackets * attributes.mtuBytes();
            cwnd = (int) Math.max(minW, cwnd / 2);
            context.set(W_SSTHRESH_BYTES, cwnd);
            context.set(W_CWND_BYTES, cwnd);
            flags = openCwr(context, flags, highestAcked);
            counters.increment(C_LOSS_REDUCTIONS);
        }
        context.set(W_FLAGS, flags);
        result.windowBytes(cwnd);
    }

    /**
     * Steps 1-2 of the per-ACK procedure: closes CWR when its end is acknowledged and runs the
     * alpha estimator (the DCTCP draft §3.3 steps 1-8).
     *
     * @return the updated flags (not yet stored)
     */
    private int acknowledge(final PccContext context, final int flags, final int sn, final int n, final boolean ece) {
        int f = flags;
        if ((f & FLAG_IN_CWR) != 0 && FixedPoint.psnDelta(context.get(W_CWR_END_PSN), sn) >= 0) {
            f &= ~FLAG_IN_CWR;
        }
        final int acked = context.get(W_ACKED_PACKETS) + n;
        final int marked = context.get(W_MARKED_PACKETS) + (ece ? n : 0);
        if (FixedPoint.psnDelta(context.get(W_WINDOW_END_PSN), sn) >= 0) {
            final long m = ((long) marked << 16) / acked;
            final long alpha = ((long) (FixedPoint.ONE - g) * context.get(W_ALPHA) + g * m) >> 16;
            context.set(W_ALPHA, (int) alpha);
            context.set(W_WINDOW_END_PSN, lastSent(context, f, sn));
            context.set(W_ACKED_PACKETS, 0);
            context.set(W_MARKED_PACKETS, 0);
            counters.increment(C_ALPHA_UPDATES);
        } else {
            context.set(W_ACKED_PACKETS, acked);
            context.set(W_MARKED_PACKETS, marked);
        }
        return f;
    }

    private int openCwr(final PccContext context, final int flags, final int sn) {
        context.set(W_CWR_END_PSN, lastSent(context, flags, sn));
        context.set(W_CA_BYTES, 0);
        return flags | FLAG_IN_CWR;
    }

    /** The later of the last PSN sent (if any TX_BURST was seen) and {@code sn}. */
    private static int lastSent(final PccContext context, final int flags, final int sn) {
        if ((flags & FLAG_SENT) == 0) {
            return sn;
        }
        final int last = context.get(W_LAST_SENT_PSN);
        return FixedPoint.psnDelta(sn, last) > 0 ? last : sn;
    }

    private int grow(final PccContext context, final int cwndIn, final long bytesIn, final int mtu) {
        long cwnd = cwndIn;
        long bytes = bytesIn;
        final int ssthresh = context.get(W_SSTHRESH_BYTES);
        if (cwnd < ssthresh) {
            final long ss = Math.min(bytes, ssthresh - cwnd);
            cwnd += ss;
            bytes -= ss;
        }
        if (bytes > 0) {
            long ca = context.get(W_CA_BYTES) + bytes;
            for (int i = 0; i < MAX_CA_STEPS && ca >= cwnd; i++) {
                ca -= cwnd;
                cwnd += mtu;
            }
            context.set(W_CA_BYTES, (int) Math.min(ca, cwnd));
        }
        return (int) Math.min(maxWindowBytes, cwnd);
    }
}
