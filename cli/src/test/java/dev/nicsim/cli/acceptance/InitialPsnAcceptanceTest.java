package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nic.initial_psn}: real NICs start each QP at a random 24-bit PSN (IBTA vol. 1 §9.7.1)
 * and PSNs wrap at 2^24. Neither may change what a flow does: for each of the three algorithms, a
 * run with {@code random} first PSNs and one starting every QP at 16,777,000 (so every flow of
 * more than 216 packets wraps, the 1 MB incast flows after their 217th of 977 packets) give a
 * {@code flows.csv} and {@code counters.csv} byte-identical to the default run's (first PSN 0).
 * The runs are the shipped 16-to-1 incasts of 1 MB per sender: DCTCP windows, LDCP's fast start
 * with losses and go-back-N, DCQCN with PFC.
 */
class InitialPsnAcceptanceTest {
    @TempDir
    Path dir;

    private Path run(final String scenario, final String name, final String... set) {
        final Path out = dir.resolve(name);
        final String[] args = new String[5 + 2 * set.length];
        args[0] = "run";
        args[1] = Acceptance.shipped(scenario).toString();
        args[2] = "--out";
        args[3] = out.toString();
        args[4] = "--no-progress";
        for (int i = 0; i < set.length; i++) {
            args[5 + 2 * i] = "--set";
            args[6 + 2 * i] = set[i];
        }
        final Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.exitCode(), o.err());
        return out;
    }

    private void assertSameOutputs(final String scenario) throws IOException {
        final Path base = run(scenario, scenario + "-0");
        final byte[] flows = Files.readAllBytes(base.resolve("flows.csv"));
        assertTrue(Files.readAllLines(base.resolve("flows.csv")).size() == 17, "16 flows and a header");
        for (final String psn : new String[] {"random", "16777000"}) {
            final Path other = run(scenario, scenario + "-" + psn, "nic.initial_psn=" + psn);
            assertArrayEquals(flows, Files.readAllBytes(other.resolve("flows.csv")), scenario + " initial_psn=" + psn);
            assertArrayEquals(Files.readAllBytes(base.resolve("counters.csv")),
                Files.readAllBytes(other.resolve("counters.csv")), scenario + " initial_psn=" + psn);
        }
    }

    @Test
    void dctcpFlowsDoNotDependOnTheFirstPsn() throws IOException {
        assertSameOutputs("incast-dctcp.yaml");
    }

    @Test
    void ldcpFlowsDoNotDependOnTheFirstPsn() throws IOException {
        assertSameOutputs("incast-ldcp.yaml");
    }

    @Test
    void dcqcnFlowsDoNotDependOnTheFirstPsn() throws IOException {
        assertSameOutputs("incast-dcqcn.yaml");
    }

    @Test
    void aBadInitialPsnIsOneLineNamingTheField() {
        final Cli.Outcome o = Cli.run("run", Acceptance.shipped("incast-dctcp.yaml").toString(), "--out",
            dir.resolve("bad").toString(), "--no-progress", "--set", "nic.initial_psn=16777216");
        assertEquals(2, o.exitCode());
        assertTrue(o.err().contains("nic.initial_psn: expected random or an integer in [0, 16777215], got '16777216'"),
            o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
    }
}
