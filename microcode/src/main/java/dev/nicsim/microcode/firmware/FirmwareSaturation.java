package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.riscv.Core;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One core of a multithreaded firmware model under a saturating load ({@code nicsim firmware
 * profile --threads N}): N hardware threads of core 0 each take their next event the cycle
 * after their last one ended, so the core is never short of work, and the threads share its
 * one issue slot per cycle and the memory hierarchy ({@link FirmwareAlgorithm}'s interleaved mode
 * on a {@link Core}).
 *
 * <p>The events are a given mix (the events a profile captured: a scenario's, a trace's or the
 * scripted flow's) replayed in order, each thread starting at its own offset in the mix
 * ({@code t x mix / N}) and handling its own copies of the flows (flow id {@code 16 x id + t}),
 * so no two threads hold the same flow and each thread's flows have their own context lines.
 * Every flow starts ({@code initFlow}) before the run, with the scripted flow's attributes
 * (100 Gb/s, MTU 1,000 B, base RTT 10 us). The first {@code warmUp} events (all threads) fill
 * the caches and are not counted; the figures cover the next {@code events}.
 *
 * <p>Thread-safety: not thread-safe.
 */
public final class FirmwareSaturation {
    private FirmwareSaturation() {
    }

    /**
     * What a saturated core did over the measured events.
     *
     * @param threads          busy hardware threads
     * @param events           events completed in the measured window
     * @param cycles           core cycles of the window
     * @param instructions     instructions the core retired in the window
     * @param clockHz          core clock
     * @param latencyCycles    each measured event's handler latency (dispatch to last instruction), sorted
     * @param profile          per-type figures and stall causes of the measured events
     */
    public record Figures(int threads, long events, long cycles, long instructions, long clockHz, long[] latencyCycles,
                          FirmwareProfile profile) {
        /** @return events per second per core */
        public double eventsPerSec() {
            return cycles == 0 ? 0 : events * (double) clockHz / cycles;
        }

        /** @return core instructions per cycle (at most 1) */
        public double ipc() {
            return cycles == 0 ? 0 : instructions / (double) cycles;
        }

        /**
         * A latency percentile (nearest rank).
         *
         * @param pct 1..100
         * @return cycles
         */
        public long latencyPercentile(final int pct) {
            if (latencyCycles.length == 0) {
                return 0;
            }
            final int i = (int) Math.ceil(pct / 100.0 * latencyCycles.length) - 1;
            return latencyCycles[Math.max(0, Math.min(latencyCycles.length - 1, i))];
        }
    }

    /**
     * Runs the saturating load.
     *
     * @param provider a provider of its own (its profile is enabled and filled here), on a model
     *                 with hardware threads ({@code bf3-dpa})
     * @param mix      event records, {@link PccEventLayout#RECORD_LENGTH} bytes each
     * @param mixCount records in the mix, at least 1
     * @param threads  busy threads, 1 to 16
     * @param warmUp   events not counted, at least 0
     * @param events   events measured, at least 1
     * @param clockHz  core clock, Hz
     * @return the figures
     * @throws IllegalArgumentException when a count is out of range or the model is not multithreaded
     */
    public static Figures run(final FirmwareProvider provider, final DirectBuffer mix, final int mixCount, final int threads,
                              final int warmUp, final int events, final long clockHz) {
        if (threads < 1 || threads > FirmwareCoreThreads.THREADS) {
            throw new IllegalArgumentException("--threads: expected 1.." + FirmwareCoreThreads.THREADS + ", got " + threads);
        }
        if (mixCount < 1 || events < 1 || warmUp < 0) {
            throw new IllegalArgumentException("no events to replay");
        }
        if (provider.model().threadsPerCore() < 2) {
            throw new IllegalArgumentException("model " + provider.model().name() + " has one hardware thread per core;"
                + " a saturating run needs a multithreaded model (bf3-dpa)");
        }
        final FirmwareProfile profile = provider.enableProfile();
        final FirmwareAlgorithm a = (FirmwareAlgorithm) provider.create(provider.defaults());
        final PccAttributes attributes = new PccAttributes().set(ScriptedFlow.LINE_RATE_BITS_PER_SEC, 0, false, ScriptedFlow.MTU_BYTES,
            ScriptedFlow.BASE_RTT_NS);
        final PccResult result = new PccResult();
        // per thread: its copy of the mix's flows
        final Map<Integer, PccContext> contexts = new HashMap<>();
        final UnsafeBuffer[] record = new UnsafeBuffer[threads];
        final PccEvent[] event = new PccEvent[threads];
        final int[] next = new int[threads];
        for (int t = 0; t < threads; t++) {
            record[t] = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
            event[t] = new PccEvent().wrap(record[t], 0);
            next[t] = (int) ((long) t * mixCount / threads);
        }
        for (int i = 0; i < mixCount; i++) {
            final int flow = mix.getInt(i * PccEventLayout.RECORD_LENGTH + PccEventLayout.FLOW_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
            for (int t = 0; t < threads; t++) {
                final int key = flowKey(flow, t);
                if (!contexts.containsKey(key)) {
                    final PccContext c = new PccContext().wrap(new UnsafeBuffer(new byte[4 * PccContext.DEFAULT_WORDS]), 0,
                        PccContext.DEFAULT_WORDS);
                    a.prepare(t, 0);
                    result.reset();
                    a.initFlow(c, 0, attributes, result);
                    contexts.put(key, c);
                }
            }
        }
        final PccContext[] running = new PccContext[threads];
        final long[] latencies = new long[events];
        int begun = 0;
        int done = 0;
        int measured = 0;
        long startCycle = -1;
        long startInstret = 0;
        for (int t = 0; t < threads && begun < warmUp + events; t++) {
            running[t] = begin(a, t, 0, mix, mixCount, next, record, event, contexts, attributes);
            begun++;
        }
        while (done < warmUp + events) {
            final int t = a.runUntil(Long.MAX_VALUE);
            if (t < 0) {
                throw new IllegalStateException("core stopped with events in flight");
            }
            result.reset();
            a.finish(t, running[t], result);
            running[t] = null;
            done++;
            if (done == warmUp) {
                profile.clearCalls();
                startCycle = a.coreCycles();
                startInstret = a.coreInstret();
            }
            if (done > warmUp) {
                latencies[measured++] = a.lastHandlerCycles();
            }
            if (begun < warmUp + events) {
                running[t] = begin(a, t, a.coreCycles(), mix, mixCount, next, record, event, contexts, attributes);
                begun++;
            }
        }
        if (startCycle < 0) {
            startCycle = 0;
        }
        Arrays.sort(latencies);
        return new Figures(threads, measured, a.coreCycles() - startCycle, a.coreInstret() - startInstret, clockHz, latencies,
            profile);
    }

    private static int flowKey(final int flow, final int thread) {
        return flow * FirmwareCoreThreads.THREADS + thread;
    }

    private static PccContext begin(final FirmwareAlgorithm a, final int t, final long cycle, final DirectBuffer mix, final int mixCount,
                                    final int[] next, final UnsafeBuffer[] record, final PccEvent[] event,
                                    final Map<Integer, PccContext> contexts, final PccAttributes attributes) {
        for (int tries = 0; ; tries++) {
            if (tries == mixCount) {
                throw new IllegalArgumentException("the firmware handles none of the mix's event types");
            }
            final int i = next[t];
            next[t] = i + 1 == mixCount ? 0 : i + 1;
            record[t].putBytes(0, mix, i * PccEventLayout.RECORD_LENGTH, PccEventLayout.RECORD_LENGTH);
            final int flow = record[t].getInt(PccEventLayout.FLOW_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int key = flowKey(flow, t);
            record[t].putInt(PccEventLayout.FLOW_ID_OFFSET, key, ByteOrder.LITTLE_ENDIAN);
            final PccContext c = contexts.get(key);
            if (a.begin(t, cycle, c, event[t], attributes)) {
                return c;
            }
            // a type the firmware disabled: nothing runs, take the next event
        }
    }
}
