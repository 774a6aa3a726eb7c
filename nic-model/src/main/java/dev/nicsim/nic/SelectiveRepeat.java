package dev.nicsim.nic;

import dev.nicsim.pcc.PccEventLayout;

/**
 * Selective repeat for RC data ({@link NicConfig#LOSS_RECOVERY_SELECTIVE_REPEAT}): the
 * out-of-order-tolerant responder and the requester that resends only what is missing. The design
 * follows IRN (Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018, §3: selective
 * retransmission with a receiver bitmap, NACKs naming a PSN, and BDP-FC's cap on outstanding
 * packets) and UET 1.0's packet delivery as uet-htsim implements it ({@code UecSink::processData},
 * {@code UecSrc::processAck}/{@code processNack}/{@code rtxTimerExpired}: a cumulative ACK with a
 * 64-bit SACK bitmap, a NACK for a trimmed packet resending exactly it, a timeout resending the
 * oldest unacknowledged packet). Loss inferred from SACKs is RFC 6675's {@code IsLost} with
 * DupThresh = {@link NicConfig#srLossThresholdPackets}.
 *
 * <ul>
 * <li>Responder: a packet up to {@code window - 1} PSNs past the expected one is accepted into a
 *     bitmap ({@link Qp#srRx}, a ring of {@link NicConfig#srWindowPackets} bits indexed by PSN)
 *     and counts {@code sr_out_of_order_accepted}; the expected one advances the expected PSN over
 *     every held packet after it; a packet already held or below the expected PSN is a duplicate; one
 *     {@code window} or more ahead is dropped ({@code out_of_sequence}). An ACK carries the
 *     cumulative PSN (expected - 1) and {@link #sack} (bit i = PSN cumulative + 1 + i, so bit 0, the
 *     hole, is always clear).</li>
 * <li>Requester: per-packet state for the window past its oldest unacknowledged packet
 *     ({@code sndUna}): SACKed ({@link Qp#srAcked}), waiting to be resent ({@link Qp#srRtx}) and
 *     already resent ({@link Qp#srLost}; SACK evidence resends a packet at most once), rings of window bits indexed by packet
 *     index. The next packet sent is the lowest waiting resend, else the next new packet
 *     ({@code sndMax}), and a new packet goes only while {@code sndMax - sndUna < window}. A resend
 *     is queued by a NACK naming the packet ({@code sr_nack_resends}), by a SACK showing at least
 *     DupThresh packets above it received ({@code sr_sack_resends}, once per packet), and by the
 *     retransmission timeout for the oldest unacknowledged packet only
 *     ({@code local_ack_timeout_err}). A packet SACKed while it waits is not resent.</li>
 * </ul>
 * A SACK-only ACK (no cumulative progress) updates the state but offers no PCC ACK event; the
 * SACK adds no bytes to the modelled ACK frame.
 *
 * <p>Packet indexes never wrap; PSNs wrap at 2^24, a multiple of the window, so a PSN's bit is
 * stable across the wrap. Allocates nothing (the QP's bitmaps are made once per pooled QP).
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class SelectiveRepeat {
    /** {@link #classify}: a packet to accept (the expected one, or one to hold). */
    static final int ACCEPT = 0;
    /** {@link #classify}: a packet already received. */
    static final int DUPLICATE = 1;
    /** {@link #classify}: a packet {@code window} or more past the expected PSN. */
    static final int BEYOND_WINDOW = 2;

    private static final int MASK = PccEventLayout.MASK_24;

    private final int window;
    private final int lossThreshold;
    /** {@link NicCounters#cells}: the NIC's counters, updated in place. */
    private final long[] cells;

    /**
     * Creates the selective-repeat logic of a NIC.
     *
     * @param config   validated configuration ({@link NicConfig#srWindowPackets},
     *                 {@link NicConfig#srLossThresholdPackets})
     * @param counters the NIC's counters
     */
    SelectiveRepeat(final NicConfig config, final NicCounters counters) {
        this.window = config.srWindowPackets;
        this.lossThreshold = config.srLossThresholdPackets;
        this.cells = counters.cells;
    }

    // ------------------------------------------------------------------------------------------
    // bit rings: bit i of a ring of 64 x length bits lives in word (i / 64) mod length

    /**
     * One bit of a ring.
     *
     * @param b the ring, a power-of-two number of words
     * @param i the bit (a PSN or a packet index; only its low bits select the slot)
     * @return whether it is set
     */
    static boolean get(final long[] b, final int i) {
        return (b[(i >>> 6) & (b.length - 1)] & (1L << i)) != 0;
    }

    private static void set(final long[] b, final int i) {
        b[(i >>> 6) & (b.length - 1)] |= 1L << i;
    }

    private static void clear(final long[] b, final int i) {
        b[(i >>> 6) & (b.length - 1)] &= ~(1L << i);
    }

    /**
     * 64 consecutive bits of a ring.
     *
     * @param b     the ring, a power-of-two number of words
     * @param start the first bit (a PSN below 2^24, or a packet index)
     * @return bit j = bit {@code start + j} of the ring
     */
    static long window64(final long[] b, final int start) {
        final int m = b.length - 1;
        final int w = start >>> 6;
        final int off = start & 63;
        final long lo = b[w & m] >>> off;
        return off == 0 ? lo : lo | b[(w + 1) & m] << (64 - off);
    }

    // ------------------------------------------------------------------------------------------
    // responder

    /**
     * What a data packet is to a responder QP.
     *
     * @param q   the responder QP
     * @param psn the packet's PSN
     * @param d   {@code psnDelta(q.ePsn, psn)}
     * @return {@link #ACCEPT}, {@link #DUPLICATE} or {@link #BEYOND_WINDOW}
     */
    int classify(final Qp q, final int psn, final int d) {
        if (d < 0) {
            return DUPLICATE;
        }
        if (d >= window) {
            return BEYOND_WINDOW;
        }
        return d > 0 && get(q.srRx, psn) ? DUPLICATE : ACCEPT;
    }

    /**
     * Accepts a packet {@link #classify} called {@link #ACCEPT}: holds one past the expected PSN, or
     * advances the expected PSN over the expected one and every held packet after it.
     *
     * @param q   the responder QP
     * @param psn the packet's PSN
     * @param d   {@code psnDelta(q.ePsn, psn)}, {@code 0 .. window - 1}
     */
    void accept(final Qp q, final int psn, final int d) {
        if (d > 0) {
            set(q.srRx, psn);
            q.srRxCount++;
            cells[NicCounters.SR_OUT_OF_ORDER_ACCEPTED]++;
            return;
        }
        int e = (q.ePsn + 1) & MASK;
        while (q.srRxCount > 0 && get(q.srRx, e)) {
            clear(q.srRx, e);
            q.srRxCount--;
            e = (e + 1) & MASK;
        }
        q.ePsn = e;
    }

    /**
     * The SACK bitmap of a responder QP's next ACK.
     *
     * @param q the responder QP
     * @return bit i = PSN {@code ePsn + i} held (bit 0 is always clear); 0 when nothing is held
     */
    long sack(final Qp q) {
        return q.srRxCount == 0 ? 0 : window64(q.srRx, q.ePsn);
    }

    // ------------------------------------------------------------------------------------------
    // requester

    /**
     * Whether a requester QP of a WRITE/SEND flow has a packet it may send (window and pacer aside).
     *
     * @param q the requester QP
     * @return true for a waiting resend, or a new packet inside the window
     */
    boolean hasDataToSend(final Qp q) {
        return q.sndNxt < q.totalPackets && (q.sndNxt < q.sndMax || q.sndMax - q.sndUna < window);
    }

    /**
     * The payload bytes a requester QP has outstanding, as uet-htsim's sender counts its bytes in
     * flight ({@code UecSrc::_in_flight}: a packet sent adds its bytes; the receiver's count of bytes
     * received, which includes packets held out of order, and a NACK or timeout declaring a packet
     * lost take them off): the packets from {@code sndUna} to {@code sndMax} less those SACKed and
     * those waiting to be resent. The window ({@link ReactionPoint#windowOpen}) admits the next
     * packet, new or resent, while this plus its bytes fits.
     *
     * @param q the requester QP ({@link Qp#srSender})
     * @return bytes, {@code 0 .. byteOffset(sndMax) - byteOffset(sndUna)}
     */
    static long outstandingBytes(final Qp q) {
        return q.byteOffset(q.sndMax) - q.byteOffset(q.sndUna) - q.srSackedBytes - q.srRtxBytes;
    }

    /**
     * The packet index a requester QP sends next: its lowest waiting resend, else {@code sndMax}.
     *
     * @param q the requester QP
     * @return the index
     */
    int nextToSend(final Qp q) {
        if (q.srRtxCount == 0) {
            return q.sndMax;
        }
        final long[] b = q.srRtx;
        final int m = b.length - 1;
        int base = q.sndUna & ~63;
        long w = b[(q.sndUna >>> 6) & m] & (-1L << q.sndUna);
        while (true) {
            if (w != 0) {
                final int i = base + Long.numberOfTrailingZeros(w);
                return i < q.sndMax ? i : q.sndMax;
            }
            base += 64;
            if (base >= q.sndMax) {
                return q.sndMax;
            }
            w = b[(base >>> 6) & m];
        }
    }

    /**
     * A packet leaves: a resend is no longer waiting; the next packet to send is chosen.
     *
     * @param q     the requester QP
     * @param index the packet sent
     */
    void onSent(final Qp q, final int index) {
        if (index < q.sndMax) {
            if (get(q.srRtx, index)) {
                clear(q.srRtx, index);
                q.srRtxCount--;
                q.srRtxBytes -= q.payloadBytes(index);
            }
        } else {
            q.sndMax = index + 1;
        }
        q.sndNxt = nextToSend(q);
    }

    /**
     * An ACK: advances {@code sndUna} to {@code ackIndex + 1}, records the SACKed packets, and
     * queues the packets the SACKs show lost (RFC 6675 {@code IsLost}: at least DupThresh SACKed
     * packets above one not SACKed), each once.
     *
     * @param q        the requester QP
     * @param ackIndex index of the ACK's cumulative PSN, {@code sndUna - 1 .. sndMax - 1}
     * @param sack     the ACK's SACK bitmap, bit i = index {@code ackIndex + 1 + i}
     */
    void onAck(final Qp q, final int ackIndex, final long sack) {
        for (int i = q.sndUna; i <= ackIndex; i++) {
            forget(q, i);
        }
        if (ackIndex >= q.sndUna) {
            q.sndUna = ackIndex + 1;
        }
        long s = sack;
        while (s != 0) {
            final int i = ackIndex + 1 + Long.numberOfTrailingZeros(s);
            s &= s - 1;
            if (i >= q.sndMax) {
                break;
            }
            if (!get(q.srAcked, i)) {
                set(q.srAcked, i);
                q.srSackedBytes += q.payloadBytes(i);
                if (get(q.srRtx, i)) {
                    clear(q.srRtx, i);
                    q.srRtxCount--;
                    q.srRtxBytes -= q.payloadBytes(i);
                }
            }
        }
        if (lossThreshold > 0 && sack != 0) {
            inferLosses(q);
        }
        q.sndNxt = nextToSend(q);
    }

    private void inferLosses(final Qp q) {
        final long acked = window64(q.srAcked, q.sndUna);
        if (acked == 0) {
            return;
        }
        int above = 0;
        for (int j = 63 - Long.numberOfLeadingZeros(acked); j >= 0; j--) {
            if ((acked & (1L << j)) != 0) {
                above++;
                continue;
            }
            final int i = q.sndUna + j;
            if (above >= lossThreshold && i < q.sndMax && !get(q.srLost, i) && !get(q.srRtx, i)) {
                set(q.srLost, i);
                set(q.srRtx, i);
                q.srRtxCount++;
                q.srRtxBytes += q.payloadBytes(i);
                cells[NicCounters.SR_SACK_RESENDS]++;
            }
        }
    }

    /** Clears an index's bits as {@code sndUna} passes it (its ring slot is reused one window on). */
    private static void forget(final Qp q, final int i) {
        if (get(q.srRtx, i)) {
            clear(q.srRtx, i);
            q.srRtxCount--;
            q.srRtxBytes -= q.payloadBytes(i);
        }
        if (get(q.srAcked, i)) {
            clear(q.srAcked, i);
            q.srSackedBytes -= q.payloadBytes(i);
        }
        clear(q.srLost, i);
    }

    /**
     * A NACK naming a packet: queues exactly that packet, unless it is acknowledged, SACKed, or
     * waiting already (a packet resent before is resent again: each NACK reports one lost copy).
     *
     * @param q     the requester QP
     * @param index the named packet's index
     * @return true if a resend was queued
     */
    boolean onNack(final Qp q, final int index) {
        if (index < q.sndUna || index >= q.sndMax || get(q.srAcked, index) || get(q.srRtx, index)) {
            return false;
        }
        set(q.srRtx, index);
        set(q.srLost, index); // SACK evidence seen later does not resend it again
        q.srRtxCount++;
        q.srRtxBytes += q.payloadBytes(index);
        cells[NicCounters.SR_NACK_RESENDS]++;
        q.sndNxt = nextToSend(q);
        return true;
    }

    /**
     * The retransmission timeout: queues the oldest unacknowledged packet only.
     *
     * @param q the requester QP, with {@code sndUna < sndMax}
     */
    void onTimeout(final Qp q) {
        set(q.srLost, q.sndUna);
        if (!get(q.srRtx, q.sndUna)) {
            set(q.srRtx, q.sndUna);
            q.srRtxCount++;
            q.srRtxBytes += q.payloadBytes(q.sndUna);
        }
        q.sndNxt = nextToSend(q);
    }
}
