package dev.nicsim.cli.acceptance;

import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sw.SwitchAsic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NSCC end to end: an 8-to-1 incast of 2 MB per sender on one 100 Gb/s switch with 1 us links, MSS
 * 4,096 B, ECN marking between Kmin = 12,000 B and Kmax = 48,000 B (uet-htsim's 20 % and 80 % of the
 * BDP, rounded), no trimming and a buffer that never overflows, so the only signals are RTT and ECN.
 *
 * <h2>What NSCC predicts</h2>
 * Base RTT host -> sw0 -> host8 (IdealFct.baseRttPs): per link 2 x 1 us + a 4,162 B frame (4,096 B +
 * 66 B RoCEv2 overhead; 4,182 B on the wire, 334.56 ns) + a 70 B ACK (90 B, 7.2 ns), 4,683.52 ns for
 * two links; the target delay is 0.75 of it, 3,512.64 ns, i.e. 43.9 KB of queue at 100 Gb/s. An ACK below the target raises the window (fair, proportional or
 * fast increase), a marked ACK above it cuts it (multiplicative decrease, once per base RTT), so in
 * steady state the bottleneck queue must sit near the target: its mean within 0.6 - 1.2 target and
 * its 95th percentile under 1.5 target. Start-up: every flow starts at maxwnd = 1.5 BDP
 * (87.8 KB), so the queue first peaks near 8 maxwnd - BDP and may not exceed 8 maxwnd. The link
 * must stay busy: the eight flows' 16.3 MB of frames take 1.30 ms at line rate, and the last must
 * finish within 1 / 0.95 of that.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IncastNsccAcceptanceTest {
    private static final int SENDERS = 8;
    private static final int MSS = 4096;
    private static final long RATE_BPS = 100_000_000_000L;
    private static final String SCENARIO = """
        name: incast-nscc
        seed: 1
        stop_time_us: 3000
        topology:
          type: star
          hosts: 9
          host_link: {rate_gbps: 100, delay_ns: 1000}
        switch:
          buffer_bytes: 33554432
          pfc: {enabled: false}
          wred: {priorities: [3], kmin_bytes: 12000, kmax_bytes: 48000, pmax: 1.0}
        nic:
          mtu_bytes: 4096
          np_enabled: false
          ack_every_packets: 1
        algorithm:
          name: nscc
        workload:
          type: incast
          senders: 8
          receiver: 8
          size_bytes: 2000000
        sampling: {queue_interval_us: 1000, rate_interval_us: 1000}
        """;

    private RunResult result;
    private EgressProbe probe;
    private CounterRegistry counters;
    private SwitchAsic sw;
    private long baseRttPs;

    @BeforeAll
    void runScenario(@TempDir final Path dir) throws IOException {
        final Scenario s = Acceptance.load(Acceptance.write(dir, "incast-nscc.yaml", SCENARIO));
        try (Acceptance.Run run = Acceptance.Run.of(s, dir.resolve("out"))) {
            sw = run.runner().switches().get(0);
            counters = run.runner().counters();
            probe = new EgressProbe(run.runner().simulator(), sw, Acceptance.portToward(sw, "host8"), 3, Acceptance.US);
            result = run.run();
        }
        final long link = 2 * 1_000_000L + RoceFraming.serializationPs(RoceFraming.frameBytes(MSS, 0), RATE_BPS)
            + RoceFraming.serializationPs(RoceFraming.frameBytes(0, RoceFraming.AETH_BYTES), RATE_BPS);
        baseRttPs = 2 * link;
    }

    private double targetBytes() {
        return 0.75 * baseRttPs * RATE_BPS / 8e12;
    }

    @Test
    void flowsCompleteWithoutLossAtLineRate() {
        assertEquals(SENDERS, result.completedFlows());
        assertEquals(0, result.switches().get(0).drops());
        assertEquals(0, result.retransmissions());
        assertTrue(baseRttPs == 4_683_520, "base RTT " + baseRttPs + " ps");
        final long endPs = result.simulatedPs();
        assertEquals(Acceptance.lastCompletionNs(result), endPs / 1000);
        final double util = probe.utilisation(0, 0, probe.wireBytesNow(), endPs);
        assertTrue(util >= 0.95, String.format(Locale.ROOT, "utilisation %.4f over %.1f us", util, endPs / 1e6));
        // both directions of NSCC ran: increases below the target and decreases above it
        assertTrue(counters.sum("host0", "nscc_multiplicative_decreases") > 0);
        assertTrue(counters.sum("host0", "nscc_proportional_increases") > 0);
    }

    @Test
    void startUpQueueIsBoundedByTheWindows() {
        final double bdp = baseRttPs * RATE_BPS / 8e12;
        final long maxwnd = (long) (1.5 * bdp) * MSS / (MSS + 64); // payload bytes a flow may have in flight
        final long frame = RoceFraming.frameBytes(MSS, 0);
        final long bound = SENDERS * (maxwnd / MSS + 1) * frame;
        assertTrue(sw.peakQueueBytes() <= bound, "peak " + sw.peakQueueBytes() + " > " + bound);
        assertTrue(sw.peakQueueBytes() >= SENDERS * maxwnd - 2 * bdp, "peak " + sw.peakQueueBytes());
    }

    @Test
    void steadyStateQueueSitsNearTheTargetDelay() {
        long firstDoneNs = Long.MAX_VALUE;
        for (final FlowRecord f : result.flows()) {
            firstDoneNs = Math.min(firstDoneNs, f.startNs() + f.fctNs());
        }
        // from 200 us (the start-up queue has drained; quick adapt does not fire without trimming, so
        // the averaged delay must first grow past the target) until the first flow completes
        final long fromPs = 200 * Acceptance.US;
        final long toPs = firstDoneNs * 1000;
        final long[] q = new long[probe.count()];
        int n = 0;
        for (int i = 0; i < probe.count(); i++) {
            if (probe.timePs(i) >= fromPs && probe.timePs(i) <= toPs) {
                q[n++] = probe.depthBytes(i);
            }
        }
        assertTrue(n >= 500, n + " samples");
        final long[] s = Arrays.copyOf(q, n);
        Arrays.sort(s);
        double sum = 0;
        for (final long v : s) {
            sum += v;
        }
        final double mean = sum / n;
        final double target = targetBytes();
        final String stats = String.format(Locale.ROOT,
            "queue over %d samples: mean %.0f B, p5 %d, p50 %d, p95 %d, max %d; target %.0f B",
            n, mean, s[n / 20], s[n / 2], s[n - 1 - n / 20], s[n - 1], target);
        assertTrue(mean >= 0.6 * target && mean <= 1.2 * target, stats);
        assertTrue(s[n - 1 - n / 20] <= 1.5 * target, stats);
    }
}
