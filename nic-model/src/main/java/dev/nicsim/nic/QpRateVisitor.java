package dev.nicsim.nic;

/**
 * Receives the current pacer rate and window of one requester QP, for periodic rate sampling
 * ({@code rates.csv}); see {@link RoceNic#forEachActiveQp(QpRateVisitor)}.
 *
 * <p>Called on the simulation thread; must not start or end flows on the NIC being visited.
 */
@FunctionalInterface
public interface QpRateVisitor {
    /**
     * One requester QP that is still sending.
     *
     * @param qpn            requester QPN, 24 bits
     * @param rateBitsPerSec pacer rate, bits/s (line rate until the flow's first PCC result)
     * @param windowBytes    window in payload bytes, or 0 ({@code PccResult.WINDOW_UNLIMITED}) when
     *                       no window limits the QP
     */
    void accept(int qpn, long rateBitsPerSec, long windowBytes);
}
