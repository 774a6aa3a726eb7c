package dev.nicsim.sim;

/**
 * A hardware-style 64-bit counter register with a component and a name, e.g. component
 * {@code host3}, name {@code np_cnp_sent}. Allocated once through a {@link CounterRegistry};
 * incremented on the packet path without allocation.
 *
 * <p>A counter either holds its value itself or is a view of one cell of a {@code long[]} that its
 * owner updates directly on the hot path ({@link CounterRegistry#counter(String, String, long[], int)}):
 * a switch keeps each queue's counters side by side in one array, one cache line per queue instead
 * of a line per counter object. Both kinds read and write the same way through this class.
 *
 * <p>Thread-safety: plain field; simulation thread only.
 */
public final class Counter {
    private final String component;
    private final String name;
    private long value;
    private final long[] cells;
    private final int cell;

    Counter(final String component, final String name, final long[] cells, final int cell) {
        this.component = component;
        this.name = name;
        this.cells = cells;
        this.cell = cell;
    }

    /** Adds one. */
    public void increment() {
        add(1);
    }

    /**
     * Adds a delta.
     *
     * @param delta amount, may be negative for gauges
     */
    public void add(final long delta) {
        if (cells == null) {
            value += delta;
        } else {
            cells[cell] += delta;
        }
    }

    /**
     * Sets the value (for gauges and peaks).
     *
     * @param v value
     */
    public void set(final long v) {
        if (cells == null) {
            value = v;
        } else {
            cells[cell] = v;
        }
    }

    /**
     * Raises the value to {@code v} if larger (high-water marks).
     *
     * @param v candidate
     */
    public void max(final long v) {
        if (v > get()) {
            set(v);
        }
    }

    /** @return whether this counter is backed by {@code array[index]} (or holds its own value, for a null array) */
    boolean isViewOf(final long[] array, final int index) {
        return cells == array && (array == null || cell == index);
    }

    /** @return current value */
    public long get() {
        return cells == null ? value : cells[cell];
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
