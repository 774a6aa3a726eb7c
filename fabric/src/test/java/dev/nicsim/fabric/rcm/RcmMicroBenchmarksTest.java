package dev.nicsim.fabric.rcm;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two micro-benchmarks of the RCM paper §4.2, run from the shipped scenarios and their baseline
 * twins, judged on {@code throughput.csv} (payload bits per flow per interval at the last switch's
 * port toward the receiver).
 *
 * <h2>Units of the tolerances</h2>
 * The paper quotes link shares of a 100 Gb/s port ("half the bandwidth of output port", 50 and 25
 * Gb/s). {@code throughput.csv} counts payload: a 1024-byte payload travels in a 1110-byte frame
 * plus preamble and gap, so a fully used port delivers {@code 100 x 1024 / 1110 = 92.25} Gb/s of
 * payload ({@link #PORT_GBPS}); the paper's 50 Gb/s is 46.1 here and 25 Gb/s is 23.1. The paper
 * gives no error bars and its figures are read by eye, so each expected share gets a band of
 * +-10 % of the port (9.2 Gb/s): enough for the packet-level jitter of 2-5 us samples (one
 * packet per 2 us is 4.1 Gb/s), far too little to mistake one outcome for the other.
 */
class RcmMicroBenchmarksTest {
    /** Payload capacity of a 100 Gb/s port with 1024-byte payloads, Gb/s: 100 x 1024 / 1110. */
    static final double PORT_GBPS = 100.0 * 1024 / 1110;

    @TempDir
    Path dir;

    /**
     * A run's outcome.
     *
     * @param rows   throughput.csv rows without the header
     * @param cnSent congestion notifications sent by all switches
     */
    private record Outcome(List<String> rows, long cnSent) {
    }

    /** Runs a shipped scenario. */
    private Outcome run(final String name, final Path out) throws IOException {
        final Scenario s = ScenarioLoader.load(TestPaths.root().resolve("scenarios").resolve(name), List.of(), null);
        long cn = 0;
        try (TimeSeriesWriter w = new TimeSeriesWriter(out)) {
            final Runner r = new Runner(s, w);
            r.run(x -> { });
            cn = r.counters().sum("", "rcm_cn_sent");
        }
        final List<String> rows = Files.readAllLines(out.resolve("throughput.csv"));
        return new Outcome(rows.subList(1, rows.size()), cn);
    }

    /**
     * Mean throughput of some flows over a window.
     *
     * @param rows       throughput.csv rows
     * @param flowIds    flows summed
     * @param fromUs     window start (exclusive), us
     * @param toUs       window end (inclusive), us
     * @param intervalUs the scenario's sampling interval, us
     * @return Gb/s
     */
    static double meanGbps(final List<String> rows, final int[] flowIds, final double fromUs, final double toUs,
                           final double intervalUs) {
        double sum = 0;
        for (final String row : rows) {
            final String[] c = row.split(",");
            final double tUs = Long.parseLong(c[0]) / 1000.0;
            final int id = Integer.parseInt(c[1]);
            if (tUs > fromUs && tUs <= toUs) {
                for (final int f : flowIds) {
                    if (f == id) {
                        sum += Long.parseLong(c[2]);
                    }
                }
            }
        }
        return sum / ((toUs - fromUs) / intervalUs) / 1e9;
    }

    @Test
    void incastWithBurstFlowRcmCutsTheBurstTowardsAQuarterOfThePort() throws IOException {
        final Outcome rcmRun = run("rcm-incast-burst.yaml", dir.resolve("rcm"));
        final List<String> rcm = rcmRun.rows();
        final Outcome baseRun = run("rcm-incast-burst-baseline.yaml", dir.resolve("base"));
        final List<String> base = baseRun.rows();
        assertEquals(0, baseRun.cnSent()); // no RCM, no notification
        assertTrue(rcmRun.cnSent() > 0, "RCM sent no congestion notification");
        // same scenario and seed: byte-identical throughput.csv
        assertEquals(rcm, run("rcm-incast-burst.yaml", dir.resolve("rcm2")).rows());
        final int[] burst = {4};
        final int[] incast = {0, 1, 2, 3};
        // Window: the 20 us after the burst reaches the last switch (it starts at 150 us; its first frame
        // is at the switch 1.1 us later), sampled every 2 us.
        final double rcmBurst = meanGbps(rcm, burst, 152, 172, 2);
        final double baseBurst = meanGbps(base, burst, 152, 172, 2);
        // Fig. 6(b): without RCM round robin between the two inputs gives the burst half the port:
        // 0.5 x 92.25 = 46.1 Gb/s of payload, band 0.4 .. 0.6 of the port = [36.9, 55.4]
        assertTrue(baseBurst >= 0.4 * PORT_GBPS && baseBurst <= 0.6 * PORT_GBPS, "baseline burst " + baseBurst);
        // Fig. 6(a): RCM cuts it from half the port "to 25 Gb/s", a quarter: 23.1 Gb/s of payload,
        // band 0.15 .. 0.35 of the port = [13.8, 32.3]
        assertTrue(rcmBurst >= 0.15 * PORT_GBPS && rcmBurst <= 0.35 * PORT_GBPS, "RCM burst " + rcmBurst);
        // The burst lasts into the next 20 us: in the baseline it ends at about 191 us (20 us of line time
        // at half the port), with RCM later still. With switch.rcm.latch_harmful_set the burst stays the
        // harmful flow for the whole episode, so the cut holds: same bands as above for 172 .. 192 us.
        final double rcmBurstLate = meanGbps(rcm, burst, 172, 192, 2);
        final double baseBurstLate = meanGbps(base, burst, 172, 192, 2);
        assertTrue(baseBurstLate >= 0.4 * PORT_GBPS && baseBurstLate <= 0.6 * PORT_GBPS, "baseline burst, 172-192 us "
            + baseBurstLate);
        assertTrue(rcmBurstLate >= 0.15 * PORT_GBPS && rcmBurstLate <= 0.35 * PORT_GBPS, "RCM burst, 172-192 us "
            + rcmBurstLate);
        // ... and the four incast flows get back what the burst no longer takes: at least 10 % of the
        // port more in the same window than without RCM (ideal: 0.75 vs 0.5 of the port)
        final double rcmIncast = meanGbps(rcm, incast, 152, 172, 2);
        final double baseIncast = meanGbps(base, incast, 152, 172, 2);
        assertTrue(rcmIncast >= baseIncast + 0.1 * PORT_GBPS, "incast RCM " + rcmIncast + " vs baseline " + baseIncast);
        // before the burst both runs carry the same incast: the port is full (4 x 25 %)
        final double before = meanGbps(base, incast, 100, 150, 2);
        assertTrue(before >= 0.95 * PORT_GBPS, "incast before the burst " + before);
    }

    @Test
    void incastWithVictimFlowRcmGivesTheVictimCloseToItsFairHalf() throws IOException {
        final List<String> rcm = run("rcm-victim.yaml", dir.resolve("rcm")).rows();
        final List<String> base = run("rcm-victim-baseline.yaml", dir.resolve("base")).rows();
        final int[] victim = {4};
        // Steady state: 100 .. 400 us (PFC has spread to the sources within the first tens of us)
        final double rcmVictim = meanGbps(rcm, victim, 100, 400, 5);
        final double baseVictim = meanGbps(base, victim, 100, 400, 5);
        // Fig. 7: "Sv only gets about 25 Gbps because of HOL blocking" = 0.25 x 92.25 = 23.1 Gb/s payload;
        // band up to 0.35 of the port (32.3); the paper's ideal 50 Gb/s would be 46.1
        assertTrue(baseVictim <= 0.35 * PORT_GBPS, "baseline victim " + baseVictim);
        // "RCM can achieve fairness, since the victim flow can get a fair share nearly 50 Gbps":
        // band from 0.4 of the port (36.9 Gb/s)
        assertTrue(rcmVictim >= 0.4 * PORT_GBPS, "RCM victim " + rcmVictim);
        // the incast keeps D0's port full in both runs: 4 flows share 92.25 Gb/s
        final double rcmIncast = meanGbps(rcm, new int[] {0, 1, 2, 3}, 100, 400, 5);
        assertTrue(rcmIncast >= 0.9 * PORT_GBPS, "RCM incast " + rcmIncast);
    }
}
