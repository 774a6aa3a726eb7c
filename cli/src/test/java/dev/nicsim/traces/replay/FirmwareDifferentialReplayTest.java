package dev.nicsim.traces.replay;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The C ports in {@code firmware/bin} give exactly the Java handlers' results (issue 12, "Must
 * show: Differential"): {@code nicsim replay X --processor direct} with {@code --algorithm NAME}
 * and with {@code --firmware firmware/bin/NAME.elf} write the same {@code results.csv} except the
 * cycles column, for a recorded simulation trace (CNPs, ACKs with ECN echo, TX bursts), the
 * fixture captures, and (when {@code ../shared} exists) every shared capture. Uses the committed
 * ELFs: no cross compiler needed.
 */
class FirmwareDifferentialReplayTest {
    private static final String[][] ALGORITHMS = {{"dcqcn", "dcqcn.elf"}, {"dctcp", "dctcp.elf"}, {"ldcp", "ldcp.elf"},
        {"ldcp-pcc", "ldcp_pcc.elf"}};
    private static final String[] SHARED = {"softroce-write-read.pcap", "softroce-write-read-with-arp.pcap",
        "cnp-connectx4lx.pcap", "infiniband-erf.pcap"};

    @TempDir
    Path dir;

    static Path elf(final String file) {
       
        final Path p = TestPaths.root().resolve("firmware/bin").resolve(file);
        final Path interim = TestPaths.root().resolve("firmware/interim").resolve(file);
        Assumptions.assumeTrue(Files.exists(p) || Files.exists(interim), "firmware/bin/" + file + " not in this checkout");
        return Files.exists(p) ? p : interim;
    }

    /** results.csv without its cycles column. */
    private static List<String> withoutCycles(final Path csv) throws IOException {
        final List<String> out = new ArrayList<>();
        for (final String line : Files.readAllLines(csv)) {
            out.add(line.substring(0, line.lastIndexOf(',')));
        }
        return out;
    }

    private void same(final String input, final String algorithm, final Path elf, final String tag) throws IOException {
        final Path java = dir.resolve(tag + "-java");
        final Path fw = dir.resolve(tag + "-fw");
        final Cli.Outcome a = Cli.run("replay", input, "--algorithm", algorithm, "--processor", "direct", "--out", java.toString());
        assertEquals(0, a.exitCode(), a.err());
        final Cli.Outcome b = Cli.run("replay", input, "--firmware", elf.toString(), "--processor", "direct", "--out", fw.toString());
        assertEquals(0, b.exitCode(), b.err());
        assertTrue(b.out().contains("0 faults, 0 over the budget"), b.out());
        final List<String> ja = withoutCycles(java.resolve("results.csv"));
        final List<String> fb = withoutCycles(fw.resolve("results.csv"));
        assertTrue(ja.size() > 1, input + " gave no results");
        assertEquals(ja.size(), fb.size(), tag + ": result count");
        for (int i = 0; i < ja.size(); i++) {
            assertEquals(ja.get(i), fb.get(i), tag + ": results.csv line " + (i + 1));
        }
    }

    private Path record(final String name, final String yaml) throws IOException {
        final Path scenario = Files.writeString(dir.resolve(name + ".yaml"), yaml);
        final Path trace = dir.resolve(name + "-trace");
        final Cli.Outcome o = Cli.run("run", scenario.toString(), "--out", dir.resolve(name + "-run").toString(), "--no-progress",
            "--record", trace.toString());
        assertEquals(0, o.exitCode(), o.err());
        return trace;
    }

    @Test
    void recordedSimulationTracesReplayIdentically() throws IOException {
        final Path dcqcnElf = elf("dcqcn.elf");
        final Path dctcpElf = elf("dctcp.elf");
        final Path ldcpElf = elf("ldcp.elf");
        final Path ldcpPccElf = elf("ldcp_pcc.elf");
        final Path dcqcnTrace = record("dcqcn", RecordReplayTest.DCQCN);
        final Path dctcpTrace = record("dctcp", RecordReplayTest.DCTCP);
        final Path ldcpTrace = record("ldcp", RecordReplayTest.LDCP);
        same(dcqcnTrace.toString(), "dcqcn", dcqcnElf, "dcqcn-trace");
        same(dctcpTrace.toString(), "dctcp", dctcpElf, "dctcp-trace");
        same(ldcpTrace.toString(), "ldcp", ldcpElf, "ldcp-trace");
        // ldcp-pcc reacts to CNPs and RTT responses: the DCQCN run's CNPs
        same(dcqcnTrace.toString(), "ldcp-pcc", ldcpPccElf, "ldcp-pcc-trace");
    }

    @Test
    void fixtureCapturesReplayIdentically() throws IOException {
        final Path softroce = FixtureCaptures.softroce(dir.resolve("softroce.pcap"));
        final Path cnp = FixtureCaptures.cnp(dir.resolve("cnp.pcap"));
        for (final String[] a : ALGORITHMS) {
            same(softroce.toString(), a[0], elf(a[1]), a[0] + "-softroce");
            same(cnp.toString(), a[0], elf(a[1]), a[0] + "-cnp");
        }
    }

    @Test
    void sharedCapturesReplayIdentically() throws IOException {
        for (final String c : SHARED) {
            final Path capture = TestPaths.sharedOrSkip("data/captures/" + c);
            for (final String[] a : ALGORITHMS) {
                same(capture.toString(), a[0], elf(a[1]), a[0] + "-" + c);
            }
        }
    }
}
