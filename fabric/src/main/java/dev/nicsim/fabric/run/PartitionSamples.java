package dev.nicsim.fabric.run;

import dev.nicsim.nic.QpRateVisitor;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.Units;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The queue and rate samples of a partitioned run ({@code --partitions N}), taken inside the
 * partitions: an event of each partition's own simulator at the sample time ({@link #shareQueuesAt},
 * {@link #shareRatesAt}), placed among that time's events where the sequential run's sampler event
 * runs (after the events scheduled before the previous sample, before those scheduled since),
 * reads its own switches' queue depths and its own NICs' QP rates and formats their rows into its
 * own buffers (on the thread that runs the partition, on that core's caches, both threads at once). The
 * sample's global event on the coordinator then only copies the rows to {@code queues.csv} and
 * {@code rates.csv} in device order ({@link #writeQueues}, {@link #writeRates}) rather than reading
 * every device across cores and formatting every row while the other thread waits.
 *
 * <p>The rows are byte for byte those the coordinator's own sampling writes
 * ({@link TimeSeriesWriter#rowPrinter}): same devices, same order, same state (the sequential
 * run's events before its sampler's have run, none after). A global event that changes devices
 * (a flow start, a mailbox message, a link event) at the sample time itself and before the sample
 * would make the partitions' rows miss its change: then the caller samples directly
 * ({@link #writeQueues} is not called, or returns false), and the prepared rows are dropped.
 * Preparing changes no state the direct sampling reads: a partition records the depths it saw in
 * its own arrays, which replace the last-sampled depths only when its rows are written.
 *
 * <p>Thread-safety: partition p's share event only on the thread running p (reads only p's
 * devices, writes only p's buffers and its switches' rows of the depth arrays); everything else on
 * the coordinator between windows. The coordinator's writes (the next sample times, the swapped
 * depth arrays) reach the partitions through the window's publication, theirs reach it through
 * the barrier.
 */
final class PartitionSamples {
    /** Queue priorities per port. */
    private static final int PRIORITIES = 8;

    private final SwitchAsic[] switches;
    private final RoceNic[] nics;
    private final int[] switchPartition;
    private final int[] hostPartition;
    /** The depths of the last queue sample written, per switch, port, priority (shared with the direct sampling). */
    private final long[][][] lastDepth;
    /** The depths a partition saw at its prepared sample, per switch; swapped with {@link #lastDepth} when written. */
    private final long[][][] sampledDepth;
    private final int[] queueRowStart;
    private final int[] queueRowEnd;
    private final int[] rateRowStart;
    private final int[] rateRowEnd;
    private final Part[] parts;
    /** Each partition's simulator, where its share of a sample is an event. */
    private final Simulator[] sims;
    private static final int SHARE_QUEUES = 0;
    private static final int SHARE_RATES = 1;

    /** Where {@link #sampleSwitch} puts a queue row (the {@code queues.csv} columns). */
    @FunctionalInterface
    interface QueueRowSink {
        /**
         * One row.
         *
         * @param timeNs     sample time, ns
         * @param switchName switch
         * @param port       egress port
         * @param priority   priority 0..7
         * @param depthBytes queue depth, bytes
         */
        void row(long timeNs, String switchName, int port, int priority, long depthBytes);
    }

    /**
     * One switch's queue rows of a sample, the rule of {@code queues.csv}: a row per (port,
     * priority) whose queue is not empty, or was not empty at the last sample written (the first
     * sample after a queue empties shows the 0); every depth seen is recorded in {@code seen}. The
     * coordinator's direct sampling and the partitions' both call it ({@code seen} may be
     * {@code last}: each entry is read before it is written).
     *
     * @param s      the switch
     * @param nowNs  sample time, ns
     * @param last   the depths of the last sample written, per port and priority (read)
     * @param seen   where the depths seen now go, per port and priority
     * @param rows   where the rows go
     */
    static void sampleSwitch(final SwitchAsic s, final long nowNs, final long[][] last, final long[][] seen,
                             final QueueRowSink rows) {
        for (int p = 0; p < s.portCount(); p++) {
            for (int prio = 0; prio < PRIORITIES; prio++) {
                final long depth = s.queueDepthBytes(p, prio);
                if (depth != 0 || last[p][prio] != 0) {
                    rows.row(nowNs, s.name(), p, prio, depth);
                }
                seen[p][prio] = depth;
            }
        }
    }

    /** One partition's devices and buffers. */
    private final class Part implements QpRateVisitor, QueueRowSink, EventHandler {
        final int[] ownSwitches;
        final int[] ownHosts;
        final StringBuilder queueRows = new StringBuilder(1 << 12);
        final StringBuilder rateRows = new StringBuilder(1 << 12);
        final CSVPrinter queuePrinter = TimeSeriesWriter.rowPrinter(queueRows);
        final CSVPrinter ratePrinter = TimeSeriesWriter.rowPrinter(rateRows);
        /** The sample times the buffers hold rows of, ps, or -1. */
        long queuesAtPs = -1;
        long ratesAtPs = -1;
        /** The rate sample being formatted, ns (for {@link #accept}). */
        long rateTimeNs;
        /** The switch whose queue rows are being formatted (for {@link #row}). */
        int queueSwitch;
        /**
         * The non-empty queues of the prepared sample for the tier summary, the first {@link #nonEmpty}
         * of each: switch index, port, depth. Grown by doubling, so a partition allocates nothing per
         * sample once they hold its largest sample.
         */
        int[] nonEmptySwitch = new int[64];
        int[] nonEmptyPort = new int[64];
        long[] nonEmptyDepth = new long[64];
        int nonEmpty;

        Part(final int[] ownSwitches, final int[] ownHosts) {
            this.ownSwitches = ownSwitches;
            this.ownHosts = ownHosts;
        }

        @Override
        public void row(final long timeNs, final String switchName, final int port, final int priority,
                        final long depthBytes) {
            try {
                queuePrinter.printRecord(timeNs, switchName, port, priority, depthBytes);
            } catch (final IOException e) { // a StringBuilder does not throw
                throw new UncheckedIOException(e);
            }
            if (depthBytes != 0) {
                if (nonEmpty == nonEmptyDepth.length) {
                    nonEmptySwitch = java.util.Arrays.copyOf(nonEmptySwitch, nonEmpty * 2);
                    nonEmptyPort = java.util.Arrays.copyOf(nonEmptyPort, nonEmpty * 2);
                    nonEmptyDepth = java.util.Arrays.copyOf(nonEmptyDepth, nonEmpty * 2);
                }
                nonEmptySwitch[nonEmpty] = queueSwitch;
                nonEmptyPort[nonEmpty] = port;
                nonEmptyDepth[nonEmpty++] = depthBytes;
            }
        }

        /** Its share of a sample: queues or rates ({@code kind}) at time {@code arg}, ps. Partition thread. */
        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            if (kind == SHARE_QUEUES) {
                prepareQueues(this, arg);
            } else {
                prepareRates(this, arg);
            }
        }

        @Override
        public void accept(final int qpn, final long rateBitsPerSec, final long windowBytes) {
            try {
                ratePrinter.printRecord(rateTimeNs, qpn, rateBitsPerSec, windowBytes);
            } catch (final IOException e) { // a StringBuilder does not throw
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * @param switches   the fabric's switches, in topology order
     * @param nics       the fabric's NICs, by host id
     * @param lastDepth  the last-sampled depths the direct sampling keeps, per switch, port, priority (8)
     * @param plan       which partition each device is in
     * @param hosts      number of hosts (switch {@code s} is node {@code hosts + s} of the plan)
     * @param sims       each partition's simulator
     */
    PartitionSamples(final SwitchAsic[] switches, final RoceNic[] nics, final long[][][] lastDepth,
                     final PartitionPlan plan, final int hosts, final Simulator[] sims) {
        this.switches = switches;
        this.sims = sims;
        this.nics = nics;
        this.lastDepth = lastDepth;
        this.switchPartition = new int[switches.length];
        this.hostPartition = new int[nics.length];
        this.sampledDepth = new long[switches.length][][];
        for (int s = 0; s < switches.length; s++) {
            switchPartition[s] = plan.partitionOf(hosts + s);
            sampledDepth[s] = new long[lastDepth[s].length][PRIORITIES];
        }
        for (int h = 0; h < nics.length; h++) {
            hostPartition[h] = plan.partitionOf(h);
        }
        this.queueRowStart = new int[switches.length];
        this.queueRowEnd = new int[switches.length];
        this.rateRowStart = new int[nics.length];
        this.rateRowEnd = new int[nics.length];
        this.parts = new Part[plan.partitions()];
        for (int p = 0; p < parts.length; p++) {
            parts[p] = new Part(members(switchPartition, p), members(hostPartition, p));
        }
    }

    /** @return the indices {@code i} with {@code partitionOf[i] == p}, ascending */
    private static int[] members(final int[] partitionOf, final int p) {
        int n = 0;
        for (final int q : partitionOf) {
            n += q == p ? 1 : 0;
        }
        final int[] m = new int[n];
        n = 0;
        for (int i = 0; i < partitionOf.length; i++) {
            if (partitionOf[i] == p) {
                m[n++] = i;
            }
        }
        return m;
    }

    /**
     * Schedules every partition's share of the queue sample at {@code atPs}: an event in its
     * simulator that formats its devices' rows ({@link Simulator#scheduleFirstAmong}), at the place
     * among that time's events where the sequential run's sampler event, scheduled at
     * {@code scheduledAtPs}, runs. Coordinator, between windows.
     *
     * @param atPs          the sample's time, ps
     * @param scheduledAtPs when the sampler scheduled it, ps (the previous sample's time, or 0)
     */
    void shareQueuesAt(final long atPs, final long scheduledAtPs) {
        for (int p = 0; p < parts.length; p++) {
            sims[p].scheduleFirstAmong(atPs, scheduledAtPs, parts[p], SHARE_QUEUES, atPs, null);
        }
    }

    /**
     * As {@link #shareQueuesAt}, for the rate sample.
     *
     * @param atPs          the sample's time, ps
     * @param scheduledAtPs when the sampler scheduled it, ps
     */
    void shareRatesAt(final long atPs, final long scheduledAtPs) {
        for (int p = 0; p < parts.length; p++) {
            sims[p].scheduleFirstAmong(atPs, scheduledAtPs, parts[p], SHARE_RATES, atPs, null);
        }
    }

    /** One partition's rate rows ({@link RoceNic#forEachActiveQp} on each of its NICs). */
    private void prepareRates(final Part part, final long atPs) {
        part.rateRows.setLength(0);
        part.rateTimeNs = atPs / Units.PS_PER_NS;
        for (final int h : part.ownHosts) {
            rateRowStart[h] = part.rateRows.length();
            nics[h].forEachActiveQp(part);
            rateRowEnd[h] = part.rateRows.length();
        }
        part.ratesAtPs = atPs;
    }

    /** One partition's queue rows ({@link #sampleSwitch} on each of its switches, the depths seen kept aside). */
    private void prepareQueues(final Part part, final long endPs) {
        final StringBuilder rows = part.queueRows;
        rows.setLength(0);
        part.nonEmpty = 0;
        for (final int i : part.ownSwitches) {
            part.queueSwitch = i;
            queueRowStart[i] = rows.length();
            sampleSwitch(switches[i], endPs / Units.PS_PER_NS, lastDepth[i], sampledDepth[i], part);
            queueRowEnd[i] = rows.length();
        }
        part.queuesAtPs = endPs;
    }

    /**
     * Writes the queue sample of time {@code nowPs} from the partitions' rows, if every partition
     * prepared it, makes its depths the last-sampled ones and records its non-empty queues in the
     * tier summary. Coordinator.
     *
     * @param nowPs  the sample time, ps
     * @param series where the rows go
     * @param tiers  where the non-empty depths go
     * @return false if some partition did not prepare this sample (nothing written: sample directly)
     */
    boolean writeQueues(final long nowPs, final TimeSeriesWriter series, final TierSummary tiers) {
        for (final Part p : parts) {
            if (p.queuesAtPs != nowPs) {
                return false;
            }
        }
        for (int i = 0; i < switches.length; i++) {
            series.queueRows(parts[switchPartition[i]].queueRows, queueRowStart[i], queueRowEnd[i]);
            final long[][] seen = sampledDepth[i];
            sampledDepth[i] = lastDepth[i];
            lastDepth[i] = seen;
        }
        for (final Part p : parts) {
            for (int k = 0; k < p.nonEmpty; k++) {
                tiers.record(p.nonEmptySwitch[k], p.nonEmptyPort[k], p.nonEmptyDepth[k]);
            }
            p.queuesAtPs = -1;
        }
        return true;
    }

    /**
     * Writes the rate sample of time {@code nowPs} from the partitions' rows, if every partition
     * prepared it. Coordinator.
     *
     * @param nowPs  the sample time, ps
     * @param series where the rows go
     * @return false if some partition did not prepare this sample (nothing written: sample directly)
     */
    boolean writeRates(final long nowPs, final TimeSeriesWriter series) {
        for (final Part p : parts) {
            if (p.ratesAtPs != nowPs) {
                return false;
            }
        }
        for (int h = 0; h < nics.length; h++) {
            series.rateRows(parts[hostPartition[h]].rateRows, rateRowStart[h], rateRowEnd[h]);
        }
        for (final Part p : parts) {
            p.ratesAtPs = -1;
        }
        return true;
    }
}
