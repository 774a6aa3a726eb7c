package dev.nicsim.nic;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;

import java.util.ArrayList;
import java.util.List;

/**
 * Test algorithm: a fixed rate and window set at flow start, optionally a fast-start budget, an
 * RTT probe and a timer; records every event it sees.
 */
final class FixedAlgorithm implements PccAlgorithm {
    /** One recorded event. */
    record Ev(int type, int subtype, int flowId, int sn, int firstSn, int flags, int txBytes, int txPackets,
              int rttSendNs, int rttReceiveNs, int rttResponseNs, int timestampNs) {
    }

    int rate = 1 << 20;
    long windowBytes = PccResult.WINDOW_UNLIMITED;
    int fastStartPackets = PccResult.FAST_START_UNCHANGED;
    boolean probeAtStart;
    /** Index (0-based) of the flow's TX_BURST event whose result requests an RTT probe; -1 for none. */
    int probeOnTxEvent = -1;
    private int txEventsSeen;
    int timerAtStartNs;
    int timerOnFirstAckNs;
    boolean record = true;
    final List<Ev> events = new ArrayList<>();
    private final PccCounters counters = new PccCounters();

    @Override
    public int contextWords() {
        return 1;
    }

    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        result.rate(rate).windowBytes(windowBytes);
        if (fastStartPackets != PccResult.FAST_START_UNCHANGED) {
            result.fastStartPackets(fastStartPackets);
        }
        if (probeAtStart) {
            result.requestRttProbe();
        }
        if (timerAtStartNs > 0) {
            result.armTimerNs(timerAtStartNs);
        }
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent e, final PccAttributes attributes, final PccResult result) {
        if (record) {
            events.add(new Ev(e.type(), e.subtype(), e.flowId(), e.sn(), e.firstSn(), e.flags(), e.txBytes(), e.txPackets(),
                e.rttRequestSendNs(), e.rttRequestReceiveNs(), e.rttResponseSendNs(), e.timestampNs()));
        }
        if (e.type() == PccEventType.TX_BURST && txEventsSeen++ == probeOnTxEvent) {
            result.requestRttProbe();
        }
        if (e.type() == PccEventType.ACK && timerOnFirstAckNs > 0 && context.get(0) == 0) {
            context.set(0, 1);
            result.armTimerNs(timerOnFirstAckNs);
        }
    }

    List<Ev> events(final int type) {
        return events.stream().filter(e -> e.type() == type).toList();
    }

    @Override
    public PccCounters counters() {
        return counters;
    }
}
