package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.sim.PartitionedRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim run --partitions N} through the command line: a partitioned run's outputs depend on
 * N only (N = 2 on one thread and on two threads are byte-identical, {@code run.json}'s wall times
 * and thread count aside), stay close to the sequential run's, and the options it cannot honour
 * are refused in one line with exit 2. The JIT gate is off here ({@link PartitionedRun}): on a
 * 2-core machine it would run the early windows of a test JVM, whose compiler is busy, on one
 * thread, and the "two threads" runs are meant to use both.
 */
class PartitionedRunAcceptanceTest {
    @BeforeAll
    static void jitGateOff() {
        System.setProperty(PartitionedRun.JIT_GATE_PROPERTY, "false");
    }

    @AfterAll
    static void jitGateDefault() {
        System.clearProperty(PartitionedRun.JIT_GATE_PROPERTY);
    }

    private static final String[] OUTPUTS = {"flows.csv", "fct.txt", "counters.csv", "queues.csv", "rates.csv",
        "throughput.csv", "classes.csv", "tiers.csv", "hot_ports.csv"};

    @TempDir
    Path dir;

    private Path run(final String scenario, final String name, final String... extra) {
        final Path out = dir.resolve(name);
        final List<String> args = new ArrayList<>(List.of("run", Acceptance.shipped(scenario).toString(), "--out",
            out.toString(), "--no-progress"));
        args.addAll(Arrays.asList(extra));
        final Cli.Outcome o = Cli.run(args.toArray(new String[0]));
        assertEquals(0, o.exitCode(), o.err());
        return out;
    }

    /** run.json without the lines that hold wall times or the thread count. */
    private static List<String> runJson(final Path out) throws IOException {
        return Files.readAllLines(out.resolve("run.json")).stream()
            .filter(l -> !l.contains("wall_") && !l.contains("events_per_sec") && !l.contains("\"threads\"")).toList();
    }

