package dev.nicsim.traces;

import dev.nicsim.pcc.PccEventLayout;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The deriver's reorder ring: a TX_BURST closed late goes after every held entry of its packet
 * sequence number or lower and before the later ones, with its record slot, time, flow and stream
 * moving as one; growth past the initial 256 slots keeps the order of a ring whose head has wrapped.
 * Expected orders are written out by hand from the insertion rule.
 */
class EventRingTest {
    private static final int REC = PccEventLayout.RECORD_LENGTH;

    /** Marks an entry's record slot with its label so moves of the bytes can be followed. */
    private static void mark(final EventRing r, final int i, final int label) {
        r.records().putInt(i * REC, label, ByteOrder.LITTLE_ENDIAN);
    }

    /** Takes the head entry and returns its label, checking time, flow and stream travelled with it. */
    private static int take(final EventRing r) {
        final int i = r.head();
        final int label = r.records().getInt(i * REC, ByteOrder.LITTLE_ENDIAN);
        assertEquals(label * 10L, r.timePs(i), "time of entry " + label);
        assertEquals(label + 1, r.flow(i), "flow of entry " + label);
        assertEquals(label + 2, r.half(i), "stream of entry " + label);
        r.removeHead();
        return label;
    }

    private static void append(final EventRing r, final long seq, final int label) {
        mark(r, r.append(label * 10L, seq, label + 1, label + 2), label);
    }

    @Test
    void insertAfterSeqGoesAfterEqualAndLowerSequenceNumbers() {
        final EventRing r = new EventRing();
        append(r, 1, 1);
        append(r, 2, 2);
        append(r, 2, 3);
        append(r, 5, 4);
        // a burst whose last packet was packet 2: after entries 1, 2, 3 (seq <= 2), before 4 (seq 5)
        mark(r, r.insertAfterSeq(2, 50, 6, 7), 5);
        // one whose last packet precedes everything held goes first
        mark(r, r.insertAfterSeq(0, 60, 7, 8), 6);
        assertEquals(6, r.count());
        final int[] expected = {6, 1, 2, 3, 5, 4};
        for (final int label : expected) {
            assertEquals(label, take(r));
        }
        assertEquals(0, r.count());
    }

    @Test
    void growingAWrappedRingKeepsItsOrder() {
        final EventRing r = new EventRing();
        // move the head 200 slots on, so the 256-slot ring wraps before it fills
        for (int j = 1; j <= 200; j++) {
            append(r, j, j);
        }
        for (int j = 1; j <= 200; j++) {
            assertEquals(j, take(r));
        }
        for (int j = 1; j <= 600; j++) { // 256 -> 512 -> 1024 slots
            append(r, 1000 + j, j);
        }
        mark(r, r.insertAfterSeq(1300, 7010, 702, 703), 701); // after entry 300
        assertEquals(601, r.count());
        for (int j = 1; j <= 300; j++) {
            assertEquals(j, take(r));
        }
        assertEquals(701, take(r));
        for (int j = 301; j <= 600; j++) {
            assertEquals(j, take(r));
        }
    }
}
