package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Unwrapping a ring, worked by hand. */
class RingArraysTest {

    @Test
    void wrappedRingComesOutOldestFirst() {
        // length 4, head 2, 3 live entries: 30 (at 2), 40 (at 3), then 10 (at 0) wrapped round
        final long[] ring = {10, 20, 30, 40};
        assertArrayEquals(new long[] {30, 40, 10, 0, 0, 0, 0, 0}, RingArrays.unwrap(ring, 2, 3, new long[8]));
    }

    @Test
    void fullRingAndUnwrappedRing() {
        final int[] ring = {1, 2, 3, 4};
        assertArrayEquals(new int[] {4, 1, 2, 3, 0}, RingArrays.unwrap(ring, 3, 4, new int[5]));
        assertArrayEquals(new int[] {1, 2, 0, 0}, RingArrays.unwrap(ring, 0, 2, new int[4]));
        final boolean[] flags = {true, false};
        assertArrayEquals(new boolean[] {false, true, false}, RingArrays.unwrap(flags, 1, 2, new boolean[3]));
    }
}
