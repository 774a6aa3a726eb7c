package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives a processor as the NIC does (RoceNic offer/runProcessor/EV_PROCESSOR): every offer is
 * followed by {@code advance(now)}, and the processor is advanced again at each time it asked for
 * (the wake-ups) before time moves past it. Also the result sink, recording every result.
 */
final class Stepper implements CcResultSink {

    /** One delivered result. */
    record Result(int qpn, int rate, long windowBytes, boolean probe, int timerNs, int fastStart, long effectivePs,
                  long cycles) {
    }

    final List<Result> results = new ArrayList<>();
    final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    final PccEvent event = new PccEvent().wrap(buffer, 0);
    CcProcessor processor;
    long wakeUpPs = Long.MAX_VALUE;
    int offersRejected;

    @Override
    public void onResult(final int qpn, final PccResult r, final long effectivePs, final long cycles) {
        results.add(new Result(qpn, r.rate(), r.windowBytes(), r.rttProbeRequest(), r.timerNs(), r.fastStartPackets(),
            effectivePs, cycles));
    }

    /** Runs the wake-ups due at or before {@code t}. */
    void runTo(final long t) {
        while (wakeUpPs <= t) {
            final long at = wakeUpPs;
            wakeUpPs = Long.MAX_VALUE;
            wakeUpPs = Math.min(wakeUpPs, processor.advance(at));
        }
    }

    /** Runs every wake-up until the processor is idle. */
    void finish() {
        runTo(Long.MAX_VALUE - 1);
    }

    /** Offers the event in {@link #event} at {@code t}, after the wake-ups due by then. */
    boolean offer(final long t) {
        runTo(t);
        final boolean ok = processor.offer(event, t);
        if (!ok) {
            offersRejected++;
        }
        wakeUpPs = Math.min(wakeUpPs, processor.advance(t));
        return ok;
    }

    /** Sets the first sequence number of {@link #event}. */
    PccEvent firstSn(final int firstSn) {
        buffer.putInt(PccEventLayout.FIRST_SN_OFFSET, firstSn, ByteOrder.LITTLE_ENDIAN);
        return event;
    }

    /** @return effective times of the results, ps, in delivery order */
    long[] effectiveTimes() {
        return results.stream().mapToLong(Result::effectivePs).toArray();
    }
}
