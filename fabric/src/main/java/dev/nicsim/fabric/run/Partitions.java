package dev.nicsim.fabric.run;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.nic.FlowListener;
import dev.nicsim.nic.PeerQpReleases;
import dev.nicsim.sim.CutLink;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.PartitionedRun;
import dev.nicsim.sim.Simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * The per-partition state of a partitioned run ({@code nicsim run --partitions N}, N &gt;= 2) that the
 * {@link Runner} builds its fabric on: a {@link Simulator} and a {@link PacketPool} per partition
 * ({@link PartitionPlan} says which device is where), the {@link CutLink}s, each partition's
 * deferred peer-QP releases ({@link PeerQpReleases}) and its flow completions, and the merge of
 * those at every barrier.
 *
 * <p>Completions are recorded per partition in the order that partition's events completed flows,
 * and merged at the barrier in the order (completion time, partition, local order): the order
 * {@code fct.txt} is written in. Thread-safety: each partition's listener on that partition's
 * thread; everything else on the coordinator.
 */
final class Partitions {
    final PartitionPlan plan;
    final Simulator[] sims;
    final PacketPool[] pools;
    final PeerQpReleases[] releases;
    final Completions[] completions;
    private final List<CutLink> cutLinks = new ArrayList<>();
    private final int threads;

    /**
     * @param plan    the split
     * @param pools   makes a partition's pool
     * @param threads threads to run on, {@code 1 .. plan.partitions()}
     */
    Partitions(final PartitionPlan plan, final IntFunction<PacketPool> pools, final int threads) {
        this.plan = plan;
        final int n = plan.partitions();
        this.sims = new Simulator[n];
        this.pools = new PacketPool[n];
        this.releases = new PeerQpReleases[n];
        this.completions = new Completions[n];
        for (int p = 0; p < n; p++) {
            sims[p] = new Simulator();
            this.pools[p] = pools.apply(p);
            releases[p] = new PeerQpReleases();
            completions[p] = new Completions();
            completions[p].sim = sims[p];
        }
        this.threads = threads;
    }

    /**
     * Cuts both directions of every link the plan cuts (after every port is connected), in link
     * order, then direction a-to-b before b-to-a: the hand-over order.
     *
     * @param graph the fabric's graph
     * @param port  the egress port of (node, port)
     */
    void cutLinks(final TopologyGraph graph, final BiFunction<Integer, Integer, EgressPort> port) {
        for (final int i : plan.cutEdges()) {
            final TopologyGraph.Edge e = graph.edges().get(i);
            cutLinks.add(new CutLink(port.apply(e.a(), e.portA()), sims[plan.partitionOf(e.b())], cutLinks.size()));
            cutLinks.add(new CutLink(port.apply(e.b(), e.portB()), sims[plan.partitionOf(e.a())], cutLinks.size()));
        }
    }

    /** @return the number of cut links (both directions of a link counted once) */
    int cutLinkCount() {
        return cutLinks.size() / 2;
    }

    /**
     * Starts the run's threads.
     *
     * @param global the global events' simulator
     * @return the run; close it when done
     */
    PartitionedRun start(final Simulator global) {
        return new PartitionedRun(sims, pools, global, cutLinks.toArray(new CutLink[0]), plan.lookAheadPs(), threads)
            .onRunEnd(runEnd);
    }

    /**
     * The flows the run waits for, by the partition whose host requests them (whose listener
     * reports their completion): the run ends at the end of the time the last one completes
     * ({@link PartitionedRun.RunEnd}), as the sequential run does ({@link Simulator#endAfterNow}).
     * Call once, before {@link #start}.
     *
     * @param flows     number of flows, ids {@code 0 .. flows-1}
     * @param requester the requesting host of each flow
     */
    void expectFlows(final int flows, final IntUnaryOperator requester) {
        final boolean[] done = new boolean[flows]; // each flow's element written by its requester's partition only
        for (final Completions c : completions) {
            c.done = done;
        }
        for (int f = 0; f < flows; f++) {
            completions[plan.partitionOf(requester.applyAsInt(f))].remaining++;
        }
    }

    /** The run's end: each partition's flows left and when its last one completed. */
    private final PartitionedRun.RunEnd runEnd = new PartitionedRun.RunEnd() {
        @Override
        public boolean holdsPending(final int partition) {
            return completions[partition].remaining > 0;
        }

        @Override
        public long finishedAtPs(final int partition) {
            return completions[partition].remaining > 0 ? -1 : completions[partition].lastPs;
        }
    };

    /**
     * Barrier step: the deferred releases (partition order), then the completions merged by
     * (time, partition, local order) into {@code sink}.
     *
     * @param sink the run's completion handling
     */
    void merge(final FlowListener sink) {
        for (final PeerQpReleases r : releases) {
            r.releaseAll();
        }
        while (true) {
            Completions best = null;
            for (final Completions c : completions) {
                if (c.next < c.count && (best == null || c.timesPs[c.next] < best.timesPs[best.next])) {
                    best = c;
                }
            }
            if (best == null) {
                break;
            }
            sink.onFlowComplete(best.flowIds[best.next], best.timesPs[best.next]);
            best.next++;
        }
        for (final Completions c : completions) {
            c.count = 0;
            c.next = 0;
        }
    }

    /** @return frames on the cut links not yet delivered (between windows) */
    long framesInFlight() {
        long n = 0;
        for (final CutLink l : cutLinks) {
            n += l.framesInFlight();
        }
        return n;
    }

    /** @return events handled by the partitions' simulators */
    long partitionEvents() {
        long n = 0;
        for (final Simulator s : sims) {
            n += s.eventsProcessed();
        }
        return n;
    }

    /**
     * One partition's flow completions of the current window, in the order they happened; and its
     * flows left: when the last completes, its simulator ends at the end of that time.
     */
    static final class Completions implements FlowListener {
        int[] flowIds = new int[64];
        long[] timesPs = new long[64];
        int count;
        int next;
        /** This partition's simulator, ended at the end of the time its last flow completes. */
        Simulator sim;
        /** Every flow's completion seen, shared by the partitions (each writes its own flows'). */
        boolean[] done = new boolean[0];
        /** Flows of this partition's requesters not yet completed. */
        int remaining;
        /** Time of this partition's latest first completion of a flow, ps. */
        long lastPs = -1;

        @Override
        public void onFlowComplete(final int flowId, final long completionPs) {
            if (flowId >= 0 && flowId < done.length && !done[flowId]) {
                done[flowId] = true;
                lastPs = completionPs;
                if (--remaining == 0 && sim != null) {
                    sim.endAfterNow();
                }
            }
            if (count == flowIds.length) {
                flowIds = Arrays.copyOf(flowIds, count * 2);
                timesPs = Arrays.copyOf(timesPs, count * 2);
            }
            flowIds[count] = flowId;
            timesPs[count] = completionPs;
            count++;
        }
    }
}
