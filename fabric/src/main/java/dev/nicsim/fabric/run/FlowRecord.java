package dev.nicsim.fabric.run;

/**
 * Outcome of one flow, a row of {@code flows.csv}.
 *
 * @param flowId     flow index
 * @param src        requester host
 * @param dst        responder host
 * @param sizeBytes  message size, bytes
 * @param startNs    start time, ns
 * @param fctNs      flow completion time (start to last ACK or last READ response), ns; -1 if unfinished
 * @param idealFctNs completion time of the flow alone on the empty network, ns
 */
public record FlowRecord(int flowId, int src, int dst, long sizeBytes, long startNs, long fctNs, long idealFctNs) {

    /** @return whether the flow completed before the run stopped */
    public boolean completed() {
        return fctNs >= 0;
    }

    /** @return fct / ideal, at least 1; NaN if unfinished */
    public double slowdown() {
        return completed() ? Math.max(1.0, fctNs / (double) idealFctNs) : Double.NaN;
    }
}
