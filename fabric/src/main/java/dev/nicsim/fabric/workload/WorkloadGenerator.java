package dev.nicsim.fabric.workload;

import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.sim.RngStreams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a scenario's workload section into flows: incast (N senders to one receiver, same size,
 * same start), permutation (every host sends to a distinct other host), Poisson arrivals at a
 * target load with sizes drawn from a flow-size CDF (or one fixed size), the hotspot variant of
 * Poisson (the RCM paper §4.2 "Hot-spot Traffic Pattern": a fraction of the flows go to a hot set of
 * hosts, the rest to uniform destinations), or an explicit list of flows. Randomness comes from
 * the stream {@code "workload"} of the scenario seed; the hot set from {@code "workload/hot_set"}.
 *
 * <p>Thread-safety: stateless.
 */
public final class WorkloadGenerator {
    /** Class of a hotspot workload's flows to the hot set. */
    public static final String HOT = "hot";
    /** Class of a hotspot workload's flows to uniform destinations. */
    public static final String BACKGROUND = "background";

    private WorkloadGenerator() {
    }

    /**
     * The hot set of a hotspot workload: {@code round(hot_hosts_fraction x hosts)} distinct hosts
     * drawn uniformly (a partial Fisher-Yates shuffle on the stream {@code "workload/hot_set"}),
     * in ascending order.
     *
     * @param w     the workload ({@code hotspot})
     * @param hosts number of hosts
     * @param seed  scenario seed
     * @return host ids, ascending
     */
    public static int[] hotSet(final Scenario.Workload w, final int hosts, final long seed) {
        final int n = ScenarioLoader.hotHostCount(w.hotHostsFraction(), hosts);
        final SplittableRandom rng = RngStreams.stream(seed, "workload/hot_set");
        final int[] all = new int[hosts];
        for (int i = 0; i < hosts; i++) {
            all[i] = i;
        }
        for (int i = 0; i < n; i++) {
            final int j = i + rng.nextInt(hosts - i);
            final int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        final int[] hot = Arrays.copyOf(all, n);
        Arrays.sort(hot);
        return hot;
    }

    /**
     * Generates the flows.
     *
     * @param w                  workload spec
     * @param hosts              number of hosts
     * @param hostRateBitsPerSec host link rate (for the Poisson load), bits/s
     * @param seed               scenario seed
     * @return flows ordered by start time, flow ids 0..n-1 in that order
     * @throws ScenarioException if the workload cannot be built on this topology
     */
    public static List<FlowSpec> generate(final Scenario.Workload w, final int hosts, final long hostRateBitsPerSec,
                                          final long seed) {
        final SplittableRandom rng = RngStreams.stream(seed, "workload");
        final List<FlowSpec> out = new ArrayList<>();
        switch (w.type()) {
            case "incast" -> {
                int src = 0;
                for (int i = 0; i < w.senders(); i++) {
                    if (src == w.receiver()) {
                        src++;
                    }
                    out.add(new FlowSpec(i, src, w.receiver(), w.sizeBytes(), w.startPs()));
                    src++;
                }
            }
            case "permutation" -> {
                // a random derangement (Sattolo's algorithm gives a single cycle: nobody sends to itself)
                final int[] perm = new int[hosts];
                for (int i = 0; i < hosts; i++) {
                    perm[i] = i;
                }
                for (int i = hosts - 1; i > 0; i--) {
                    final int j = rng.nextInt(i);
                    final int t = perm[i];
                    perm[i] = perm[j];
                    perm[j] = t;
                }
                for (int i = 0; i < hosts; i++) {
                    out.add(new FlowSpec(i, i, perm[i], w.sizeBytes(), w.startPs()));
                }
            }
            case "poisson", "hotspot" -> {
                if (hosts < 2) {
                    throw new ScenarioException("workload: a Poisson workload needs at least 2 hosts");
                }
                final boolean hotspot = "hotspot".equals(w.type());
                final int[] hot = hotspot ? hotSet(w, hosts, seed) : new int[0];
                final boolean[] isHot = new boolean[hosts];
                for (final int h : hot) {
                    isHot[h] = true;
                }
                // aggregate arrival rate: load x (hosts x host rate) / mean flow size
                final double mean = w.cdf() != null ? w.cdf().meanBytes() : w.sizeBytes();
                final double flowsPerSec = w.load() * hosts * hostRateBitsPerSec / (8.0 * mean);
                double t = w.startPs() / 1e12;
                for (int i = 0; i < w.flows(); i++) {
                    t += -Math.log(1.0 - rng.nextDouble()) / flowsPerSec;
                    final int src = rng.nextInt(hosts);
                    final boolean hotFlow = hotspot && rng.nextDouble() < w.hotFraction();
                    int dst;
                    if (hotFlow) {
                        // a hot destination other than the source
                        final int n = isHot[src] ? hot.length - 1 : hot.length;
                        dst = hot[rng.nextInt(n)];
                        if (isHot[src] && dst == src) {
                            dst = hot[hot.length - 1]; // src is in hot[0 .. n-1]; the last member stands in for it
                        }
                    } else {
                        dst = rng.nextInt(hosts - 1);
                        if (dst >= src) {
                            dst++;
                        }
                    }
                    final long size = w.cdf() != null ? w.cdf().sample(rng) : w.sizeBytes();
                    final String cls = !hotspot ? FlowSpec.DEFAULT_CLASS : hotFlow ? HOT : BACKGROUND;
                    out.add(new FlowSpec(i, src, dst, size, Math.round(t * 1e12), cls));
                }
            }
            case "flows", "file" -> out.addAll(w.flowList());
            default -> throw new ScenarioException("workload.type: unknown type " + w.type());
        }
        return out;
    }
}
