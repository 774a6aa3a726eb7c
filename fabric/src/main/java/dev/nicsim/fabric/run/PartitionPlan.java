package dev.nicsim.fabric.run;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.scenario.ScenarioException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a partitioned run ({@code nicsim run --partitions N}) splits a fabric, derived from the
 * topology only (deterministic):
 * <ol>
 *   <li>every host goes with its access switch (the switch at the other end of its first link);</li>
 *   <li>access switches (switches with at least one host), in index order, are assigned in
 *       contiguous blocks balancing host counts: access switch {@code s} whose hosts are
 *       {@code before .. before + h - 1} in that order goes to partition
 *       {@code min(N - 1, floor((before + h / 2) x N / H))} (H hosts in all: the block its
 *       middle host falls in);</li>
 *   <li>every other switch, in rounds of index order over those with at least one assigned
 *       neighbour, goes to the partition holding most of its already-assigned neighbours (ties:
 *       the partition with fewer nodes so far, then the lower partition); a switch with no path
 *       to any host goes to partition 0.</li>
 * </ol>
 * A link whose ends are in different partitions is cut; the look-ahead L is the least
 * propagation delay over the cut links.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class PartitionPlan {
    private final int partitions;
    private final int[] partitionOf;
    private final int[] hostsPer;
    private final List<Integer> cutEdges = new ArrayList<>();
    private final long lookAheadPs;

    private PartitionPlan(final TopologyGraph g, final int n) {
        this.partitions = n;
        final int hosts = g.hosts();
        final int nodes = g.nodeCount();
        partitionOf = new int[nodes];
        Arrays.fill(partitionOf, -1);
        final int[] accessOf = new int[hosts];
        Arrays.fill(accessOf, -1);
        final int[] hostsOfSwitch = new int[nodes];
        final List<TopologyGraph.Edge> edges = g.edges();
        for (final TopologyGraph.Edge e : edges) {
            for (int side = 0; side < 2; side++) {
                final int h = side == 0 ? e.a() : e.b();
                final int other = side == 0 ? e.b() : e.a();
                if (h < hosts && other >= hosts && accessOf[h] < 0) {
                    accessOf[h] = other;
                    hostsOfSwitch[other]++;
                }
            }
        }
        int access = 0;
        for (int s = hosts; s < nodes; s++) {
            if (hostsOfSwitch[s] > 0) {
                access++;
            }
        }
        if (access < n) {
            throw new ScenarioException("--partitions " + n + ": the topology has " + access
                + " access switch(es) (switches with hosts); give at most " + Math.max(1, access));
        }
        final int[] nodesPer = new int[n];
        long before = 0;
        for (int s = hosts; s < nodes; s++) {
            if (hostsOfSwitch[s] == 0) {
                continue;
            }
            final int p = (int) Math.min(n - 1, (before + hostsOfSwitch[s] / 2) * n / hosts);
            partitionOf[s] = p;
            nodesPer[p] += 1 + hostsOfSwitch[s];
            before += hostsOfSwitch[s];
        }
        hostsPer = new int[n];
        for (int h = 0; h < hosts; h++) {
            if (accessOf[h] < 0) {
                throw new ScenarioException("--partitions " + n + ": host " + h + " has no link to a switch");
            }
            partitionOf[h] = partitionOf[accessOf[h]];
            hostsPer[partitionOf[h]]++;
        }
        // the other switches, in rounds: the candidates of a round are the unassigned switches with an
        // assigned neighbour, their votes counted on the assignment at the round's start; first those
        // with one partition ahead (index order), then the tied ones (index order, fewer nodes first)
        final int[][] votes = new int[nodes][];
        final List<Integer> candidates = new ArrayList<>();
        while (true) {
            candidates.clear();
            for (int s = hosts; s < nodes; s++) {
                if (partitionOf[s] >= 0) {
                    continue;
                }
                final int[] v = new int[n];
                boolean any = false;
                for (final TopologyGraph.Edge e : edges) {
                    final int other = e.a() == s ? e.b() : e.b() == s ? e.a() : -1;
                    if (other >= 0 && partitionOf[other] >= 0) {
                        v[partitionOf[other]]++;
                        any = true;
                    }
                }
                if (any) {
                    votes[s] = v;
                    candidates.add(s);
                }
            }
            if (candidates.isEmpty()) {
                break;
            }
            for (int pass = 0; pass < 2; pass++) {
                for (final int s : candidates) {
                    final int[] v = votes[s];
                    int max = 0;
                    int ties = 0;
                    for (int p = 0; p < n; p++) {
                        if (v[p] > max) {
                            max = v[p];
                            ties = 1;
                        } else if (v[p] == max) {
                            ties++;
                        }
                    }
                    if ((pass == 0) != (ties == 1)) {
                        continue;
                    }
                    int best = -1;
                    for (int p = 0; p < n; p++) {
                        if (v[p] == max && (best < 0 || nodesPer[p] < nodesPer[best])) {
                            best = p;
                        }
                    }
                    partitionOf[s] = best;
                    nodesPer[best]++;
                }
            }
        }
        for (int s = hosts; s < nodes; s++) {
            if (partitionOf[s] < 0) {
                partitionOf[s] = 0;
            }
        }
        long la = Long.MAX_VALUE;
        for (int i = 0; i < edges.size(); i++) {
            final TopologyGraph.Edge e = edges.get(i);
            if (partitionOf[e.a()] == partitionOf[e.b()]) {
                continue;
            }
            cutEdges.add(i);
            if (e.link().delayPs() <= 0) {
                throw new ScenarioException("--partitions " + n + ": the link " + nodeName(g, e.a()) + " port " + e.portA()
                    + " - " + nodeName(g, e.b()) + " port " + e.portB() + " crosses partitions and has a delay of 0 ns;"
                    + " a partitioned run needs a positive delay on every cut link (give the link a delay or use --partitions 1)");
            }
            la = Math.min(la, e.link().delayPs());
        }
        lookAheadPs = la == Long.MAX_VALUE ? Long.MAX_VALUE / 4 : la;
    }

    /**
     * Splits a fabric.
     *
     * @param g the fabric's graph
     * @param n partitions, {@code >= 1}
     * @return the plan
     * @throws ScenarioException if n is below 1, the topology has fewer access switches than n, a
     *                           host has no switch, or a cut link has no propagation delay
     */
    public static PartitionPlan of(final TopologyGraph g, final int n) {
        if (n < 1) {
            throw new ScenarioException("--partitions must be at least 1, got " + n);
        }
        return new PartitionPlan(g, n);
    }

    private static String nodeName(final TopologyGraph g, final int node) {
        return node < g.hosts() ? "host" + node : g.switchName(node - g.hosts());
    }

    /** @return number of partitions */
    public int partitions() {
        return partitions;
    }

    /**
     * @param node a node of the graph (host {@code 0 .. hosts-1}, then switches)
     * @return its partition, {@code 0 .. partitions()-1}
     */
    public int partitionOf(final int node) {
        return partitionOf[node];
    }

    /** @return hosts per partition, a new array */
    public int[] hostsPerPartition() {
        return hostsPer.clone();
    }

    /** @return indices (into {@link TopologyGraph#edges()}) of the links that cross partitions, ascending */
    public List<Integer> cutEdges() {
        return List.copyOf(cutEdges);
    }

    /**
     * The look-ahead L: the least propagation delay over the cut links (a very large value when no
     * link is cut, e.g. one partition).
     *
     * @return L, ps, {@code > 0}
     */
    public long lookAheadPs() {
        return lookAheadPs;
    }
}
