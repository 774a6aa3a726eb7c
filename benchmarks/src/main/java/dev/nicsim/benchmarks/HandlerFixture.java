package dev.nicsim.benchmarks;

import dev.nicsim.microcode.firmware.ScriptedFlow;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;


/**
 * Representative (context, event) pairs for measuring one algorithm's handler per event type.
 *
 * <h2>The recorded states</h2>
 * The scripted flow ({@link ScriptedFlow}: a 100 Gb/s port, MTU 1,000 B, base RTT 10 us; TX
 * bursts of 4 packets (30 %), ACKs of up to 4 packets with one in four ECN-echoed and an echoed
 * transmit time (40 %), CNPs (8 %), RTT responses (7 %), timers (10 %) and out-of-sequence or RNR
 * NAKs (5 %), 300-1,300 ns apart) runs through the algorithm. After a warm-up of 4,000 events, the
 * flow's 48-byte context and the next event are copied into the pool of that event's type, until
 * each pool holds {@link #POOL} pairs. Every pair is a state the flow really was in, with the event
 * that came next, so the calls go through the handler's paths in the mix a run gives them (a
 * repeating sequence of 256 different states, so branches are not all predicted).
 *
 * <p>TIMER events come from the scripted flow ({@link Timers#SCRIPTED}, at random) or, for an
 * algorithm whose timer carries its deadlines (DCQCN's benchmark), when the handler armed them
 * ({@link Timers#ARMED}), as the simulator's {@code ReactionPoint} delivers them. With scripted
 * timers DCQCN's TX pool found a rate decrease due on 41 of its 256 ops and its TIMER pool on 26,
 * where a run's armed timer runs every decrease at its boundary; with armed timers no TX or CNP
 * op finds a deadline due and every TIMER op runs one (256 rate decreases in this flow), which
 * {@code HandlerFixtureTest} checks.
 *
 * <h2>What one op includes</h2>
 * {@link #runRound} runs the handler once on each of the lane's {@link #POOL} pairs in turn, and a
 * benchmark declares it as {@link #POOL} operations ({@code @OperationsPerInvocation}), so the
 * score is the time of one round divided by {@link #POOL}. One op is one handler invocation:
 * <ol>
 *   <li>{@link PccResult#reset()}, as the processor does before every handler call;</li>
 *   <li>the handler call itself, {@code algorithm.onEvent(context, event, attributes, result)}, on
 *       slot {@code i}'s working context (a flyweight wrapped over it when the fixture was built)
 *       and its recorded event: every read and write the handler makes, on the state the flow was
 *       in when that event came;</li>
 *   <li>adding the result's rate, window and timer to the round's digest (returned, so JMH
 *       consumes it and nothing is dead code);</li>
 *   <li>1/256 of the round's set-up: the restore of all 256 working contexts from their recorded
 *       copies (one 12,288-byte {@code System.arraycopy} at the start of the round, 48 bytes per
 *       op), and 1/256 of JMH's own call of the benchmark method.</li>
 * </ol>
 * So each call starts from exactly its recorded state (slot {@code i} was restored at the start of
 * the round and no other call touches it), and the handler's whole work is in the op. The fixture
 * makes no per-op copy of its own and no flyweight wrap; {@code HandlerFixtureBenchmark} measures
 * what is left of the fixture with a stand-in handler.
 *
 * <p>The handler call itself is a real call in every handler benchmark: each built-in handler
 * compiles to more machine code (DCQCN about 7,000 bytes, DCTCP 3,900, LDCP 3,000, LDCP-PCC
 * 2,800) than HotSpot inlines into a caller ({@code InlineSmallCode}, 2,500 bytes: "already
 * compiled into a big method" in {@code -XX:+PrintInlining}), so each op pays the call, the
 * inline-cache check, the handler's frame and the caller's spills around it, as the simulator's
 * processor does. The stand-in handler of {@code HandlerFixtureBenchmark} is small and inlined,
 * so its figure leaves that cost out (docs/performance.md, "Handler benchmarks").
 *
 * <p>Memory per lane: 2 x 12 KiB of contexts, 16 KiB of events and the 512 flyweights, read in
 * order. Allocation-free after construction. Thread-safety: one benchmark thread.
 */
