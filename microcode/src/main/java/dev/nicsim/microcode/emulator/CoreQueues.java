package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.FlowContextStore;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An emulated core's way in and way out: the pending-event table events enter (from the ring, or
 * offered directly when stepped), merged per (flow, type) when coalescing is on, and the result
 * queue that completed events leave by, in completion order, for the emulator to deliver. Also
 * the flow table both index by slot ({@link FlowTable}). {@link EmulatorCore}, the only subclass,
 * adds the hardware threads and the dispatch loop between the two.
 *
 * <p>The state is fields of the core itself, not an object per table: with thousands of cores in
 * a fabric, each event finds its core's state cold, and each further object would be a further
 * cold cache line.
 *
 * <p>Thread-safety: the core's consumer thread only (see {@link EmulatorCore}).
 */
abstract sealed class CoreQueues implements MessageHandler permits EmulatorCore {
    private static final int R = PccEventLayout.RECORD_LENGTH;

    /** The emulator (sequence numbers, latency histograms, free-running sink). */
    final UnicEmulator owner;
    /** Off-heap context words of the flows this core owns. */
    final FlowContextStore store;
    /** Events the queue (ring plus pending table) holds at most. */
    final int capacity;
    /** Whether events of one (flow, type) merge while they wait. */
    final boolean coalescing;
    /** Flyweights and result, shared with the cores run by the same thread ({@link CoreScratch}). */
    CoreScratch scratch;

    /** Events taken off the queue (dispatched, merged or dropped as unknown). */
    long released;
    /** Events merged into a waiting one, per type. */
    final long[] coalesced = new long[PccEventType.COUNT];
    /** Events for a flow not running (never started, or ended while the event waited or ran). */
    long unknownFlow;

    /** Rows a core's tables start with (pending events, flow slots, results); each grows by doubling. */
    static final int INITIAL_ROWS = 8;

    // pending-event table, PendingTable: FIFO of waiting events, one per (flow, type) when coalescing;
    // pendingRows entries (a power of two up to capacity, or capacity), grown when full
    UnsafeBuffer pendingRecords;
    long[] pendingMeta;
    private int pendingRows;
    int pendingHead;
    int pendingCount;

    // flow table, FlowTable: per flow slot generation, busy, LRU links, waiting events;
    // the context cache is an LRU list through its rows
    int[] flows = new int[0];

    // results waiting for delivery (stepped mode), ResultQueue
    private long[] resultMeta = new long[0];
    private int resultHead;
    /** Results waiting for delivery. */
    int resultCount;
    /** Effective time of the result last taken by {@link #popResult}, ps. */
    long poppedEffectivePs;
    /** Cycles of the result last taken by {@link #popResult}. */
    long poppedCycles;

    /**
     * @param owner  the emulator
     * @param config validated configuration (ring capacity, coalescing)
     * @param store  the core's flow contexts
     */
    CoreQueues(final UnicEmulator owner, final EmulatorConfig config, final FlowContextStore store) {
        this.owner = owner;
        this.store = store;
        this.scratch = owner.steppedScratch();
        this.capacity = config.ringCapacity();
        this.coalescing = config.coalescing();
        growFlowArrays(INITIAL_ROWS);
        growResults(INITIAL_ROWS);
    }

    /**
     * Allocates the pending-event table on first use, with room for {@link #INITIAL_ROWS} events
     * (at most {@link #capacity}); {@link #accept} doubles it when full.
     */
    final void ensureAllocated() {
        if (pendingRecords != null) {
            return;
        }
        pendingRows = Math.min(capacity, INITIAL_ROWS);
        pendingRecords = new UnsafeBuffer(new byte[pendingRows * R]);
        pendingMeta = new long[pendingRows * PendingTable.ROW];
    }

    /**
     * Doubles the full pending table (at most {@link #capacity} entries): its events move to the
     * first entries in FIFO order and each merge index follows its event, so the order events are
     * dispatched and merged in is that of a table made at full size.
     */
    private void growPending() {
        final int rows = pendingRows;
        final int n = Math.min(capacity, rows * 2);
        final UnsafeBuffer records = new UnsafeBuffer(new byte[n * R]);
        final long[] meta = new long[n * PendingTable.ROW];
        for (int i = 0; i < pendingCount; i++) {
            final int from = pendingHead + i < rows ? pendingHead + i : pendingHead + i - rows;
            records.putBytes(PendingTable.recordOffset(i), pendingRecords, PendingTable.recordOffset(from), R);
            System.arraycopy(pendingMeta, from * PendingTable.ROW, meta, i * PendingTable.ROW, PendingTable.ROW);
        }
        if (coalescing) {
            final int slots = FlowTable.slots(flows);
            for (int slot = 0; slot < slots; slot++) {
                for (int t = 0; t < PccEventType.COUNT; t++) {
                    final int w = FlowTable.waiting(flows, slot, t);
                    if (w != 0) {
                        final int moved = w - 1 >= pendingHead ? w - 1 - pendingHead : w - 1 + rows - pendingHead;
                        FlowTable.waiting(flows, slot, t, moved + 1);
                    }
                }
            }
        }
        pendingRecords = records;
        pendingMeta = meta;
        pendingRows = n;
        pendingHead = 0;
    }


    /**
     * Sets the flyweights and result this core handles events with: the emulator's stepped set, or
     * the set of the free-running agent that runs this core. Call only while no thread runs the core.
     *
     * @param shared the set, used by one thread at a time
     */
    final void useScratch(final CoreScratch shared) {
        scratch = shared;
    }


