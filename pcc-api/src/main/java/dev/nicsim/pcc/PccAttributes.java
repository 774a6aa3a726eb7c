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

    /** Creates attributes with zero values. */
    public PccAttributes() {
    }

    /**
     * Sets all attributes at once.
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
        return this;
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
