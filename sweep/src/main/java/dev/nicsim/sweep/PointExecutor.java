package dev.nicsim.sweep;

import dev.nicsim.fabric.outputs.RunOutputs;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs one {@link PointTask} in the calling JVM (a Spark executor, or the driver in local mode):
 * loads the scenario with the task's seed and overrides and runs it through {@link RunOutputs#run},
 * the same code as {@code nicsim run} (with the task's {@code --partitions}), into the task's run
 * directory. Every failure becomes a
 * {@link PointRow} with status {@code failed} and a one-line error, never an exception: a value
 * the scenario loader rejects, a fabric it cannot build, any exception of the run, and a run
 * still going after the task's timeout (checked every 20 us of simulated time, when the runner
 * reports progress; the run is abandoned there and its thread is free at once).
 *
 * <p>Thread-safety: stateless; tasks on different threads are independent (each has its own
 * runner and run directory).
 */
public final class PointExecutor {
    private PointExecutor() {
    }

    /** Thrown from the progress callback to abandon a run past its timeout. */
    private static final class PointTimeout extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PointTimeout(final double seconds) {
            super(String.format(Locale.ROOT, "timed out after %.1f s (--point-timeout)", seconds), null, false, false);
        }
    }

    /**
     * Runs a point.
     *
     * @param task the point and seed
     * @return its row; status {@code failed} with the error when it did not run to the end
     */
    public static PointRow run(final PointTask task) {
        final long t0 = System.nanoTime();
        Path dir = null;
        final boolean temporary = task.runDir() == null;
        try {
            dir = temporary ? Files.createTempDirectory("nicsim-sweep-point-") : Path.of(task.runDir());
            final Scenario scenario = ScenarioLoader.load(Path.of(task.scenario()), task.overrides(), task.seed());
            final long deadline = task.timeoutSeconds() > 0 ? t0 + (long) (task.timeoutSeconds() * 1e9) : Long.MAX_VALUE;
            final int threads = Math.min(task.partitions(), Runtime.getRuntime().availableProcessors());
            final RunOutputs.Outcome o = RunOutputs.run(scenario, dir, new PrintStream(OutputStream.nullOutputStream()),
                done -> {
                    if (System.nanoTime() > deadline) {
                        throw new PointTimeout(task.timeoutSeconds());
                    }
                }, task.partitions(), threads);
            return new PointRow(task.point(), task.seed(), PointRow.OK, "", PointMetrics.of(o, System.nanoTime() - t0));
        } catch (final ScenarioException | PointTimeout e) {
            return failed(task, e.getMessage(), t0);
        } catch (final IOException | UncheckedIOException e) {
            return failed(task, "I/O error: " + e.getMessage(), t0);
        } catch (final RuntimeException | StackOverflowError | OutOfMemoryError | AssertionError e) {
            return failed(task, "internal error: " + e, t0);
        } finally {
            if (temporary && dir != null) {
                deleteTree(dir);
            }
        }
    }

    private static PointRow failed(final PointTask task, final String message, final long t0) {
        final String line = String.valueOf(message).replace('\r', ' ').replace('\n', ' ');
        return new PointRow(task.point(), task.seed(), PointRow.FAILED, line, PointMetrics.empty(System.nanoTime() - t0));
    }

    private static void deleteTree(final Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (final IOException e) {
            // a temporary directory left behind is harmless; the point's row is already made
        }
    }
}
