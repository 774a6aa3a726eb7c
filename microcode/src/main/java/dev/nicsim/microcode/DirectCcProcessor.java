package dev.nicsim.microcode;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.pcc.Units;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.ObjLongConsumer;

/**
 * A CC processor with no processing delay: each event runs on the algorithm the moment it is
 * offered and its result takes effect at the event's arrival time. This is the ideal NIC the
 * many-core emulator is compared against. Events offered from inside a result callback (re-entrant
 * offers) are queued and run after the current one, in order.
 *
 * <p>Counters: {@code <type>_events_handled} for type in tx, ack, nack, cnp, rtt, timer;
 * {@code events_for_unknown_flow}; then the algorithm's own counters.
 *
 * <p>Allocation-free in steady state. Thread-safety: not thread-safe; one driving thread.
 */
public final class DirectCcProcessor implements CcProcessor {
    private final PccAlgorithm algorithm;
    private final CcResultSink sink;
    private final int algorithmSlot;
    private final FlowContextStore store;
    private final PccContext context = new PccContext();
    private final PccAttributes attributes = new PccAttributes();
    private final PccResult result = new PccResult();
    private final PccEvent event = new PccEvent();
    private final PccEvent pendingView = new PccEvent();
    private final long[] handled = new long[PccEventType.COUNT];
    private long unknownFlow;
    private UnsafeBuffer pending = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH * 16]);
    private long[] pendingTimes = new long[16];
    private int pendingHead;
    private int pendingCount;
    private boolean running;

    /**
     * Creates a processor.
     *
     * @param algorithm     the algorithm every flow runs
     * @param algorithmSlot slot number the algorithm sees in its attributes, 0..15
     * @param sink          receiver of results
     */
    public DirectCcProcessor(final PccAlgorithm algorithm, final int algorithmSlot, final CcResultSink sink) {
        this.algorithm = algorithm;
        this.algorithmSlot = algorithmSlot;
        this.sink = sink;
        this.store = new FlowContextStore(Math.max(1, algorithm.contextWords()), 64);
    }

    /** @return the algorithm this processor runs */
    public PccAlgorithm algorithm() {
        return algorithm;
    }

    @Override
    public void startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                          final int baseRttNs, final int initialPsn) {
        attributes.initialPsn(initialPsn); // checks the range before anything is allocated
        final int slot = store.allocate(qpn, lineRateBitsPerSec, mtuBytes, baseRttNs);
        store.wrap(slot, context);
        attributes.set(lineRateBitsPerSec, algorithmSlot, false, mtuBytes, baseRttNs).initialPsn(initialPsn);
        result.reset();
        algorithm.initFlow(context, (int) (nowPs / Units.PS_PER_NS), attributes, result);
        sink.onResult(qpn, result, nowPs, 0);
    }

    @Override
    public void endFlow(final int qpn) {
        store.free(qpn);
    }

    @Override
    public boolean offer(final PccEvent in, final long nowPs) {
        if (in.type() >= PccEventType.COUNT) {
            throw new IllegalArgumentException("PCC event type " + in.type() + " is not in 0.." + (PccEventType.COUNT - 1));
        }
        if (pendingCount == pendingTimes.length) {
            growPending();
        }
        final int idx = (pendingHead + pendingCount) % pendingTimes.length;
        pendingView.wrap(pending, idx * PccEventLayout.RECORD_LENGTH).copyFrom(in);
        pendingTimes[idx] = nowPs;
        pendingCount++;
        if (!running) {
            drain();
        }
        return true;
    }

    private void drain() {
        running = true;
        try {
            while (pendingCount > 0) {
                final int idx = pendingHead;
                event.wrap(pending, idx * PccEventLayout.RECORD_LENGTH);
                final long nowPs = pendingTimes[idx];
                handle(nowPs);
                pendingHead = (pendingHead + 1) % pendingTimes.length;
                pendingCount--;
            }
        } finally {
            running = false;
        }
    }

    private void handle(final long nowPs) {
        final int qpn = event.flowId();
        final int slot = store.slot(qpn);
        if (slot < 0) {
            unknownFlow++;
            return;
        }
        store.wrap(slot, context);
        attributes.set(store.lineRateBitsPerSec(slot), algorithmSlot, false, store.mtuBytes(slot), store.baseRttNs(slot));
        result.reset();
        algorithm.onEvent(context, event, attributes, result);
        handled[event.type()]++;
        sink.onResult(qpn, result, nowPs, 0);
    }

    private void growPending() {
        final int n = pendingTimes.length * 2;
        final UnsafeBuffer nb = new UnsafeBuffer(new byte[n * PccEventLayout.RECORD_LENGTH]);
        final long[] nt = new long[n];
        for (int i = 0; i < pendingCount; i++) {
            final int from = (pendingHead + i) % pendingTimes.length;
            nb.putBytes(i * PccEventLayout.RECORD_LENGTH, pending, from * PccEventLayout.RECORD_LENGTH,
                PccEventLayout.RECORD_LENGTH);
            nt[i] = pendingTimes[from];
        }
        // the event flyweight may point into the old buffer while draining: re-point it
        final int currentOffset = event.buffer() == pending ? event.offset() : -1;
        pending = nb;
        pendingTimes = nt;
        if (currentOffset >= 0) {
            final int currentIdx = currentOffset / PccEventLayout.RECORD_LENGTH;
            final int newIdx = Math.floorMod(currentIdx - pendingHead, n / 2);
            event.wrap(pending, newIdx * PccEventLayout.RECORD_LENGTH);
        }
        pendingHead = 0;
    }

    @Override
    public long advance(final long nowPs) {
        return Long.MAX_VALUE;
    }

    /**
     * @param eventType event type
     * @return events of that type handled
     */
    public long handled(final int eventType) {
        return handled[eventType];
    }

    @Override
    public void forEachCounter(final ObjLongConsumer<String> visitor) {
        for (int t = 0; t < PccEventType.COUNT; t++) {
            visitor.accept(PccEventType.shortName(t) + "_events_handled", handled[t]);
        }
        visitor.accept("events_for_unknown_flow", unknownFlow);
        final PccCounters c = algorithm.counters();
        for (int i = 0; i < c.size(); i++) {
            visitor.accept(c.name(i), c.get(i));
        }
    }
}
