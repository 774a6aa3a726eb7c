package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.sim.EgressPort;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 3 (end): a scenario's {@code link_events} take host 0's link down at 10 us and up at
 * 30 us. Expected by hand:
 * <ul>
 * <li>the program written from Addendum A.6 ({@code firmware/testfw/doca_port_state.c}) is called 3 times
 *     for port 0: at start-up (its first flow, t = 0: speed 100 Gb/s), at 10 us (link down: speed 0) and at
 *     30 us (up: 100 Gb/s); the logical-port mask stays 1 (port 0 stays initialised); timer_lo (us) reads
 *     0, 10, 30;</li>
 * <li>while down neither end of the link starts a frame: the NIC's and the switch port's sent bytes do not
 *     move between 11 us and 29 us;</li>
 * <li>the one 1 MB flow at line rate (the program never changes a rate) then finishes later by the time the
 *     link was down less what the frame in progress at 10 us still sent: between 20 us minus one frame time
 *     (a 1,090 B frame = 1024 B payload + 66 B RoCEv2 headers, plus 20 B preamble and gap, at 100 Gb/s: 88.8 ns) and 20 us.</li>
 * </ul>
 */
class LinkStateAcceptanceTest {
    @TempDir
    Path dir;

    private static Path elf() {
        final Path p = TestPaths.root().resolve("firmware/bin/test/doca_port_state.elf");
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/test/doca_port_state.elf not in this checkout");
        return p;
    }

    private String scenario(final String extra) {
        return "name: link\nstop_time_us: 2000\n"
            + "topology: {type: star, hosts: 2, host_link: {rate_gbps: 100, delay_ns: 1000}}\n"
            + "algorithm: {firmware: " + elf() + "}\n"
            + "workload: {type: flows, flows: [{src: 0, dst: 1, size_bytes: 1000000}]}\n" + extra;
    }

    static final String EVENTS = """
        link_events:
          - {at_us: 30, host: 0, state: up}
          - {at_ns: 10000, host: 0, state: down}
        """;

    @Test
    void aLinkDownStopsTheLinkAndTheFirmwareSeesEveryChange() throws IOException {
        final long[] sent = new long[4];
        final long fctBase;
        try (Acceptance.Run base = Acceptance.Run.of(Acceptance.load(Acceptance.write(dir, "base.yaml", scenario(""))),
            dir.resolve("base"))) {
            fctBase = base.run().flows().get(0).fctNs();
        }
        try (Acceptance.Run run = Acceptance.Run.of(Acceptance.load(Acceptance.write(dir, "link.yaml", scenario(EVENTS))),
            dir.resolve("link"))) {
            final EgressPort nicPort = run.runner().nic(0).port();
            final EgressPort swPort = run.runner().switches().get(0).egressPort(
                Acceptance.portToward(run.runner().switches().get(0), "host0"));
            final long[] at = {11 * Acceptance.US, 29 * Acceptance.US};
            for (int i = 0; i < 2; i++) {
                final int k = i;
                run.runner().simulator().schedule(at[i], (kind, arg, ref) -> {
                    sent[2 * k] = nicPort.txBytes();
                    sent[2 * k + 1] = swPort.txBytes();
                }, 0, 0, null);
            }
            final RunResult r = run.run();
            assertTrue(sent[0] > 0 && sent[1] > 0, "the link carried frames before it went down");
            assertEquals(sent[0], sent[2], "NIC host0 sent bytes while its link was down");
            assertEquals(sent[1], sent[3], "the switch sent bytes toward host0 while the link was down");
            final long delay = r.flows().get(0).fctNs() - fctBase;
            assertTrue(delay <= 20_000 && delay >= 20_000 - 89, "FCT grew by " + delay + " ns (base " + fctBase + " ns)");

            final FirmwareAlgorithm fw = run.runner().firmware(0);
            assertEquals(3, fw.symbolLoad("port_info_calls", 0, 4));
            final long[][] expected = {{0, 1, 100, 0}, {0, 1, 0, 10}, {0, 1, 100, 30}}; // port, mask, Gb/s, us
            for (int i = 0; i < 3; i++) {
                assertEquals(expected[i][0], fw.symbolLoad("rec_port", 4L * i, 4), "call " + i + " port");
                assertEquals(expected[i][1], fw.symbolLoad("rec_mask", 4L * i, 4), "call " + i + " mask");
                assertEquals(expected[i][2], fw.symbolLoad("rec_speed_gbps", 4L * i, 4), "call " + i + " speed");
                assertEquals(expected[i][3], fw.symbolLoad("rec_time_us", 4L * i, 4), "call " + i + " time");
            }
            assertEquals(0, fw.provider().faults(), fw.provider().firstFault());
        }
    }

    @Test
    void badLinkEventsAreOneLineEach() throws IOException {
        final String[][] cases = {
            {"link_events:\n  - {at_us: 1, host: 0, state: up}\n", "link_events[0].state: host 0's link is already up then"},
            {"link_events:\n  - {at_us: 1, host: 0, state: down}\n  - {at_us: 2, host: 0, state: down}\n",
                "link_events[1].state: host 0's link is already down then"},
            {"link_events:\n  - {at_us: 1, host: 0, state: down}\n  - {at_us: 1, host: 0, state: up}\n",
                "link_events[1].host: host 0 already has a link event at this time"},
            {"link_events:\n  - {at_us: 1, host: 2, state: down}\n", "link_events[0].host: expected an integer in [0, 1], got 2"},
            {"link_events:\n  - {at_us: 1, host: 0, state: off}\n", "link_events[0].state: expected one of down, up, got 'off'"},
            {"link_events:\n  - {host: 0, state: down}\n", "link_events[0].at_us: give exactly one of at_us and at_ns"},
        };
        for (final String[] c : cases) {
            final Path file = Acceptance.write(dir, "bad.yaml", scenario(c[0]));
            final Cli.Outcome o = Cli.run("run", file.toString(), "--out", dir.resolve("bad").toString(), "--no-progress");
            assertEquals(2, o.exitCode(), c[0] + ": " + o.out());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().contains(c[1]), c[0] + " gave: " + o.err());
        }
    }
}
