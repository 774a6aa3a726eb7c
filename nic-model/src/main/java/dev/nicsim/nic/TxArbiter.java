package dev.nicsim.nic;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

/**
 * The transmit arbiter of a NIC's one port: decides which frame goes next when the port asks
 * ({@link NicPort#nextDataPacket()}).
 *
 * <ol>
 * <li>PFC frames go first (handled by {@link EgressPort} before it asks here).</li>
 * <li>Control frames (ACK/NAK, CNP, RTT probe and response) in FIFO order, skipping frames whose
 *     priority is paused by received PFC (IEEE 802.1Qbb); a per-priority count answers "nothing
 *     sendable" without a scan when all queued control frames are paused.</li>
 * <li>Data: the QPs with something to send (data packets, READ requests, READ responses) in a
 *     circular round-robin list; the next one that is eligible now (flow's first CC result in,
 *     window open, pacer time reached, data priority not paused) builds one frame and the cursor
 *     moves past it. When QPs wait only for their pacer, one wake-up is scheduled at the earliest
 *     pacer time.</li>
 * </ol>
 * Data frames are built by their owner: the {@link RequesterTransport} (WRITE/SEND data, READ
 * requests, then the {@link ReactionPoint}'s pacer) or the {@link Responder} (READ responses, at
 * line rate, not paced). When a frame starts serialisation ({@link #onTransmitStart}) the arbiter
 * writes transmit timestamps (ns, 32 bits), counts {@code tx_bytes} and lets the reaction point
 * emit its TX_BURST event.
 *
 * <p>Times are ps of simulated time. Frames come from the shared {@link PacketPool}; the control
 * FIFO grows by doubling beyond its peak, nothing else allocates.
 *
 * <p>Thread-safety: not thread-safe; owned by its NIC on the simulation thread.
 */
final class TxArbiter {
    private static final long NEVER = Long.MAX_VALUE;

    private final Simulator sim;
    private final PacketPool pool;
    private final EventHandler handler;
    private final int hostId;
    private final int dataDscp;
    private final int dataPriority;
    private final int ecnCodepoint;
    /** {@link NicCounters#cells}: the NIC's counters ({@code tx_bytes}), updated in place. */
    private final long[] cells;

    private NicPort port;
    private RequesterTransport requester;
    private Responder responder;
    private ReactionPoint rp;

    // circular doubly-linked round-robin list of QPs with something to send
    private Qp cursor;
    private int activeCount;

    // FIFO of ACK/NAK/CNP/RTT frames (capacity a power of two; starts small, as most NICs of a large
    // fabric queue a frame or two at most, and doubles when full, keeping the order)
    private Packet[] control = new Packet[8];
    private int controlHead;
    private int controlCount;
    /** Control frames queued per priority (to skip a scan when all of them are paused). */
    private final int[] controlPerPriority = new int[8];

    private boolean selecting;
    private Qp selectedQp;
    private long wakeupAtPs = NEVER;

    /**
     * Creates the arbiter; {@link #attach} and {@link #connect} complete it.
     *
     * @param sim      simulator
     * @param pool     packet pool
     * @param handler  the NIC's event handler (pacer wake-ups, {@link RoceNic#EV_WAKEUP})
     * @param hostId   this host's id (source of every frame)
     * @param config   validated configuration (data DSCP, priority, ECN codepoint)
     * @param counters the NIC's counters
     */
    TxArbiter(final Simulator sim, final PacketPool pool, final EventHandler handler, final int hostId,
              final NicConfig config, final NicCounters counters) {
        this.sim = sim;
        this.pool = pool;
        this.handler = handler;
        this.hostId = hostId;
        this.dataDscp = config.dataDscp;
        this.dataPriority = config.dataPriority;
        this.ecnCodepoint = config.ecnCodepoint;
        this.cells = counters.cells;
    }

    /**
     * Sets the parts that build data frames (they depend on the arbiter, so they are made after it).
     *
     * @param requester builds WRITE/SEND data packets and READ requests
     * @param responder builds READ responses
     * @param rp        window check, pacer and TX_BURST
     */
    void attach(final RequesterTransport requester, final Responder responder, final ReactionPoint rp) {
        this.requester = requester;
        this.responder = responder;
        this.rp = rp;
    }

    /** @param port the NIC's port, once connected */
    void connect(final NicPort port) {
        this.port = port;
    }

    // ------------------------------------------------------------------------------------------
    // control frames

