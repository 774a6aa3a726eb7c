package dev.nicsim.sweep;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code points.csv} records the {@code --partitions N} each row ran with, and {@code --resume} with
 * another N is refused with a line naming the file, the line and both N (a point's results depend on
 * N, so a resumed sweep must not mix two). Checked on the file alone, without Spark.
 */
class PointsFileTest {
    private static PointRow row(final int point, final long seed, final String status) {
        return new PointRow(point, seed, status, PointRow.OK.equals(status) ? "" : "made up", new LinkedHashMap<>());
    }

    /** Writes {@code rows} to {@code tmp/out/points.csv} as a sweep with {@code --partitions partitions}. */
    private static Path written(final SweepSpec spec, final Path tmp, final int partitions, final PointRow... rows)
        throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out"));
        try (PointsFile f = new PointsFile(spec, out, partitions)) {
            f.rewrite(List.of(rows));
        }
        return out;
    }

    @Test
    void rowsCarryTheirPartitionsAndResumeKeepsOnlyTheSameN(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        final Path out = written(spec, tmp, 4, row(0, 1, PointRow.OK), row(1, 2, PointRow.FAILED));
        final List<String> lines = Files.readAllLines(out.resolve(PointsFile.FILE));
        assertTrue(lines.get(0).startsWith("point,seed,partitions,algorithm.name,workload.size_bytes,status,error,"),
            lines.get(0));
        assertTrue(lines.get(1).startsWith("0,1,4,dcqcn,32000,ok,,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("1,2,4,dcqcn,96000,failed,made up,"), lines.get(2));

        final Map<String, PointRow> kept = new PointsFile(spec, out, 4).readOk();
        assertEquals(List.of("0/1"), List.copyOf(kept.keySet()));

        final SweepException e = assertThrows(SweepException.class, () -> new PointsFile(spec, out, 2).readOk());
        assertEquals(out.resolve(PointsFile.FILE) + ":2: point 0 seed 1 ran with --partitions 4 but this sweep runs"
            + " --partitions 2 (results depend on it); give the same --partitions, another --out, or drop --resume",
            e.getMessage());
    }

    /** A failed row is run again anyway: its N does not matter. */
    @Test
    void aFailedRowOfAnotherNIsRunAgainNotRefused(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        final Path out = written(spec, tmp, 1, row(1, 2, PointRow.FAILED));
        assertTrue(new PointsFile(spec, out, 3).readOk().isEmpty());
    }

    /**
     * An interrupted append can cut the last line inside a quoted error message: that line is
     * ignored as any last line cut short is (the parser's "EOF reached before encapsulated token
     * finished"), and the rows before it are kept.
     */
    @Test
    void aLastLineCutInsideAQuoteIsIgnored(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        final Path out = written(spec, tmp, 1, row(0, 1, PointRow.OK), row(0, 2, PointRow.OK));
        Files.writeString(out.resolve(PointsFile.FILE), "1,1,1,dcqcn,96000,failed,\"no, not", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(List.of("0/1", "0/2"), List.copyOf(new PointsFile(spec, out, 1).readOk().keySet()));
    }
}
