package dev.nicsim.sweep;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster on this machine, started from the sweep jar's directory (the jar and
 * its dependencies in {@code jars/}, whose parent is used as {@code SPARK_HOME}, so a worker puts
 * the same jars on its executors' class path): one master on {@code 127.0.0.1:PORT} and N workers,
 * each a child JVM with its own log in the state directory, every address on the loopback
 * interface. {@code nicsim spark-cluster start|stop} and the cluster integration test use it.
 *
 * <p>Thread-safety: one instance per cluster, one thread.
 */
public final class SparkCluster {
    /**
     * Spark 4.1's JVM options on Java 17: {@code org.apache.spark.launcher.JavaModuleOptions} without
     * {@code --add-modules=jdk.incubator.vector} (a warning on every start) and
     * {@code --enable-native-access} (Java 22 and later).
     */
    public static final List<String> JVM_OPTIONS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
        "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
        "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false",
        "-Dio.netty.tryReflectionSetAccessible=true", "-Dio.netty.allocator.type=pooled",
        "-Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE");
    /**
     * The cluster processes' logging (INFO to their log files; the sweep jar's own configuration
     * keeps Spark at WARN, which would hide the master's "Registering worker" line that
     * {@link #start} waits for).
     */
    private static final String CLUSTER_LOG4J = String.join("\n",
        "rootLogger.level = info", "rootLogger.appenderRef.stdout.ref = console", "appender.console.type = Console",
        "appender.console.name = console", "appender.console.target = SYSTEM_OUT", "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex", "");
    /** File in the state directory listing the cluster's process ids, master first. */
    public static final String PIDS_FILE = "cluster.pids";
    private static final long START_TIMEOUT_MS = 120_000;

    private final Path jarsDir;
    private final Path stateDir;
    private final List<Process> processes = new ArrayList<>();

    /**
     * @param jarsDir  the directory holding {@code nicsim-sweep.jar} and its dependencies
     * @param stateDir where logs, worker directories and {@link #PIDS_FILE} go (created)
     */
    public SparkCluster(final Path jarsDir, final Path stateDir) {
        this.jarsDir = jarsDir.toAbsolutePath().normalize();
        this.stateDir = stateDir.toAbsolutePath().normalize();
    }

    /**
     * The {@code jars/} directory of the running sweep jar.
     *
     * @return the directory
     * @throws SweepException if this class was not loaded from a jar (run {@code mvn package -pl sweep -am})
     */
    public static Path runningJarsDir() {
        try {
            final Path p = Path.of(SparkCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(p)) {
                throw new SweepException("spark-cluster: runs from the sweep jar (sweep/target/jars/nicsim-sweep.jar), not from " + p);
            }
            return p.getParent();
        } catch (final URISyntaxException e) {
            throw new SweepException("spark-cluster: cannot locate the sweep jar: " + e.getMessage());
        }
    }

    /**
     * Starts a master and workers and waits until every worker has registered.
     *
     * @param masterPort port of the master on 127.0.0.1
     * @param workers    number of workers, {@code >= 1}
     * @param coresEach  cores each worker offers, {@code >= 1}
     * @return the master URL, {@code spark://127.0.0.1:PORT}
     * @throws IOException    if a process cannot start or its log cannot be read
     * @throws SweepException if the workers have not registered within 120 s (the master's log is named)
     */
    public String start(final int masterPort, final int workers, final int coresEach) throws IOException {
        Files.createDirectories(stateDir);
        Files.writeString(stateDir.resolve("log4j2.properties"), CLUSTER_LOG4J, StandardCharsets.UTF_8);
        final String url = "spark://127.0.0.1:" + masterPort;
        final Path masterLog = stateDir.resolve("master.log");
        processes.add(launch(masterLog, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
            Integer.toString(masterPort), "--webui-port", "0"));
        for (int w = 0; w < workers; w++) {
            final Path work = stateDir.resolve("worker" + w);
            Files.createDirectories(work);
            processes.add(launch(stateDir.resolve("worker" + w + ".log"), "org.apache.spark.deploy.worker.Worker",
                "--host", "127.0.0.1", "--cores", Integer.toString(coresEach), "--memory", "2g", "--webui-port", "0",
                "--work-dir", work.toString(), url));
        }
        final StringBuilder pids = new StringBuilder();
        for (final Process p : processes) {
            pids.append(p.pid()).append('\n');
        }
        Files.writeString(stateDir.resolve(PIDS_FILE), pids.toString(), StandardCharsets.UTF_8);
        final long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            final String log = Files.exists(masterLog) ? Files.readString(masterLog, StandardCharsets.UTF_8) : "";
            if (log.split("Registering worker", -1).length - 1 >= workers) {
                return url;
            }
            for (final Process p : processes) {
                if (!p.isAlive()) {
                    stop();
                    throw new SweepException("spark-cluster: a cluster process exited with " + p.exitValue() + "; see the logs in "
                        + stateDir);
                }
            }
            try {
                Thread.sleep(200);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        stop();
        throw new SweepException("spark-cluster: the workers did not register with the master within 120 s; see " + masterLog);
    }

    private Process launch(final Path log, final String mainClass, final String... args) throws IOException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_OPTIONS);
        cmd.add("-Xmx1g");
        cmd.add("-Dlog4j2.configurationFile=" + stateDir.resolve("log4j2.properties"));
        cmd.add("-cp");
        cmd.add(jarsDir + File.separator + "*");
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        final Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", jarsDir.getParent().toString()); // its jars/ is the executors' class path
        env.put("SPARK_SCALA_VERSION", "2.13");
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        return pb.start();
    }

    /** Stops the processes this instance started (destroy, then wait up to 10 s each). */
    public void stop() {
        for (final Process p : processes) {
            p.destroy();
        }
        for (final Process p : processes) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }

    /**
     * Stops a cluster started by an earlier {@code spark-cluster start}: the processes listed in
     * the state directory's {@link #PIDS_FILE} that are still alive.
     *
     * @param stateDir the state directory
     * @return the number of processes stopped
     * @throws IOException    if the file cannot be read
     * @throws SweepException if there is no such file
     */
    public static int stopListed(final Path stateDir) throws IOException {
        final Path file = stateDir.resolve(PIDS_FILE);
        if (!Files.exists(file)) {
            throw new SweepException(file + ": no such file; no cluster was started with this --dir");
        }
        int n = 0;
        for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            final var h = ProcessHandle.of(Long.parseLong(line.trim()));
            if (h.isPresent() && h.get().isAlive()) {
                h.get().destroy();
                n++;
            }
        }
        Files.delete(file);
        return n;
    }

    /** {@code nicsim spark-cluster start|stop [--workers N] [--port P] [--dir DIR]}. */
    @picocli.CommandLine.Command(name = "spark-cluster", mixinStandardHelpOptions = true,
        description = "Start (or stop) a Spark standalone master and workers on 127.0.0.1 from the sweep jar, so"
            + " `nicsim sweep --master spark://127.0.0.1:PORT` can be tried on this machine.")
    static final class Command implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "start|stop", description = "start or stop")
        String action;

        @Option(names = "--workers", paramLabel = "N", description = "Workers to start (default 1)")
        int workers = 1;

        @Option(names = "--port", paramLabel = "PORT", description = "Master port on 127.0.0.1 (default 7077)")
        int port = 7077;

        @Option(names = "--dir", paramLabel = "DIR", description = "Logs, worker directories and pids (default out/spark-cluster)")
        Path dir = Path.of("out", "spark-cluster");

        @Override
        public Integer call() throws IOException {
            if (dir.toString().isBlank()) {
                throw new SweepException("--dir: the path is empty; give a directory name");
            }
            switch (action) {
                case "start" -> {
                    if (workers < 1 || port < 1 || port > 65535) {
                        throw new SweepException("spark-cluster start: expected --workers >= 1 and --port in [1, 65535]");
                    }
                    if (Files.exists(dir.resolve(PIDS_FILE))) {
                        throw new SweepException(dir.resolve(PIDS_FILE) + ": a cluster is already running; stop it first");
                    }
                    final int cores = Math.max(1, Runtime.getRuntime().availableProcessors() / workers);
                    final SparkCluster c = new SparkCluster(runningJarsDir(), dir);
                    final String url = c.start(port, workers, cores);
                    System.out.println("Spark master " + url + " with " + workers + " worker(s) of " + cores
                        + " core(s); logs in " + dir + "; stop with: nicsim spark-cluster stop");
                    return 0;
                }
                case "stop" -> {
                    System.out.println("stopped " + stopListed(dir) + " cluster process(es)");
                    return 0;
                }
                default -> throw new SweepException("spark-cluster " + action + ": expected start or stop");
            }
        }
    }
}