public final class HandlerFixture {
    /** Pairs per event type. */
    public static final int POOL = 256;
    private static final int WORDS = PccContext.DEFAULT_WORDS;
    private static final int CONTEXT_BYTES = WORDS * 4;
    private static final int R = PccEventLayout.RECORD_LENGTH;

    private final PccAlgorithm algorithm;
    /** The algorithm {@link #runRound} calls: {@link #algorithm}, or a stand-in measuring the fixture alone. */
    private final PccAlgorithm measured;
    private final PccAttributes attributes = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 10_000);
    private final PccResult result = new PccResult();
    private final Lane[] lanes = new Lane[PccEventType.COUNT];

    /** One event type's pool: recorded contexts, working contexts, events, pre-wrapped flyweights. */
    private static final class Lane {
        /** The recorded contexts, {@link #POOL} x 48 bytes; never written after construction. */
        final byte[] recorded = new byte[POOL * CONTEXT_BYTES];
        /** The contexts the handler runs on, restored from {@link #recorded} once per round. */
        final byte[] working = new byte[POOL * CONTEXT_BYTES];
        final UnsafeBuffer events = new UnsafeBuffer(new byte[POOL * R]);
        final PccContext[] contexts = new PccContext[POOL];
        final PccEvent[] views = new PccEvent[POOL];

        Lane() {
            final UnsafeBuffer w = new UnsafeBuffer(working);
            for (int i = 0; i < POOL; i++) {
                contexts[i] = new PccContext().wrap(w, i * CONTEXT_BYTES, WORDS);
                views[i] = new PccEvent().wrap(events, i * R);
            }
        }
    }

    /**
     * Where the recorded flow's TIMER events come from.
     *
     * <p>Thread-safety: immutable.
     */
    public enum Timers {
        /**
         * The scripted flow's own TIMER events (10 % of its events, at random times, whether or not
         * the handler armed a timer).
         */
        SCRIPTED,
        /**
         * TIMER events as the simulator delivers them ({@code ReactionPoint}): a result with a
         * positive {@link PccResult#timerNs()} (re-)arms the flow's one-shot timer at the event's
         * time plus that delay (a later arm replaces an earlier one, a result with 0 leaves it as
         * it is); before each scripted event, a timer whose deadline is at or before the event's
         * time fires first, a TIMER event at the deadline (sequence number that of the scripted
         * event, as the NIC's TIMER carries the last PSN sent), and is recorded and run like any
         * other event. The scripted flow's own TIMER events are skipped (their time still passes),
         * since a run offers TIMER only when one was armed.
         */
        ARMED
    }

    /**
     * Builds the pools with the scripted flow's own timers ({@link Timers#SCRIPTED}).
     *
     * @param algorithmName built-in algorithm name ({@code ldcp}, {@code ldcp-pcc}, {@code dctcp}, {@code dcqcn})
     * @throws IllegalStateException if the scripted flow does not give {@link #POOL} events of every type
     *                               within 4 M events
     */
    public HandlerFixture(final String algorithmName) {
        this(algorithmName, Timers.SCRIPTED, null);
    }

    /**
     * Builds the pools.
     *
     * @param algorithmName built-in algorithm name ({@code ldcp}, {@code ldcp-pcc}, {@code dctcp}, {@code dcqcn})
     * @param timers        where TIMER events come from; with {@link Timers#ARMED} the TIMER pool fills
     *                      only if the algorithm arms timers often enough (DCQCN does; LDCP-PCC's
     *                      probe timeout is not armed in this flow)
     * @throws IllegalStateException if the flow does not give {@link #POOL} events of every type
     *                               within 4 M events
     */
    public HandlerFixture(final String algorithmName, final Timers timers) {
        this(algorithmName, timers, null);
    }

    /**
     * Builds the pools with one algorithm and measures another on them (for
     * {@code HandlerFixtureBenchmark}, which measures the fixture's own share with a handler that
     * does almost nothing).
     *
     * @param algorithmName built-in algorithm whose flow records the states
     * @param timers        where TIMER events come from
     * @param measured      the algorithm {@link #runRound} calls, or null for the recording one
     * @throws IllegalStateException if the flow does not give {@link #POOL} events of every type
     *                               within 4 M events
     */
    HandlerFixture(final String algorithmName, final Timers timers, final PccAlgorithm measured) {
        algorithm = PccAlgorithms.byName(algorithmName).create(PccAlgorithms.byName(algorithmName).defaults());
        final int[] filled = new int[PccEventType.COUNT];
        for (int t = 0; t < PccEventType.COUNT; t++) {
            lanes[t] = new Lane();
        }
        final boolean armed = timers == Timers.ARMED;
        final ScriptedFlow flow = new ScriptedFlow(algorithm);
        final PccContext slot = new PccContext();
        final PccEvent timer = new PccEvent().wrap(new UnsafeBuffer(new byte[R]), 0);
        long deadlineNs = Long.MAX_VALUE;
        for (int i = 0; i < 4_000_000 && !full(filled); i++) {
            final PccEvent e = flow.next();
            if (armed) {
                if (e.type() == PccEventType.TIMER) {
                    continue;
                }
                while (deadlineNs <= e.timestampNs()) {
                    timer.reset(PccEventType.TIMER, PccEventType.SUBTYPE_NONE, e.flowId(), e.sn(), (int) deadlineNs);
                    if (i >= 4_000) {
                        record(flow, timer, slot, filled);
                    }
                    flow.run(timer);
                    deadlineNs = flow.result.timerNs() > 0 ? (long) timer.timestampNs() + flow.result.timerNs()
                        : Long.MAX_VALUE;
                }
            }
            if (i >= 4_000) {
                record(flow, e, slot, filled);
            }
            flow.run(e);
            if (flow.result.timerNs() > 0) {
                deadlineNs = (long) e.timestampNs() + flow.result.timerNs();
            }
        }
        if (!full(filled)) {
            throw new IllegalStateException("could not fill the event pools: " + Arrays.toString(filled));
        }
        this.measured = measured != null ? measured : algorithm;
    }

    /** Copies the flow's context and the event about to run into the event type's pool, unless it is full. */
    private void record(final ScriptedFlow flow, final PccEvent e, final PccContext slot, final int[] filled) {
        final int type = e.type();
        if (filled[type] >= POOL) {
            return;
        }
        final Lane lane = lanes[type];
        slot.wrap(new UnsafeBuffer(lane.recorded), filled[type] * CONTEXT_BYTES, WORDS);
        for (int w = 0; w < WORDS; w++) {
            slot.set(w, flow.context.get(w));
        }
        lane.events.putBytes(filled[type] * R, e.buffer(), e.offset(), R);
        filled[type]++;
    }

    private static boolean full(final int[] filled) {
        for (final int f : filled) {
            if (f < POOL) {
                return false;
            }
        }
        return true;
    }

    /** @return the algorithm under test */
    public PccAlgorithm algorithm() {
        return algorithm;
    }

    /**
     * One round: the lane's {@link #POOL} working contexts restored from their recorded copies,
     * then the handler on each (context, event) pair of the type in turn (class comment: what one op
     * of the {@link #POOL} includes).
     *
     * @param type event type
     * @return the sum over the round of each result's rate plus window plus timer (consumed by JMH
     *         so nothing is dead code)
     */
    public long runRound(final int type) {
        final Lane lane = lanes[type];
        System.arraycopy(lane.recorded, 0, lane.working, 0, POOL * CONTEXT_BYTES);
        return runRoundWithoutRestore(type);
    }

    /**
     * {@link #runRound} without the round's context restore, for measuring what the restore costs
     * ({@code HandlerFixtureBenchmark}). Exact only on a lane whose handler writes no context word
     * (DCQCN on ACK, NACK, RTT_RESPONSE): otherwise each call after the first round starts from the
     * state the previous round left, not from its recorded one.
     *
     * @param type event type
     * @return the digest, as {@link #runRound}
     */
    long runRoundWithoutRestore(final int type) {
        final Lane lane = lanes[type];
        final PccContext[] contexts = lane.contexts;
        final PccEvent[] views = lane.views;
        final PccAlgorithm a = measured;
        final PccAttributes at = attributes;
        final PccResult r = result;
        long digest = 0;
        for (int i = 0; i < POOL; i++) {
            r.reset();
            a.onEvent(contexts[i], views[i], at, r);
            digest += r.rate() + r.windowBytes() + r.timerNs();
        }
        return digest;
    }
}