    /**
     * A pooled frame from this host with the header fields every control frame sets.
     *
     * @param kind       {@link Packet} kind (ACK, CNP, RTT probe or response)
     * @param opcode     BTH opcode ({@link RoceOpcodes})
     * @param dstHost    destination host id
     * @param srcQpn     source QPN, 24 bits
     * @param dstQpn     destination QPN, 24 bits
     * @param dscp       DSCP, 0..63
     * @param priority   802.1p priority, 0..7
     * @param ecn        ECN codepoint, 0..3
     * @param frameBytes frame bytes on the wire
     * @param udpSrcPort UDP source port (flow entropy)
     * @param flowId     simulation flow id
     * @return the frame; the caller sets the kind-specific fields and {@link #enqueueControl}s it
     */
    Packet controlFrame(final int kind, final int opcode, final int dstHost, final int srcQpn, final int dstQpn,
                        final int dscp, final int priority, final int ecn, final int frameBytes,
                        final int udpSrcPort, final int flowId) {
        final Packet f = pool.acquire();
        f.kind = kind;
        f.opcode = opcode;
        f.srcHost = hostId;
        f.dstHost = dstHost;
        f.srcQpn = srcQpn;
        f.dstQpn = dstQpn;
        f.dscp = dscp;
        f.priority = priority;
        f.ecn = ecn;
        f.frameBytes = frameBytes;
        f.udpSrcPort = udpSrcPort;
        f.flowId = flowId;
        return f;
    }

    /**
     * Queues a control frame behind the others and kicks the port.
     *
     * @param p the frame, from {@link #controlFrame}
     */
    void enqueueControl(final Packet p) {
        if (controlCount == control.length) {
            final Packet[] n = new Packet[control.length * 2];
            for (int i = 0; i < controlCount; i++) {
                n[i] = control[(controlHead + i) & (control.length - 1)];
            }
            control = n;
            controlHead = 0;
        }
        control[(controlHead + controlCount) & (control.length - 1)] = p;
        controlCount++;
        controlPerPriority[p.priority & 7]++;
        kickPort();
    }

