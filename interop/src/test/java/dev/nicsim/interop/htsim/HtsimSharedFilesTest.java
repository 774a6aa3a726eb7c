package dev.nicsim.interop.htsim;

import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * uet-htsim's own files in {@code ../shared/peers/uet-htsim/} read unchanged: every connection
 * matrix and topology, every experiment of every validation plan imported (or, for the plans with
 * {@code -sleek} or {@code -failed K}, refused naming the flag), and every committed validation
 * output read. Skipped when the shared directory is absent, failed then with
 * {@code -Dnicsim.requireShared=true}.
 */
class HtsimSharedFilesTest {
    private static Path shared() {
        return TestPaths.sharedOrSkip("peers/uet-htsim");
    }

    private static List<Path> files(final Path dir, final String glob) throws IOException {
        final List<Path> out = new ArrayList<>();
        try (var s = Files.newDirectoryStream(dir, glob)) {
            s.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    @Test
    void everyConnectionMatrixAndTopologyIsRead() throws IOException {
        final Path s = shared();
        final Map<String, String> got = new TreeMap<>();
        for (final Path cm : files(s.resolve("connection_matrices"), "*.{cm,tm}")) {
            final HtsimMatrix m = HtsimMatrix.read(cm);
            got.put(cm.getFileName().toString(), m.nodes() + " " + m.flows().size());
        }
        // Nodes and Connections of each file's first two lines
        assertEquals(Map.of("bidir.cm", "16 2", "incast.cm", "16 15", "incast_1024_100K.cm", "1024 1023",
            "incast_128.cm", "128 127", "incast_3-1_overlapped.tm", "128 3", "one.cm", "16 1",
            "outcast_incast.cm", "128 21", "perm_1024n_1024c_0u_2000000b.cm", "1024 1024", "perm_16n_16c_2MB.cm", "16 16"),
            got);
        final HtsimMatrix overlapped = HtsimMatrix.read(s.resolve("connection_matrices/incast_3-1_overlapped.tm"));
        assertEquals(new HtsimMatrix.Flow(95, 0, 2, 40, 250_000, 4), overlapped.flows().get(1));
        final Map<String, String> topo = new TreeMap<>();
        for (final Path t : files(s.resolve("topologies"), "*.topo")) {
            final HtsimTopology h = HtsimTopology.read(t);
            topo.put(t.getFileName().toString(), h.leaves() + "x" + h.hostsPerLeaf() + " " + h.spines() + " spines "
                + h.oversubscribed() + ":1");
        }
        assertEquals(Map.of("leaf_spine_1024.topo", "32x32 32 spines 1:1", "leaf_spine_1024_oversub.topo",
            "32x32 8 spines 4:1", "leaf_spine_1024_oversub_8-1.topo", "32x32 4 spines 8:1", "leaf_spine_tiny.topo",
            "4x8 2 spines 4:1"), topo);
    }

    @Test
    void everyPlanIsImportedOrRefusedNamingTheFlag() throws IOException {
        final Path s = shared();
        final Map<String, String> counts = new TreeMap<>();
        for (final Path plan : files(s, "validate_*.txt")) {
            int imported = 0;
            int refused = 0;
            final List<String> lines = Files.readAllLines(plan);
            int i = 0;
            while (i < lines.size()) {
                final String cm = lines.get(i++).trim();
                if (cm.isEmpty() || cm.startsWith("#") || cm.startsWith("!")) {
                    continue;
                }
                final List<String> flags = new ArrayList<>();
                while (i < lines.size() && lines.get(i).startsWith("!")) {
                    final String[] p = lines.get(i++).trim().split("\\s+", 2);
                    if (p[0].equals("!Param")) {
                        flags.addAll(Arrays.asList(p[1].trim().split("\\s+")));
                    }
                }
                final Path matrix = s.resolve(cm);
                try {
                    final HtsimImport.Result r = HtsimImport.importExperiment(matrix, null, flags,
                        Path.of("/tmp/never-written.yaml"));
                    final HtsimMatrix m = HtsimMatrix.read(matrix);
                    assertEquals(m.flows().size(), r.yaml().lines().filter(l -> l.startsWith("    - {src: ")).count());
                    imported++;
                } catch (final ScenarioException e) {
                    assertTrue(e.getMessage().startsWith("-sleek: ") || e.getMessage().startsWith("-failed: "),
                        plan + " " + cm + " " + flags + ": " + e.getMessage());
                    refused++;
                }
            }
            counts.put(plan.getFileName().toString(), imported + " " + refused);
        }
        // experiments imported / refused per plan: the INC experiments (-failed 1) and the failed-link and SLEEK plans
        assertEquals(Map.of("validate_load_balancing_failed_rcv.txt", "0 9", "validate_load_balancing_failed_snd.txt", "0 9",
            "validate_load_balancing_rcv.txt", "10 0", "validate_load_balancing_snd.txt", "10 0",
            "validate_load_balancing_snd_sleek.txt", "0 10", "validate_uec_both.txt", "13 2", "validate_uec_rcv.txt", "13 2",
            "validate_uec_sender.txt", "13 2"), counts);
    }

    @Test
    void everyValidationOutputIsRead() throws IOException {
        final Path s = shared();
        final Map<String, Integer> counts = new TreeMap<>();
        for (final Path out : files(s.resolve("validate_outputs"), "*.out")) {
            final List<HtsimCompare.Experiment> e = HtsimCompare.readOutput(out);
            try (Stream<String> l = Files.lines(out)) {
                assertEquals(l.filter(x -> x.startsWith("Experiment:")).count(), e.size(), out.toString());
            }
            counts.put(out.getFileName().toString(), e.size());
        }
        assertEquals(8, counts.size());
        final HtsimCompare.Experiment one = HtsimCompare.readOutput(s.resolve("validate_outputs/validate_uec_sender.out"))
            .get(0);
        assertEquals("Single Connection", one.name());
        assertEquals(176.2, one.tailUs());
        assertEquals(490L, one.counts().get("New"));
        assertEquals(124L, one.counts().get("ACKs"));
    }
}
