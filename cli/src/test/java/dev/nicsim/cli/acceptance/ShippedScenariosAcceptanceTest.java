package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 5: every scenario shipped in {@code scenarios/} runs through the command line with
 * exit code 0 and every flow done. The incast scenarios run as shipped (16 flows each); the
 * WebSearch leaf-spine scenarios are cut to 300 flows with {@code --set workload.flows=300} to keep
 * the suite fast (about 1 s each instead of about 8 s). The regional congestion mitigation
 * experiments ({@code rcm-*}, the RCM paper §4.2) run long-lived flows that are still sending when the
 * run stops, by design: they must exit 0 and write every flow, a non-empty {@code throughput.csv}
 * and {@code classes.csv}; the 432-host hotspot run is cut to 300 flows and 30 us
 * ({@code dev.nicsim.fabric.rcm.RcmMicroBenchmarksTest} checks the micro-benchmarks' outcomes).
 * The {@code *-firmware} scenarios (issue 12) run the committed {@code firmware/bin/dcqcn.elf} on
 * the uNIC emulator; the WebSearch one, cut to 300 flows, takes about 2 s.
 */
class ShippedScenariosAcceptanceTest {
    private static final int WEBSEARCH_FLOWS = 300;

    @TempDir
    Path dir;

    static Stream<String> shippedScenarios() throws IOException {
        try (Stream<Path> files = Files.list(Acceptance.shipped(""))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @Test
    void theShippedScenariosAreAllFound() throws IOException {
        // so that the parameterised test below cannot pass by finding nothing
        assertTrue(shippedScenarios().toList().containsAll(List.of("incast-dcqcn.yaml", "incast-dctcp.yaml",
            "incast-ldcp.yaml", "websearch-leafspine-dcqcn.yaml", "websearch-leafspine-dctcp.yaml",
            "websearch-leafspine-ldcp.yaml", "incast-dcqcn-firmware.yaml", "websearch-leafspine-dcqcn-firmware.yaml")));
    }

    @ParameterizedTest
    @MethodSource("shippedScenarios")
    void completesWithEveryFlowDone(final String name) throws IOException {
        final Path out = dir.resolve(name);
        if (name.startsWith("rcm-")) {
            runsRcmExperiment(name);
            return;
        }
        final boolean websearch = name.startsWith("websearch");
        final Cli.Outcome o = websearch
            ? Cli.run("run", Acceptance.shipped(name).toString(), "--out", out.toString(), "--no-progress",
                "--set", "workload.flows=" + WEBSEARCH_FLOWS)
            : Cli.run("run", Acceptance.shipped(name).toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        final List<String> rows = Files.readAllLines(out.resolve("flows.csv"));
        assertEquals("flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown", rows.get(0));
        // incast: 16 senders; websearch: the overridden flow count
        final int expected = websearch ? WEBSEARCH_FLOWS : 16;
        assertEquals(expected + 1, rows.size());
        for (final String row : rows.subList(1, rows.size())) {
            final String fct = row.split(",", -1)[5];
            assertFalse(fct.isEmpty(), name + ": unfinished flow " + row);
        }
        assertTrue(o.out().contains("flows done          " + expected + " / " + expected), o.out());
    }

    private void runsRcmExperiment(final String name) throws IOException {
        final Path out = dir.resolve(name);
        final boolean hotspot = name.startsWith("rcm-hotspot");
        final Cli.Outcome o = hotspot
            ? Cli.run("run", Acceptance.shipped(name).toString(), "--out", out.toString(), "--no-progress",
                "--set", "workload.flows=300", "--set", "stop_time_us=30")
            : Cli.run("run", Acceptance.shipped(name).toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        // incast-burst and victim: 5 listed flows; hotspot: the overridden count
        assertEquals((hotspot ? 300 : 5) + 1, Files.readAllLines(out.resolve("flows.csv")).size());
        assertTrue(Files.readAllLines(out.resolve("throughput.csv")).size() > 10, name + ": throughput.csv nearly empty");
        assertTrue(Files.readAllLines(out.resolve("classes.csv")).get(0).startsWith("class,flows,started,completed"));
    }
}
