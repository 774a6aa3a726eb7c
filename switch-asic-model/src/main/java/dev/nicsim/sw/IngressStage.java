package dev.nicsim.sw;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;

/**
 * Ingress stage of the {@link SwitchAsic} pipeline: the first thing a frame meets after it has
 * fully arrived on a port.
 * <ul>
 * <li>PFC frames ({@link Packet#KIND_PFC}, IEEE 802.1Qbb) pause or resume this switch's egress
 *     side of the link they came from ({@link EgressPort#applyPause}), are counted
 *     {@code pfc_pause_received} per class they name, and are released to the pool.</li>
 * <li>Data frames are classified: {@code priority = dscpToPriority[dscp]} (the DSCP-to-priority
 *     map of a DCQCN deployment, "Understanding DCQCN"), written to {@link Packet#priority}, and
 *     {@link Packet#ingressPort} is set. The priority is also the packet's priority group (PG),
 *     the unit of ingress accounting and PFC ({@link SharedBufferMmu}, {@link VoqStage}).</li>
 * </ul>
 *
 * <p>Allocation-free. Thread-safety: not thread-safe; simulation thread only.
 */
final class IngressStage {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final int[] dscpToPriority;
    private final SwitchPort[] ports;
    private final PacketPool pool;
    private final SwitchCounters stats;

    /**
     * @param dscpToPriority 64 entries, each 0..7 (validated configuration; not copied)
     * @param ports          the switch's ports (shared; filled as ports connect)
     * @param pool           packet pool PFC frames return to
     * @param stats          the switch's counters ({@code pfc_pause_received} per {@code port x 8 + priority})
     */
    IngressStage(final int[] dscpToPriority, final SwitchPort[] ports, final PacketPool pool, final SwitchCounters stats) {
        this.dscpToPriority = dscpToPriority;
        this.ports = ports;
        this.pool = pool;
        this.stats = stats;
    }

    /**
     * Classifies a data frame: sets its priority from its DSCP and records its ingress port.
     *
     * @param p      the frame
     * @param inPort port it arrived on
     * @return the priority, 0..7
     */
    int classify(final Packet p, final int inPort) {
        final int prio = dscpToPriority[p.dscp & 63];
        p.priority = prio;
        p.ingressPort = inPort;
        return prio;
    }

    /**
     * Applies a received PFC frame to the egress side of its port (ignored if the port is out of
     * range or unconnected) and releases it.
     *
     * @param pfc    the frame ({@link Packet#KIND_PFC})
     * @param inPort port it arrived on
     */
    void receivePfc(final Packet pfc, final int inPort) {
        final SwitchPort port = inPort >= 0 && inPort < ports.length ? ports[inPort] : null;
        if (port != null) {
            for (int g = 0; g < PRIORITIES; g++) {
                if ((pfc.pfcClassEnable & (1 << g)) != 0) {
                    stats.onPauseReceived(inPort * PRIORITIES + g);
                }
            }
            port.applyPause(pfc);
        }
        pool.release(pfc);
    }
}
