package dev.nicsim.sweep;

import java.io.Serializable;
import java.util.List;

/**
 * One point of a sweep with one seed: what a Spark task runs, {@code nicsim run SCENARIO --seed
 * SEED --set OVERRIDE...} into a run directory.
 *
 * @param point          point number (see {@link SweepSpec#indices})
 * @param seed           the seed
 * @param scenario       the scenario file, an absolute path every executor can read
 * @param overrides      {@code path=value} strings, applied in order
 * @param runDir         where the run's files go ({@code --keep-runs}), or null for a temporary
 *                       directory deleted after the point
 * @param timeoutSeconds wall time after which the point is abandoned as failed, s; 0 for none
 * @param partitions     {@code nicsim run --partitions N}: 1 (sequential) or more; the run uses
 *                       min(N, the executor's processors) threads (the results depend on N only)
 */
public record PointTask(int point, long seed, String scenario, List<String> overrides, String runDir,
                        double timeoutSeconds, int partitions) implements Serializable {
    private static final long serialVersionUID = 2L;
}
