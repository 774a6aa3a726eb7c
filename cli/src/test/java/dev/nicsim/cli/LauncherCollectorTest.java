package dev.nicsim.cli;

import dev.nicsim.testsupport.TestPaths;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./nicsim} launcher's collector choice ({@code SIM_FLAGS}, docs/performance.md
 * "Collector"): the simulation commands run on the serial collector with a 16 MiB young
 * generation and {@code -XX:PerMethodTrapLimit=0}, the Spark commands keep the JVM's defaults, a
 * collector named in {@code NICSIM_JAVA_OPTS} replaces the launcher's (and keeps the JIT flag), and {@code benchmarks/side-by-side.sh} times
 * a build with exactly the flags its launcher gives the simulation.
 *
 * <p>The launcher runs for real under bash, from a copy beside placeholder jars (so it does not
 * build) with a {@code java} on the PATH that prints the words it was given.
 */
class LauncherCollectorTest {

    /** Runs the copied launcher with {@code args}; returns the words its {@code java} received. */
    private static List<String> launch(final Path dir, final String javaOpts, final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("bash", dir.resolve("nicsim").toString()));
        cmd.addAll(Arrays.asList(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        final Map<String, String> env = pb.environment();
        env.put("PATH", dir.resolve("bin") + ":" + env.get("PATH"));
        env.remove("NICSIM_JAVA_OPTS");
        if (javaOpts != null) {
            env.put("NICSIM_JAVA_OPTS", javaOpts);
        }
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return Arrays.asList(out.trim().split("\n"));
    }

    private static Path stage(final Path dir) throws Exception {
        final Path root = TestPaths.root();
        Files.copy(root.resolve("nicsim"), dir.resolve("nicsim"));
        Files.copy(root.resolve("benchmarks/side-by-side.sh"), dir.resolve("side-by-side.sh"));
        Files.createDirectories(dir.resolve("cli/target"));
        Files.createFile(dir.resolve("cli/target/nicsim.jar"));
        Files.createDirectories(dir.resolve("sweep/target/jars"));
        Files.createFile(dir.resolve("sweep/target/jars/nicsim-sweep.jar"));
        final Path java = dir.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /** The words before {@code -jar}: the JVM's options. */
    private static List<String> jvmOptions(final List<String> words) {
        final int jar = words.indexOf("-jar");
        assertTrue(jar > 0, words.toString());
        return words.subList(0, jar);
    }

    @Test
    void simulationCommandsRunOnTheSerialCollectorWithA16MiBYoungGeneration(@TempDir final Path tmp) throws Exception {
        final Path dir = stage(tmp);
        final List<String> run = launch(dir, null, "run", "scenarios/incast-dcqcn.yaml");
        final List<String> opts = jvmOptions(run);
        assertTrue(opts.contains("-XX:+UseSerialGC"), opts.toString());
        assertTrue(opts.contains("-Xmn16m"), opts.toString());
        assertTrue(opts.contains("-XX:PerMethodTrapLimit=0"), opts.toString());
        assertTrue(run.get(run.indexOf("-jar") + 1).endsWith("cli/target/nicsim.jar"), run.toString());
        assertEquals(List.of("run", "scenarios/incast-dcqcn.yaml"), run.subList(run.size() - 2, run.size()));
    }

    @Test
    void sparkCommandsKeepTheJvmDefaultCollector(@TempDir final Path tmp) throws Exception {
        final Path dir = stage(tmp);
        for (final String command : List.of("sweep", "spark-cluster")) {
            final List<String> opts = jvmOptions(launch(dir, null, command, "--help"));
            assertFalse(opts.stream().anyMatch(w -> w.startsWith("-XX:+Use") && w.endsWith("GC")), command + ": " + opts);
            assertFalse(opts.contains("-Xmn16m"), command + ": " + opts);
            assertFalse(opts.contains("-XX:PerMethodTrapLimit=0"), command + ": " + opts);
        }
    }

    @Test
    void aCollectorInNicsimJavaOptsReplacesTheLaunchersChoice(@TempDir final Path tmp) throws Exception {
        final Path dir = stage(tmp);
        final List<String> opts = jvmOptions(launch(dir, "-Xmx4g -XX:+UseG1GC", "run", "x.yaml"));
        assertFalse(opts.contains("-XX:+UseSerialGC"), opts.toString());
        assertFalse(opts.contains("-Xmn16m"), opts.toString());
        assertTrue(opts.contains("-XX:+UseG1GC") && opts.contains("-Xmx4g"), opts.toString());
        assertTrue(opts.contains("-XX:PerMethodTrapLimit=0"), "the JIT's flag is not the collector's: " + opts);
        // other options leave the choice in place, and come after it (a later -Xmn wins)
        final List<String> heap = jvmOptions(launch(dir, "-Xmx4g -Xmn64m", "run", "x.yaml"));
        assertTrue(heap.indexOf("-XX:+UseSerialGC") >= 0 && heap.indexOf("-Xmn16m") < heap.indexOf("-Xmn64m"), heap.toString());
    }

    @Test
    void sideBySideTimesABuildWithTheFlagsItsLauncherGivesTheSimulation(@TempDir final Path tmp) throws Exception {
        final Path dir = stage(tmp);
        final List<String> launcher = jvmOptions(launch(dir, null, "run", "x.yaml"));
        final String script = Files.readString(dir.resolve("side-by-side.sh"));
        final int start = script.indexOf("jvm_flags() {");
        final int end = script.indexOf("\n}\n", start);
        assertTrue(start >= 0 && end > start, "no jvm_flags() { ... } in side-by-side.sh");
        final Path probe = dir.resolve("probe.sh");
        Files.writeString(probe, script.substring(start, end + 3) + "jvm_flags \"$1\"\n");
        final Process p = new ProcessBuilder("bash", probe.toString(), dir.toString()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals(launcher, Arrays.asList(out.trim().split("\\s+")));
    }
}
