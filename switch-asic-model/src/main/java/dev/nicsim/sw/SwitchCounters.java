package dev.nicsim.sw;

import dev.nicsim.sim.CounterLayout;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;

/**
 * The counters of one {@link SwitchAsic} that several pipeline stages write: the per-queue
 * statistics, the per-PG PFC counters and the switch-wide totals, all in one {@code long[]}
 * ({@link #queueStats}) registered as one block. {@code counters.csv} lists them in this order:
 * {@code <name>}: {@code no_route_drops}; then for each port P and priority i, component
 * {@code <name>/port<P>/q<i>}: {@code enqueued_packets, dequeued_packets, enqueued_bytes,
 * ecn_marked_packets, wred_drops, tail_drops, headroom_drops, peak_depth_bytes, pfc_pause_received},
 * and component {@code <name>/port<P>/pg<i>}: {@code pfc_xoff_sent (including refreshes),
 * pfc_xon_sent, peak_headroom_bytes}. With packet trimming on ({@link SwitchConfig#trimmingEnabled}) a
 * second block follows, registered only then (so the counters of a switch without trimming are
 * unchanged), component {@code <name>/port<P>/trim}: {@code trimmed_packets} (data packets the port's
 * full data queues cut to headers), {@code trimmed_tail_packets} (of them, the queue's tail, chosen by
 * the coin), {@code header_enqueued_packets} (headers that joined the header queue, cut here or arriving
 * trimmed), {@code header_queue_drops} (headers dropped above twice the data queue limit),
 * {@code peak_header_queue_bytes}.
 *
 * <p>Cells: the per-queue counters first, row {@code q x QS_ROW} for queue
 * {@code q = port x 8 + priority}, cells {@code QS_*}, so an enqueue and a dequeue touch one cache
 * line of counters; then the PFC counters, row {@code pfcBase + q x PFC_ROW}, cells {@code PFC_*};
 * then {@code no_route_drops}. The names are one {@link CounterLayout} per port count, shared by
 * every switch of the run: registering a switch allocates no object per counter. Stages hold the
 * array (or this object) and index it.
 *
 * <p>Allocation-free after construction. Thread-safety: not thread-safe; simulation thread only.
 */
final class SwitchCounters {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** Cells per queue row of {@link #queueStats}. */
    static final int QS_ROW = 8;
    /** Cell: packets that joined the queue (a VOQ feeding it, input-output queued). */
    static final int QS_ENQUEUED_PACKETS = 0;
    /** Cell: bytes that joined the queue. */
    static final int QS_ENQUEUED_BYTES = 1;
    /** Cell: largest depth of the queue after an enqueue, bytes. */
    static final int QS_PEAK_DEPTH = 2;
    /** Cell: data frames that started serialisation from the queue. */
    static final int QS_DEQUEUED_PACKETS = 3;
    /** Cell: packets marked CE for the queue. */
    static final int QS_ECN_MARKED = 4;
    /** Cell: packets WRED dropped. */
    static final int QS_WRED_DROPS = 5;
    /** Cell: packets tail dropped (lossy priority). */
    static final int QS_TAIL_DROPS = 6;
    /** Cell: packets dropped for lack of headroom (lossless priority). */
    static final int QS_HEADROOM_DROPS = 7;
    /** Cells per (port, priority) row of the PFC counters. */
    static final int PFC_ROW = 4;
    /** PFC cell: PFC frames received for the (port, priority). */
    static final int PFC_PAUSE_RECEIVED = 0;
    /** PFC cell: XOFF frames (including refreshes) sent for the (ingress port, PG). */
    static final int PFC_XOFF_SENT = 1;
    /** PFC cell: XON frames sent for the (ingress port, PG). */
    static final int PFC_XON_SENT = 2;
    /** PFC cell: largest headroom use of the (ingress port, PG), bytes. */
    static final int PFC_PEAK_HEADROOM = 3;

    /** Cells per port row of {@link #trimStats}. */
    static final int TR_ROW = 5;
    /** Trim cell: data packets cut to headers at the port. */
    static final int TR_TRIMMED = 0;
    /** Trim cell: of them, the data queue's tail packet (the coin's other side). */
    static final int TR_TRIMMED_TAIL = 1;
    /** Trim cell: headers that joined the port's header queue. */
    static final int TR_HEADER_ENQUEUED = 2;
    /** Trim cell: headers dropped because the header queue was full. */
    static final int TR_HEADER_DROPS = 3;
    /** Trim cell: largest header queue depth after an enqueue, bytes. */
    static final int TR_PEAK_HEADER_BYTES = 4;

