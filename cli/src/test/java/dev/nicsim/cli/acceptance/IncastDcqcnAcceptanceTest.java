package dev.nicsim.cli.acceptance;

import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sw.SwitchAsic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 1: DCQCN 16-to-1 incast with PFC, {@code scenarios/incast-dcqcn.yaml} as shipped.
 * The fabric must be lossless ("Understanding DCQCN": PFC with headroom, drop point never reached) and DCQCN
 * (the RoCE ECN/DCQCN article §7) must keep the bottleneck, sw0's egress port toward host16, busy after the initial
 * transient: utilisation &gt;= 90 % from 500 us to the completion of the last flow.
 *
 * <p>One run, shared by the tests; an {@link EgressProbe} samples the bottleneck port every 1 us.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IncastDcqcnAcceptanceTest {
    private static final int RECEIVER = 16;
    private static final int PRIORITY = 3;
    /** Packets per flow: 1,000,000 B / 1024 B MTU = 976.6 -> 977 (976 full + one of 576 B). */
    private static final int PACKETS_PER_FLOW = 977;
    private static final int SENDERS = 16;

    private RunResult result;
    private CounterRegistry counters;
    private SwitchAsic sw;
    private EgressProbe probe;
    private int port;

    /**
     * The scenario under test; a subclass runs the same acceptance on another shipped variant.
     *
     * @return the shipped scenario's file
     */
    Path scenarioFile() {
        return Acceptance.shipped("incast-dcqcn.yaml");
    }

    /** @return the counters of the run (for checks a subclass adds) */
    CounterRegistry counters() {
        return counters;
    }

    @BeforeAll
    void runScenario(@TempDir final Path out) throws IOException {
        final Scenario s = Acceptance.load(scenarioFile());
        try (Acceptance.Run run = Acceptance.Run.of(s, out)) {
            sw = run.runner().switches().get(0);
            port = Acceptance.portToward(sw, "host" + RECEIVER);
            probe = new EgressProbe(run.runner().simulator(), sw, port, PRIORITY, Acceptance.US);
            result = run.run();
            counters = run.runner().counters();
        }
    }

    @Test
    void everyFlowCompletesWithoutAnyDropOrRetransmission() {
        assertEquals(SENDERS, result.completedFlows());
        // every switch drop counter, over all ports and priorities, is 0
        for (final String drop : new String[] {"wred_drops", "tail_drops", "headroom_drops", "no_route_drops"}) {
            assertEquals(0, counters.sum("sw0", drop), drop);
        }
        assertEquals(0, result.switches().get(0).drops());
        // no go-back-N and no timeout anywhere
        assertEquals(0, result.retransmissions());
        assertEquals(0, result.timeouts());
        assertEquals(0, counters.sum("host", "packet_seq_err"));
        // so the bottleneck queue carried each of the 16 x 977 = 15,632 data packets exactly once
        assertEquals((long) SENDERS * PACKETS_PER_FLOW,
            counters.value("sw0/port" + port + "/q" + PRIORITY, "enqueued_packets"));
        // losslessness came from PFC, not from an idle fabric: 16 senders at 100 Gb/s into one
        // 100 Gb/s port fill each ingress PG past xoff = 100,000 B within microseconds, so XOFFs
        // were sent, and the headroom used stays within the configured 60,000 B per PG
        assertTrue(counters.sum("sw0", "pfc_xoff_sent") > 0, "PFC never paused a sender");
        for (int p = 0; p < SENDERS; p++) {
            final long peak = counters.value("sw0/port" + p + "/pg" + PRIORITY, "peak_headroom_bytes");
            assertTrue(peak <= 60_000, "headroom of port " + p + ": " + peak);
        }
    }

    /**
     * Bottleneck utilisation after the first 500 us. Wire bytes are frame bytes plus 20 bytes of
     * preamble and inter-frame gap per frame (what the 100 Gb/s line rate counts). The run stops
     * at the event that completes the last flow, so the probe's counters at the end of the run are
     * those at that time: utilisation = (wire bytes(t_end) - wire bytes(500 us)) x 8 /
     * (100e9 b/s x (t_end - 500 us)). With the shipped run t_end is about 1.86 ms, so the
     * interval is about 1.36 ms and 90 % means at least about 15.3 MB on the wire in it.
     *
     * <p>When this test was written the model measured 0.878 (overall 0.76) and this test failed:
     * PFC holds the bottleneck queue at about 1.9 MB (16 ingress PGs x (xoff 100 kB + in-flight
     * headroom)), 4.9 x Kmax; while it drains (1.9 MB at 100 Gb/s = 152 us) every packet is
     * CE-marked, every QP gets a CNP every 4 us (cnp_interval_us 4) and DCQCN halves Rc every 4 us
     * (alpha ~ 1: initial_alpha 1023/1024, g 5/1024), down to the 1 Mb/s floor; recovery waits for
     * the 300 us increase timer (or 32,767 B at 1 Mb/s = 262 us), then fast recovery towards the
     * unclamped Rt = 100 Gb/s lifts all 16 flows back to ~90 Gb/s together and the cycle repeats
     * (link below 50 % busy from ~1120 to ~1375 us). The DCQCN and NIC code follow the RoCE ECN/DCQCN article and
     * the Mellanox defaults here; the threshold is the and is not tuned.
     */
    @Test
    void bottleneckUtilisationAfter500usIsAtLeast90Percent() {
        final long endPs = result.simulatedPs();
        // the run ended when the last flow completed (FCTs are whole ns)
        assertEquals(Acceptance.lastCompletionNs(result), endPs / 1000);
        final long fromPs = 500 * Acceptance.US;
        assertTrue(endPs > fromPs, "the incast finished before 500 us");
        final double util = probe.utilisation(probe.wireBytesAt(fromPs), fromPs, probe.wireBytesNow(), endPs);
        assertTrue(util >= 0.90, String.format(Locale.ROOT,
            "bottleneck utilisation from 500 us to %.1f us is %.4f, expected >= 0.90 (%s)", endPs / 1e6, util,
            idleSummary(fromPs, endPs)));
    }

    /** Microseconds in which the bottleneck port was busy less than half the time, for the failure message. */
    private String idleSummary(final long fromPs, final long toPs) {
        int low = 0;
        long first = -1;
        long last = -1;
        for (int i = 0; i + 1 < probe.count(); i++) {
            if (probe.timePs(i) >= fromPs && probe.timePs(i + 1) <= toPs
                && probe.utilisation(probe.wireBytes(i), probe.timePs(i), probe.wireBytes(i + 1), probe.timePs(i + 1)) < 0.5) {
                low++;
                first = first < 0 ? probe.timePs(i) : first;
                last = probe.timePs(i + 1);
            }
        }
        return low + " us of it below 50 % busy, the first at " + first / Acceptance.US + " us, the last ending at "
            + last / Acceptance.US + " us";
    }
}
