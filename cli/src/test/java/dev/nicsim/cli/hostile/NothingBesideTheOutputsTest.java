package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
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
 * Issue 23, "done when": every command and subcommand of {@code nicsim} (the test walks the picocli
 * tree and fails if one is not run; {@code sweep} and {@code spark-cluster} live in the sweep jar
 * and are left out: starting Spark costs seconds) runs in an empty working directory (a child JVM
 * started there) and afterwards the directory holds exactly the outputs the commands named, by
 * option or by their documented default ({@code out/<scenario name>}, {@code out/replay-<input>});
 * the refused commands (empty paths, an output that is an input) add nothing, nothing appears at
 * the filesystem root, the inputs' directory is unchanged, and the child's temporary directory
 * ({@code java.io.tmpdir}) is empty at the end. Inputs live in another directory.
 */
class NothingBesideTheOutputsTest {
    @TempDir
    Path inputs;
    @TempDir
    Path work;
    @TempDir
    Path tmp;

    /** The qualified names of every command and subcommand of {@code nicsim}'s picocli tree, e.g. {@code "trace import"}. */
    private static java.util.Set<String> commandTree(final picocli.CommandLine c, final String prefix,
                                                     final java.util.Set<String> out) {
        for (final java.util.Map.Entry<String, picocli.CommandLine> e : c.getSubcommands().entrySet()) {
            final String name = (prefix + " " + e.getKey()).trim();
            out.add(name);
            commandTree(e.getValue(), name, out);
        }
        return out;
    }

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
        // addi a0, zero, 7; addi a7, zero, 93 (exit); ecall
        final Path program = dev.nicsim.cli.acceptance.RiscvCliTest.elf32(inputs, "exit7.elf", 0x00700513, 0x05d00893, 0x73);
        Files.writeString(inputs.resolve("topo.txt"), dev.nicsim.interop.ns3.Ns3ImportTest.TOPOLOGY);
        Files.writeString(inputs.resolve("flow.txt"), dev.nicsim.interop.ns3.Ns3ImportTest.FLOWS);
        final Path config = Files.writeString(inputs.resolve("config.txt"), dev.nicsim.interop.ns3.Ns3ImportTest.CONFIG);
        final Path cm = Files.writeString(inputs.resolve("one.cm"), "Nodes 16\nConnections 1\n0->13 start 0 size 2000000\n");
        final Path validated = Files.writeString(inputs.resolve("v.out"), "Experiment: One\nFCT Spread 1 -> 2 ratio 2\n"
            + "Summary: New: 4 Rtx: 0 RTS: 0 Bounced: 0 ACKs: 4 NACKs: 0 Pulls: 0 sleek_pkts: 0\n");
        final List<String> cmd = Hostile.childJvm("512m", CommandSequence.class);
        // the child's temporary files go to a directory of their own, which must be empty at the end
        cmd.add(cmd.size() - 3, "-Djava.io.tmpdir=" + tmp);
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
            {},
            {"plot", "out/hostile"},
            {"plot", ""},
            {"ns3", "import", config.toString(), "--to", "imported.yaml"},
            {"ns3", "import", config.toString(), "--to", config.toString()},
            {"ns3", "import", config.toString(), "--to", ""},
            {"ns3"},
            {"htsim", "import", cm.toString(), "--to", "htsim.yaml", "--", "-end", "100"},
            {"htsim", "import", cm.toString(), "--to", ""},
            {"htsim", "compare", "out/hostile", validated.toString()},
            {"htsim"},
            {"riscv", "run", program.toString(), "--trace", "riscv.log"},
            {"riscv", "run", program.toString(), "--trace", ""},
            {"riscv"},
            {"firmware", "profile", elf.toString(), "--events", "200", "--saturation-events", "200"},
            {"firmware", "profile", elf.toString(), "--trace", "trace", "--events", "200", "--saturation-events", "200"},
            {"firmware", "profile", elf.toString(), "--scenario", s.toString(), "--saturation-events", "200"},
            {"--help"},
            {"--version"}};
        final int[] expected = {0, 2, 2, 0, 0, 2, 0, 0, 2, 0, 2, 0, 0, 2, 2, 2, 0, 2, 0, 2, 2, 2, 0, 2, 0, 2, 7, 2, 2, 0, 0,
            0, 0, 0};
        // every command and subcommand of the tree is run at least once (sweep and spark-cluster live in the
        // sweep jar, whose SweepBuildTest and sweep tests cover them: Spark is too slow to start here)
        final java.util.Set<String> covered = new java.util.HashSet<>();
        for (final String[] l : lines) {
            for (int n = 1; n <= Math.min(2, l.length); n++) {
                covered.add(String.join(" ", java.util.Arrays.copyOf(l, n)));
            }
        }
        final java.util.Set<String> tree = commandTree(new picocli.CommandLine(new dev.nicsim.cli.NicsimCommand()), "",
            new java.util.TreeSet<>());
        tree.removeAll(covered);
        assertEquals(java.util.Set.of(), tree, "commands no line runs");
        for (final String[] l : lines) {
            cmd.addAll(List.of(l));
            cmd.add("::");
        }
        cmd.remove(cmd.size() - 1);
        final Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the child JVM did not finish");
        final List<String> codes = err.lines().filter(l -> l.startsWith("#exit ")).toList();
        assertEquals(expected.length, codes.size(), err);
        for (int i = 0; i < expected.length; i++) {
            assertEquals("#exit " + expected[i], codes.get(i), String.join(" ", lines[i]) + "\n" + err);
        }
        final List<String> want = new ArrayList<>(List.of("cap.pcap", "cmp/", "cmp/compare.csv", "cmp/compare.png",
            "imported/", "imported/19700101F.cq4", "imported/metadata.cq4t", "out/", "out/hostile/",
            "out/replay-cap.pcap/", "out/replay-cap.pcap/events.csv", "out/replay-cap.pcap/results.csv",
            "trace/", "trace/19700101F.cq4", "trace/metadata.cq4t",
            "verified/", "verified/events.csv", "verified/results.csv", "imported.yaml", "htsim.yaml", "riscv.log"));
        for (final String f : List.of("classes.csv", "counters.csv", "fct.txt", "flows.csv", "queues.csv", "rates.csv",
            "run.json", "throughput.csv", "throughput.png", "queues.png", "rates.png", "slowdown.png", "tiers.csv",
            "hot_ports.csv")) {
            want.add("out/hostile/" + f);
        }
        assertEquals(want.stream().sorted().toList(), tree(work));
        assertEquals(List.of("config.txt", "exit7.elf", "flow.txt", "one.cm", "s.yaml", "topo.txt", "v.out"), tree(inputs));
        assertEquals(List.of(), tree(tmp), "temporary files left behind");
        assertFalse(Files.exists(Path.of("/19700101F.cq4")), "a trace cycle file appeared at /");
    }
}
