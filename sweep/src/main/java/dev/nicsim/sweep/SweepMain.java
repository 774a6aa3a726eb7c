package dev.nicsim.sweep;

import dev.nicsim.cli.NicsimCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The sweep jar's command line, reached through the {@code nicsim} launcher or {@code spark-submit}:
 * {@code sweep SWEEP.yaml [--out DIR] [--master URL] [--resume] [--keep-runs] [--point-timeout SECONDS]
 * [--no-progress] [--partitions N]} and {@code spark-cluster start|stop [--workers N]}.
 *
 * <p>Exit codes: 0 every point ok, 4 some point failed, 2 bad input (one line on standard error,
 * never a stack trace), 1 internal error. Bad input is everything {@code sweep} can check before it
 * starts Spark, and it checks all of it first: the options, the master URL's form
 * ({@link SparkMasters#checkForm}), the sweep file ({@link SweepSpec#load}, {@link SweepSpec#validate}),
 * the output directory and with {@code --resume} its {@code points.csv} ({@link SweepRun#check}),
 * and last that a standalone master answers ({@link SparkMasters#probe}).
 */
@Command(name = "nicsim", mixinStandardHelpOptions = true, version = "nicsim-sweep 0.1.0",
    subcommands = {SweepMain.SweepCommand.class, SparkCluster.Command.class})
public final class SweepMain implements Runnable {
    /** Creates the command (picocli instantiates it). */
    public SweepMain() {
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /**
     * Entry point.
     *
     * @param args arguments
     */
    public static void main(final String[] args) {
        NicsimCommand.guardStandardOutput();
        System.exit(execute(args));
    }

    /**
     * Runs the command line and returns its exit code (for tests).
     *
     * @param args arguments
     * @return exit code
     */
    public static int execute(final String... args) {
        return NicsimCommand.execute(new SweepMain(), ex -> ex instanceof SweepException, args);
    }

    /** {@code nicsim sweep}: see {@link SweepRun}. */
    @Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a scenario over the cartesian product of a sweep file's axes (and zip groups) x seeds on"
            + " Apache Spark; write points.csv, points.parquet, summary.csv and sweep.png. Exit 0 all ok, 4 some failed.")
    static final class SweepCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SWEEP.yaml", description = "Sweep file, e.g. sweeps/websearch-algorithms-load.yaml")
        Path file;

        @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/sweep-<name>)")
        Path out;

        @Option(names = "--master", paramLabel = "URL",
            description = "Spark master: local[*] (default, embedded), local[N], local, local[N,F], spark://host:7077")
        String master;

        @Option(names = "--resume", description = "Run only the points missing or failed in DIR/points.csv")
        boolean resume;

        @Option(names = "--keep-runs", description = "Keep every point's run directory under DIR/runs/")
        boolean keepRuns;

        @Option(names = "--point-timeout", paramLabel = "SECONDS", description = "Fail a point still running after this wall time")
        double pointTimeout;

        @Option(names = "--no-progress", description = "Do not show the progress bar")
        boolean noProgress;

        @Option(names = "--partitions", paramLabel = "N",
            description = "Run every point as nicsim run --partitions N (default 1: points already run in parallel)")
        int partitions = 1;

        @Override
        public Integer call() throws IOException {
            if (pointTimeout < 0 || Double.isNaN(pointTimeout)) {
                throw new SweepException("--point-timeout " + pointTimeout + ": expected seconds > 0");
            }
            if (partitions < 1) {
                throw new SweepException("--partitions " + partitions + ": expected a whole number of at least 1");
            }
            if (out != null && out.toString().isBlank()) {
                throw new SweepException("--out: the path is empty; give a directory name");
            }
            // every check comes before Spark starts: its start takes seconds, and its failures are stack traces
            final String m = SparkSessions.master(master);
            SparkMasters.checkForm(m, master == null && System.getProperty("spark.master") != null);
            final SweepSpec spec = SweepSpec.load(file);
            spec.validate();
            final Path dir = out != null ? out : Path.of("out", "sweep-" + spec.name());
            final SweepRun run = new SweepRun(spec, dir, resume, keepRuns, pointTimeout, !noProgress, System.out, partitions);
            run.check();
            SparkMasters.probe(m);
            final long t0 = System.nanoTime();
            final org.apache.spark.sql.SparkSession spark = SparkSessions.create(m, "nicsim sweep " + spec.name());
            if (spark.sparkContext().isStopped() || m.startsWith("spark://")
                && spark.sparkContext().applicationId().startsWith("spark-application-")) {
                // a standalone master that took the connection but never registered the application: Spark
                // tries 3 times, 20 s apart, then returns the session with the scheduler's fallback id
                // ("spark-application-<ms>"; a standalone master's ids are "app-<time>-<n>") and stops it
                final String version = spark.version();
                spark.stop();
                throw new SweepException("--master " + m + ": the master did not register the application (Spark gave up"
                    + " after its 3 attempts); is it a Spark " + version + " master?");
            }
            System.out.printf(Locale.ROOT, "spark %s %s: session started in %.2f s%n", spark.version(), m,
                (System.nanoTime() - t0) / 1e9);
            try {
                return run.run(spark);
            } finally {
                spark.stop();
            }
        }
    }
}
