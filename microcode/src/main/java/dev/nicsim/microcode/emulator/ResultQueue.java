package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccResult;

/**
 * A core's results waiting for delivery (stepped mode), oldest first. The emulator delivers the
 * results of all its cores in order of effective time, then completion sequence number. Circular;
 * grows by doubling beyond its peak (allocating then only); an emptied queue restarts at entry 0.
 *
 * <h2>Layout: one {@link PccResult} per entry and one {@code long[]} of {@link #ROW} longs per entry</h2>
 * <pre>
 *  results  | PccResult | PccResult | ... |     (pre-allocated, copied into)
 *
 *  meta (entry pos at index pos * 4)
 *  +----------+------------------+----------+------------------------------+
 *  | QPN      | effective ps     | cycles   | completion sequence number   |
 *  +----------+------------------+----------+------------------------------+
 *     0          1                  2          3
 * </pre>
 *
 * <p>Thread-safety: not thread-safe; used by the simulation thread only.
 */
final class ResultQueue {
    /** Longs per entry in the meta array. */
    static final int ROW = 4;
    private static final int QPN = 0;
    private static final int EFFECTIVE_PS = 1;
    private static final int CYCLES = 2;
    private static final int SEQ = 3;

    private PccResult[] results = new PccResult[0];
    private long[] meta = new long[0];
    private int head;
    private int count;
    /** Effective time of the result last taken by {@link #pop}, ps. */
    long poppedEffectivePs;
    /** Cycles of the result last taken by {@link #pop}. */
    long poppedCycles;

    /** @param capacity initial entries, positive */
    ResultQueue(final int capacity) {
        grow(capacity);
    }

    /** @return results waiting for delivery */
    int count() {
        return count;
    }

    /**
     * Appends a result.
     *
     * @param qpn         flow id
     * @param result      the result; copied
     * @param effectivePs its effective time, ps
     * @param cycles      cycles the event took
     * @param seq         completion sequence number (emulator-wide)
     */
    void push(final int qpn, final PccResult result, final long effectivePs, final long cycles, final long seq) {
        if (count == results.length) {
            grow(results.length * 2);
        }
        int pos = head + count;
        if (pos >= results.length) {
            pos -= results.length;
        }
        results[pos].copyFrom(result);
        final int row = pos * ROW;
        meta[row + QPN] = qpn;
        meta[row + EFFECTIVE_PS] = effectivePs;
        meta[row + CYCLES] = cycles;
        meta[row + SEQ] = seq;
        count++;
    }

    private void grow(final int n) {
        final PccResult[] r = new PccResult[n];
        final long[] m = new long[n * ROW];
        for (int i = 0; i < count; i++) {
            int from = head + i;
            if (from >= results.length) {
                from -= results.length;
            }
            r[i] = results[from];
            System.arraycopy(meta, from * ROW, m, i * ROW, ROW);
        }
        for (int i = count; i < n; i++) {
            r[i] = new PccResult();
        }
        results = r;
        meta = m;
        head = 0;
    }

    /** @return effective time of the oldest result, ps (call only when {@link #count()} > 0) */
    long headEffectivePs() {
        return meta[head * ROW + EFFECTIVE_PS];
    }

    /** @return sequence number of the oldest result */
    long headSeq() {
        return meta[head * ROW + SEQ];
    }

    /**
     * Takes the oldest result; its effective time and cycles are left in
     * {@link #poppedEffectivePs} and {@link #poppedCycles}.
     *
     * @param into result to copy it into
     * @return its QPN
     */
    int pop(final PccResult into) {
        final int pos = head;
        into.copyFrom(results[pos]);
        final int row = pos * ROW;
        poppedEffectivePs = meta[row + EFFECTIVE_PS];
        poppedCycles = meta[row + CYCLES];
        count--;
        // an emptied queue restarts at its first entry (cache-friendly, as the pending table)
        head = count == 0 || head + 1 == results.length ? 0 : head + 1;
        return (int) meta[row + QPN];
    }
}
