package dev.nicsim.sim;

import java.lang.reflect.Array;

/**
 * Growing a ring buffer kept as parallel primitive arrays: each array's live entries, oldest first,
 * copied to the start of a larger array (the ring's head becomes index 0).
 *
 * <p>Thread-safety: stateless.
 */
public final class RingArrays {
    private RingArrays() {
    }

    /**
     * Copies a ring's live entries, oldest first, to the start of another array.
     *
     * @param ring  a primitive or object array used as a ring: entries at {@code head, head + 1, ...}
     *              modulo its length
     * @param head  index of the oldest entry, {@code 0 .. length - 1}
     * @param count live entries, {@code 0 .. length}
     * @param into  the new array, of the same element type and at least {@code count} long
     * @param <A>   the array type
     * @return {@code into}, holding the entries at {@code 0 .. count - 1}
     * @throws IllegalArgumentException if {@code ring} or {@code into} is not an array
     * @throws ArrayStoreException      if their element types differ
     */
    public static <A> A unwrap(final A ring, final int head, final int count, final A into) {
        final int first = Math.min(count, Array.getLength(ring) - head);
        System.arraycopy(ring, head, into, 0, first);
        System.arraycopy(ring, 0, into, first, count - first);
        return into;
    }
}
