package dev.nicsim.fabric.run;

import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.Units;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketObserver;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;
import org.apache.commons.csv.CSVPrinter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Per-flow throughput delivered to the receivers, written to {@code throughput.csv}
 * ({@code time_ns,flow_id,bits_per_sec}).
 *
 * <h2>What is counted, where</h2>
 * The payload bytes ({@link Packet#payloadBytes}) of every data frame ({@link Packet#KIND_DATA}:
 * WRITE/SEND packets and READ responses, retransmissions included) of flow {@link Packet#flowId},
 * at the moment the frame starts serialisation on a switch port whose peer is a host NIC: the
 * last switch's output port toward the frame's receiver, the measurement point of the RCM paper Fig. 6
 * ("throughput of flows at the last switch's output port"). The frame reaches the receiver one
 * serialisation plus one propagation delay later. The hook is a {@link PacketObserver} on those
 * ports; it is installed by an event at time 0 of the run, after any observer set during set-up
 * (a packet capture), which it chains to, so both see every frame.
 *
 * <h2>Rows</h2>
 * Every {@code intervalPs} from time 0, for each flow that delivered bytes in the interval
 * {@code (t - interval, t]}, in ascending flow id: {@code t} in ns and
 * {@code round(bytes x 8 x 10^12 / intervalPs)} bits/s. Flows that delivered nothing in an interval
 * have no row. {@link #finish} writes the interval in which the run stopped, stamped with that
 * interval's end and divided by the full interval. Example: 10 packets of 1024 payload bytes in
 * one 10 us interval give {@code 10 x 1024 x 8 / 10 us = 8 192 000 000} bits/s.
 *
 * <p>Allocation: none per frame or per sample besides the CSV printers' own row formatting (one
 * counter array and one touched-flow list per partition, sized by the flow count). Thread-safety:
 * simulation thread only; in a partitioned run each partition's ports count into that partition's
 * part (its thread only), each partition takes its share of a sample in an event of its own at the
 * sample time ({@link #shareSamplesIn}, {@link #prepare}, its thread only), and the sampler's own events run on the
 * coordinator with every partition stopped.
 */
public final class ThroughputSampler implements EventHandler, PacketObserver {
    private static final int EV_INSTALL = 0;
    private static final int EV_SAMPLE = 1;

    private final Simulator sim;
    private final TimeSeriesWriter series;
    private final long intervalPs;
    private final List<EgressPort> ports = new ArrayList<>();
    /** The observer of each port in {@link #ports}: the part of the port's partition. */
    private final List<Part> portParts = new ArrayList<>();
    /** One counting part per partition of a partitioned run (one part otherwise). */
    private final Part[] parts;
    /** The partitions' simulators where they take their shares of each sample, or null ({@link #shareSamplesIn}). */
    private Simulator[] shareSims;
    private EventHandler[] shareHandlers;
    /** Flow ids touched in any part in the interval (merged at each sample; unused with one part). */
    private final boolean[] mergedTouched;
    private final int[] mergedIds;
    /** The merge's position in each part's prepared rows. */
    private final int[] mergeAt;
    private long nextSamplePs;

    /**
     * Creates the sampler and schedules its installation at time 0 and its first sample at
     * {@code intervalPs}. Call after every switch port is connected.
     *
     * @param sim        the run's simulator (at time 0)
     * @param series     where rows go
     * @param flows      number of flows (ids {@code 0 .. flows-1}); frames of other ids are ignored
     * @param intervalPs sampling interval, ps, {@code > 0}
     * @param switches   the fabric's switches; every connected port whose peer is a {@link RoceNic} is observed
     * @throws IllegalArgumentException if the interval is not positive or the flow count negative
     */
    public ThroughputSampler(final Simulator sim, final TimeSeriesWriter series, final int flows, final long intervalPs,
                             final List<SwitchAsic> switches) {
        this(sim, series, flows, intervalPs, switches, 1, s -> 0);
    }

    /**
     * Creates the sampler of a partitioned run ({@code --partitions}): each partition's ports count
     * into that partition's own arrays (the partitions run at the same time), and every sample
     * merges them (the union of the flows that delivered bytes, in ascending flow id, the bytes
     * summed), so the rows are those one shared set of arrays would give. Otherwise as
     * {@link #ThroughputSampler(Simulator, TimeSeriesWriter, int, long, List)}; {@code sim} is the
     * run's global simulator (its events run with every partition stopped).
     *
     * @param sim        the simulator of the sampler's own events (at time 0)
     * @param series     where rows go
     * @param flows      number of flows
     * @param intervalPs sampling interval, ps, {@code > 0}
     * @param switches   the fabric's switches
     * @param partitions number of partitions, {@code >= 1}
     * @param partOf     the partition of a switch, {@code 0 .. partitions-1}
     * @throws IllegalArgumentException if the interval is not positive or the flow or partition count out of range
     */
    public ThroughputSampler(final Simulator sim, final TimeSeriesWriter series, final int flows, final long intervalPs,
                             final List<SwitchAsic> switches, final int partitions,
                             final ToIntFunction<SwitchAsic> partOf) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("intervalPs must be > 0, got " + intervalPs);
        }
        if (flows < 0) {
            throw new IllegalArgumentException("flows must be >= 0, got " + flows);
        }
        this.sim = sim;
        this.series = series;
        this.intervalPs = intervalPs;
        this.parts = new Part[partitions];
        for (int i = 0; i < partitions; i++) {
            parts[i] = new Part(flows);
        }
        this.mergedTouched = partitions > 1 ? new boolean[flows] : null;
        this.mergedIds = partitions > 1 ? new int[flows] : null;
        this.mergeAt = new int[partitions];
        for (final SwitchAsic s : switches) {
            for (int p = 0; p < s.portCount(); p++) {
                final EgressPort e = s.egressPort(p);
                if (e != null && e.peer() instanceof RoceNic) {
                    ports.add(e);
                    portParts.add(parts[partOf.applyAsInt(s)]);
                }
            }
        }
        nextSamplePs = intervalPs;
        sim.schedule(0, this, EV_INSTALL, 0, null);
        sim.schedule(intervalPs, this, EV_SAMPLE, 0, null);
    }

    /**
     * Counts a data frame's payload for its flow. Allocation-free.
     *
     * @param port   the switch port toward a host
     * @param frame  the frame (read only)
     * @param timePs start of its serialisation, ps
     */
    @Override
    public void onTransmit(final EgressPort port, final Packet frame, final long timePs) {
        parts[0].onTransmit(port, frame, timePs);
    }

    /**
     * The sampler's own events: at time 0 it installs itself on the host-facing switch ports
     * (chained after any observer already there); every interval it writes the rows of the
     * interval just ended and schedules the next sample.
     *
     * @param kind install (0) or sample (1)
     * @param arg  unused
     * @param ref  unused
     */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        if (kind == EV_INSTALL) {
            for (int i = 0; i < ports.size(); i++) {
                final EgressPort e = ports.get(i);
                final PacketObserver part = portParts.get(i);
                final PacketObserver prev = e.packetObserver();
                e.setPacketObserver(prev == null ? part : new Chain(part, prev));
            }
            return;
        }
        if (!writePrepared()) {
            unprepare();
            emit(nextSamplePs);
        }
        nextSamplePs += intervalPs;
        sim.schedule(nextSamplePs, this, EV_SAMPLE, 0, null);
        shareNext();
    }

    /**
     * Makes every partition take its share of each sample ({@link #prepare}) as an event of its own
     * simulator at the sample's time, placed among that time's events where the sequential run's
     * sample event runs ({@link Simulator#scheduleFirstAmong}, scheduled at the previous sample's
     * time). Call once, before the run, on a sampler with one part per partition.
     *
     * @param partitionSims each partition's simulator, one per part
     * @throws IllegalArgumentException if the count is not the sampler's partition count
     */
    public void shareSamplesIn(final Simulator[] partitionSims) {
        if (partitionSims.length != parts.length) {
            throw new IllegalArgumentException(partitionSims.length + " simulators for " + parts.length + " partitions");
        }
        shareSims = partitionSims.clone();
        shareHandlers = new EventHandler[parts.length];
        for (int p = 0; p < parts.length; p++) {
            final int partition = p;
            shareHandlers[p] = (kind, arg, ref) -> prepare(partition, arg);
        }
        shareNext();
    }

    /** Schedules the partitions' shares of the next sample (scheduled at now), if they take them. */
    private void shareNext() {
        if (shareSims != null) {
            for (int p = 0; p < shareSims.length; p++) {
                shareSims[p].scheduleFirstAmong(nextSamplePs, sim.nowPs(), shareHandlers[p], 0, nextSamplePs, null);
            }
        }
    }

    /**
     * Writes the interval in which the run stopped, if it delivered anything (stamped with the
     * interval's end time). Call once after the run.
     *
     * @param nowPs the time the run stopped, ps
     */
    public void finish(final long nowPs) {
        unprepare(); // the run ended at a barrier where the partitions had prepared the next sample
        for (final Part p : parts) {
            if (p.touchedCount > 0) {
                emit(nextSamplePs);
                return;
            }
        }
    }

    private void emit(final long endPs) {
        final long timeNs = endPs / Units.PS_PER_NS;
        if (parts.length == 1) {
            final Part p = parts[0];
            Arrays.sort(p.touchedIds, 0, p.touchedCount);
            for (int i = 0; i < p.touchedCount; i++) {
                final int id = p.touchedIds[i];
                series.throughput(timeNs, id, bitsPerSec(p.intervalBytes[id]));
                p.intervalBytes[id] = 0;
                p.touched[id] = false;
            }
            p.touchedCount = 0;
            return;
        }
        int n = 0;
        for (final Part p : parts) {
            for (int i = 0; i < p.touchedCount; i++) {
                final int id = p.touchedIds[i];
                if (!mergedTouched[id]) {
                    mergedTouched[id] = true;
                    mergedIds[n++] = id;
                }
            }
        }
        Arrays.sort(mergedIds, 0, n);
        for (int i = 0; i < n; i++) {
            final int id = mergedIds[i];
            long bytes = 0;
            for (final Part p : parts) {
                bytes += p.intervalBytes[id];
                p.intervalBytes[id] = 0;
                p.touched[id] = false;
            }
            series.throughput(timeNs, id, bitsPerSec(bytes));
            mergedTouched[id] = false;
        }
        for (final Part p : parts) {
            p.touchedCount = 0;
        }
    }

    /**
     * A partition's share of a sample (partitioned run, the partition's thread, its event at the
     * sample time, {@link #shareSamplesIn}): the partition takes its share, on its own core: it
     * sorts the flows its ports counted, formats their rows ({@link TimeSeriesWriter#rowPrinter})
     * and clears its counts, so that the sample's event on the coordinator only merges the
     * partitions' rows by flow id ({@link #writePrepared}). Does nothing with one part or at any
     * other time.
     *
     * @param partition the partition, {@code 0 .. partitions-1}
     * @param endPs     the sample's time, ps
     */
    public void prepare(final int partition, final long endPs) {
        if (endPs != nextSamplePs || parts.length == 1) {
            return;
        }
        final Part p = parts[partition];
        final int n = p.touchedCount;
        Arrays.sort(p.touchedIds, 0, n);
        if (p.preparedIds.length < n) {
            final int size = Math.max(n, p.preparedIds.length * 2);
            p.preparedIds = new int[size];
            p.preparedBytes = new long[size];
            p.rowEnd = new int[size];
        }
        final StringBuilder rows = p.rows;
        rows.setLength(0);
        final long timeNs = endPs / Units.PS_PER_NS;
        try {
            for (int i = 0; i < n; i++) {
                final int id = p.touchedIds[i];
                final long bytes = p.intervalBytes[id];
                p.printer.printRecord(timeNs, id, bitsPerSec(bytes));
                p.preparedIds[i] = id;
                p.preparedBytes[i] = bytes;
                p.rowEnd[i] = rows.length();
                p.intervalBytes[id] = 0;
                p.touched[id] = false;
            }
        } catch (final java.io.IOException e) { // a StringBuilder does not throw
            throw new java.io.UncheckedIOException(e);
        }
        p.preparedCount = n;
        p.touchedCount = 0;
        p.preparedAtPs = endPs;
    }

    /**
     * Writes the sample of {@link #nextSamplePs} from the rows every part prepared, merged by flow
     * id (a flow's data reaches one host, so its bytes are in one part; a flow found in two parts
     * has its bytes summed and its row formatted here). Coordinator.
     *
     * @return false, writing nothing, unless every part prepared this sample and none counted bytes
     *         since (then {@link #unprepare} and {@link #emit} give the rows)
     */
    private boolean writePrepared() {
        if (parts.length == 1) {
            return false;
        }
        for (final Part p : parts) {
            if (p.preparedAtPs != nextSamplePs || p.touchedCount != 0) {
                return false;
            }
        }
        final long timeNs = nextSamplePs / Units.PS_PER_NS;
        final int[] at = mergeAt;
        Arrays.fill(at, 0);
        while (true) {
            int best = -1;
            for (int k = 0; k < parts.length; k++) {
                if (at[k] < parts[k].preparedCount
                    && (best < 0 || parts[k].preparedIds[at[k]] < parts[best].preparedIds[at[best]])) {
                    best = k;
                }
            }
            if (best < 0) {
                break;
            }
            final Part b = parts[best];
            final int id = b.preparedIds[at[best]];
            long bytes = 0;
            int holders = 0;
            for (int k = 0; k < parts.length; k++) {
                if (at[k] < parts[k].preparedCount && parts[k].preparedIds[at[k]] == id) {
                    bytes += parts[k].preparedBytes[at[k]];
                    holders++;
                }
            }
            if (holders == 1) {
                final int i = at[best];
                series.throughputRows(b.rows, i == 0 ? 0 : b.rowEnd[i - 1], b.rowEnd[i]);
                at[best]++;
            } else {
                series.throughput(timeNs, id, bitsPerSec(bytes));
                for (int k = 0; k < parts.length; k++) {
                    if (at[k] < parts[k].preparedCount && parts[k].preparedIds[at[k]] == id) {
                        at[k]++;
                    }
                }
            }
        }
        for (final Part p : parts) {
            p.preparedCount = 0;
            p.preparedAtPs = -1;
        }
        return true;
    }

    /** @return an interval's bytes as its row's bits/s: {@code round(bytes x 8 x 10^12 / intervalPs)} */
    private long bitsPerSec(final long bytes) {
        return Math.round(bytes * 8e12 / intervalPs);
    }

    /** Puts the prepared counts back into the parts' counts (nothing prepared: nothing to do). Coordinator. */
    private void unprepare() {
        for (final Part p : parts) {
            for (int i = 0; i < p.preparedCount; i++) {
                final int id = p.preparedIds[i];
                p.intervalBytes[id] += p.preparedBytes[i];
                if (!p.touched[id]) {
                    p.touched[id] = true;
                    p.touchedIds[p.touchedCount++] = id;
                }
            }
            p.preparedCount = 0;
            p.preparedAtPs = -1;
        }
    }

    /**
     * @param flowId flow id
     * @return payload bytes of the flow's data frames counted so far (all intervals)
     */
    public long deliveredBytes(final int flowId) {
        long b = 0;
        for (final Part p : parts) {
            b += p.totalBytes[flowId];
        }
        return b;
    }

    /**
     * The counts of one partition's ports (the only part of an unpartitioned run): written only by
     * that partition's thread, read and cleared by the sampler's events (coordinator, partitions
     * stopped).
     */
    private static final class Part implements PacketObserver {
        private final long[] intervalBytes;
        private final long[] totalBytes;
        private final boolean[] touched;
        private final int[] touchedIds;
        private int touchedCount;
        /** The rows of the part's prepared sample ({@link #prepare}), and its printer. */
        private final StringBuilder rows = new StringBuilder(1 << 12);
        private final CSVPrinter printer = TimeSeriesWriter.rowPrinter(rows);
        /** Per prepared row: flow id (ascending), bytes, end of its row in {@link #rows}; grown as needed. */
        private int[] preparedIds = new int[64];
        private long[] preparedBytes = new long[64];
        private int[] rowEnd = new int[64];
        private int preparedCount;
        /** The sample time the prepared rows are of, ps, or -1. */
        private long preparedAtPs = -1;

        Part(final int flows) {
            intervalBytes = new long[flows];
            totalBytes = new long[flows];
            touched = new boolean[flows];
            touchedIds = new int[flows];
        }

        @Override
        public void onTransmit(final EgressPort port, final Packet frame, final long timePs) {
            if (frame.kind != Packet.KIND_DATA) {
                return;
            }
            final int id = frame.flowId;
            if (id < 0 || id >= intervalBytes.length) {
                return;
            }
            intervalBytes[id] += frame.payloadBytes;
            totalBytes[id] += frame.payloadBytes;
            if (!touched[id]) {
                touched[id] = true;
                touchedIds[touchedCount++] = id;
            }
        }
    }

    /** @return the sampling interval, ps */
    public long intervalPs() {
        return intervalPs;
    }

    /** Two observers of one port, in order. */
    private static final class Chain implements PacketObserver {
        private final PacketObserver first;
        private final PacketObserver second;

        Chain(final PacketObserver first, final PacketObserver second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void onTransmit(final EgressPort port, final Packet frame, final long timePs) {
            first.onTransmit(port, frame, timePs);
            second.onTransmit(port, frame, timePs);
        }
    }
}
