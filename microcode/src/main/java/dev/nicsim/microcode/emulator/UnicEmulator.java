package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.microcode.MeasuredPccAlgorithm;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.ObjLongConsumer;
import java.util.function.Supplier;

/**
 * The many-core uNIC congestion-control processor (docs/architecture.md "The uNIC emulator"; the
 * DOCA PCC device model: per-type drop counts, 16 cores x 16 hardware threads): cores x
 * hardware threads at a clock, event rings, QPs owned by cores, coalescing, overload
 * drops and cycle-approximate timing, so that an algorithm's results take effect in simulated time
 * only when a NIC of that size could have computed them.
 *
 * <h2>QP ownership</h2>
 * A QP belongs to core {@link #coreOf(int)}: {@code h = (qpn & 0xFFFFFF) x 0x9E3779B1 mod 2^32}
 * (Fibonacci hashing, so consecutive or strided QPNs spread evenly), {@code core = (h x cores) >>> 32}.
 * All of a QP's events, its context words (in that core's off-heap
 * {@link FlowContextStore}) and its context-cache line live on that core, so
 * per-QP state is never shared between cores and needs no lock or atomic. Each core runs its own
 * algorithm instance (made by the factory), so even the algorithm's counters are core-private;
 * {@link #forEachCounter} sums them.
 *
 * <h2>Cores exist once used</h2>
 * A core (its algorithm instance, tables, context store, timing) is made by the first
 * {@link #startFlow} or {@link #offer} that hashes to it ({@link #coresCreated()} tells how many
 * exist): in a fabric a NIC's few flows occupy one or two of its cores, and thousands of idle
 * cores per fabric would otherwise hold their tables for nothing. A core that never ran counts
 * zeros, under the same names, so the counters are those of an eager build. The supplier is asked
 * once at construction (that instance is core 0's, validates the handler estimates and names the
 * algorithm's counters), then once per further core as each is made; an algorithm that measures
 * its own handlers ({@link MeasuredPccAlgorithm}, firmware) gets all its cores at construction in
 * core order, because a NIC's firmware instances share one memory image and are numbered by the
 * order the supplier makes them. Independent instances ({@code () -> provider.create(values)})
 * behave the same whichever order they are made in, so results equal an eager build's.
 *
 * <h2>Event path and coalescing</h2>
 * An offered event (the 64-byte PCC record, {@link PccEventLayout}, and its arrival time) enters
 * the owning core's core-local <em>pending-event table</em>, a FIFO of waiting events with an
 * index from (flow slot, event type) to the waiting entry. An event whose (flow, type) already has
 * an entry waiting is merged into it there ({@link PccEvent#coalesce}: first timestamp and first
 * sequence number kept, timestamp and sequence number of the latest, flags OR-ed, number
 * coalesced and TX bytes and packets added) and frees its place at once; otherwise it gets a new
 * entry. No scan: one array look-up per event. An entry stops taking merges when a hardware thread
 * takes it. Free-running, the record travels to the core's agent thread on the core's own Agrona
 * {@link org.agrona.concurrent.ringbuffer.OneToOneRingBuffer} (one producer and one consumer
 * thread, no object per event) and the agent merges it into the pending table as it takes it off:
 * merging at the consumer side keeps the ring an ordinary single-producer ring (a committed record
 * is never modified while another thread may read it). Stepped, producer and consumer are the one
 * simulation thread and a record would be taken off the ring as soon as it was put on, so
 * {@link #offer} writes the pending table directly, with the same capacity check, merge and
 * counts, without the ring's round trip (its trailer and record lines are cold at most events in
 * a fabric). A ring is off-heap, {@code ringCapacity} x 80 bytes rounded up
 * to a power of two, made when the emulator first runs free; a core's pending table is allocated
 * when its first flow starts or event arrives, with room for 8 events (64 bytes each), and doubles
 * when full up to {@code ringCapacity} events, as a core usually has an event or two waiting.
 *
 * <h2>Overload</h2>
 * A core's queue (records on the ring plus pending entries) holds at most
 * {@link EmulatorConfig#ringCapacity()} events; an event offered to a full queue is dropped,
 * {@link #offer} returns false and {@code <type>_events_dropped} counts it (as the queue merges at
 * its consumer end, a full queue drops even an event that would have merged). When a thread takes
 * an event while more than {@link EmulatorConfig#effectiveOverloadHighWaterMark()} others still
 * wait on that core, the algorithm sees {@link PccAttributes#overloaded()} true.
 *
 * <h2>Timing (stepped mode)</h2>
 * Handling an event costs dispatch D + context fetch + handler C(type) + write-back W cycles. The
 * fetch is looked up, when the event is dispatched, in the core's LRU context cache of
 * {@link EmulatorConfig#contextCacheEntries()} flows (a flow's context is cached when it starts):
 * a hit costs H cycles on the core; a miss costs M cycles of latency during which the thread
 * waits and the core is free. A core issues from one ready thread at a time, without pre-emption:
 * an event that hits runs one stretch of D + H + C + W cycles; one that misses runs D, waits M,
 * then runs C + W. Ready stretches start in the order they became ready. The head of the pending
 * table is dispatched when a thread is free and its flow has no event in flight on the core (a
 * flow's context is locked from dispatch to write-back, so a flow's events run one at a time and
 * in order; an event behind a blocked head waits too). The event completes, its handler runs and
 * its result takes effect (effectivePs) at the end of its last stretch. A stretch of n cycles lasts
 * {@code ceil(n x 10^12 / clockHz)} ps. Example (1 GHz, D = 8, H = 4, M = 120, W = 8, handler 80):
 * an ACK arriving at 1,000,000 ps at an idle core whose cache holds its flow completes at
 * 1,000,000 + 100 x 1,000 = 1,100,000 ps with 100 cycles; if its context misses it holds the
 * core 8 cycles, waits 120, holds it 88 more and completes after 216 cycles at 1,216,000 ps,
 * while a second thread may use the 120 cycles of the wait. More threads hide misses until the
 * core's issue rate, one event per D + C + W busy cycles, is reached.
 *
 * <h2>Driving it</h2>
 * <ul>
 *   <li><b>Stepped</b> (deterministic, no threads; the simulation): {@link #offer} brings the
 *       owning core to the arrival time and enqueues; {@link #advance(long)} runs every core to
 *       {@code nowPs}, then delivers the results completed by then to the {@link CcResultSink} in
 *       order of (effective time, completion order), and returns the earliest time a core has
 *       something to do (a stretch ending, a miss returning, an event to dispatch). The sink may
 *       re-enter {@link #offer} and {@link #advance} (the NIC does): a nested advance runs the cores
 *       and queues results that the outer delivery loop then delivers. {@link #startFlow} delivers
 *       the flow's initial result at once with 0 cycles (flow set-up is the control path).</li>
 *   <li><b>Free-running</b> ({@link #startFreeRunning}): the same cores on Agrona
 *       {@link AgentRunner} threads, one per group of cores, to measure how many events per second
 *       the emulator sustains. Producers call {@link #offer} from other threads (at most one
 *       producer thread per core's ring at a time); each core drains its ring into its pending
 *       table and handles everything waiting at once, delivering each result from its agent thread
 *       with effectivePs = the arrival time the producer gave and the event's modelled cycles. No
 *       simulated time, so no latency is recorded. Start flows before and stop
 *       ({@link #stopFreeRunning}) before stepping again.</li>
 * </ul>
 *
 * <h2>Counters ({@link #forEachCounter}, in this order)</h2>
 * For type in tx, ack, nack, cnp, rtt, timer: {@code <type>_events_handled},
 * {@code <type>_events_coalesced}, {@code <type>_events_dropped}; {@code events_accepted},
 * {@code events_for_unknown_flow}, {@code context_cache_hits}, {@code context_cache_misses},
 * {@code busy_cycles} (cycles cores held their issue slot), {@code elapsed_cycles} (latest time
 * seen, in cycles), {@code utilisation_ppm} (busy / (cores x elapsed), parts per million),
 * {@code ring_high_water_events} (most events a core's queue held), {@code latency_samples},
 * {@code latency_p50_ns}, {@code latency_p99_ns}, {@code latency_max_ns},
 * {@code latency_p50_cycles}, {@code latency_p99_cycles}, {@code latency_max_cycles} (arrival of
 * the first merged event to result, HdrHistogram with 2 significant digits: exact below 256,
 * within 1 % above); then per core i {@code core<i>_events_handled}, {@code core<i>_events_coalesced},
 * {@code core<i>_events_dropped}, {@code core<i>_busy_cycles}, {@code core<i>_utilisation_ppm},
 * {@code core<i>_ring_high_water_events}; then the algorithm's counters summed over the cores.
 *
 * <p>Allocation-free per event in steady state (arrays grow only when flows or queued results
 * outgrow them). Thread-safety: stepped, one driving thread; free-running as described above.
 */
