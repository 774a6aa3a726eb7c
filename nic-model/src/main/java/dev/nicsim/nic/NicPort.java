package dev.nicsim.nic;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * The transmit side of a NIC's single port: serialisation, propagation and PFC pause come from
 * {@link EgressPort}; which frame goes next is decided by the NIC ({@link TxArbiter#nextFrame()}):
 * ACK/NAK/CNP/RTT frames first, then data packets of the QPs round-robin.
 *
 * <p>Thread-safety: not thread-safe; simulation thread only.
 */
final class NicPort extends EgressPort {
    private final TxArbiter tx;

    /**
     * Creates the port.
     *
     * @param sim            simulator
     * @param rateBitsPerSec link rate, bits/s, positive
     * @param propagationPs  one-way propagation delay, ps, non-negative
     * @param tx             the transmit arbiter of the NIC that owns the port
     */
    NicPort(final Simulator sim, final long rateBitsPerSec, final long propagationPs, final TxArbiter tx) {
        super(sim, rateBitsPerSec, propagationPs);
        this.tx = tx;
    }

    @Override
    protected Packet nextDataPacket() {
        return tx.nextFrame();
    }

    @Override
    protected boolean needsEndOfFrameEvent(final long frameEndPs) {
        return tx.needsLookAt(frameEndPs);
    }

    @Override
    protected void onTransmitStart(final Packet frame) {
        tx.onTransmitStart(frame);
    }
}
