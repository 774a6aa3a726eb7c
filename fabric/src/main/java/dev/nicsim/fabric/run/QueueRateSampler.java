package dev.nicsim.fabric.run;

import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Simulator;

import java.util.function.BooleanSupplier;

/**
 * Samples the fabric every {@code sampling.queue_interval_ns} (every switch queue's depth, {@code queues.csv})
 * and every {@code sampling.rate_interval_ns} (every active QP's rate and window, {@code rates.csv}) while
 * flows are unfinished, from time 0. In a partitioned run the partitions format their own devices' rows
 * ({@link PartitionSamples}) unless devices changed at the sample's time on the global simulator (a flow
 * start, mailbox message or link event), when the sample is taken here directly: the same bytes either way.
 * Either way every queue sample's non-empty depths also go to the run's {@link TierSummary}.
 *
 * <p>Thread-safety: not thread-safe; the run's thread (the global simulator's events).
 */
final class QueueRateSampler implements EventHandler, PartitionSamples.QueueRowSink {
    private static final int EV_SAMPLE_QUEUES = 1;
    private static final int EV_SAMPLE_RATES = 2;

    private final Simulator sim;
    private final TimeSeriesWriter series;
    private final Fabric fabric;
    private final Scenario.Sampling sampling;
    private final BooleanSupplier running;
    /** Where every queue sample's non-empty depths also go ({@code tiers.csv}). */
    private final TierSummary tiers;
    /** The switch being sampled directly ({@link #row}). */
    private int sampledSwitch;
    /**
     * Time of the last global event that changed devices (flow start, mailbox message, link event),
     * ps, or -1: a sample at that same time is taken directly, not from the partitions' rows.
     */
    private long devicesChangedAtPs = -1;

    /**
     * @param sim      the simulator the samples are scheduled on (the global one in a partitioned run)
     * @param series   where the samples go
     * @param fabric   the devices sampled
     * @param sampling the scenario's sampling intervals
     * @param running  whether flows are unfinished (sampling stops when it answers false)
     * @param tiers    the per-tier summary every queue sample is also recorded in
     */
    QueueRateSampler(final Simulator sim, final TimeSeriesWriter series, final Fabric fabric,
                     final Scenario.Sampling sampling, final BooleanSupplier running, final TierSummary tiers) {
        this.sim = sim;
        this.series = series;
        this.fabric = fabric;
        this.sampling = sampling;
        this.running = running;
        this.tiers = tiers;
    }

    /** Schedules the first queue sample, then the first rate sample, at time 0. */
    void start() {
        sim.schedule(0, this, EV_SAMPLE_QUEUES, 0, null);
        sim.schedule(0, this, EV_SAMPLE_RATES, 0, null);
        final PartitionSamples shares = fabric.partitionSamples();
        if (shares != null) {
            shares.shareQueuesAt(0, 0);
            shares.shareRatesAt(0, 0);
        }
    }

    /** Notes that a global event changed devices now, so that samples at this time are taken directly. */
    void devicesChanged() {
        devicesChangedAtPs = sim.nowPs();
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        if (!running.getAsBoolean()) {
            return;
        }
        final long now = sim.nowPs();
        final PartitionSamples shares = fabric.partitionSamples();
        if (kind == EV_SAMPLE_QUEUES) {
            if (shares == null || devicesChangedAtPs == now || !shares.writeQueues(now, series, tiers)) {
                sampleQueues();
            }
            tiers.sampleTaken();
            sim.scheduleIn(sampling.queueIntervalPs(), this, EV_SAMPLE_QUEUES, 0, null);
            if (shares != null) {
                shares.shareQueuesAt(now + sampling.queueIntervalPs(), now);
            }
        } else {
            if (shares == null || devicesChangedAtPs == now || !shares.writeRates(now, series)) {
                sampleRates();
            }
            sim.scheduleIn(sampling.rateIntervalPs(), this, EV_SAMPLE_RATES, 0, null);
            if (shares != null) {
                shares.shareRatesAt(now + sampling.rateIntervalPs(), now);
            }
        }
    }

    private void sampleQueues() {
        final long nowNs = sim.nowPs() / Units.PS_PER_NS;
        final long[][][] lastDepth = fabric.lastDepth();
        for (int i = 0; i < fabric.switches().length; i++) {
            sampledSwitch = i;
            PartitionSamples.sampleSwitch(fabric.switches()[i], nowNs, lastDepth[i], lastDepth[i], this);
        }
    }

    /** A row of the direct sampling: to {@code queues.csv}, and its depth to the tier summary. */
    @Override
    public void row(final long timeNs, final String switchName, final int port, final int priority, final long depthBytes) {
        series.queue(timeNs, switchName, port, priority, depthBytes);
        tiers.record(sampledSwitch, port, depthBytes);
    }

    private void sampleRates() {
        final long nowNs = sim.nowPs() / Units.PS_PER_NS;
        for (final RoceNic n : fabric.nics()) {
            n.forEachActiveQp((qpn, rate, window) -> series.rate(nowNs, qpn, rate, window));
        }
    }
}
