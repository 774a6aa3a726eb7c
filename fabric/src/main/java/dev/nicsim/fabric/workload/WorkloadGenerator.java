package dev.nicsim.fabric.workload;

import dev.nicsim.fabric.scenario.Scenario;
import dev.nicsim.fabric.scenario.ScenarioException;
import dev.nicsim.sim.RngStreams;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a scenario's workload section into flows: incast (N senders to one receiver, same size,
 * same start), permutation (every host sends to a distinct other host), or Poisson arrivals at a
 * target load with sizes drawn from a flow-size CDF. Randomness comes from the stream
 * {@code "workload"} of the scenario seed.
 *
 * <p>Thread-safety: stateless.
 */
public final class WorkloadGenerator {
    private WorkloadGenerator() {
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
            case "poisson" -> {
                if (hosts < 2) {
                    throw new ScenarioException("workload: a Poisson workload needs at least 2 hosts");
                }
                // aggregate arrival rate: load x (hosts x host rate) / mean flow size
                final double mean = w.cdf().meanBytes();
                final double flowsPerSec = w.load() * hosts * hostRateBitsPerSec / (8.0 * mean);
                double t = w.startPs() / 1e12;
                for (int i = 0; i < w.flows(); i++) {
                    t += -Math.log(1.0 - rng.nextDouble()) / flowsPerSec;
                    final int src = rng.nextInt(hosts);
                    int dst = rng.nextInt(hosts - 1);
                    if (dst >= src) {
                        dst++;
                    }
                    out.add(new FlowSpec(i, src, dst, w.cdf().sample(rng), Math.round(t * 1e12)));
                }
            }
            default -> throw new ScenarioException("workload.type: unknown type " + w.type());
        }
        return out;
    }
}
