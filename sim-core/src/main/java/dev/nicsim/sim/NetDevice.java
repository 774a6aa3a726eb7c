package dev.nicsim.sim;

/**
 * A device with ports that frames arrive on: a NIC or a switch.
 *
 * <p>Called on the simulation thread only.
 */
public interface NetDevice {
    /**
     * A frame has fully arrived on a port (last bit received). The device owns the packet from now
     * on and must forward it or release it to the pool.
     *
     * @param packet the frame
     * @param inPort port number it arrived on, 0-based
     */
    void receive(Packet packet, int inPort);

    /** @return a stable name used in counters and reports (e.g. {@code host3}, {@code leaf0}) */
    String name();
}