    /**
     * The trimming counters, row {@code port x TR_ROW}, cells {@code TR_*}; null when trimming is off
     * (nothing registered then).
     */
    final long[] trimStats;

    /** Every counter of the switch: per-queue rows {@code [q x QS_ROW + QS_*]} first, then the PFC rows and no_route_drops. */
    final long[] queueStats;
    /** First cell of the PFC rows: {@code queues x QS_ROW}. */
    final int pfcBase;
    /** Cell of {@code no_route_drops}. */
    private final int noRouteCell;

    /** Largest egress queue depth seen over all queues after an enqueue, bytes. */
    long peakQueueBytes;
    /** Packets marked CE by the switch. */
    long totalCeMarked;
    /** Packets dropped by the switch (WRED, tail, headroom, no route). */
    long totalDrops;
    /** PFC frames sent (XOFF including refreshes, and XON). */
    long totalPauseFramesSent;

    /**
     * Allocates the cells and registers them as one block under the switch's name.
     *
     * @param counters registry
     * @param name     switch name (counter component prefix)
     * @param numPorts ports, {@code >= 1}
     */
    SwitchCounters(final CounterRegistry counters, final String name, final int numPorts) {
        this(counters, name, numPorts, false);
    }

    /**
     * Allocates the cells and registers them as one block under the switch's name, and the trimming
     * block after it when {@code trimming}.
     *
     * @param counters registry
     * @param name     switch name (counter component prefix)
     * @param numPorts ports, {@code >= 1}
     * @param trimming whether the switch trims packets ({@link SwitchConfig#trimmingEnabled})
     */
    SwitchCounters(final CounterRegistry counters, final String name, final int numPorts, final boolean trimming) {
        final int queues = numPorts * PRIORITIES;
        this.pfcBase = queues * QS_ROW;
        this.noRouteCell = pfcBase + queues * PFC_ROW;
        this.queueStats = new long[noRouteCell + 1];
        counters.register(name, counters.shared("switch-counters/" + numPorts, () -> layout(numPorts)), queueStats, 0);
        this.trimStats = trimming ? new long[numPorts * TR_ROW] : null;
        if (trimming) {
            counters.register(name, counters.shared("switch-trim/" + numPorts, () -> trimLayout(numPorts)), trimStats, 0);
        }
    }

    /**
     * The names of a trimming switch's per-port trimming counters, in the order of the class comment.
     *
     * @param numPorts ports, {@code >= 1}
     * @return the layout over {@link #trimStats}
     */
    static CounterLayout trimLayout(final int numPorts) {
        final CounterLayout.Builder b = CounterLayout.builder(numPorts * TR_ROW);
        for (int p = 0; p < numPorts; p++) {
            final String c = "/port" + p + "/trim";
            final int row = p * TR_ROW;
            b.row(c, "trimmed_packets", row + TR_TRIMMED);
            b.row(c, "trimmed_tail_packets", row + TR_TRIMMED_TAIL);
            b.row(c, "header_enqueued_packets", row + TR_HEADER_ENQUEUED);
            b.row(c, "header_queue_drops", row + TR_HEADER_DROPS);
            b.row(c, "peak_header_queue_bytes", row + TR_PEAK_HEADER_BYTES);
        }
        return b.build();
    }

    /**
     * The names of a switch's counters, in the order of the class comment.
     *
     * @param numPorts ports, {@code >= 1}
     * @return the layout over {@link #queueStats}
     */
    static CounterLayout layout(final int numPorts) {
        final int queues = numPorts * PRIORITIES;
        final int pfc = queues * QS_ROW;
        final CounterLayout.Builder b = CounterLayout.builder(1 + queues * 12);
        b.row("", "no_route_drops", pfc + queues * PFC_ROW);
        for (int p = 0; p < numPorts; p++) {
            for (int g = 0; g < PRIORITIES; g++) {
                final int i = p * PRIORITIES + g;
                final String q = "/port" + p + "/q" + g;
                final int row = i * QS_ROW;
                b.row(q, "enqueued_packets", row + QS_ENQUEUED_PACKETS);
                b.row(q, "dequeued_packets", row + QS_DEQUEUED_PACKETS);
                b.row(q, "enqueued_bytes", row + QS_ENQUEUED_BYTES);
                b.row(q, "ecn_marked_packets", row + QS_ECN_MARKED);
                b.row(q, "wred_drops", row + QS_WRED_DROPS);
                b.row(q, "tail_drops", row + QS_TAIL_DROPS);
                b.row(q, "headroom_drops", row + QS_HEADROOM_DROPS);
                b.row(q, "peak_depth_bytes", row + QS_PEAK_DEPTH);
                final int pfcRow = pfc + i * PFC_ROW;
                b.row(q, "pfc_pause_received", pfcRow + PFC_PAUSE_RECEIVED);
                final String pg = "/port" + p + "/pg" + g;
                b.row(pg, "pfc_xoff_sent", pfcRow + PFC_XOFF_SENT);
                b.row(pg, "pfc_xon_sent", pfcRow + PFC_XON_SENT);
                b.row(pg, "peak_headroom_bytes", pfcRow + PFC_PEAK_HEADROOM);
            }
        }
        return b.build();
    }

