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


/**
 * Representative (context, event) pairs for measuring one algorithm's handler per event type.
 *
 * <p>The scripted flow ({@link ScriptedFlow}: a 100 Gb/s port, MTU 1,000 B, base RTT 10 us; TX
 * bursts of 4 packets (30 %), ACKs of up to 4 packets with one in four ECN-echoed and an echoed
 * transmit time (40 %), CNPs (8 %), RTT responses (7 %), timers (10 %) and out-of-sequence or RNR
 * NAKs (5 %), 300-1,300 ns apart) runs through the algorithm. After a warm-up of 4,000 events, the flow's 48-byte context and
 * the next event are copied into the pool of that event's type, until each pool holds
 * {@link #POOL} pairs. A measured call restores the next pair's context (a 48-byte copy, see
 * {@code PccEventCodecBenchmark.contextRestore48}) and runs the handler on its event, so every call
 * starts from a state the flow really was in, in a repeating mix of paths.
 *
 * <p>Allocation-free after construction. Thread-safety: one benchmark thread.
 */
public final class HandlerFixture {
    /** Pairs per event type. */
    public static final int POOL = 256;
    private static final int WORDS = PccContext.DEFAULT_WORDS;
    private static final int CONTEXT_BYTES = WORDS * 4;
    private static final int R = PccEventLayout.RECORD_LENGTH;

    private final PccAlgorithm algorithm;
    /** The context the handler runs on; restored per call by an array copy (a 48-byte block copy). */
    private final byte[] contextBytes = new byte[CONTEXT_BYTES];
    private final UnsafeBuffer contextBuffer = new UnsafeBuffer(contextBytes);
    private final PccContext context = new PccContext().wrap(contextBuffer, 0, WORDS);
    private final PccAttributes attributes = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 10_000);
    private final PccResult result = new PccResult();
    private final UnsafeBuffer[] contexts = new UnsafeBuffer[PccEventType.COUNT];
    private final UnsafeBuffer[] events = new UnsafeBuffer[PccEventType.COUNT];
    private final PccEvent[] views = new PccEvent[PccEventType.COUNT];
    private final int[] next = new int[PccEventType.COUNT];

    /**
     * Builds the pools.
     *
     * @param algorithmName built-in algorithm name ({@code ldcp}, {@code ldcp-pcc}, {@code dctcp}, {@code dcqcn})
     */
    public HandlerFixture(final String algorithmName) {
        algorithm = PccAlgorithms.byName(algorithmName).create(PccAlgorithms.byName(algorithmName).defaults());
        final int[] filled = new int[PccEventType.COUNT];
        for (int t = 0; t < PccEventType.COUNT; t++) {
            contexts[t] = new UnsafeBuffer(new byte[POOL * CONTEXT_BYTES]);
            events[t] = new UnsafeBuffer(new byte[POOL * R]);
            views[t] = new PccEvent();
        }
        final ScriptedFlow flow = new ScriptedFlow(algorithm);
        final PccContext slot = new PccContext();
        for (int i = 0; i < 4_000_000 && !full(filled); i++) {
            final PccEvent e = flow.next();
            final int type = e.type();
            if (i >= 4_000 && filled[type] < POOL) {
                slot.wrap(contexts[type], filled[type] * CONTEXT_BYTES, WORDS);
                for (int w = 0; w < WORDS; w++) {
                    slot.set(w, flow.context.get(w));
                }
                events[type].putBytes(filled[type] * R, e.buffer(), e.offset(), R);
                filled[type]++;
            }
            flow.run(e);
        }
        if (!full(filled)) {
            throw new IllegalStateException("could not fill the event pools: " + java.util.Arrays.toString(filled));
        }
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
     * Restores the next pooled context of the type and runs the handler on its event.
     *
     * @param type event type
     * @return the result's rate plus its window (consumed by JMH so nothing is dead code)
     */
    public long run(final int type) {
        final int i = next[type];
        next[type] = (i + 1) & (POOL - 1);
        System.arraycopy(contexts[type].byteArray(), i * CONTEXT_BYTES, contextBytes, 0, CONTEXT_BYTES);
        final PccEvent e = views[type].wrap(events[type], i * R);
        result.reset();
        algorithm.onEvent(context, e, attributes, result);
        return result.rate() + result.windowBytes() + result.timerNs();
    }
}
