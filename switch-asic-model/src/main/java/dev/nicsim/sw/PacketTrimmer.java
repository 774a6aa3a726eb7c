package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;

import java.util.SplittableRandom;

/**
 * Packet trimming at a full egress data queue (UET 1.0 packet trimming), following uet-htsim's switch
 * egress queue ({@code CompositeQueue}: a data FIFO and a header/control FIFO per port, the header FIFO
 * served first). {@link SharedBufferMmu} calls it where it would otherwise tail-drop a packet of a
 * lossy priority; this class holds the coin, cuts packets and runs the header queues' admission.
 *
 * <h2>"Full"</h2>
 * nicsim's data queue is full for an arriving packet of {@code bytes} when the output-queued MMU would
 * tail-drop it: {@code q + bytes} exceeds the queue's limit (with {@link SwitchConfig#dataQueueLimitBytes}
 * a fixed size per lossy (port, priority) queue; otherwise the static {@code queueLimitBytes[prio]} or
 * the dynamic {@code egressAlpha x free shared buffer}), or the shared pool cannot take it. uet-htsim's
 * queue is a fixed size per egress port (one BDP, no shared buffer and no priorities): set
 * {@code dataQueueLimitBytes} to that size, with the data on one priority and a shared buffer large
 * enough for every port's queue, and the two agree. Lossless (PFC) priorities are never trimmed.
 *
 * <h2>At a full data queue</h2>
 * A fair coin (one draw of the switch's trim stream {@code RngStreams.stream(seed, "switch/<name>/trim")}
 * per full-queue arrival, {@code nextDouble() < 0.5} choosing the tail, as uet-htsim's
 * {@code drand() < 0.5}) chooses between
 * <ul>
 * <li>the tail: the data queue's last packet is taken out, its buffer freed, and cut to a header, and
 *     the arriving packet joins the data queue in its place, if it then fits (else, or if the queue
 *     is empty, the arriving packet is cut instead: uet-htsim's packets are all one size, so there it
 *     always fits);</li>
 * <li>the arriving packet: it is cut to a header.</li>
 * </ul>
 * Cutting sets {@link Packet#trimmed}, {@link Packet#frameBytes} {@code = trimHeaderBytes} and
 * {@link Packet#payloadBytes} {@code = 0}; the CE mark decided for the arriving packet is not applied
 * to a header.
 *
 * <h2>Header queue</h2>
 * One per port ({@link SwitchPort}), served ahead of every data queue. A header (cut here, or a
 * packet that arrives already trimmed, which goes there directly with no WRED/ECN decision) joins it
 * unless {@code header queue bytes + header > 2 x the data queue limit} of its priority (uet-htsim:
 * {@code _queuesize_high + size > 2 x _maxsize}), else it is dropped ({@code header_queue_drops},
 * counted in the switch's drops). Headers are held outside the shared pool and the PG accounting (a
 * buffer of their own, as in uet-htsim), so they never cause PFC, tail drops or trims; they are not
 * data dequeues ({@code dequeued_packets}) and the CAM and RCM hooks do not see them. Control frames
 * (ACK, CNP) keep their own priorities; only trimmed headers use the header queue.
 *
 * <p>Counters: the {@code <name>/port<P>/trim} block of {@link SwitchCounters}. Allocation-free on the
 * packet path (the header rings grow to the run's peak). Thread-safety: not thread-safe; simulation
 * thread only.
 */
final class PacketTrimmer {
    private final int headerBytes;
    private final SplittableRandom rng;
    private final PacketPool pool;
    private final SwitchCounters stats;
    private final long[] trimStats;

    /**
     * @param headerBytes size of a trimmed header, bytes ({@link SwitchConfig#trimHeaderBytes})
     * @param rng         the switch's trim stream
     * @param pool        the packet pool (dropped headers go back to it)
     * @param stats       the switch's counters, with the trimming block
     */
    PacketTrimmer(final int headerBytes, final SplittableRandom rng, final PacketPool pool, final SwitchCounters stats) {
        this.headerBytes = headerBytes;
        this.rng = rng;
        this.pool = pool;
        this.stats = stats;
        this.trimStats = stats.trimStats;
    }

    /**
     * The trimmer of a switch, or null when its configuration has trimming off (nothing allocated).
     *
     * @param c     the switch's validated configuration
     * @param name  the switch's name (its trim stream is {@code RngStreams.stream(seed, "switch/<name>/trim")})
     * @param seed  the scenario seed
     * @param pool  the packet pool
     * @param stats the switch's counters, with the trimming block when trimming is on
     * @return the trimmer, or null
     */
    static PacketTrimmer of(final SwitchConfig c, final String name, final long seed, final PacketPool pool,
                            final SwitchCounters stats) {
        return c.trimmingEnabled
            ? new PacketTrimmer(c.trimHeaderBytes, RngStreams.stream(seed, "switch/" + name + "/trim"), pool, stats) : null;
    }

    /**
     * Tosses the coin of a full-queue arrival (one draw unless forced).
     *
     * @return true to trim the data queue's tail packet, false to trim the arriving packet
     */
    boolean coinChoosesTail() {
        return rng.nextDouble() < 0.5;
    }

    /**
     * Cuts a data packet to its header and counts it on its egress port.
     *
     * @param p    the packet
     * @param port the egress port
     * @param tail whether it was the data queue's tail (else the arriving packet)
     */
    void cut(final Packet p, final int port, final boolean tail) {
        p.trimmed = true;
        p.frameBytes = headerBytes;
        p.payloadBytes = 0;
        final int row = port * SwitchCounters.TR_ROW;
        trimStats[row + SwitchCounters.TR_TRIMMED]++;
        if (tail) {
            trimStats[row + SwitchCounters.TR_TRIMMED_TAIL]++;
        }
    }

    /**
     * Header-queue admission: the header joins the port's header queue if the queue then holds at most
     * {@code 2 x dataLimitBytes}, else it is dropped and released. Does not kick the transmitter.
     *
     * @param p              a trimmed header
     * @param port           its egress port
     * @param out            the port's number
     * @param dataLimitBytes the data queue limit of the header's priority now, bytes
     */
    void admitHeader(final Packet p, final SwitchPort port, final int out, final double dataLimitBytes) {
        final int row = out * SwitchCounters.TR_ROW;
        final long after = port.headerDepthBytes() + p.frameBytes;
        if (after > 2 * dataLimitBytes) {
            trimStats[row + SwitchCounters.TR_HEADER_DROPS]++;
            stats.totalDrops++;
            pool.release(p);
            return;
        }
        port.enqueueHeader(p);
        trimStats[row + SwitchCounters.TR_HEADER_ENQUEUED]++;
        if (after > trimStats[row + SwitchCounters.TR_PEAK_HEADER_BYTES]) {
            trimStats[row + SwitchCounters.TR_PEAK_HEADER_BYTES] = after;
        }
    }
}
