package dev.nicsim.microcode.trace;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccResult;

/**
 * What the congestion-control side of one NIC does, as a stream of typed calls: flows start and
 * end, PCC events are offered, results come back. The model emits to this interface
 * (docs/architecture.md "Traces and counters"; the Chronicle Queue style of "the model emits to an
 * interface and the trace is one implementation of it"); {@link RecordingCcProcessor} produces the
 * calls for any {@link CcProcessor}. Every method has a no-op default, so an
 * implementation overrides only what it needs; {@link #NO_OP} ignores everything.
 *
 * <p>The calls of one processor arrive in the order the processor saw them, which is what a
 * replay needs: flow starts, events and flow ends in offer order (times non-decreasing), each
 * result after the call that produced it. Units: times in simulated picoseconds since the start of
 * the run; event records are the 64-byte {@link PccEventLayout} records whose own
 * timestamps are 32-bit nanoseconds.
 *
 * <p>Implementations are called on the thread driving the processor (the simulation thread) from
 * inside the packet path: they must not allocate per call in steady state, and must not keep the
 * event or result objects (both are reused; copy what is needed). Thread-safety: called from one
 * thread.
 */
public interface PccTraceListener {
    /** A listener that ignores every call. Stateless and thread-safe. */
    PccTraceListener NO_OP = new PccTraceListener() {
    };

    /**
     * A flow started on the processor ({@link CcProcessor#startFlow}); its
     * initial result follows through {@link #onResult}.
     *
     * @param qpn                flow id (requester QPN, 24 bits)
     * @param timePs             start time, ps
     * @param lineRateBitsPerSec line rate of the NIC port, bits/s (PCC rates are 20-bit fractions of it)
     * @param mtuBytes           payload bytes per full packet
     * @param baseRttNs          unloaded path RTT, ns
     * @param initialPsn         PSN of the flow's first packet, 0..2^24 - 1
     */
    default void onFlowStart(final int qpn, final long timePs, final long lineRateBitsPerSec, final int mtuBytes,
                             final int baseRttNs, final int initialPsn) {
    }

    /**
     * A flow ended ({@link CcProcessor#endFlow}); later events for it are
     * dropped by the processor, so a replay must end flows where the recording did.
     *
     * @param qpn    flow id
     * @param timePs time of the call, ps (the time of the latest call seen, since
     *               {@code endFlow} carries none)
     */
    default void onFlowEnd(final int qpn, final long timePs) {
    }

    /**
     * An event was offered to the processor (whether it then accepted, merged or dropped it).
     *
     * @param event  the 64-byte record ({@link PccEventLayout}); a flyweight over
     *               the caller's buffer, valid only during the call
     * @param timePs arrival time, ps
     */
    default void onEvent(final PccEvent event, final long timePs) {
    }

    /**
     * The processor delivered a result ({@link CcResultSink#onResult}).
     *
     * @param qpn         flow id
     * @param result      the result, valid only during the call
     * @param effectivePs time the result takes effect, ps
     * @param cycles      processor cycles the event took (0 for the direct processor and for a
     *                    flow's initial result)
     */
    default void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
    }
}
