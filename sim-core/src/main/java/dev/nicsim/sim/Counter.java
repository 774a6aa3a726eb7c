package dev.nicsim.sim;

/**
 * A hardware-style 64-bit counter register with a component and a name, e.g. component
 * {@code host3}, name {@code np_cnp_sent}. Allocated once through a {@link CounterRegistry};
 * incremented on the packet path without allocation.
 *
 * <p>Thread-safety: plain field; simulation thread only.
 */
public final class Counter {
    private final String component;
    private final String name;
    private long value;

    Counter(final String component, final String name) {
        this.component = component;
        this.name = name;
    }

    /** Adds one. */
    public void increment() {
        value++;
    }

    /**
     * Adds a delta.
     *
     * @param delta amount, may be negative for gauges
     */
    public void add(final long delta) {
        value += delta;
    }

    /**
     * Sets the value (for gauges and peaks).
     *
     * @param v value
     */
    public void set(final long v) {
        value = v;
    }

    /**
     * Raises the value to {@code v} if larger (high-water marks).
     *
     * @param v candidate
     */
    public void max(final long v) {
        if (v > value) {
            value = v;
        }
    }

    /** @return current value */
    public long get() {
        return value;
    }

    /** @return component name */
    public String component() {
        return component;
    }

    /** @return counter name */
    public String name() {
        return name;
    }
}
