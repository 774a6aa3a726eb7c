package dev.nicsim.traces;

import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.sim.RingArrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The reorder ring of {@link PccEventDeriver}: PCC event records ({@link PccEventLayout}, one
 * {@link PccEventLayout#RECORD_LENGTH}-byte slot each) held until they can leave in time order,
 * each with its time, the packet sequence number it belongs after, and the flow (or, while the flow
 * is not known yet, the request stream) it is for. Entries are appended at the tail, or inserted
 * after every entry of a lower or equal sequence number (a TX_BURST closed after later packets were
 * seen); they leave from the head.
 *
 * <p>Allocation: none while the peak number of held entries is not exceeded; the ring doubles when
 * it is. Thread-safety: not thread-safe; owned by one deriver.
 */
final class EventRing {
    private static final int REC = PccEventLayout.RECORD_LENGTH;

    private int cap = 256;
    private UnsafeBuffer records = new UnsafeBuffer(new byte[cap * REC]);
    private long[] timePs = new long[cap];
    private long[] seq = new long[cap];
    private int[] flow = new int[cap];
    private int[] half = new int[cap];
    private int head;
    private int count;

    /** @return the record slots; replaced by a larger buffer when the ring grows, so wrap it anew after each add */
    UnsafeBuffer records() {
        return records;
    }

    /** @return entries held */
    int count() {
        return count;
    }

    /** @return ring index of the oldest entry (meaningful when {@link #count()} is positive) */
    int head() {
        return head;
    }

    /** @return time of the entry at ring index i, ps */
    long timePs(final int i) {
        return timePs[i];
    }

    /** @return packet sequence number of the entry at ring index i */
    long seq(final int i) {
        return seq[i];
    }

    /** @return flow of the entry at ring index i, or -1 while only its request stream is known */
    int flow(final int i) {
        return flow[i];
    }

    /** @return request stream of the entry at ring index i (-1 for events named by flow) */
    int half(final int i) {
        return half[i];
    }

    /** Drops the oldest entry. */
    void removeHead() {
        head = (head + 1) & (cap - 1);
        count--;
    }

    /**
     * Appends an entry at the tail.
     *
     * @param t time, ps
     * @param s packet sequence number
     * @param f flow, or -1
     * @param h request stream, or -1
     * @return its ring index (its record slot starts at index x {@link PccEventLayout#RECORD_LENGTH})
     */
    int append(final long t, final long s, final int f, final int h) {
        if (count == cap) {
            grow();
        }
        final int i = (head + count) & (cap - 1);
        count++;
        timePs[i] = t;
        seq[i] = s;
        flow[i] = f;
        half[i] = h;
        return i;
    }

    /**
     * Inserts an entry after every entry with sequence number &lt;= s.
     *
     * @param s packet sequence number
     * @param t time, ps
     * @param f flow, or -1
     * @param h request stream, or -1
     * @return its ring index
     */
    int insertAfterSeq(final long s, final long t, final int f, final int h) {
        if (count == cap) {
            grow();
        }
        final int mask = cap - 1;
        int pos = count; // relative position to insert at
        while (pos > 0 && seq[(head + pos - 1) & mask] > s) {
            pos--;
        }
        for (int j = count; j > pos; j--) {
            final int to = (head + j) & mask;
            final int from = (head + j - 1) & mask;
            records.putBytes(to * REC, records, from * REC, REC);
            timePs[to] = timePs[from];
            seq[to] = seq[from];
            flow[to] = flow[from];
            half[to] = half[from];
        }
        count++;
        final int i = (head + pos) & mask;
        timePs[i] = t;
        seq[i] = s;
        flow[i] = f;
        half[i] = h;
        return i;
    }

    private void grow() {
        final int bigger = cap * 2;
        final UnsafeBuffer rec = new UnsafeBuffer(new byte[bigger * REC]);
        for (int j = 0; j < count; j++) {
            rec.putBytes(j * REC, records, ((head + j) & (cap - 1)) * REC, REC);
        }
        records = rec;
        timePs = RingArrays.unwrap(timePs, head, count, new long[bigger]);
        seq = RingArrays.unwrap(seq, head, count, new long[bigger]);
        flow = RingArrays.unwrap(flow, head, count, new int[bigger]);
        half = RingArrays.unwrap(half, head, count, new int[bigger]);
        head = 0;
        cap = bigger;
    }
}
