package dev.nicsim.sweep;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sweeps on embedded Spark ({@code local[*]}, the default master: as many task slots as cores), one session shared by the class (Spark starts in
 * seconds, the tiny incast points in a fraction of one): a sweep equals direct {@code nicsim run}s
 * point by point, a bad combination fails alone, {@code --resume} runs only what is missing, and
 * the point timeout fails a point.
 */
class SweepLocalTest {
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        spark = SparkSessions.create("local[*]", "SweepLocalTest");
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    private static int sweep(final SweepSpec spec, final Path out, final boolean resume, final boolean keepRuns,
                             final double timeout, final StringBuilder message) throws Exception {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        final int code;
        try (PrintStream p = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            code = new SweepRun(spec, out, resume, keepRuns, timeout, false, p).run(spark);
        }
        message.append(b.toString(StandardCharsets.UTF_8));
        return code;
    }

    /**
     * Every (point, seed) of a 4 x 2 sweep is exactly {@code nicsim run SCENARIO --seed S --set ...}:
     * the kept run directories hold byte-identical flows.csv, counters.csv and fct.txt, and the
     * row's figures equal those recomputed here from the direct run's files (nearest-rank
     * percentiles of flows.csv's slowdown column, CNPs summed from counters.csv, run.json's
     * simulated_ns), independently of the sweep's own code.
     */
    @Test
    void sweepEqualsDirectRunsRowByRow(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        spec.validate();
        final Path out = tmp.resolve("out");
        assertEquals(SweepRun.EXIT_OK, sweep(spec, out, false, true, 0, new StringBuilder()));
        final List<Map<String, String>> rows = Fixtures.readCsv(out.resolve("points.csv"));
        assertEquals(8, rows.size());
        int i = 0;
        for (final String algorithm : List.of("dcqcn", "dctcp")) {
            for (final String size : List.of("32000", "96000")) {
                for (final String seed : List.of("1", "2")) {
                    final Map<String, String> row = rows.get(i++);
                    assertEquals(algorithm, row.get("algorithm.name"));
                    assertEquals(size, row.get("workload.size_bytes"));
                    assertEquals(seed, row.get("seed"));
                    assertEquals("ok", row.get("status"), row.get("error"));
                    final Path direct = tmp.resolve("direct-" + row.get("point") + "-" + seed);
                    assertEquals(0, Fixtures.nicsimRun("run", Fixtures.incast().toString(), "--seed", seed,
                        "--set", "workload.senders=4", "--set", "topology.hosts=5", "--set", "workload.receiver=4",
                        "--set", "stop_time_us=2000", "--set", "algorithm.name=" + algorithm,
                        "--set", "workload.size_bytes=" + size, "--out", direct.toString(), "--no-progress"));
                    final Path kept = out.resolve("runs/p" + row.get("point") + "-s" + seed);
                    for (final String f : List.of("flows.csv", "counters.csv", "fct.txt")) {
                        assertArrayEquals(Files.readAllBytes(direct.resolve(f)), Files.readAllBytes(kept.resolve(f)),
                            f + " of point " + row.get("point") + " seed " + seed);
                    }
                    assertRowMatchesRunFiles(row, direct);
                }
            }
        }
        // points.parquet holds the same rows as points.csv
        final Dataset<Row> parquet = spark.read().parquet(out.resolve("points.parquet").toString()).orderBy("point", "seed");
        final List<Row> prow = parquet.collectAsList();
        assertEquals(8, prow.size());
        for (int r = 0; r < 8; r++) {
            assertEquals(Long.parseLong(rows.get(r).get("cnps")), prow.get(r).getLong(prow.get(r).fieldIndex("cnps")));
            assertEquals(Double.parseDouble(rows.get(r).get("slowdown_p99")),
                prow.get(r).getDouble(prow.get(r).fieldIndex("slowdown_p99")));
            assertEquals(rows.get(r).get("algorithm.name"), prow.get(r).getString(prow.get(r).fieldIndex("algorithm.name")));
        }
        // summary.csv: per point, mean/min/max over its 2 seeds
        final List<Map<String, String>> summary = Fixtures.readCsv(out.resolve("summary.csv"));
        assertEquals(4, summary.size());
        for (int p = 0; p < 4; p++) {
            final long c1 = Long.parseLong(rows.get(2 * p).get("cnps"));
            final long c2 = Long.parseLong(rows.get(2 * p + 1).get("cnps"));
            assertEquals((c1 + c2) / 2.0, Double.parseDouble(summary.get(p).get("cnps_mean")), 1e-9);
            assertEquals(Math.min(c1, c2), Long.parseLong(summary.get(p).get("cnps_min")));
            assertEquals(Math.max(c1, c2), Long.parseLong(summary.get(p).get("cnps_max")));
            assertEquals("2", summary.get(p).get("seeds_ok"));
        }
        assertTrue(Files.size(out.resolve("sweep.png")) > 1000);
    }

