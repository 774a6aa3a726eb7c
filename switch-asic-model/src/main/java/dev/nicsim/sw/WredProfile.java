package dev.nicsim.sw;

/**
 * A WRED/ECN profile of one egress queue, evaluated on the <em>instantaneous</em> queue depth
 * {@code q} (bytes queued when the packet arrives, not counting the packet itself), as LDCP asks for
 * (the LDCP draft §2.1) and as DCQCN switches are configured ("Understanding DCQCN", "WRED min/max").
 *
 * <p>Marking probability (the LDCP draft §2.1):
 * <pre>
 *   q &lt; Kmin           p = 0
 *   Kmin &lt;= q &lt; Kmax   p = (q - Kmin) / (Kmax - Kmin) * Pmax
 *   q &gt;= Kmax          p = 1
 * </pre>
 * With {@code ecnEnabled}, ECN-capable packets (ECT(0), ECT(1), CE) are marked CE with probability
 * {@code p(q)} and Not-ECT packets are WRED-dropped when {@code q >= K} and never below
 * ({@code K = notEctDropBytes}, the LDCP draft §2.3 Eq. (3)). Without {@code ecnEnabled} the profile is
 * plain WRED: every packet is dropped with probability {@code p(q)} and {@code K} is unused.
 * Whether a drop decision applies to a lossless (PFC-enabled) priority is decided by
 * {@link SwitchAsic} (it does not: lossless queues only mark).
 *
 * <p>Immutable; thread-safe.
 */
public final class WredProfile {
    /** Value of {@code notEctDropBytes} meaning Not-ECT packets are never WRED-dropped. */
    public static final long NEVER_DROP = Long.MAX_VALUE;

    private final long kminBytes;
    private final long kmaxBytes;
    private final double pmax;
    private final boolean ecnEnabled;
    private final long notEctDropBytes;
    private final double slopePerByte;

    /**
     * Creates a profile.
     *
     * @param kminBytes       Kmin, bytes, {@code >= 0}
     * @param kmaxBytes       Kmax, bytes, {@code >= kminBytes}; when equal to Kmin the profile is a
     *                        step from 0 to 1 at Kmin (DCTCP's single threshold K, RFC 8257)
     * @param pmax            Pmax, probability at {@code q -> Kmax} from below, in [0, 1]
     * @param ecnEnabled      true: ECT packets are marked and Not-ECT packets follow Eq. (3); false:
     *                        plain WRED drop with probability {@code p(q)}
     * @param notEctDropBytes K of the LDCP draft Eq. (3), bytes, {@code >= 0}, or {@link #NEVER_DROP}
     * @throws IllegalArgumentException naming the parameter if a value is out of range
     */
    public WredProfile(final long kminBytes, final long kmaxBytes, final double pmax, final boolean ecnEnabled,
                       final long notEctDropBytes) {
        if (kminBytes < 0) {
            throw new IllegalArgumentException("kminBytes must be >= 0, got " + kminBytes);
        }
        if (kmaxBytes < kminBytes) {
            throw new IllegalArgumentException("kmaxBytes must be >= kminBytes (" + kminBytes + "), got " + kmaxBytes);
        }
        if (!(pmax >= 0.0 && pmax <= 1.0)) {
            throw new IllegalArgumentException("pmax must be in [0, 1], got " + pmax);
        }
        if (notEctDropBytes < 0) {
            throw new IllegalArgumentException("notEctDropBytes must be >= 0 (or NEVER_DROP), got " + notEctDropBytes);
        }
        this.kminBytes = kminBytes;
        this.kmaxBytes = kmaxBytes;
        this.pmax = pmax;
        this.ecnEnabled = ecnEnabled;
        this.notEctDropBytes = notEctDropBytes;
        this.slopePerByte = kmaxBytes > kminBytes ? pmax / (double) (kmaxBytes - kminBytes) : 0.0;
    }

    /**
     * Marking (or, without ECN, drop) probability at an instantaneous queue depth, the LDCP draft §2.1.
     * Allocation-free.
     *
     * @param queueBytes instantaneous queue depth {@code q}, bytes
     * @return {@code p(q)} in [0, 1]
     */
    public double markProbability(final long queueBytes) {
        if (queueBytes < kminBytes) {
            return 0.0;
        }
        if (queueBytes >= kmaxBytes) {
            return 1.0;
        }
        return (queueBytes - kminBytes) * slopePerByte;
    }

    /**
     * Whether a Not-ECT packet arriving at this depth is WRED-dropped: {@code q >= K}, the LDCP draft §2.3
     * Eq. (3). Meaningful only with {@link #ecnEnabled()}.
     *
     * @param queueBytes instantaneous queue depth {@code q}, bytes
     * @return true iff {@code queueBytes >= notEctDropBytes}
     */
    public boolean dropsNotEct(final long queueBytes) {
        return queueBytes >= notEctDropBytes;
    }

    /** @return Kmin, bytes */
    public long kminBytes() {
        return kminBytes;
    }

    /** @return Kmax, bytes */
    public long kmaxBytes() {
        return kmaxBytes;
    }

    /** @return Pmax in [0, 1] */
    public double pmax() {
        return pmax;
    }

    /** @return whether ECT packets are marked (true) or the profile drops (false) */
    public boolean ecnEnabled() {
        return ecnEnabled;
    }

    /** @return K of the LDCP draft Eq. (3), bytes, or {@link #NEVER_DROP} */
    public long notEctDropBytes() {
        return notEctDropBytes;
    }

    @Override
    public String toString() {
        return "WredProfile{kmin=" + kminBytes + "B, kmax=" + kmaxBytes + "B, pmax=" + pmax + ", ecn=" + ecnEnabled
            + ", notEctDrop=" + (notEctDropBytes == NEVER_DROP ? "never" : notEctDropBytes + "B") + "}";
    }
}
