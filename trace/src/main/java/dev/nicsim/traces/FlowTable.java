package dev.nicsim.traces;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEventLayout;

import java.util.Arrays;

/**
 * The per-capture state of {@link PccEventDeriver}: the addresses seen (endpoints, numbered in order
 * of first appearance), the request streams ("halves": requester address, responder address,
 * responder QPN) with their open TX burst and their last {@value #HIST} request PSNs, the address
 * pairs that group the streams, and the flows (requester QPs: requester address and QPN).
 * Streams and flows are numbered from 0 in order of first appearance; the tables are arrays indexed
 * by those numbers, read and written in place by the deriver.
 *
 * <p>Allocation: none while the number of endpoints, streams and flows does not exceed the peak;
 * each table doubles when it does. Thread-safety: not thread-safe; owned by one deriver.
 */
final class FlowTable {
    /** Request PSNs remembered per stream. */
    static final int HIST = 16;
    /** A response pairs with a stream whose last sent PSN is within this distance (2^22). */
    static final int PSN_PAIRING_WINDOW = 1 << 22;
    /** History slot states. */
    static final byte EMPTY = 0;
    static final byte SENT = 1;
    static final byte SENT_ACK_REQ = 2;
    static final byte ANSWERED = 3;

    private static final int MASK24 = PccEventLayout.MASK_24;

    // endpoints (addresses)
    private final KeyIndex endpoints = new KeyIndex();
    long[] endpointHi = new long[16];
    long[] endpointLo = new long[16];

    // address pairs (requester -> responder) and the streams of each
    private final KeyIndex pairs = new KeyIndex();
    private int[] pairFirstHalf = new int[16];

    // request streams ("halves"): (src, dst, responder QPN)
    private final KeyIndex halves = new KeyIndex();
    private int halfCap = 16;
    private int[] halfNextInPair = new int[halfCap];
    int[] halfSrcEndpoint = new int[halfCap];
    int[] halfRespQpn = new int[halfCap];
    int[] halfFlow = new int[halfCap];
    boolean[] burstOpen = new boolean[halfCap];
    long[] burstFirstPs = new long[halfCap];
    long[] burstLastPs = new long[halfCap];
    int[] burstFirstPsn = new int[halfCap];
    int[] burstLastPsn = new int[halfCap];
    long[] burstBytes = new long[halfCap];
    int[] burstPackets = new int[halfCap];
    long[] burstLastSeq = new long[halfCap];
    boolean[] hasSent = new boolean[halfCap];
    int[] lastSentPsn = new int[halfCap];
    private int[] histNext = new int[halfCap];
    private int[] histPsn = new int[halfCap * HIST];
    long[] histTimePs = new long[halfCap * HIST];
    byte[] histState = new byte[halfCap * HIST];

    // flows (requester QPs): (requester address, QPN [| 1 << 32 for unpaired fallbacks])
    private final KeyIndex flows = new KeyIndex();
    private int flowCap = 16;
    int[] flowQpn = new int[flowCap];
    int[] flowEndpoint = new int[flowCap];
    int[] flowHalf = new int[flowCap];
    boolean[] flowSeen = new boolean[flowCap];
    boolean[] flowHasAcked = new boolean[flowCap];
    int[] flowLastAcked = new int[flowCap];

    FlowTable() {
        Arrays.fill(pairFirstHalf, -1);
    }

    /**
     * The request stream of a request packet, added (with no burst open, nothing sent, no flow)
     * when new.
     *
     * @param p a connected-service request
     * @return the stream number
     */
    int half(final RocePacket p) {
        final int before = halves.size();
        final int h = halves.findOrAdd(p.srcAddrHi, p.srcAddrLo, p.dstAddrHi, p.dstAddrLo, p.destQp);
        if (h == before) {
            ensureHalfCapacity(h + 1);
            final int src = endpoint(p.srcAddrHi, p.srcAddrLo);
            final int beforePairs = pairs.size();
            final int pair = pairs.findOrAdd(p.srcAddrHi, p.srcAddrLo, p.dstAddrHi, p.dstAddrLo, 0);
            if (pair == beforePairs) {
                if (pair == pairFirstHalf.length) {
                    pairFirstHalf = Arrays.copyOf(pairFirstHalf, pair * 2);
                }
                pairFirstHalf[pair] = -1;
            }
            halfNextInPair[h] = pairFirstHalf[pair];
            pairFirstHalf[pair] = h;
            halfSrcEndpoint[h] = src;
            halfRespQpn[h] = p.destQp;
            halfFlow[h] = -1;
            burstOpen[h] = false;
            hasSent[h] = false;
            histNext[h] = 0;
            Arrays.fill(histState, h * HIST, (h + 1) * HIST, EMPTY);
        }
        return h;
    }

    private int endpoint(final long hi, final long lo) {
        final int before = endpoints.size();
        final int e = endpoints.findOrAdd(hi, lo, 0, 0, 0);
        if (e == before) {
            if (e == endpointHi.length) {
                endpointHi = Arrays.copyOf(endpointHi, e * 2);
                endpointLo = Arrays.copyOf(endpointLo, e * 2);
            }
            endpointHi[e] = hi;
            endpointLo[e] = lo;
        }
        return e;
    }

