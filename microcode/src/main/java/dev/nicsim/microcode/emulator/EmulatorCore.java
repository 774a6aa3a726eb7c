package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One emulated CC core: its event ring (stepped: the emulator's, shared by its cores and empty
 * between events; free-running: its own), its pending-event table (where coalescing happens), its
 * off-heap flow contexts, its LRU context cache, its hardware threads and its own algorithm
 * instance. The same code runs stepped by simulated time ({@link #runUntil}) and free-running on
 * an agent thread ({@link #doWorkFree}); see {@link UnicEmulator} for the model.
 *
 * <p>Its state is in small tables, each over one array with one row per entry (layouts in their
 * javadoc): {@link PendingTable} (waiting events), {@link FlowTable} (per flow slot) with the
 * {@link ContextCache} threaded through it, {@link ThreadTable} (hardware threads) with the ready
 * and stall {@link ThreadQueue}s, {@link ResultQueue} (results waiting for delivery) and the
 * read-only {@link CostTable}.
 *
 * <h2>Ring record (Agrona {@link OneToOneRingBuffer}, message type {@link #MSG_EVENT})</h2>
 * <pre>
 *   0                                                              63
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes, as is)          |  0
 *  +----------------------------------------------------------------+
 *  |  arrival time, ps (int64, little-endian)                       | 64
 *  +----------------------------------------------------------------+
 * </pre>
 * With Agrona's 8-byte record header a record takes {@link #SLOT_LENGTH} = 80 bytes of the ring.
 *
 * <p>Thread-safety: the producer side ({@link #produce}) is driven by one producer thread; all the
 * rest by the core's one consumer thread (the simulation thread when stepped, the agent thread
 * when free-running). The only state the two share is the ring and the released-event count,
 * published with an ordered write.
 */
final class EmulatorCore implements MessageHandler {
    /** Agrona message type of an event record. */
    static final int MSG_EVENT = 1;
    /** Offset of the arrival time (ps) after the PCC record in a ring message. */
    static final int ARRIVAL_OFFSET = PccEventLayout.RECORD_LENGTH;
    /** Ring message payload: the 64-byte PCC record and the 8-byte arrival time. */
    static final int PAYLOAD_LENGTH = PccEventLayout.RECORD_LENGTH + 8;
    /** Bytes one record takes in the ring, header included, aligned. */
    static final int SLOT_LENGTH = BitUtil.align(RecordDescriptor.HEADER_LENGTH + PAYLOAD_LENGTH,
        RecordDescriptor.ALIGNMENT);
    private static final int R = PccEventLayout.RECORD_LENGTH;
    private static final int TYPES = PccEventType.COUNT;
    private static final int RELEASED_OFFSET = 64;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int NONE = -1;

    /** Core number, 0..cores-1. */
    final int index;
    private final UnicEmulator owner;
    /** This core's own algorithm instance. */
    final PccAlgorithm algorithm;
    private final int algorithmSlot;
    /** Off-heap context words of the flows this core owns. */
    final FlowContextStore store;
    /** The ring events enter through now: the emulator's stepped ring, or this core's own while free-running. */
    private OneToOneRingBuffer ring;
    private AtomicBuffer ringBuffer;
    /** This core's own ring, allocated when the emulator first runs free. */
    private OneToOneRingBuffer ownRing;
    private AtomicBuffer ownRingBuffer;
    private final int capacity;
    private final int highWaterMark;
    private final boolean coalescing;

    /** What each event type costs (stage timings). */
    private final CostTable costs;

    // flyweights and per-call holders
    /** Flyweights and result, shared with the cores run by the same thread ({@link CoreScratch}). */
    private CoreScratch scratch;

    // producer side
    private long accepted;
    private long releasedCache;
    /** Most events the queue (ring plus pending table) held after an accepted offer. */
    long ringHighWater;
    /** Events dropped at a full queue, per type (producer-owned). */
    final long[] dropped = new long[TYPES];

    // shared: released count on its own cache line
    private final UnsafeBuffer shared = new UnsafeBuffer(new byte[3 * 64]);

    // consumer side: counters
    private long released;
    /** Events handled, per type. */
    final long[] handled = new long[TYPES];
    /** Events merged into a waiting one, per type. */
    final long[] coalesced = new long[TYPES];
    /** Events for a flow not running (never started, or ended while the event waited or ran). */
    long unknownFlow;
    /** Cycles the core's issue slot was held (stretches started). */
    long busyCycles;

    // Tables: each a small structure over one array (or a record buffer and one array) with one
    // row per entry, so that an event touches few cache lines: with thousands of cores in a
    // fabric, each event finds its core's state cold.

    /** FIFO of waiting events, one per (flow, type) when coalescing. */
    private final PendingTable pending;
    /** Per flow slot: generation, busy, LRU links, waiting-event positions. */
    private final FlowTable flows = new FlowTable(16);
    /** LRU context cache over the flow slots. */
    final ContextCache cache;
    /** Hardware threads: held events and the free stack. */
    private final ThreadTable threads;
    /** Threads waiting for the issue slot. */
    private final ThreadQueue ready;
    /** Threads waiting out a context miss, each until its time. */
    private final ThreadQueue stalled;
    private int running = NONE;
    private long runningEndPs;
    private boolean runningFinal;
    private long nowPs;

    /** Results waiting for delivery (stepped mode). */
    final ResultQueue results = new ResultQueue(16);

    /**
     * Creates a core.
     *
     * @param index         core number, 0..cores-1
     * @param owner         the emulator (sequence numbers, latency histograms, free-running sink)
     * @param config        validated configuration
     * @param algorithm     this core's own algorithm instance
     * @param algorithmSlot slot the algorithm sees in its attributes
     * @throws IllegalArgumentException if the algorithm's handler estimate for a type without an
     *                                  override is outside 0..{@link EmulatorConfig#MAX_STAGE_CYCLES}
     */
    EmulatorCore(final int index, final UnicEmulator owner, final EmulatorConfig config, final PccAlgorithm algorithm,
                 final int algorithmSlot) {
        this.index = index;
        this.owner = owner;
        this.algorithm = algorithm;
        this.algorithmSlot = algorithmSlot;
        this.scratch = owner.steppedScratch();
        this.store = new FlowContextStore(Math.max(1, algorithm.contextWords()), 16);
        this.capacity = config.ringCapacity();
        this.highWaterMark = config.effectiveOverloadHighWaterMark();
        this.coalescing = config.coalescing();
        this.cache = new ContextCache(flows, config.contextCacheEntries());
        this.costs = new CostTable(config, algorithm);
        this.pending = new PendingTable(capacity);
        final int threadCount = config.threadsPerCore();
        threads = new ThreadTable(threadCount);
        ready = new ThreadQueue(threadCount, false);
        stalled = new ThreadQueue(threadCount, true);
    }

    /**
     * Allocates the pending-event table on first use (a NIC's flows usually occupy few of its
     * cores) and points the core at the emulator's stepped ring ({@link UnicEmulator#steppedRing}).
     */
    void ensureAllocated() {
        if (ring != null) {
            return;
        }
        pending.allocate();
        useSteppedRing();
    }

    /**
     * Sets the flyweights and result this core handles events with: the emulator's stepped set, or
     * the set of the free-running agent that runs this core. Call only while no thread runs the core.
     *
     * @param shared the set, used by one thread at a time
     */
    void useScratch(final CoreScratch shared) {
        scratch = shared;
    }

    /**
     * Stepped mode: events enter through the emulator's one ring, which is empty between events
     * (each offer drains its record into the owning core's pending table at once, then rewinds the
     * ring), so sharing it changes nothing a core does; its few cache lines stay warm instead of
     * each of a fabric's thousands of cores keeping five lines of a ring of its own.
     */
    void useSteppedRing() {
        ring = owner.steppedRing();
        ringBuffer = ring.buffer();
    }

    /**
     * Free-running mode: this core's own single-producer single-consumer ring, allocated on first
     * use with room for {@code ringCapacity} records of {@link #SLOT_LENGTH} bytes plus Agrona's
     * wrap padding, rounded up to a power of two (at least 1 KiB), off-heap.
     */
    void useOwnRing() {
        if (ownRing == null) {
            ownRingBuffer = newRingBuffer(capacity);
            ownRing = new OneToOneRingBuffer(ownRingBuffer);
        }
        ring = ownRing;
        ringBuffer = ownRingBuffer;
    }

    /**
     * @param capacity records the ring must hold
     * @return an off-heap buffer for an Agrona ring of that many records (power-of-two data
     *         section of at least 1 KiB plus the trailer)
     */
    static AtomicBuffer newRingBuffer(final int capacity) {
        final int ringBytes = Math.max(1024, BitUtil.findNextPositivePowerOfTwo(capacity * SLOT_LENGTH + 2 * SLOT_LENGTH));
        return new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH));
    }

    /**
     * Duration of a stretch of cycles in simulated time, rounded up to whole ps.
     *
     * @param cycles  cycles, 0..4 x 10^6
     * @param clockHz clock, Hz
     * @return {@code ceil(cycles x 10^12 / clockHz)} ps
     */
    static long cyclesToPs(final long cycles, final long clockHz) {
        return (cycles * 1_000_000_000_000L + clockHz - 1) / clockHz;
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
        final int slots = flows.slots();
        if (slot >= slots) {
            flows.grow(Math.max(slots * 2, slot + 1));
        }
        clearWaiting(slot);
        cache.insert(slot);
        store.wrap(slot, scratch.context);
        scratch.attributes.set(lineRateBitsPerSec, algorithmSlot, false, mtuBytes, baseRttNs).initialPsn(initialPsn);
        scratch.result.reset();
        algorithm.initFlow(scratch.context, (int) (nowPs / 1000), scratch.attributes, scratch.result);
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
        flows.bumpGeneration(slot);
        clearWaiting(slot);
        cache.remove(slot);
        store.free(qpn);
    }

    /** Forgets a slot's waiting events of every type (their merge index). */
    private void clearWaiting(final int slot) {
        if (coalescing) {
            flows.clearWaiting(slot);
        }
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
     * @param stepped   true when producer and consumer are the same thread (exact depth)
     * @return whether it was accepted
     */
    boolean produce(final PccEvent event, final int type, final long arrivalPs, final boolean stepped) {
        long depth;
        if (stepped) {
            ensureAllocated();
            depth = accepted - released;
        } else {
            depth = accepted - releasedCache;
            if (depth >= capacity) {
                releasedCache = shared.getLongVolatile(RELEASED_OFFSET);
                depth = accepted - releasedCache;
            }
        }
        if (depth >= capacity) {
            dropped[type]++;
            return false;
        }
        final int at = ring.tryClaim(MSG_EVENT, PAYLOAD_LENGTH);
        if (at < 0) {
            dropped[type]++; // cannot happen with the ring sized for capacity records; counted anyway
            return false;
        }
        ringBuffer.putBytes(at, event.buffer(), event.offset(), R);
        ringBuffer.putLong(at + ARRIVAL_OFFSET, arrivalPs, ORDER);
        ring.commit(at);
        accepted++;
        if (depth + 1 > ringHighWater) {
            ringHighWater = depth + 1;
        }
        return true;
    }

    /** @return the producer position, bytes, of the ring the core uses now (stepped: the emulator's), 0 before first use */
    long ringProducerPosition() {
        return ring == null ? 0 : ring.producerPosition();
    }

    /** @return events accepted onto the ring so far (producer's count) */
    long accepted() {
        return accepted;
    }

    // ------------------------------------------------------------------------------------------
    // consumer side: ring to pending table, with coalescing

    /**
     * Moves every event on the ring into the pending table, merging an event into a waiting one of
     * the same flow and type when coalescing is on. An Agrona read stops at the end of the buffer,
     * so a second read takes the records that wrapped to its start.
     *
     * @return events taken off the ring
     */
    int drain() {
        if (ring == null) {
            return 0;
        }
        int n = ring.read(this, capacity);
        if (ring.consumerPosition() != ring.producerPosition()) {
            n += ring.read(this, capacity);
        }
        return n;
    }

    /**
     * Stepped mode's drain: {@link #drain} and then, with the ring empty and this one thread both
     * its producer and its consumer, head and tail moved back to the buffer's start. Agrona zeroes
     * what a read consumed, so the rewound ring is exactly a fresh one; the next record lands on
     * the same, cache-warm, first bytes instead of the next of 32 KiB (x thousands of cores in a
     * fabric) of cold ones. Positions are not observable: capacity checks use tail - head.
     *
     * @return events taken off the ring
     */
    int drainAndRewind() {
        final int n = drain();
        if (ring != null) {
            final long tail = ring.producerPosition();
            if (tail != 0 && tail == ring.consumerPosition()) {
                final int trailer = ring.capacity();
                ringBuffer.putLong(trailer + RingBufferDescriptor.TAIL_POSITION_OFFSET, 0L);
                ringBuffer.putLong(trailer + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET, 0L);
                ringBuffer.putLong(trailer + RingBufferDescriptor.HEAD_POSITION_OFFSET, 0L);
            }
        }
        return n;
    }

    /**
     * One ring record: looked up by QPN in this core's store, merged into the waiting event of its
     * (flow, type) if there is one (first timestamp and sequence number kept, count and TX totals
     * added: {@link PccEvent#coalesce}), else appended to the pending table.
     */
    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int offset, final int length) {
        scratch.ringView.wrap(buffer, offset);
        final int qpn = scratch.ringView.flowId();
        final int type = scratch.ringView.type();
        final int slot = store.slot(qpn);
        if (slot < 0) {
            unknownFlow++;
            released++;
            return;
        }
        if (coalescing) {
            final int waiting = flows.waiting(slot, type);
            if (waiting != 0) {
                scratch.pendingView.wrap(pending.records(), PendingTable.recordOffset(waiting - 1))
                    .coalesce(scratch.ringView);
                coalesced[type]++;
                released++;
                return;
            }
        }
        final int pos = pending.append(buffer, offset, buffer.getLong(offset + ARRIVAL_OFFSET, ORDER),
            PendingTable.slotGeneration(slot, flows.generation(slot)));
        if (coalescing) {
            flows.waiting(slot, type, pos + 1);
        }
    }

    /**
     * Takes the head of the pending table off ({@link PendingTable#removeHead}); it no longer
     * accepts merges.
     */
    private void removeHead(final int pos, final int slot, final int type) {
        if (coalescing && flows.waiting(slot, type) == pos + 1) {
            flows.waiting(slot, type, 0);
        }
        pending.removeHead();
        released++;
    }

    /** @return events waiting in the pending table */
    int pendingCount() {
        return pending.count();
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
            while (stalled.count() > 0 && stalled.headPs() <= tn) {
                ready.push(stalled.pop());
            }
            while (threads.freeCount() > 0 && pending.count() > 0 && pending.arrivalPs(pending.head()) <= tn
                && !headFlowBusy()) {
                dispatch();
            }
            if (running == NONE && ready.count() > 0) {
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
        long next = Long.MAX_VALUE;
        if (running != NONE) {
            next = runningEndPs;
        }
        if (stalled.count() > 0 && stalled.headPs() < next) {
            next = stalled.headPs();
        }
        if (running == NONE && ready.count() > 0 && nowPs < next) {
            next = nowPs;
        }
        if (threads.freeCount() > 0 && pending.count() > 0 && !headFlowBusy()) {
            final long at = Math.max(nowPs, pending.arrivalPs(pending.head()));
            if (at < next) {
                next = at;
            }
        }
        return next;
    }

    /** Head of the pending table to a free hardware thread (the head's flow is not in flight). */
    private void dispatch() {
        final int pos = pending.head();
        final long slotGeneration = pending.slotGeneration(pos);
        final int slot = PendingTable.slotOf(slotGeneration);
        scratch.pendingView.wrap(pending.records(), PendingTable.recordOffset(pos));
        final int type = scratch.pendingView.type();
        removeHead(pos, slot, type);
        if ((int) slotGeneration != flows.generation(slot)) {
            unknownFlow++; // the flow ended while its event waited
            return;
        }
        final int th = threads.take();
        threads.records().putBytes(ThreadTable.recordOffset(th), pending.records(), PendingTable.recordOffset(pos), R);
        flows.busy(slot, true);
        final boolean hit = cache.access(slot);
        threads.set(th, pending.arrivalPs(pos), costs.totalCycles(type, hit), slotGeneration,
            type | (pending.count() > highWaterMark ? ThreadTable.OVERLOADED : 0) | (hit ? 0 : ThreadTable.MISS));
        ready.push(th);
    }

    /** @return whether the flow of the pending table's head has an event running on a thread */
    private boolean headFlowBusy() {
        return flows.busy(PendingTable.slotOf(pending.slotGeneration(pending.head())));
    }

    private void startSegment(final long tn) {
        final int th = ready.pop();
        final long typeFlags = threads.typeFlags(th);
        final int type = (int) (typeFlags & ThreadTable.TYPE_MASK);
        final long durationPs;
        if ((typeFlags & ThreadTable.SECOND_STAGE) != 0) {
            durationPs = costs.s2Ps(type);
            busyCycles += costs.s2Cycles(type);
            runningFinal = true;
        } else if ((typeFlags & ThreadTable.MISS) != 0) {
            durationPs = costs.s1Ps;
            busyCycles += costs.s1Cycles;
            runningFinal = false;
        } else {
            durationPs = costs.hitPs(type);
            busyCycles += costs.hitBusyCycles(type);
            runningFinal = true;
        }
        running = th;
        runningEndPs = tn + durationPs;
    }

    private void finishSegment(final long tn) {
        final int th = running;
        running = NONE;
        if (!runningFinal) {
            threads.markSecondStage(th);
            stalled.push(th, tn + costs.missPs);
            return;
        }
        final long slotGeneration = threads.slotGeneration(th);
        final int slot = PendingTable.slotOf(slotGeneration);
        flows.busy(slot, false);
        threads.release(th);
        scratch.threadView.wrap(threads.records(), ThreadTable.recordOffset(th));
        final int qpn = scratch.threadView.flowId();
        if ((int) slotGeneration != flows.generation(slot)) {
            unknownFlow++; // the flow ended while its event ran
            return;
        }
        final long typeFlags = threads.typeFlags(th);
        runHandler(scratch.threadView, slot, (typeFlags & ThreadTable.OVERLOADED) != 0);
        handled[(int) (typeFlags & ThreadTable.TYPE_MASK)]++;
        results.push(qpn, scratch.result, tn, threads.cycles(th), owner.nextSeq());
        owner.recordLatency(tn - threads.arrivalPs(th));
    }

    private void runHandler(final PccEvent event, final int slot, final boolean overloaded) {
        store.wrap(slot, scratch.context);
        scratch.attributes.set(store.lineRateBitsPerSec(slot), algorithmSlot, overloaded, store.mtuBytes(slot),
            store.baseRttNs(slot));
        scratch.result.reset();
        algorithm.onEvent(scratch.context, event, scratch.attributes, scratch.result);
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
        int work = drain();
        while (pending.count() > 0) {
            handleHeadNow();
            if ((++work & 63) == 0) {
                shared.putLongOrdered(RELEASED_OFFSET, released); // let the producer refill during long batches
            }
        }
        if (work > 0) {
            shared.putLongOrdered(RELEASED_OFFSET, released);
        }
        return work;
    }

    private void handleHeadNow() {
        final int pos = pending.head();
        final long slotGeneration = pending.slotGeneration(pos);
        final int slot = PendingTable.slotOf(slotGeneration);
        scratch.pendingView.wrap(pending.records(), PendingTable.recordOffset(pos));
        final int type = scratch.pendingView.type();
        final int qpn = scratch.pendingView.flowId();
        removeHead(pos, slot, type);
        if ((int) slotGeneration != flows.generation(slot)) {
            unknownFlow++;
            return;
        }
        final boolean hit = cache.access(slot);
        busyCycles += hit ? costs.hitBusyCycles(type) : costs.s1Cycles + costs.s2Cycles(type);
        runHandler(scratch.pendingView, slot, pending.count() > highWaterMark);
        handled[type]++;
        owner.deliverNow(qpn, scratch.result, pending.arrivalPs(pos), costs.totalCycles(type, hit));
    }

    /** Publishes the released count for a producer on another thread (before free-running starts). */
    void publishReleased() {
        shared.putLongOrdered(RELEASED_OFFSET, released);
        releasedCache = released;
    }
}
