package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim htsim import} and {@code compare} at the command line: a bad line or an unmodelled
 * flag is exit 2 with one line and nothing written, notes go to standard error; and a run of a
 * scenario named {@code htsim-...} prints htsim's two lines after its summary, from its own
 * {@code flows.csv} and counters; and uet-htsim's single-connection experiment, imported unchanged
 * from {@code ../shared}, lands within 2 % of the FCT its authors committed, with the same packet counts.
 */
class HtsimCommandTest {
    @TempDir
    Path dir;

    @Test
    void refusalsWriteNothing() throws Exception {
        final Path cm = Files.writeString(dir.resolve("bad.cm"), "Nodes 16\nConnections 1\n0->13 start 0 size -1\n");
        final Path to = dir.resolve("s.yaml");
        assertEquals("nicsim: " + cm + ":3: size (bytes): expected an integer in [1, 2147483647], got -1",
            Hostile.badInput("htsim", "import", cm.toString(), "--to", to.toString()));
        assertFalse(Files.exists(to));
        final Path one = Files.writeString(dir.resolve("one.cm"), "Nodes 16\nConnections 1\n0->13 start 0 size 2000000\n");
        assertEquals("nicsim: -sleek: SLEEK, htsim's sender-side loss-recovery heuristic, is not modelled",
            Hostile.badInput("htsim", "import", one.toString(), "--to", to.toString(), "--", "-end", "1000", "-sleek"));
        assertFalse(Files.exists(to));
        assertEquals("nicsim: --to " + one + ": is an input of this command (" + one + "); writing it would overwrite it;"
            + " give another file", Hostile.badInput("htsim", "import", one.toString(), "--to", one.toString()));
        final Cli.Outcome o = Hostile.ok("htsim", "import", one.toString(), "--to", to.toString(), "--", "-receiver_cc_only");
        assertEquals(List.of("wrote " + to), o.outLines());
        assertEquals(List.of("note: -receiver_cc_only: htsim marks no ECN on ToR downlinks when the receiver's credit runs;"
            + " nicsim marks on every switch port"), o.errLines());
        assertTrue(Files.readString(to).contains("\n  name: rccc  # RCCC at the receiver\n"));
    }

    @Test
    void anImportedScenariosRunPrintsHtsimsLines() throws Exception {
        final Path s = Hostile.scenario(dir, Hostile.SMALL.replace("name: hostile", "name: htsim-small"));
        final Path out = dir.resolve("run");
        final Cli.Outcome o = Hostile.ok("run", s.toString(), "--no-progress", "--out", out.toString());
        // the two senders' flows: finish = start + fct from flows.csv, first and last
        final List<String> rows = Files.readAllLines(out.resolve("flows.csv"));
        final double a = finishUs(rows.get(1));
        final double b = finishUs(rows.get(2));
        final String spread = String.format(java.util.Locale.ROOT, "FCT Spread %.3f -> %.3f", Math.min(a, b), Math.max(a, b));
        // 2 x 5000 B at 1024 B per packet: 5 + 5 data packets, each ACKed, none lost
        final List<String> lines = o.outLines();
        final int at = lines.indexOf(spread);
        assertTrue(at > 0, o.out());
        assertEquals("New: 10 Rtx: 0 ACKs: 10 NACKs: 0 Pulls: 0", lines.get(at + 1));
        // compared with a one-experiment validation output of those very figures: every difference 0
        final Path ref = Files.writeString(dir.resolve("x.out"), "Experiment: Small \n=====\nRunning ./htsim_uec -tm small.cm\n"
            + String.format(java.util.Locale.ROOT, "FCT Spread %.3f -> %.3f ratio 1\n", Math.min(a, b), Math.max(a, b))
            + "Summary: New: 10 Rtx: 0 RTS: 0 Bounced: 0 ACKs: 10 NACKs: 0 Pulls: 0 sleek_pkts: 0\n");
        final Cli.Outcome c = Hostile.ok("htsim", "compare", out.toString(), ref.toString());
        assertTrue(c.out().contains("\nNew                      10           10   +0.00 %\n"), c.out());
        assertTrue(c.out().contains("\nRtx                       0            0         -\n"), c.out());
        // a run of any other name prints no such lines
        final Cli.Outcome plain = Hostile.ok("run", Hostile.scenario(dir, Hostile.SMALL).toString(), "--no-progress", "--out",
            dir.resolve("plain").toString());
        assertFalse(plain.out().contains("FCT Spread"), plain.out());
        assertEquals("nicsim: " + dir.resolve("nothing.out") + ": no such validation output",
            Hostile.badInput("htsim", "compare", out.toString(), dir.resolve("nothing.out").toString()));
    }

    /**
     * The validation plan's first experiment ({@code one.cm -end 1000 -sender_cc_only}), imported and run;
     * the oracle is uet-htsim's committed output ({@code validate_outputs/validate_uec_sender.out}): the FCT
     * within 2 % (the bound for the minimum FCT; nicsim's frame is 22 B longer on the wire than
     * htsim's 4,150 B packet, +0.5 %) and New, Rtx, ACKs, NACKs and Pulls equal.
     */
    @Test
    void theSingleConnectionExperimentAgreesWithHtsimsCommittedOutput() throws Exception {
        final Path h = TestPaths.sharedOrSkip("peers/uet-htsim");
        final List<String> ref = Files.readAllLines(h.resolve("validate_outputs/validate_uec_sender.out"));
        final int exp = ref.indexOf("Experiment: Single Connection ");
        assertTrue(exp >= 0, "no single-connection experiment in the committed output");
        String spread = null;
        String summary = null;
        for (int i = exp; i < ref.size() && summary == null; i++) {
            if (ref.get(i).startsWith("FCT Spread ")) {
                spread = ref.get(i);
            } else if (ref.get(i).startsWith("Summary: ")) {
                summary = ref.get(i);
            }
        }
        assertTrue(spread != null && summary != null, "no FCT spread or summary after the experiment line");
        final double htsimFctUs = Double.parseDouble(spread.split(" ")[2]);
        final Path yaml = dir.resolve("one.yaml");
        Hostile.ok("htsim", "import", h.resolve("connection_matrices/one.cm").toString(), "--to", yaml.toString(), "--",
            "-end", "1000", "-sender_cc_only");
        final Path out = dir.resolve("one");
        final Cli.Outcome o = Hostile.ok("run", yaml.toString(), "--no-progress", "--out", out.toString());
        final List<String> rows = Files.readAllLines(out.resolve("flows.csv"));
        assertEquals(2, rows.size(), "one flow");
        final double fctUs = Long.parseLong(rows.get(1).split(",")[5]) / 1000.0;
        assertEquals(htsimFctUs, fctUs, 0.02 * htsimFctUs, "FCT against htsim's " + htsimFctUs + " us");
        final String[] f = summary.split(" ");
        final String counts = "New: " + f[2] + " Rtx: " + f[4] + " ACKs: " + f[10] + " NACKs: " + f[12] + " Pulls: " + f[14];
        assertTrue(o.outLines().contains(counts), counts + " not in\n" + o.out());
    }

    private static double finishUs(final String row) {
        final String[] f = row.split(",");
        return (Long.parseLong(f[4]) + Long.parseLong(f[5])) / 1000.0;
    }
}