    /** The row's figures, recomputed from a direct run's output files. */
    private static void assertRowMatchesRunFiles(final Map<String, String> row, final Path direct) throws Exception {
        final List<Map<String, String>> flows = Fixtures.readCsv(direct.resolve("flows.csv"));
        final List<Double> slow = new ArrayList<>();
        for (final Map<String, String> f : flows) {
            if (!f.get("slowdown").isEmpty()) {
                slow.add(Double.parseDouble(f.get("slowdown")));
            }
        }
        final double[] s = slow.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        assertEquals(Integer.toString(flows.size()), row.get("flows"));
        assertEquals(Integer.toString(s.length), row.get("flows_completed"));
        // nearest rank: the ceil(p/100 x n)-th smallest; flows.csv and points.csv both print 4 decimals
        for (final int p : new int[] {50, 95, 99}) {
            final double expected = s[(int) Math.ceil(p / 100.0 * s.length) - 1];
            assertEquals(expected, Double.parseDouble(row.get("slowdown_p" + p)), 1e-9, "slowdown_p" + p);
        }
        long cnps = 0;
        for (final Map<String, String> c : Fixtures.readCsv(direct.resolve("counters.csv"))) {
            if (c.get("counter").equals("np_cnp_sent")) {
                cnps += Long.parseLong(c.get("value"));
            }
        }
        assertEquals(Long.toString(cnps), row.get("cnps"));
        final String json = Files.readString(direct.resolve("run.json"));
        assertTrue(json.contains("\"simulated_ns\" : " + row.get("simulated_ns") + ","), json);
    }

    /**
     * HPCC's INT records cannot encode a 30 Gb/s link, so the point (hpcc, 30) fails when its
     * fabric is built; each value is valid on its own, so validation passes and the other three
     * points (x 1 seed) run: exit 4, one failed row with the runner's message, three ok rows.
     */
    @Test
    void aBadCombinationFailsAlone(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.sweepFile(tmp, "set: " + Fixtures.TINY_SET
            + "\naxes:\n  algorithm.name: [dcqcn, hpcc]\n  topology.host_link.rate_gbps: [100, 30]\nseeds: [1]\n"));
        spec.validate();
        final Path out = tmp.resolve("out");
        assertEquals(SweepRun.EXIT_SOME_FAILED, sweep(spec, out, false, false, 0, new StringBuilder()));
        final List<Map<String, String>> rows = Fixtures.readCsv(out.resolve("points.csv"));
        assertEquals(4, rows.size());
        for (final Map<String, String> r : rows) {
            final boolean bad = r.get("algorithm.name").equals("hpcc") && r.get("topology.host_link.rate_gbps").equals("30");
            assertEquals(bad ? "failed" : "ok", r.get("status"), r.toString());
            if (bad) {
                assertTrue(r.get("error").contains("HPCC's INT hop records encode link rates"), r.get("error"));
                assertEquals("", r.get("flows"));
            } else {
                assertEquals("", r.get("error"));
                assertEquals("4", r.get("flows_completed"));
            }
        }
        final List<Map<String, String>> summary = Fixtures.readCsv(out.resolve("summary.csv"));
        assertEquals("0", summary.get(3).get("seeds_ok"));
        assertEquals("1", summary.get(3).get("seeds_failed"));
    }

    /**
     * {@code --resume}: after deleting three rows of points.csv and marking a fourth failed, a
     * resumed sweep runs exactly those four and keeps the other four rows as they were (their
     * wall_s, which differs from run to run, is unchanged). Without {@code --resume} an existing
     * points.csv is refused.
     */
    @Test
    void resumeRunsOnlyMissingAndFailedPoints(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        final Path out = tmp.resolve("out");
        assertEquals(SweepRun.EXIT_OK, sweep(spec, out, false, false, 0, new StringBuilder()));
        final Path csv = out.resolve("points.csv");
        final List<String> lines = new ArrayList<>(Files.readAllLines(csv));
        assertEquals(9, lines.size());
        final List<String> kept = List.of(lines.get(1), lines.get(3), lines.get(4), lines.get(7));
        final String failed = lines.get(2).replace(",ok,,", ",failed,made up,");
        final List<String> damaged = new ArrayList<>(List.of(lines.get(0)));
        damaged.addAll(kept);
        damaged.add(failed);
        Files.write(csv, damaged);
        assertThrows(SweepException.class, () -> sweep(spec, out, false, false, 0, new StringBuilder()));
        final StringBuilder msg = new StringBuilder();
        assertEquals(SweepRun.EXIT_OK, sweep(spec, out, true, false, 0, msg));
        assertTrue(msg.toString().contains("4 run now, 4 kept"), msg.toString());
        final List<String> after = Files.readAllLines(csv);
        assertEquals(9, after.size());
        for (final String k : kept) {
            assertTrue(after.contains(k), "kept row rewritten: " + k);
        }
        assertTrue(after.stream().noneMatch(l -> l.contains("failed")));
        // the rerun rows equal the first run's except for wall_s (the column before the firmware ones)
        for (int i = 1; i <= 8; i++) {
            assertEquals(withoutWall(lines.get(i)), withoutWall(after.get(i)));
        }
    }

    private static String withoutWall(final String line) {
        final List<String> f = new ArrayList<>(Arrays.asList(line.split(",", -1)));
        f.remove(f.size() - 4); // wall_s, then firmware_cycles_p50, firmware_cycles_p99, firmware_faults
        return String.join(",", f);
    }

    /** A point still running after --point-timeout fails with that reason (the runner checks every 20 us simulated). */
    @Test
    void pointTimeoutFailsThePoint(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.sweepFile(tmp, "set: " + Fixtures.TINY_SET + "\nseeds: [1]\n"));
        final Path out = tmp.resolve("out");
        assertEquals(SweepRun.EXIT_SOME_FAILED, sweep(spec, out, false, false, 1e-9, new StringBuilder()));
        final Map<String, String> row = Fixtures.readCsv(out.resolve("points.csv")).get(0);
        assertEquals("failed", row.get("status"));
        assertTrue(row.get("error").startsWith("timed out after"), row.get("error"));
    }
}
