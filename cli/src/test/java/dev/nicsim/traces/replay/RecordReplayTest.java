package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import dev.nicsim.cli.NicsimCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trace recorded by {@code nicsim run --record} and replayed by {@code nicsim replay --verify}
 * into the same algorithm reproduces every recorded result exactly (DCQCN, DCTCP, LDCP), and a
 * changed parameter makes {@code --verify} fail with exit code 3 naming the first difference.
 *
 * <p>Each scenario: a star of 5 hosts at 100 Gb/s with 1 us links, hosts 0..3 each WRITE 20,000
 * bytes to host 4 at time 0 (QPN = flow id + 1 = 1..4, one NIC each), MTU 1024, per-packet ACKs,
 * a TX_BURST every 8 packets. By hand: 20,000 / 1024 -> 20 packets per flow (19 x 1024 + 544);
 * TX_BURST after packets 8, 16 and at the last (20) = 3 per flow; without loss every ACK
 * acknowledges one new packet = 20 ACK events per flow. The direct processor gives one result per
 * flow start and one per event (the NIC offers nothing after a flow ends).
 */
class RecordReplayTest {
    private static final String COMMON = """
        seed: 1
        stop_time_us: 2000
        topology:
          type: star
          hosts: 5
          host_link: {rate_gbps: 100, delay_ns: 1000}
        workload:
          type: incast
          senders: 4
          size_bytes: 20000
        """;

    /** DCQCN, lossless (PFC), CE marking from 5 KB so that CNPs flow. */
    static final String DCQCN = "name: rr-dcqcn\n" + COMMON + """
        switch:
          pfc: {enabled: true, priorities: [3]}
          wred: {priorities: [3], kmin_bytes: 5000, kmax_bytes: 20000, pmax: 0.2}
        nic:
          cnp_interval_us: 4
        algorithm:
          name: dcqcn
        """;

    /** DCTCP: step marking at K = 10 KB, ECN-Echo in ACKs, no CNPs. */
    static final String DCTCP = "name: rr-dctcp\n" + COMMON + """
        switch:
          pfc: {enabled: false}
          wred: {priorities: [3], kmin_bytes: 10000, kmax_bytes: 10000, pmax: 1.0}
        nic:
          np_enabled: false
        algorithm:
          name: dctcp
        """;

    /** LDCP: WRED marking, Not-ECT first-RTT packets dropped from 40 KB (the LDCP draft Eq. 3). */
    static final String LDCP = "name: rr-ldcp\n" + COMMON + """
        switch:
          pfc: {enabled: false}
          wred: {priorities: [3], kmin_bytes: 5000, kmax_bytes: 20000, pmax: 0.2, not_ect_drop_bytes: 40000}
          egress: {mode: static, queue_limit_bytes: 1000000}
        nic:
          np_enabled: false
        algorithm:
          name: ldcp
        """;

    private static final Pattern RECORDED =
        Pattern.compile("trace: (\\d+) events, (\\d+) results, (\\d+) flow starts, (\\d+) flow ends recorded to ");

    @TempDir
    Path dir;

    /** What a recorded run printed about its trace. */
    private record Recorded(Path trace, Path run, long events, long results, String stdout) {
    }

