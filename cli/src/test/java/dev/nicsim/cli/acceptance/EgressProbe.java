package dev.nicsim.cli.acceptance;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;

import java.util.Arrays;

/**
 * A read-only observer of one switch egress port and one of its priority queues: every
 * {@code intervalPs} from time 0 it records the port's cumulative frames and frame bytes
 * ({@link EgressPort#txFrames()}, {@link EgressPort#txBytes()}) and the queue's instantaneous depth
 * ({@link SwitchAsic#queueDepthBytes}). Scheduled on the run's simulator
 * ({@code Runner.simulator()}); it only reads state, so the run's outcome is unchanged.
 *
 * <p>"Wire bytes" are what the link carried: frame bytes plus {@link RoceFraming#PREAMBLE_IFG_BYTES}
 * (preamble + inter-frame gap) per frame, i.e. exactly the serialisation time x line rate / 8 of
 * {@link RoceFraming#serializationPs}; a link busy all the time carries line rate x time / 8.
 *
 * <p>Thread-safety: simulation thread only.
 */
final class EgressProbe implements EventHandler {
    private final Simulator sim;
    private final SwitchAsic sw;
    private final int port;
    private final int priority;
    private final long intervalPs;
    private final EgressPort egress;
    private long[] timePs = new long[1024];
    private long[] wireBytes = new long[1024];
    private long[] depthBytes = new long[1024];
    private int count;

    /**
     * Creates the probe and schedules its first sample at time 0 (call before the run starts).
     *
     * @param sim        the run's simulator
     * @param sw         switch
     * @param port       egress port of the switch (must be connected)
     * @param priority   queue 0..7 whose depth is sampled
     * @param intervalPs sampling period, ps, positive
     */
    EgressProbe(final Simulator sim, final SwitchAsic sw, final int port, final int priority, final long intervalPs) {
        this.sim = sim;
        this.sw = sw;
        this.port = port;
        this.priority = priority;
        this.intervalPs = intervalPs;
        this.egress = sw.egressPort(port);
        if (egress == null) {
            throw new IllegalArgumentException(sw.name() + " port " + port + " is not connected");
        }
        sim.schedule(sim.nowPs(), this, 0, 0, null);
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        if (count == timePs.length) {
            timePs = Arrays.copyOf(timePs, count * 2);
            wireBytes = Arrays.copyOf(wireBytes, count * 2);
            depthBytes = Arrays.copyOf(depthBytes, count * 2);
        }
        timePs[count] = sim.nowPs();
        wireBytes[count] = wireBytesNow();
        depthBytes[count] = sw.queueDepthBytes(port, priority);
        count++;
        sim.scheduleIn(intervalPs, this, 0, 0, null);
    }

    /** @return wire bytes (frames + preamble/IFG) the port has put on the link so far */
    long wireBytesNow() {
        return egress.txBytes() + RoceFraming.PREAMBLE_IFG_BYTES * egress.txFrames();
    }

    /** @return frame bytes (without preamble/IFG) the port has put on the link so far */
    long frameBytesNow() {
        return egress.txBytes();
    }

    /** @return the port's line rate, bits/s */
    long rateBitsPerSec() {
        return egress.rateBitsPerSec();
    }

    /**
     * Wire bytes recorded by the sample taken exactly at a time.
     *
     * @param atPs a multiple of the interval that has been sampled
     * @return cumulative wire bytes at that time
     * @throws IllegalArgumentException if no sample was taken at that time
     */
    long wireBytesAt(final long atPs) {
        return wireBytes[indexAt(atPs)];
    }

    private int indexAt(final long atPs) {
        if (atPs % intervalPs != 0) {
            throw new IllegalArgumentException(atPs + " ps is not a sampling time");
        }
        final int i = (int) (atPs / intervalPs);
        if (i >= count || timePs[i] != atPs) {
            throw new IllegalArgumentException("no sample at " + atPs + " ps");
        }
        return i;
    }

    /** @return number of samples taken */
    int count() {
        return count;
    }

    /**
     * @param i sample index
     * @return sample time, ps
     */
    long timePs(final int i) {
        return timePs[i];
    }

    /**
     * @param i sample index
     * @return queue depth at the sample, bytes
     */
    long depthBytes(final int i) {
        return depthBytes[i];
    }

    /**
     * @param i sample index
     * @return cumulative wire bytes at the sample
     */
    long wireBytes(final int i) {
        return wireBytes[i];
    }

    /**
     * Utilisation of the link between two times: wire bytes x 8 / (line rate x interval).
     *
     * @param fromPs   start, a sampled time
     * @param toPs     end, a sampled time
     * @return fraction of the interval the link was busy, 0..1
     */
    double utilisation(final long fromPs, final long toPs) {
        return utilisation(wireBytesAt(fromPs), fromPs, wireBytesAt(toPs), toPs);
    }

    /**
     * Utilisation from two cumulative wire-byte readings.
     *
     * @param fromBytes wire bytes at {@code fromPs}
     * @param fromPs    start, ps
     * @param toBytes   wire bytes at {@code toPs}
     * @param toPs      end, ps, after {@code fromPs}
     * @return (toBytes - fromBytes) x 8 / (rate x (toPs - fromPs))
     */
    double utilisation(final long fromBytes, final long fromPs, final long toBytes, final long toPs) {
        return (toBytes - fromBytes) * 8.0 / (egress.rateBitsPerSec() * ((toPs - fromPs) / 1e12));
    }
}
