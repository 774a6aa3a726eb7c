package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

/**
 * The virtual output queues of an input-and-output-queued switch
 * ({@link SwitchConfig.Queueing#INPUT_OUTPUT_QUEUED}, the RCM paper §4.1: "virtual input queues (VOQ) at
 * the input port and one output queue (OQ) at the output port"): one FIFO per (input port, output
 * port, priority), index {@code v = (in x ports + out) x 8 + priority}. Keeps per VOQ its packets
 * and bytes, per (input, priority) the bytes of all its VOQs, and per (output, priority) the number
 * of packets waiting in VOQs for it and a round-robin pointer over the inputs.
 *
 * <p>Rings start at 4 entries and double when full, so they allocate only until the run's peak
 * depth. Thread-safety: not thread-safe; simulation thread only.
 */
final class VoqBuffer {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    private static final int INITIAL_RING = 4;

    private final int ports;
    private final Packet[][] rings;
    private final int[] heads;
    private final int[] counts;
    private final long[] bytes;
    private final boolean[] headHeld;
    private final long[] inputBytes;      // [in * 8 + prio]
    private final int[] pendingPackets;   // [out * 8 + prio]
    private final int[] roundRobin;       // [out * 8 + prio]: next input to look at

    /**
     * @param ports number of switch ports, {@code >= 1}
     */
    VoqBuffer(final int ports) {
        this.ports = ports;
        final int n = ports * ports * PRIORITIES;
        this.rings = new Packet[n][];
        this.heads = new int[n];
        this.counts = new int[n];
        this.bytes = new long[n];
        this.headHeld = new boolean[n];
        this.inputBytes = new long[ports * PRIORITIES];
        this.pendingPackets = new int[ports * PRIORITIES];
        this.roundRobin = new int[ports * PRIORITIES];
    }

    /**
     * @param in       input port
     * @param out      output port
     * @param priority priority
     * @return the VOQ index
     */
    int index(final int in, final int out, final int priority) {
        return (in * ports + out) * PRIORITIES + priority;
    }

    /**
     * Appends a packet to a VOQ.
     *
     * @param in       input port
     * @param out      output port
     * @param priority priority
     * @param p        packet
     */
    void enqueue(final int in, final int out, final int priority, final Packet p) {
        final int v = index(in, out, priority);
        Packet[] ring = rings[v];
        if (ring == null) {
            ring = new Packet[INITIAL_RING];
            rings[v] = ring;
        }
        final int n = counts[v];
        if (n == ring.length) {
            final Packet[] bigger = new Packet[ring.length * 2];
            final int h = heads[v];
            for (int i = 0; i < n; i++) {
                bigger[i] = ring[(h + i) & (ring.length - 1)];
            }
            rings[v] = bigger;
            heads[v] = 0;
            ring = bigger;
        }
        ring[(heads[v] + n) & (ring.length - 1)] = p;
        counts[v] = n + 1;
        bytes[v] += p.frameBytes;
        inputBytes[in * PRIORITIES + priority] += p.frameBytes;
        pendingPackets[out * PRIORITIES + priority]++;
    }

    /**
     * @param v VOQ index
     * @return the head packet, or null if empty
     */
    Packet head(final int v) {
        return counts[v] == 0 ? null : rings[v][heads[v]];
    }

    /**
     * Removes the head packet of a non-empty VOQ.
     *
     * @param in       input port
     * @param out      output port
     * @param priority priority
     * @return the packet
     */
    Packet poll(final int in, final int out, final int priority) {
        final int v = index(in, out, priority);
        final Packet[] ring = rings[v];
        final int h = heads[v];
        final Packet p = ring[h];
        ring[h] = null;
        heads[v] = (h + 1) & (ring.length - 1);
        counts[v]--;
        bytes[v] -= p.frameBytes;
        headHeld[v] = false;
        inputBytes[in * PRIORITIES + priority] -= p.frameBytes;
        pendingPackets[out * PRIORITIES + priority]--;
        return p;
    }

    /**
     * @param v VOQ index
     * @return bytes queued
     */
    long bytes(final int v) {
        return bytes[v];
    }

    /**
     * @param in input port
     * @param priority priority
     * @return bytes in all VOQs of the input at the priority
     */
    long inputBytes(final int in, final int priority) {
        return inputBytes[in * PRIORITIES + priority];
    }

    /**
     * @param out output port
     * @param priority priority
     * @return packets waiting in VOQs for the output queue
     */
    int pendingPackets(final int out, final int priority) {
        return pendingPackets[out * PRIORITIES + priority];
    }

    /**
     * @param out output port
     * @param priority priority
     * @return the input the output's round robin looks at next
     */
    int roundRobin(final int out, final int priority) {
        return roundRobin[out * PRIORITIES + priority];
    }

    /**
     * @param out output port
     * @param priority priority
     * @param in the input to look at next
     */
    void setRoundRobin(final int out, final int priority, final int in) {
        roundRobin[out * PRIORITIES + priority] = in;
    }

    /**
     * @param v VOQ index
     * @return whether the head packet has been held back by RCC (bytes counted once)
     */
    boolean headHeld(final int v) {
        return headHeld[v];
    }

    /**
     * @param v VOQ index; marks the head packet as held back by RCC
     */
    void markHeadHeld(final int v) {
        headHeld[v] = true;
    }
}
