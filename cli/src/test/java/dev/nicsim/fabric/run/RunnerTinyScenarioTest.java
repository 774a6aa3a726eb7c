package dev.nicsim.fabric.run;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner's outputs on the smallest scenarios (the incast-dcqcn scenario cut to one or two
 * senders on a star of 100 Gb/s, 1 us links, MTU 1024), against figures derived by hand:
 * <ul>
 * <li>frame = payload + 66 bytes (Ethernet 14, VLAN 4, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4) + RETH 16 on a
 *     WRITE's first packet; ACK = 66 + AETH 4 = 70 bytes; each adds 20 bytes of preamble and gap on the wire;</li>
 * <li>at 100 Gb/s a byte takes 80 ps.</li>
 * </ul>
 * A run takes milliseconds, in this JVM.
 */
class RunnerTinyScenarioTest {
    private static Cli.Outcome run(final Path out, final int hosts, final long sizeBytes, final String... more) {
        final List<String> args = new ArrayList<>(List.of("run", TestPaths.root().resolve("scenarios/incast-dcqcn.yaml").toString(),
            "--set", "topology.hosts=" + hosts, "--set", "workload.senders=" + (hosts - 1),
            "--set", "workload.receiver=" + (hosts - 1), "--set", "workload.size_bytes=" + sizeBytes,
            "--set", "sampling.queue_interval_us=1", "--set", "sampling.rate_interval_us=1", "--out", out.toString(),
            "--no-progress"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(new String[0]));
    }

    private static String json(final Path dir, final String field) throws Exception {
        final Matcher m = Pattern.compile("\"" + field + "\" : \"?([^\",\\n]*)\"?,?$", Pattern.MULTILINE)
            .matcher(Files.readString(dir.resolve("run.json")));
        assertTrue(m.find(), field);
        return m.group(1);
    }

    @Test
    void oneOnePacketFlowCompletesInItsIdealTime(@TempDir final Path tmp) throws Exception {
        final Path d = tmp.resolve("run");
        final Cli.Outcome o = run(d, 2, 1000);
        assertEquals(0, o.exitCode(), o.err());
        // data frame 1000 + 66 + 16 = 1082 B, 1102 B on the wire = 88 160 ps; ACK 70 B, 90 on the wire = 7 200 ps;
        // FCT = 2 x 88 160 (host link, then switch to receiver) + 2 x 7 200 (the ACK back) + 4 x 1 us = 4 190 720 ps
        assertEquals(List.of("flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown", "0,0,1,1000,0,4190,4190,1.0000"),
            Files.readAllLines(d.resolve("flows.csv")));
        final List<String> out = o.outLines();
        assertTrue(out.contains("flows done          1 / 1"), o.out());
        assertTrue(out.contains("all                        1     1.000     1.000     1.000"), o.out());
        assertTrue(out.contains("<10KB                      1     1.000     1.000     1.000"), o.out());
        assertTrue(out.contains("10-100KB                   0         -         -         -"), o.out());
        // the one frame passes the switch queue: its peak is the frame, 1082 B; no CE, drop or pause
        assertTrue(out.contains("sw0                            1082          0          0          0"), o.out());
        assertTrue(out.contains("NIC CNPs sent       0"), o.out());
        assertTrue(out.contains("NIC retransmissions 0 (timeouts 0)"), o.out());
        assertTrue(out.contains("simulated time      4.191 us"), o.out()); // the run stops at the last ACK
        assertTrue(out.stream().anyMatch(l -> l.startsWith("data packets        1 (")), o.out());
        // run.json: the same figures
        assertEquals("incast-dcqcn", json(d, "scenario"));
        assertEquals(TestPaths.root().resolve("scenarios/incast-dcqcn.yaml").toString(), json(d, "scenario_file"));
        assertEquals("1", json(d, "seed"));
        assertEquals(Reports.VERSION, json(d, "version"));
        assertEquals("dcqcn", json(d, "algorithm"));
        assertEquals("4190", json(d, "simulated_ns"));
        assertEquals("1", json(d, "data_packets"));
        assertEquals("1", json(d, "flows"));
        assertEquals("1", json(d, "flows_completed"));
        final double wallS = Double.parseDouble(json(d, "wall_s"));
        final long events = Long.parseLong(json(d, "events"));
        assertTrue(events > 0 && wallS > 0);
        assertEquals(Math.round(events / wallS), Long.parseLong(json(d, "events_per_sec")), 1);
        assertEquals(Math.round(wallS * 1e10) / 10.0, Double.parseDouble(json(d, "wall_ns_per_data_packet")), 0.11);
        // classes.csv: 1000 B x 8 over 4 190.72 ns = 1.909 Gb/s
        assertEquals("flow,1,1,1,1000,1.909,4.190,4.190,4.190,1.000,1.000", Files.readAllLines(d.resolve("classes.csv")).get(1));
        // throughput.csv: 1000 B in the first 10 us interval = 0.8 Gb/s, stamped with the interval's end
        assertEquals(List.of("time_ns,flow_id,bits_per_sec", "10000,0,800000000"), Files.readAllLines(d.resolve("throughput.csv")));
        // rates.csv: QPN 1 at DCQCN's line-rate start, sampled every 1 us from time 0 while the flow runs (0..4 us)
        final List<String> rates = Files.readAllLines(d.resolve("rates.csv"));
        assertEquals(List.of("time_ns,qpn,rate_bits_per_sec,window_bytes", "0,1,100000000000,0", "1000,1,100000000000,0",
            "2000,1,100000000000,0", "3000,1,100000000000,0", "4000,1,100000000000,0"), rates);
        // the switch queue is empty at every sample (the frame is in it for under 1 us): no rows
        assertEquals(List.of("time_ns,switch,port,priority,depth_bytes"), Files.readAllLines(d.resolve("queues.csv")));
        final List<String> counters = Files.readAllLines(d.resolve("counters.csv"));
        for (final String row : List.of("host0,tx_data_packets,1", "host0,tx_bytes,1082", "host0,rx_bytes,70",
            "host0,rx_ack_packets,1", "host0,flows_started,1", "host0,flows_completed,1", "host1,rx_bytes,1082")) {
            assertTrue(counters.contains(row), row);
        }
    }

    /**
     * The one-packet flow's {@code counters.csv}: by default only the counters that moved, in the
     * order of every counter; with {@code sampling.counters: all} every counter, zeros included, the
     * same rows in the same places. Devices register in the order host0, host1, sw0 (2 ports), then
     * at the end of the run each host's {@code rx_pause_duration_us} and its CC processor's counters.
     */
    @Test
    void countersListTheMovedOnesByDefaultAndEveryOneWithAll(@TempDir final Path tmp) throws Exception {
        final Path d = tmp.resolve("nonzero");
        final Path e = tmp.resolve("all");
        assertEquals(0, run(d, 2, 1000).exitCode());
        assertEquals(0, run(e, 2, 1000, "--set", "sampling.counters=all").exitCode());
        final List<String> nonzero = Files.readAllLines(d.resolve("counters.csv"));
        final List<String> all = Files.readAllLines(e.resolve("counters.csv"));
        // the sender sends one 1082 B data frame (1000 + 66 + RETH 16) and gets one 70 B ACK; its DCQCN
        // processor handles two events (the flow's start, the ACK), so two results are applied; the
        // receiver mirrors it. The switch queues each frame once on priority 3: the data frame on port 1
        // (toward host1), the ACK on port 0; each queue's peak is its one frame. Nothing else moves
        // on a NIC or the switch: no CE, CNP, NAK, pause, drop or retransmission.
        final List<String> devices = List.of("component,counter,value",
            "host0,tx_data_packets,1", "host0,tx_bytes,1082", "host0,rx_bytes,70", "host0,rx_ack_packets,1",
            "host0,cc_results_applied,2", "host0,flows_started,1", "host0,flows_completed,1",
            "host1,rx_data_packets,1", "host1,tx_bytes,70", "host1,rx_bytes,1082", "host1,tx_ack_packets,1",
            "sw0/port0/q3,enqueued_packets,1", "sw0/port0/q3,dequeued_packets,1", "sw0/port0/q3,enqueued_bytes,70",
            "sw0/port0/q3,peak_depth_bytes,70",
            "sw0/port1/q3,enqueued_packets,1", "sw0/port1/q3,dequeued_packets,1", "sw0/port1/q3,enqueued_bytes,1082",
            "sw0/port1/q3,peak_depth_bytes,1082");
        assertEquals(devices, nonzero.subList(0, devices.size()));
        // then the sender's CC processor (the receiver's handled nothing); no rx_pause_duration_us: never paused
        for (final String row : nonzero.subList(devices.size(), nonzero.size())) {
            assertTrue(row.startsWith("host0/cc,") && !row.endsWith(",0"), row);
        }
        assertTrue(nonzero.contains("host0/cc,tx_events_handled,1"), nonzero.toString());

        // all: 33 counters per NIC, 1 + 2 ports x 8 priorities x 12 on the switch, then per NIC the pause
        // time and the processor's counters
        final long cc = all.stream().filter(r -> r.startsWith("host0/cc,")).count();
        assertTrue(cc > 0);
        assertEquals(1 + 2 * 33 + (1 + 2 * 8 * 12) + 2 * (1 + cc), all.size());
        assertEquals("host0,np_cnp_sent,0", all.get(1));
        assertEquals("host1,np_cnp_sent,0", all.get(1 + 33));
        assertEquals("sw0,no_route_drops,0", all.get(1 + 2 * 33));
        assertEquals("sw0/port0/q0,enqueued_packets,0", all.get(2 + 2 * 33));
        final int end = 1 + 2 * 33 + 1 + 2 * 8 * 12;
        assertEquals("sw0/port1/pg7,peak_headroom_bytes,0", all.get(end - 1));
        assertEquals("host0,rx_pause_duration_us,0", all.get(end));
        assertTrue(all.get(end + 1).startsWith("host0/cc,"), all.get(end + 1));
        assertEquals("host1,rx_pause_duration_us,0", all.get(end + 1 + (int) cc));
        // the default file is the full one without its zero rows: same text, same order
        assertEquals(all.stream().filter(r -> !r.endsWith(",0")).toList(), nonzero);
    }

    @Test
    void aHundredKilobyteFlowHasItsIdealFctAndIsSampledAtLineRate(@TempDir final Path tmp) throws Exception {
        final Path d = tmp.resolve("run");
        final Cli.Outcome o = run(d, 2, 100_000);
        assertEquals(0, o.exitCode(), o.err());
        // 98 packets: first 1024 + 66 + 16 = 1106 B (1126 on the wire, 90 080 ps), 96 x 1090 B (1110, 88 800 ps),
        // last 672 + 66 = 738 B (758, 60 640 ps): sent by 8 675 520 ps; + the last frame again on the second link
        // 60 640 + 4 us + 2 ACKs 14 400 = 12 750 560 ps ideal
        final String[] row = Files.readAllLines(d.resolve("flows.csv")).get(1).split(",", -1);
        assertEquals("12750", row[6]);
        final long fct = Long.parseLong(row[5]);
        assertTrue(fct >= 12_750 && fct < 12_750 + 100, "fct " + fct);
        assertEquals("98", json(d, "data_packets"));
        assertTrue(o.outLines().contains("sw0                            1106          0          0          0"), o.out());
        // the last frame leaves the sender at 8.68 us and the switch by 9.7 us: all 100 000 B in the first 10 us = 80 Gb/s
        assertEquals(List.of("time_ns,flow_id,bits_per_sec", "10000,0,80000000000"), Files.readAllLines(d.resolve("throughput.csv")));
        final List<String> rates = Files.readAllLines(d.resolve("rates.csv"));
        assertEquals(1 + (fct / 1000) + 1, rates.size()); // samples at 0, 1, .., 12 us
        for (int i = 1; i < rates.size(); i++) {
            assertEquals((i - 1) * 1000 + ",1,100000000000,0", rates.get(i));
        }
    }

    @Test
    void aTwoToOneIncastQueueGrowsAtTheExcessRate(@TempDir final Path tmp) throws Exception {
        final Path d = tmp.resolve("run");
        final Cli.Outcome o = run(d, 3, 100_000);
        assertEquals(0, o.exitCode(), o.err());
        final List<String> q = Files.readAllLines(d.resolve("queues.csv"));
        final List<long[]> samples = new ArrayList<>();
        long max = 0;
        for (final String line : q.subList(1, q.size())) {
            final String[] f = line.split(",");
            // only the port toward the receiver (host2 = port 2) on the data priority 3 builds a queue
            assertEquals("sw0", f[1], line);
            assertEquals("2", f[2], line);
            assertEquals("3", f[3], line);
            final long t = Long.parseLong(f[0]);
            assertEquals(0, t % 1000, line);
            samples.add(new long[] {t, Long.parseLong(f[4])});
            max = Math.max(max, Long.parseLong(f[4]));
        }
        // two senders at 100 Gb/s into one 100 Gb/s port from 1.09 us (first frames in): the queue grows by one
        // 1090-byte frame per 88.8 ns frame time, 12.27 B/ns, until the senders stop at 8.68 us (+ 1 us link)
        for (final long[] s : samples) {
            if (s[0] >= 2000 && s[0] <= 9000) {
                final double expect = (s[0] - 1090) * 1090 / 88.8;
                assertEquals(expect, s[1], 2 * 1110, "depth at " + s[0] + " ns");
            }
        }
        assertTrue(samples.size() >= 8, q.toString());
        // the last row is the first sample after the queue emptied: 0
        assertEquals(0, samples.get(samples.size() - 1)[1], q.toString());
        final Matcher m = Pattern.compile("^sw0 +(\\d+) ", Pattern.MULTILINE).matcher(o.out());
        assertTrue(m.find(), o.out());
        assertTrue(Long.parseLong(m.group(1)) >= max, o.out());
        assertTrue(o.outLines().contains("flows done          2 / 2"), o.out());
    }
}
