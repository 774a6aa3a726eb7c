package dev.nicsim.sim;

import java.util.Arrays;

/**
 * One direction of a link whose two ends are in different partitions of a partitioned run
 * ({@link PartitionedRun}): the sending {@link EgressPort} keeps its serialisation, busy time,
 * PFC and counters, but instead of scheduling the frame's delivery on its own {@link Simulator} it
 * puts the frame into this link's outbox ({@link #offer}). At the barrier after each window the
 * coordinator hands the outbox over to the receiving side ({@link #handOver}): a FIFO of frames in
 * send order, of which only the head has a delivery event on the receiving partition's simulator,
 * as {@link EgressPort} does for a local link. The delivery calls
 * {@code peer.receive(frame, peerPort)} at the frame's arrival time (end of serialisation plus
 * propagation delay), exactly as a local link would.
 *
 * <p>A frame sent at {@code t} arrives at {@code t + serialisation + propagation > t + L}, where L
 * (the run's look-ahead) is at most this link's propagation delay, so a frame sent inside a window
 * ending at E arrives after E and is handed over before it is due.
 *
 * <p>Thread-safety: the outbox is written only by the sending partition's thread during a window,
 * the FIFO read only by the receiving partition's thread; {@link #handOver} runs on the
 * coordinator while no partition runs (the barrier orders the memory accesses). Allocation-free
 * once the arrays have grown to the link's peak number of frames in flight (they double).
 */
public final class CutLink implements EventHandler {
    private final Simulator receiverSim;
    private final NetDevice peer;
    private final int peerPort;
    private final int index;
    private Packet[] outbox = new Packet[64];
    private long[] outboxArrivalPs = new long[64];
    private int outboxCount;
    private Packet[] fifo = new Packet[64];
    private long[] fifoArrivalPs = new long[64];
    private int fifoHead;
    private int fifoCount;
    private long framesHandedOver;

    /**
     * Cuts a connected port's link: from now on the port's frames go through this link.
     *
     * @param sender      the sending port, already connected ({@link EgressPort#connect}); its peer
     *                    is the receiving device
     * @param receiverSim the simulator of the partition the peer device belongs to
     * @param index       the link's index in the run's hand-over order (link index, then direction)
     * @throws IllegalArgumentException if the port is not connected or its propagation delay is 0
     */
    public CutLink(final EgressPort sender, final Simulator receiverSim, final int index) {
        if (sender.peer() == null) {
            throw new IllegalArgumentException("cut link " + index + ": the sending port is not connected");
        }
        if (sender.propagationPs() <= 0) {
            throw new IllegalArgumentException("cut link " + index + " to " + sender.peer().name()
                + " has a propagation delay of 0 ps; a partitioned run needs a positive delay on every cut link");
        }
        this.receiverSim = receiverSim;
        this.peer = sender.peer();
        this.peerPort = sender.peerPort();
        this.index = index;
        sender.cutAt(this);
    }

    /** @return the link's index in the hand-over order */
    public int index() {
        return index;
    }

    /** @return frames handed over to the receiving partition so far */
    public long framesHandedOver() {
        return framesHandedOver;
    }

    /** @return frames sent and not yet delivered (in the outbox or the receiving FIFO) */
    public int framesInFlight() {
        return outboxCount + fifoCount;
    }

    /**
     * Called by the sending port (sending partition's thread): a frame was put on the link.
     *
     * @param p         the frame; ownership passes to the link
     * @param arrivalPs its arrival time at the peer, ps (non-decreasing over calls)
     */
    void offer(final Packet p, final long arrivalPs) {
        if (outboxCount == outbox.length) {
            outbox = Arrays.copyOf(outbox, outbox.length * 2);
            outboxArrivalPs = Arrays.copyOf(outboxArrivalPs, outboxArrivalPs.length * 2);
        }
        outbox[outboxCount] = p;
        outboxArrivalPs[outboxCount] = arrivalPs;
        outboxCount++;
    }

    /**
     * Barrier step (coordinator, no partition running): moves the outbox's frames, in send order,
     * to the receiving FIFO, scheduling the head's delivery on the receiving simulator if the FIFO
     * was empty.
     *
     * @throws IllegalArgumentException from {@link Simulator#schedule} if a frame's arrival is before
     *                                  the receiving partition's now (the window exceeded the
     *                                  look-ahead: a bug, never expected)
     */
    public void handOver() {
        final int n = outboxCount;
        if (n == 0) {
            return;
        }
        final boolean wasEmpty = fifoCount == 0;
        for (int i = 0; i < n; i++) {
            push(outbox[i], outboxArrivalPs[i]);
            outbox[i] = null;
        }
        outboxCount = 0;
        framesHandedOver += n;
        if (wasEmpty) {
            receiverSim.schedule(fifoArrivalPs[fifoHead], this, 0, 0, fifo[fifoHead]);
        }
    }

    private void push(final Packet p, final long arrivalPs) {
        if (fifoCount == fifo.length) {
            final int n = fifo.length * 2;
            final Packet[] f = new Packet[n];
            final long[] a = new long[n];
            for (int i = 0; i < fifoCount; i++) {
                f[i] = fifo[(fifoHead + i) & (fifo.length - 1)];
                a[i] = fifoArrivalPs[(fifoHead + i) & (fifo.length - 1)];
            }
            fifo = f;
            fifoArrivalPs = a;
            fifoHead = 0;
        }
        final int tail = (fifoHead + fifoCount) & (fifo.length - 1);
        fifo[tail] = p;
        fifoArrivalPs[tail] = arrivalPs;
        fifoCount++;
    }

    /**
     * Delivers the FIFO's head to the peer (receiving partition's thread) and schedules the next
     * frame's delivery.
     *
     * @param kind unused
     * @param arg  unused
     * @param ref  the frame (also the FIFO's head)
     */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        final Packet p = fifo[fifoHead];
        fifo[fifoHead] = null;
        fifoHead = (fifoHead + 1) & (fifo.length - 1);
        fifoCount--;
        if (fifoCount > 0) {
            receiverSim.schedule(fifoArrivalPs[fifoHead], this, 0, 0, fifo[fifoHead]);
        }
        peer.receive(p, peerPort);
    }
}