public final class UnicEmulator implements CcProcessor, AutoCloseable {
    /** Largest value the latency histograms track (ns or cycles); larger values are clamped. */
    public static final long LATENCY_HIGHEST = 1_000_000_000_000L;
    private final EmulatorConfig config;
    /** Cores by index; null until first used ({@link #core}). */
    private final EmulatorCore[] cores;
    private final Supplier<? extends PccAlgorithm> algorithms;
    private final int algorithmSlot;
    /** The supplier's first instance: core 0's algorithm once core 0 exists; names the algorithm counters. */
    private final PccAlgorithm firstAlgorithm;
    /** The stage timings of {@link #firstAlgorithm}, which the cores share when theirs are equal. */
    private final long[] firstCosts;
    private int created;
    private final CcResultSink sink;
    private final long clockHz;
    private final PccResult deliveryResult = new PccResult();
    private final LatencyLog latency;
    private final EmulatorCounters counters;
    private long seq;
    private final CoreScratch steppedScratch = new CoreScratch();
    private final PccResult startResult = new PccResult();
    private long elapsedPs;
    private boolean delivering;
    /**
     * Stepped mode: the cores that may have work or results (indices, unordered), so advance and
     * delivery touch only those, not every core of every NIC. A core joins when an event is offered
     * to it and leaves when it is idle with no result waiting.
     */
    private final int[] activeCores;
    private final boolean[] coreActive;
    private int activeCount;
    private volatile boolean freeRunning;
    private AgentRunner[] runners;
    private volatile Throwable agentError;

