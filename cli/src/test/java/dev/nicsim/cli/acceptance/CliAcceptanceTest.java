package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.cli.NicsimCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 6: the command line rejects bad input with exit code 2 and exactly one line on
 * standard error (no stack trace), and {@code nicsim algorithms} lists the built-in algorithms.
 */
class CliAcceptanceTest {
    /** A valid, tiny scenario (4 hosts, 3 x 10 kB incast) that the cases below break one way each. */
    private static final String GOOD = """
        name: cli-good
        seed: 1
        stop_time_us: 100
        topology:
          type: star
          hosts: 4
          host_link: {rate_gbps: 100, delay_ns: 1000}
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 3
          size_bytes: 10000
        """;

    @TempDir
    Path dir;

    /** Runs {@code nicsim run FILE --out DIR --no-progress EXTRA...} and checks the bad-input contract. */
    private String badInput(final Path file, final String... extra) {
        final String[] args = new String[5 + extra.length];
        args[0] = "run";
        args[1] = file.toString();
        args[2] = "--out";
        args[3] = dir.resolve("out").toString();
        args[4] = "--no-progress";
        System.arraycopy(extra, 0, args, 5, extra.length);
        final Cli.Outcome o = Cli.run(args);
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, o.exitCode(), o.err());
        final List<String> lines = o.errLines();
        assertEquals(1, lines.size(), "stderr: " + o.err());
        final String line = lines.get(0);
        assertTrue(line.startsWith("nicsim: "), line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), line);
        assertTrue(o.err().endsWith("\n"), "the line is terminated");
        return line;
    }

    private Path write(final String text) throws IOException {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void goodScenarioRuns() throws IOException {
        // the base of the bad cases is itself valid, so each case fails for its one defect
        final Cli.Outcome o = Cli.run("run", write(GOOD).toString(), "--out", dir.resolve("ok").toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("flows done          3 / 3"), o.out());
    }

    @Test
    void unknownField() throws IOException {
        final Path f = write(GOOD.replace("  hosts: 4\n", "  hosts: 4\n  hostz: 5\n"));
        final String line = badInput(f);
        // line 7 of the file: the YAML position of the offending key
        assertEquals("nicsim: " + f + ":7: topology.hostz: unknown field; known here: type, hosts, host_link, fabric_link",
            line);
    }

    @Test
    void outOfRangeValue() throws IOException {
        final Path f = write(GOOD.replace("rate_gbps: 100", "rate_gbps: 0"));
        assertEquals("nicsim: " + f + ":7: topology.host_link.rate_gbps: expected a number in [0.001, 1600], got 0",
            badInput(f));
    }

    @Test
    void missingFile() {
        final Path f = dir.resolve("no-such.yaml");
        assertEquals("nicsim: " + f + ": no such scenario file", badInput(f));
    }

    @Test
    void badSetOverrides() throws IOException {
        final Path f = write(GOOD);
        // not path=value
        assertTrue(badInput(f, "--set", "workload.senders").contains("expected path=value"));
        // a path that names no field
        assertTrue(badInput(f, "--set", "workload.sendrs=2").contains("workload.sendrs: unknown field"));
        // a value out of range: 4 hosts allow at most 3 senders
        assertTrue(badInput(f, "--set", "workload.senders=9").startsWith("nicsim: --set workload.senders: "));
    }

    @Test
    void algorithmsListsTheBuiltIns() {
        final Cli.Outcome o = Cli.run("algorithms");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals("", o.err());
        // one unindented "name: description" line per algorithm, parameters indented below it
        final Set<String> names = new TreeSet<>();
        for (final String line : o.out().lines().toList()) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0))) {
                names.add(line.substring(0, line.indexOf(':')));
            }
        }
        assertTrue(names.containsAll(Set.of("ldcp", "ldcp-pcc", "dctcp", "dcqcn")), names.toString());
    }
}
