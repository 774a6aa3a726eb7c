package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import dev.nicsim.cli.NicsimCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input to {@code run --record/--pcap}, {@code trace} and {@code replay}: exit code 2 and
 * exactly one line on standard error naming the problem, never a stack trace.
 */
class TraceBadInputTest {
    private static final String SMALL = """
        name: bad-input
        seed: 1
        stop_time_us: 100
        topology:
          type: star
          hosts: 3
          host_link: {rate_gbps: 100, delay_ns: 1000}
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 2
          size_bytes: 5000
        """;

    @TempDir
    Path dir;

    /** Runs the command line and checks the bad-input contract; returns the one line. */
    private static String badInput(final String... args) {
        final Cli.Outcome o = Cli.run(args);
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, o.exitCode(), Arrays.toString(args) + ": " + o.out() + o.err());
        final List<String> lines = o.errLines();
        assertEquals(1, lines.size(), "stderr: " + o.err());
        final String line = lines.get(0);
        assertTrue(line.startsWith("nicsim: "), line);
        assertFalse(line.contains("Exception:") || line.contains("\tat "), line);
        return line;
    }

    private Path scenario() throws IOException {
        final Path f = dir.resolve("small.yaml");
        if (!Files.exists(f)) {
            Files.writeString(f, SMALL);
        }
        return f;
    }

    private Path truncatedCapture() throws IOException {
        // the first 100 bytes of a capture: the 24-byte header, a 16-byte record header announcing
        // 322 bytes (a UD SEND), more than the 60 that follow
        final byte[] all = Files.readAllBytes(FixtureCaptures.softroce(dir.resolve("softroce.pcap")));
        return Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(all, 100));
    }

    /** The project's one-CNP capture, written into the test's directory. */
    private String cnpCapture() {
        final Path f = dir.resolve("cnp.pcap");
        return (Files.exists(f) ? f : FixtureCaptures.cnp(f)).toString();
    }

    @Test
    void replayOfSomethingThatIsNotThere() {
        final Path missing = dir.resolve("nothing.pcap");
        assertEquals("nicsim: " + missing + ": no such file or directory",
            badInput("replay", missing.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("o").toString()));
    }

    @Test
    void replayOfAFileThatIsNeitherCaptureNorTrace() throws IOException {
        final Path yaml = scenario();
        assertEquals("nicsim: " + yaml + ": not a capture (pcap or pcapng) or a nicsim trace directory",
            badInput("replay", yaml.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("o").toString()));
    }

    @Test
    void replayOfADirectoryThatIsNotATrace() throws IOException {
        final Path empty = Files.createDirectory(dir.resolve("empty"));
        final String line = badInput("replay", empty.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("o").toString());
        assertTrue(line.startsWith("nicsim: " + empty + ": not a nicsim trace directory"), line);
    }

    @Test
    void replayOfATruncatedCaptureNamesThePacket() throws IOException {
        final Path cut = truncatedCapture();
        final String line = badInput("replay", cut.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("o").toString());
        assertTrue(line.startsWith("nicsim: " + cut + ": packet 1: truncated file"), line);
    }

    @Test
    void unknownAlgorithmParameterOrProcessor() {
        final String capture = cnpCapture();
        final String out = dir.resolve("o").toString();
        assertTrue(badInput("replay", capture, "--algorithm", "nope", "--out", out).startsWith("nicsim: --algorithm: "));
        final String param = badInput("replay", capture, "--algorithm", "dcqcn", "--set", "nope=1", "--out", out);
        assertTrue(param.startsWith("nicsim: --set nope=1: unknown parameter 'nope'; known: g, "), param);
        final String range = badInput("replay", capture, "--algorithm", "dcqcn", "--set", "rpg_gd=99", "--out", out);
        assertTrue(range.startsWith("nicsim: --set rpg_gd=99: parameter 'rpg_gd' = 99.0 is out of range [0, 15]"), range);
        assertEquals("nicsim: --set g: expected name=value",
            badInput("replay", capture, "--algorithm", "dcqcn", "--set", "g", "--out", out));
        assertEquals("nicsim: --processor: unknown processor 'fast'; known: emulator, ideal, direct",
            badInput("replay", capture, "--algorithm", "dcqcn", "--processor", "fast", "--out", out));
    }

    @Test
    void verifyNeedsARecordedTrace() {
        final String capture = cnpCapture();
        assertTrue(badInput("replay", capture, "--algorithm", "dcqcn", "--verify", "--out", dir.resolve("o").toString())
            .startsWith("nicsim: --verify: " + capture + " is a capture, which has no recorded results"));
        final Path imported = dir.resolve("imported");
        assertEquals(0, Cli.run("trace", "import", capture, "--to", imported.toString()).exitCode());
        assertTrue(badInput("replay", imported.toString(), "--algorithm", "dcqcn", "--verify", "--out",
            dir.resolve("o").toString()).startsWith("nicsim: --verify: " + imported + " has no recorded results (origin capture)"));
    }

    @Test
    void traceDumpAndImportOfBadInput() throws IOException {
        final Path missing = dir.resolve("no-trace");
        assertEquals("nicsim: " + missing + ": no such trace directory", badInput("trace", "dump", missing.toString()));
        final Path notCapture = scenario();
        final String magic = badInput("trace", "import", notCapture.toString(), "--to", dir.resolve("t").toString());
        assertTrue(magic.startsWith("nicsim: " + notCapture + ": wrong magic"), magic);
        final String cut = badInput("trace", "import", truncatedCapture().toString(), "--to", dir.resolve("t2").toString());
        assertTrue(cut.contains("packet 1: truncated file"), cut);
        try (java.util.stream.Stream<Path> left = Files.list(dir.resolve("t2"))) {
            assertEquals(0, left.count(), "no partial trace is left behind");
        }
        // a directory holding other files is not overwritten
        final Path occupied = Files.createDirectory(dir.resolve("occupied"));
        Files.writeString(occupied.resolve("notes.txt"), "keep me");
        final String line = badInput("trace", "import", cnpCapture(), "--to",
            occupied.toString());
        assertTrue(line.contains("holds notes.txt, which is not a trace file"), line);
        assertTrue(Files.exists(occupied.resolve("notes.txt")));
        final String gap = badInput("trace", "import", cnpCapture(), "--to",
            dir.resolve("t3").toString(), "--burst-gap-ns", "0");
        // the flag the user typed, not the deriver's parameter name, and refused before the trace is created
        assertEquals("nicsim: --burst-gap-ns 0: expected a gap of 1..1000000000 ns (one second)", gap);
        assertFalse(Files.exists(dir.resolve("t3")), "the refused import created its trace directory");
        assertEquals("nicsim: --burst-gap-ns -1: expected a gap of 1..1000000000 ns (one second)",
            badInput("replay", cnpCapture(), "--algorithm", "dcqcn", "--out", dir.resolve("r3").toString(),
                "--burst-gap-ns", "-1"));
        assertFalse(Files.exists(dir.resolve("r3")), "the refused replay created its output directory");
    }

    @Test
    void runWithABadTapPoint() throws IOException {
        final String s = scenario().toString();
        final String out = dir.resolve("run").toString();
        final String pcap = dir.resolve("x.pcap").toString();
        assertEquals("nicsim: --pcap-at: expected host:N or switch:S:port:P (S an index or a name such as sw0), got 'host-0'",
            badInput("run", s, "--out", out, "--no-progress", "--pcap", pcap, "--pcap-at", "host-0"));
        assertEquals("nicsim: --pcap-at host:3: the fabric has hosts 0..2",
            badInput("run", s, "--out", out, "--no-progress", "--pcap", pcap, "--pcap-at", "host:3"));
        assertEquals("nicsim: --pcap-at switch:spine0:port:0: no switch 'spine0'; the fabric has 0..0 (sw0)",
            badInput("run", s, "--out", out, "--no-progress", "--pcap", pcap, "--pcap-at", "switch:spine0:port:0"));
        assertEquals("nicsim: --pcap-at switch:sw0:port:7: sw0 has ports 0..2",
            badInput("run", s, "--out", out, "--no-progress", "--pcap", pcap, "--pcap-at", "switch:sw0:port:7"));
        assertEquals("nicsim: --pcap-at host:1: give the pcap file with --pcap FILE",
            badInput("run", s, "--out", out, "--no-progress", "--pcap-at", "host:1"));
        final String rec = badInput("run", s, "--out", out, "--no-progress", "--record", scenario().toString());
        assertTrue(rec.endsWith(": is a file; a trace is written to a directory"), rec);
    }
}
