package dev.nicsim.sim;

/**
 * Sees every frame a port puts on its link, at the moment its first bit leaves the transmitter
 * (the start of serialisation), after the port's own {@code onTransmitStart} bookkeeping (so NIC
 * transmit timestamps and switch dequeue accounting are done; ECN CE marks are set at enqueue and
 * are visible). Used for packet captures ({@code nicsim run --pcap}) and test probes; the model
 * never depends on an observer.
 *
 * <p>An observer must only read the frame: it must not change, keep or release it (the frame is
 * still owned by the port and is delivered to the peer one serialisation plus propagation delay
 * later). It runs on the simulation thread, inside the simulation's hot path: it should not
 * allocate per frame. Set on a port with {@link EgressPort#setPacketObserver}.
 */
@FunctionalInterface
public interface PacketObserver {
    /**
     * A frame starts serialisation on a port.
     *
     * @param port   the transmitting port (its {@link EgressPort#peer()} receives the frame)
     * @param frame  the frame, read-only, valid only during the call
     * @param timePs simulated time of the first bit on the wire, ps
     */
    void onTransmit(EgressPort port, Packet frame, long timePs);
}
