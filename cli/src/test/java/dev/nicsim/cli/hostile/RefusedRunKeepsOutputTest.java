package dev.nicsim.cli.hostile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run into an existing {@code --out} that the checks refuse (exit 2) leaves the earlier run's
 * files there byte for byte: every check, including those only the built fabric can make (the
 * partition plan, HPCC's INT rate codes, the capture point), comes before the first write. Before,
 * the output directory was emptied first, so each of these refusals wiped a good run.
 */
class RefusedRunKeepsOutputTest {
    /** Two leaves of two hosts under one spine: two access switches, one cut link each at --partitions 2. */
    private static final String LEAF_SPINE = """
        name: kept
        seed: 1
        stop_time_us: 100
        topology:
          type: leaf_spine
          leaves: 2
          spines: 1
          hosts_per_leaf: 2
          host_link: {rate_gbps: 100, delay_ns: 1000}
          fabric_link: {rate_gbps: 100, delay_ns: 1000}
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 2
          size_bytes: 5000
        """;

    @TempDir
    Path dir;

    @Test
    void everyRefusalLeavesTheEarlierRunAsItWas() throws IOException {
        final Path s = Hostile.scenario(dir, LEAF_SPINE);
        final Path out = dir.resolve("o");
        Hostile.ok("run", s.toString(), "--no-progress", "--out", out.toString());
        final Map<String, byte[]> before = contents(out);
        assertTrue(before.keySet().containsAll(List.of("flows.csv", "counters.csv", "fct.txt", "run.json")), before.keySet().toString());
        final Path file = Files.writeString(dir.resolve("a-file"), "not a trace directory\n");
        final Path pcap = dir.resolve("x.pcap");

        refused(s, out, before, "the topology has 2 access switch(es)", "--partitions", "3");
        refused(s, out, before, "crosses partitions and has a delay of 0 ns", "--partitions", "2", "--set",
            "topology.fabric_link.delay_ns=0");
        refused(s, out, before, "got 30.0 Gb/s", "--set", "algorithm.name=hpcc", "--set", "topology.host_link.rate_gbps=30",
            "--set", "topology.fabric_link.rate_gbps=100");
        refused(s, out, before, "--pcap-at switch:0:port:99: leaf0 has ports 0..2", "--pcap", pcap.toString(), "--pcap-at",
            "switch:0:port:99");
        assertFalse(Files.exists(pcap), "the refused run created its pcap file");
        refused(s, out, before, "is a file; a trace is written to a directory", "--record", file.toString());
        assertEquals("not a trace directory\n", Files.readString(file));
        // an --out that cannot be a directory is refused before the trace directory is made
        final String line = Hostile.badInput("run", s.toString(), "--no-progress", "--out", file.toString(), "--record",
            dir.resolve("t").toString());
        assertEquals("nicsim: I/O error: " + file + ": exists and is not a directory", line);
        assertFalse(Files.exists(dir.resolve("t")), "the refused run made its trace directory");
    }

    /**
     * A run that fails after it started (its capture written to {@code /dev/full}, which fails with
     * ENOSPC when the buffered frames reach it) leaves the earlier run's files whole too: the run
     * writes into a staging directory inside {@code --out}, moved into place only when it finished,
     * and removed when it failed.
     */
    @Test
    void aRunThatFailsPartWayLeavesTheEarlierRunWhole() throws IOException {
        final Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "/dev/full is not on this machine");
        final Path s = Hostile.scenario(dir, LEAF_SPINE);
        final Path out = dir.resolve("o");
        Hostile.ok("run", s.toString(), "--no-progress", "--out", out.toString());
        final Map<String, byte[]> before = contents(out);
        final List<String> beside = Hostile.names(dir);
        refused(s, out, before, "no space left on device", "--pcap", full.toString()); // also: no staging directory in out
        assertEquals(beside, Hostile.names(dir), "the failed run wrote beside --out");
    }

    /** Runs into {@code out}, expects exit 2 with the message, and the directory unchanged. */
    private static void refused(final Path scenario, final Path out, final Map<String, byte[]> before, final String message,
                                final String... extra) throws IOException {
        final List<String> args = new ArrayList<>(List.of("run", scenario.toString(), "--no-progress", "--out", out.toString()));
        args.addAll(List.of(extra));
        final String line = Hostile.badInput(args.toArray(String[]::new));
        assertTrue(line.contains(message), line);
        assertEquals(new ArrayList<>(before.keySet()), Hostile.names(out), line); // no file gone, none added (no staging directory)
        final Map<String, byte[]> after = contents(out);
        for (final Map.Entry<String, byte[]> e : before.entrySet()) {
            assertArrayEquals(e.getValue(), after.get(e.getKey()), e.getKey() + " changed after: " + line);
        }
    }

    /** Every file of a directory and its bytes, by name in order. */
    private static Map<String, byte[]> contents(final Path d) throws IOException {
        final Map<String, byte[]> m = new LinkedHashMap<>();
        for (final String n : Hostile.names(d)) {
            m.put(n, Files.readAllBytes(d.resolve(n)));
        }
        return m;
    }
}
