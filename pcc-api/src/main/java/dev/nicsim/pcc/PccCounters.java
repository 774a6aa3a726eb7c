package dev.nicsim.pcc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-algorithm counters as a control plane reads them: named 64-bit registers an algorithm
 * allocates once when created and increments on its hot path without allocation.
 *
 * <p>Thread-safety: allocation is not thread-safe and happens at creation; {@link #increment} and
 * {@link #add} are plain (non-atomic) writes, safe because a processor instance is driven by one
 * thread. Readers on other threads see eventually-consistent values.
 */
public final class PccCounters {
    private final List<String> names = new ArrayList<>();
    private long[] values = new long[8];

    /** Creates an empty counter set. */
    public PccCounters() {
    }

    /**
     * Allocates a counter.
     *
     * @param name counter name, lower-case with underscores (e.g. {@code cnp_handled})
     * @return the counter id to pass to {@link #increment}
     * @throws IllegalArgumentException if the name is already allocated
     */
    public int allocate(final String name) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("counter already allocated: " + name);
        }
        names.add(name);
        if (names.size() > values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        return names.size() - 1;
    }

    /**
     * Adds one to a counter.
     *
     * @param id counter id from {@link #allocate}
     */
    public void increment(final int id) {
        values[id]++;
    }

    /**
     * Adds to a counter.
     *
     * @param id    counter id
     * @param delta amount to add
     */
    public void add(final int id, final long delta) {
        values[id] += delta;
    }

    /**
     * @param id counter id
     * @return current value
     */
    public long get(final int id) {
        return values[id];
    }

    /** @return number of allocated counters */
    public int size() {
        return names.size();
    }

    /**
     * @param id counter id
     * @return the counter's name
     */
    public String name(final int id) {
        return names.get(id);
    }

    /**
     * Value of a counter by name.
     *
     * @param name counter name
     * @return its value
     * @throws IllegalArgumentException if there is no such counter
     */
    public long get(final String name) {
        final int id = names.indexOf(name);
        if (id < 0) {
            throw new IllegalArgumentException("no counter " + name + "; have " + names);
        }
        return values[id];
    }
}
