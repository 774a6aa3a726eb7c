package dev.nicsim.sw;

import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;

/**
 * The counters of one {@link SwitchAsic} that several pipeline stages write: the per-queue
 * statistics, the per-PG PFC counters and the switch-wide totals. Registered in the order
 * {@code counters.csv} lists them: {@code <name>}: {@code no_route_drops}; then for each port P and
 * priority i, component {@code <name>/port<P>/q<i>}: {@code enqueued_packets, dequeued_packets,
 * enqueued_bytes, ecn_marked_packets, wred_drops, tail_drops, headroom_drops, peak_depth_bytes,
 * pfc_pause_received}, and component {@code <name>/port<P>/pg<i>}: {@code pfc_xoff_sent (including
 * refreshes), pfc_xon_sent, peak_headroom_bytes}.
 *
 * <p>The per-queue counters are one {@code long[]}: row {@code q x QS_ROW} for queue
 * {@code q = port x 8 + priority}, cells {@code QS_*}, so an enqueue and a dequeue touch one cache
 * line of counters instead of one {@link Counter} object each; {@code counters.csv} reads them
 * through {@link Counter} views of the cells. Stages hold the arrays directly and index them.
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

    /** Packets dropped for want of a route or a connected egress port. */
    final Counter noRouteDrops;
    /** Per-queue counters, {@code [q x QS_ROW + QS_*]}. */
    final long[] queueStats;
    /** PFC frames received per (port, priority), {@code [port x 8 + priority]}. */
    final Counter[] pauseReceived;
    /** XOFF frames (including refreshes) sent per (ingress port, PG). */
    final Counter[] xoffSent;
    /** XON frames sent per (ingress port, PG). */
    final Counter[] xonSent;
    /** Largest headroom use per (ingress port, PG), bytes. */
    final Counter[] peakHeadroom;

    /** Largest egress queue depth seen over all queues after an enqueue, bytes. */
    long peakQueueBytes;
    /** Packets marked CE by the switch. */
    long totalCeMarked;
    /** Packets dropped by the switch (WRED, tail, headroom, no route). */
    long totalDrops;
    /** PFC frames sent (XOFF including refreshes, and XON). */
    long totalPauseFramesSent;

    /**
     * Registers the counters in the order of the class comment.
     *
     * @param counters registry
     * @param name     switch name (counter component prefix)
     * @param numPorts ports, {@code >= 1}
     */
    SwitchCounters(final CounterRegistry counters, final String name, final int numPorts) {
        final int queues = numPorts * PRIORITIES;
        this.noRouteDrops = counters.counter(name, "no_route_drops");
        this.queueStats = new long[queues * QS_ROW];
        this.pauseReceived = new Counter[queues];
        this.xoffSent = new Counter[queues];
        this.xonSent = new Counter[queues];
        this.peakHeadroom = new Counter[queues];
        for (int p = 0; p < numPorts; p++) {
            for (int g = 0; g < PRIORITIES; g++) {
                final int i = p * PRIORITIES + g;
                final String q = name + "/port" + p + "/q" + g;
                final int row = i * QS_ROW;
                counters.counter(q, "enqueued_packets", queueStats, row + QS_ENQUEUED_PACKETS);
                counters.counter(q, "dequeued_packets", queueStats, row + QS_DEQUEUED_PACKETS);
                counters.counter(q, "enqueued_bytes", queueStats, row + QS_ENQUEUED_BYTES);
                counters.counter(q, "ecn_marked_packets", queueStats, row + QS_ECN_MARKED);
                counters.counter(q, "wred_drops", queueStats, row + QS_WRED_DROPS);
                counters.counter(q, "tail_drops", queueStats, row + QS_TAIL_DROPS);
                counters.counter(q, "headroom_drops", queueStats, row + QS_HEADROOM_DROPS);
                counters.counter(q, "peak_depth_bytes", queueStats, row + QS_PEAK_DEPTH);
                pauseReceived[i] = counters.counter(q, "pfc_pause_received");
                final String pg = name + "/port" + p + "/pg" + g;
                xoffSent[i] = counters.counter(pg, "pfc_xoff_sent");
                xonSent[i] = counters.counter(pg, "pfc_xon_sent");
                peakHeadroom[i] = counters.counter(pg, "peak_headroom_bytes");
            }
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
