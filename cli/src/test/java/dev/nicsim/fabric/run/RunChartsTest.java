package dev.nicsim.fabric.run;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

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
    void plotRefusesAnEmptyDirectory(@TempDir final Path tmp) throws Exception {
        // '' would be the current directory: refused before anything is read or written
        final Cli.Outcome o = Cli.run("plot", "");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(List.of("nicsim: RUN_DIR: the path is empty; give a file or directory name"), o.errLines());
    }

    /** Headers of the four CSV files {@code plot} reads, with no rows. */
    private static Path emptyRun(final Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("throughput.csv"), "time_ns,flow_id,bits_per_sec\n");
        Files.writeString(dir.resolve("queues.csv"), "time_ns,switch,port,priority,depth_bytes\n");
        Files.writeString(dir.resolve("rates.csv"), "time_ns,qpn,rate_bits_per_sec\n");
        Files.writeString(dir.resolve("flows.csv"),
            "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n");
        return dir;
    }

    private static XYChart chart(final Path dir, final String png) throws Exception {
        for (final Map.Entry<Path, XYChart> c : RunCharts.charts(dir, "t", null, 0)) {
            if (c.getKey().getFileName().toString().equals(png)) {
                return c.getValue();
            }
        }
        throw new AssertionError(png);
    }

    private static double max(final double[] a) {
        return java.util.Arrays.stream(a).max().orElseThrow();
    }

    /**
     * Samples 1 ns and 10^12 ns apart (throughput.csv) or 1 ns and 3 x 10^9 ns (queues.csv) put the
     * lines on a grid of 10^12 + 1 (3 x 10^9 + 1) times: drawn without building the grid (was a
     * NegativeArraySizeException, and a refusal for queues), each line at most 4 points per pixel
     * column, its samples kept.
     */
    @Test
    void aGridOfATrillionTimesIsDrawnFromItsRowsAlone(@TempDir final Path tmp) throws Exception {
        final Path dir = emptyRun(tmp.resolve("run"));
        Files.writeString(dir.resolve("throughput.csv"), "time_ns,flow_id,bits_per_sec\n1,0,5000000000\n"
            + "1000000000000,0,7000000000\n");
        Files.writeString(dir.resolve("queues.csv"), "time_ns,switch,port,priority,depth_bytes\n1,0,0,3,100000\n"
            + "3000000000,0,0,3,200000\n");
        final Cli.Outcome o = Cli.run("plot", dir.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertFigures(dir);
        final XYSeries tput = chart(dir, "throughput.png").getSeriesMap().get("flow 0");
        // 0 at 0, 5 Gb/s at 1 ns, 0 at 2 ns ... 0 at 10^12 - 1 ns, 7 Gb/s at 10^12 ns (x in us)
        assertEquals(List.of(0.0, 0.001, 0.002, 999_999_999.999, 1e9), boxed(tput.getXData()));
        assertEquals(List.of(0.0, 5.0, 0.0, 0.0, 7.0), boxed(tput.getYData()));
        final XYSeries queue = chart(dir, "queues.png").getSeriesMap().get("0 port 0 prio 3");
        assertEquals(List.of(0.0, 0.001, 0.002, 2_999_999.999, 3e6), boxed(queue.getXData()));
        assertEquals(List.of(0.0, 100.0, 0.0, 0.0, 200.0), boxed(queue.getYData()));
    }

    private static List<Double> boxed(final double[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }

    /**
     * A queue sampled every 1 us for 250 ms (250,000 rows) rising 1 byte a sample, with one
     * sample of 5 MB at 123,457 us and one empty sample at 200,001 us: its line keeps at most
     * 4 points per pixel column of the 1000-pixel figure, and the peak, the dip and both ends.
     * (Were all 250,000 points; drawing such lines took tens of seconds per figure.)
     */
    @Test
    void aLongSeriesIsReducedToTheFigureWidthKeepingItsPeaks(@TempDir final Path tmp) throws Exception {
        final Path dir = emptyRun(tmp.resolve("run"));
        final StringBuilder q = new StringBuilder("time_ns,switch,port,priority,depth_bytes\n");
        final StringBuilder r = new StringBuilder("time_ns,qpn,rate_bits_per_sec\n");
        for (int i = 0; i < 250_000; i++) {
            final long depth = i == 123_457 ? 5_000_000 : i == 200_001 ? 0 : 1000 + i;
            q.append(i * 1000L).append(",1,2,3,").append(depth).append('\n');
            r.append(i * 1000L).append(",1,").append(i == 7 ? 1 : 100_000_000_000L - i).append('\n');
        }
        Files.writeString(dir.resolve("queues.csv"), q);
        Files.writeString(dir.resolve("rates.csv"), r);
        Files.writeString(dir.resolve("flows.csv"),
            "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n0,0,1,1000000,0,,1000,\n");
        final XYSeries queue = chart(dir, "queues.png").getSeriesMap().get("1 port 2 prio 3");
        assertTrue(queue.getXData().length <= 4 * RunCharts.WIDTH_PX, queue.getXData().length + " points");
        assertEquals(5000.0, max(queue.getYData()), "the 5 MB sample, in KB");
        assertEquals(0.0, java.util.Arrays.stream(queue.getYData()).min().orElseThrow(), "the empty sample");
        assertEquals(0.0, queue.getXData()[0]);
        assertEquals(249_999.0, queue.getXData()[queue.getXData().length - 1]);
        final XYSeries rate = chart(dir, "rates.png").getSeriesMap().get("flow 0 (1000000 B)");
        assertTrue(rate.getXData().length <= 4 * RunCharts.WIDTH_PX, rate.getXData().length + " points");
        assertEquals(1e-9, java.util.Arrays.stream(rate.getYData()).min().orElseThrow(), "the 1 b/s sample, in Gb/s");
        assertEquals(100.0, max(rate.getYData()));
    }

    /**
     * Bad CSV files: one line naming the file and line, exit 2, and no figure written (the four
     * charts are built before the first is written; was: the figures before the bad file were left).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "cut inside a quote | rates.csv | time_ns,qpn,rate_bits_per_sec\\n1000,1,5\\n2000,1,\"7 | rates.csv: line 3: not valid CSV: EOF reached before encapsulated token finished",
        "a header cut inside a quote | queues.csv | time_ns,\"switch | queues.csv: line 1: not valid CSV: EOF reached before encapsulated token finished",
        "a missing column | queues.csv | time_ns,switch,port,priority\\n1000,0,0,3\\n | queues.csv: line 1: missing column depth_bytes; expected columns time_ns, switch, port, priority, depth_bytes",
        "a line cut short | queues.csv | time_ns,switch,port,priority,depth_bytes\\n1000,0,0,3,5\\n2000,0,0\\n | queues.csv: line 3: 3 values, expected 5 (time_ns, switch, port, priority, depth_bytes); is the line cut short?",
        "an ideal FCT of 0 | flows.csv | flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\\n0,0,1,1000,0,5000,0,\\n | flows.csv: line 2: column ideal_fct_ns: expected an integer >= 1, got 0",
        "a negative time | rates.csv | time_ns,qpn,rate_bits_per_sec\\n-5,1,5\\n | rates.csv: line 2: column time_ns: expected a time in ns in [0, 9223372036854775] (the simulator's picosecond clock), got -5",
    })
    void aBadCsvFileIsOneLineAndWritesNoFigure(final String name, final String file, final String text, final String expected,
                                               @TempDir final Path tmp) throws Exception {
        final Path dir = emptyRun(tmp.resolve("run"));
        Files.writeString(dir.resolve(file), text.replace("\\n", "\n"));
        final Cli.Outcome o = Cli.run("plot", dir.toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(List.of("nicsim: " + dir + java.io.File.separator + expected), o.errLines());
        for (final String f : FIGURES) {
            assertFalse(Files.exists(dir.resolve(f)), f + " written before the error");
        }
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(p -> p.toString().endsWith(".tmp")).toList());
        }
    }

    /** A file that is not UTF-8 is named with the line of its first malformed byte (was: "not UTF-8 text" alone). */
    @Test
    void aFileThatIsNotUtf8IsNamedWithItsLine(@TempDir final Path tmp) throws Exception {
        final Path dir = emptyRun(tmp.resolve("run"));
        final java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes("flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n0,0,1,1000,0,,1000,\n".getBytes());
        b.writeBytes(new byte[] {'1', ',', (byte) 0xC3, (byte) 0x28, ',', '1', '\n'});
        Files.write(dir.resolve("flows.csv"), b.toByteArray());
        final Cli.Outcome o = Cli.run("plot", dir.toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(List.of("nicsim: " + dir.resolve("flows.csv") + ": line 3: not UTF-8 text (a malformed byte sequence)"),
            o.errLines());
        for (final String f : FIGURES) {
            assertFalse(Files.exists(dir.resolve(f)), f);
        }
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
