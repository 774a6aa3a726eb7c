package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccResult;

/**
 * Layout of a core's result queue (Agrona descriptor style: the core holds the {@code long[]} and
 * the FIFO's head and count; this class names the cells): the results waiting for delivery in
 * stepped mode, oldest first. The emulator delivers the results of all its cores in order of
 * effective time, then completion sequence number.
 *
 * <h2>Layout: one row of {@link #ROW} longs per entry, the result's fields in the row</h2>
 * <pre>
 *  meta (entry pos at index pos * 8)
 *  +-----+--------------+--------+-----+------+--------------+----------+---------------------------+
 *  | QPN | effective ps | cycles | seq | rate | window bytes | timer ns | fast start << 32 | probe |
 *  +-----+--------------+--------+-----+------+--------------+----------+---------------------------+
 *     0     1              2        3     4      5              6          7
 * </pre>
 * seq is the completion sequence number (emulator-wide); rate, window bytes, timer ns, fast-start
 * packets and the RTT-probe request (1 or 0) are the {@link PccResult}'s five fields as it holds
 * them ({@link PccResult#RATE_UNCHANGED}, {@link PccResult#WINDOW_UNCHANGED},
 * {@link PccResult#FAST_START_UNCHANGED} and timer 0 meaning unchanged / not armed). One row is
 * 64 bytes and the whole entry: the result was a {@link PccResult} object of its own per entry
 * before, one more (cold) object per event to copy through.
 *
 * <p>Thread-safety: stateless; a queue belongs to the simulation thread.
 */
final class ResultQueue {
    /** Longs per entry. */
    static final int ROW = 8;
    private static final int QPN = 0;
    private static final int EFFECTIVE_PS = 1;
    private static final int CYCLES = 2;
    private static final int SEQ = 3;
    private static final int RATE = 4;
    private static final int WINDOW_BYTES = 5;
    private static final int TIMER_NS = 6;
    private static final int FAST_START_PROBE = 7;

    private ResultQueue() {
    }

    /**
     * Writes an entry.
     *
     * @param meta        queue
     * @param pos         entry
     * @param qpn         flow id
     * @param effectivePs the result's effective time, ps
     * @param cycles      cycles the event took
     * @param seq         completion sequence number (emulator-wide)
     * @param result      the result; its fields are copied into the row, it is not kept
     */
    static void set(final long[] meta, final int pos, final int qpn, final long effectivePs, final long cycles,
                    final long seq, final PccResult result) {
        final int row = pos * ROW;
        meta[row + QPN] = qpn;
        meta[row + EFFECTIVE_PS] = effectivePs;
        meta[row + CYCLES] = cycles;
        meta[row + SEQ] = seq;
        meta[row + RATE] = result.rate();
        meta[row + WINDOW_BYTES] = result.windowBytes();
        meta[row + TIMER_NS] = result.timerNs();
        meta[row + FAST_START_PROBE] = ((long) result.fastStartPackets() << 32) | (result.rttProbeRequest() ? 1 : 0);
    }

    /**
     * Reads an entry's result back: {@code into} is reset and each field that is not "unchanged"
     * set through its setter, which gives back exactly the values {@link #set} took (they came
     * from a {@link PccResult}, so they pass its checks and its rate clamp leaves them as they are).
     *
     * @param meta queue
     * @param pos  entry
     * @param into result to fill
     */
    static void result(final long[] meta, final int pos, final PccResult into) {
        final int row = pos * ROW;
        into.reset();
        final int rate = (int) meta[row + RATE];
        if (rate != PccResult.RATE_UNCHANGED) {
            into.rate(rate);
        }
        final long window = meta[row + WINDOW_BYTES];
        if (window != PccResult.WINDOW_UNCHANGED) {
            into.windowBytes(window);
        }
        final int timerNs = (int) meta[row + TIMER_NS];
        if (timerNs > 0) {
            into.armTimerNs(timerNs);
        }
        final long fastStartProbe = meta[row + FAST_START_PROBE];
        final int fastStart = (int) (fastStartProbe >> 32);
        if (fastStart != PccResult.FAST_START_UNCHANGED) {
            into.fastStartPackets(fastStart);
        }
        if ((fastStartProbe & 1) != 0) {
            into.requestRttProbe();
        }
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
