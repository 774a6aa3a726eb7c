package dev.nicsim.traces;

import java.util.Arrays;

/**
 * Open-addressing hash index from a key of up to five longs to a dense int (0, 1, 2, ... in
 * insertion order), so per-key state can live in parallel primitive arrays. Grows by doubling
 * (allocation only when a new peak is reached). Thread-safety: not thread-safe.
 */
final class KeyIndex {
    private static final int WIDTH = 5;
    private long[] keys;
    private int[] values;
    private int mask;
    private int size;

    KeyIndex() {
        allocate(64);
    }

    private void allocate(final int capacity) {
        keys = new long[capacity * WIDTH];
        values = new int[capacity];
        Arrays.fill(values, -1);
        mask = capacity - 1;
    }

    /** @return number of keys */
    int size() {
        return size;
    }

    /** @return the key's value, or -1 if absent */
    int find(final long a, final long b, final long c, final long d, final long e) {
        int i = hash(a, b, c, d, e) & mask;
        while (true) {
            final int v = values[i];
            if (v < 0) {
                return -1;
            }
            final int k = i * WIDTH;
            if (keys[k] == a && keys[k + 1] == b && keys[k + 2] == c && keys[k + 3] == d && keys[k + 4] == e) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    /** @return the key's value, adding the key with value {@link #size()} if absent */
    int findOrAdd(final long a, final long b, final long c, final long d, final long e) {
        final int found = find(a, b, c, d, e);
        if (found >= 0) {
            return found;
        }
        if ((size + 1) * 2 > values.length) {
            grow();
        }
        insert(a, b, c, d, e, size);
        return size++;
    }

    private void insert(final long a, final long b, final long c, final long d, final long e, final int value) {
        int i = hash(a, b, c, d, e) & mask;
        while (values[i] >= 0) {
            i = (i + 1) & mask;
        }
        final int k = i * WIDTH;
        keys[k] = a;
        keys[k + 1] = b;
        keys[k + 2] = c;
        keys[k + 3] = d;
        keys[k + 4] = e;
        values[i] = value;
    }

    private void grow() {
        final long[] oldKeys = keys;
        final int[] oldValues = values;
        allocate(oldValues.length * 2);
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] >= 0) {
                final int k = i * WIDTH;
                insert(oldKeys[k], oldKeys[k + 1], oldKeys[k + 2], oldKeys[k + 3], oldKeys[k + 4], oldValues[i]);
            }
        }
    }

    private static int hash(final long a, final long b, final long c, final long d, final long e) {
        long h = a * 0x9E37_79B9_7F4A_7C15L;
        h = (h ^ b ^ (h >>> 29)) * 0xBF58_476D_1CE4_E5B9L;
        h = (h ^ c ^ (h >>> 31)) * 0x94D0_49BB_1331_11EBL;
        h = (h ^ d ^ (h >>> 29)) * 0x9E37_79B9_7F4A_7C15L;
        h = (h ^ e ^ (h >>> 32)) * 0xBF58_476D_1CE4_E5B9L;
        return (int) (h ^ (h >>> 32));
    }
}
