package dev.nicsim.pcc;

/**
 * Attributes of the flow and of the processor that the algorithm sees with each event.
 *
 * <p>Mutable holder filled by the processor before each call; algorithms only read it.
 * Thread-safety: not thread-safe; one instance per processing thread.
 */
public final class PccAttributes {
    private long lineRateBitsPerSec;
    private int algorithmSlot;
    private boolean overloaded;
    private int mtuBytes;
    private int baseRttNs;
    private int initialPsn;

    /** Creates attributes with zero values. */
    public PccAttributes() {
    }

    /**
     * Sets all attributes at once; {@link #initialPsn()} becomes 0 (see there).
     *
     * @param lineRateBitsPerSec port line rate, bits/s, positive
     * @param algorithmSlot      slot of the algorithm in the processor, 0..15
     * @param overloaded         whether the event ring is above its high-water mark
     * @param mtuBytes           path MTU (payload bytes per data packet), positive
     * @param baseRttNs          propagation round-trip time of the flow's path with no queueing, ns
     * @return this
     */
    public PccAttributes set(final long lineRateBitsPerSec, final int algorithmSlot, final boolean overloaded,
                             final int mtuBytes, final int baseRttNs) {
        this.lineRateBitsPerSec = lineRateBitsPerSec;
        this.algorithmSlot = algorithmSlot;
        this.overloaded = overloaded;
        this.mtuBytes = mtuBytes;
        this.baseRttNs = baseRttNs;
        this.initialPsn = 0;
        return this;
    }

    /**
     * Sets the flow's first PSN; processors call it after {@link #set} and before
     * {@link PccAlgorithm#initFlow}.
     *
     * @param initialPsn the PSN of the flow's first packet, 0..2^24 - 1
     * @return this
     * @throws IllegalArgumentException if {@code initialPsn} is outside 0..2^24 - 1
     */
    public PccAttributes initialPsn(final int initialPsn) {
        if ((initialPsn & ~PccEventLayout.MASK_24) != 0) {
            throw new IllegalArgumentException("initialPsn: expected 0..16777215, got " + initialPsn);
        }
        this.initialPsn = initialPsn;
        return this;
    }

    /**
     * The PSN of the flow's first packet. A real NIC starts each QP's send queue at a PSN chosen
     * when the connection is set up (IBTA vol. 1 §9.7.1: any 24-bit value, usually random; it is
     * exchanged in the CM REQ/REP), so a flow's PSNs start anywhere and wrap at 2^24; compare them
     * with {@link FixedPoint#psnDelta} (serial-number arithmetic, RFC 1982).
     *
     * <p>Valid in {@link PccAlgorithm#initFlow} only; in {@link PccAlgorithm#onEvent} it reads 0.
     * An algorithm that needs it later keeps it in its flow context, as firmware keeps its own
     * state: the flow attributes a processor holds per flow are the line rate, MTU and base RTT.
     *
     * @return 0..2^24 - 1
     */
    public int initialPsn() {
        return initialPsn;
    }

    /** @return line rate of the port in bits per second */
    public long lineRateBitsPerSec() {
        return lineRateBitsPerSec;
    }

    /** @return algorithm slot in the processor */
    public int algorithmSlot() {
        return algorithmSlot;
    }

    /** @return whether the processor's event ring is above its high-water mark */
    public boolean overloaded() {
        return overloaded;
    }

    /**
     * @param overloaded whether the processor is overloaded
     * @return this
     */
    public PccAttributes overloaded(final boolean overloaded) {
        this.overloaded = overloaded;
        return this;
    }

    /** @return payload bytes per full data packet (path MTU) */
    public int mtuBytes() {
        return mtuBytes;
    }

    /** @return unloaded round-trip time of the flow's path in ns (a configuration hint, as BDP needs) */
    public int baseRttNs() {
        return baseRttNs;
    }

    /**
     * Bandwidth-delay product of the flow's path.
     *
     * @return line rate x base RTT, in bytes
     */
    public long bdpBytes() {
        return lineRateBitsPerSec * baseRttNs / 8_000_000_000L;
    }
}