    private Packet pollControl() {
        // under PFC, ACKs of a paused priority pile up: answer "nothing to send" without a scan
        boolean sendable = false;
        for (int prio = 0; prio < 8 && !sendable; prio++) {
            sendable = controlPerPriority[prio] > 0 && !port.isPaused(prio);
        }
        if (!sendable) {
            return null;
        }
        final int m = control.length - 1;
        for (int i = 0; i < controlCount; i++) {
            final int idx = (controlHead + i) & m;
            final Packet p = control[idx];
            if (port.isPaused(p.priority)) {
                continue;
            }
            if (i == 0) {
                control[idx] = null;
                controlHead = (controlHead + 1) & m;
            } else {
                for (int j = i; j < controlCount - 1; j++) {
                    control[(controlHead + j) & m] = control[(controlHead + j + 1) & m];
                }
                control[(controlHead + controlCount - 1) & m] = null;
            }
            controlCount--;
            controlPerPriority[p.priority & 7]--;
            return p;
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------
    // round-robin list of QPs with something to send

    /** @param q a QP that has (or may have) something to send; no-op if listed */
    void addActive(final Qp q) {
        if (q.inActiveList) {
            return;
        }
        if (cursor == null) {
            q.nextActive = q;
            q.prevActive = q;
            cursor = q;
        } else {
            final Qp tail = cursor.prevActive; // insert at the end of the round-robin order
            tail.nextActive = q;
            q.prevActive = tail;
            q.nextActive = cursor;
            cursor.prevActive = q;
        }
        q.inActiveList = true;
        activeCount++;
    }

    /** @param q a QP to take off the list; no-op if not listed */
    void removeActive(final Qp q) {
        if (!q.inActiveList) {
            return;
        }
        if (q.nextActive == q) {
            cursor = null;
        } else {
            q.prevActive.nextActive = q.nextActive;
            q.nextActive.prevActive = q.prevActive;
            if (cursor == q) {
                cursor = q.nextActive;
            }
        }
        q.nextActive = null;
        q.prevActive = null;
        q.inActiveList = false;
        activeCount--;
    }

    // ------------------------------------------------------------------------------------------
    // port side

    /** Asks the port to pull frames, unless the port is pulling right now. */
    void kickPort() {
        if (port != null && !selecting) {
            port.kick();
        }
    }

    private void scheduleWakeup(final long atPs) {
        if (atPs < wakeupAtPs) {
            wakeupAtPs = atPs;
            sim.schedule(atPs, handler, RoceNic.EV_WAKEUP, 0, null);
        }
    }

    /** The pacer wake-up ({@link RoceNic#EV_WAKEUP}) is due. */
    void onWakeupEvent() {
        if (sim.nowPs() >= wakeupAtPs) {
            wakeupAtPs = NEVER;
        }
        kickPort();
    }

    /**
     * Whether the port must look for a frame when the one just started ends at {@code frameEndPs}
     * ({@link NicPort#needsEndOfFrameEvent}); when not, schedules the pacer wake-up that would
     * otherwise have been scheduled by the look at {@code frameEndPs} finding nothing eligible.
     *
     * <p>True when a control frame is queued, when the data priority is paused now (the look at
     * the end then finds it as before), when a listed QP has nothing left to send (the look at the
     * end takes it off the round-robin list, which keeps its place in the order: that look stays),
     * and when a QP whose first result is in and whose window is open may send by
     * {@code frameEndPs}. Otherwise no frame can become eligible by {@code frameEndPs} without a
     * kick: results (rate, window, first result) and ACKs kick the port when they arrive, new
     * work and control frames are kicked in, and a PFC pause only removes candidates. Then only a
     * pacer time can make a frame eligible: the wake-up goes to the earliest pacer time of the QPs
     * with an open window (none if there is none: an ACK or result will kick). Reads the QP list
     * once, as {@link #nextFrame} would; allocates nothing.
     *
     * @param frameEndPs end of the frame now starting, ps
     * @return true if the port needs its end-of-frame event
     */
    boolean needsLookAt(final long frameEndPs) {
        if (controlCount > 0) {
            return true;
        }
        if (activeCount == 0) {
            return false;
        }
        if (port.isPaused(dataPriority)) {
            return true;
        }
        long earliest = NEVER;
        Qp q = cursor;
        for (int i = 0; i < activeCount; i++) {
            if (!hasWork(q)) {
                return true;
            }
            if (!q.awaitingInit && ReactionPoint.windowOpen(q)) {
                if (q.nextSendPs <= frameEndPs) {
                    return true;
                }
                earliest = Math.min(earliest, q.nextSendPs);
            }
            q = q.nextActive;
        }
        if (earliest != NEVER) {
            scheduleWakeup(earliest);
        }
        return false;
    }

    /**
     * Picks the next frame for the port (called by {@link NicPort#nextDataPacket()}): a queued
     * ACK/NAK/CNP/RTT frame whose priority is not paused, else a data packet (or READ request) of
     * the next eligible QP in round-robin order; schedules a pacer wake-up when QPs wait only for
     * their pacer.
     *
     * @return the frame, or null if none is eligible now
     */
    Packet nextFrame() {
        selecting = true;
        selectedQp = null;
        try {
            final Packet c = pollControl();
            if (c != null) {
                return c;
            }
            if (activeCount == 0 || port.isPaused(dataPriority)) {
                return null; // a PFC resume kicks the port again
            }
            final long now = sim.nowPs();
            long earliest = NEVER;
            Qp q = cursor;
            final int n = activeCount;
            for (int i = 0; i < n && q != null; i++) {
                final Qp next = q.nextActive;
                if (!hasWork(q)) {
                    removeActive(q);
                    q = activeCount == 0 ? null : next;
                    continue;
                }
                if (q.awaitingInit || !ReactionPoint.windowOpen(q)) {
                    q = next;
                    continue;
                }
                if (q.nextSendPs > now) {
                    earliest = Math.min(earliest, q.nextSendPs);
                    q = next;
                    continue;
                }
                cursor = next;
                final Packet p = buildFrame(q, now);
                if (!hasWork(q)) {
                    removeActive(q);
                }
                return p;
            }
            if (earliest != NEVER) {
                scheduleWakeup(earliest);
            }
            return null;
        } finally {
            selecting = false;
        }
    }

    private boolean hasWork(final Qp q) {
        if (q.role == Qp.RESPONDER) {
            return q.respIndex < q.respPackets;
        }
        if (q.op == MessageOp.READ) {
            return q.readRequestPending;
        }
        return requester.hasDataToSend(q);
    }

    /** A frame of the QP with the common header; its owner fills the rest. */
    private Packet buildFrame(final Qp q, final long now) {
        final Packet p = pool.acquire();
        p.srcHost = hostId;
        p.dstHost = q.peerHost;
        p.srcQpn = q.qpn;
        p.dstQpn = q.peerQpn;
        p.flowId = q.flowId;
        p.udpSrcPort = q.udpSrcPort;
        p.dscp = dataDscp;
        p.priority = dataPriority;
        p.ecn = ecnCodepoint;
        if (q.role == Qp.RESPONDER) {
            responder.fillReadResponse(q, p);
            return p;
        }
        if (requester.fillFrame(q, p)) {
            selectedQp = q;
        }
        rp.pace(q, p.frameBytes, now);
        return p;
    }

    /**
     * Hook from the port when a frame starts serialisation: transmit timestamps, byte counters and
     * the TX_BURST event.
     *
     * @param f the frame
     */
    void onTransmitStart(final Packet f) {
        cells[NicCounters.TX_BYTES] += f.frameBytes;
        switch (f.kind) {
            case Packet.KIND_DATA -> {
                f.txTimestampNs = sim.nowNs32();
                final Qp q = selectedQp;
                selectedQp = null;
                if (q != null) {
                    rp.onDataTransmitStart(q, f.psn);
                }
            }
            case Packet.KIND_READ_REQUEST, Packet.KIND_RTT_PROBE -> f.txTimestampNs = sim.nowNs32();
            case Packet.KIND_RTT_RESPONSE -> {
                if (!f.rttRawFromNp) { // an NP program's bytes stay as it wrote them
                    f.rttResponseSendNs = sim.nowNs32();
                }
            }
            default -> {
            }
        }
    }
}
