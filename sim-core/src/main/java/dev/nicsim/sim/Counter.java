package dev.nicsim.sim;

/**
 * A handle on one counter's cell, {@code cells[cell]} of a block registered with a
 * {@link CounterRegistry} (see {@link CounterRegistry#find}): for set-up code and tests that read or
 * write one named counter. Devices do not hold these on their hot paths: they write their
 * {@code long[]} cells directly, and registering them allocates no object per counter.
 *
 * <p>Thread-safety: plain array cell; simulation thread only.
 */
public final class Counter {
    private final long[] cells;
    private final int cell;

    /**
     * A handle on {@code cells[cell]}.
     *
     * @param cells the array
     * @param cell  index, {@code 0..cells.length-1}
     * @throws IllegalArgumentException if {@code cell} is outside {@code cells}
     */
    public Counter(final long[] cells, final int cell) {
        if (cell < 0 || cell >= cells.length) {
            throw new IllegalArgumentException("cell " + cell + " is outside 0.." + (cells.length - 1));
        }
        this.cells = cells;
        this.cell = cell;
    }

    /** Adds one. */
    public void increment() {
        cells[cell]++;
    }

    /**
     * Adds a delta.
     *
     * @param delta amount, may be negative for gauges
     */
    public void add(final long delta) {
        cells[cell] += delta;
    }

    /**
     * Sets the value (for gauges and peaks).
     *
     * @param v value
     */
    public void set(final long v) {
        cells[cell] = v;
    }

    /**
     * Raises the value to {@code v} if larger (high-water marks).
     *
     * @param v candidate
     */
    public void max(final long v) {
        if (v > cells[cell]) {
            cells[cell] = v;
        }
    }

    /** @return current value */
    public long get() {
        return cells[cell];
    }
}
