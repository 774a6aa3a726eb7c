package dev.nicsim.sim;

import java.util.Arrays;

/**
 * One direction of a link whose two ends are in different partitions of a partitioned run
 * ({@link PartitionedRun}): the sending {@link EgressPort} keeps its serialisation, busy time,
 * PFC and counters, but instead of scheduling the frame's delivery on its own {@link Simulator} it
 * puts the frame into this link's outbox ({@link #offer}). The receiving partition takes over the
 * frames of a window at the start of its run in the next window ({@link #drain}): a FIFO of frames
 * in send order, of which only the head has a delivery event on the receiving partition's
 * simulator, as {@link EgressPort} does for a local link. The delivery calls
 * {@code peer.receive(frame, peerPort)} at the frame's arrival time (end of serialisation plus
 * propagation delay), exactly as a local link would.
 *
 * <p>A frame sent at {@code t} arrives at {@code t + serialisation + propagation > t + L}, where L
 * (the run's look-ahead) is at most this link's propagation delay, so a frame sent inside a window
 * ending at E arrives after E and is taken over before it is due.
 *
 * <h2>Two outboxes</h2>
 * The outbox is double-buffered, so that the sender can fill one while the receiver empties the
 * other in the same window: in window k the sending partition writes outbox {@code k mod 2} and
 * the receiving partition drains outbox {@code (k - 1) mod 2} (the frames of window k - 1) before
 * its own events. At the barrier the coordinator only flips the two ({@link #flip}), which also
 * tells it the earliest arrival waiting, for the next window's start. The FIFO and the delivery
 * event are written on the receiving partition's core, in parallel with the other partitions,
 * instead of on the coordinator's while every other thread waits.
 *
 * <h2>Order among the events of the same time</h2>
 * On one simulator a link's delivery is scheduled either by the sending port when the frame goes
 * on an empty wire (scheduled at the send time), or by the delivery of the frame before it (at
 * that delivery's time, before the frame is passed to the peer). The receiving partition gives
 * each delivery the same place among the events of its time ({@link Simulator#scheduleAs}): a
 * delivery that leaves the FIFO empty reserves the sequence number it would have used for the
 * next one; when a window's first frame is taken over into an empty FIFO, it is scheduled with
 * that delivery's time and reserved number if it was sent before that delivery, else with its
 * send time and a fresh number. Deliveries scheduled by the delivery before them are scheduled
 * then, as on one simulator. What stays undecided is a tie of two scheduling events in different
 * partitions at the same picosecond (a send and another partition's event of that time both
 * scheduling events of one time at the receiver): the frame then runs after the receiver's
 * events scheduled at that picosecond.
 *
 * <p>Thread-safety: outbox {@code w} (the write side of the current window, {@link #flip}'s) is
 * written only by the sending partition's thread, the other outbox read and cleared and the FIFO
 * used only by the receiving partition's thread; {@link #flip} runs on the coordinator while no
 * partition runs (the barrier and the window's publication order the memory accesses).
 * Allocation-free once the arrays have grown to the link's peak number of frames in flight (they
 * double).
 */
public final class CutLink implements EventHandler {
    private final Simulator receiverSim;
    private final NetDevice peer;
    private final int peerPort;
    private final int index;
    private final Outbox[] outboxes = {new Outbox(), new Outbox()};
    /** The outbox the sender fills in the current window; written by {@link #flip} only. */
    private Outbox filling = outboxes[0];
    /** The outbox the receiver drains in the current window (the previous window's); written by {@link #flip} only. */
    private Outbox draining = outboxes[1];
    /** The receiving side's state, written only by the receiving partition's thread. */
    private final Fifo rx = new Fifo();

    /**
     * One outbox: frames in send order and their arrival times, ps. Padded so that the count the
     * sender writes and the count the receiver clears are never on one cache line.
     */
    @SuppressWarnings("unused")
    private static final class Outbox {
        Packet[] frames = new Packet[64];
        long[] arrivalPs = new long[64];
        /** The sending port's time when each frame went on the link, ps. */
        long[] sentPs = new long[64];
        int count;
        private long pad0, pad1, pad2, pad3, pad4, pad5, pad6;
    }

