package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

/**
 * In-band network telemetry for HPCC (Li et al., SIGCOMM 2019, §3.2; the HPCC ns-3 simulator's
 * {@code PushHop} at dequeue): when a data frame starts serialisation on an egress port, the switch
 * appends one hop record to it, {@code [time ns, the port's transmitted bytes before this frame,
 * the port's queued bytes over all priorities, the link rate in bits/s]} (the four longs of
 * {@link Packet#INT_HOP_FIELDS} at index {@code intHopCount}), up to {@link Packet#INT_MAX_HOPS}
 * hops. Only fabrics that run HPCC enable it ({@link SwitchConfig#intEnabled}); other frames carry
 * no hop array and cost nothing here.
 *
 * <p>Allocation-free. Thread-safety: stateless; called on the simulation thread.
 */
final class IntTelemetryStage {
    private IntTelemetryStage() {
    }

    /**
     * Appends this egress's hop record to a data frame that carries INT room and has a free slot.
     *
     * @param port  the egress port the frame starts on
     * @param frame the frame (only {@link Packet#KIND_DATA} frames with {@code intHops} are touched)
     * @param nowPs current simulated time, ps
     */
    static void onTransmitStart(final SwitchPort port, final Packet frame, final long nowPs) {
        if (frame.kind != Packet.KIND_DATA || frame.intHops == null || frame.intHopCount >= Packet.INT_MAX_HOPS) {
            return;
        }
        long queued = 0;
        for (int prio = 0; prio < SwitchConfig.PRIORITIES; prio++) {
            queued += port.depthBytes(prio);
        }
        final int i = frame.intHopCount * Packet.INT_HOP_FIELDS;
        frame.intHops[i] = nowPs / 1000;
        frame.intHops[i + 1] = port.txBytes() - frame.frameBytes; // the port's bytes before this frame
        frame.intHops[i + 2] = queued;
        frame.intHops[i + 3] = port.rateBitsPerSec();
        frame.intHopCount++;
    }
}
