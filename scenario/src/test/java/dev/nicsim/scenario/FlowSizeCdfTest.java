package dev.nicsim.scenario;

import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowSizeCdfTest {

    @Test
    void percentAndFractionFormsGiveTheSameDistribution() {
        final FlowSizeCdf pct = FlowSizeCdf.parse("p", List.of("0 0", "1000 50", "3000 100"));
        final FlowSizeCdf frac = FlowSizeCdf.parse("f", List.of("0 0", "1000 0.5", "3000 1"));
        // u = 0.25 lies halfway through the first segment: 0 + 0.5 x 1000 = 500 bytes
        assertEquals(500, pct.sizeAt(0.25));
        assertEquals(500, frac.sizeAt(0.25));
        // u = 0.75 lies halfway through the second: 1000 + 0.5 x 2000 = 2000 bytes
        assertEquals(2000, pct.sizeAt(0.75));
        // mean = 0.5 x (0 + 1000)/2 + 0.5 x (1000 + 3000)/2 = 250 + 1000 = 1250 bytes
        assertEquals(1250.0, pct.meanBytes(), 1e-9);
        assertEquals(1250.0, frac.meanBytes(), 1e-9);
    }

    @Test
    void sampledMeanMatchesTheInterpolatedMean() {
        final FlowSizeCdf cdf = FlowSizeCdf.parse("p", List.of("0 0", "1000 50", "3000 100"));
        final SplittableRandom r = new SplittableRandom(7);
        double sum = 0;
        final int n = 200_000;
        for (int i = 0; i < n; i++) {
            sum += cdf.sample(r);
        }
        // standard deviation of one draw is below 3000, so of the mean below 3000/sqrt(n) = 6.7: allow 5 sigma
        assertEquals(1250.0, sum / n, 34);
    }

    @Test
    void everyProjectWorkloadLoads() {
        // the repository's own CDFs (workloads/, written from the published points): means as listed
        // in workloads/README.md, whole bytes
        final Path dir = TestPaths.root().resolve("workloads");
        assertEquals(1_711_250.0, FlowSizeCdf.load(dir.resolve("websearch.cdf")).meanBytes(), 0.5);
        assertEquals(5_036_535.0, FlowSizeCdf.load(dir.resolve("datamining.cdf")).meanBytes(), 0.5);
        assertEquals(120_421.0, FlowSizeCdf.load(dir.resolve("fb-hadoop.cdf")).meanBytes(), 0.5);
    }

    @Test
    void everySharedWorkloadLoads() {
        final Path dir = TestPaths.sharedOrSkip("data/workloads");
        for (final String f : new String[] {"websearch.cdf", "vl2-datamining.cdf", "fb-hadoop.cdf", "ali-storage-2019.cdf",
            "google-rpc-2008.cdf"}) {
            final FlowSizeCdf cdf = FlowSizeCdf.load(TestPaths.sharedOrSkip("data/workloads/" + f));
            assertTrue(cdf.meanBytes() > 0, f);
        }
        // websearch mean from its published points (percent form), computed by hand segment by segment:
        // 0.15x5000 + 0.05x15000 + 0.10x25000 + 0.10x40000 + 0.13x65000 + 0.07x140000 + 0.10x600000
        // + 0.10x1500000 + 0.10x3500000 + 0.07x7500000 + 0.03x20000000 = 1,711,250 bytes
        assertEquals(1_711_250.0, FlowSizeCdf.load(dir.resolve("websearch.cdf")).meanBytes(), 1e-6);
    }

    @Test
    void badFilesNameTheLine() {
        ScenarioException e = assertThrows(ScenarioException.class,
            () -> FlowSizeCdf.parse("w.cdf", List.of("0 0", "100 abc", "200 100")));
        assertEquals("w.cdf:2: expected two numbers, got '100 abc'", e.getMessage());
        e = assertThrows(ScenarioException.class, () -> FlowSizeCdf.parse("w.cdf", List.of("0 0", "100 60", "200 50")));
        assertTrue(e.getMessage().startsWith("w.cdf:3: sizes and probabilities must not decrease"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> FlowSizeCdf.parse("w.cdf", List.of("0 0", "100 60", "200 90")));
        assertEquals("w.cdf:3: the last cumulative probability must be 100 (percent) or 1 (fraction), got 90", e.getMessage());
        e = assertThrows(ScenarioException.class, () -> FlowSizeCdf.parse("w.cdf", List.of("# only a comment", "5 100")));
        assertEquals("w.cdf: a flow-size CDF needs at least two points, found 1", e.getMessage());
    }
}
