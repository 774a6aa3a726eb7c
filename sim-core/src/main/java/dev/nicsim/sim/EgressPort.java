package dev.nicsim.sim;

/**
 * The transmit side of a port and the link it drives: one frame at a time at the link rate
 * (serialisation including preamble and inter-frame gap), delivered to the peer after the
 * propagation delay. PFC pause frames received for this port stop the paused priorities after the
 * frame in progress, for the quanta they carry (IEEE 802.1Qbb); control frames (PFC) go out ahead
 * of queued data.
 *
 * <p>Subclasses (NIC port, switch port) hold the queues and pick the next data frame in
 * {@link #nextDataPacket()}, skipping priorities for which {@link #isPaused(int)} is true. Call
 * {@link #kick()} whenever a frame becomes eligible. An optional {@link PacketObserver}
 * ({@link #setPacketObserver}) sees every frame at the start of its serialisation (captures,
 * probes); none is set by default.
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
public abstract class EgressPort implements EventHandler {
    private static final int EV_TX_DONE = 1;
    private static final int EV_DELIVER = 2;
    private static final int EV_RESUME = 3;

    /** The simulator driving this port. */
    protected final Simulator sim;
    private final long rateBitsPerSec;
    private final long propagationPs;
    /** {@link RoceFraming#exactPsPerByte} of the rate, 0 if none. */
    private final long psPerByte;
    private NetDevice peer;
    private int peerPort;
    /**
     * Frames in flight on the link and their arrival times, a FIFO that starts at 4 and doubles
     * when full (a 1 us, 100 Gb/s link holds about 12 MTU frames): most ports of a large fabric
     * never carry a frame, and an active one grows to its peak in its first few frames.
     */
    private Packet[] wire = new Packet[4];
    private long[] wireArrivalPs = new long[4];
    private int wireHead;
    private int wireCount;
    private long busyUntilPs;
    private boolean txDonePending;
    private final long[] pausedUntilPs = new long[8];
    /** Latest of {@link #pausedUntilPs}: while now is at or after it no priority is paused (the common case). */
    private long lastPauseEndPs;
    /** Control frames waiting (PFC, CNP, ACK/NAK), a FIFO that starts at 4 and doubles when full. */
    private Packet[] control = new Packet[4];
    private int controlHead;
    private int controlCount;
    private long txFrames;
    private long txBytes;
    private final long[] pauseFramesReceived = new long[8];
    private final long[] pausedDurationPs = new long[8];
    private PacketObserver observer;
    /** False while the link is down (scenario {@code link_events}): no frame starts on it. */
    private boolean linkUp = true;
    /** Set when the link crosses partitions ({@link CutLink}): frames go to its outbox; null otherwise. */
    private CutLink cutLink;

    /**
     * Creates a port.
     *
     * @param sim            simulator
     * @param rateBitsPerSec link rate, bits/s, positive
     * @param propagationPs  one-way propagation delay, ps, non-negative
     * @throws IllegalArgumentException if the rate is not positive or the delay negative
     */
    protected EgressPort(final Simulator sim, final long rateBitsPerSec, final long propagationPs) {
        if (rateBitsPerSec <= 0) {
            throw new IllegalArgumentException("link rate must be > 0 bits/s, got " + rateBitsPerSec);
        }
        if (propagationPs < 0) {
            throw new IllegalArgumentException("propagation delay must be >= 0 ps, got " + propagationPs);
        }
        this.sim = sim;
        this.rateBitsPerSec = rateBitsPerSec;
        this.propagationPs = propagationPs;
        this.psPerByte = RoceFraming.exactPsPerByte(rateBitsPerSec);
    }

    /**
     * Connects the far end of the link.
     *
     * @param peer     device at the other end
     * @param peerPort the peer's port number the link arrives on
     */
    public void connect(final NetDevice peer, final int peerPort) {
        this.peer = peer;
        this.peerPort = peerPort;
    }

    /** @return device at the far end, or null if unconnected */
    public NetDevice peer() {
        return peer;
    }

    /** @return the peer's port number */
    public int peerPort() {
        return peerPort;
    }

    /** @return link rate, bits/s */
    public long rateBitsPerSec() {
        return rateBitsPerSec;
    }

    /** @return one-way propagation delay, ps */
    public long propagationPs() {
        return propagationPs;
    }

    /** @return whether a frame is being serialised */
    public boolean busy() {
        return sim.nowPs() < busyUntilPs;
    }

    /**
     * @param priority 0..7
     * @return whether the priority is paused by PFC now
     */
    public boolean isPaused(final int priority) {
        final long now = sim.nowPs();
        return lastPauseEndPs > now && pausedUntilPs[priority] > now;
    }

    /**
     * The priorities paused by PFC now, as a bitmask (bit p = priority p): {@link #isPaused(int)}
     * for all eight at once, one comparison when no pause is running.
     *
     * @return bitmask of paused priorities, 0 when none is paused
     */
    protected final int pausedMask() {
        final long now = sim.nowPs();
        if (lastPauseEndPs <= now) {
            return 0;
        }
        int mask = 0;
        for (int p = 0; p < 8; p++) {
            if (pausedUntilPs[p] > now) {
                mask |= 1 << p;
            }
        }
        return mask;
    }

    /**
     * Applies a received PFC frame to this port's transmitter: each enabled priority is paused for
     * its quanta (x 512 bit times at this link's rate) from now, or resumed when its quanta are 0.
     *
     * @param pfc the PFC frame (not released here)
     */
    public void applyPause(final Packet pfc) {
        final long now = sim.nowPs();
        long earliestResume = Long.MAX_VALUE;
        for (int p = 0; p < 8; p++) {
            if ((pfc.pfcClassEnable & (1 << p)) == 0) {
                continue;
            }
            pauseFramesReceived[p]++;
            final int quanta = pfc.pfcQuanta(p);
            final long before = Math.max(pausedUntilPs[p], now);
            if (quanta == 0) {
                pausedDurationPs[p] -= before - now; // an early resume gives back the rest of the pause
                pausedUntilPs[p] = now;
            } else {
                pausedUntilPs[p] = now + RoceFraming.pauseDurationPs(quanta, rateBitsPerSec);
                pausedDurationPs[p] += pausedUntilPs[p] - before;
                lastPauseEndPs = Math.max(lastPauseEndPs, pausedUntilPs[p]);
                earliestResume = Math.min(earliestResume, pausedUntilPs[p]);
            }
        }
        if (earliestResume != Long.MAX_VALUE) {
            sim.schedule(earliestResume, this, EV_RESUME, 0, null);
        }
        kick();
    }

    /**
     * Queues a control frame (PFC) to go out before any queued data frame.
     *
     * @param frame control frame; ownership passes to the port
     */
    public void sendControl(final Packet frame) {
        if (controlCount == control.length) {
            final Packet[] n = new Packet[control.length * 2];
            for (int i = 0; i < controlCount; i++) {
                n[i] = control[(controlHead + i) % control.length];
            }
            control = n;
            controlHead = 0;
        }
        control[(controlHead + controlCount) % control.length] = frame;
        controlCount++;
        kick();
    }

    /**
     * Starts transmitting if the link is idle and a frame is eligible. While a frame is on the
     * wire, makes sure the port looks again when it ends.
     *
     * <p>The end of a frame is an event only when something may be eligible then
     * ({@link #needsEndOfFrameEvent}); an idle port costs the kernel one event per frame (its
     * delivery).
     */
    public final void kick() {
        if (peer == null || !linkUp) {
            return;
        }
        final long now = sim.nowPs();
        if (now < busyUntilPs) {
            if (!txDonePending && (controlCount > 0 || needsEndOfFrameEvent(busyUntilPs))) {
                txDonePending = true;
                sim.schedule(busyUntilPs, this, EV_TX_DONE, 0, null);
            }
            return;
        }
        final Packet p;
        if (controlCount > 0) {
            p = control[controlHead];
            control[controlHead] = null;
            controlHead = (controlHead + 1) % control.length;
            controlCount--;
        } else {
            p = nextDataPacket();
            if (p == null) {
                return;
            }
        }
        final long ser = RoceFraming.serializationPs(p.frameBytes, rateBitsPerSec, psPerByte);
        busyUntilPs = now + ser;
        txFrames++;
        txBytes += p.frameBytes;
        onTransmitStart(p);
        if (observer != null) {
            observer.onTransmit(this, p, now);
        }
        putOnWire(p, busyUntilPs + propagationPs);
        if (!txDonePending && (controlCount > 0 || needsEndOfFrameEvent(busyUntilPs))) {
            txDonePending = true;
            sim.schedule(busyUntilPs, this, EV_TX_DONE, 0, null);
        }
    }

    /**
     * Frames on the wire arrive in the order they were sent (one propagation delay per link), so the
     * link keeps them in a FIFO and only its head has a delivery event in the kernel: the kernel's
     * queue holds one event per busy link instead of one per frame in flight.
     */
    private void putOnWire(final Packet p, final long arrivalPs) {
        if (cutLink != null) {
            cutLink.offer(p, arrivalPs, sim.nowPs()); // the peer is in another partition: delivered through the cut link
            return;
        }
        if (wireCount == wire.length) {
            final int n = wire.length * 2;
            final Packet[] w = new Packet[n];
            final long[] a = new long[n];
            for (int i = 0; i < wireCount; i++) {
                w[i] = wire[(wireHead + i) & (wire.length - 1)];
                a[i] = wireArrivalPs[(wireHead + i) & (wire.length - 1)];
            }
            wire = w;
            wireArrivalPs = a;
            wireHead = 0;
        }
        final int tail = (wireHead + wireCount) & (wire.length - 1);
        wire[tail] = p;
        wireArrivalPs[tail] = arrivalPs;
        if (wireCount++ == 0) {
            sim.schedule(arrivalPs, this, EV_DELIVER, 0, p); // the frame as ref: the kernel's look-ahead reads it
        }
    }

    /**
     * Takes the link down or brings it back up (a scenario's {@code link_events}, docs/scenarios.md).
     * While down no frame starts: control and data frames wait in their queues (and PFC, ECN and
     * tail drop act on them as on any queue), a frame already being serialised finishes, and frames
     * already on the wire still arrive. Bringing the link up starts the next eligible frame at once.
     * Call it on both ends of a link; each end is one direction.
     *
     * @param up true to bring the link up, false to take it down
     */
    public void setLinkUp(final boolean up) {
        if (linkUp == up) {
            return;
        }
        linkUp = up;
        if (up) {
            kick();
        }
    }

    /** @return frames on the wire (sent, not yet delivered), on a cut link too */
    public int framesInFlight() {
        return cutLink != null ? cutLink.framesInFlight() : wireCount;
    }

    /**
     * Routes this port's frames through a cut link ({@link CutLink}'s constructor calls it): the
     * port keeps serialisation, busy time, PFC and counters, and hands each frame with its arrival
     * time to the link instead of scheduling the delivery on its own simulator.
     *
     * @param link the cut link
     * @throws IllegalStateException if a frame is on the wire or the port is already cut
     */
    void cutAt(final CutLink link) {
        if (cutLink != null || wireCount > 0) {
            throw new IllegalStateException("port to " + (peer == null ? "nothing" : peer.name())
                + " is already cut or has frames on the wire");
        }
        cutLink = link;
    }

    /** @return whether this port's link crosses partitions ({@link CutLink}) */
    public boolean isCut() {
        return cutLink != null;
    }

    /**
     * Asked when a frame has just started, or the port is kicked while a frame is on the wire with
     * no end-of-frame event pending, and no control frame is queued: whether the port must look
     * for its next frame when this one ends, at {@code frameEndPs} (an end-of-frame event then).
     * True when in doubt (the default).
     *
     * <p>Returning false is a promise: whatever later makes a frame eligible kicks the port
     * ({@link #kick()}) at that time, either the change itself (an enqueue, a PFC resume, a window
     * opening) or a wake-up event the subclass has scheduled for a frame that becomes eligible at a
     * known time (a pacer). A kick while the frame is still on the wire asks again, so nothing
     * waits longer than it would with the event. Ports return false when
     * every queue is empty; a NIC port also when its only candidates are paced to start after
     * {@code frameEndPs} (it schedules their wake-up instead: one event where an end-of-frame
     * event that found nothing and the wake-up it scheduled were two).
     *
     * @param frameEndPs end of the frame's serialisation, ps (after now)
     * @return true to schedule the end-of-frame event
     */
    protected boolean needsEndOfFrameEvent(final long frameEndPs) {
        return true;
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        switch (kind) {
            case EV_TX_DONE -> {
                txDonePending = false;
                kick();
            }
            case EV_DELIVER -> {
                final Packet p = wire[wireHead];
                wire[wireHead] = null;
                wireHead = (wireHead + 1) & (wire.length - 1);
                wireCount--;
                if (wireCount > 0) {
                    sim.schedule(wireArrivalPs[wireHead], this, EV_DELIVER, 0, wire[wireHead]);
                }
                peer.receive(p, peerPort);
            }
            case EV_RESUME -> kick();
            default -> throw new IllegalStateException("unknown port event " + kind);
        }
    }

    /**
     * Picks the next data frame to send, honouring {@link #isPaused(int)}; removes it from its
     * queue.
     *
     * @return the frame, or null if nothing is eligible now
     */
    protected abstract Packet nextDataPacket();

    /**
     * Look-ahead for the kernel ({@link Simulator}): touches what the peer will
     * read when {@code frame}, the next frame this link delivers, arrives ({@link NetDevice#touch}).
     * Reads only.
     *
     * @param frame the frame at the head of this link's wire FIFO
     * @return a value of the touched state, meaningless except that it depends on the loads
     */
    final int touchPeer(final Packet frame) {
        final NetDevice d = peer;
        return wireHead + (d == null ? 0 : d.touch(frame, peerPort));
    }

    /**
     * Look-ahead for the kernel ({@link Simulator}): this port's end of serialisation or pause end
     * is a few events away; touches what {@link #kick} will read to pick the next frame (the
     * control queue's head and {@link #touchQueuedFrames}). Reads only.
     *
     * @return a value of the touched state, meaningless except that it depends on the loads
     */
    final int touchNextFrame() {
        final Packet c = controlCount > 0 ? control[controlHead] : null;
        return (c == null ? 0 : c.frameBytes) + touchQueuedFrames();
    }

    /**
     * Look-ahead hint: reads the frames {@link #nextDataPacket} may return next (the heads of the
     * non-empty queues). Must not change any state. The default touches nothing.
     *
     * @return a value of the touched state
     */
    protected int touchQueuedFrames() {
        return 0;
    }

    /**
     * Hook called when a frame starts serialisation (for counters and tracing). Default: nothing.
     *
     * @param frame the frame
     */
    protected void onTransmitStart(final Packet frame) {
    }

    /**
     * Sets (or clears) the observer told of every frame this port starts transmitting, after
     * {@link #onTransmitStart}; see {@link PacketObserver} for what it may do. With none set the
     * transmit path costs one null check.
     *
     * @param packetObserver the observer, or null for none (the default)
     */
    public void setPacketObserver(final PacketObserver packetObserver) {
        this.observer = packetObserver;
    }

    /** @return the packet observer, or null if none is set */
    public PacketObserver packetObserver() {
        return observer;
    }

    /** @return frames transmitted */
    public long txFrames() {
        return txFrames;
    }

    /** @return frame bytes transmitted (without preamble/IFG) */
    public long txBytes() {
        return txBytes;
    }

    /**
     * Time this priority has been (or, for a pause still running, is scheduled to be) paused by
     * PFC, as mlx5's {@code rx_prio<p>_pause_duration} counts it: the union of pause intervals,
     * shortened by early resumes.
     *
     * @param priority 0..7
     * @return paused time, ps
     */
    public long pausedDurationPs(final int priority) {
        return pausedDurationPs[priority];
    }

    /**
     * @param priority 0..7
     * @return PFC frames received that paused or resumed this priority
     */
    public long pauseFramesReceived(final int priority) {
        return pauseFramesReceived[priority];
    }
}
