package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.RoceFraming;

import java.util.List;

/**
 * Completion time of a flow alone on an empty network, the denominator of FCT slowdown.
 *
 * <p>Model: the data frames stream at the bottleneck rate of the path, the last frame is
 * stored and forwarded on every other link, every link adds its propagation delay, and the ACK of
 * the last packet returns over the same links (its serialisation and propagation). This is what the
 * simulator gives a WRITE alone with per-packet ACKs at line rate; slowdown is clamped at 1.
 *
 * <p>Thread-safety: stateless.
 */
public final class IdealFct {
    private IdealFct() {
    }

    /**
     * Ideal completion time.
     *
     * @param path      links from requester to responder
     * @param sizeBytes message size, bytes, positive
     * @param mtuBytes  payload bytes per packet
     * @return ideal FCT, ps
     */
    public static long idealPs(final List<Scenario.Link> path, final long sizeBytes, final int mtuBytes) {
        final long packets = Math.max(1, (sizeBytes + mtuBytes - 1) / mtuBytes);
        final int lastPayload = (int) (sizeBytes - (packets - 1) * mtuBytes);
        long bottleneck = Long.MAX_VALUE;
        int bottleneckIdx = 0;
        for (int i = 0; i < path.size(); i++) {
            if (path.get(i).rateBitsPerSec() < bottleneck) {
                bottleneck = path.get(i).rateBitsPerSec();
                bottleneckIdx = i;
            }
        }
        // WRITE: RETH on the first (or only) packet
        final int fullFrame = RoceFraming.frameBytes(mtuBytes, 0);
        final int firstFrame = RoceFraming.frameBytes(mtuBytes, RoceFraming.RETH_BYTES);
        final int lastFrame = RoceFraming.frameBytes(lastPayload, packets == 1 ? RoceFraming.RETH_BYTES : 0);
        final int ackFrame = RoceFraming.frameBytes(0, RoceFraming.AETH_BYTES);
        long t = RoceFraming.serializationPs(lastFrame, bottleneck);
        if (packets > 1) {
            t += RoceFraming.serializationPs(firstFrame, bottleneck)
                + (packets - 2) * RoceFraming.serializationPs(fullFrame, bottleneck);
        }
        for (int i = 0; i < path.size(); i++) {
            final Scenario.Link l = path.get(i);
            if (i != bottleneckIdx) {
                t += RoceFraming.serializationPs(lastFrame, l.rateBitsPerSec());
            }
            t += 2 * l.delayPs() + RoceFraming.serializationPs(ackFrame, l.rateBitsPerSec());
        }
        return t;
    }

    /**
     * Unloaded round-trip time of a path: a full data frame out and an ACK back, store-and-forward
     * on every link, plus twice the propagation delay.
     *
     * @param path     links from requester to responder
     * @param mtuBytes payload bytes per packet
     * @return RTT, ps
     */
    public static long baseRttPs(final List<Scenario.Link> path, final int mtuBytes) {
        final int fullFrame = RoceFraming.frameBytes(mtuBytes, 0);
        final int ackFrame = RoceFraming.frameBytes(0, RoceFraming.AETH_BYTES);
        long t = 0;
        for (final Scenario.Link l : path) {
            t += 2 * l.delayPs() + RoceFraming.serializationPs(fullFrame, l.rateBitsPerSec())
                + RoceFraming.serializationPs(ackFrame, l.rateBitsPerSec());
        }
        return t;
    }
}