    /** The receiving FIFO: frames in arrival order, only the head with a delivery event. */
    private static final class Fifo {
        Packet[] frames = new Packet[64];
        long[] arrivalPs = new long[64];
        int head;
        int count;
        long framesHandedOver;
        /** Time of the last delivery that left the FIFO empty, ps, or -1 before the first. */
        long emptiedAtPs = -1;
        /** The sequence number reserved by that delivery for the next frame's delivery event. */
        long emptiedSeq;
    }

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
        return rx.framesHandedOver;
    }

    /**
     * @return frames sent and not yet delivered (in an outbox or the receiving FIFO); exact between
     *         windows, approximate while they run
     */
    public int framesInFlight() {
        return outboxes[0].count + outboxes[1].count + rx.count;
    }

    /**
     * Called by the sending port (sending partition's thread): a frame was put on the link.
     *
     * @param p         the frame; ownership passes to the link
     * @param arrivalPs its arrival time at the peer, ps (non-decreasing over calls)
     * @param sentPs    the sending port's now, ps
     */
    void offer(final Packet p, final long arrivalPs, final long sentPs) {
        final Outbox o = filling;
        final int n = o.count;
        if (n == o.frames.length) {
            o.frames = Arrays.copyOf(o.frames, n * 2);
            o.arrivalPs = Arrays.copyOf(o.arrivalPs, n * 2);
            o.sentPs = Arrays.copyOf(o.sentPs, n * 2);
        }
        o.frames[n] = p;
        o.arrivalPs[n] = arrivalPs;
        o.sentPs[n] = sentPs;
        o.count = n + 1;
    }

    /**
     * Barrier step (coordinator, no partition running): the outbox filled in the window just ended
     * becomes the one the receiving partition drains at the start of the next window, and the
     * drained one is filled next.
     *
     * @return the earliest arrival among the frames to be drained, ps, or {@link Long#MAX_VALUE} if none
     * @throws IllegalStateException if the receiving partition left frames of the previous window
     *                               undrained (a partition that did not run its window: a bug)
     */
    public long flip() {
        final Outbox drained = draining;
        if (drained.count != 0) {
            throw new IllegalStateException("cut link " + index + ": " + drained.count + " frames of the previous"
                + " window were not taken over by the receiving partition");
        }
        draining = filling;
        filling = drained;
        return draining.count == 0 ? Long.MAX_VALUE : draining.arrivalPs[0];
    }

    /**
     * The receiving partition's thread, at the start of its run in a window, before its events:
     * moves the frames of the previous window, in send order, to the receiving FIFO, scheduling
     * the head's delivery on the receiving simulator if the FIFO was empty.
     *
     * @throws IllegalArgumentException from {@link Simulator#schedule} if a frame's arrival is before
     *                                  the receiving partition's now (the window exceeded the
     *                                  look-ahead: a bug, never expected)
     */
    public void drain() {
        final Outbox o = draining;
        final int n = o.count;
        if (n == 0) {
            return;
        }
        final Fifo f = rx;
        final boolean wasEmpty = f.count == 0;
        final Packet[] frames = o.frames;
        final long[] arrivals = o.arrivalPs;
        for (int i = 0; i < n; i++) {
            push(f, frames[i], arrivals[i]);
            frames[i] = null;
        }
        o.count = 0;
        f.framesHandedOver += n;
        if (wasEmpty) {
            final long sentPs = o.sentPs[0];
            if (sentPs < f.emptiedAtPs) {
                // on one simulator the frame was on the wire when the last delivery ran: that delivery scheduled it
                receiverSim.scheduleAs(f.arrivalPs[f.head], f.emptiedAtPs, f.emptiedSeq, this, 0, 0, f.frames[f.head]);
            } else {
                // on one simulator the wire was empty when it was sent: the sending port scheduled it then
                receiverSim.scheduleAs(f.arrivalPs[f.head], sentPs, receiverSim.reserveSequence(), this, 0, 0,
                    f.frames[f.head]);
            }
        }
    }

    /** @return the simulator of the receiving partition */
    Simulator receiverSim() {
        return receiverSim;
    }

    private static void push(final Fifo f, final Packet p, final long arrivalPs) {
        if (f.count == f.frames.length) {
            final int n = f.frames.length * 2;
            final Packet[] frames = new Packet[n];
            final long[] a = new long[n];
            for (int i = 0; i < f.count; i++) {
                frames[i] = f.frames[(f.head + i) & (f.frames.length - 1)];
                a[i] = f.arrivalPs[(f.head + i) & (f.frames.length - 1)];
            }
            f.frames = frames;
            f.arrivalPs = a;
            f.head = 0;
        }
        final int tail = (f.head + f.count) & (f.frames.length - 1);
        f.frames[tail] = p;
        f.arrivalPs[tail] = arrivalPs;
        f.count++;
    }

    /**
     * The head frame's delivery (receiving partition): schedules the next frame's, then calls
     * {@code peer.receive}.
     */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        final Fifo f = rx;
        final Packet p = f.frames[f.head];
        f.frames[f.head] = null;
        f.head = (f.head + 1) & (f.frames.length - 1);
        f.count--;
        if (f.count > 0) {
            receiverSim.schedule(f.arrivalPs[f.head], this, 0, 0, f.frames[f.head]);
        } else {
            f.emptiedAtPs = receiverSim.nowPs();
            f.emptiedSeq = receiverSim.reserveSequence();
        }
        peer.receive(p, peerPort);
    }
}
