package dev.nicsim.sw;

import dev.nicsim.sim.RoceFraming;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Configuration of one {@link SwitchAsic}: shared buffer, DSCP classification, PFC thresholds and
 * headroom per priority group (PG), WRED/ECN profiles per priority, egress queue limits, the
 * scheduler and the CAM of congestion-flow recognition. Plain mutable bean with public fields and
 * documented defaults; {@link #validate()} checks it, and {@link SwitchAsic} takes a snapshot when
 * constructed (later changes do not affect a built switch).
 *
 * <p>Buffer model ("Understanding DCQCN", "A look at the priority queue thresholds"; the dynamic
 * thresholds follow the Broadcom-style alpha model used by the HPCC ns-3 reference simulator):
 * <pre>
 *   bufferBytes = shared pool + sum over connected ports p and PFC-enabled PGs g of headroom(p, g)
 *   PG (p, g) bytes  = bytes of packets that arrived on port p with priority g, still queued
 *                    = PG shared part + PG headroom part
 *   queue (o, g)     = bytes queued for transmission on port o at priority g
 * </pre>
 * PG i is priority i. Buffer is freed when a frame starts serialisation on its egress port. With
 * {@link #queueing} {@link Queueing#INPUT_OUTPUT_QUEUED} the shared pool is replaced by fixed-size
 * VOQs and output queues ({@link #voqBytes}, {@link #outputQueueBytes}); regional congestion
 * mitigation is configured in {@link #rcm}.
 *
 * <p>Thread-safety: not thread-safe; configure on one thread before building switches.
 */
public final class SwitchConfig implements Cloneable {
    /** Default {@link #strictPriorityMask}: priorities 6 (CNPs, mlx5 {@code CNP_802P_PRIO=6}) and 7. */
    public static final int DEFAULT_STRICT_PRIORITY_MASK = 0xC0;
    /** Default {@link #pfcAlpha}: 1/8 (HPCC ns-3 {@code pfc_a_shift = 3}). */
    public static final double DEFAULT_PFC_ALPHA = 1.0 / 8;
    /** Default {@link #pfcXonOffsetBytes}, bytes. */
    public static final long DEFAULT_PFC_XON_OFFSET_BYTES = 3 * 1024;
    /** Default static xoff threshold of every PG ({@link #xoffBytes}), bytes. */
    public static final long DEFAULT_XOFF_BYTES = 256 * 1024;
    /** Default static xon threshold of every PG ({@link #xonBytes}), bytes. */
    public static final long DEFAULT_XON_BYTES = 128 * 1024;
    /** Default {@link #egressAlpha}. */
    public static final double DEFAULT_EGRESS_ALPHA = 1.0;
    /** Default static egress limit of every queue ({@link #queueLimitBytes}), bytes. */
    public static final long DEFAULT_QUEUE_LIMIT_BYTES = 1024 * 1024;
    /** Default {@link #camDepth}, entries. */
    public static final int DEFAULT_CAM_DEPTH = 16;
    /** Default {@link #camSamplePeriod}, packets. */
    public static final int DEFAULT_CAM_SAMPLE_PERIOD = 1;
    /** Default {@link #voqBytes}: 100 KB (the RCM paper §4.1). */
    public static final long DEFAULT_VOQ_BYTES = 100_000;
    /** Default {@link #outputQueueBytes}: 100 KB (the RCM paper §4.1). */
    public static final long DEFAULT_OUTPUT_QUEUE_BYTES = 100_000;
    /** Number of priorities (802.1p) and priority groups. */
    public static final int PRIORITIES = 8;
    /** {@link #headroomBytes} value: compute the headroom per port from its link (see {@link #requiredHeadroomBytes}). */
    public static final long HEADROOM_AUTO = -1;
    /** {@link #camCongestedBytes} value: a queue is congested at or above its priority's WRED Kmin. */
    public static final long CAM_THRESHOLD_KMIN = -1;
    /** Default shared buffer: 32 MiB, the buffer of the HPCC ns-3 reference runs ({@code BUFFER_SIZE 32}). */
    public static final long DEFAULT_BUFFER_BYTES = 32L * 1024 * 1024;
    /** Default {@link #trimHeaderBytes}: 64 bytes, the header size of a trimmed packet in uet-htsim. */
    public static final int DEFAULT_TRIM_HEADER_BYTES = 64;
    /** Default largest frame for automatic headroom: a 4096-byte RoCEv2 payload with RETH (4178 bytes). */
    public static final int DEFAULT_MAX_FRAME_BYTES = RoceFraming.frameBytes(4096, RoceFraming.RETH_BYTES);

    /** How the switch queues packets (the RCM paper §4.1). */
    public enum Queueing {
        /** One shared buffer, packets queued at the output (the MMU above). */
        OUTPUT_QUEUED,
        /**
         * Input-and-output queued: a virtual output queue (VOQ) per (input port, output port,
         * priority) of {@link #voqBytes} each, and one output queue (OQ) per (port, priority) of
         * {@link #outputQueueBytes} each (the RCM paper §4.1: "virtual input queues (VOQ) at the input
         * port and one output queue (OQ) at the output port. Each queue in the switch is 100 KB in
         * size"). The shared pool is not used; PFC is driven by VOQ occupancy.
         */
        INPUT_OUTPUT_QUEUED
    }

    /** How a threshold is set. */
    public enum ThresholdMode {
        /** A fixed number of bytes per PG or queue. */
        STATIC,
        /** {@code alpha x (free shared buffer bytes)}, recomputed on every decision (dynamic threshold). */
        DYNAMIC
    }

    /** Total packet buffer, bytes, {@code > 0}; must exceed the headroom reserved. Default {@link #DEFAULT_BUFFER_BYTES}. */
    public long bufferBytes = DEFAULT_BUFFER_BYTES;

    /** DSCP (index 0..63) to priority 0..7. Default {@code dscp >> 3} (class selector), so DSCP 26 -> 3, 48 -> 6. */
    public int[] dscpToPriority = defaultDscpMap();

    /** PFC (lossless) per priority = PG. Default all false (every priority lossy). */
    public boolean[] pfcEnabled = new boolean[PRIORITIES];

    /** How xoff/xon are set for PFC-enabled PGs. Default {@link ThresholdMode#DYNAMIC}. */
    public ThresholdMode pfcThresholdMode = ThresholdMode.DYNAMIC;

    /**
     * Dynamic PFC: a PG's shared part may grow to {@code pfcAlpha x (shared pool - shared used)}
     * bytes; xoff when the PG reaches it. {@code > 0}. Default 1/8 (HPCC ns-3 {@code pfc_a_shift = 3}).
     */
    public double pfcAlpha = DEFAULT_PFC_ALPHA;

    /**
     * Dynamic PFC: xon when the PG has no headroom bytes and {@code PG + pfcXonOffsetBytes <= pfcAlpha x
     * free} (or the PG is empty). Input-output queueing: the hysteresis below the VOQ xoff level (see
     * {@link #queueing}). Bytes, {@code >= 0}. Default 3072 (HPCC ns-3 {@code resume_offset}).
     */
    public long pfcXonOffsetBytes = DEFAULT_PFC_XON_OFFSET_BYTES;

    /** Static PFC: xoff threshold per PG, bytes, {@code > 0}. Default 256 KiB each. */
    public long[] xoffBytes = filled(DEFAULT_XOFF_BYTES);

    /** Static PFC: xon threshold per PG, bytes, {@code 0 <= xon <= xoff}. Default 128 KiB each. */
    public long[] xonBytes = filled(DEFAULT_XON_BYTES);

    /**
     * Headroom per (ingress port, PG) for PFC-enabled PGs, indexed by PG: bytes {@code >= 0}, or
     * {@link #HEADROOM_AUTO} (default) to size it per port from that port's link rate and
     * propagation delay with {@link #requiredHeadroomBytes} and {@link #maxFrameBytes}.
     */
    public long[] headroomBytes = filled(HEADROOM_AUTO);

    /** Largest frame the fabric carries, bytes, {@code >= 64}; used by automatic headroom. Default {@link #DEFAULT_MAX_FRAME_BYTES}. */
    public int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;

    /**
     * WRED/ECN profile per priority (the egress queue of that priority on every port), or null for
     * none; {@link SwitchAsic#setWredProfile} overrides it per port. Default all null.
     */
    public WredProfile[] wredProfiles = new WredProfile[PRIORITIES];

    /** How the egress queue limit of lossy priorities is set. Default {@link ThresholdMode#DYNAMIC}. */
    public ThresholdMode egressThresholdMode = ThresholdMode.DYNAMIC;

    /** Dynamic egress limit: a lossy queue may hold {@code egressAlpha x (shared pool - shared used)} bytes. {@code > 0}. Default 1. */
    public double egressAlpha = DEFAULT_EGRESS_ALPHA;

    /** Static egress limit per priority (buf_max of the LDCP draft §2.1), bytes, {@code > 0}. Default 1 MiB each. */
    public long[] queueLimitBytes = filled(DEFAULT_QUEUE_LIMIT_BYTES);

    /**
     * Priorities served by strict priority (bit i = priority i), higher priority number first,
     * before any DWRR queue. Default {@code 0xC0}: priority 6 (CNPs, {@code CNP_802P_PRIO=6}) and 7
     * (network control).
     */
    public int strictPriorityMask = DEFAULT_STRICT_PRIORITY_MASK;

    /** DWRR quantum per priority, bytes added per round, {@code > 0}; the weight of a non-strict queue. Default 9216 each. */
    public int[] dwrrQuantumBytes = intFilled(9216);

    /** CAM entries per egress queue (the RCM paper §3.3), {@code >= 0}; 0 disables the CAM. Default 16. */
    public int camDepth = DEFAULT_CAM_DEPTH;

    /** CAM sampling: every Nth packet enqueued while the queue is congested is written, {@code >= 1}. Default 1. */
    public int camSamplePeriod = DEFAULT_CAM_SAMPLE_PERIOD;

    /**
     * CAM: a queue is congested when its depth at a packet's arrival is at least this many bytes
     * ({@code >= 0}), or {@link #CAM_THRESHOLD_KMIN} (default) for the priority's WRED Kmin (a
     * priority without a WRED profile is then never congested).
     */
    public long camCongestedBytes = CAM_THRESHOLD_KMIN;

    /**
     * Queueing architecture. Default {@link Queueing#OUTPUT_QUEUED}. With
     * {@link Queueing#INPUT_OUTPUT_QUEUED} a packet joins the VOQ of its (ingress port, egress port,
     * priority); each output's scheduler moves VOQ head packets into the output queue, round robin
     * over the input ports (one packet per input per turn), whenever the output queue has room for
     * the head packet (an ideal crossbar: the move takes no time). Lossy priorities tail-drop at a
     * full VOQ; lossless priorities send XOFF for a PG as soon as one of its VOQs holds at least
     * {@code voqBytes - headroom} bytes (the headroom of the port and PG as configured by
     * {@link #headroomBytes}, so what is in flight still fits that VOQ) and XON when every VOQ of the
     * PG is at or below that level minus {@link #pfcXonOffsetBytes}. WRED/ECN decides at arrival on
     * the output queue's depth, as in the output-queued switch.
     */
    public Queueing queueing = Queueing.OUTPUT_QUEUED;

    /** Input-output queueing: bytes each VOQ holds, {@code >= maxFrameBytes}. Default 100 000 (the RCM paper §4.1, 100 KB). */
    public long voqBytes = DEFAULT_VOQ_BYTES;

    /** Input-output queueing: bytes each output queue holds, {@code >= maxFrameBytes}. Default 100 000 (the RCM paper §4.1). */
    public long outputQueueBytes = DEFAULT_OUTPUT_QUEUE_BYTES;

    /** Regional congestion mitigation (the RCM paper §3), all mechanisms off by default. Never null. */
    public RcmConfig rcm = new RcmConfig();

    /**
     * INT for HPCC (Li et al. SIGCOMM 2019 §4; HPCC ns-3 {@code SwitchNode::SwitchNotifyDequeue}): every
     * data packet leaving an egress port gets a hop record ({@link Packet#intHops}: time, the port's
     * transmitted bytes before it, the port's queued bytes, the link rate) while it has fewer than
     * {@link Packet#INT_MAX_HOPS}. Needs a packet pool with INT room. Off by default: costs nothing.
     */
    public boolean intEnabled;

    /**
     * IFA2 per-hop telemetry (draft-kumar-ippm-ifa; DOCA PCC fact sheet Addendum B.2/B.3): every RTT probe
     * request that carries an IFA2 header gets one 32-byte record per egress while its Hop Limit is above
     * 0 and it has room ({@code Ifa2TelemetryStage}). Needs a packet pool with INT room. Off by default:
     * costs nothing, and probes without an IFA2 header are never touched.
     */
    public boolean ifa2Enabled;

    /**
     * Packet trimming (UET 1.0; uet-htsim's switch, see {@link PacketTrimmer}): a data packet of a lossy
     * priority that finds its egress data queue full is cut to a {@link #trimHeaderBytes} header instead
     * of being dropped, and the header is sent from the port's header queue, served ahead of every data
     * queue. Needs {@link Queueing#OUTPUT_QUEUED}. Off by default: today's tail drops, nothing allocated.
     */
    public boolean trimmingEnabled;

    /** Size of a trimmed packet's header on the wire, bytes, {@code 64 .. maxFrameBytes}. Default 64 (uet-htsim). */
    public int trimHeaderBytes = DEFAULT_TRIM_HEADER_BYTES;

    /**
     * A fixed size for every lossy egress data queue, bytes, as uet-htsim's per-port queue (it uses one
     * BDP): a packet is admitted iff {@code q + bytes <= dataQueueLimitBytes} (and the shared pool holds
     * it), replacing {@link #egressThresholdMode}'s static or dynamic limit. {@code >= 0}; 0 (default)
     * keeps the shared-buffer limits. Needs {@link Queueing#OUTPUT_QUEUED} when not 0.
     */
    public long dataQueueLimitBytes;

    /**
     * ECN decided at dequeue as uet-htsim does: when a frame leaves an egress queue to start
     * serialisation, an ECN-capable data packet is marked CE with the queue's {@link WredProfile}
     * probability on the queue's depth after its removal ({@code p = (q - Kmin) / (Kmax - Kmin) x Pmax}
     * between Kmin and Kmax, 1 at or above Kmax; uet-htsim's rule is Pmax = 1), and no packet is marked
     * at arrival. Not-ECT packets are still WRED-dropped at arrival as the profile says. Default false:
     * marking at arrival ({@link WredEcnStage}).
     */
    public boolean ecnAtDequeue;

    /** Creates a configuration with the documented defaults. */
    public SwitchConfig() {
    }

    /**
     * Checks every field.
     *
     * @return this, for chaining
     * @throws IllegalArgumentException with a one-line message naming the first bad field and what
     *                                  was expected
     */
    public SwitchConfig validate() {
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("bufferBytes must be > 0, got " + bufferBytes);
        }
        checkLength("dscpToPriority", dscpToPriority == null ? -1 : dscpToPriority.length, 64);
        for (int d = 0; d < 64; d++) {
            if (dscpToPriority[d] < 0 || dscpToPriority[d] >= PRIORITIES) {
                throw new IllegalArgumentException("dscpToPriority[" + d + "] must be in 0..7, got " + dscpToPriority[d]);
            }
        }
        checkLength("pfcEnabled", pfcEnabled == null ? -1 : pfcEnabled.length, PRIORITIES);
        if (pfcThresholdMode == null) {
            throw new IllegalArgumentException("pfcThresholdMode must be STATIC or DYNAMIC, got null");
        }
        if (!(pfcAlpha > 0.0) || Double.isInfinite(pfcAlpha)) {
            throw new IllegalArgumentException("pfcAlpha must be a finite number > 0, got " + pfcAlpha);
        }
        if (pfcXonOffsetBytes < 0) {
            throw new IllegalArgumentException("pfcXonOffsetBytes must be >= 0, got " + pfcXonOffsetBytes);
        }
        checkLength("xoffBytes", xoffBytes == null ? -1 : xoffBytes.length, PRIORITIES);
        checkLength("xonBytes", xonBytes == null ? -1 : xonBytes.length, PRIORITIES);
        checkLength("headroomBytes", headroomBytes == null ? -1 : headroomBytes.length, PRIORITIES);
        for (int g = 0; g < PRIORITIES; g++) {
            if (xoffBytes[g] <= 0) {
                throw new IllegalArgumentException("xoffBytes[" + g + "] must be > 0, got " + xoffBytes[g]);
            }
            if (xonBytes[g] < 0 || xonBytes[g] > xoffBytes[g]) {
                throw new IllegalArgumentException("xonBytes[" + g + "] must be in 0..xoffBytes[" + g + "] (" + xoffBytes[g]
                    + "), got " + xonBytes[g]);
            }
            if (headroomBytes[g] < 0 && headroomBytes[g] != HEADROOM_AUTO) {
                throw new IllegalArgumentException("headroomBytes[" + g + "] must be >= 0 or HEADROOM_AUTO (-1), got "
                    + headroomBytes[g]);
            }
        }
        if (maxFrameBytes < RoceFraming.MIN_FRAME_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes must be >= 64, got " + maxFrameBytes);
        }
        checkLength("wredProfiles", wredProfiles == null ? -1 : wredProfiles.length, PRIORITIES);
        if (egressThresholdMode == null) {
            throw new IllegalArgumentException("egressThresholdMode must be STATIC or DYNAMIC, got null");
        }
        if (!(egressAlpha > 0.0) || Double.isInfinite(egressAlpha)) {
            throw new IllegalArgumentException("egressAlpha must be a finite number > 0, got " + egressAlpha);
        }
        checkLength("queueLimitBytes", queueLimitBytes == null ? -1 : queueLimitBytes.length, PRIORITIES);
        checkLength("dwrrQuantumBytes", dwrrQuantumBytes == null ? -1 : dwrrQuantumBytes.length, PRIORITIES);
        for (int g = 0; g < PRIORITIES; g++) {
            if (queueLimitBytes[g] <= 0) {
                throw new IllegalArgumentException("queueLimitBytes[" + g + "] must be > 0, got " + queueLimitBytes[g]);
            }
            if (dwrrQuantumBytes[g] <= 0) {
                throw new IllegalArgumentException("dwrrQuantumBytes[" + g + "] must be > 0, got " + dwrrQuantumBytes[g]);
            }
        }
        if (strictPriorityMask < 0 || strictPriorityMask > 0xFF) {
            throw new IllegalArgumentException("strictPriorityMask must be in 0..0xFF, got " + strictPriorityMask);
        }
        if (camDepth < 0) {
            throw new IllegalArgumentException("camDepth must be >= 0, got " + camDepth);
        }
        if (camSamplePeriod < 1) {
            throw new IllegalArgumentException("camSamplePeriod must be >= 1, got " + camSamplePeriod);
        }
        if (camCongestedBytes < 0 && camCongestedBytes != CAM_THRESHOLD_KMIN) {
            throw new IllegalArgumentException("camCongestedBytes must be >= 0 or CAM_THRESHOLD_KMIN (-1), got "
                + camCongestedBytes);
        }
        if (queueing == null) {
            throw new IllegalArgumentException("queueing must be OUTPUT_QUEUED or INPUT_OUTPUT_QUEUED, got null");
        }
        if (queueing == Queueing.INPUT_OUTPUT_QUEUED) {
            if (voqBytes < maxFrameBytes) {
                throw new IllegalArgumentException("voqBytes must be >= maxFrameBytes (" + maxFrameBytes + "), got " + voqBytes);
            }
            if (outputQueueBytes < maxFrameBytes) {
                throw new IllegalArgumentException("outputQueueBytes must be >= maxFrameBytes (" + maxFrameBytes + "), got "
                    + outputQueueBytes);
            }
        }
        if (trimHeaderBytes < RoceFraming.MIN_FRAME_BYTES || trimHeaderBytes > maxFrameBytes) {
            throw new IllegalArgumentException("trimHeaderBytes must be in 64..maxFrameBytes (" + maxFrameBytes + "), got "
                + trimHeaderBytes);
        }
        if (dataQueueLimitBytes < 0) {
            throw new IllegalArgumentException("dataQueueLimitBytes must be >= 0 (0 = shared-buffer limits), got "
                + dataQueueLimitBytes);
        }
        if ((trimmingEnabled || dataQueueLimitBytes > 0) && queueing != Queueing.OUTPUT_QUEUED) {
            throw new IllegalArgumentException("trimmingEnabled and dataQueueLimitBytes need queueing OUTPUT_QUEUED, got "
                + queueing);
        }
        if (rcm == null) {
            throw new IllegalArgumentException("rcm must not be null (use new RcmConfig() for RCM off)");
        }
        rcm.validate(queueing, camDepth);
        return this;
    }

    /**
     * A deep copy (arrays copied; {@link WredProfile}s are immutable and shared).
     *
     * @return a new configuration equal to this one
     */
    public SwitchConfig copy() {
        final SwitchConfig c;
        try {
            c = (SwitchConfig) super.clone(); // the primitives and enums; the arrays and rcm below
        } catch (final CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        c.dscpToPriority = dscpToPriority == null ? null : dscpToPriority.clone();
        c.pfcEnabled = pfcEnabled == null ? null : pfcEnabled.clone();
        c.xoffBytes = xoffBytes == null ? null : xoffBytes.clone();
        c.xonBytes = xonBytes == null ? null : xonBytes.clone();
        c.headroomBytes = headroomBytes == null ? null : headroomBytes.clone();
        c.wredProfiles = wredProfiles == null ? null : wredProfiles.clone();
        c.queueLimitBytes = queueLimitBytes == null ? null : queueLimitBytes.clone();
        c.dwrrQuantumBytes = dwrrQuantumBytes == null ? null : dwrrQuantumBytes.clone();
        c.rcm = rcm == null ? null : rcm.copy();
        return c;
    }

    /**
     * Headroom that absorbs everything in flight during one PFC pause round trip ("Understanding DCQCN", "The
     * buffer headroom is the queue space left between crossing the xOFF threshold ... and filling
     * the buffer"). After the switch decides xoff, bytes keep arriving for at most
     * <pre>
     *   ser(maxFrame)   a frame already leaving on the link toward the upstream delays the PFC frame
     * + ser(PFC)        the 64-byte PFC frame itself
     * + 2 x prop        the PFC frame travels up; the last data bits sent travel down
     * + ser(maxFrame)   the upstream finishes the frame it is sending when the pause lands
     * </pre>
     * of line time, plus the frame whose arrival crossed xoff, which is itself admitted into
     * headroom; so {@code headroom = ceil(2 x prop x rate / 8) + 2 x (maxFrame + 20) + (64 + 20)
     * + maxFrame} bytes, where 20 is preamble + SFD + inter-frame gap
     * ({@link RoceFraming#PREAMBLE_IFG_BYTES}). Example: 100 Gb/s, 1 us, 1000-byte frames:
     * 25 000 + 2 040 + 84 + 1 000 = 28 124 bytes. (Without the crossing frame a 128-host leaf-spine
     * websearch run under DCQCN lost a packet to headroom at a host port.)
     *
     * @param rateBitsPerSec link rate, bits/s, {@code > 0}
     * @param propagationPs  one-way propagation delay, ps, {@code >= 0}
     * @param maxFrameBytes  largest frame on the link, bytes, {@code >= 64}
     * @return headroom, bytes
     * @throws IllegalArgumentException naming the argument if it is out of range
     */
    public static long requiredHeadroomBytes(final long rateBitsPerSec, final long propagationPs, final int maxFrameBytes) {
        if (rateBitsPerSec <= 0) {
            throw new IllegalArgumentException("rateBitsPerSec must be > 0, got " + rateBitsPerSec);
        }
        if (propagationPs < 0) {
            throw new IllegalArgumentException("propagationPs must be >= 0, got " + propagationPs);
        }
        if (maxFrameBytes < RoceFraming.MIN_FRAME_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes must be >= 64, got " + maxFrameBytes);
        }
        // bytes on the wire during 2 x prop: 2 * prop[ps] * rate[b/s] / (8 * 1e12), rounded up (exact; set-up only)
        final BigInteger num = BigInteger.valueOf(propagationPs).multiply(BigInteger.valueOf(rateBitsPerSec)).shiftLeft(1);
        final BigInteger den = BigInteger.valueOf(8_000_000_000_000L);
        final BigInteger[] qr = num.divideAndRemainder(den);
        final long wireBytes = qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
        return wireBytes + 2L * (maxFrameBytes + RoceFraming.PREAMBLE_IFG_BYTES)
            + RoceFraming.PFC_FRAME_BYTES + RoceFraming.PREAMBLE_IFG_BYTES + maxFrameBytes;
    }

    private static void checkLength(final String field, final int length, final int expected) {
        if (length != expected) {
            throw new IllegalArgumentException(field + " must have " + expected + " entries, got "
                + (length < 0 ? "null" : String.valueOf(length)));
        }
    }

    private static int[] defaultDscpMap() {
        final int[] m = new int[64];
        for (int d = 0; d < 64; d++) {
            m[d] = d >> 3;
        }
        return m;
    }

    private static long[] filled(final long v) {
        final long[] a = new long[PRIORITIES];
        Arrays.fill(a, v);
        return a;
    }

    private static int[] intFilled(final int v) {
        final int[] a = new int[PRIORITIES];
        Arrays.fill(a, v);
        return a;
    }
}
