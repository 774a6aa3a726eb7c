package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FctCompare} and {@code nicsim compare} on two small fct files written by hand: flows of
 * uneven sizes (on both sides of the 10 KB and 1 MB bucket edges), flows that match only with a
 * start 1 ns apart, flows that match nothing on either side, and an empty size bucket. Every
 * percentile and ratio below is worked out by hand in the comments (nearest rank: the value at
 * rank ceil(p/100 x n) of the bucket's slowdowns sorted ascending, each side sorted on its own).
 */
class FctCompareTest {
    /*
     * Every flow's standalone FCT is 1,000 ns, so slowdown = max(1, fct_ns / 1000).
     *
     *  flow  size_bytes  bucket      run start  run fct -> slowdown   ref start  ref fct -> slowdown
     *  f1         1,000  <10KB           1,000      800 -> 1.0 (clamped)  1,000     1,200 -> 1.2
     *  f2         5,000  <10KB           2,000    2,000 -> 2.0            2,000     1,600 -> 1.6
     *  f3         9,999  <10KB           3,000    3,000 -> 3.0            3,000     2,000 -> 2.0
     *  f4           500  <10KB           4,000    1,400 -> 1.4            4,000       900 -> 1.0 (clamped)
     *  f5         2,000  <10KB           6,000    5,000 -> 5.0            6,000     4,000 -> 4.0
     *  f6        10,000  10-100KB (edge) 7,000    2,500 -> 2.5            7,000     2,000 -> 2.0
     *  f7        50,000  10-100KB        8,000    1,100 -> 1.1            8,001 (+1) 1,100 -> 1.1
     *  f8        99,999  10-100KB        9,000    4,000 -> 4.0            8,999 (-1) 5,000 -> 5.0
     *  f9     1,000,000  >=1MB (edge)   10,000    6,000 -> 6.0           10,000     3,000 -> 3.0
     *  f10    2,000,000  >=1MB          11,000    1,500 -> 1.5           11,000     2,500 -> 2.5
     *
     * Unmatched in the run (2): u1 100,000 bytes at 12,000 (the only 100KB-1MB flow; none in the
     * reference, so that bucket stays empty), u2 3,000 bytes at 5,000 (the reference's is at 5,002,
     * 2 ns apart). Unmatched in the reference (3): u3 (3,000 bytes at 5,002), u4 (f1's size and start
     * but from another source, 0b000201), u5 (500,000 bytes at 13,000, another 100KB-1MB flow).
     */
    static final String RUN = """
        0b000001 0b000101 10000 100 2000000 11000 1500 1000
        0b000001 0b000101 10001 100 9999 3000 3000 1000
        0b000001 0b000101 10002 100 1000 1000 800 1000
        0b000001 0b000101 10003 100 100000 12000 3000 1000
        0b000001 0b000101 10004 100 5000 2000 2000 1000
        0b000001 0b000101 10005 100 500 4000 1400 1000
        0b000001 0b000101 10006 100 3000 5000 1000 1000
        0b000001 0b000101 10007 100 2000 6000 5000 1000
        0b000001 0b000101 10008 100 10000 7000 2500 1000
        0b000001 0b000101 10009 100 1000000 10000 6000 1000
        0b000001 0b000101 10010 100 50000 8000 1100 1000
        0b000001 0b000101 10011 100 99999 9000 4000 1000
        """;
    static final String REFERENCE = """
        0b000001 0b000101 10000 100 1000 1000 1200 1000
        0b000201 0b000101 10000 100 1000 1000 2000 1000
        0b000001 0b000101 10001 100 5000 2000 1600 1000
        0b000001 0b000101 10002 100 9999 3000 2000 1000
        0b000001 0b000101 10003 100 500 4000 900 1000
        0b000001 0b000101 10004 100 3000 5002 1000 1000
        0b000001 0b000101 10005 100 2000 6000 4000 1000
        0b000001 0b000101 10006 100 10000 7000 2000 1000
        0b000001 0b000101 10007 100 50000 8001 1100 1000
        0b000001 0b000101 10008 100 99999 8999 5000 1000
        0b000001 0b000101 10009 100 1000000 10000 3000 1000
        0b000001 0b000101 10010 100 2000000 11000 2500 1000
        0b000001 0b000101 10011 100 500000 13000 2000 1000
        """;

    /*
     * The expected rows, by hand.
     *
     * all (n = 10): run sorted 1.0 1.1 1.4 1.5 2.0 2.5 3.0 4.0 5.0 6.0,
     *               ref sorted 1.0 1.1 1.2 1.6 2.0 2.0 2.5 3.0 4.0 5.0.
     *   p50 rank ceil(5.0) = 5: run 2.0, ref 2.0, ratio 1.0
     *   p95 rank ceil(9.5) = 10: run 6.0, ref 5.0, ratio 1.2; p99 rank ceil(9.9) = 10: the same
     * <10KB (f1-f5, n = 5): run 1.0 1.4 2.0 3.0 5.0, ref 1.0 1.2 1.6 2.0 4.0.
     *   p50 rank ceil(2.5) = 3: run 2.0, ref 1.6, ratio 1.25
     *   p95 rank ceil(4.75) = 5 and p99 rank ceil(4.95) = 5: run 5.0, ref 4.0, ratio 1.25
     * 10-100KB (f6-f8, n = 3): run 1.1 2.5 4.0, ref 1.1 2.0 5.0.
     *   p50 rank ceil(1.5) = 2: run 2.5, ref 2.0, ratio 1.25
     *   p95 rank ceil(2.85) = 3 and p99 rank ceil(2.97) = 3: run 4.0, ref 5.0, ratio 0.8
     * 100KB-1MB (n = 0): no value (NaN; empty cells in compare.csv)
     * >=1MB (f9, f10, n = 2): run 1.5 6.0, ref 2.5 3.0.
     *   p50 rank ceil(1.0) = 1: run 1.5, ref 2.5, ratio 0.6
     *   p95 rank ceil(1.9) = 2 and p99 rank ceil(1.98) = 2: run 6.0, ref 3.0, ratio 2.0
     */
    static final List<String> CSV = List.of(
        "bucket,percentile,nicsim,reference,ratio",
        "all,p50,2.000,2.000,1.000",
        "all,p95,6.000,5.000,1.200",
        "all,p99,6.000,5.000,1.200",
        "<10KB,p50,2.000,1.600,1.250",
        "<10KB,p95,5.000,4.000,1.250",
        "<10KB,p99,5.000,4.000,1.250",
        "10-100KB,p50,2.500,2.000,1.250",
        "10-100KB,p95,4.000,5.000,0.800",
        "10-100KB,p99,4.000,5.000,0.800",
        "100KB-1MB,p50,,,",
        "100KB-1MB,p95,,,",
        "100KB-1MB,p99,,,",
        ">=1MB,p50,1.500,2.500,0.600",
        ">=1MB,p95,6.000,3.000,2.000",
        ">=1MB,p99,6.000,3.000,2.000");

    private static Path write(final Path file, final String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void percentilesAndRatiosPerBucketMatchTheHandComputedOnes(@TempDir final Path dir) throws Exception {
        final FctCompare.Result r = FctCompare.compare(write(dir.resolve("run.txt"), RUN), write(dir.resolve("ref.txt"), REFERENCE));
        assertEquals(10, r.matched());
        assertEquals(2, r.unmatchedNicsim());
        assertEquals(3, r.unmatchedReference());
        // {bucket, flows, p50 run, p50 ref, p95 run, p95 ref, p99 run, p99 ref}, from the table above
        final Object[][] expected = {
            {"all", 10, 2.0, 2.0, 6.0, 5.0, 6.0, 5.0},
            {"<10KB", 5, 2.0, 1.6, 5.0, 4.0, 5.0, 4.0},
            {"10-100KB", 3, 2.5, 2.0, 4.0, 5.0, 4.0, 5.0},
            {"100KB-1MB", 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN},
            {">=1MB", 2, 1.5, 2.5, 6.0, 3.0, 6.0, 3.0}};
        assertEquals(expected.length * 3, r.rows().size());
        for (int b = 0; b < expected.length; b++) {
            for (int p = 0; p < 3; p++) {
                final FctCompare.Row row = r.rows().get(b * 3 + p);
                final String what = expected[b][0] + " " + row.percentile();
                assertEquals(expected[b][0], row.bucket(), what);
                assertEquals(new String[] {"p50", "p95", "p99"}[p], row.percentile(), what);
                assertEquals(expected[b][1], row.flows(), what);
                assertEquals((double) expected[b][2 + 2 * p], row.nicsim(), 1e-12, what);
                assertEquals((double) expected[b][3 + 2 * p], row.reference(), 1e-12, what);
                assertEquals((double) expected[b][2 + 2 * p] / (double) expected[b][3 + 2 * p], row.ratio(), 1e-12, what);
            }
        }
        // the matched pairs, in the run's file order: f10 f3 f1 f2 f4 f5 f6 f9 f7 f8
        assertArrayEquals(new long[] {2_000_000, 9_999, 1_000, 5_000, 500, 2_000, 10_000, 1_000_000, 50_000, 99_999}, r.sizes());
        assertArrayEquals(new double[] {1.5, 3.0, 1.0, 2.0, 1.4, 5.0, 2.5, 6.0, 1.1, 4.0}, r.nicsimSlowdowns(), 1e-12);
        assertArrayEquals(new double[] {2.5, 2.0, 1.2, 1.6, 1.0, 4.0, 2.0, 3.0, 1.1, 5.0}, r.referenceSlowdowns(), 1e-12);
    }

    @Test
    void compareCommandWritesTheHandComputedCsv(@TempDir final Path dir) throws Exception {
        write(dir.resolve("run/fct.txt"), RUN);
        final Path ref = write(dir.resolve("ref.txt"), REFERENCE);
        final Cli.Outcome o = Cli.run("compare", dir.resolve("run").toString(), ref.toString(), "--out", dir.resolve("cmp").toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("flows matched 10; unmatched: 2 in the run, 3 in the reference\n"), o.out());
        // the empty bucket: 0 flows, blank figures
        assertTrue(o.out().lines().anyMatch(l -> l.matches("100KB-1MB +0 +p95 *")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.matches("10-100KB +3 +p95 +4\\.000 +5\\.000 +0\\.800")), o.out());
        assertEquals(CSV, Files.readAllLines(dir.resolve("cmp/compare.csv")));
        assertTrue(Files.size(dir.resolve("cmp/compare.png")) > 0);
    }

    @Test
    void aReferenceWithNoMatchingFlowIsOneLineAndExit2(@TempDir final Path dir) throws Exception {
        write(dir.resolve("run/fct.txt"), RUN);
        // f1 of the run, but starting 2 ns later: nothing matches
        final Path other = write(dir.resolve("other-fct.txt"), "0b000001 0b000101 10000 100 1000 1002 1200 1000\n");
        final Cli.Outcome o = Cli.run("compare", dir.resolve("run").toString(), other.toString(), "--out",
            dir.resolve("cmp").toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: " + other + ": no flow matches one of " + dir.resolve("run/fct.txt")
            + " by (src_ip, dst_ip, size, start_ns) (12 flows in the run, 1 in the reference)", o.errLines().get(0));
        assertTrue(Files.notExists(dir.resolve("cmp/compare.csv")));
    }

    @Test
    void exactStartsAreMatchedBeforeStartsOneNanosecondApart() {
        // run X starts at 100 ns, run Y at 99 ns; the reference has R1 at 99 ns and R2 at 101 ns, same
        // (src, dst, size). Y's exact partner is R1; X has none, and its 1-ns partners are 99 (R1) and
        // 101 (R2). Matching in one pass in run order gave X R1 (via -1 ns), left Y without a partner
        // and R2 unmatched: 1 matched, 1 + 1 unmatched. Exact starts first: Y-R1, then X-R2, all matched.
        // Slowdowns (fct / standalone, at least 1): X 2000/1000 = 2, Y 3000/1000 = 3, R1 3, R2 2, so both
        // pairs compare equal slowdowns when paired right (ratios 1), and 2 vs 3 when paired wrong.
        final FctFile.Row x = new FctFile.Row(1, 2, 10000, 100, 5000, 100, 2000, 1000, 1);
        final FctFile.Row y = new FctFile.Row(1, 2, 10000, 100, 5000, 99, 3000, 1000, 2);
        final FctFile.Row r1 = new FctFile.Row(1, 2, 10000, 100, 5000, 99, 3000, 1000, 1);
        final FctFile.Row r2 = new FctFile.Row(1, 2, 10000, 100, 5000, 101, 2000, 1000, 2);
        final FctCompare.Result r = FctCompare.compare(List.of(x, y), List.of(r1, r2));
        assertEquals(2, r.matched());
        assertEquals(0, r.unmatchedNicsim());
        assertEquals(0, r.unmatchedReference());
        // in run order: X (2) with R2 (2), Y (3) with R1 (3)
        assertArrayEquals(new double[] {2, 3}, r.nicsimSlowdowns());
        assertArrayEquals(new double[] {2, 3}, r.referenceSlowdowns());
    }
}
