package dev.nicsim.fabric.run;

/**
 * Where the host side's calls into a NIC's firmware go as they are made, before the firmware runs them
 * ({@code nicsim run --record}), so that a replay can make the same calls at the same times. The run loop
 * calls it; a trace writer implements it, and the command line hands one to {@link Runner#recordHostCalls}.
 *
 * <p>Thread-safety: called on the run's thread only.
 */
public interface HostCallRecorder {
    /**
     * A host mailbox message delivered to one NIC's firmware ({@code doca_pcc_mailbox_send} played by the host).
     *
     * @param source           the host index
     * @param timePs           delivery time, ps
     * @param messageIndex     the message's index in the scenario's {@code firmware.mailbox} list, from 0
     * @param request          the request bytes
     * @param maxResponseBytes the most reply bytes the host takes
     * @param rateBitsPerSec   the port speed the firmware reads, bits/s
     */
    void mailbox(int source, long timePs, int messageIndex, byte[] request, int maxResponseBytes, long rateBitsPerSec);

    /**
     * A port-state change delivered to one NIC's firmware ({@code doca_pcc_dev_user_port_info_changed}).
     *
     * @param source         the host index
     * @param timePs         time of the change, ps
     * @param up             the port's new state
     * @param rateBitsPerSec the port speed the firmware reads, bits/s
     */
    void portState(int source, long timePs, boolean up, long rateBitsPerSec);
}
