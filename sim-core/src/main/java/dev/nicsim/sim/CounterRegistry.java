package dev.nicsim.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * All counters of one run, for {@code counters.csv}: a list of blocks, one per device (or per part
 * of a device registered at another time), each {@code (component, layout, cells, offset)}: the
 * device's counters are {@code cells[offset + layout.slot(r)]} for the rows {@code r} of its shared
 * {@link CounterLayout}. Registering a device allocates one block entry, whatever its number of
 * counters: no object, string or map entry per counter. The device's hot path writes its
 * {@code long[]} cells directly. Names are resolved only when a report or a look-up asks.
 *
 * <p>Row order (the order of {@code counters.csv}) is block registration order (which is
 * deterministic), then layout row order within a block.
 *
 * <p>Look-ups by name ({@link #value}, {@link #find}, {@link #sum}) scan the blocks: for reports
 * and tests, not hot paths.
 *
 * <p>Thread-safety: not thread-safe; register during set-up (and at the end of a run) on one thread.
 */
public final class CounterRegistry {
    /** One registered block: a device's counters. */
    private static final class Block {
        final String component;
        final CounterLayout layout;
        final long[] cells;
        final int offset;

        Block(final String component, final CounterLayout layout, final long[] cells, final int offset) {
            this.component = component;
            this.layout = layout;
            this.cells = cells;
            this.offset = offset;
        }
    }

    /** Receives counter rows; see {@link #forEach}. */
    @FunctionalInterface
    public interface RowVisitor {
        /**
         * One counter.
         *
         * @param component component name, e.g. {@code leaf0/port2/q3}
         * @param name      counter name, e.g. {@code wred_drops}
         * @param value     its value
         * @throws IOException if the visitor's output fails
         */
        void row(String component, String name, long value) throws IOException;
    }

    private final List<Block> blocks = new ArrayList<>();
    private final Map<Object, Object> shared = new HashMap<>();
    private long rows;

    /** Creates an empty registry. */
    public CounterRegistry() {
    }

    /**
     * Registers a device's counters as one block, after every block registered before.
     *
     * @param component the device's component name, e.g. {@code host3} or {@code leaf0}; rows append
     *                  their layout suffix to it
     * @param layout    the counter names, shared by devices of the same kind
     * @param cells     the values' array, which the device updates directly
     * @param offset    the block's first cell: row {@code r} is {@code cells[offset + layout.slot(r)]}
     * @throws IllegalArgumentException if the layout's cells do not fit in {@code cells} from {@code offset}
     * @throws NullPointerException     if an argument is null
     */
    public void register(final String component, final CounterLayout layout, final long[] cells, final int offset) {
        if (component == null || layout == null || cells == null) {
            throw new NullPointerException("component, layout and cells must not be null");
        }
        if (offset < 0 || offset + layout.width() > cells.length) {
            throw new IllegalArgumentException("cells " + offset + ".." + (offset + layout.width() - 1)
                + " are outside 0.." + (cells.length - 1) + " (" + component + ")");
        }
        blocks.add(new Block(component, layout, cells, offset));
        rows += layout.rows();
    }

    /**
     * A value made once per run for a key and shared by every device that asks with an equal key,
     * e.g. the {@link CounterLayout} of a switch with 32 ports, or of a CC processor's counter names.
     *
     * @param key  a key with value equality (a string, a list of names)
     * @param make makes the value the first time
     * @param <T>  the value's type; every caller of a key must ask for the same type
     * @return the value
     * @throws ClassCastException if the key was used for a value of another type
     */
    @SuppressWarnings("unchecked")
    public <T> T shared(final Object key, final Supplier<T> make) {
        Object v = shared.get(key);
        if (v == null) {
            v = make.get();
            shared.put(key, v);
        }
        return (T) v;
    }

    /** @return registered blocks (one per device, or per part of a device registered separately) */
    public int blocks() {
        return blocks.size();
    }

    /** @return counter rows over all blocks */
    public long rows() {
        return rows;
    }

    /**
     * Visits every counter in row order.
     *
     * @param zeros   whether counters whose value is 0 are visited
     * @param visitor receives each row; the component string is built for visited rows only
     * @throws IOException what the visitor throws
     */
    public void forEach(final boolean zeros, final RowVisitor visitor) throws IOException {
        for (final Block b : blocks) {
            final CounterLayout l = b.layout;
            for (int r = 0; r < l.rows(); r++) {
                final long v = b.cells[b.offset + l.slot(r)];
                if (zeros || v != 0) {
                    final String suffix = l.suffix(r);
                    visitor.row(suffix.isEmpty() ? b.component : b.component + suffix, l.name(r), v);
                }
            }
        }
    }

    /**
     * A handle on one counter's cell (a new object per call: for tests and set-up, not hot paths).
     *
     * @param component component name
     * @param name      counter name
     * @return the counter
     * @throws IllegalArgumentException if no block has it
     */
    public Counter find(final String component, final String name) {
        for (final Block b : blocks) {
            final int r = rowOf(b, component, name);
            if (r >= 0) {
                return new Counter(b.cells, b.offset + b.layout.slot(r));
            }
        }
        throw new IllegalArgumentException("no counter " + component + "/" + name);
    }

    /**
     * Looks a counter up.
     *
     * @param component component name
     * @param name      counter name
     * @return its value
     * @throws IllegalArgumentException if it was never registered
     */
    public long value(final String component, final String name) {
        return find(component, name).get();
    }

    /**
     * Whether a counter was registered (whatever its value).
     *
     * @param component component name
     * @param name      counter name
     * @return true if a block has it
     */
    public boolean has(final String component, final String name) {
        for (final Block b : blocks) {
            if (rowOf(b, component, name) >= 0) {
                return true;
            }
        }
        return false;
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
        final int pl = componentPrefix.length();
        for (final Block b : blocks) {
            final String c = b.component;
            final boolean whole = c.startsWith(componentPrefix); // every row's component starts with it
            if (!whole && !(pl > c.length() && componentPrefix.startsWith(c))) {
                continue; // no row's component can start with the prefix
            }
            final CounterLayout l = b.layout;
            for (int r = 0; r < l.rows(); r++) {
                if (l.name(r).equals(name)
                    && (whole || l.suffix(r).regionMatches(0, componentPrefix, c.length(), pl - c.length()))) {
                    s += b.cells[b.offset + l.slot(r)];
                }
            }
        }
        return s;
    }

    /** @return the row of {@code component/name} in block {@code b}, or -1 */
    private static int rowOf(final Block b, final String component, final String name) {
        final String c = b.component;
        if (!component.startsWith(c)) {
            return -1;
        }
        final CounterLayout l = b.layout;
        for (int r = 0; r < l.rows(); r++) {
            final String suffix = l.suffix(r);
            if (l.name(r).equals(name) && component.length() == c.length() + suffix.length()
                && component.endsWith(suffix)) {
                return r;
            }
        }
        return -1;
    }
}
