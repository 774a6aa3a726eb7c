package dev.nicsim.pcc;

import java.util.function.ObjLongConsumer;

/**
 * The NIC's congestion-control processor as the NIC sees it: flows start and end, PCC events are
 * offered, results come back through a {@link CcResultSink} at the simulated time they take effect.
 *
 * <p>Protocol for a time-stepped caller (the simulator): after {@link #offer} or a start, call
 * {@link #advance(long)} with the current time; it runs every piece of work due by then and returns
 * the next time it needs to be advanced, at which the caller schedules a wake-up.
 *
 * <p>Re-entrancy: the {@link CcResultSink} may call {@link #offer}, {@link #advance},
 * {@link #startFlow} and {@link #endFlow} from inside {@code onResult} (the NIC does: applying a
 * result sends a packet, which ends a TX burst). Implementations accept this: the direct processor
 * queues nested offers and runs them after the current event, the emulator runs nested advances and
 * queues their results behind the one being delivered. Results of one flow are delivered in the
 * order their events completed.
 *
 * <p>Thread-safety: implementations are driven by one thread unless they say otherwise.
 */
public interface CcProcessor {

    /**
     * Starts a flow: zeroes its context and runs the algorithm's flow initialisation.
     *
     * @param qpn                flow id (requester QPN, 24 bits)
     * @param nowPs              current simulated time, ps
     * @param lineRateBitsPerSec line rate of the NIC port, bits/s
     * @param mtuBytes           payload bytes per full packet
     * @param baseRttNs          unloaded path RTT, ns
     * @param initialPsn         PSN of the flow's first packet, 0..2^24 - 1 (the algorithm sees it as
     *                           {@link PccAttributes#initialPsn()} in its initFlow)
     * @throws IllegalStateException    if the flow is already running or no context slot is free
     * @throws IllegalArgumentException if {@code initialPsn} is outside 0..2^24 - 1
     */
    void startFlow(int qpn, long nowPs, long lineRateBitsPerSec, int mtuBytes, int baseRttNs, int initialPsn);

    /**
     * Starts a flow whose first PSN is 0: {@code startFlow(qpn, nowPs, lineRateBitsPerSec, mtuBytes,
     * baseRttNs, 0)}.
     *
     * @param qpn                flow id (requester QPN, 24 bits)
     * @param nowPs              current simulated time, ps
     * @param lineRateBitsPerSec line rate of the NIC port, bits/s
     * @param mtuBytes           payload bytes per full packet
     * @param baseRttNs          unloaded path RTT, ns
     * @throws IllegalStateException if the flow is already running or no context slot is free
     */
    default void startFlow(final int qpn, final long nowPs, final long lineRateBitsPerSec, final int mtuBytes,
                           final int baseRttNs) {
        startFlow(qpn, nowPs, lineRateBitsPerSec, mtuBytes, baseRttNs, 0);
    }

    /**
     * Ends a flow and frees its context; later events for it are dropped and counted as
     * {@code events_for_unknown_flow}.
     *
     * @param qpn flow id
     */
    void endFlow(int qpn);

    /**
     * Offers an event. The record is copied; the caller may reuse its buffer at once.
     *
     * @param event event record (flow id = QPN)
     * @param nowPs arrival time, ps, not before the previous call's
     * @return true if accepted (queued, coalesced or handled), false if dropped (counted per type)
     * @throws IllegalArgumentException if the event type is not a {@link PccEventType} code
     */
    boolean offer(PccEvent event, long nowPs);

    /**
     * Runs work due at or before {@code nowPs}, delivering results.
     *
     * @param nowPs current simulated time, ps
     * @return next time (ps) this processor needs to run, or {@link Long#MAX_VALUE} if idle
     */
    long advance(long nowPs);

    /**
     * Visits every counter of the processor and its algorithm (name, value), in a stable order.
     *
     * @param visitor receives (counter name, value)
     */
    void forEachCounter(ObjLongConsumer<String> visitor);
}
