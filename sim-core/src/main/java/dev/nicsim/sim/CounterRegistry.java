package dev.nicsim.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All counters of one run, in allocation order (which is deterministic), for {@code counters.csv}.
 *
 * <p>Thread-safety: not thread-safe; allocate during set-up on the simulation thread.
 */
public final class CounterRegistry {
    private final List<Counter> counters = new ArrayList<>();
    private final Map<String, Counter> byKey = new HashMap<>();

    /** Creates an empty registry. */
    public CounterRegistry() {
    }

    /**
     * Allocates a counter, or returns the existing one with the same component and name.
     *
     * @param component component name, e.g. {@code host3} or {@code leaf0/port2/q3}
     * @param name      counter name, e.g. {@code np_cnp_sent}
     * @return the counter
     */
    public Counter counter(final String component, final String name) {
        return counter(component, name, null, 0); // an existing counter of either kind is returned as it is
    }

    /**
     * Allocates a counter whose value lives in {@code cells[cell]}, which its owner may update
     * directly (see {@link Counter}); or returns the existing counter with the same component and
     * name, which must then be a view of the same cell. With a null {@code cells} this is
     * {@link #counter(String, String)}, which returns an existing counter of either kind.
     *
     * @param component component name
     * @param name      counter name
     * @param cells     backing array, or null for a counter that holds its own value
     * @param cell      index in {@code cells}, 0..cells.length-1
     * @return the counter
     * @throws IllegalArgumentException if {@code cell} is outside {@code cells}, or the counter
     *                                  exists with another backing
     */
    public Counter counter(final String component, final String name, final long[] cells, final int cell) {
        if (cells != null && (cell < 0 || cell >= cells.length)) {
            throw new IllegalArgumentException("cell " + cell + " is outside 0.." + (cells.length - 1));
        }
        final String key = component + '\u0000' + name;
        Counter c = byKey.get(key);
        if (c == null) {
            c = new Counter(component, name, cells, cell);
            byKey.put(key, c);
            counters.add(c);
        } else if (cells != null && !c.isViewOf(cells, cell)) {
            throw new IllegalArgumentException("counter " + component + "/" + name + " exists with another backing");
        }
        return c;
    }

    /**
     * Looks a counter up.
     *
     * @param component component name
     * @param name      counter name
     * @return its value
     * @throws IllegalArgumentException if it was never allocated
     */
    public long value(final String component, final String name) {
        final Counter c = byKey.get(component + '\u0000' + name);
        if (c == null) {
            throw new IllegalArgumentException("no counter " + component + "/" + name);
        }
        return c.get();
    }

    /**
     * Sum of a counter over all components whose name starts with a prefix.
     *
     * @param componentPrefix prefix of component names, "" for all
     * @param name            counter name
     * @return the sum (0 if none)
     */
    public long sum(final String componentPrefix, final String name) {
        long s = 0;
        for (final Counter c : counters) {
            if (c.name().equals(name) && c.component().startsWith(componentPrefix)) {
                s += c.get();
            }
        }
        return s;
    }

    /** @return all counters in allocation order, unmodifiable */
    public List<Counter> all() {
        return Collections.unmodifiableList(counters);
    }
}
