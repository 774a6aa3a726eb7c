package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
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
 * {@code flows.csv} and counters.
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

    private static double finishUs(final String row) {
        final String[] f = row.split(",");
        return (Long.parseLong(f[4]) + Long.parseLong(f[5])) / 1000.0;
    }
}
