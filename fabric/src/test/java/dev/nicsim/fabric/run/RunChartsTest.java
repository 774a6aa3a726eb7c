package dev.nicsim.fabric.run;

import dev.nicsim.fabric.Cli;
import dev.nicsim.fabric.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim plot RUN_DIR} and {@code sampling.charts: true} write the four figures; the queue
 * and flow choice keeps the largest by score.
 */
class RunChartsTest {
    private static final String[] FIGURES = {"throughput.png", "queues.png", "rates.png", "slowdown.png"};

    /** A 4-to-1 incast of 1 MB each on a 5-host star: a few hundred us of simulated time, well under a second. */
    private static String[] smallIncast(final Path out, final String... more) {
        final List<String> a = new java.util.ArrayList<>(List.of("run",
            TestPaths.root().resolve("scenarios/incast-dcqcn.yaml").toString(), "--set", "workload.senders=4",
            "--set", "topology.hosts=5", "--set", "workload.receiver=4", "--out", out.toString(), "--no-progress"));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private static void assertFigures(final Path dir) throws Exception {
        for (final String f : FIGURES) {
            final BufferedImage img = ImageIO.read(dir.resolve(f).toFile());
            assertNotNull(img, f + " is not a PNG");
            assertEquals(1000, img.getWidth(), f);
            assertEquals(560, img.getHeight(), f);
        }
    }

    @Test
    void plotWritesTheFourFiguresOfARunDirectory(@TempDir final Path tmp) throws Exception {
        final Path dir = tmp.resolve("run");
        assertEquals(0, Cli.run(smallIncast(dir)).exitCode());
        for (final String f : FIGURES) {
            assertFalse(Files.exists(dir.resolve(f)), f + " without sampling.charts");
        }
        final Cli.Outcome o = Cli.run("plot", dir.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(4, o.outLines().size(), o.out());
        assertFigures(dir);
    }

    @Test
    void samplingChartsWritesTheFourFiguresAfterTheRun(@TempDir final Path tmp) throws Exception {
        final Path dir = tmp.resolve("run");
        assertEquals(0, Cli.run(smallIncast(dir, "--set", "sampling.charts=true")).exitCode());
        assertFigures(dir);
    }

    @Test
    void plotOfAMissingOrBrokenDirectoryIsOneLine(@TempDir final Path tmp) throws Exception {
        Cli.Outcome o = Cli.run("plot", tmp.resolve("nosuch").toString());
        assertEquals(2, o.exitCode());
        assertEquals(List.of("nicsim: " + tmp.resolve("nosuch") + ": no such run directory"), o.errLines());
        Files.writeString(tmp.resolve("throughput.csv"), "time_ns,flow_id,bits_per_sec\n10000,0,x\n");
        o = Cli.run("plot", tmp.toString());
        assertEquals(2, o.exitCode());
        assertEquals(1, o.errLines().size(), o.err());
        assertEquals("nicsim: " + tmp.resolve("throughput.csv") + ": line 2: column bits_per_sec: expected an integer, got 'x'",
            o.err().strip());
    }

    @Test
    void plotRefusesAnEmptyDirectoryAndAGridTooFineToDraw(@TempDir final Path tmp) throws Exception {
        // '' would be the current directory: refused before anything is read or written
        Cli.Outcome o = Cli.run("plot", "");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(List.of("nicsim: RUN_DIR: the path is empty; give a file or directory name"), o.errLines());
        // samples at 1 ns and 3,000,000,000 ns: gcd 1 ns, a grid of 3e9 + 1 points (an int overflow before)
        Files.writeString(tmp.resolve("throughput.csv"), "time_ns,flow_id,bits_per_sec\n");
        Files.writeString(tmp.resolve("queues.csv"), "time_ns,switch,port,priority,depth_bytes\n1,0,0,3,100\n3000000000,0,0,3,200\n");
        o = Cli.run("plot", tmp.toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.errLines().size(), o.err());
        assertTrue(o.err().contains("queues.csv: time_ns: 3000000001 sample times on one grid"), o.err());
    }

    /** 10 queues with peaks 1..10 KB: the 8 deepest are those of peak 3..10; equal scores keep the smaller key. */
    @Test
    void topKeepsTheLargestScoresInKeyOrder() {
        final Map<String, Long> peak = new TreeMap<>();
        for (int q = 1; q <= 10; q++) {
            peak.put("q" + (char) ('a' + q), q * 1000L);
        }
        assertEquals(List.of("qd", "qe", "qf", "qg", "qh", "qi", "qj", "qk"), RunCharts.top(peak, 8));
        assertEquals(List.of(1, 2), RunCharts.top(Map.of(3, 5L, 1, 5L, 2, 5L, 4, 1L), 2));
        assertEquals(List.of(), RunCharts.top(Map.<Integer, Long>of(), 8));
    }
}
