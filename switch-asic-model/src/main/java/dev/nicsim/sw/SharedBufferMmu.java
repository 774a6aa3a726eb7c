package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * MMU admission stage of the output-queued {@link SwitchAsic} ({@link SwitchConfig.Queueing#OUTPUT_QUEUED}):
 * one shared buffer with ingress accounting per (ingress port, PG) for PFC and egress accounting
 * per queue for drops, PFC xoff/xon with headroom ("Understanding DCQCN": xOFF/xON thresholds,
 * headroom, drop point; the dynamic thresholds follow the Broadcom-style alpha model of the HPCC
 * ns-3 reference), then the enqueue into the egress queue.
 *
 * <h2>Admission (bytes = {@link Packet#frameBytes})</h2>
 * <ul>
 * <li>lossy priority: tail drop ({@code tail_drops}) if the shared pool cannot take the packet or
 *     {@code q + bytes} exceeds the queue limit ({@code dataQueueLimitBytes} when set, else static
 *     {@code queueLimitBytes[prio]} or dynamic {@code egressAlpha x free shared}); with trimming on the
 *     packet or the queue's tail is cut to a header instead ({@link PacketTrimmer}), and a packet that
 *     arrives already trimmed goes to the port's header queue;</li>
 * <li>PFC-enabled priority: into the shared pool while the PG's shared part stays within xoff
 *     (static {@code xoffBytes[pg]} or dynamic {@code pfcAlpha x free shared}) and the pool has
 *     room; otherwise into the (ingress port, PG) headroom; dropped ({@code headroom_drops}, on the
 *     egress queue the packet was headed for) only when the headroom is exhausted. Lossless queues
 *     have no egress limit.</li>
 * </ul>
 * <h2>Enqueue</h2>
 * The CE mark is applied ({@code ecn_marked_packets}), the CAM hook may sample the flow
 * ({@link CongestionCam}), and if the PG now holds at least xoff bytes (or any headroom bytes) an
 * XOFF is sent ({@link PfcController}); with regional congestion mitigation its hooks run (output
 * side first, so a CN sent at this arrival already names the flows of a queue it congested).
 *
 * <h2>Release</h2>
 * The buffer of a frame is freed when it starts serialisation on its egress port, headroom bytes of
 * its PG first (as the HPCC ns-3 MMU does); then an XON is sent if the PG has no headroom bytes and
 * holds at most xon bytes (dynamic: {@code PG == 0 || PG + pfcXonOffsetBytes <= pfcAlpha x free}).
 *
 * <p>The headroom of every PFC-enabled PG of a port is reserved out of the shared pool when the port
 * connects ({@link #reserveHeadroom}). In the input-output-queued switch this class only keeps the
 * headroom limits (the buffer stage is {@link VoqStage}). Units: bytes throughout. Allocation-free
 * on the packet path. Thread-safety: not thread-safe; simulation thread only.
 */
final class SharedBufferMmu {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** {@link #receive}: the packet was admitted and enqueued (or, trimming, handled: queued or dropped as a header). */
    static final int ADMITTED = -1;

    private final Simulator sim;
    private final SwitchCounters stats;
    private final long[] queueStats;
    private final PfcController pfc;
    private final CongestionCam cam;
    private final RegionalCongestion rcm;

    private final long bufferBytes;
    private final boolean[] pfcEnabled;
    private final boolean pfcDynamic;
    private final double pfcAlpha;
    private final long pfcXonOffsetBytes;
    private final long[] xoffBytes;
    private final long[] xonBytes;
    private final long[] headroomConfigBytes;
    private final int maxFrameBytes;
    private final boolean egressDynamic;
    private final double egressAlpha;
    private final long[] queueLimitBytes;
    /** Fixed lossy data queue size, bytes, or 0 for the limits above. */
    private final long dataQueueLimitBytes;
    /** Trimming at full lossy queues, or null when off. */
    private final PacketTrimmer trim;

    private long headroomReservedBytes;
    private long sharedPoolBytes;
    private long sharedUsedBytes;
    /** Longs per PG in {@link #pgState}. */
    private static final int PG_STRIDE = 4;
    /** {@link #pgState} offset: the PG's bytes in the shared pool. */
    private static final int PG_SHARED_BYTES = 0;
    /** {@link #pgState} offset: the PG's bytes in its headroom. */
    private static final int PG_HEADROOM_BYTES = 1;
    /** {@link #pgState} offset: the PG's headroom limit, bytes. */
    private static final int PG_HEADROOM_LIMIT_BYTES = 2;
    /**
     * Per PG {@code pgIdx = port x 8 + pg}, {@value #PG_STRIDE} longs at {@code PG_STRIDE x pgIdx}:
     * shared bytes, headroom bytes, headroom limit (one unused). One array rather than three, so an
     * admission or a dequeue reads one 32-byte run instead of three arrays' lines.
     */
    private final long[] pgState;

    /**
     * @param c        validated configuration (arrays shared, not copied)
     * @param numPorts ports of the switch
     * @param sim      simulator
     * @param stats    the switch's counters
     * @param pfc      the PFC frame generator
     * @param cam      the CAM hook
     * @param rcm      regional congestion mitigation hooks, or null
     * @param trim     trimming at full lossy queues, or null when off
     */
    SharedBufferMmu(final SwitchConfig c, final int numPorts, final Simulator sim, final SwitchCounters stats,
                    final PfcController pfc, final CongestionCam cam, final RegionalCongestion rcm, final PacketTrimmer trim) {
        this.sim = sim;
        this.stats = stats;
        this.queueStats = stats.queueStats;
        this.pfc = pfc;
        this.cam = cam;
        this.rcm = rcm;
        this.bufferBytes = c.bufferBytes;
        this.pfcEnabled = c.pfcEnabled;
        this.pfcDynamic = c.pfcThresholdMode == SwitchConfig.ThresholdMode.DYNAMIC;
        this.pfcAlpha = c.pfcAlpha;
        this.pfcXonOffsetBytes = c.pfcXonOffsetBytes;
        this.xoffBytes = c.xoffBytes;
        this.xonBytes = c.xonBytes;
        this.headroomConfigBytes = c.headroomBytes;
        this.maxFrameBytes = c.maxFrameBytes;
        this.egressDynamic = c.egressThresholdMode == SwitchConfig.ThresholdMode.DYNAMIC;
        this.egressAlpha = c.egressAlpha;
        this.queueLimitBytes = c.queueLimitBytes;
        this.dataQueueLimitBytes = c.dataQueueLimitBytes;
        this.trim = trim;
        this.sharedPoolBytes = bufferBytes;
        final int queues = numPorts * PRIORITIES;
        this.pgState = new long[queues * PG_STRIDE];
    }

    /**
     * The headroom of each PG on a link: static {@code headroomBytes[pg]}, or
     * {@link SwitchConfig#requiredHeadroomBytes} of the link for {@link SwitchConfig#HEADROOM_AUTO};
     * 0 on lossy priorities. Set-up only (allocates the result).
     *
     * @param rateBitsPerSec link rate, bits/s
     * @param propagationPs  one-way propagation delay, ps
     * @return bytes per PG, 8 entries
     */
    long[] headroomLimits(final long rateBitsPerSec, final long propagationPs) {
        final long[] limits = new long[PRIORITIES];
        for (int g = 0; g < PRIORITIES; g++) {
            if (pfcEnabled[g]) {
                limits[g] = headroomConfigBytes[g] == SwitchConfig.HEADROOM_AUTO
                    ? SwitchConfig.requiredHeadroomBytes(rateBitsPerSec, propagationPs, maxFrameBytes)
                    : headroomConfigBytes[g];
            }
        }
        return limits;
    }

    /**
     * Reserves a port's headroom out of the shared pool (output-queued switch). Set-up only.
     *
     * @param port       port number (for the message)
     * @param limits     headroom per PG, from {@link #headroomLimits}
     * @param switchName switch name (for the message)
     * @throws IllegalArgumentException if the headroom reserved would leave no shared buffer
     */
    void reserveHeadroom(final int port, final long[] limits, final String switchName) {
        long reserve = 0;
        for (int g = 0; g < PRIORITIES; g++) {
            reserve += limits[g];
        }
        if (headroomReservedBytes + reserve >= bufferBytes) {
            throw new IllegalArgumentException("bufferBytes (" + bufferBytes + ") must exceed the headroom reserved ("
                + (headroomReservedBytes + reserve) + " bytes after connecting port " + port + " of " + switchName + ")");
        }
        headroomReservedBytes += reserve;
        sharedPoolBytes = bufferBytes - headroomReservedBytes;
    }

    /**
     * Records a port's headroom limits (both queueing modes). Set-up only.
     *
     * @param port   port number
     * @param limits headroom per PG, from {@link #headroomLimits}
     */
    void setHeadroomLimits(final int port, final long[] limits) {
        for (int g = 0; g < PRIORITIES; g++) {
            pgState[(port * PRIORITIES + g) * PG_STRIDE + PG_HEADROOM_LIMIT_BYTES] = limits[g];
        }
    }

    /**
     * Look-ahead hint ({@link SwitchAsic#touch}): reads what {@link #receive} reads first for a frame
     * bound for {@code port}: the egress queue's state, its counter row and the ingress priority
     * group's accounting (in a large fabric, lines rarely cached). Reads only.
     *
     * @param port   the egress port
     * @param inPort ingress port, in range
     * @param out    the egress port's number, in range
     * @param prio   priority, 0..7
     * @return a value of the touched state
     */
    int touch(final SwitchPort port, final int inPort, final int out, final int prio) {
        return port.touchQueue(prio) + (int) stats.queueStats[(out * PRIORITIES + prio) * SwitchCounters.QS_ROW]
            + (int) pgState[(inPort * PRIORITIES + prio) * PG_STRIDE + PG_SHARED_BYTES];
    }

    /**
     * Admission and enqueue of a classified, routed, WRED-checked packet (see the class comment).
     * On admission the packet is in the egress queue and the port's transmitter was kicked.
     *
     * @param p      the packet
     * @param port   its egress port (connected)
     * @param inPort ingress port
     * @param out    egress port number
     * @param prio   priority
     * @param key    flow key (for the RCM hooks; 0 when neither ECMP nor RCM needed it)
     * @param depth  the egress queue's depth before the packet, bytes
     * @param mark   whether WRED/ECN decided to mark CE
     * @return {@link #ADMITTED}, or the {@link SwitchCounters} cell of the drop counter (the caller drops)
     */
    int receive(final Packet p, final SwitchPort port, final int inPort, final int out, final int prio, final int key,
                final long depth, final boolean mark) {
        final int bytes = p.frameBytes;
        final int q = out * PRIORITIES + prio;
        final int pgIdx = inPort * PRIORITIES + prio;
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        final boolean lossless = pfcEnabled[prio];
        long d = depth;
        if (trim != null && p.trimmed) {
            trim.admitHeader(p, port, out, lossyLimit(prio));
            port.kick();
            return ADMITTED;
        }
        if (lossless) {
            if (pgs[s + PG_SHARED_BYTES] + bytes <= xoffThreshold(prio) && sharedUsedBytes + bytes <= sharedPoolBytes) {
                pgs[s + PG_SHARED_BYTES] += bytes;
                sharedUsedBytes += bytes;
            } else if (pgs[s + PG_HEADROOM_BYTES] + bytes <= pgs[s + PG_HEADROOM_LIMIT_BYTES]) {
                pgs[s + PG_HEADROOM_BYTES] += bytes;
                stats.onHeadroom(pgIdx, pgs[s + PG_HEADROOM_BYTES]);
            } else {
                return SwitchCounters.QS_HEADROOM_DROPS;
            }
        } else {
            final double limit = lossyLimit(prio);
            if (sharedUsedBytes + bytes > sharedPoolBytes || depth + bytes > limit) {
                if (trim == null) {
                    return SwitchCounters.QS_TAIL_DROPS;
                }
                if (!trimTail(port, out, prio, depth, bytes, limit)) {
                    trim.cut(p, out, false);
                    trim.admitHeader(p, port, out, limit);
                    port.kick();
                    return ADMITTED;
                }
                d = port.depthBytes(prio);
            }
            pgs[s + PG_SHARED_BYTES] += bytes;
            sharedUsedBytes += bytes;
        }

        if (mark) {
            stats.markCe(p, q);
        }
        cam.onEnqueue(q, d, p);
        p.enqueuePs = sim.nowPs();
        port.enqueue(p, prio);
        stats.onEnqueue(q, bytes);
        final long newDepth = d + bytes;
        stats.onDepth(q, newDepth);
        if (lossless && !pfc.xoffActive(pgIdx)
            && (pgs[s + PG_HEADROOM_BYTES] > 0 || pgs[s + PG_SHARED_BYTES] >= xoffThreshold(prio))) {
            pfc.sendXoff(inPort, prio);
        }
        if (rcm != null) {
            // output side first, so a CN sent at this arrival already names the flows of a queue it congested
            rcm.onForward(out, prio, key, inPort);
            rcm.onOutputEnqueue(out, prio, p, RegionalCongestion.GATE_PASS, false, newDepth);
            rcm.onInputArrival(inPort, prio, bytes, pgs[s + PG_SHARED_BYTES] + pgs[s + PG_HEADROOM_BYTES]);
        }
        port.kick();
        return ADMITTED;
    }

    /** The data queue limit of a lossy priority now, bytes (see the class comment). */
    private double lossyLimit(final int prio) {
        return dataQueueLimitBytes > 0 ? dataQueueLimitBytes
            : egressDynamic ? egressAlpha * (sharedPoolBytes - sharedUsedBytes) : queueLimitBytes[prio];
    }

    /**
     * The coin of a full lossy queue ({@link PacketTrimmer}): if it chooses the tail and the arriving
     * packet fits once the tail is out, takes the tail out of the data queue, frees its buffer, cuts it
     * and offers it to the header queue.
     *
     * @param port  the egress port
     * @param out   its number
     * @param prio  the (lossy) priority
     * @param depth the data queue's depth before the arriving packet, bytes
     * @param bytes the arriving packet's bytes
     * @param limit the queue's limit now, bytes
     * @return true if the tail was trimmed (the arriving packet is then admitted), false to trim the arriving packet
     */
    private boolean trimTail(final SwitchPort port, final int out, final int prio, final long depth, final int bytes,
                             final double limit) {
        if (!trim.coinChoosesTail()) {
            return false;
        }
        final Packet tail = port.dataTail(prio);
        if (tail == null) {
            return false;
        }
        final int tailBytes = tail.frameBytes;
        if (depth - tailBytes + bytes > limit || sharedUsedBytes - tailBytes + bytes > sharedPoolBytes) {
            return false;
        }
        port.removeDataTail(prio);
        // a lossy packet is never in headroom: all its bytes are in its PG's shared part
        pgState[(tail.ingressPort * PRIORITIES + tail.priority) * PG_STRIDE + PG_SHARED_BYTES] -= tailBytes;
        sharedUsedBytes -= tailBytes;
        trim.cut(tail, out, true);
        trim.admitHeader(tail, port, out, limit);
        return true;
    }

    /**
     * A data frame starts serialisation on its egress port: counts the dequeue, frees its buffer
     * (PG headroom first, then shared) and sends XON if the PG's xon condition now holds. A trimmed
     * header (trimming on) holds no buffer here and is not a data dequeue: nothing happens.
     *
     * @param port  egress port number
     * @param frame the frame (not a control frame)
     */
    void onTransmitStart(final int port, final Packet frame) {
        if (trim != null && frame.trimmed) {
            return;
        }
        final int pg = frame.priority;
        final int pgIdx = frame.ingressPort * PRIORITIES + pg;
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        queueStats[(port * PRIORITIES + pg) * SwitchCounters.QS_ROW + SwitchCounters.QS_DEQUEUED_PACKETS]++;
        final long bytes = frame.frameBytes;
        final long fromHeadroom = Math.min(pgs[s + PG_HEADROOM_BYTES], bytes);
        pgs[s + PG_HEADROOM_BYTES] -= fromHeadroom;
        pgs[s + PG_SHARED_BYTES] -= bytes - fromHeadroom;
        sharedUsedBytes -= bytes - fromHeadroom;
        if (pfc.xoffActive(pgIdx) && xonCondition(pgIdx, pg)) {
            pfc.sendXon(frame.ingressPort, pg);
        }
        if (rcm != null && pgs[s + PG_SHARED_BYTES] + pgs[s + PG_HEADROOM_BYTES] == 0) {
            rcm.onInputDrained(frame.ingressPort, pg);
        }
    }

    /** XOFF threshold of a PG's shared part now, bytes (static, or dynamic alpha x free shared). */
    private double xoffThreshold(final int pg) {
        return pfcDynamic ? pfcAlpha * (sharedPoolBytes - sharedUsedBytes) : xoffBytes[pg];
    }

    /**
     * The xon condition of a PG: no headroom bytes, and at most xon bytes (dynamic: empty, or
     * {@code PG + pfcXonOffsetBytes <= pfcAlpha x free shared}).
     *
     * @param pgIdx {@code ingress port x 8 + pg}
     * @param pg    priority group
     * @return whether XON may be sent
     */
    boolean xonCondition(final int pgIdx, final int pg) {
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        if (pgs[s + PG_HEADROOM_BYTES] > 0) {
            return false;
        }
        final long occupancy = pgs[s + PG_SHARED_BYTES];
        if (pfcDynamic) {
            return occupancy == 0 || occupancy + pfcXonOffsetBytes <= pfcAlpha * (sharedPoolBytes - sharedUsedBytes);
        }
        return occupancy <= xonBytes[pg];
    }

    /** @return shared pool size, bytes ({@code bufferBytes} minus the headroom reserved so far) */
    long sharedPoolBytes() {
        return sharedPoolBytes;
    }

    /** @return shared pool bytes in use */
    long sharedUsedBytes() {
        return sharedUsedBytes;
    }

    /**
     * @param pgIdx {@code port x 8 + pg}
     * @return shared + headroom bytes of the PG
     */
    long pgBytes(final int pgIdx) {
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        return pgs[s + PG_SHARED_BYTES] + pgs[s + PG_HEADROOM_BYTES];
    }

    /**
     * @param pgIdx {@code port x 8 + pg}
     * @return headroom bytes the PG uses now
     */
    long headroomUsedBytes(final int pgIdx) {
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        return pgs[s + PG_HEADROOM_BYTES];
    }

    /**
     * @param pgIdx {@code port x 8 + pg}
     * @return headroom reserved for the PG, bytes (0 if unconnected or lossy)
     */
    long headroomLimitBytes(final int pgIdx) {
        final long[] pgs = pgState;
        final int s = pgIdx * PG_STRIDE;
        return pgs[s + PG_HEADROOM_LIMIT_BYTES];
    }
}
