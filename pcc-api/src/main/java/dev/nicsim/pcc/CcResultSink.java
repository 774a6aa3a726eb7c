package dev.nicsim.pcc;


/**
 * Receives the algorithm's result for a flow, with the simulated time at which it takes effect
 * (after the processor's queueing and handler cycles).
 *
 * <p>Called on the thread that drives the processor.
 */
@FunctionalInterface
public interface CcResultSink {
    /**
     * One result.
     *
     * @param qpn         flow id (requester QPN)
     * @param result      the result; valid only during the call
     * @param effectivePs simulated time the result takes effect, ps; never before the event's arrival
     * @param cycles      processor cycles the event took (0 for the direct processor)
     */
    void onResult(int qpn, PccResult result, long effectivePs, long cycles);
}