    private static void assertSameOutputs(final Path a, final Path b) throws IOException {
        for (final String f : OUTPUTS) {
            assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f + " differs");
        }
        assertEquals(runJson(a), runJson(b));
    }

    private static double[] slowdowns(final Path out) throws IOException {
        return Files.readAllLines(out.resolve("flows.csv")).stream().skip(1)
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(',') + 1))).sorted().toArray();
    }

    /**
     * websearch-leafspine-dcqcn cut to 300 flows (ECMP over 4 spines, WRED, PFC, the uNIC emulator):
     * 2 partitions of 64 hosts, 16 cut links, on one thread and on two, and 4 partitions: every
     * output file is the sequential run's, byte for byte, counters.csv included (the run ends at the
     * end of the last completion's time in every partition, as the sequential run does).
     */
    @Test
    void partitionedRunsGiveTheSequentialRunsBytesOnOneOrTwoThreads() throws IOException {
        final Path seq = run("websearch-leafspine-dcqcn.yaml", "seq", "--set", "workload.flows=300");
        final Path one = run("websearch-leafspine-dcqcn.yaml", "one", "--set", "workload.flows=300", "--partitions", "2",
            "--threads", "1");
        final Path two = run("websearch-leafspine-dcqcn.yaml", "two", "--set", "workload.flows=300", "--partitions", "2",
            "--threads", "2");
        final Path four = run("websearch-leafspine-dcqcn.yaml", "four", "--set", "workload.flows=300", "--partitions", "4");
        assertSameOutputs(one, two);
        for (final String f : OUTPUTS) {
            assertArrayEquals(Files.readAllBytes(seq.resolve(f)), Files.readAllBytes(two.resolve(f)), f + ": 2 partitions");
            assertArrayEquals(Files.readAllBytes(seq.resolve(f)), Files.readAllBytes(four.resolve(f)), f + ": 4 partitions");
        }
        final String json = Files.readString(two.resolve("run.json"));
        assertTrue(json.contains("\"count\" : 2"), json);
        assertTrue(json.contains("\"hosts_per_partition\" : [ 64, 64 ]"), json);
        assertTrue(json.contains("\"cut_links\" : 16"), json);
        assertTrue(json.contains("\"window_ps\" : 1000000"), json);
        assertEquals(300, slowdowns(two).length);
    }

    /** A k = 4 fat tree with regional congestion mitigation (CN frames between switches, RCC windows) and PFC. */
    @Test
    void rcmFatTreeGivesTheSameOutputsOnOneOrTwoThreads() throws IOException {
        final Path one = run("rcm-hotspot-fattree.yaml", "one", "--set", "workload.flows=1500", "--partitions", "2",
            "--threads", "1");
        final Path two = run("rcm-hotspot-fattree.yaml", "two", "--set", "workload.flows=1500", "--partitions", "2",
            "--threads", "2");
        assertSameOutputs(one, two);
    }

    /** Firmware handlers on the RISC-V emulator in every NIC, 2 partitions run on 2 threads. */
    @Test
    void firmwareRunGivesTheSameOutputsOnOneOrTwoThreads() throws IOException {
        final Path one = run("websearch-leafspine-dcqcn-firmware.yaml", "one", "--set", "workload.flows=40",
            "--partitions", "2", "--threads", "1");
        final Path two = run("websearch-leafspine-dcqcn-firmware.yaml", "two", "--set", "workload.flows=40",
            "--partitions", "2", "--threads", "2");
        assertSameOutputs(one, two);
    }

    /**
     * Two 3:1 incasts, one per leaf of a 2-leaf leaf-spine, with {@code firmware/bin/test/illegal_insn.elf}
     * (every CNP call traps): leaf 1's incast (hosts 4, 5, 6 to 7) starts at 0, leaf 0's (0, 1, 2 to 3)
     * {@value #LEAF0_OFFSET_NS} ns later, so the NICs of both partitions fault within the same windows and
     * partition 1's first CNP fault comes before partition 0's. The summary's first fault is the earliest by
     * (simulated time, host): on a host of leaf 1, the same on one thread (which runs partition 0 first in
     * every window) and on two, and the same as the sequential run's.
     */
    @Test
    void firmwareFaultsInTwoPartitionsNameTheEarliestFaultOnOneOrTwoThreadsAsTheSequentialRunDoes() throws IOException {
        final Path elf = dev.nicsim.testsupport.TestPaths.root().resolve("firmware/bin/test/illegal_insn.elf");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(elf), "firmware/bin/test/illegal_insn.elf not in this checkout");
        final StringBuilder flows = new StringBuilder();
        for (int s = 0; s < 3; s++) {
            flows.append("    - {src: ").append(4 + s).append(", dst: 7, size_bytes: 300000}\n");
            flows.append("    - {src: ").append(s).append(", dst: 3, size_bytes: 300000, start_us: ")
                .append(LEAF0_OFFSET_NS / 1000.0).append("}\n");
        }
        final Path yaml = Acceptance.write(dir, "two-incasts.yaml", "name: two-incasts\nseed: 1\nstop_time_us: 2000\n"
            + "topology: {type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 4, host_link: {rate_gbps: 100, delay_ns: 1000},"
            + " fabric_link: {rate_gbps: 400, delay_ns: 1000}}\n"
            + "switch:\n  pfc: {enabled: true, priorities: [3], mode: static, xoff_bytes: 100000, xon_bytes: 80000}\n"
            + "  wred: {priorities: [3], kmin_bytes: 20000, kmax_bytes: 20001, pmax: 1}\n"
            + "algorithm:\n  firmware: " + elf + "\n"
            + "workload:\n  type: flows\n  flows:\n" + flows);
        final String seq = firstFault(yaml, "seq");
        final String one = firstFault(yaml, "one", "--partitions", "2", "--threads", "1");
        final String two = firstFault(yaml, "two", "--partitions", "2", "--threads", "2");
        assertTrue(seq.matches("illegal instruction at pc 0x\\p{XDigit}+ \\(doca_pcc_dev_user_algo\\+0x\\p{XDigit}+\\)"
            + " \\(CNP event\\) on host[456] at \\d+\\.\\d{6} us"), seq);
        assertEquals(seq, one, "--partitions 2 on one thread against the sequential run");
        assertEquals(seq, two, "--partitions 2 on two threads against the sequential run");
        // partition 0's NICs fault too (else there would be nothing to choose between)
        final long leaf0Faults = Files.readAllLines(dir.resolve("one").resolve("counters.csv")).stream()
            .map(l -> l.split(",", -1)).filter(f -> f[0].matches("host[012]/cc") && f[1].equals("firmware_faults"))
            .mapToLong(f -> Long.parseLong(f[2])).sum();
        assertTrue(leaf0Faults > 0, "no fault on leaf 0's senders");
    }

    /** Leaf 0's incast starts this much after leaf 1's, ns. */
    private static final long LEAF0_OFFSET_NS = 300;

    /** Runs a scenario file and returns the text after "first: " of its firmware summary line. */
    private String firstFault(final Path yaml, final String name, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("run", yaml.toString(), "--out", dir.resolve(name).toString(),
            "--no-progress"));
        args.addAll(Arrays.asList(extra));
        final Cli.Outcome o = Cli.run(args.toArray(new String[0]));
        assertEquals(0, o.exitCode(), o.err());
        final String line = o.out().lines().filter(l -> l.startsWith("firmware ")).findFirst().orElse("(no firmware line)");
        final int at = line.indexOf("; first: ");
        assertTrue(at > 0, name + ": " + line);
        return line.substring(at + "; first: ".length());
    }

    /** Observers that schedule on the run's simulator need one partition; recording too. */
    @Test
    void simulatorObserversAndRecordingNeedOnePartition() throws IOException {
        final dev.nicsim.scenario.Scenario sc = dev.nicsim.scenario.ScenarioLoader.load(
            Acceptance.shipped("websearch-leafspine-dcqcn.yaml"), List.of("workload.flows=10"), null);
        try (dev.nicsim.fabric.run.TimeSeriesWriter w = new dev.nicsim.fabric.run.TimeSeriesWriter(dir.resolve("obs"))) {
            final dev.nicsim.fabric.run.Runner r = new dev.nicsim.fabric.run.Runner(sc, w, null, 2, 1);
            assertEquals("simulator observers need --partitions 1 (this run has 2 partitions)",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, r::simulator).getMessage());
            assertEquals("recording PCC traces needs --partitions 1",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new dev.nicsim.fabric.run.Runner(sc, w, h -> null, 2, 1)).getMessage());
            assertEquals(10, r.run(done -> { }).completedFlows());
        }
    }

    private void refused(final String expected, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("run", Acceptance.shipped("websearch-leafspine-dcqcn.yaml").toString(),
            "--out", dir.resolve("refused").toString(), "--no-progress"));
        args.addAll(Arrays.asList(extra));
        final Cli.Outcome o = Cli.run(args.toArray(new String[0]));
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.errLines().size(), o.err());
        assertTrue(o.err().contains(expected), o.err());
        assertTrue(!Files.exists(dir.resolve("refused").resolve("flows.csv")));
    }

    @Test
    void refusesWhatAPartitionedRunCannotDo() {
        refused("--partitions 0: expected a whole number of at least 1", "--partitions", "0");
        refused("--pcap needs --partitions 1 (got --partitions 2)", "--partitions", "2", "--pcap",
            dir.resolve("x.pcap").toString());
        refused("--record needs --partitions 1 (got --partitions 2)", "--partitions", "2", "--record",
            dir.resolve("trace").toString());
        refused("--threads 3: expected 1..2 (at most --partitions)", "--partitions", "2", "--threads", "3");
        refused("--partitions 2: the link leaf0 port 17 - spine1 port 0 crosses partitions and has a delay of 0 ns",
            "--partitions", "2", "--set", "topology.fabric_link.delay_ns=0");
        refused("--partitions 9: the topology has 8 access switch(es)", "--partitions", "9");
    }
}
