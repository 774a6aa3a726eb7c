package dev.nicsim.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ScenarioLoaderTest {
    private static final String GOOD = """
        name: t1
        seed: 7
        stop_time_us: 50
        topology:
          type: star
          hosts: 4
          host_link: {rate_gbps: 25, delay_ns: 500}
        switch:
          pfc: {enabled: true, xoff_bytes: 50000, xon_bytes: 40000}
          wred: {kmin_bytes: 10000, kmax_bytes: 40000, pmax: 0.1}
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 3
          size_bytes: 10000
        """;

    @TempDir
    Path dir;

    private Path write(final String text) throws IOException {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void readsFieldsInSimulatorUnits() throws IOException {
        final Scenario s = ScenarioLoader.load(write(GOOD), List.of(), null);
        assertEquals("t1", s.name());
        assertEquals(7, s.seed());
        assertEquals(50_000_000L, s.stopTimePs());                        // 50 us = 5e7 ps
        assertEquals(25_000_000_000L, s.topology().hostLink().rateBitsPerSec());
        assertEquals(500_000L, s.topology().hostLink().delayPs());         // 500 ns
        assertEquals(s.topology().hostLink(), s.topology().fabricLink()); // fabric defaults to host link
        assertEquals(50_000, s.switchSpec().xoffBytes());
        assertEquals(3, s.workload().receiver());                         // default receiver = last host
        assertEquals(1024, s.nic().mtuBytes());                           // default MTU
    }

    @Test
    void overridesAndSeedReplaceFileValues() throws IOException {
        final Scenario s = ScenarioLoader.load(write(GOOD),
            List.of("workload.senders=2", "nic.mtu_bytes=4096", "switch.wred.priorities=[3,4]"), 99L);
        assertEquals(2, s.workload().senders());
        assertEquals(4096, s.nic().mtuBytes());
        assertEquals(99, s.seed());
        assertEquals(2, s.switchSpec().wredPriorities().length);
    }

    @Test
    void unknownFieldNamesPathAndLine() throws IOException {
        final Path f = write(GOOD.replace("  hosts: 4\n", "  hosts: 4\n  hostz: 5\n"));
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null));
        assertEquals(f + ":7: topology.hostz: unknown field; known here: type, hosts, host_link, fabric_link", e.getMessage());
    }

    @Test
    void outOfRangeAndMissingFieldsNameThePath() throws IOException {
        final Path f = write(GOOD.replace("rate_gbps: 25", "rate_gbps: 0"));
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null));
        assertEquals(f + ":7: topology.host_link.rate_gbps: expected a number in [0.001, 1600], got 0", e.getMessage());

        final Path g = write(GOOD.replace("  size_bytes: 10000\n", ""));
        e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(g, List.of(), null));
        assertEquals(g + ":14: workload.size_bytes: missing required field", e.getMessage());

        e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(g, List.of("workload.size_bytes=-1"), null));
        assertEquals("--set workload.size_bytes: expected an integer in [1, 2147483647], got -1", e.getMessage());
    }

    @Test
    void cnpsMayNotShareTheDataDscpOnAnotherPriority() throws IOException {
        final Path f = write(GOOD + "nic: {data_dscp: 26, cnp_dscp: 26, cnp_priority: 6}\n");
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null));
        assertEquals(f + ":17: nic.cnp_dscp: switches map DSCP to priority, so CNPs on the data DSCP 26 must also use"
            + " the data priority 3, got cnp_priority 6", e.getMessage());
    }

    @Test
    void algorithmParametersAreValidated() throws IOException {
        final Path f = write(GOOD.replace("  name: dcqcn\n", "  name: dcqcn\n  params: {nonsense: 1}\n"));
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null));
        assertEquals(true, e.getMessage().startsWith(f + ":13: algorithm.params.nonsense: unknown parameter 'nonsense'"),
            e.getMessage());
        final Path g = write(GOOD.replace("  name: dcqcn\n", "  name: tcp-reno\n"));
        final ScenarioException e2 = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(g, List.of(), null));
        assertEquals(true, e2.getMessage().startsWith(g + ":12: algorithm.name: unknown algorithm 'tcp-reno'; known: "),
            e2.getMessage());
    }

    @Test
    void brokenYamlAndMissingFileAreOneLine() throws IOException {
        final Path f = write("topology: [unclosed\n");
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null));
        assertEquals(true, e.getMessage().startsWith(f + ":2: not valid YAML"), e.getMessage());
        final ScenarioException e2 = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.load(dir.resolve("nope.yaml"), List.of(), null));
        assertEquals(dir.resolve("nope.yaml") + ": no such scenario file", e2.getMessage());
    }

    /**
     * A field name with line breaks (a quoted YAML key, or a plain key folded over several lines, as
     * ScenarioJazzerTest found) is quoted in the message with its breaks written as \\n and \\r, so the
     * message stays one line; the in-memory parse gives the message load gives.
     */
    @Test
    void aFieldNameWithLineBreaksStaysOneLine(@TempDir final Path dir) throws IOException {
        final String yaml = "topology:\n  type: star\n  hosts: 3\n  host_link: {\"rate\\ngbps\\r\": 1}\n";
        final ScenarioException e = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.parse(Path.of("s.yaml"), yaml, List.of(), null));
        assertEquals("s.yaml:4: topology.host_link.rate\\ngbps\\r: unknown field; known here: rate_gbps, delay_ns",
            e.getMessage());
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, yaml);
        assertEquals(e.getMessage().replace("s.yaml", f.toString()),
            assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(), null)).getMessage());
    }
}
