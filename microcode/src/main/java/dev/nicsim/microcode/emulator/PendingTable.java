package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventLayout;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A core's pending-event table: the FIFO of events taken off its ring and waiting for a hardware
 * thread, where coalescing happens (at most one waiting event per flow and type when coalescing is
 * on; {@link FlowTable#waiting} points into this table). Circular, {@code ringCapacity} entries;
 * an emptied table restarts at entry 0, so a core with an event or two waiting reuses the same few
 * cache-warm entries.
 *
 * <h2>Layout: the records and one {@code long[]} of {@link #ROW} longs per entry</h2>
 * <pre>
 *  records (entry pos at byte pos * 64)
 *   0                                                              63
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes, as on the ring)  |
 *  +----------------------------------------------------------------+
 *
 *  meta (entry pos at index pos * 2)
 *  +--------------------------------+--------------------------------+
 *  | arrival time, ps (int64)       | flow slot (hi 32) | generation (lo 32) |
 *  +--------------------------------+--------------------------------+
 *     0                                1
 * </pre>
 * The slot's generation at arrival lets a consumer see that the flow ended (and the slot may have
 * been reused) while the event waited.
 *
 * <p>Thread-safety: not thread-safe; used by the core's consumer thread only.
 */
final class PendingTable {
    /** Longs per entry in the meta array. */
    static final int ROW = 2;
    private static final int R = PccEventLayout.RECORD_LENGTH;
    private static final int ARRIVAL = 0;
    private static final int SLOT_GENERATION = 1;

    private final int capacity;
    private UnsafeBuffer records;
    private long[] meta;
    private int head;
    private int count;

    /**
     * Creates an unallocated table ({@link #allocate} before use).
     *
     * @param capacity entries, the core's {@code ringCapacity}
     */
    PendingTable(final int capacity) {
        this.capacity = capacity;
    }

    /** Allocates the arrays (on first use: a NIC's flows usually occupy few of its cores). */
    void allocate() {
        records = new UnsafeBuffer(new byte[capacity * R]);
        meta = new long[capacity * ROW];
    }

    /**
     * Packs a flow slot and its generation into one long.
     *
     * @param slot       flow slot, non-negative
     * @param generation the slot's generation
     * @return {@code slot << 32 | generation}
     */
    static long slotGeneration(final int slot, final int generation) {
        return ((long) slot << 32) | (generation & 0xFFFF_FFFFL);
    }

    /** @param slotGeneration a packed value @return its slot */
    static int slotOf(final long slotGeneration) {
        return (int) (slotGeneration >>> 32);
    }

    /** @return events waiting */
    int count() {
        return count;
    }

    /** @return position of the oldest waiting event (valid when {@link #count()} > 0) */
    int head() {
        return head;
    }

    /** @param pos entry @return its arrival time, ps */
    long arrivalPs(final int pos) {
        return meta[pos * ROW + ARRIVAL];
    }

    /** @param pos entry @return its packed flow slot and generation ({@link #slotGeneration}) */
    long slotGeneration(final int pos) {
        return meta[pos * ROW + SLOT_GENERATION];
    }

    /** @return the records buffer; entry pos starts at {@link #recordOffset}(pos) */
    UnsafeBuffer records() {
        return records;
    }

    /** @param pos entry @return byte offset of its record */
    static int recordOffset(final int pos) {
        return pos * R;
    }

    /**
     * Appends an event at the tail (the caller checked there is room).
     *
     * @param src            buffer holding the 64-byte record
     * @param offset         the record's offset in {@code src}
     * @param arrivalPs      arrival time, ps
     * @param slotGeneration packed flow slot and generation
     * @return the entry's position
     */
    int append(final DirectBuffer src, final int offset, final long arrivalPs, final long slotGeneration) {
        int pos = head + count;
        if (pos >= capacity) {
            pos -= capacity;
        }
        records.putBytes(pos * R, src, offset, R);
        meta[pos * ROW + ARRIVAL] = arrivalPs;
        meta[pos * ROW + SLOT_GENERATION] = slotGeneration;
        count++;
        return pos;
    }

    /**
     * Takes the head off; its entry keeps its contents until a later append reuses it. When that
     * empties the table, the next event goes to entry 0 again rather than on round the table. No
     * merge index points into an empty table, so where the table restarts is not observable.
     */
    void removeHead() {
        count--;
        head = count == 0 || head + 1 == capacity ? 0 : head + 1;
    }
}
