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

    /**
     * A hint from the kernel's look-ahead: {@code packet} is about to arrive on {@code inPort}
     * (within the next few events). A device may read, and only read, the state its
     * {@link #receive} will read for it (routing entry, queue, counters), so that those cache
     * misses overlap with other work. It must not change any state, including the packet's: the
     * packet may still be on the wire, and the hint may be wrong (events scheduled in between run
     * first). The default touches nothing.
     *
     * @param packet the frame about to arrive (read only)
     * @param inPort port number it will arrive on
     * @return any value computed from the loads (summed by the kernel so the loads are kept)
     */
    default int touch(final Packet packet, final int inPort) {
        return 0;
    }

    /** @return a stable name used in counters and reports (e.g. {@code host3}, {@code leaf0}) */
    String name();
}
