package dev.nicsim.nic;

/**
 * What one unfinished requester flow did up to now, as {@link RoceNic#unfinishedFlows()} reports it
 * at the end of a run (the run summary's line on stalled and unfinished flows): how far its message
 * got, the pacer rate it sits at and since when, and what its congestion control asked of the NIC.
 * Times are simulated ps; rates bits/s.
 *
 * @param flowId               simulation flow id
 * @param qpn                  requester QPN, 24 bits
 * @param sizeBytes            message size, bytes
 * @param ackedBytes           bytes of the message acknowledged (WRITE/SEND: below the oldest
 *                             unacknowledged packet; READ: READ data accepted in order), {@code 0 .. sizeBytes}
 * @param rateBitsPerSec       pacer rate now (line rate until the flow's first CC result sets one), bits/s
 * @param lowestRateBitsPerSec lowest pacer rate any CC result of the flow set (line rate if none lowered it), bits/s
 * @param rateSincePs          when the pacer rate last changed value (the flow's start if it never did), ps
 * @param progressPs           when a byte of the message was last newly acknowledged (the flow's start if
 *                             none was), ps
 * @param lastResultPs         when the flow's last CC result took effect, ps; -1 if none has
 * @param rttProbes            RTT probes the NIC sent for the flow (each asked by a result's RTT-probe request)
 * @param rttResponses         RTT responses that came back for the flow (from the hardware responder or a
 *                             notification-point program)
 * @param awaitingInit         whether the flow still waits for its first CC result before sending
 */
public record FlowProgress(int flowId, int qpn, long sizeBytes, long ackedBytes, long rateBitsPerSec,
                           long lowestRateBitsPerSec, long rateSincePs, long progressPs, long lastResultPs,
                           int rttProbes, int rttResponses, boolean awaitingInit) {
}
