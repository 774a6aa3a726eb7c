package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
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
import java.util.Arrays;

/**
 * One emulated CC core: its event ring, its pending-event table (where coalescing happens), its
 * off-heap flow contexts, its LRU context cache, its hardware threads and its own algorithm
 * instance. The same code runs stepped by simulated time ({@link #runUntil}) and free-running on
 * an agent thread ({@link #doWorkFree}); see {@link UnicEmulator} for the model.
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
    private OneToOneRingBuffer ring;
    private AtomicBuffer ringBuffer;
    private final int capacity;
    private final int highWaterMark;
    private final boolean coalescing;
    private final int cacheEntries;

    // timing tables, per event type where the handler matters
    private final long s1Ps;
    private final long missPs;
    private final long[] hitPs = new long[TYPES];
    private final long[] s2Ps = new long[TYPES];
    private final long s1Cycles;
    private final long[] hitBusyCycles = new long[TYPES];
    private final long[] s2Cycles = new long[TYPES];
    private final long[] hitTotalCycles = new long[TYPES];
    private final long[] missTotalCycles = new long[TYPES];

    // flyweights and per-call holders
    private final PccEvent ringView = new PccEvent();
    private final PccEvent pendingView = new PccEvent();
    private final PccEvent threadView = new PccEvent();
    private final PccContext context = new PccContext();
    private final PccAttributes attributes = new PccAttributes();
    private final PccResult result = new PccResult();

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
    /** Context fetches that hit the cache. */
    long cacheHits;
    /** Context fetches that missed the cache. */
    long cacheMisses;
    /** Cycles the core's issue slot was held (stretches started). */
    long busyCycles;

    // pending-event table: FIFO of waiting events, one per (flow, type) when coalescing
    private UnsafeBuffer pendingRecords;
    private long[] pendingArrivalPs;
    private int[] pendingSlot;
    private int[] pendingGeneration;
    private int pendingHead;
    private int pendingCount;
    private int[] waitingIndex = new int[0];

    // per flow slot
    private int[] flowGeneration = new int[0];
    private boolean[] flowBusy = new boolean[0];
    private int[] lruPrev = new int[0];
    private int[] lruNext = new int[0];
    private boolean[] cached = new boolean[0];
    private int lruHead = NONE;
    private int lruTail = NONE;
    private int lruSize;

    // hardware threads
    private final UnsafeBuffer threadRecords;
    private final long[] threadArrivalPs;
    private final int[] threadSlot;
    private final int[] threadGeneration;
    private final int[] threadType;
    private final long[] threadCycles;
    private final boolean[] threadOverloaded;
    private final boolean[] threadMiss;
    private final boolean[] threadSecondStage;
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
    private boolean runningFinal;
    private long nowPs;

    // results waiting for delivery (stepped mode)
    private PccResult[] results = new PccResult[0];
    private int[] resultQpn = new int[0];
    private long[] resultEffectivePs = new long[0];
    private long[] resultCycles = new long[0];
    private long[] resultSeq = new long[0];
    private int resultHead;
    /** Results waiting for delivery. */
    int resultCount;
    /** Effective time of the result last taken by {@link #popResult}, ps. */
    long poppedEffectivePs;
    /** Cycles of the result last taken by {@link #popResult}. */
    long poppedCycles;

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
        this.store = new FlowContextStore(Math.max(1, algorithm.contextWords()), 16);
        this.capacity = config.ringCapacity();
        this.highWaterMark = config.effectiveOverloadHighWaterMark();
        this.coalescing = config.coalescing();
        this.cacheEntries = config.contextCacheEntries();

        final long clockHz = config.clockHz();
        final int d = config.dispatchCycles();
        final int h = config.contextHitCycles();
        final int m = config.contextMissCycles();
        final int w = config.writeBackCycles();
        s1Cycles = d;
        s1Ps = cyclesToPs(d, clockHz);
        missPs = cyclesToPs(m, clockHz);
        for (int t = 0; t < TYPES; t++) {
            final int override = config.handlerCyclesOverride(t);
            final int c = override != EmulatorConfig.DEFAULT ? override : algorithm.handlerCycles(t);
            if (c < 0 || c > EmulatorConfig.MAX_STAGE_CYCLES) {
                throw new IllegalArgumentException("handlerCycles[" + PccEventType.shortName(t) + "] of the algorithm must be in 0.."
                    + EmulatorConfig.MAX_STAGE_CYCLES + ", got " + c);
            }
            hitBusyCycles[t] = (long) d + h + c + w;
            hitPs[t] = cyclesToPs(hitBusyCycles[t], clockHz);
            s2Cycles[t] = (long) c + w;
            s2Ps[t] = cyclesToPs(s2Cycles[t], clockHz);
            hitTotalCycles[t] = hitBusyCycles[t];
            missTotalCycles[t] = (long) d + m + c + w;
        }

        final int threads = config.threadsPerCore();
        threadRecords = new UnsafeBuffer(new byte[threads * R]);
        threadArrivalPs = new long[threads];
        threadSlot = new int[threads];
        threadGeneration = new int[threads];
        threadType = new int[threads];
        threadCycles = new long[threads];
        threadOverloaded = new boolean[threads];
        threadMiss = new boolean[threads];
        threadSecondStage = new boolean[threads];
        freeThreads = new int[threads];
        for (int t = 0; t < threads; t++) {
            freeThreads[t] = threads - 1 - t; // thread 0 is taken first
        }
        freeCount = threads;
        readyQueue = new int[threads];
        stallQueue = new int[threads];
        stallEndPs = new long[threads];
        growFlowArrays(16);
        growResults(16);
    }

    /**
     * Allocates the ring and the pending-event table on first use (a NIC's flows usually occupy few
     * of its cores): the ring holds {@code ringCapacity} records of {@link #SLOT_LENGTH} bytes plus
     * room for Agrona's wrap padding, rounded up to a power of two (at least 1 KiB), off-heap.
     */
    void ensureAllocated() {
        if (ring != null) {
            return;
        }
        final int ringBytes = Math.max(1024, BitUtil.findNextPositivePowerOfTwo(capacity * SLOT_LENGTH + 2 * SLOT_LENGTH));
        ringBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH));
        pendingRecords = new UnsafeBuffer(new byte[capacity * R]);
        pendingArrivalPs = new long[capacity];
        pendingSlot = new int[capacity];
        pendingGeneration = new int[capacity];
        ring = new OneToOneRingBuffer(ringBuffer);
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
     * @return the initial result, valid until the next call on this core
     */
    PccResult startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                        final int baseRttNs) {
        ensureAllocated();
        final int slot = store.allocate(qpn, lineRateBitsPerSec, mtuBytes, baseRttNs);
        if (slot >= flowBusy.length) {
            growFlowArrays(Math.max(flowBusy.length * 2, slot + 1));
        }
        if (coalescing) {
            for (int t = 0; t < TYPES; t++) {
                waitingIndex[slot * TYPES + t] = 0;
            }
        }
        cacheInsert(slot);
        store.wrap(slot, context);
        attributes.set(lineRateBitsPerSec, algorithmSlot, false, mtuBytes, baseRttNs);
        result.reset();
        algorithm.initFlow(context, (int) (nowPs / 1000), attributes, result);
        return result;
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
        flowGeneration[slot]++;
        if (coalescing) {
            for (int t = 0; t < TYPES; t++) {
                waitingIndex[slot * TYPES + t] = 0;
            }
        }
        cacheRemove(slot);
        store.free(qpn);
    }

    private void growFlowArrays(final int n) {
        final int old = flowBusy.length;
        flowBusy = Arrays.copyOf(flowBusy, n);
        flowGeneration = Arrays.copyOf(flowGeneration, n);
        cached = Arrays.copyOf(cached, n);
        lruPrev = Arrays.copyOf(lruPrev, n);
        lruNext = Arrays.copyOf(lruNext, n);
        waitingIndex = Arrays.copyOf(waitingIndex, n * TYPES);
        for (int i = old; i < n; i++) {
            lruPrev[i] = NONE;
            lruNext[i] = NONE;
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

    /** @return the ring's producer position in bytes, 0 before first use */
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
        ringView.wrap(buffer, offset);
        final int qpn = ringView.flowId();
        final int type = ringView.type();
        final int slot = store.slot(qpn);
        if (slot < 0) {
            unknownFlow++;
            released++;
            return;
        }
        if (coalescing) {
            final int waiting = waitingIndex[slot * TYPES + type];
            if (waiting != 0) {
                pendingView.wrap(pendingRecords, (waiting - 1) * R).coalesce(ringView);
                coalesced[type]++;
                released++;
                return;
            }
        }
        int pos = pendingHead + pendingCount;
        if (pos >= capacity) {
            pos -= capacity;
        }
        pendingRecords.putBytes(pos * R, buffer, offset, R);
        pendingArrivalPs[pos] = buffer.getLong(offset + ARRIVAL_OFFSET, ORDER);
        pendingSlot[pos] = slot;
        pendingGeneration[pos] = flowGeneration[slot];
        pendingCount++;
        if (coalescing) {
            waitingIndex[slot * TYPES + type] = pos + 1;
        }
    }

    /**
     * Takes the head of the pending table off; it no longer accepts merges. When that empties the
     * table, the next event goes to its first entry again rather than on round the table: a core
     * usually has at most an event or two waiting, so its events reuse the same few (cached) lines
     * of the table instead of walking all {@code ringCapacity} entries. No merge index points into
     * an empty table, so where the table restarts is not observable.
     */
    private void removeHead(final int pos, final int slot, final int type) {
        if (coalescing && waitingIndex[slot * TYPES + type] == pos + 1) {
            waitingIndex[slot * TYPES + type] = 0;
        }
        pendingCount--;
        pendingHead = pendingCount == 0 || pendingHead + 1 == capacity ? 0 : pendingHead + 1;
        released++;
    }

    /** @return events waiting in the pending table */
    int pendingCount() {
        return pendingCount;
    }

    // ------------------------------------------------------------------------------------------
    // context cache (LRU over flow slots)

    private boolean cacheAccess(final int slot) {
        if (cacheEntries == 0) {
            cacheMisses++;
            return false;
        }
        if (cached[slot]) {
            if (lruHead != slot) {
                unlink(slot);
                linkFront(slot);
            }
            cacheHits++;
            return true;
        }
        cacheInsert(slot);
        cacheMisses++;
        return false;
    }

    private void cacheInsert(final int slot) {
        if (cacheEntries == 0 || cached[slot]) {
            return;
        }
        if (lruSize == cacheEntries) {
            cacheRemove(lruTail);
        }
        cached[slot] = true;
        lruSize++;
        linkFront(slot);
    }

    private void cacheRemove(final int slot) {
        if (!cached[slot]) {
            return;
        }
        unlink(slot);
        cached[slot] = false;
        lruSize--;
    }

    private void linkFront(final int slot) {
        lruPrev[slot] = NONE;
        lruNext[slot] = lruHead;
        if (lruHead != NONE) {
            lruPrev[lruHead] = slot;
        }
        lruHead = slot;
        if (lruTail == NONE) {
            lruTail = slot;
        }
    }

    private void unlink(final int slot) {
        final int p = lruPrev[slot];
        final int n = lruNext[slot];
        if (p != NONE) {
            lruNext[p] = n;
        } else {
            lruHead = n;
        }
        if (n != NONE) {
            lruPrev[n] = p;
        } else {
            lruTail = p;
        }
        lruPrev[slot] = NONE;
        lruNext[slot] = NONE;
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
            while (stallCount > 0 && stallEndPs[stallHead] <= tn) {
                final int th = stallQueue[stallHead];
                stallHead = stallHead + 1 == stallQueue.length ? 0 : stallHead + 1;
                stallCount--;
                pushReady(th);
            }
            while (freeCount > 0 && pendingCount > 0 && pendingArrivalPs[pendingHead] <= tn
                && !flowBusy[pendingSlot[pendingHead]]) {
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
        long next = Long.MAX_VALUE;
        if (running != NONE) {
            next = runningEndPs;
        }
        if (stallCount > 0 && stallEndPs[stallHead] < next) {
            next = stallEndPs[stallHead];
        }
        if (running == NONE && readyCount > 0 && nowPs < next) {
            next = nowPs;
        }
        if (freeCount > 0 && pendingCount > 0 && !flowBusy[pendingSlot[pendingHead]]) {
            final long at = Math.max(nowPs, pendingArrivalPs[pendingHead]);
            if (at < next) {
                next = at;
            }
        }
        return next;
    }

    /** Head of the pending table to a free hardware thread (the head's flow is not in flight). */
    private void dispatch() {
        final int pos = pendingHead;
        final int slot = pendingSlot[pos];
        pendingView.wrap(pendingRecords, pos * R);
        final int type = pendingView.type();
        removeHead(pos, slot, type);
        if (pendingGeneration[pos] != flowGeneration[slot]) {
            unknownFlow++; // the flow ended while its event waited
            return;
        }
        final int th = freeThreads[--freeCount];
        threadRecords.putBytes(th * R, pendingRecords, pos * R, R);
        threadArrivalPs[th] = pendingArrivalPs[pos];
        threadSlot[th] = slot;
        threadGeneration[th] = pendingGeneration[pos];
        threadType[th] = type;
        threadOverloaded[th] = pendingCount > highWaterMark;
        flowBusy[slot] = true;
        final boolean hit = cacheAccess(slot);
        threadMiss[th] = !hit;
        threadSecondStage[th] = false;
        threadCycles[th] = hit ? hitTotalCycles[type] : missTotalCycles[type];
        pushReady(th);
    }

    private void pushReady(final int th) {
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
        final int type = threadType[th];
        final long durationPs;
        if (threadSecondStage[th]) {
            durationPs = s2Ps[type];
            busyCycles += s2Cycles[type];
            runningFinal = true;
        } else if (threadMiss[th]) {
            durationPs = s1Ps;
            busyCycles += s1Cycles;
            runningFinal = false;
        } else {
            durationPs = hitPs[type];
            busyCycles += hitBusyCycles[type];
            runningFinal = true;
        }
        running = th;
        runningEndPs = tn + durationPs;
    }

    private void finishSegment(final long tn) {
        final int th = running;
        running = NONE;
        if (!runningFinal) {
            threadSecondStage[th] = true;
            int pos = stallHead + stallCount;
            if (pos >= stallQueue.length) {
                pos -= stallQueue.length;
            }
            stallQueue[pos] = th;
            stallEndPs[pos] = tn + missPs;
            stallCount++;
            return;
        }
        final int slot = threadSlot[th];
        flowBusy[slot] = false;
        freeThreads[freeCount++] = th;
        threadView.wrap(threadRecords, th * R);
        final int qpn = threadView.flowId();
        if (threadGeneration[th] != flowGeneration[slot]) {
            unknownFlow++; // the flow ended while its event ran
            return;
        }
        runHandler(threadView, slot, threadOverloaded[th]);
        handled[threadType[th]]++;
        pushResult(qpn, tn, threadCycles[th]);
        owner.recordLatency(tn - threadArrivalPs[th]);
    }

    private void runHandler(final PccEvent event, final int slot, final boolean overloaded) {
        store.wrap(slot, context);
        attributes.set(store.lineRateBitsPerSec(slot), algorithmSlot, overloaded, store.mtuBytes(slot),
            store.baseRttNs(slot));
        result.reset();
        algorithm.onEvent(context, event, attributes, result);
    }

    private void pushResult(final int qpn, final long effectivePs, final long cycles) {
        if (resultCount == results.length) {
            growResults(results.length * 2);
        }
        int pos = resultHead + resultCount;
        if (pos >= results.length) {
            pos -= results.length;
        }
        results[pos].copyFrom(result);
        resultQpn[pos] = qpn;
        resultEffectivePs[pos] = effectivePs;
        resultCycles[pos] = cycles;
        resultSeq[pos] = owner.nextSeq();
        resultCount++;
    }

    private void growResults(final int n) {
        final PccResult[] r = new PccResult[n];
        final int[] q = new int[n];
        final long[] e = new long[n];
        final long[] c = new long[n];
        final long[] s = new long[n];
        for (int i = 0; i < resultCount; i++) {
            int from = resultHead + i;
            if (from >= results.length) {
                from -= results.length;
            }
            r[i] = results[from];
            q[i] = resultQpn[from];
            e[i] = resultEffectivePs[from];
            c[i] = resultCycles[from];
            s[i] = resultSeq[from];
        }
        for (int i = resultCount; i < n; i++) {
            r[i] = new PccResult();
        }
        results = r;
        resultQpn = q;
        resultEffectivePs = e;
        resultCycles = c;
        resultSeq = s;
        resultHead = 0;
    }

    /** @return effective time of the oldest undelivered result (call only when {@link #resultCount} > 0) */
    long headEffectivePs() {
        return resultEffectivePs[resultHead];
    }

    /** @return sequence number of the oldest undelivered result */
    long headSeq() {
        return resultSeq[resultHead];
    }

    /**
     * Takes the oldest undelivered result; its effective time and cycles are left in
     * {@link #poppedEffectivePs} and {@link #poppedCycles}.
     *
     * @param into result to copy it into
     * @return its QPN
     */
    int popResult(final PccResult into) {
        final int pos = resultHead;
        into.copyFrom(results[pos]);
        poppedEffectivePs = resultEffectivePs[pos];
        poppedCycles = resultCycles[pos];
        resultCount--;
        // an emptied queue restarts at its first entry (cache-friendly, as the pending table)
        resultHead = resultCount == 0 || resultHead + 1 == results.length ? 0 : resultHead + 1;
        return resultQpn[pos];
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
        while (pendingCount > 0) {
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
        final int pos = pendingHead;
        final int slot = pendingSlot[pos];
        pendingView.wrap(pendingRecords, pos * R);
        final int type = pendingView.type();
        final int qpn = pendingView.flowId();
        removeHead(pos, slot, type);
        if (pendingGeneration[pos] != flowGeneration[slot]) {
            unknownFlow++;
            return;
        }
        final boolean hit = cacheAccess(slot);
        busyCycles += hit ? hitBusyCycles[type] : s1Cycles + s2Cycles[type];
        runHandler(pendingView, slot, pendingCount > highWaterMark);
        handled[type]++;
        owner.deliverNow(qpn, result, pendingArrivalPs[pos], hit ? hitTotalCycles[type] : missTotalCycles[type]);
    }

    /** Publishes the released count for a producer on another thread (before free-running starts). */
    void publishReleased() {
        shared.putLongOrdered(RELEASED_OFFSET, released);
        releasedCache = released;
    }
}
