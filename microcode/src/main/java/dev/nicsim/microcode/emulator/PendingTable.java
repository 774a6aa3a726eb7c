package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventLayout;

/**
 * Layout of a core's pending-event table (Agrona descriptor style: the core holds the record
 * buffer, the {@code long[]} and the FIFO's head and count; this class names the cells): the FIFO
 * of events taken off the core's ring and waiting for a hardware thread, where coalescing happens
 * (at most one waiting event per flow and type when coalescing is on; {@link FlowTable#waiting}
 * points into it). Circular, {@code ringCapacity} entries.
 *
 * <h2>Layout: a record buffer and one {@code long[]} of {@link #ROW} longs per entry</h2>
 * <pre>
 *  records (entry pos at byte pos * 64)
 *   0                                                              63
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes, as on the ring)  |
 *  +----------------------------------------------------------------+
 *
 *  meta (entry pos at index pos * 2)
 *  +---------------------------+-----------------------------------------+
 *  | arrival time, ps (int64)  | flow slot (hi 32) | generation (lo 32)  |
 *  +---------------------------+-----------------------------------------+
 *     0                           1
 * </pre>
 * The slot's generation at arrival lets the consumer see that the flow ended (and the slot may
 * have been reused) while the event waited.
 *
 * <p>Thread-safety: stateless; a table belongs to its core's consumer thread.
 */
final class PendingTable {
    /** Longs per entry in the meta array. */
    static final int ROW = 2;
    private static final int R = PccEventLayout.RECORD_LENGTH;
    private static final int ARRIVAL = 0;
    private static final int SLOT_GENERATION = 1;

    private PendingTable() {
    }

    /**
     * Packs a flow slot and its generation into one long.
     *
     * @param slot       flow slot, non-negative
     * @param generation the slot's generation ({@link FlowTable#generation})
     * @return {@code slot << 32 | generation}
     */
    static long slotGeneration(final int slot, final int generation) {
        return ((long) slot << 32) | (generation & 0xFFFF_FFFFL);
    }

    /** @param slotGeneration a packed value @return its slot */
    static int slotOf(final long slotGeneration) {
        return (int) (slotGeneration >>> 32);
    }

    /** @param slotGeneration a packed value @return its generation */
    static int generationOf(final long slotGeneration) {
        return (int) slotGeneration;
    }

    /** @param pos entry @return byte offset of its record in the record buffer */
    static int recordOffset(final int pos) {
        return pos * R;
    }

    /** @param meta table @param pos entry @return its arrival time, ps */
    static long arrivalPs(final long[] meta, final int pos) {
        return meta[pos * ROW + ARRIVAL];
    }

    /** @param meta table @param pos entry @return its packed flow slot and generation */
    static long slotGeneration(final long[] meta, final int pos) {
        return meta[pos * ROW + SLOT_GENERATION];
    }

    /**
     * @param meta           table
     * @param pos            entry
     * @param arrivalPs      the event's arrival time, ps
     * @param slotGeneration its packed flow slot and generation
     */
    static void set(final long[] meta, final int pos, final long arrivalPs, final long slotGeneration) {
        meta[pos * ROW + ARRIVAL] = arrivalPs;
        meta[pos * ROW + SLOT_GENERATION] = slotGeneration;
    }
}