    final void growFlowArrays(final int n) {
        flows = FlowTable.grow(flows, n);
    }

    /** Forgets a slot's waiting events of every type (their merge index). */
    final void clearWaiting(final int slot) {
        if (coalescing) {
            FlowTable.clearWaiting(flows, slot);
        }
    }


    /** One ring record (free-running): {@link #accept} with the arrival time the producer wrote after it. */
    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int offset, final int length) {
        accept(scratch.ringView.wrap(buffer, offset), buffer.getLong(offset + CoreRing.ARRIVAL_OFFSET, CoreRing.ORDER));
    }

    /**
     * One accepted event into the pending table: looked up by QPN in this core's store, merged
     * into the waiting event of its (flow, type) if there is one (first timestamp and sequence
     * number kept, count and TX totals added: {@link PccEvent#coalesce}), else appended to the
     * pending table; an event for a flow not running is counted and released.
     *
     * @param incoming  the event (a ring record's view, or the offered event when stepped); copied
     * @param arrivalPs its arrival time, ps
     */
    final void accept(final PccEvent incoming, final long arrivalPs) {
        final int qpn = incoming.flowId();
        final int type = incoming.type();
        final int slot = store.slot(qpn);
        if (slot < 0) {
            unknownFlow++;
            released++;
            return;
        }
        if (coalescing) {
            final int waiting = FlowTable.waiting(flows, slot, type);
            if (waiting != 0) {
                scratch.pendingView.wrap(pendingRecords, PendingTable.recordOffset(waiting - 1)).coalesce(incoming);
                coalesced[type]++;
                released++;
                return;
            }
        }
        if (pendingCount == pendingRows) {
            growPending(); // below capacity: the queue's depth bound (checked by the producer) is capacity
        }
        int pos = pendingHead + pendingCount;
        if (pos >= pendingRows) {
            pos -= pendingRows;
        }
        pendingRecords.putBytes(PendingTable.recordOffset(pos), incoming.buffer(), incoming.offset(), R);
        PendingTable.set(pendingMeta, pos, arrivalPs, PendingTable.slotGeneration(slot, FlowTable.generation(flows, slot)));
        pendingCount++;
        if (coalescing) {
            FlowTable.waiting(flows, slot, type, pos + 1);
        }
    }

    /**
     * Takes the head of the pending table off; it no longer accepts merges. When that empties the
     * table, the next event goes to its first entry again rather than on round the table: a core
     * usually has at most an event or two waiting, so its events reuse the same few (cached) lines
     * of the table instead of walking all its entries. No merge index points into
     * an empty table, so where the table restarts is not observable.
     */
    final void removeHead(final int pos, final int slot, final int type) {
        if (coalescing && FlowTable.waiting(flows, slot, type) == pos + 1) {
            FlowTable.waiting(flows, slot, type, 0);
        }
        pendingCount--;
        pendingHead = pendingCount == 0 || pendingHead + 1 == pendingRows ? 0 : pendingHead + 1;
        released++;
    }

    /** @return events waiting in the pending table */
    final int pendingCount() {
        return pendingCount;
    }


    final void pushResult(final int qpn, final long effectivePs, final long cycles) {
        final int entries = resultMeta.length / ResultQueue.ROW;
        if (resultCount == entries) {
            growResults(entries * 2);
        }
        int pos = resultHead + resultCount;
        if (pos >= resultMeta.length / ResultQueue.ROW) {
            pos -= resultMeta.length / ResultQueue.ROW;
        }
        ResultQueue.set(resultMeta, pos, qpn, effectivePs, cycles, owner.nextSeq(), scratch.result);
        resultCount++;
    }

    private void growResults(final int n) {
        final int entries = resultMeta.length / ResultQueue.ROW;
        final long[] meta = new long[n * ResultQueue.ROW];
        for (int i = 0; i < resultCount; i++) {
            int from = resultHead + i;
            if (from >= entries) {
                from -= entries;
            }
            System.arraycopy(resultMeta, from * ResultQueue.ROW, meta, i * ResultQueue.ROW, ResultQueue.ROW);
        }
        resultMeta = meta;
        resultHead = 0;
    }

    /** @return effective time of the oldest undelivered result (call only when {@link #resultCount} > 0) */
    final long headEffectivePs() {
        return ResultQueue.effectivePs(resultMeta, resultHead);
    }

    /** @return sequence number of the oldest undelivered result */
    final long headSeq() {
        return ResultQueue.seq(resultMeta, resultHead);
    }

    /**
     * Takes the oldest undelivered result; its effective time and cycles are left in
     * {@link #poppedEffectivePs} and {@link #poppedCycles}.
     *
     * @param into result to copy it into
     * @return its QPN
     */
    final int popResult(final PccResult into) {
        final int pos = resultHead;
        ResultQueue.result(resultMeta, pos, into);
        poppedEffectivePs = ResultQueue.effectivePs(resultMeta, pos);
        poppedCycles = ResultQueue.cycles(resultMeta, pos);
        resultCount--;
        // an emptied queue restarts at its first entry (cache-friendly, as the pending table)
        resultHead = resultCount == 0 || resultHead + 1 == resultMeta.length / ResultQueue.ROW ? 0 : resultHead + 1;
        return ResultQueue.qpn(resultMeta, pos);
    }
}
