package dev.nicsim.nic;

/**
 * Told when a flow (one RC message) has completed at its requester: for WRITE and SEND when the
 * ACK covering the message's last PSN arrives, for READ when the last READ RESPONSE packet arrives.
 *
 * <p>Called on the simulation thread, from inside the NIC's packet handling, after the flow's QPs
 * have been released; an implementation may start a new flow from the callback.
 */
@FunctionalInterface
public interface FlowListener {
    /**
     * A flow has completed.
     *
     * @param flowId       the flow id given to {@link RoceNic#startFlow}
     * @param completionPs simulated time of completion, ps
     */
    void onFlowComplete(int flowId, long completionPs);
}
