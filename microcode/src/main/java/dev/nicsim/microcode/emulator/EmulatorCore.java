package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.microcode.InterleavedPccAlgorithm;
import dev.nicsim.microcode.MeasuredPccAlgorithm;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.pcc.Units;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * One emulated CC core: its event ring ({@link CoreRing}, free-running only; stepped, an offered
 * event goes straight into the pending table), its pending-event table (where coalescing
 * happens), its off-heap flow contexts, its LRU context cache ({@link ContextLru}), its hardware
 * threads and its own algorithm instance. This class is the mechanism (queues, tables, dispatch
 * loop); how long an event takes and when its handler runs is its {@link CoreTiming}, chosen once
 * at construction. The same code runs stepped by simulated time ({@link #runUntil}) and
 * free-running on an agent thread ({@link #doWorkFree}); see {@link UnicEmulator} for the model.
 *
 * <p>Its tables are plain arrays with one row per entry, named and drawn by their layout classes
 * (Agrona descriptor style): {@link PendingTable} (waiting events), {@link FlowTable} (per flow
 * slot, with the LRU context cache threaded through it), {@link ThreadTable} (hardware threads),
 * {@link ResultQueue} (results waiting for delivery) and {@link CostTable} (stage timings). The
 * core holds the arrays and the FIFO heads and counts itself: with thousands of cores in a
 * fabric, each event finds its core's state cold, and an object per table would add a cold
 * cache line each ({@code SteppedEmulatorBenchmark} measures it).
 *
 * <p>Thread-safety: the producer side ({@link #produce}) is driven by one producer thread; all the
 * rest by the core's one consumer thread (the simulation thread when stepped, the agent thread
 * when free-running). The only state the two share is the {@link CoreRing}.
 */
final class EmulatorCore extends CoreQueues {
    private static final int R = PccEventLayout.RECORD_LENGTH;
    private static final int TYPES = PccEventType.COUNT;
    private static final int NONE = FlowTable.NONE;

    /** Core number, 0..cores-1. */
    final int index;
    /** This core's own algorithm instance. */
    final PccAlgorithm algorithm;
    private final int algorithmSlot;
    /** The ring events enter through while free-running; null until the core first runs free. */
    private CoreRing ring;
    private final int highWaterMark;

    /** Stage timings per event type, {@link CostTable}. */
    private final long[] costs;
    private final long missPs;
    /** How events are timed and when their handlers run. */
    private final CoreTiming timing;
    /** The flow-context cache. */
    final ContextLru contextCache;

    // producer side
    private long accepted;
    /** Most events the queue (ring plus pending table) held after an accepted offer. */
    long ringHighWater;
    /** Events dropped at a full queue, per type (producer-owned). */
    final long[] dropped = new long[TYPES];

    // consumer side: counters
    /** Events handled, per type. */
    final long[] handled = new long[TYPES];
    /** Cycles the core's issue slot was held (stretches started). */
    long busyCycles;

    // hardware threads, ThreadTable; free stack; ready FIFO; stall FIFO with each thread's end of wait
    final UnsafeBuffer threadRecords;
    final long[] threadMeta;
    private final int[] freeThreads;
    private int freeCount;
    private final int[] readyQueue;
    private int readyHead;
    private int readyCount;
    private final int[] stallQueue;
    private final long[] stallEndPs;
    private int stallHead;
    private int stallCount;
    private int running = NONE;
    private long runningEndPs;
    /** Whether the running stretch is its event's last (set by {@link CoreTiming#startStretch}). */
    boolean runningFinal;
    /** The core's simulated time, ps. */
    long nowPs;


    /**
     * Creates a core.
     *
     * @param index         core number, 0..cores-1
     * @param owner         the emulator (sequence numbers, latency histograms, free-running sink)
     * @param config        validated configuration
     * @param algorithm     this core's own algorithm instance
     * @param algorithmSlot slot the algorithm sees in its attributes
     * @param peerCosts     the stage timings of the emulator's first algorithm instance, or null:
     *                      used instead of this core's own when equal to them (they are whenever
     *                      the cores' algorithms give the same handler estimates), so a NIC's cores
     *                      read one cache-warm table instead of a cold one each
     * @throws IllegalArgumentException if the algorithm's handler estimate for a type without an
     *                                  override is outside 0..{@link EmulatorConfig#MAX_STAGE_CYCLES}
     */
    EmulatorCore(final int index, final UnicEmulator owner, final EmulatorConfig config, final PccAlgorithm algorithm,
                 final int algorithmSlot, final long[] peerCosts) {
        super(owner, config, new FlowContextStore(Math.max(1, algorithm.contextWords()), INITIAL_ROWS));
        this.index = index;
        this.algorithm = algorithm;
        this.algorithmSlot = algorithmSlot;
        this.highWaterMark = config.effectiveOverloadHighWaterMark();
        this.contextCache = new ContextLru(config.contextCacheEntries());

        final long[] ownCosts = CostTable.create(config, algorithm);
        costs = peerCosts != null && Arrays.equals(peerCosts, ownCosts) ? peerCosts : ownCosts;
        missPs = CostTable.missPs(costs);
        timing = timingFor(algorithm, config, costs);

        final int threads = config.threadsPerCore();
        threadRecords = new UnsafeBuffer(new byte[threads * R]);
        threadMeta = new long[threads * ThreadTable.ROW];
        freeThreads = new int[threads];
        for (int t = 0; t < threads; t++) {
            freeThreads[t] = threads - 1 - t; // thread 0 is taken first
        }
        freeCount = threads;
        readyQueue = new int[threads];
        stallQueue = new int[threads];
        stallEndPs = new long[threads];
    }

    /**
     * Picks the timing of an algorithm: interleaved for firmware that interleaves its threads on a
     * multithreaded model (unless the configuration charges nothing), measured for other firmware,
     * estimated for a Java algorithm.
     */
    private static CoreTiming timingFor(final PccAlgorithm algorithm, final EmulatorConfig config, final long[] costs) {
        if (algorithm instanceof MeasuredPccAlgorithm measured) {
            final boolean free = MeasuredTiming.isFree(config);
            if (!free && measured instanceof InterleavedPccAlgorithm il && il.interleaves()) {
                return new InterleavedTiming(il, Math.max(1, algorithm.contextWords()), config);
            }
            return new MeasuredTiming(measured, free, config);
        }
        return new EstimatedTiming(costs);
    }

    /** @return this core's stage timings ({@link CostTable}), possibly shared with its peers; read only */
    long[] costs() {
        return costs;
    }

    /** @return whether this core's algorithm measures its own handler cost (firmware) */
    boolean runsMeasuredHandlers() {
        return !(timing instanceof EstimatedTiming);
    }

    /**
     * Stepped mode: no ring. Producer and consumer are the one simulation thread and each offered
     * event was taken off a ring into the pending table at once, so {@link #produce} writes it
     * there directly ({@link #accept}): the same checks, merges and counts without the ring's
     * claim, commit, read and rewind and one 64-byte copy.
     */
    void useNoRing() {
        if (ring != null) {
            ring.close();
        }
    }

    /** Free-running mode: events enter through this core's own {@link CoreRing}, made the first time. */
    void useOwnRing() {
        if (ring == null) {
            ring = new CoreRing(capacity);
        }
        ring.open();
    }

    // ------------------------------------------------------------------------------------------
    // flows

    /**
     * Starts a flow on this core: allocates and zeroes its context, brings it into the context
     * cache (the control path has just written it) and runs the algorithm's initialisation.
     *
     * @param qpn                flow id, 24 bits
     * @param nowPs              current time, ps
     * @param lineRateBitsPerSec line rate, bits/s
     * @param mtuBytes           MTU, bytes
     * @param baseRttNs          base RTT, ns
     * @param initialPsn         the flow's first PSN, 24 bits (checked by the caller)
     * @return the initial result, valid until the next call on any core of the emulator (they share it)
     */
    PccResult startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                        final int baseRttNs, final int initialPsn) {
        ensureAllocated();
        final int slot = store.allocate(qpn, lineRateBitsPerSec, mtuBytes, baseRttNs);
        final int slots = FlowTable.slots(flows);
        if (slot >= slots) {
            growFlowArrays(Math.max(slots * 2, slot + 1));
        }
        clearWaiting(slot);
        contextCache.insert(flows, slot);
        store.wrap(slot, scratch.context);
        scratch.attributes.set(lineRateBitsPerSec, algorithmSlot, false, mtuBytes, baseRttNs).initialPsn(initialPsn);
        scratch.result.reset();
        algorithm.initFlow(scratch.context, (int) (nowPs / Units.PS_PER_NS), scratch.attributes, scratch.result);
        return scratch.result;
    }

    /**
     * Ends a flow: frees its context slot, forgets its waiting-event index, drops it from the cache
     * and bumps the slot's generation, so its events still waiting or running are recognised as
     * stale even if the slot (or the QPN) is started again.
     *
     * @param qpn flow id, 24 bits
     */
    void endFlow(final int qpn) {
        final int slot = store.slot(qpn);
        if (slot < 0) {
            return;
        }
        FlowTable.bumpGeneration(flows, slot);
        clearWaiting(slot);
        contextCache.remove(flows, slot);
        store.free(qpn);
    }

    // ------------------------------------------------------------------------------------------
    // producer side

    /**
     * Puts an event on this core's ring, or drops it (counted per type) if the core's queue (ring
     * plus pending table) already holds {@code ringCapacity} events.
     *
     * @param event     the event
     * @param type      its type (validated)
     * @param arrivalPs arrival time, ps
     * @param stepped   true when producer and consumer are the same thread: the event goes into the
     *                  pending table at once ({@link #accept}, exact depth), no ring
     * @return whether it was accepted
     */
    boolean produce(final PccEvent event, final int type, final long arrivalPs, final boolean stepped) {
        if (stepped) {
            ensureAllocated();
            final long depth = accepted - released;
            if (depth >= capacity) {
                dropped[type]++;
                return false;
            }
            accepted++;
            if (depth + 1 > ringHighWater) {
                ringHighWater = depth + 1;
            }
            accept(event, arrivalPs);
            return true;
        }
        final long depth = ring.offer(event, arrivalPs, accepted);
        if (depth < 0) {
            dropped[type]++;
            return false;
        }
        accepted++;
        if (depth + 1 > ringHighWater) {
            ringHighWater = depth + 1;
        }
        return true;
    }

    /** @return the producer position, bytes, of the ring the core uses now (its own while free-running), 0 when stepped */
    long ringProducerPosition() {
        return ring == null ? 0 : ring.producerPosition();
    }

    /** @return events accepted onto the ring so far (producer's count) */
    long accepted() {
        return accepted;
    }

    // ------------------------------------------------------------------------------------------
    // stepped mode

    /**
     * Runs every transition of this core (segment end, end of a context-miss wait, dispatch of a
     * waiting event to a free thread, start of a ready thread's segment) due at or before
     * {@code untilPs}, in time order; at equal times in that order. Completed events run their
     * handler and queue their result for delivery with effective time = completion time.
     *
     * @param untilPs simulated time, ps
     */
    void runUntil(final long untilPs) {
        while (true) {
            final long tn = nextTransitionPs();
            if (tn > untilPs) {
                break;
            }
            nowPs = tn;
            if (running != NONE && runningEndPs <= tn) {
                finishSegment(tn);
            }
            timing.finishDue(this, tn);
            while (stallCount > 0 && stallEndPs[stallHead] <= tn) {
                final int th = stallQueue[stallHead];
                stallHead = stallHead + 1 == stallQueue.length ? 0 : stallHead + 1;
                stallCount--;
                pushReady(th);
            }
            while (freeCount > 0 && pendingCount > 0 && PendingTable.arrivalPs(pendingMeta, pendingHead) <= tn
                && !headFlowBusy()) {
                dispatch();
            }
            if (running == NONE && readyCount > 0) {
                startSegment(tn);
            }
        }
        if (untilPs > nowPs) {
            nowPs = untilPs;
        }
    }

    /**
     * @return the earliest time at which this core has a transition to run, or
     *         {@link Long#MAX_VALUE} when it is idle with nothing waiting
     */
    long nextTransitionPs() {
        long next = timing.nextCompletionPs(this);
        if (running != NONE) {
            next = runningEndPs;
        }
        if (stallCount > 0 && stallEndPs[stallHead] < next) {
            next = stallEndPs[stallHead];
        }
        if (running == NONE && readyCount > 0 && nowPs < next) {
            next = nowPs;
        }
        if (freeCount > 0 && pendingCount > 0 && !headFlowBusy()) {
            final long at = Math.max(nowPs, PendingTable.arrivalPs(pendingMeta, pendingHead));
            if (at < next) {
                next = at;
            }
        }
        return next;
    }

    /** Head of the pending table to a free hardware thread (the head's flow is not in flight). */
    private void dispatch() {
        final int pos = pendingHead;
        final long slotGeneration = takeHead();
        if (slotGeneration < 0) {
            return;
        }
        final int slot = PendingTable.slotOf(slotGeneration);
        final int type = scratch.pendingView.type();
        final int th = freeThreads[--freeCount];
        threadRecords.putBytes(ThreadTable.recordOffset(th), pendingRecords, PendingTable.recordOffset(pos), R);
        FlowTable.busy(flows, slot, true);
        final boolean hit = contextCache.access(flows, slot);
        timing.dispatch(this, th, slot, slotGeneration, type, hit, pendingCount > highWaterMark,
            PendingTable.arrivalPs(pendingMeta, pos));
    }

    /**
     * Removes the pending table's head, leaving the scratch pending view on its record (which stays
     * in place until the table wraps round to it).
     *
     * @return the head's slot and generation, or -1 when its flow ended while the event waited
     *         (counted in {@link #unknownFlow})
     */
    private long takeHead() {
        final int pos = pendingHead;
        final long slotGeneration = PendingTable.slotGeneration(pendingMeta, pos);
        final int slot = PendingTable.slotOf(slotGeneration);
        scratch.pendingView.wrap(pendingRecords, PendingTable.recordOffset(pos));
        removeHead(pos, slot, scratch.pendingView.type());
        if (PendingTable.generationOf(slotGeneration) != FlowTable.generation(flows, slot)) {
            unknownFlow++;
            return -1;
        }
        return slotGeneration;
    }

    /** @return whether the flow of the pending table's head has an event running on a thread */
    private boolean headFlowBusy() {
        return FlowTable.busy(flows, PendingTable.slotOf(PendingTable.slotGeneration(pendingMeta, pendingHead)));
    }

    /** @return hardware threads free to take an event */
    int freeThreadCount() {
        return freeCount;
    }

    /** @param slotGeneration slot and generation of an event @return whether its flow still runs (same generation) */
    boolean flowAlive(final long slotGeneration) {
        return PendingTable.generationOf(slotGeneration) == FlowTable.generation(flows, PendingTable.slotOf(slotGeneration));
    }

    /** Puts a thread whose event was dispatched on the ready queue for the issue slot. */
    void pushReady(final int th) {
        int pos = readyHead + readyCount;
        if (pos >= readyQueue.length) {
            pos -= readyQueue.length;
        }
        readyQueue[pos] = th;
        readyCount++;
    }

    private void startSegment(final long tn) {
        final int th = readyQueue[readyHead];
        readyHead = readyHead + 1 == readyQueue.length ? 0 : readyHead + 1;
        readyCount--;
        final long durationPs = timing.startStretch(this, th, ThreadTable.typeFlags(threadMeta, th));
        running = th;
        runningEndPs = tn + durationPs;
    }

    private void finishSegment(final long tn) {
        final int th = running;
        running = NONE;
        if (!runningFinal) {
            ThreadTable.markSecondStage(threadMeta, th);
            int pos = stallHead + stallCount;
            if (pos >= stallQueue.length) {
                pos -= stallQueue.length;
            }
            stallQueue[pos] = th;
            stallEndPs[pos] = tn + missPs;
            stallCount++;
            return;
        }
        final long slotGeneration = ThreadTable.slotGeneration(threadMeta, th);
        final int slot = PendingTable.slotOf(slotGeneration);
        final boolean alive = flowAlive(slotGeneration);
        if (alive) {
            timing.completeStretched(this, th, slot, ThreadTable.typeFlags(threadMeta, th));
        }
        completeThread(th, slot, alive, tn, ThreadTable.cycles(threadMeta, th));
    }

    /**
     * The event of thread th completed at tn, its result (if its flow is alive) in the scratch
     * result: the thread and the flow are freed and the result queued for delivery, or the event
     * counted as for a flow that ended while it ran.
     *
     * @param th     hardware thread
     * @param slot   the event's flow slot
     * @param alive  whether the flow still runs ({@link #flowAlive})
     * @param tn     completion time, ps
     * @param cycles the event's cycles, reported with its result
     */
    void completeThread(final int th, final int slot, final boolean alive, final long tn, final long cycles) {
        FlowTable.busy(flows, slot, false);
        freeThreads[freeCount++] = th;
        if (!alive) {
            unknownFlow++; // the flow ended while its event ran
            return;
        }
        scratch.threadView.wrap(threadRecords, ThreadTable.recordOffset(th));
        final int qpn = scratch.threadView.flowId();
        handled[ThreadTable.typeOf(ThreadTable.typeFlags(threadMeta, th))]++;
        pushResult(qpn, tn, cycles);
        owner.recordLatency(tn - ThreadTable.arrivalPs(threadMeta, th));
    }

    /**
     * Runs the algorithm's handler on an event of a flow, result in the scratch result.
     *
     * @param event      the event
     * @param slot       the flow's slot
     * @param overloaded whether the core is overloaded (the attribute the handler sees)
     */
    void runHandler(final PccEvent event, final int slot, final boolean overloaded) {
        store.wrap(slot, scratch.context);
        setAttributes(slot, overloaded);
        scratch.result.reset();
        algorithm.onEvent(scratch.context, event, scratch.attributes, scratch.result);
    }

    /** Sets the scratch attributes to a flow's (line rate, MTU, base RTT) and this core's slot and load. */
    void setAttributes(final int slot, final boolean overloaded) {
        scratch.attributes.set(store.lineRateBitsPerSec(slot), algorithmSlot, overloaded, store.mtuBytes(slot),
            store.baseRttNs(slot));
    }

    // ------------------------------------------------------------------------------------------
    // free-running mode

    /**
     * One duty cycle on an agent thread: drain the ring into the pending table (coalescing), then
     * handle every pending event in order at once (no simulated time), delivering each result to
     * the emulator's sink with effective time = the event's arrival time as the producer gave it.
     *
     * @return events drained plus events handled (0 when idle)
     */
    int doWorkFree() {
        if (ring == null) {
            return 0; // never ran free: stepped events went straight into the pending table
        }
        int work = ring.drain(this);
        while (pendingCount > 0) {
            handleHeadNow();
            if ((++work & 63) == 0) {
                ring.publishReleased(released); // let the producer refill during long batches
            }
        }
        if (work > 0) {
            ring.publishReleased(released);
        }
        return work;
    }

    private void handleHeadNow() {
        final int pos = pendingHead;
        final long slotGeneration = takeHead();
        if (slotGeneration < 0) {
            return;
        }
        final int slot = PendingTable.slotOf(slotGeneration);
        final int type = scratch.pendingView.type();
        final int qpn = scratch.pendingView.flowId();
        final boolean hit = contextCache.access(flows, slot);
        final long cycles = timing.handleNow(this, scratch.pendingView, slot, type, hit, pendingCount > highWaterMark);
        handled[type]++;
        owner.deliverNow(qpn, scratch.result, PendingTable.arrivalPs(pendingMeta, pos), cycles);
    }

    /** Publishes the released count for a producer on another thread (before free-running starts). */
    void publishReleased() {
        if (ring != null) {
            ring.resetReleased(released);
        }
    }
}
