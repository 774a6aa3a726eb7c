package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccResult;

/**
 * Layout of a core's result queue (Agrona descriptor style: the core holds the
 * {@link PccResult}s, the {@code long[]} and the FIFO's head and count; this class names the
 * cells): the results waiting for delivery in stepped mode, oldest first. The emulator delivers
 * the results of all its cores in order of effective time, then completion sequence number.
 *
 * <h2>Layout: one {@link PccResult} per entry and one {@code long[]} of {@link #ROW} longs per entry</h2>
 * <pre>
 *  results  | PccResult | PccResult | ... |     (pre-allocated, copied into)
 *
 *  meta (entry pos at index pos * 4)
 *  +-----+--------------+--------+----------------------------+
 *  | QPN | effective ps | cycles | completion sequence number |
 *  +-----+--------------+--------+----------------------------+
 *     0     1              2        3
 * </pre>
 *
 * <p>Thread-safety: stateless; a queue belongs to the simulation thread.
 */
final class ResultQueue {
    /** Longs per entry in the meta array. */
    static final int ROW = 4;
    private static final int QPN = 0;
    private static final int EFFECTIVE_PS = 1;
    private static final int CYCLES = 2;
    private static final int SEQ = 3;

    private ResultQueue() {
    }

    /**
     * @param meta        queue
     * @param pos         entry
     * @param qpn         flow id
     * @param effectivePs the result's effective time, ps
     * @param cycles      cycles the event took
     * @param seq         completion sequence number (emulator-wide)
     */
    static void set(final long[] meta, final int pos, final int qpn, final long effectivePs, final long cycles,
                    final long seq) {
        final int row = pos * ROW;
        meta[row + QPN] = qpn;
        meta[row + EFFECTIVE_PS] = effectivePs;
        meta[row + CYCLES] = cycles;
        meta[row + SEQ] = seq;
    }

    /** @param meta queue @param pos entry @return its flow id */
    static int qpn(final long[] meta, final int pos) {
        return (int) meta[pos * ROW + QPN];
    }

    /** @param meta queue @param pos entry @return its effective time, ps */
    static long effectivePs(final long[] meta, final int pos) {
        return meta[pos * ROW + EFFECTIVE_PS];
    }

    /** @param meta queue @param pos entry @return its cycles */
    static long cycles(final long[] meta, final int pos) {
        return meta[pos * ROW + CYCLES];
    }

    /** @param meta queue @param pos entry @return its completion sequence number */
    static long seq(final long[] meta, final int pos) {
        return meta[pos * ROW + SEQ];
    }
}