    /**
     * The flow of a requester address and QPN key, added (unseen, unacknowledged, with no stream)
     * when new.
     *
     * @param hi     requester address, high 64 bits
     * @param lo     requester address, low 64 bits
     * @param qpnKey the requester QPN; with bit 32 set, the fallback flow of an unpaired stream
     * @return the flow number
     */
    int flow(final long hi, final long lo, final long qpnKey) {
        final int before = flows.size();
        final int f = flows.findOrAdd(hi, lo, qpnKey, 0, 0);
        if (f == before) {
            if (f == flowCap) {
                flowCap *= 2;
                flowQpn = Arrays.copyOf(flowQpn, flowCap);
                flowEndpoint = Arrays.copyOf(flowEndpoint, flowCap);
                flowHalf = Arrays.copyOf(flowHalf, flowCap);
                flowSeen = Arrays.copyOf(flowSeen, flowCap);
                flowHasAcked = Arrays.copyOf(flowHasAcked, flowCap);
                flowLastAcked = Arrays.copyOf(flowLastAcked, flowCap);
            }
            flowQpn[f] = (int) qpnKey & MASK24;
            flowEndpoint[f] = endpoint(hi, lo);
            flowHalf[f] = -1;
            flowSeen[f] = false;
            flowHasAcked[f] = false;
        }
        return f;
    }

    /**
     * Remembers a request packet of stream h: raises its highest sent PSN (24-bit serial order) and
     * puts the PSN in its history.
     *
     * @param h      stream
     * @param psn    the packet's PSN
     * @param t      its time, ps
     * @param ackReq whether it asks for an acknowledgement
     */
    void sent(final int h, final int psn, final long t, final boolean ackReq) {
        if (!hasSent[h] || FixedPoint.psnDelta(lastSentPsn[h], psn) > 0) {
            lastSentPsn[h] = psn;
        }
        hasSent[h] = true;
        final int k = h * HIST + histNext[h];
        histPsn[k] = psn;
        histTimePs[k] = t;
        histState[k] = ackReq ? SENT_ACK_REQ : SENT;
        histNext[h] = (histNext[h] + 1) % HIST;
    }

    /**
     * @return the history slot of stream h's most recent request with this PSN, or -1
     */
    int findHistory(final int h, final int psn) {
        for (int j = 1; j <= HIST; j++) {
            final int k = h * HIST + ((histNext[h] - j + HIST) % HIST);
            if (histState[k] != EMPTY && histPsn[k] == psn) {
                return k;
            }
        }
        return -1;
    }

    /** For a flow's first ACK: the oldest remembered request PSN of stream h at or before psn (psn when h is -1). */
    int firstUnackedGuess(final int h, final int psn) {
        if (h < 0) {
            return psn;
        }
        int first = psn;
        for (int j = 0; j < HIST; j++) {
            final int k = h * HIST + j;
            if (histState[k] != EMPTY && FixedPoint.psnDelta(first, histPsn[k]) < 0
                && FixedPoint.psnDelta(histPsn[k], psn) < PSN_PAIRING_WINDOW) {
                first = histPsn[k];
            }
        }
        return first;
    }

    /** The unpaired request stream from req to resp whose last sent PSN is closest to psn (within 2^22), or -1. */
    int pairStream(final long reqHi, final long reqLo, final long respHi, final long respLo, final int psn) {
        final int pair = pairs.find(reqHi, reqLo, respHi, respLo, 0);
        if (pair < 0) {
            return -1;
        }
        int best = -1;
        int bestDistance = PSN_PAIRING_WINDOW;
        for (int h = pairFirstHalf[pair]; h >= 0; h = halfNextInPair[h]) {
            if (halfFlow[h] >= 0 || !hasSent[h]) {
                continue;
            }
            final int distance = Math.abs(FixedPoint.psnDelta(lastSentPsn[h], psn));
            if (distance < bestDistance) {
                bestDistance = distance;
                best = h;
            }
        }
        return best;
    }

    /** @return number of distinct addresses seen */
    int endpointCount() {
        return endpoints.size();
    }

    private void ensureHalfCapacity(final int n) {
        if (n <= halfCap) {
            return;
        }
        final int cap = halfCap * 2;
        halfNextInPair = Arrays.copyOf(halfNextInPair, cap);
        halfSrcEndpoint = Arrays.copyOf(halfSrcEndpoint, cap);
        halfRespQpn = Arrays.copyOf(halfRespQpn, cap);
        halfFlow = Arrays.copyOf(halfFlow, cap);
        burstOpen = Arrays.copyOf(burstOpen, cap);
        burstFirstPs = Arrays.copyOf(burstFirstPs, cap);
        burstLastPs = Arrays.copyOf(burstLastPs, cap);
        burstFirstPsn = Arrays.copyOf(burstFirstPsn, cap);
        burstLastPsn = Arrays.copyOf(burstLastPsn, cap);
        burstBytes = Arrays.copyOf(burstBytes, cap);
        burstPackets = Arrays.copyOf(burstPackets, cap);
        burstLastSeq = Arrays.copyOf(burstLastSeq, cap);
        hasSent = Arrays.copyOf(hasSent, cap);
        lastSentPsn = Arrays.copyOf(lastSentPsn, cap);
        histNext = Arrays.copyOf(histNext, cap);
        histPsn = Arrays.copyOf(histPsn, cap * HIST);
        histTimePs = Arrays.copyOf(histTimePs, cap * HIST);
        histState = Arrays.copyOf(histState, cap * HIST);
        halfCap = cap;
    }
}
