package dev.nicsim.sw;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * The egress side of one switch port: 8 FIFO queues (one per priority) in rings allocated at the
 * queue's first frame (most of a fabric's queues never hold one) that double when full (so they
 * allocate only until the run's peak depth), served by strict priority
 * (higher priority number first) and then deficit weighted round robin (DWRR, Shreedhar &amp;
 * Varghese) among the other priorities, skipping priorities paused by PFC (IEEE 802.1Qbb): the
 * egress scheduling stage of the {@link SwitchAsic} pipeline. When a data frame starts
 * serialisation the owning {@link SwitchAsic} frees its buffer. Queue depths are in bytes.
 *
 * <p>With packet trimming ({@link PacketTrimmer}) the port also has a header queue, a FIFO of
 * trimmed headers (ring allocated at its first header) served ahead of every priority queue unless
 * the head header's priority is paused by PFC; its bytes are outside the data queues' depths.
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
final class SwitchPort extends EgressPort {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** Ring length at a queue's first frame, a power of two. */
    private static final int INITIAL_RING = 16;

    private final SwitchAsic owner;
    private final int portIndex;
    private final int strictMask;
    private final int[] quantumBytes;
    /** Per priority, the queue's ring (length a power of two), or null before its first frame. */
    private final Packet[][] rings = new Packet[PRIORITIES][];
    /** Values per priority in {@link #queueState}. */
    private static final int QS_STRIDE = 4;
    /** {@link #queueState} offset: bytes queued at the priority. */
    private static final int QS_DEPTH_BYTES = 0;
    /** {@link #queueState} offset: the priority's DWRR deficit, bytes. */
    private static final int QS_DEFICIT_BYTES = 1;
    /** {@link #queueState} offset: ring index of the queue's head frame. */
    private static final int QS_HEAD = 2;
    /** {@link #queueState} offset: frames queued at the priority. */
    private static final int QS_COUNT = 3;
    /**
     * The eight queues' metadata in one array, {@value #QS_STRIDE} longs per priority
     * ({@code [QS_STRIDE p + QS_*]}): depth, DWRR deficit, ring head and count. One array rather than
     * four (one per value) so that an enqueue or a dequeue touches one object and one 32-byte run
     * instead of four arrays' lines (the packet path is bound by cache misses).
     */
    private final long[] queueState = new long[PRIORITIES * QS_STRIDE];
    private int nonEmptyMask;
    /** The header queue's ring (length a power of two), or null before its first header. */
    private Packet[] headerRing;
    private int headerHead;
    private int headerCount;
    private long headerDepthBytes;
    private int drrCurrent;
    private boolean drrTurnStarted;

    /**
     * Creates the port.
     *
     * @param sim            simulator
     * @param rateBitsPerSec link rate, bits/s, {@code > 0}
     * @param propagationPs  one-way propagation delay, ps, {@code >= 0}
     * @param owner          the switch that owns the buffer
     * @param portIndex      this port's number on the switch
     * @param strictMask     strict-priority bitmask (bit i = priority i)
     * @param quantumBytes   DWRR quantum per priority, bytes, each {@code > 0} (shared, not copied)
     */
    SwitchPort(final Simulator sim, final long rateBitsPerSec, final long propagationPs, final SwitchAsic owner,
               final int portIndex, final int strictMask, final int[] quantumBytes) {
        super(sim, rateBitsPerSec, propagationPs);
        this.owner = owner;
        this.portIndex = portIndex;
        this.strictMask = strictMask;
        this.quantumBytes = quantumBytes;
    }

    /**
     * Appends a packet to a queue (does not kick the transmitter).
     *
     * @param p        packet
     * @param priority queue 0..7
     */
    void enqueue(final Packet p, final int priority) {
        final long[] qs = queueState;
        final int b = priority * QS_STRIDE;
        Packet[] ring = rings[priority];
        if (ring == null) {
            ring = new Packet[INITIAL_RING];
            rings[priority] = ring;
        }
        final int n = (int) qs[b + QS_COUNT];
        if (n == ring.length) {
            final Packet[] bigger = new Packet[ring.length * 2];
            final int h = (int) qs[b + QS_HEAD];
            for (int i = 0; i < n; i++) {
                bigger[i] = ring[(h + i) & (ring.length - 1)];
            }
            rings[priority] = bigger;
            qs[b + QS_HEAD] = 0;
            ring = bigger;
        }
        ring[((int) qs[b + QS_HEAD] + n) & (ring.length - 1)] = p;
        qs[b + QS_COUNT] = n + 1;
        qs[b + QS_DEPTH_BYTES] += p.frameBytes;
        nonEmptyMask |= 1 << priority;
    }

    /**
     * The last frame of a priority's data queue (the most recently enqueued), left in place.
     *
     * @param priority queue 0..7
     * @return the tail frame, or null if the queue is empty
     */
    Packet dataTail(final int priority) {
        final int b = priority * QS_STRIDE;
        final int n = (int) queueState[b + QS_COUNT];
        if (n == 0) {
            return null;
        }
        final Packet[] ring = rings[priority];
        return ring[((int) queueState[b + QS_HEAD] + n - 1) & (ring.length - 1)];
    }

    /**
     * Removes the tail frame of a non-empty data queue (see {@link #dataTail}), lowering its depth. The
     * queue's DWRR state is kept and no queue-empty hook runs: the caller enqueues the arriving packet
     * that takes the tail's place at once.
     *
     * @param priority queue 0..7, not empty
     * @return the removed frame
     */
    Packet removeDataTail(final int priority) {
        final long[] qs = queueState;
        final int b = priority * QS_STRIDE;
        final int n = (int) qs[b + QS_COUNT] - 1;
        final Packet[] ring = rings[priority];
        final int i = ((int) qs[b + QS_HEAD] + n) & (ring.length - 1);
        final Packet p = ring[i];
        ring[i] = null;
        qs[b + QS_COUNT] = n;
        qs[b + QS_DEPTH_BYTES] -= p.frameBytes;
        if (n == 0) {
            nonEmptyMask &= ~(1 << priority);
        }
        return p;
    }

    /**
     * Appends a trimmed header to the header queue and stamps its {@link Packet#enqueuePs} (does not
     * kick the transmitter). The ring starts at {@value #INITIAL_RING} entries and doubles when full.
     *
     * @param p the header
     */
    void enqueueHeader(final Packet p) {
        Packet[] ring = headerRing;
        if (ring == null) {
            ring = new Packet[INITIAL_RING];
            headerRing = ring;
        }
        if (headerCount == ring.length) {
            final Packet[] bigger = new Packet[ring.length * 2];
            for (int i = 0; i < headerCount; i++) {
                bigger[i] = ring[(headerHead + i) & (ring.length - 1)];
            }
            headerRing = bigger;
            headerHead = 0;
            ring = bigger;
        }
        p.enqueuePs = sim.nowPs();
        ring[(headerHead + headerCount) & (ring.length - 1)] = p;
        headerCount++;
        headerDepthBytes += p.frameBytes;
    }

    /** @return bytes in the header queue (headers waiting, not the one being serialised) */
    long headerDepthBytes() {
        return headerDepthBytes;
    }

    /**
     * Look-ahead read of one queue's ring and depth (see {@link SwitchAsic#touch}). Reads only.
     *
     * @param priority a priority; masked to 0..7
     * @return a value of the touched state
     */
    int touchQueue(final int priority) {
        final int q = priority & (PRIORITIES - 1);
        final Packet[] ring = rings[q];
        return (ring == null ? 0 : ring.length) + (int) queueState[q * QS_STRIDE + QS_DEPTH_BYTES];
    }

    /**
     * Look-ahead hint ({@link EgressPort#touchQueuedFrames}): reads the head frame of every
     * non-empty queue, one of which {@link #nextDataPacket} returns next. Reads only.
     *
     * @return a value of the touched state
     */
    @Override
    protected int touchQueuedFrames() {
        int t = 0;
        for (int m = nonEmptyMask; m != 0; m &= m - 1) {
            final int q = Integer.numberOfTrailingZeros(m);
            t += rings[q][(int) queueState[q * QS_STRIDE + QS_HEAD]].frameBytes;
        }
        return t;
    }

    /**
     * @param priority 0..7
     * @return bytes queued at this priority (frames waiting, not the one being serialised)
     */
    long depthBytes(final int priority) {
        return queueState[priority * QS_STRIDE + QS_DEPTH_BYTES];
    }

    @Override
    protected boolean needsEndOfFrameEvent(final long frameEndPs) {
        return nonEmptyMask != 0 || headerCount != 0;
    }

    @Override
    protected Packet nextDataPacket() {
        if (headerCount != 0 && (pausedMask() & (1 << headerRing[headerHead].priority)) == 0) {
            return pollHeader();
        }
        if (nonEmptyMask == 0) {
            return null;
        }
        final int eligible = nonEmptyMask & ~pausedMask();
        final int strictReady = eligible & strictMask;
        if (strictReady != 0) {
            return poll(31 - Integer.numberOfLeadingZeros(strictReady));
        }
        final int drrReady = eligible & ~strictMask;
        if (drrReady == 0) {
            return null;
        }
        // DWRR: terminates because some queue in drrReady gains a quantum (> 0) per visit.
        final long[] qs = queueState;
        while (true) {
            final int q = drrCurrent;
            final int b = q * QS_STRIDE;
            if ((drrReady & (1 << q)) != 0) {
                if (!drrTurnStarted) {
                    qs[b + QS_DEFICIT_BYTES] += quantumBytes[q];
                    drrTurnStarted = true;
                }
                final int headBytes = rings[q][(int) qs[b + QS_HEAD]].frameBytes;
                if (headBytes <= qs[b + QS_DEFICIT_BYTES]) {
                    qs[b + QS_DEFICIT_BYTES] -= headBytes;
                    final Packet p = poll(q);
                    if (qs[b + QS_COUNT] == 0) {
                        qs[b + QS_DEFICIT_BYTES] = 0;
                        drrCurrent = (q + 1) & (PRIORITIES - 1);
                        drrTurnStarted = false;
                    }
                    return p;
                }
            } else {
                qs[b + QS_DEFICIT_BYTES] = 0; // inactive (empty, paused or strict) queues carry no deficit
            }
            drrCurrent = (q + 1) & (PRIORITIES - 1);
            drrTurnStarted = false;
        }
    }

    private Packet pollHeader() {
        final Packet[] ring = headerRing;
        final Packet p = ring[headerHead];
        ring[headerHead] = null;
        headerHead = (headerHead + 1) & (ring.length - 1);
        headerCount--;
        headerDepthBytes -= p.frameBytes;
        return p;
    }

    private Packet poll(final int q) {
        final long[] qs = queueState;
        final int b = q * QS_STRIDE;
        final Packet[] ring = rings[q];
        final int h = (int) qs[b + QS_HEAD];
        final Packet p = ring[h];
        ring[h] = null;
        qs[b + QS_HEAD] = (h + 1) & (ring.length - 1);
        final long n = qs[b + QS_COUNT] - 1;
        qs[b + QS_COUNT] = n;
        qs[b + QS_DEPTH_BYTES] -= p.frameBytes;
        if (n == 0) {
            nonEmptyMask &= ~(1 << q);
            owner.onQueueEmpty(portIndex, q);
        }
        return p;
    }

    @Override
    protected void onTransmitStart(final Packet frame) {
        // Runs after the base class has marked the link busy, so any PFC frame this triggers
        // (xon through another port, possibly this one) is queued, never transmitted re-entrantly.
        if (frame.kind != Packet.KIND_PFC) {
            owner.onTransmitStart(portIndex, frame);
        }
    }
}