    /**
     * The names of an input-output queued switch's {@code peak_voq_bytes} (largest bytes held in the
     * VOQs of an input port), component {@code <name>/port<P>/voq}, cell P of the switch's own array.
     *
     * @param numPorts ports, {@code >= 1}
     * @return the layout
     */
    static CounterLayout voqLayout(final int numPorts) {
        final CounterLayout.Builder b = CounterLayout.builder(numPorts);
        for (int p = 0; p < numPorts; p++) {
            b.row("/port" + p + "/voq", "peak_voq_bytes", p);
        }
        return b.build();
    }

    /** A packet was dropped for want of a route or a connected egress port: counts it. */
    void onNoRoute() {
        queueStats[noRouteCell]++;
    }

    /**
     * A PFC frame arrived for (port, priority) {@code i}: counts it.
     *
     * @param i {@code port x 8 + priority}
     */
    void onPauseReceived(final int i) {
        queueStats[pfcBase + i * PFC_ROW + PFC_PAUSE_RECEIVED]++;
    }

    /**
     * An XOFF (or its refresh) was sent for (ingress port, PG) {@code pgIdx}: counts it.
     *
     * @param pgIdx {@code ingress port x 8 + pg}
     */
    void onXoffSent(final int pgIdx) {
        queueStats[pfcBase + pgIdx * PFC_ROW + PFC_XOFF_SENT]++;
    }

    /**
     * An XON was sent for (ingress port, PG) {@code pgIdx}: counts it.
     *
     * @param pgIdx {@code ingress port x 8 + pg}
     */
    void onXonSent(final int pgIdx) {
        queueStats[pfcBase + pgIdx * PFC_ROW + PFC_XON_SENT]++;
    }

    /**
     * The PG {@code pgIdx} uses {@code headroomBytes} of headroom: raises its peak.
     *
     * @param pgIdx         {@code ingress port x 8 + pg}
     * @param headroomBytes headroom in use, bytes
     */
    void onHeadroom(final int pgIdx, final long headroomBytes) {
        final int cell = pfcBase + pgIdx * PFC_ROW + PFC_PEAK_HEADROOM;
        if (headroomBytes > queueStats[cell]) {
            queueStats[cell] = headroomBytes;
        }
    }

    /**
     * A packet joined queue {@code q}: counts it (packets, bytes).
     *
     * @param q     queue index {@code port x 8 + priority}
     * @param bytes frame bytes
     */
    void onEnqueue(final int q, final int bytes) {
        queueStats[q * QS_ROW + QS_ENQUEUED_PACKETS]++;
        queueStats[q * QS_ROW + QS_ENQUEUED_BYTES] += bytes;
    }

    /**
     * Marks a packet CE and counts the mark on queue {@code q}.
     *
     * @param p the packet
     * @param q queue index
     */
    void markCe(final Packet p, final int q) {
        p.ecn = Packet.ECN_CE;
        queueStats[q * QS_ROW + QS_ECN_MARKED]++;
        totalCeMarked++;
    }

    /**
     * The output queue {@code q} holds {@code depthBytes} after an enqueue: updates its peak and the
     * switch-wide peak.
     *
     * @param q          queue index
     * @param depthBytes the queue's bytes now
     */
    void onDepth(final int q, final long depthBytes) {
        final int cell = q * QS_ROW + QS_PEAK_DEPTH;
        if (depthBytes > queueStats[cell]) {
            queueStats[cell] = depthBytes;
        }
        if (depthBytes > peakQueueBytes) {
            peakQueueBytes = depthBytes;
        }
    }
}