    /**
     * Creates an emulator in stepped mode.
     *
     * @param config        configuration; validated and copied
     * @param algorithms    makes one algorithm instance per core (e.g.
     *                      {@code () -> provider.create(values)}); called once here, then once as
     *                      each further core is first used (all {@code cores} times here for an
     *                      algorithm that measures its handlers: see the class comment)
     * @param algorithmSlot slot number the algorithm sees in its attributes, 0..15
     * @param sink          receiver of results (the NIC)
     * @throws IllegalArgumentException if the configuration is invalid (naming the field), the slot
     *                                  is out of range or an algorithm's handler estimate is outside
     *                                  0..{@link EmulatorConfig#MAX_STAGE_CYCLES}
     */
    public UnicEmulator(final EmulatorConfig config, final Supplier<? extends PccAlgorithm> algorithms,
                        final int algorithmSlot, final CcResultSink sink) {
        if (algorithmSlot < 0 || algorithmSlot > 15) {
            throw new IllegalArgumentException("algorithmSlot must be in 0..15, got " + algorithmSlot);
        }
        this.config = config.copy().validate();
        this.sink = sink;
        this.clockHz = this.config.clockHz();
        final int n = this.config.cores();
        cores = new EmulatorCore[n];
        activeCores = new int[cores.length];
        coreActive = new boolean[cores.length];
        latency = new LatencyLog(clockHz);
        this.algorithms = algorithms;
        this.algorithmSlot = algorithmSlot;
        firstAlgorithm = algorithms.get();
        firstCosts = CostTable.create(this.config, firstAlgorithm); // checks the handler estimates now
        if (firstAlgorithm instanceof MeasuredPccAlgorithm) {
            for (int i = 0; i < n; i++) {
                core(i); // firmware: instance i is core i's, in one shared memory image
            }
        }
        counters = new EmulatorCounters(cores, firstAlgorithm);
    }

    /** @return number of emulated cores */
    public int cores() {
        return cores.length;
    }

    /** @return how many cores exist: made by a first event or flow, or all for firmware (see the class comment) */
    public int coresCreated() {
        return created;
    }

    /** @param i core index @return core i, made now (asking the supplier for its algorithm) if this is its first use */
    private EmulatorCore core(final int i) {
        final EmulatorCore c = cores[i];
        return c != null ? c : createCore(i);
    }

    private EmulatorCore createCore(final int i) {
        final PccAlgorithm algorithm = i == 0 ? firstAlgorithm : algorithms.get();
        final EmulatorCore c = new EmulatorCore(i, this, config, algorithm, algorithmSlot, firstCosts);
        cores[i] = c;
        created++;
        return c;
    }

