package dev.nicsim.microcode.trace;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;

import java.util.function.Function;
import java.util.function.ObjLongConsumer;

/**
 * A {@link CcProcessor} decorator that reports everything a real processor sees and does to a
 * {@link PccTraceListener}: each flow start and end, each event offered (before it is offered, so
 * events offered again from inside a result callback keep their order), and each result with its
 * effective time and cycles (before it is passed on). Neither the NIC nor the algorithms change:
 * the NIC talks to this object as to any processor, and the real processor delivers its results
 * to this object, which forwards them to the NIC.
 *
 * <pre>
 *   NIC --offer/startFlow/endFlow--&gt; RecordingCcProcessor --&gt; real processor
 *    ^                                   |  (listener.onEvent ...)      |
 *    +------- onResult --------------- RecordingCcProcessor &lt;-- onResult +
 *                                        (listener.onResult)
 * </pre>
 *
 * <p>{@code endFlow} carries no time; the listener is given the latest time seen in any call
 * (start, offer or advance), which is the simulation's current time when the NIC ends a
 * flow right after handling a packet.
 *
 * <p>Allocation: none per call (the decorator adds no state per event). Thread-safety: as the
 * wrapped processor (driven by one thread).
 */
public final class RecordingCcProcessor implements CcProcessor, CcResultSink {
    private final PccTraceListener listener;
    private final CcResultSink downstream;
    private final CcProcessor delegate;
    private long lastTimePs;

    /**
     * Creates the decorator and the processor it wraps.
     *
     * @param listener   receives the calls; {@link PccTraceListener#NO_OP} to record nothing
     * @param downstream the real receiver of results (the NIC)
     * @param processor  makes the real processor given the sink it must deliver its results to
     *                   (this decorator), e.g. {@code sink -> new DirectCcProcessor(algorithm, 0, sink)};
     *                   called once, here
     * @throws IllegalArgumentException if an argument is null or the factory returns null
     */
    public RecordingCcProcessor(final PccTraceListener listener, final CcResultSink downstream,
                                final Function<CcResultSink, ? extends CcProcessor> processor) {
        if (listener == null || downstream == null || processor == null) {
            throw new IllegalArgumentException("listener, downstream and processor must not be null");
        }
        this.listener = listener;
        this.downstream = downstream;
        this.delegate = processor.apply(this);
        if (delegate == null) {
            throw new IllegalArgumentException("processor: the factory returned null");
        }
    }

    /** @return the wrapped processor (for its own counters and accessors) */
    public CcProcessor delegate() {
        return delegate;
    }

    /** @return the listener calls are reported to */
    public PccTraceListener listener() {
        return listener;
    }

    /** Reports the start to the listener, then starts the flow on the wrapped processor. */
    @Override
    public void startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                          final int baseRttNs, final int initialPsn) {
        observe(nowPs);
        listener.onFlowStart(qpn, nowPs, lineRateBitsPerSec, mtuBytes, baseRttNs, initialPsn);
        delegate.startFlow(qpn, nowPs, lineRateBitsPerSec, mtuBytes, baseRttNs, initialPsn);
    }

    /** Reports the end (at the latest time seen) to the listener, then ends the flow on the wrapped processor. */
    @Override
    public void endFlow(final int qpn) {
        listener.onFlowEnd(qpn, lastTimePs);
        delegate.endFlow(qpn);
    }

    /** Reports the event to the listener, then offers it to the wrapped processor. */
    @Override
    public boolean offer(final PccEvent event, final long nowPs) {
        observe(nowPs);
        listener.onEvent(event, nowPs);
        return delegate.offer(event, nowPs);
    }

    @Override
    public long advance(final long nowPs) {
        observe(nowPs);
        return delegate.advance(nowPs);
    }

    @Override
    public void forEachCounter(final ObjLongConsumer<String> visitor) {
        delegate.forEachCounter(visitor);
    }

    /** A result of the wrapped processor: reported to the listener, then passed to the downstream sink. */
    @Override
    public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
        listener.onResult(qpn, result, effectivePs, cycles);
        downstream.onResult(qpn, result, effectivePs, cycles);
    }

    private void observe(final long nowPs) {
        if (nowPs > lastTimePs) {
            lastTimePs = nowPs;
        }
    }
}
