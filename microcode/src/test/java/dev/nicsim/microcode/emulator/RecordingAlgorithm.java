package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;

import java.util.ArrayList;
import java.util.List;

/**
 * Test algorithm that records every event it is given (as the handler saw it) and answers with a
 * rate derived from the event, so results can be told apart. Handler cycles per type are given.
 * Allocates per event (a test tool, not a hot path).
 */
final class RecordingAlgorithm implements PccAlgorithm {

    /** One handled event as the algorithm saw it. */
    record Seen(int instance, int type, int subtype, int flags, int qpn, int sn, int firstSn, int timestampNs,
                int firstTimestampNs, int numCoalesced, int txBytes, int txPackets, boolean overloaded) {
    }

    final int instance;
    final List<Seen> seen;
    private final int[] cycles;
    private final PccCounters counters = new PccCounters();
    private final int cEvents = counters.allocate("recording_events");

    /**
     * @param instance id recorded with each event
     * @param seen     list to append to (may be shared between instances)
     * @param cycles   handler cycles per event type
     */
    RecordingAlgorithm(final int instance, final List<Seen> seen, final int... cycles) {
        this.instance = instance;
        this.seen = seen;
        this.cycles = cycles.clone();
    }

    RecordingAlgorithm(final int... cycles) {
        this(0, new ArrayList<>(), cycles);
    }

    @Override
    public int contextWords() {
        return 2;
    }

    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        result.rate(FixedPoint.RATE_ONE);
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent e, final PccAttributes attributes, final PccResult result) {
        counters.increment(cEvents);
        context.set(0, context.get(0) + 1); // events this flow has handled
        seen.add(new Seen(instance, e.type(), e.subtype(), e.flags(), e.flowId(), e.sn(), e.firstSn(), e.timestampNs(),
            e.firstTimestampNs(), e.numCoalesced(), e.txBytes(), e.txPackets(), attributes.overloaded()));
        result.rate(1 + (e.sn() & 0xFFFF));
    }

    @Override
    public int handlerCycles(final int eventType) {
        return cycles[eventType];
    }

    @Override
    public PccCounters counters() {
        return counters;
    }
}
