package dev.nicsim.sweep;

import dev.nicsim.testsupport.ConsoleCapture;
import dev.nicsim.testsupport.SharedFiles;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Sweep files, command runs with captured output, and CSV reading for the sweep tests. */
final class Fixtures {
    private Fixtures() {
    }

    /** The incast scenario every sweep test runs (made small by the sweep's set overrides). */
    static Path incast() {
        return SharedFiles.root().resolve("scenarios/incast-dcqcn.yaml");
    }

    /** The fixed overrides of the tiny incast: 4 senders to host 4 on a 5-host star, 2 ms at most. */
    static final String TINY_SET = "{workload.senders: 4, topology.hosts: 5, workload.receiver: 4, stop_time_us: 2000}";

    /**
     * Writes a sweep file naming the incast scenario by its absolute path.
     *
     * @param dir  where to write it
     * @param body the lines after {@code scenario:}
     * @return the file
     */
    static Path sweepFile(final Path dir, final String body) throws IOException {
        final Path f = dir.resolve("sweep.yaml");
        Files.writeString(f, "name: tiny\nscenario: " + incast() + "\n" + body);
        return f;
    }

    /** The 4 points x 2 seeds of the equality tests: dcqcn/dctcp x 32/96 kB per sender. */
    static Path tinySweep(final Path dir) throws IOException {
        return sweepFile(dir, "set: " + TINY_SET + "\naxes:\n  algorithm.name: [dcqcn, dctcp]\n"
            + "  workload.size_bytes: [32000, 96000]\nseeds: [1, 2]\n");
    }

    /**
     * Reads a CSV file with a header.
     *
     * @return one map per row, column to text, in file order
     */
    static List<Map<String, String>> readCsv(final Path csv) throws IOException {
        final List<Map<String, String>> rows = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
            for (final CSVRecord rec : p) {
                rows.add(new LinkedHashMap<>(rec.toMap()));
            }
        }
        return rows;
    }

    /** Runs the sweep jar's command line in-process with standard output and error captured. */
    static ConsoleCapture.Captured sweepMain(final String... args) {
        return ConsoleCapture.run(() -> SweepMain.execute(args));
    }

    /** Runs {@code nicsim run} in-process (fabric's command line), output discarded; returns the exit code. */
    static synchronized int nicsimRun(final String... args) {
        final PrintStream oldOut = System.out;
        try (PrintStream o = new PrintStream(java.io.OutputStream.nullOutputStream())) {
            System.setOut(o);
            return dev.nicsim.cli.NicsimCommand.execute(args);
        } finally {
            System.setOut(oldOut);
        }
    }
}
