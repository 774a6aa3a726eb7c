package dev.nicsim.sim;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Discrete-event kernel: time in {@code long} picoseconds and deterministic tie order (events at
 * the same time run in the order they were scheduled).
 *
 * <h2>Order</h2>
 * Events run in (time, scheduled-at time, sequence number) order, where an event's scheduled-at
 * time is the simulator's now when {@link #schedule} was called and its sequence number counts the
 * calls. Now never decreases, so over {@link #schedule}'s calls the scheduled-at time never
 * decreases either, and the order is simply (time, schedule order). The scheduled-at time is in
 * the key for {@link #scheduleAs}: a partitioned run's {@link CutLink} schedules a frame from
 * another partition after its sender's window has ended, and gives it the scheduled-at time (and,
 * where the receiving side's own event would have scheduled it, the sequence number) its delivery
 * would have had on one simulator, so that it runs among the events of its time where the
 * sequential run runs it.
 *
 * <p>Layout: two tiers that together keep the exact (time, scheduled-at time, sequence) order.
 * <ul>
 *   <li>A timing wheel (calendar queue, Brown 1988) of {@value #WHEEL_SIZE} buckets of
 *       2^{@value #BUCKET_SHIFT} ps (64 ps) each, covering the next ~2.1 us from the current
 *       bucket: where a fabric's events are (serialisation ends, link deliveries after a ~1 us
 *       propagation delay, NIC wake-ups). Each bucket is a list, in time then schedule order, of
 *       slot indices linked through a {@code next} array; an occupancy bitmap finds the next
 *       non-empty bucket 64 buckets per word. Scheduling appends at the tail (or walks the
 *       bucket from its head when keys arrive out of order); taking the next event pops a head.
 *       The width sets the walk: on a k = 32 fat tree (~26 events/ns) an insert walked 2.76
 *       entries on average with 256-ps buckets, 0.37 with 64-ps ones.</li>
 *   <li>An overflow 4-ary min-heap ({@link EventHeap}) of (time, key) pairs for events beyond
 *       the wheel's window (flow starts, retransmission timers, sampling), where key = schedule
 *       sequence number (upper 40 bits) | slot (lower 24 bits); two events of the same time
 *       compare their slots' scheduled-at times, then their keys. When the current bucket
 *       advances, heap events that enter the window move, in heap order, to their buckets, which
 *       stay in (time, scheduled-at time, sequence) order.</li>
 * </ul>
 * The event's handler, kind, time and arguments live in slots recycled through a free list (the
 * most recently freed slot first, so the slots in use stay few and cached). A slot is laid out
 * across two arrays so that scheduling or taking an event touches two cache lines rather than one
 * per field: {@code slots[6s]} time, {@code [6s+1]} arg, {@code [6s+2]} next slot in the bucket,
 * {@code [6s+3]} kind, {@code [6s+4]} scheduled-at time, {@code [6s+5]} sequence number;
 * {@code slotRefs[2s]} handler and {@code [2s+1]} ref. A bucket's first and
 * last slot sit side by side ({@code buckets[2w]}, {@code [2w+1]}), so an append to a non-empty
 * bucket reads one line of the wheel, not two.
 *
 * <p>Look-ahead: every {@value #LOOKAHEAD_EVENTS} events the kernel reads, without changing
 * anything, the state the next {@value #LOOKAHEAD_EVENTS} events will read (their handlers and
 * packets, then the receiving device's state through {@link NetDevice#touch}), so that their cache
 * misses overlap (see {@code lookAhead}). It does not change the order or the results of events.
 * Whether it pays depends on the fabric and the machine (it can speed a run up or slow it down;
 * the figures are in docs/performance.md), so by default the kernel times it: every {@value #EPOCH_CYCLE} epochs of {@value #EPOCH_EVENTS} events, four are
 * run off, on, on, off, and the next 28 run in the mode whose trials took less wall time (a decayed
 * sum over the cycles). The choice depends on the machine's timing but changes only the speed: the
 * events and outputs are the same with the look-ahead on, off or chosen.
 *
 * <p>Limits: at most 2^24 (16.7 M) events pending at once and 2^39 events scheduled per run.
 * Scheduling allocates nothing once the arrays have grown to the run's peak size (they double).
 * Thread-safety: not thread-safe; a run is driven by one thread.
 */
public final class Simulator {
    private static final int SLOT_BITS = 24;
    /** Mask of the slot in an {@link EventHeap} key. */
    static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final int MAX_SLOTS = 1 << SLOT_BITS;
    /** Sequence numbers take the 39 bits above the slot, so keys stay positive. */
    private static final long MAX_SEQUENCE = 1L << 39;
    /** log2 of a wheel bucket's width in ps: 64 ps. */
    static final int BUCKET_SHIFT = 6;
    /** Number of wheel buckets (a power of two): 32768 x 64 ps = 2.097 us of window. */
    static final int WHEEL_SIZE = 1 << 15;
    private static final int WHEEL_MASK = WHEEL_SIZE - 1;
    private static final int WORD_MASK = WHEEL_SIZE / 64 - 1;

    private long nowPs;
    /** The next sequence number {@link #schedule} gives; 0 is {@link #scheduleFirstAmong}'s. */
    private long sequence = 1;
    private long eventsProcessed;
    /** Absolute index (time >>> BUCKET_SHIFT) of the wheel's first bucket; never after nowPs's. */
    private long cursorBucket;
    /** Per wheel position w: [2w] first slot of its bucket, [2w+1] last slot (valid while occupied). */
    private final int[] buckets = new int[2 * WHEEL_SIZE];
    private final long[] occupied = new long[WHEEL_SIZE / 64];
    private int wheelCount;
    /** The events beyond the wheel's window. */
    private final EventHeap heap = new EventHeap();
    /** Longs per slot in {@link #slots}. */
    static final int SLOT_STRIDE = 6;
    /** Offset of the scheduled-at time in a slot. */
    static final int SCHEDULED_AT = 4;
    /**
     * Per slot s: [6s] time in ps, [6s+1] the long argument, [6s+2] next slot in its bucket or -1,
     * [6s+3] kind, [6s+4] the time it was scheduled at, ps, [6s+5] its sequence number.
     */
    private long[] slots = new long[SLOT_STRIDE * 1024];
    /** Per slot s: [2s] the {@link EventHandler}, [2s+1] the object argument. */
    private Object[] slotRefs = new Object[2 * 1024];
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private int slotsUsed;
    private boolean stopRequested;
    /** The current {@link #runUntil}'s last time, ps; lowered to now by {@link #endAfterNow}. */
    private long runEndPs;

    /** Creates a simulator at time 0 with no events; the look-ahead chooses itself ({@link #LOOKAHEAD_AUTO}). */
    public Simulator() {
        this(LOOKAHEAD_AUTO, System::nanoTime);
    }

    /**
     * Creates a simulator with a given look-ahead mode and wall clock (tests).
     *
     * @param lookAheadMode {@link #LOOKAHEAD_AUTO}, {@link #LOOKAHEAD_ON} or {@link #LOOKAHEAD_OFF}
     * @param nanoClock     wall clock in ns that {@link #LOOKAHEAD_AUTO} times its epochs with
     * @throws IllegalArgumentException if the mode is none of the three
     */
    Simulator(final int lookAheadMode, final LongSupplier nanoClock) {
        if (lookAheadMode < LOOKAHEAD_AUTO || lookAheadMode > LOOKAHEAD_OFF) {
            throw new IllegalArgumentException("look-ahead mode must be 0 (auto), 1 (on) or 2 (off), got " + lookAheadMode);
        }
        this.lookAheadMode = lookAheadMode;
        this.nanoClock = nanoClock;
        this.lookAheadOn = lookAheadMode != LOOKAHEAD_OFF;
    }

    /** @return current simulated time in picoseconds */
    public long nowPs() {
        return nowPs;
    }

    /** @return current simulated time in nanoseconds, truncated to 32 bits as PCC timestamps are */
    public int nowNs32() {
        return (int) (nowPs / 1000);
    }

    /** @return number of events handled so far */
    public long eventsProcessed() {
        return eventsProcessed;
    }

    /** @return number of events waiting */
    public int pending() {
        return wheelCount + heap.size();
    }

    /**
     * Schedules an event.
     *
     * @param timePs  absolute time in ps, not before {@link #nowPs()}
     * @param handler receiver
     * @param kind    kind passed back to the handler
     * @param arg     long argument passed back
     * @param ref     object argument passed back, or null
     * @throws IllegalArgumentException if {@code timePs} is in the past
     * @throws IllegalStateException    if 2^24 events are already pending or 2^39 were scheduled
     */
    public void schedule(final long timePs, final EventHandler handler, final int kind, final long arg, final Object ref) {
        if (timePs < nowPs) {
            throw new IllegalArgumentException("event at " + timePs + " ps is before now " + nowPs + " ps");
        }
        if (sequence == MAX_SEQUENCE) {
            throw new IllegalStateException("more than " + MAX_SEQUENCE + " events scheduled in one run");
        }
        insert(timePs, nowPs, sequence++, handler, kind, arg, ref);
    }

    /**
     * Schedules an event with the tie-break key it would have had if it had been scheduled
     * earlier: at time {@code scheduledAtPs} with sequence number {@code seq}. Events at the same
     * time run in (scheduled-at time, sequence number) order; {@link #schedule} uses now and the
     * next sequence number, so over one thread's calls the order is the scheduling order. A
     * partitioned run's {@link CutLink} schedules a frame taken over from another partition with the
     * key the sending port would have given its delivery on one simulator.
     *
     * @param timePs        absolute time in ps, not before {@link #nowPs()}
     * @param scheduledAtPs the time the event counts as scheduled at, ps, at most {@code timePs}
     * @param seq           its sequence number: one {@link #reserveSequence} returned, or
     *                      {@link #reserveSequence}'s next
     * @param handler       receiver
     * @param kind          kind passed back to the handler
     * @param arg           long argument passed back
     * @param ref           object argument passed back, or null
     * @throws IllegalArgumentException if {@code timePs} is in the past
     * @throws IllegalStateException    if 2^24 events are already pending
     */
    void scheduleAs(final long timePs, final long scheduledAtPs, final long seq, final EventHandler handler,
                    final int kind, final long arg, final Object ref) {
        if (timePs < nowPs) {
            throw new IllegalArgumentException("event at " + timePs + " ps is before now " + nowPs + " ps");
        }
        insert(timePs, scheduledAtPs, seq, handler, kind, arg, ref);
    }

    /**
     * Schedules an event that runs before every other event of its time counted as scheduled at
     * {@code scheduledAtPs} (sequence number 0, which {@link #schedule} never gives): where a
     * sequential run's sampler event, scheduled at the previous sample, runs among the events of
     * the sample's time; a partitioned run's partitions take their shares of a sample this way.
     * Arguments as {@link #scheduleAs} (handler, kind, arg, ref as {@link #schedule}).
     *
     * @throws IllegalArgumentException if {@code timePs} is in the past or {@code scheduledAtPs} after it
     * @throws IllegalStateException    if 2^24 events are already pending
     */
    public void scheduleFirstAmong(final long timePs, final long scheduledAtPs, final EventHandler handler,
                                   final int kind, final long arg, final Object ref) {
        if (scheduledAtPs > timePs) {
            throw new IllegalArgumentException("scheduled at " + scheduledAtPs + " ps, after its time " + timePs + " ps");
        }
        scheduleAs(timePs, scheduledAtPs, 0, handler, kind, arg, ref);
    }

    /**
     * Takes the next sequence number without scheduling: an event later scheduled with it
     * ({@link #scheduleAs}) orders among the events of its time and scheduled-at time as if it had
     * been scheduled now.
     *
     * @return the sequence number
     * @throws IllegalStateException if 2^39 sequence numbers were taken
     */
    long reserveSequence() {
        if (sequence == MAX_SEQUENCE) {
            throw new IllegalStateException("more than " + MAX_SEQUENCE + " events scheduled in one run");
        }
        return sequence++;
    }

    private void insert(final long timePs, final long scheduledAtPs, final long seq, final EventHandler handler,
                        final int kind, final long arg, final Object ref) {
        final int slot = allocateSlot();
        final int base = SLOT_STRIDE * slot;
        slots[base] = timePs;
        slots[base + 1] = arg;
        slots[base + 3] = kind;
        slots[base + 4] = scheduledAtPs;
        slots[base + 5] = seq;
        slotRefs[2 * slot] = handler;
        slotRefs[2 * slot + 1] = ref;
        if ((timePs >>> BUCKET_SHIFT) - cursorBucket < WHEEL_SIZE) {
            wheelAppend(slot, timePs);
        } else {
            heap.push(timePs, (seq << SLOT_BITS) | slot, slots);
        }
    }

    /**
     * Schedules an event after a delay.
     *
     * @param delayPs delay in ps, non-negative
     * @param handler receiver
     * @param kind    kind
     * @param arg     long argument
     * @param ref     object argument or null
     */
    public void scheduleIn(final long delayPs, final EventHandler handler, final int kind, final long arg, final Object ref) {
        schedule(nowPs + delayPs, handler, kind, arg, ref);
    }

    /**
     * Runs events in time order until none is left, the next is later than {@code endPs} (or than
     * the time at which {@link #endAfterNow} was called), or {@link #stop()} is called. If the next
     * event is later than {@code endPs}, or none is left, time advances to {@code endPs} (unless
     * {@code endPs} is {@link Long#MAX_VALUE}, or the run was ended early).
     *
     * @param endPs last time at which events run, ps
     * @return number of events handled by this call
     */
    public long runUntil(final long endPs) {
        stopRequested = false;
        runEndPs = endPs;
        final long start = eventsProcessed;
        if (lookAheadMode == LOOKAHEAD_AUTO) {
            epochMarkNs = nanoClock.getAsLong();
        }
        while (!stopRequested) {
            final long t;
            int w;
            if (wheelCount > 0) {
                w = firstOccupiedBucket();
                t = slots[SLOT_STRIDE * buckets[2 * w]];
            } else if (heap.size() > 0) {
                w = -1;
                t = heap.headTimePs();
            } else {
                break;
            }
            if (t > runEndPs) {
                break;
            }
            final long b = t >>> BUCKET_SHIFT;
            if (b != cursorBucket) {
                advanceCursor(b); // buckets before b are empty; the heap's head may enter the wheel
            }
            if (w < 0) {
                w = (int) (b & WHEEL_MASK);
            }
            nowPs = t;
            final int slot = buckets[2 * w];
            final int next = (int) slots[SLOT_STRIDE * slot + 2];
            buckets[2 * w] = next;
            if (next < 0) {
                occupied[w >>> 6] &= ~(1L << w);
            }
            wheelCount--;
            if (--lookAheadCountdown <= 0) {
                lookAheadCountdown = LOOKAHEAD_EVENTS;
                if (lookAheadOn && wheelCount > 0) {
                    lookAhead(w, next);
                }
                if (--batchesToEpochEnd == 0) {
                    endEpoch();
                }
            }
            final EventHandler h = (EventHandler) slotRefs[2 * slot];
            final int kind = (int) slots[SLOT_STRIDE * slot + 3];
            final long arg = slots[SLOT_STRIDE * slot + 1];
            final Object ref = slotRefs[2 * slot + 1];
            slotRefs[2 * slot] = null;
            slotRefs[2 * slot + 1] = null;
            freeSlots[freeCount++] = slot;
            eventsProcessed++;
            h.onEvent(kind, arg, ref);
        }
        if (lookAheadMode == LOOKAHEAD_AUTO) {
            epochLoopNs += nanoClock.getAsLong() - epochMarkNs; // only time inside the loop counts
        }
        if (!stopRequested && runEndPs == endPs && endPs != Long.MAX_VALUE && endPs > nowPs) {
            // nothing left at or before the horizon: time reaches it
            nowPs = endPs;
            final long b = endPs >>> BUCKET_SHIFT;
            if (b > cursorBucket) {
                advanceCursor(b); // every pending event is later than endPs, so in bucket b or after
            }
        }
        return eventsProcessed - start;
    }

    /**
     * Events looked ahead per batch, and events between batches ({@link #lookAhead}). Eight
     * overlaps eight cold packets' misses (a core keeps more than that in flight) while the batch's
     * loads still fit the out-of-order window.
     */
    static final int LOOKAHEAD_EVENTS = 8;
    private int lookAheadCountdown;

    /** Look-ahead mode: on or off as the timed trials find faster (the default). */
    static final int LOOKAHEAD_AUTO = 0;
    /** Look-ahead mode: always on. */
    static final int LOOKAHEAD_ON = 1;
    /** Look-ahead mode: never. */
    static final int LOOKAHEAD_OFF = 2;
    /** Events per epoch of the look-ahead's choice: 2^16 (about 20 ms of a fabric run). */
    static final int EPOCH_EVENTS = 1 << 16;
    /** Epochs per cycle, the last four of them trials ({@link LookAheadTrials}). */
    static final int EPOCH_CYCLE = 32;
    private final int lookAheadMode;
    private final LongSupplier nanoClock;
    /** Whether the look-ahead runs in the current epoch. */
    private boolean lookAheadOn;
    private int batchesToEpochEnd = EPOCH_EVENTS / LOOKAHEAD_EVENTS;
    /** Wall time inside {@link #runUntil} of the current epoch before {@link #epochMarkNs}, ns. */
    private long epochLoopNs;
    private long epochMarkNs;
    private final LookAheadTrials trials = new LookAheadTrials(); // the timed mode's trials and choice
    private long epochsWithLookAhead;
    private long epochs;
    /** Deliveries found by the batch's first pass: ports at [i], packets at [LOOKAHEAD_EVENTS + i]. */
    private final Object[] lookAheadDeliveries = new Object[2 * LOOKAHEAD_EVENTS];
    /** Sum of the looked-ahead values, kept so that the JIT cannot drop the loads. */
    private int lookAheadSink;

    /**
     * Touches the state the next {@link #LOOKAHEAD_EVENTS} events will read, so that their cache
     * misses overlap in one wait instead of stalling one event after another. First pass: each
     * event's handler and argument object (for a link delivery, the packet; its switch-read fields
     * are at the start of the object); second pass, for a delivery, the receiving device's state
     * for that packet ({@link NetDevice#touch}), and for a port's other events (end of
     * serialisation, pause end) the frames it may send next ({@link EgressPort#touchNextFrame}).
     * Only loads: no state changes, so the order and
     * results of events are those without it; events scheduled by the current handler before the
     * looked-ahead ones only make the hint partly wasted.
     *
     * @param w    wheel position of the event being taken
     * @param next the slot after it in its bucket, or -1
     */
    private void lookAhead(final int w, final int next) {
        final Object[] d = lookAheadDeliveries;
        int s = next;
        int bw = w;
        int t = 0;
        int n = 0;
        for (int i = 0; i < LOOKAHEAD_EVENTS; i++) {
            if (s < 0) {
                bw = occupiedAfter(bw);
                if (bw < 0) {
                    break;
                }
                s = buckets[2 * bw];
            }
            final Object h = slotRefs[2 * s];
            final Object r = slotRefs[2 * s + 1];
            if (h instanceof EgressPort) {
                if (r instanceof Packet) {
                    t += ((Packet) r).kind;
                }
                d[n] = h;
                d[LOOKAHEAD_EVENTS + n] = r;
                n++;
            }
            s = (int) slots[SLOT_STRIDE * s + 2];
        }
        for (int i = 0; i < n; i++) {
            final EgressPort port = (EgressPort) d[i];
            final Object r = d[LOOKAHEAD_EVENTS + i];
            t += r instanceof Packet ? port.touchPeer((Packet) r) : port.touchNextFrame();
            d[i] = null;
            d[LOOKAHEAD_EVENTS + i] = null;
        }
        lookAheadSink += t;
    }

    /**
     * End of an epoch ({@value #EPOCH_EVENTS} events). In {@link #LOOKAHEAD_AUTO} mode: adds the
     * epoch's wall time to its trial, and sets the mode of the next epoch. The look-ahead only reads,
     * so the choice (which depends on the machine's timing) never changes an event or an output:
     * only the run's speed.
     */
    private void endEpoch() {
        batchesToEpochEnd = EPOCH_EVENTS / LOOKAHEAD_EVENTS;
        epochs++;
        if (lookAheadOn) {
            epochsWithLookAhead++;
        }
        if (lookAheadMode != LOOKAHEAD_AUTO) {
            return;
        }
        final long t = nanoClock.getAsLong();
        final long ns = epochLoopNs + (t - epochMarkNs);
        epochLoopNs = 0;
        epochMarkNs = t;
        lookAheadOn = trials.endEpoch(lookAheadOn, ns);
    }

    /**
     * Epochs completed so far: blocks of {@value #EPOCH_EVENTS} events, the unit in which the
     * look-ahead is switched on or off (for the run summary).
     *
     * @return epochs, {@code >= 0}
     */
    public long epochsCompleted() {
        return epochs;
    }

    /**
     * Of {@link #epochsCompleted()}, those that ran with the look-ahead on (by choice or trial in the
     * default timed mode): tells which mode the kernel settled on in a run.
     *
     * @return epochs with the look-ahead, {@code 0..epochsCompleted()}
     */
    public long epochsWithLookAhead() {
        return epochsWithLookAhead;
    }

    /** Bitmap words the look-ahead scans past the current bucket: 64 x 64 x 64 ps = 262 ns. */
    private static final int LOOKAHEAD_WORDS = 64;

    /**
     * @param w a wheel position
     * @return the first occupied wheel position after {@code w} within the next
     *         {@link #LOOKAHEAD_WORDS} bitmap words, or -1; a look-ahead bound, not an exact search
     */
    private int occupiedAfter(final int w) {
        final int b = (w + 1) & WHEEL_MASK;
        int wi = b >>> 6;
        long word = occupied[wi] & (-1L << b);
        for (int k = 0; word == 0; k++) {
            if (k == LOOKAHEAD_WORDS) {
                return -1;
            }
            wi = (wi + 1) & WORD_MASK;
            word = occupied[wi];
        }
        return (wi << 6) + Long.numberOfTrailingZeros(word);
    }

    /** Asks {@link #runUntil} to return after the current event. */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Asks {@link #runUntil} to return, leaving now there, once every event of the current time has
     * run (those its events schedule for it included): an end that does not depend on how one
     * time's events are split over partitions ({@link PartitionedRun}). Call from an event handler.
     */
    public void endAfterNow() {
        if (nowPs < runEndPs) {
            runEndPs = nowPs;
        }
    }

    /** @return time of the next event, or {@link Long#MAX_VALUE} if none */
    public long nextEventTimePs() {
        if (wheelCount > 0) {
            return slots[SLOT_STRIDE * buckets[2 * firstOccupiedBucket()]];
        }
        return heap.size() == 0 ? Long.MAX_VALUE : heap.headTimePs();
    }

    /** @return wheel position of the first non-empty bucket at or after the cursor; wheelCount > 0 */
    private int firstOccupiedBucket() {
        final int p = (int) (cursorBucket & WHEEL_MASK);
        int wi = p >>> 6;
        long word = occupied[wi] & (-1L << p);
        while (word == 0) {
            wi = (wi + 1) & WORD_MASK;
            word = occupied[wi];
        }
        return (wi << 6) + Long.numberOfTrailingZeros(word);
    }

    /** Appends a slot to its bucket, keeping the bucket in time then schedule order. */
    private void wheelAppend(final int slot, final long timePs) {
        final int w = (int) ((timePs >>> BUCKET_SHIFT) & WHEEL_MASK);
        wheelCount++;
        if ((occupied[w >>> 6] & (1L << w)) == 0) {
            buckets[2 * w] = slot;
            buckets[2 * w + 1] = slot;
            slots[SLOT_STRIDE * slot + 2] = -1;
            occupied[w >>> 6] |= 1L << w;
            return;
        }
        final int tail = buckets[2 * w + 1];
        if (!after(tail, slot)) {
            slots[SLOT_STRIDE * tail + 2] = slot;
            slots[SLOT_STRIDE * slot + 2] = -1;
            buckets[2 * w + 1] = slot;
            return;
        }
        int prev = -1;
        int n = buckets[2 * w];
        while (!after(n, slot)) { // stops at the tail at the latest, which orders after
            prev = n;
            n = (int) slots[SLOT_STRIDE * n + 2];
        }
        slots[SLOT_STRIDE * slot + 2] = n;
        if (prev < 0) {
            buckets[2 * w] = slot;
        } else {
            slots[SLOT_STRIDE * prev + 2] = slot;
        }
    }

    /**
     * @return whether slot {@code a}'s event runs after slot {@code b}'s: (time, scheduled-at time,
     *         sequence number) order
     */
    private boolean after(final int a, final int b) {
        final long[] s = slots;
        final int ia = SLOT_STRIDE * a;
        final int ib = SLOT_STRIDE * b;
        if (s[ia] != s[ib]) {
            return s[ia] > s[ib];
        }
        if (s[ia + 4] != s[ib + 4]) {
            return s[ia + 4] > s[ib + 4];
        }
        return s[ia + 5] > s[ib + 5];
    }

    /**
     * Moves the cursor forward to bucket {@code b} (no wheel event lies before it) and moves the
     * heap events that now fall inside the window to the wheel, in (time, sequence) order.
     */
    private void advanceCursor(final long b) {
        cursorBucket = b;
        while (heap.size() > 0 && (heap.headTimePs() >>> BUCKET_SHIFT) - b < WHEEL_SIZE) {
            final long t = heap.headTimePs();
            final int slot = (int) (heap.headKey() & SLOT_MASK);
            heap.removeTop(slots);
            wheelAppend(slot, t);
        }
    }

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == freeSlots.length) {
            if (slotsUsed == MAX_SLOTS) {
                throw new IllegalStateException("more than " + MAX_SLOTS + " events pending");
            }
            final int n = Math.min(MAX_SLOTS, freeSlots.length * 2);
            slots = Arrays.copyOf(slots, SLOT_STRIDE * n);
            slotRefs = Arrays.copyOf(slotRefs, 2 * n);
            freeSlots = Arrays.copyOf(freeSlots, n);
        }
        return slotsUsed++;
    }
}
