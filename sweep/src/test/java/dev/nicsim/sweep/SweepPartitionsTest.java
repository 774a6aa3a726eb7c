package dev.nicsim.sweep;

import dev.nicsim.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim sweep --partitions N}: every point runs as {@code nicsim run --partitions N} (checked
 * without Spark, through {@link PointExecutor}, against fabric's own command line); a fabric that
 * cannot be split fails its point with the reason; N below 1 is exit 2 with one line.
 */
class SweepPartitionsTest {
    private static Path leafSpine() {
        return SharedFiles.root().resolve("scenarios/websearch-leafspine-dcqcn.yaml");
    }

    /**
     * websearch-leafspine-dcqcn cut to 60 flows, seed 3, as a point with --partitions 2: its run
     * directory says 2 partitions of 64 hosts, and its flows.csv and fct.txt are byte for byte those of
     * {@code nicsim run --seed 3 --set workload.flows=60 --partitions 2 --threads 1}.
     */
    @Test
    void aPointRunsPartitionedAsNicsimRunDoes(@TempDir final Path tmp) throws Exception {
        final Path runDir = tmp.resolve("point");
        final PointRow row = PointExecutor.run(new PointTask(0, 3, leafSpine().toString(), List.of("workload.flows=60"),
            runDir.toString(), 0, 2));
        assertEquals(PointRow.OK, row.status(), row.error());
        final String json = Files.readString(runDir.resolve("run.json"));
        assertTrue(json.contains("\"count\" : 2") && json.contains("\"hosts_per_partition\" : [ 64, 64 ]"), json);
        final Path cli = tmp.resolve("cli");
        assertEquals(0, Fixtures.nicsimRun("run", leafSpine().toString(), "--seed", "3", "--set", "workload.flows=60",
            "--partitions", "2", "--threads", "1", "--out", cli.toString(), "--no-progress"));
        for (final String f : new String[] {"flows.csv", "fct.txt"}) {
            assertArrayEquals(Files.readAllBytes(cli.resolve(f)), Files.readAllBytes(runDir.resolve(f)), f);
        }
    }

    /** The incast's star has one access switch: the point fails with fabric's one-line reason. */
    @Test
    void aFabricThatCannotBeSplitFailsItsPoint() {
        final PointRow row = PointExecutor.run(new PointTask(0, 1, Fixtures.incast().toString(),
            List.of("workload.senders=4", "topology.hosts=5", "workload.receiver=4"), null, 0, 2));
        assertEquals(PointRow.FAILED, row.status());
        assertEquals("--partitions 2: the topology has 1 access switch(es) (switches with hosts); give at most 1", row.error());
    }

    @Test
    void partitionsBelowOneAreExit2WithOneLine(@TempDir final Path tmp) throws Exception {
        final Path file = Fixtures.sweepFile(tmp, "seeds: [1]\n");
        final dev.nicsim.testsupport.ConsoleCapture.Captured o = Fixtures.sweepMain("sweep", file.toString(), "--out",
            tmp.resolve("out").toString(), "--no-progress", "--partitions", "0");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: --partitions 0: expected a whole number of at least 1", o.err().strip());
    }
}
