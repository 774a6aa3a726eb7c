package dev.nicsim.cli.acceptance;

import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;
import dev.nicsim.sw.WredProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 3: LDCP 16-to-1 incast without PFC, {@code scenarios/incast-ldcp.yaml} as shipped
 * (the LDCP draft). The zero-RTT fast start sends the first-RTT packets Not-ECT and the switch
 * WRED-drops them at or above K = 40,000 B (Eq. 3); those must be the only drops (no tail drop,
 * no headroom drop), every flow must complete (go-back-N recovers them), and the queue must stay
 * below buf_max = 1,000,000 B (the static egress queue limit of the scenario).
 *
 * <p>Why {@code wred_drops} counts Not-ECT packets only here: in the switch's WRED/ECN stage
 * ({@code WredEcnStage.decide}) a queue whose profile has ECN enabled sends ECN-capable packets to
 * the marking branch (mark with probability {@code p(q)}, never a drop); only the other branch, taken by Not-ECT packets,
 * increments {@code wred_drops}, and with ECN on it drops iff {@code q >= notEctDropBytes}
 * ({@code WredProfile.dropsNotEct}). The test checks that the bottleneck queue has such a profile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IncastLdcpAcceptanceTest {
    private static final int SENDERS = 16;
    private static final int PRIORITY = 3;
    private static final long BUF_MAX_BYTES = 1_000_000;
    private static final long K_BYTES = 40_000;
    /**
     * Initial window IW of each flow, packets (LdcpAlgorithm.initFlow: ceil(BDP / MTU)). Base RTT of
     * host -> sw0 -> host16 (IdealFct.baseRttPs): per link 2 x 1 us propagation + a 1090 B data
     * frame (1024 + 66 B RoCEv2 overhead, + 20 B preamble/IFG = 1110 B = 88.8 ns at 100 Gb/s) + a
     * 70 B ACK (90 B on the wire = 7.2 ns), i.e. 2,096 ns; two links: 4,192 ns. BDP = 100 Gb/s x
     * 4,192 ns / 8 = 52,400 B; IW = ceil(52,400 / 1024) = 52 packets.
     */
    private static final int IW_PACKETS = 52;

    private RunResult result;
    private CounterRegistry counters;
    private SwitchAsic sw;
    private int port;
    private long lastWredDropPs;

    @BeforeAll
    void runScenario(@TempDir final Path out) throws IOException {
        final Scenario s = Acceptance.load(Acceptance.shipped("incast-ldcp.yaml"));
        try (Acceptance.Run run = Acceptance.Run.of(s, out)) {
            sw = run.runner().switches().get(0);
            port = Acceptance.portToward(sw, "host16");
            counters = run.runner().counters();
            final Counter wred = counters.find("sw0/port" + port + "/q" + PRIORITY, "wred_drops");
            final Simulator sim = run.runner().simulator();
            // read-only observer: remembers the last microsecond in which the WRED drop count grew
            sim.schedule(0, new EventHandler() {
                private long seen;

                @Override
                public void onEvent(final int kind, final long arg, final Object ref) {
                    if (wred.get() != seen) {
                        seen = wred.get();
                        lastWredDropPs = sim.nowPs();
                    }
                    sim.scheduleIn(Acceptance.US, this, 0, 0, null);
                }
            }, 0, 0, null);
            result = run.run();
        }
    }

    @Test
    void everyFlowCompletes() {
        assertEquals(SENDERS, result.completedFlows());
    }

    @Test
    void theOnlyDropsAreFirstRttNotEctPacketsDroppedByWred() {
        // the bottleneck queue runs an ECN profile with K = 40,000 B, so its wred_drops are Not-ECT only
        final WredProfile profile = sw.wredProfile(port, PRIORITY);
        assertTrue(profile.ecnEnabled());
        assertEquals(K_BYTES, profile.notEctDropBytes());

        assertEquals(0, counters.sum("sw0", "tail_drops"));
        assertEquals(0, counters.sum("sw0", "headroom_drops"));
        assertEquals(0, counters.sum("sw0", "no_route_drops"));
        final long wred = counters.value("sw0/port" + port + "/q" + PRIORITY, "wred_drops");
        // all drops of the switch are the bottleneck queue's WRED drops
        assertEquals(wred, counters.sum("sw0", "wred_drops"));
        assertEquals(wred, result.switches().get(0).drops());
        // The first RTT overloads the port 16:1: 16 x 52 packets at 1.6 Tb/s into 100 Gb/s grow the
        // queue at 1.5 Tb/s, past K = 40,000 B after 40,000 x 8 / 1.5e12 s = 0.21 us, long before
        // the 52-packet fast start ends (52 x 88.8 ns = 4.6 us), so Not-ECT packets are dropped.
        assertTrue(wred > 0, "no first-RTT packet was dropped; the test would not exercise Eq. (3)");
        // At most the Not-ECT packets sent: the budget's last (IW-th) packet goes ECT(0) and
        // retransmissions never use the budget, so IW - 1 = 51 Not-ECT packets per flow, 816 in all.
        assertTrue(wred <= (long) SENDERS * (IW_PACKETS - 1), "wred_drops " + wred + " > 816 Not-ECT packets sent");
        // First RTT only: a flow's 51st (last Not-ECT) packet starts 50 x 88.8 ns = 4.44 us after its
        // first, and reaches the switch 88.8 ns + 1 us later, 5.5 us after the start; nothing is
        // WRED-dropped after that (10 us leaves room for the CC processor's start-up cycles).
        assertTrue(lastWredDropPs <= 10 * Acceptance.US,
            "a WRED drop happened at " + lastWredDropPs / 1e6 + " us, after the first RTT");
        // every dropped packet was resent (go-back-N resends at least the dropped packet)
        assertTrue(result.retransmissions() >= wred, result.retransmissions() + " retransmissions < " + wred);
        assertEquals(0, result.timeouts());
    }

    @Test
    void peakQueueStaysBelowBufMax() {
        final long peak = counters.value("sw0/port" + port + "/q" + PRIORITY, "peak_depth_bytes");
        assertTrue(peak < BUF_MAX_BYTES, "peak " + peak);
        // and no other queue of the switch went higher
        assertEquals(peak, sw.peakQueueBytes());
        // the first-RTT burst did push the queue past K (it is what caused the WRED drops)
        assertTrue(peak >= K_BYTES, "peak " + peak);
    }
}