    private Recorded record(final String name, final String yaml) throws IOException {
        final Path scenario = Files.writeString(dir.resolve(name + ".yaml"), yaml);
        final Path run = dir.resolve(name + "-run");
        final Path trace = dir.resolve(name + "-trace");
        final Cli.Outcome o = Cli.run("run", scenario.toString(), "--out", run.toString(), "--no-progress",
            "--record", trace.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertEquals("", o.err());
        final Matcher m = RECORDED.matcher(o.out());
        assertTrue(m.find(), o.out());
        // 4 flows started and completed; the uNIC emulator delivers one result per flow start and
        // at most one per event it handled: every offered event except those merged into a waiting
        // event (coalesced), dropped at a full ring, or handled after its flow ended (the last ACK
        // of a flow is offered just before the NIC ends the flow, and completes after it), as
        // counters.csv counts them; events still being processed when the last flow completes
        // (the run stops there) give no result, so the count is a bound, not an equality
        assertEquals(4, Long.parseLong(m.group(3)));
        assertEquals(4, Long.parseLong(m.group(4)));
        final long events = Long.parseLong(m.group(1));
        final long results = Long.parseLong(m.group(2));
        long mergedOrDropped = 0;
        for (final String line : Files.readAllLines(run.resolve("counters.csv"))) {
            final String[] f = line.split(",");
            if (f[0].endsWith("/cc") && (f[1].matches("[a-z]+_events_(coalesced|dropped)") || f[1].equals("events_for_unknown_flow"))) {
                mergedOrDropped += Long.parseLong(f[2]);
            }
        }
        assertTrue(results <= 4 + events - mergedOrDropped, results + " results for " + events + " events");
        assertTrue(results >= 4 + events - mergedOrDropped - 16, results + " results for " + events + " events");
        return new Recorded(trace, run, events, results, o.out());
    }

    private static long count(final List<String> lines, final String needle) {
        return lines.stream().filter(l -> l.contains(needle)).count();
    }

    /** Replays with --verify and checks the exact reproduction and the output files. */
    private void replaysExactly(final String algorithm, final Recorded r) {
        final Path out = dir.resolve(algorithm + "-replay");
        final Cli.Outcome o = Cli.run("replay", r.trace().toString(), "--algorithm", algorithm, "--out",
            out.toString(), "--verify");
        assertEquals(0, o.exitCode(), o.out() + o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("verify: OK, the " + r.results() + " replayed results of 4 QPs equal the " + r.results()
            + " recorded"), o.out());
        // the recording ran through the uNIC emulator: replayed on an emulator with the configuration
        // the trace header recorded
        assertTrue(o.out().contains("through " + algorithm + " on the emulator processor"), o.out());
        // one CSV row per event and per result, after the header
        assertEquals(r.events() + 1, TraceCli.lines(out.resolve("events.csv")).size());
        assertEquals(r.results() + 1, TraceCli.lines(out.resolve("results.csv")).size());
        assertEquals("time_ns,qpn,type,subtype,sn,num_coalesced", TraceCli.lines(out.resolve("events.csv")).get(0));
        assertEquals("time_ns,qpn,rate_bits_per_sec,window_bytes,cycles", TraceCli.lines(out.resolve("results.csv")).get(0));
    }

    private static List<String> dump(final Path trace) {
        final Cli.Outcome o = Cli.run("trace", "dump", trace.toString());
        assertEquals(0, o.exitCode(), o.err());
        return o.outLines();
    }

    @Test
    void dcqcnReplaysExactlyAndTheTraceIsReproducible() throws IOException {
        final Recorded r = record("dcqcn", DCQCN);
        assertTrue(r.stdout().contains("NIC retransmissions 0 (timeouts 0)"), r.stdout());
        final List<String> lines = dump(r.trace());
        // header + 4 flow starts + 4 flow ends + every event and result
        assertEquals(1 + 4 + 4 + r.events() + r.results(), lines.size());
        assertTrue(lines.get(0).startsWith("# nicsim-pcc-trace v3 origin=simulation input=" + dir.resolve("dcqcn.yaml")
            + " algorithm=dcqcn processor=emulator:cores=16,threads_per_core=16,"), lines.get(0));
        assertEquals(4, count(lines, "flow_start "));
        assertEquals(4, count(lines, "flow_end "));
        assertEquals(4 * 3, count(lines, "type=TX_BURST"));
        assertEquals(4 * 20, count(lines, "type=ACK"));
        // every CNP the NICs handled reached the processor as a CNP event
        final Map<String, Long> c = TraceCli.counters(r.run());
        long cnps = 0;
        for (int h = 0; h < 4; h++) {
            cnps += c.get("host" + h + "/rp_cnp_handled");
        }
        assertTrue(cnps > 0, "the scenario marks CE, so CNPs flow");
        assertEquals(cnps, count(lines, "type=CNP"));
        replaysExactly("dcqcn", r);

        // the same run records the same bytes (pinned Chronicle clock, deterministic simulation);
        // recording again into the same directory replaces the earlier trace
        final byte[] first = Files.readAllBytes(r.trace().resolve("19700101F.cq4"));
        final byte[] firstMeta = Files.readAllBytes(r.trace().resolve("metadata.cq4t"));
        final Recorded again = record("dcqcn", DCQCN);
        assertEquals(r.events(), again.events());
        assertArrayEquals(first, Files.readAllBytes(again.trace().resolve("19700101F.cq4")));
        assertArrayEquals(firstMeta, Files.readAllBytes(again.trace().resolve("metadata.cq4t")));
    }

    @Test
    void dctcpReplaysExactly() throws IOException {
        final Recorded r = record("dctcp", DCTCP);
        assertTrue(r.stdout().contains("NIC retransmissions 0 (timeouts 0)"), r.stdout());
        final List<String> lines = dump(r.trace());
        assertEquals(4 * 3, count(lines, "type=TX_BURST"));
        assertEquals(4 * 20, count(lines, "type=ACK"));
        assertEquals(0, count(lines, "type=CNP")); // the notification point is off
        // events: TX_BURST and ACK only (DCTCP arms no timer and asks for no probe) = 4 x (3 + 20)
        assertEquals(4 * (3 + 20), r.events());
        replaysExactly("dctcp", r);
    }

    @Test
    void ldcpReplaysExactly() throws IOException {
        final Recorded r = record("ldcp", LDCP);
        final List<String> lines = dump(r.trace());
        assertEquals(4, count(lines, "flow_start "));
        assertTrue(count(lines, "type=ACK") >= 4 * 20, "at least one ACK event per packet of each flow");
        replaysExactly("ldcp", r);
    }

    @Test
    void verifyFailsWithExitCode3WhenAParameterIsChanged() throws IOException {
        final Recorded r = record("dctcp-changed", DCTCP.replace("rr-dctcp", "rr-dctcp-changed"));
        final Cli.Outcome o = Cli.run("replay", r.trace().toString(), "--algorithm", "dctcp", "--out",
            dir.resolve("changed-replay").toString(), "--verify", "--set", "init_window_bytes=50000");
        assertEquals(NicsimCommand.EXIT_VERIFY_FAILED, o.exitCode(), o.out() + o.err());
        // DCTCP's initial cwnd is the path BDP (init_window_bytes 0): base RTT per link = 2 x 1 us
        // propagation + a 1090-byte data frame (1024 + 66 overhead; +20 preamble/IFG = 8880 bits at
        // 100 Gb/s = 88.8 ns) + a 70-byte ACK frame (720 bits = 7.2 ns) = 2096 ns, x 2 links = 4192 ns;
        // BDP = 100e9 b/s x 4192 ns / 8 = 52,400 bytes. Every flow starts at 0 with that window; the
        // first difference is the first flow's initial result (src 0, QPN 1): 52400 vs 50000.
        assertEquals(List.of("nicsim: replay differs from the recording: time_ns=0 src=0 qpn=1 result #1 of the QP:"
            + " window_bytes recorded 52400 vs replayed 50000"), o.errLines());
        // without the change the same trace verifies
        final Cli.Outcome same = Cli.run("replay", r.trace().toString(), "--algorithm", "dctcp", "--out",
            dir.resolve("same-replay").toString(), "--verify");
        assertEquals(0, same.exitCode(), same.err());
    }
}
