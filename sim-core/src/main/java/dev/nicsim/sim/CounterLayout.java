package dev.nicsim.sim;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The counter names of one kind of device, made once per kind (and shape, e.g. a switch of 32 ports)
 * and shared by every device of that kind: row {@code r} is the counter {@link #name(int) name(r)} of
 * the component {@code <device component><}{@link #suffix(int) suffix(r)}{@code >}, whose value is
 * {@code cells[offset + }{@link #slot(int) slot(r)}{@code ]} of the block a device registers with
 * {@link CounterRegistry#register}. Rows are in report order ({@code counters.csv}); slots are in
 * whatever order the device's hot path prefers (a switch keeps a queue's counters side by side), so
 * a row's slot need not be its index.
 *
 * <p>Example: a NIC's layout has rows {@code ("", "np_cnp_sent", 7), ("", "np_ecn_marked_roce_packets", 6), ...};
 * a switch's has {@code ("", "no_route_drops", 3072), ("/port0/q0", "enqueued_packets", 0), ...}.
 * Suffix and name strings are shared by every device with the layout; a component's full name is
 * built only when a report asks for it.
 *
 * <p>Immutable once built; thread-safe.
 */
public final class CounterLayout {
    private final String[] suffixes;
    private final String[] names;
    private final int[] slots;
    private final int width;

    private CounterLayout(final String[] suffixes, final String[] names, final int[] slots) {
        this.suffixes = suffixes;
        this.names = names;
        this.slots = slots;
        int w = 0;
        for (final int s : slots) {
            w = Math.max(w, s + 1);
        }
        this.width = w;
    }

    /**
     * A layout of counters of the device's own component (suffix {@code ""}), row {@code i} in slot {@code i}.
     *
     * @param names counter names in report order, distinct, not null
     * @return the layout
     * @throws IllegalArgumentException if a name repeats
     */
    public static CounterLayout of(final String... names) {
        final Builder b = builder(names.length);
        for (int i = 0; i < names.length; i++) {
            b.row("", names[i], i);
        }
        return b.build();
    }

    /**
     * Starts a layout.
     *
     * @param expectedRows rows expected (a capacity hint, {@code >= 0})
     * @return an empty builder
     */
    public static Builder builder(final int expectedRows) {
        return new Builder(expectedRows);
    }

    /** @return rows (counters per device), {@code >= 0} */
    public int rows() {
        return names.length;
    }

    /** @return cells a block spans: the largest slot plus one (0 for no rows) */
    public int width() {
        return width;
    }

    /**
     * @param row row, {@code 0..rows()-1}
     * @return the component suffix, appended to the device's component ({@code ""} for the device's own)
     */
    public String suffix(final int row) {
        return suffixes[row];
    }

    /**
     * @param row row, {@code 0..rows()-1}
     * @return the counter name
     */
    public String name(final int row) {
        return names[row];
    }

    /**
     * @param row row, {@code 0..rows()-1}
     * @return the cell of the row's value, relative to the block's offset
     */
    public int slot(final int row) {
        return slots[row];
    }

    /**
     * The row of a counter.
     *
     * @param suffix component suffix
     * @param name   counter name
     * @return its row, or -1 if the layout has none
     */
    public int rowOf(final String suffix, final String name) {
        for (int r = 0; r < names.length; r++) {
            if (names[r].equals(name) && suffixes[r].equals(suffix)) {
                return r;
            }
        }
        return -1;
    }

    /**
     * Builds a {@link CounterLayout} row by row. Not thread-safe.
     */
    public static final class Builder {
        private String[] suffixes;
        private String[] names;
        private int[] slots;
        private int rows;

        private Builder(final int expectedRows) {
            final int n = Math.max(1, expectedRows);
            suffixes = new String[n];
            names = new String[n];
            slots = new int[n];
        }

        /**
         * Appends a row.
         *
         * @param suffix component suffix, {@code ""} for the device's own component; not null
         * @param name   counter name, not null
         * @param slot   cell relative to the block's offset, {@code >= 0}
         * @return this builder
         * @throws IllegalArgumentException if {@code slot < 0}
         * @throws NullPointerException     if suffix or name is null
         */
        public Builder row(final String suffix, final String name, final int slot) {
            if (suffix == null || name == null) {
                throw new NullPointerException("suffix and name must not be null");
            }
            if (slot < 0) {
                throw new IllegalArgumentException("slot " + slot + " < 0");
            }
            if (rows == names.length) {
                suffixes = Arrays.copyOf(suffixes, rows * 2);
                names = Arrays.copyOf(names, rows * 2);
                slots = Arrays.copyOf(slots, rows * 2);
            }
            suffixes[rows] = suffix;
            names[rows] = name;
            slots[rows] = slot;
            rows++;
            return this;
        }

        /**
         * @return the layout
         * @throws IllegalArgumentException if two rows have the same suffix and name, or the same slot
         */
        public CounterLayout build() {
            final Set<String> keys = new HashSet<>();
            final Set<Integer> cells = new HashSet<>();
            for (int r = 0; r < rows; r++) {
                if (!keys.add(suffixes[r] + '\u0000' + names[r])) {
                    throw new IllegalArgumentException("counter " + suffixes[r] + "/" + names[r] + " appears twice");
                }
                if (!cells.add(slots[r])) {
                    throw new IllegalArgumentException("slot " + slots[r] + " is used twice (" + names[r] + ")");
                }
            }
            return new CounterLayout(Arrays.copyOf(suffixes, rows), Arrays.copyOf(names, rows), Arrays.copyOf(slots, rows));
        }
    }
}
