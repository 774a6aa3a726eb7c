package dev.nicsim.fabric.hostile;

import dev.nicsim.fabric.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, "done when": every command this issue touched runs in an empty working directory (a
 * child JVM started there) and afterwards the directory holds exactly the outputs the commands
 * named, by option or by their documented default ({@code out/<scenario name>},
 * {@code out/replay-<input>}); the refused commands (empty paths) add nothing, and nothing appears
 * at the filesystem root. Inputs live in another directory.
 */
class NothingBesideTheOutputsTest {
    @TempDir
    Path inputs;
    @TempDir
    Path work;

    private static List<String> tree(final Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString().replace('\\', '/')
                + (Files.isDirectory(p) ? "/" : "")).sorted().toList();
        }
    }

    @Test
    void everyCommandWritesOnlyItsNamedOutputs() throws IOException, InterruptedException {
        final Path s = Hostile.scenario(inputs, Hostile.SMALL);
        final Path elf = TestPaths.root().resolve("firmware/bin/dcqcn.elf");
        final List<String> cmd = Hostile.childJvm("512m", CommandSequence.class);
        final String[][] lines = {
            {"run", s.toString(), "--no-progress", "--record", "trace", "--pcap", "cap.pcap"},
            {"run", s.toString(), "--no-progress", "--out", ""},
            {"run", s.toString(), "--no-progress", "--out", "o2", "--record", ""},
            {"trace", "dump", "trace"},
            {"trace", "import", "cap.pcap", "--to", "imported"},
            {"trace", "import", "cap.pcap", "--to", ""},
            {"replay", "trace", "--algorithm", "dcqcn", "--verify", "--out", "verified"},
            {"replay", "cap.pcap", "--algorithm", "dcqcn"},
            {"replay", "cap.pcap", "--algorithm", "dcqcn", "--out", ""},
            {"compare", "out/hostile", "out/hostile/fct.txt", "--out", "cmp"},
            {"compare", "out/hostile", "out/hostile/fct.txt", "--out", ""},
            {"algorithms"},
            {"firmware", "info", elf.toString()},
            {"firmware"},
            {"trace"},
            {}};
        final int[] expected = {0, 2, 2, 0, 0, 2, 0, 0, 2, 0, 2, 0, 0, 2, 2, 2};
        for (final String[] l : lines) {
            cmd.addAll(List.of(l));
            cmd.add("::");
        }
        cmd.remove(cmd.size() - 1);
        final Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the child JVM did not finish");
        final List<String> codes = err.lines().filter(l -> l.startsWith("#exit ")).toList();
        assertEquals(expected.length, codes.size(), err);
        for (int i = 0; i < expected.length; i++) {
            assertEquals("#exit " + expected[i], codes.get(i), String.join(" ", lines[i]) + "\n" + err);
        }
        final List<String> want = new ArrayList<>(List.of("cap.pcap", "cmp/", "cmp/compare.csv", "cmp/compare.png",
            "imported/", "imported/19700101F.cq4", "imported/metadata.cq4t", "out/", "out/hostile/",
            "out/replay-cap.pcap/", "out/replay-cap.pcap/events.csv", "out/replay-cap.pcap/results.csv",
            "trace/", "trace/19700101F.cq4", "trace/metadata.cq4t",
            "verified/", "verified/events.csv", "verified/results.csv"));
        for (final String f : List.of("classes.csv", "counters.csv", "fct.txt", "flows.csv", "queues.csv", "rates.csv",
            "run.json", "throughput.csv")) {
            want.add("out/hostile/" + f);
        }
        assertEquals(want.stream().sorted().toList(), tree(work));
        assertEquals(List.of("s.yaml"), tree(inputs));
        assertFalse(Files.exists(Path.of("/19700101F.cq4")), "a trace cycle file appeared at /");
    }
}
