package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.nicsim.cli.hostile.Hostile.badInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defects 11 (consistency) and 9 (messages say why): each case below exited 0 or gave
 * a message without the reason before the fix.
 */
class ConsistencyTest {
    @TempDir
    Path dir;

    @Test
    void setPathsWithoutAFieldNameAreRefused() throws IOException {
        final String s = Hostile.scenario(dir, Hostile.SMALL).toString();
        for (final String set : new String[] {".=1", "..=1", "workload..load=0.3"}) {
            final String line = badInput("run", s, "--no-progress", "--out", dir.resolve("o").toString(), "--set", set);
            assertTrue(line.contains("--set " + set + ": the path") && line.contains("empty field name"), line);
        }
    }

    @Test
    void aReferenceWithAStandaloneFctOfZeroIsRefused() throws IOException {
        Files.createDirectory(dir.resolve("run"));
        final String row = "0b000001 0b000101 10000 100 5000 2000000000 12000 ";
        Files.writeString(dir.resolve("run/fct.txt"), row + "10000\n");
        final Path ref = Files.writeString(dir.resolve("ref.txt"), row + "0\n");
        final String line = badInput("compare", dir.resolve("run").toString(), ref.toString(), "--out",
            dir.resolve("c").toString());
        assertTrue(line.contains(ref + ":1") && line.contains("standalone_fct_ns"), line);
    }

    @Test
    void flowSizeCdfsKeepTheFlowSizeLimitAndNeedANonZeroSize() throws IOException {
        final String s = TestPaths.root().resolve("scenarios/websearch-leafspine-dcqcn.yaml").toString();
        final Path big = Files.writeString(dir.resolve("big.cdf"), "1000 0\n3000000000 100\n");
        final String line = badInput("run", s, "--no-progress", "--out", dir.resolve("o").toString(), "--set",
            "workload.cdf=" + big);
        assertEquals("nicsim: " + big + ":2: flow size 3000000000 bytes exceeds the 2147483647-byte limit of a flow", line);
        final Path zero = Files.writeString(dir.resolve("zero.cdf"), "0 0\n0 100\n");
        assertEquals("nicsim: " + zero + ":2: every flow size is 0 bytes; a flow-size CDF must reach at least 1 byte",
            badInput("run", s, "--no-progress", "--out", dir.resolve("o").toString(), "--set", "workload.cdf=" + zero));
    }

    @Test
    void everyCommandGroupWithoutASubcommandExits2WithItsUsage() {
        for (final String[] args : new String[][] {{}, {"trace"}, {"ns3"}, {"firmware"}, {"riscv"}}) {
            final Cli.Outcome o = Cli.run(args);
            assertEquals(2, o.exitCode(), String.join(" ", args));
            assertTrue(o.err().toLowerCase(java.util.Locale.ROOT).contains("usage"), o.err());
            assertEquals("", o.out(), String.join(" ", args));
        }
    }

    @Test
    void anIoErrorSaysWhy() throws IOException {
        final Path file = Files.writeString(dir.resolve("plain-file"), "x");
        final String line = badInput("run", Hostile.scenario(dir, Hostile.SMALL).toString(), "--no-progress", "--out",
            file.toString());
        assertEquals("nicsim: I/O error: " + file + ": exists and is not a directory", line);
    }
}