    /**
     * The core that owns a QP (see the class comment for the hash).
     *
     * @param qpn QPN; the low 24 bits are used
     * @return core index, {@code 0 .. cores-1}
     */
    public int coreOf(final int qpn) {
        final long h = ((qpn & PccEventLayout.MASK_24) * 0x9E3779B1) & 0xFFFF_FFFFL;
        return (int) ((h * cores.length) >>> 32);
    }

    /**
     * The algorithm instance of one core (for inspection; do not drive it). Makes the core if it
     * was never used (which changes no figure: it counts zeros).
     *
     * @param core core index
     * @return that core's algorithm
     */
    public PccAlgorithm algorithm(final int core) {
        return core(core).algorithm;
    }

    // ------------------------------------------------------------------------------------------
    // CcProcessor

    /**
     * Starts a flow on its core: context zeroed and cached, the algorithm's {@code initFlow} run,
     * and its result delivered to the sink at once with effective time {@code nowPs} and 0 cycles.
     *
     * @throws IllegalStateException if the flow is already running or the emulator is free-running
     */
    @Override
    public void startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                          final int baseRttNs, final int initialPsn) {
        checkStepped("startFlow");
        if ((initialPsn & ~PccEventLayout.MASK_24) != 0) {
            throw new IllegalArgumentException("initialPsn: expected 0..16777215, got " + initialPsn);
        }
        observe(nowPs);
        final int q = qpn & PccEventLayout.MASK_24;
        final EmulatorCore core = core(coreOf(q));
        core.runUntil(nowPs);
        startResult.copyFrom(core.startFlow(q, nowPs, lineRateBitsPerSec, mtuBytes, baseRttNs, initialPsn));
        sink.onResult(q, startResult, nowPs, 0); // a copy: the sink may step cores, which reuse the shared result
    }

    /**
     * Ends a flow: frees its context; its events still waiting or running are discarded when a
     * thread takes them or completes them and counted as {@code events_for_unknown_flow}.
     *
     * @throws IllegalStateException if the emulator is free-running
     */
    @Override
    public void endFlow(final int qpn) {
        checkStepped("endFlow");
        final EmulatorCore core = cores[coreOf(qpn & PccEventLayout.MASK_24)];
        if (core != null) { // a core never used runs no flow
            core.endFlow(qpn & PccEventLayout.MASK_24);
        }
    }

    /**
     * Offers an event to its QP's core. Stepped: the core is first brought to {@code nowPs}, then the
     * event goes into its pending table (merging if it can). Free-running:
     * the event goes onto the ring for the core's agent thread.
     *
     * @param event event record; its flow id is the QPN; copied, the caller may reuse it at once
     * @param nowPs arrival time, ps (non-decreasing when stepped)
     * @return true if accepted (queued or merged), false if the core's queue was full (dropped and
     *         counted as {@code <type>_events_dropped})
     * @throws IllegalArgumentException if the event type is not a {@link PccEventType} code
     */
    @Override
    public boolean offer(final PccEvent event, final long nowPs) {
        final int type = event.type();
        if (type >= PccEventType.COUNT) {
            throw new IllegalArgumentException("PCC event type " + type + " is not in 0.." + (PccEventType.COUNT - 1));
        }
        if (freeRunning) {
            return cores[coreOf(event.flowId())].produce(event, type, nowPs, false); // all made before the agents started
        }
        final EmulatorCore core = core(coreOf(event.flowId()));
        observe(nowPs);
        core.runUntil(nowPs);
        final boolean accepted = core.produce(event, type, nowPs, true);
        activate(core.index);
        return accepted;
    }

    /**
     * Runs every core to {@code nowPs}, delivers the results completed by then, and tells when to
     * come back.
     *
     * @param nowPs current simulated time, ps, non-decreasing
     * @return the earliest time (ps) a core has a transition to run, {@code nowPs} or later (equal
     *         when an event offered during delivery can still be dispatched now), or
     *         {@link Long#MAX_VALUE} when every core is idle with nothing waiting
     * @throws IllegalStateException if the emulator is free-running
     */
    @Override
    public long advance(final long nowPs) {
        checkStepped("advance");
        observe(nowPs);
        for (int i = 0; i < activeCount; i++) {
            cores[activeCores[i]].runUntil(nowPs);
        }
        if (!delivering) {
            deliver();
        }
        long next = Long.MAX_VALUE;
        for (int i = 0; i < activeCount; ) {
            final EmulatorCore c = cores[activeCores[i]];
            final long t = c.nextTransitionPs();
            if (t == Long.MAX_VALUE && c.resultCount == 0 && !delivering) {
                coreActive[activeCores[i]] = false;
                activeCores[i] = activeCores[--activeCount]; // idle: leaves the list (order does not matter)
                continue;
            }
            if (t < next) {
                next = t;
            }
            i++;
        }
        return next;
    }

    private void deliver() {
        delivering = true;
        try {
            while (true) {
                EmulatorCore best = null;
                for (int i = 0; i < activeCount; i++) {
                    final EmulatorCore c = cores[activeCores[i]];
                    if (c.resultCount > 0 && (best == null || c.headEffectivePs() < best.headEffectivePs()
                        || (c.headEffectivePs() == best.headEffectivePs() && c.headSeq() < best.headSeq()))) {
                        best = c;
                    }
                }
                if (best == null) {
                    return;
                }
                final int qpn = best.popResult(deliveryResult);
                sink.onResult(qpn, deliveryResult, best.poppedEffectivePs, best.poppedCycles);
            }
        } finally {
            delivering = false;
        }
    }

    private void activate(final int coreIndex) {
        if (!coreActive[coreIndex]) {
            coreActive[coreIndex] = true;
            activeCores[activeCount++] = coreIndex;
        }
    }

    private void observe(final long nowPs) {
        if (nowPs > elapsedPs) {
            elapsedPs = nowPs;
        }
    }

    private void checkStepped(final String what) {
        if (freeRunning) {
            throw new IllegalStateException(what + " is not allowed while the emulator is free-running");
        }
    }

    /** @return the next result sequence number (completion order across cores) */
    long nextSeq() {
        return seq++;
    }

    /** @return the flyweights and result the stepped cores share (one thread steps them all) */
    CoreScratch steppedScratch() {
        return steppedScratch;
    }

    /**
     * Records one event's latency, arrival to result, in ns (rounded up) and cycles (rounded down).
     *
     * @param latencyPs latency, ps
     */
    void recordLatency(final long latencyPs) {
        latency.record(latencyPs);
    }

    /**
     * Free-running delivery from a core's agent thread.
     *
     * @param qpn       flow id
     * @param result    the result, valid during the call
     * @param arrivalPs arrival time the producer gave, ps
     * @param cycles    modelled cycles of the event
     */
    void deliverNow(final int qpn, final PccResult result, final long arrivalPs, final long cycles) {
        sink.onResult(qpn, result, arrivalPs, cycles);
    }

    // ------------------------------------------------------------------------------------------
    // free-running mode

    /**
     * Starts free-running mode: one Agrona {@link AgentRunner} thread per group of
     * {@code coresPerAgent} consecutive cores (the last group may be smaller). From now on
     * {@link #offer} only puts events on rings (one producer thread per core at a time), results
     * reach the sink on the agent threads, and {@link #startFlow}, {@link #endFlow} and
     * {@link #advance} throw. Events still waiting from stepped mode are handled by the agents. The
     * sink is called on the agent threads (concurrently when there are several) and must not offer.
     *
     * @param coresPerAgent   cores per agent thread, 1..cores
     * @param idleStrategies  makes the idle strategy of each agent (e.g. {@code BusySpinIdleStrategy::new})
     * @throws IllegalArgumentException if coresPerAgent is out of range
     * @throws IllegalStateException    if already free-running, called from a result callback, or
     *                                  the cores run measured handlers (firmware): a NIC's firmware
     *                                  cores share one firmware memory, which agent threads would race on
     */
    public void startFreeRunning(final int coresPerAgent, final Supplier<? extends IdleStrategy> idleStrategies) {
        if (coresPerAgent < 1 || coresPerAgent > cores.length) {
            throw new IllegalArgumentException("coresPerAgent must be in 1.." + cores.length + ", got " + coresPerAgent);
        }
        if (freeRunning || delivering) {
            throw new IllegalStateException("cannot start free-running: " + (freeRunning ? "already running" : "delivering"));
        }
        if (firstAlgorithm instanceof MeasuredPccAlgorithm) {
            throw new IllegalStateException("cannot start free-running: the cores run firmware (measured handlers), "
                + "whose cores share one firmware memory; run it stepped");
        }
        for (int i = 0; i < cores.length; i++) {
            core(i).ensureAllocated(); // every core made before any thread can see it
            cores[i].useOwnRing(); // stepped events went straight into the pending tables: no ring holds any
            cores[i].publishReleased();
        }
        agentError = null;
        freeRunning = true;
        final int groups = (cores.length + coresPerAgent - 1) / coresPerAgent;
        runners = new AgentRunner[groups];
        for (int g = 0; g < groups; g++) {
            final int from = g * coresPerAgent;
            final int to = Math.min(cores.length, from + coresPerAgent);
            final EmulatorCore[] group = new EmulatorCore[to - from];
            System.arraycopy(cores, from, group, 0, group.length);
            final CoreScratch groupScratch = new CoreScratch(); // one set per agent thread
            for (final EmulatorCore c : group) {
                c.useScratch(groupScratch);
            }
            runners[g] = new AgentRunner(idleStrategies.get(), this::onAgentError, null, new CoreGroupAgent(group));
            AgentRunner.startOnThread(runners[g]);
        }
    }

    private void onAgentError(final Throwable t) {
        if (agentError == null) {
            agentError = t;
        }
    }

    /**
     * Stops the agent threads (waiting for them), then handles on the calling thread whatever is
     * still on the rings, so every accepted event is handled or merged, and returns to stepped mode.
     * Producers must have stopped before.
     *
     * @throws IllegalStateException if an agent failed (with the first failure as cause)
     */
    public void stopFreeRunning() {
        if (!freeRunning) {
            return;
        }
        for (int g = 0; g < runners.length; g++) {
            runners[g].close();
        }
        runners = null;
        for (int i = 0; i < cores.length; i++) {
            while (cores[i].doWorkFree() > 0) {
                // drain what the agents left
            }
            cores[i].useNoRing();
            cores[i].useScratch(steppedScratch);
            cores[i].publishReleased();
        }
        freeRunning = false;
        final Throwable t = agentError;
        if (t != null) {
            throw new IllegalStateException("an emulator agent failed: " + t, t);
        }
    }

    /** Stops free-running mode if it is on ({@link #stopFreeRunning}). */
    @Override
    public void close() {
        stopFreeRunning();
    }

    // ------------------------------------------------------------------------------------------
    // statistics

    /** @param eventType event type @return events of that type handled, all cores */
    public long handled(final int eventType) {
        return counters.handled(eventType);
    }

    /** @param eventType event type @return events of that type merged into a waiting one, all cores */
    public long coalesced(final int eventType) {
        return counters.coalesced(eventType);
    }

    /** @param eventType event type @return events of that type dropped at a full queue, all cores */
    public long dropped(final int eventType) {
        return counters.dropped(eventType);
    }

    /** @param core core index @return events that core handled, all types */
    public long coreHandled(final int core) {
        return counters.coreHandled(core);
    }

    /** @param core core index @return cycles that core's issue slot was busy (stretches started) */
    public long busyCycles(final int core) {
        return cores[core] == null ? 0 : cores[core].busyCycles;
    }

    /** @return the Agrona producer position, bytes, of the ring a core uses now (its own while free-running; 0 when stepped); for tests */
    long ringProducerPosition(final int core) {
        return cores[core] == null ? 0 : cores[core].ringProducerPosition();
    }

    /** @param core core index @return events waiting in that core's pending table now */
    public int pendingEvents(final int core) {
        return cores[core] == null ? 0 : cores[core].pendingCount();
    }

    /**
     * @return copy of the latency histogram in ns: range 1..{@link #LATENCY_HIGHEST}, 2 significant
     *         digits (stepped mode only; allocates)
     */
    public Histogram latencyNsHistogram() {
        return LatencyLog.copy(latency.ns());
    }

    /**
     * @return copy of the latency histogram in cycles: range 1..{@link #LATENCY_HIGHEST}, 2
     *         significant digits (stepped mode only; allocates)
     */
    public Histogram latencyCyclesHistogram() {
        return LatencyLog.copy(latency.cycles());
    }

    /** @return latest simulated time seen by offer, advance or startFlow, in cycles */
    public long elapsedCycles() {
        return latency.psToCycles(elapsedPs);
    }

    @Override
    public void forEachCounter(final ObjLongConsumer<String> visitor) {
        counters.forEach(latency, elapsedCycles(), visitor);
    }
}
