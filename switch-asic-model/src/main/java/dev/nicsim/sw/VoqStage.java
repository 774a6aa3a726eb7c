package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * Admission stage of the input-and-output-queued {@link SwitchAsic}
 * ({@link SwitchConfig.Queueing#INPUT_OUTPUT_QUEUED}, the RCM paper §4.1: "virtual input queues
 * (VOQ) at the input port and one output queue (OQ) at the output port"), and its output scheduler.
 *
 * <p>After classification, routing and the WRED/ECN decision (on the output queue's depth), the
 * packet joins the VOQ (input port, output port, priority) of {@code voqBytes} bytes (full:
 * {@code tail_drops} on a lossy priority, {@code headroom_drops} on a lossless one). PFC works on
 * VOQ occupancy: XOFF when a VOQ of the PG reaches {@code voqBytes - headroom}, XON when every VOQ
 * of the PG is at or below that minus {@code pfcXonOffsetBytes}. The output's scheduler
 * ({@link #transferToOutput}) moves VOQ head packets into the output queue of
 * {@code outputQueueBytes}, round robin over the inputs, whenever the output queue has room: at
 * each arrival, each frame start on the port, and each RCC window end. The CAM hook writes at
 * arrival, with the output queue's depth. {@code enqueued_*} count arrivals into VOQs,
 * {@code peak_depth_bytes} the output queue; component {@code <name>/port<P>/voq}:
 * {@code peak_voq_bytes} (largest VOQ of input P).
 *
 * <p>Units: bytes. Allocation-free on the packet path (VOQ rings grow until the run's peak depth).
 * Thread-safety: not thread-safe; simulation thread only.
 */
final class VoqStage {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final Simulator sim;
    private final int numPorts;
    private final SwitchPort[] ports;
    private final SwitchCounters stats;
    private final long[] queueStats;
    private final PfcController pfc;
    private final CongestionCam cam;
    private final RegionalCongestion rcm;
    private final boolean[] pfcEnabled;
    private final long pfcXonOffsetBytes;
    private final long voqLimitBytes;
    private final long oqLimitBytes;
    private final VoqBuffer voqs;
    private final long[] voqXoffBytes;          // [port * 8 + pg]
    private final long[] voqXonBytes;           // [port * 8 + pg]
    private final int[] voqsAboveXon;           // [port * 8 + pg]: VOQs of the PG holding more than xon bytes
    private final long[] peakVoq;               // per input port, bytes

    /**
     * @param c        validated configuration
     * @param sim      simulator
     * @param ports    the switch's ports (shared; filled as ports connect)
     * @param stats    the switch's counters
     * @param peakVoq  {@code peak_voq_bytes} per input port (registered by the switch)
     * @param pfc      the PFC frame generator
     * @param cam      the CAM hook
     * @param rcm      regional congestion mitigation hooks, or null
     */
    VoqStage(final SwitchConfig c, final Simulator sim, final SwitchPort[] ports, final SwitchCounters stats,
             final long[] peakVoq, final PfcController pfc, final CongestionCam cam, final RegionalCongestion rcm) {
        this.sim = sim;
        this.numPorts = ports.length;
        this.ports = ports;
        this.stats = stats;
        this.queueStats = stats.queueStats;
        this.pfc = pfc;
        this.cam = cam;
        this.rcm = rcm;
        this.pfcEnabled = c.pfcEnabled;
        this.pfcXonOffsetBytes = c.pfcXonOffsetBytes;
        this.voqLimitBytes = c.voqBytes;
        this.oqLimitBytes = c.outputQueueBytes;
        final int queues = numPorts * PRIORITIES;
        this.voqs = new VoqBuffer(numPorts);
        this.voqXoffBytes = new long[queues];
        this.voqXonBytes = new long[queues];
        this.voqsAboveXon = new int[queues];
        this.peakVoq = peakVoq;
    }

    /**
     * A port was connected: sets the VOQ xoff/xon levels of its PGs from their headroom. Set-up only.
     *
     * @param port       port number
     * @param limits     headroom per PG, bytes ({@link SharedBufferMmu#headroomLimits})
     * @param switchName switch name (for the message)
     * @throws IllegalArgumentException if a lossless PG's headroom is not below {@code voqBytes}
     */
    void onPortConnected(final int port, final long[] limits, final String switchName) {
        for (int g = 0; g < PRIORITIES; g++) {
            if (pfcEnabled[g]) {
                if (limits[g] >= voqLimitBytes) {
                    throw new IllegalArgumentException("voqBytes (" + voqLimitBytes + ") must exceed the PFC headroom ("
                        + limits[g] + " bytes) of port " + port + " priority " + g + " of " + switchName);
                }
                final int i = port * PRIORITIES + g;
                voqXoffBytes[i] = voqLimitBytes - limits[g];
                voqXonBytes[i] = Math.max(0, voqXoffBytes[i] - pfcXonOffsetBytes);
            }
        }
    }

    /**
     * Admission and enqueue: the VOQ (inPort, out, prio) takes the packet if it has room, PFC is
     * checked on the VOQ level, then the output's scheduler moves what it can into the output
     * queue and the port's transmitter is kicked.
     *
     * @param p      the classified, routed, WRED-checked packet
     * @param inPort ingress port
     * @param out    output port (connected)
     * @param prio   priority
     * @param key    flow key (for the RCM hooks)
     * @param mark   whether WRED/ECN decided to mark CE
     * @return {@link SharedBufferMmu#ADMITTED}, or the {@link SwitchCounters} cell of the drop counter
     *         (the caller drops)
     */
    int receive(final Packet p, final int inPort, final int out, final int prio, final int key, final boolean mark) {
        final int bytes = p.frameBytes;
        final int q = out * PRIORITIES + prio;
        final int pgIdx = inPort * PRIORITIES + prio;
        final boolean lossless = pfcEnabled[prio];
        final int v = voqs.index(inPort, out, prio);
        final long before = voqs.bytes(v);
        if (before + bytes > voqLimitBytes) {
            return lossless ? SwitchCounters.QS_HEADROOM_DROPS : SwitchCounters.QS_TAIL_DROPS;
        }
        if (mark) {
            stats.markCe(p, q);
        }
        cam.onEnqueue(q, ports[out].depthBytes(prio), p);
        p.enqueuePs = sim.nowPs();
        voqs.enqueue(inPort, out, prio, p);
        stats.onEnqueue(q, bytes);
        final long after = before + bytes;
        if (after > peakVoq[inPort]) {
            peakVoq[inPort] = after;
        }
        if (lossless) {
            if (before <= voqXonBytes[pgIdx] && after > voqXonBytes[pgIdx]) {
                voqsAboveXon[pgIdx]++;
            }
            if (!pfc.xoffActive(pgIdx) && after >= voqXoffBytes[pgIdx]) {
                pfc.sendXoff(inPort, prio);
            }
        }
        if (rcm != null) {
            rcm.onForward(out, prio, key, inPort);
        }
        transferToOutput(out, prio);
        if (rcm != null) {
            rcm.onInputArrival(inPort, prio, bytes, voqs.inputBytes(inPort, prio));
        }
        ports[out].kick();
        return SharedBufferMmu.ADMITTED;
    }

    /**
     * The output scheduler for one output queue: moves VOQ head packets into the output queue,
     * round robin over the input ports (one packet per input per turn, starting where the last turn
     * stopped), while the output queue has room for the next head; a head that RCC holds back (the
     * RCM paper §3.4) is skipped this turn. Does not start the transmitter. Allocation-free.
     *
     * @param out      output port (connected)
     * @param priority priority
     */
    void transferToOutput(final int out, final int priority) {
        int pending = voqs.pendingPackets(out, priority);
        if (pending == 0) {
            return;
        }
        final SwitchPort port = ports[out];
        final int q = out * PRIORITIES + priority;
        int in = voqs.roundRobin(out, priority);
        int idle = 0;
        while (pending > 0 && idle < numPorts) {
            final int v = voqs.index(in, out, priority);
            final Packet head = voqs.head(v);
            boolean moved = false;
            if (head != null) {
                if (port.depthBytes(priority) + head.frameBytes > oqLimitBytes) {
                    break; // output queue full: this input is first in line next time
                }
                final int gate = rcm == null ? RegionalCongestion.GATE_PASS : rcm.gate(out, priority, head);
                if (gate == RegionalCongestion.GATE_HOLD) {
                    voqs.markHeadHeld(v);
                } else {
                    final boolean held = voqs.headHeld(v);
                    voqs.poll(in, out, priority);
                    onVoqDequeue(in, priority, v, head.frameBytes);
                    port.enqueue(head, priority);
                    final long depth = port.depthBytes(priority);
                    stats.onDepth(q, depth);
                    if (rcm != null) {
                        rcm.onOutputEnqueue(out, priority, head, gate, held, depth);
                    }
                    pending--;
                    moved = true;
                }
            }
            in = in + 1 == numPorts ? 0 : in + 1;
            idle = moved ? 0 : idle + 1;
        }
        voqs.setRoundRobin(out, priority, in);
    }

    /** A packet left VOQ v of (in, prio): VOQ-level xon accounting and the input's drain. */
    private void onVoqDequeue(final int in, final int prio, final int v, final int bytes) {
        final int pgIdx = in * PRIORITIES + prio;
        if (pfcEnabled[prio]) {
            final long after = voqs.bytes(v);
            if (after + bytes > voqXonBytes[pgIdx] && after <= voqXonBytes[pgIdx]) {
                voqsAboveXon[pgIdx]--;
            }
            if (pfc.xoffActive(pgIdx) && voqsAboveXon[pgIdx] == 0) {
                pfc.sendXon(in, prio);
            }
        }
        if (rcm != null && voqs.inputBytes(in, prio) == 0) {
            rcm.onInputDrained(in, prio);
        }
    }

    /**
     * A frame starts serialisation on an output: a data frame counts as dequeued; either way the
     * output queue has room again, so its scheduler runs.
     *
     * @param port  output port
     * @param frame the frame (data or a regional congestion notification)
     */
    void onTransmitStart(final int port, final Packet frame) {
        final int pg = frame.priority;
        if (frame.kind != Packet.KIND_RCM_CN) {
            queueStats[(port * PRIORITIES + pg) * SwitchCounters.QS_ROW + SwitchCounters.QS_DEQUEUED_PACKETS]++;
        }
        transferToOutput(port, pg);
    }

    /**
     * @param pgIdx {@code ingress port x 8 + pg}
     * @return the VOQ-level xon condition: no VOQ of the PG holds more than its xon level
     */
    boolean xonCondition(final int pgIdx) {
        return voqsAboveXon[pgIdx] == 0;
    }

    /**
     * @param out      output port
     * @param priority priority
     * @return packets waiting in VOQs for the output queue
     */
    int pendingPackets(final int out, final int priority) {
        return voqs.pendingPackets(out, priority);
    }

    /**
     * @param in       input port
     * @param priority priority
     * @return bytes of all the input's VOQs at the priority
     */
    long inputBytes(final int in, final int priority) {
        return voqs.inputBytes(in, priority);
    }

    /**
     * @param in       input port
     * @param out      output port
     * @param priority priority
     * @return bytes in the VOQ
     */
    long voqBytes(final int in, final int out, final int priority) {
        return voqs.bytes(voqs.index(in, out, priority));
    }
}
