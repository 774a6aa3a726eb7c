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
 */
public record PointTask(int point, long seed, String scenario, List<String> overrides, String runDir,
                        double timeoutSeconds) implements Serializable {
    private static final long serialVersionUID = 1L;
}
