package dev.nicsim.sweep;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23's "no command writes outside its named outputs" for the sweep jar's {@code sweep}
 * command, which fabric's {@code NothingBesideTheOutputsTest} leaves out (Spark's start costs
 * seconds): a one-point sweep on embedded Spark ({@code local[1]}), run in a child JVM whose
 * working directory and {@code java.io.tmpdir} are empty directories of their own, leaves exactly
 * its outputs ({@code points.csv}, {@code points.parquet/}, {@code summary.csv}, {@code sweep.png})
 * in the working directory and nothing at all in the temporary directory (Spark's block manager
 * and scratch directories included); a sweep with {@code --out ''} is exit 2 and writes nothing.
 */
class SweepNothingBesideTheOutputsTest {
    @TempDir
    Path work;
    @TempDir
    Path tmp;
    @TempDir
    Path inputs;

    private static List<String> tree(final Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString().replace('\\', '/')
                + (Files.isDirectory(p) ? "/" : "")).sorted().toList();
        }
    }

    private int sweep(final String... args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx768m");
        cmd.addAll(SparkCluster.JVM_OPTIONS);
        cmd.addAll(Arrays.asList(SparkSessions.NICSIM_JVM_OPTIONS.split("\\s+")));
        cmd.add("-Djava.io.tmpdir=" + tmp);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SweepMain.class.getName());
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(inputs.resolve("stderr.txt").toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the sweep's JVM did not finish");
        return p.exitValue();
    }

    @Test
    void aSweepWritesOnlyItsOutputs() throws Exception {
        final Path file = Fixtures.sweepFile(inputs, "set: " + Fixtures.TINY_SET + "\naxes:\n  algorithm.name: [dcqcn]\nseeds: [1]\n");
        final int code = sweep("sweep", file.toString(), "--out", "o", "--master", "local[1]", "--no-progress");
        final String err = Files.readString(inputs.resolve("stderr.txt"), StandardCharsets.UTF_8);
        assertEquals(0, code, err);
        final List<String> top = tree(work).stream().filter(n -> n.indexOf('/') == n.length() - 1 || n.indexOf('/') < 0)
            .toList();
        assertEquals(List.of("o/"), top, "the working directory holds only --out");
        final List<String> out = tree(work.resolve("o")).stream().filter(n -> !n.startsWith("points.parquet/") || n.equals("points.parquet/"))
            .toList();
        assertEquals(List.of("points.csv", "points.parquet/", "summary.csv", "sweep.png"), out);
        assertEquals(List.of(), tree(tmp), "java.io.tmpdir after the sweep");
    }

    @Test
    void anEmptyOutIsRefusedAndWritesNothing() throws Exception {
        final Path file = Fixtures.sweepFile(inputs, "set: " + Fixtures.TINY_SET + "\naxes:\n  algorithm.name: [dcqcn]\nseeds: [1]\n");
        assertEquals(2, sweep("sweep", file.toString(), "--out", "", "--no-progress"));
        assertEquals(List.of(), tree(work));
        assertEquals(List.of(), tree(tmp));
    }
}
