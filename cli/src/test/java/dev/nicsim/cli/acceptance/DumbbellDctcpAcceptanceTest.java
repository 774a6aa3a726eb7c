package dev.nicsim.cli.acceptance;

import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.scenario.Scenario;
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
 * Acceptance 2: two long DCTCP flows on a dumbbell (the DCTCP draft). host0 and host1 (switch
 * {@code left}) each write 20 MB to host2 (switch {@code right}); every link is 100 Gb/s with 1 us
 * propagation, so the bottleneck is left's egress port toward right. The switch marks every ECT
 * packet that finds at least K bytes queued (Kmin = Kmax = K, Pmax = 1; the DCTCP draft §3.1), per-packet
 * ACKs carry the echo (§3.2), senders run cwnd = cwnd (1 - alpha/2) with g = 1/16 (§3.3).
 *
 * <h2>What DCTCP's analysis predicts (Alizadeh et al., SIGCOMM 2010, §3.3)</h2>
 * N flows with synchronised sawtooth windows: the queue peaks at Qmax = K + N packets (each flow
 * adds one packet in the RTT in which the marks it gets back are generated) and then falls by the
 * amplitude A = N x sqrt(W* / 2) = (1/2) sqrt(2 N (C x RTT + K)) packets, where W* = (C x RTT + K) / N
 * is the window at which the queue reaches K; so it swings between K + N - A and K + N.
 * Numbers here (a packet is a 1090 B frame: 1024 B payload + 66 B RoCEv2 headers; 1110 B on the
 * wire with preamble and IFG, 88.8 ns at 100 Gb/s):
 * <ul>
 *   <li>base RTT over three links, each 2 x 1,000 ns + 88.8 ns data + 7.2 ns ACK: 6,288 ns;
 *       C x RTT = 100 Gb/s x 6,288 ns / 8 / 1110 B = 70.8 packets;</li>
 *   <li>K = 80,000 B = 73.4 packets (the shipped DCTCP scenarios' K; above C x RTT / 7 = 10.1, the
 *       draft's guideline);</li>
 *   <li>W* = (70.8 + 73.4) / 2 = 72.1; A = 2 x sqrt(72.1 / 2) = 12.0 packets = 13,090 B;</li>
 *   <li>Qmax = K + 2 packets = 82,180 B; Qmin = Qmax - A = 69,090 B.</li>
 * </ul>
 * The steady-state mean of the sampled queue must lie in [Qmin, Qmax]: a sawtooth between those
 * bounds has its mean inside them; a queue that sat at 0 (under-utilised) or grew far past K
 * (marks not acted on) would fail. Its 5th-95th percentile swing must be within a factor 2 of A,
 * and it must never drain.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DumbbellDctcpAcceptanceTest {
    private static final long K_BYTES = 80_000;
    private static final int N = 2;
    private static final long SIZE_BYTES = 20_000_000;
    private static final int FRAME_BYTES = RoceFraming.frameBytes(1024, 0);
    private static final String SCENARIO = """
        name: dumbbell-dctcp
        seed: 1
        stop_time_us: 20000
        topology:
          type: dumbbell
          hosts_per_side: 2
          host_link: {rate_gbps: 100, delay_ns: 1000}
        switch:
          buffer_bytes: 33554432
          pfc: {enabled: false}
          wred: {priorities: [3], kmin_bytes: %d, kmax_bytes: %d, pmax: 1.0}
        nic:
          mtu_bytes: 1024
          np_enabled: false
          ack_every_packets: 1
        algorithm:
          name: dctcp
        workload:
          type: incast
          senders: %d
          receiver: 2
          size_bytes: %d
        sampling: {queue_interval_us: 1000, rate_interval_us: 1000}
        """.formatted(K_BYTES, K_BYTES, N, SIZE_BYTES);

    private RunResult result;
    private EgressProbe probe;
    private SwitchAsic left;

    @BeforeAll
    void runScenario(@TempDir final Path dir) throws IOException {
        final Scenario s = Acceptance.load(Acceptance.write(dir, "dumbbell-dctcp.yaml", SCENARIO));
        try (Acceptance.Run run = Acceptance.Run.of(s, dir.resolve("out"))) {
            left = run.runner().switches().get(0);
            assertEquals("left", left.name());
            probe = new EgressProbe(run.runner().simulator(), left, Acceptance.portToward(left, "right"), 3, Acceptance.US);
            result = run.run();
        }
    }

    @Test
    void flowsCompleteWithoutLoss() {
        assertEquals(N, result.completedFlows());
        for (final FlowRecord f : result.flows()) {
            assertEquals(2, f.dst());
        }
        assertEquals(0, result.switches().get(0).drops() + result.switches().get(1).drops());
        assertEquals(0, result.retransmissions());
    }

    /**
     * Utilisation of the bottleneck over the whole transfer, from time 0 to the completion of the
     * last flow: wire bytes (frames + 20 B preamble/IFG each) x 8 / (100 Gb/s x t_end). The two
     * flows carry 2 x 19,532 frames (20 MB / 1024 B, the last one shorter) = 43.4 MB on the wire,
     * 3.47 ms at line rate; 95 % allows about 180 us of idle link in total, start-up included.
     */
    @Test
    void bottleneckUtilisationIsAtLeast95Percent() {
        final long endPs = result.simulatedPs();
        assertEquals(Acceptance.lastCompletionNs(result), endPs / 1000);
        final double util = probe.utilisation(0, 0, probe.wireBytesNow(), endPs);
        assertTrue(util >= 0.95, String.format(Locale.ROOT, "utilisation %.4f over %.1f us", util, endPs / 1e6));
    }

    /**
     * Queue in steady state: samples every 1 us from 1,000 us (the queue first reaches K after
     * about 500 us: alpha starts at 1, so the first marks halve both windows and the queue
     * empties, then congestion avoidance adds N packets per RTT, about 73 / 2 RTTs of 7-12 us)
     * until 100 us before the first flow completes (both flows still sending).
     */
    @Test
    void queueOscillatesAroundK() {
        long firstDoneNs = Long.MAX_VALUE;
        for (final FlowRecord f : result.flows()) {
            firstDoneNs = Math.min(firstDoneNs, f.startNs() + f.fctNs());
        }
        final long fromPs = 1_000 * Acceptance.US;
        final long toPs = firstDoneNs * 1000 - 100 * Acceptance.US;
        final long[] q = new long[probe.count()];
        int n = 0;
        for (int i = 0; i < probe.count(); i++) {
            if (probe.timePs(i) >= fromPs && probe.timePs(i) <= toPs) {
                q[n++] = probe.depthBytes(i);
            }
        }
        // at least 2 ms of steady state: the flows take about 3.5 ms
        assertTrue(n >= 2_000, n + " samples");
        final long[] s = Arrays.copyOf(q, n);
        Arrays.sort(s);
        double sum = 0;
        for (final long v : s) {
            sum += v;
        }
        final double mean = sum / n;
        final double cRttPackets = 100e9 * 6_288e-9 / 8 / (FRAME_BYTES + RoceFraming.PREAMBLE_IFG_BYTES);
        final double kPackets = K_BYTES / (double) FRAME_BYTES;
        final double wStar = (cRttPackets + kPackets) / N;
        final double amplitudePackets = N * Math.sqrt(wStar / 2);
        final double qmax = K_BYTES + N * FRAME_BYTES;
        final double qmin = qmax - amplitudePackets * FRAME_BYTES;
        final String stats = String.format(Locale.ROOT,
            "steady-state queue over %d samples: mean %.0f B, min %d, p5 %d, p50 %d, p95 %d, max %d; "
                + "analysis: Qmin %.0f B, Qmax %.0f B (A = %.1f packets)",
            n, mean, s[0], s[n / 20], s[n / 2], s[n - 1 - n / 20], s[n - 1], qmin, qmax, amplitudePackets);
        assertTrue(mean >= qmin && mean <= qmax, stats);
        // it oscillates: the 5th-95th percentile swing is within a factor 2 of the amplitude A
        // (less if the two sawtooths drift out of phase, more from per-packet discreteness)
        final long swing = s[n - 1 - n / 20] - s[n / 20];
        final double a = amplitudePackets * FRAME_BYTES;
        assertTrue(swing >= a / 2 && swing <= 2 * a, "swing " + swing + " B; " + stats);
        // and never drains: Qmin = 69,090 B > 0 (K > C x RTT / 7), which is why the link stays busy
        assertTrue(s[0] > 0, stats);
    }
}
