package dev.nicsim.sw;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * The egress side of one switch port: 8 FIFO queues (one per priority) in preallocated rings that
 * double when full (so they allocate only until the run's peak depth), served by strict priority
 * (higher priority number first) and then deficit weighted round robin (DWRR, Shreedhar &amp;
 * Varghese) among the other priorities, skipping priorities paused by PFC (IEEE 802.1Qbb): the
 * egress scheduling stage of the {@link SwitchAsic} pipeline. When a data frame starts
 * serialisation the owning {@link SwitchAsic} frees its buffer. Queue depths are in bytes.
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
final class SwitchPort extends EgressPort {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    private static final int INITIAL_RING = 64;

    private final SwitchAsic owner;
    private final int portIndex;
    private final int strictMask;
    private final int[] quantumBytes;
    private final Packet[][] rings = new Packet[PRIORITIES][];
    private final int[] heads = new int[PRIORITIES];
    private final int[] counts = new int[PRIORITIES];
    private final long[] depthBytes = new long[PRIORITIES];
    private final long[] deficitBytes = new long[PRIORITIES];
    private int nonEmptyMask;
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
        for (int q = 0; q < PRIORITIES; q++) {
            rings[q] = new Packet[INITIAL_RING];
        }
    }

    /**
     * Appends a packet to a queue (does not kick the transmitter).
     *
     * @param p        packet
     * @param priority queue 0..7
     */
    void enqueue(final Packet p, final int priority) {
        Packet[] ring = rings[priority];
        final int n = counts[priority];
        if (n == ring.length) {
            final Packet[] bigger = new Packet[ring.length * 2];
            final int h = heads[priority];
            for (int i = 0; i < n; i++) {
                bigger[i] = ring[(h + i) & (ring.length - 1)];
            }
            rings[priority] = bigger;
            heads[priority] = 0;
            ring = bigger;
        }
        ring[(heads[priority] + n) & (ring.length - 1)] = p;
        counts[priority] = n + 1;
        depthBytes[priority] += p.frameBytes;
        nonEmptyMask |= 1 << priority;
    }

    /**
     * @param priority 0..7
     * @return bytes queued at this priority (frames waiting, not the one being serialised)
     */
    /**
     * Look-ahead read of one queue's ring and depth (see {@link SwitchAsic#touch}). Reads only.
     *
     * @param priority a priority; masked to 0..7
     * @return a value of the touched state
     */
    int touchQueue(final int priority) {
        final int q = priority & (PRIORITIES - 1);
        return rings[q].length + (int) depthBytes[q];
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
            t += rings[q][heads[q]].frameBytes;
        }
        return t;
    }

    long depthBytes(final int priority) {
        return depthBytes[priority];
    }

    @Override
    protected boolean needsEndOfFrameEvent(final long frameEndPs) {
        return nonEmptyMask != 0;
    }

    @Override
    protected Packet nextDataPacket() {
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
        while (true) {
            final int q = drrCurrent;
            if ((drrReady & (1 << q)) != 0) {
                if (!drrTurnStarted) {
                    deficitBytes[q] += quantumBytes[q];
                    drrTurnStarted = true;
                }
                final int headBytes = rings[q][heads[q]].frameBytes;
                if (headBytes <= deficitBytes[q]) {
                    deficitBytes[q] -= headBytes;
                    final Packet p = poll(q);
                    if (counts[q] == 0) {
                        deficitBytes[q] = 0;
                        drrCurrent = (q + 1) & (PRIORITIES - 1);
                        drrTurnStarted = false;
                    }
                    return p;
                }
            } else {
                deficitBytes[q] = 0; // inactive (empty, paused or strict) queues carry no deficit
            }
            drrCurrent = (q + 1) & (PRIORITIES - 1);
            drrTurnStarted = false;
        }
    }

    private Packet poll(final int q) {
        final Packet[] ring = rings[q];
        final int h = heads[q];
        final Packet p = ring[h];
        ring[h] = null;
        heads[q] = (h + 1) & (ring.length - 1);
        final int n = counts[q] - 1;
        counts[q] = n;
        depthBytes[q] -= p.frameBytes;
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
