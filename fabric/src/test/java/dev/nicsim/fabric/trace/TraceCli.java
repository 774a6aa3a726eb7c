package dev.nicsim.fabric.trace;

import dev.nicsim.fabric.TestPaths;
import dev.nicsim.fabric.cli.NicsimCommand;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@code nicsim} command line in-process ({@link NicsimCommand#execute}) with standard
 * output and error captured, and reads what the trace commands write.
 *
 * <p>Thread-safety: swaps the process-wide streams; calls are serialised on the class.
 */
final class TraceCli {
    private TraceCli() {
    }

    /**
     * What a command printed and returned.
     *
     * @param exitCode exit code
     * @param out      standard output
     * @param err      standard error
     */
    record Outcome(int exitCode, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }
    }

    /**
     * Runs the command line.
     *
     * @param args arguments
     * @return exit code and output
     */
    static synchronized Outcome run(final String... args) {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            code = NicsimCommand.execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * @param name file name in {@code ../shared/data/captures}
     * @return its path, read in place
     */
    static Path capture(final String name) {
        return TestPaths.shared().resolve("data/captures").resolve(name);
    }

    /**
     * Reads {@code counters.csv} of a run.
     *
     * @param runDir the run's output directory
     * @return value by {@code component/counter}
     */
    static Map<String, Long> counters(final Path runDir) {
        final Map<String, Long> m = new HashMap<>();
        for (final String line : lines(runDir.resolve("counters.csv"))) {
            final String[] f = line.split(",");
            if (f.length == 3 && !f[0].equals("component")) {
                m.put(f[0] + "/" + f[1], Long.parseLong(f[2]));
            }
        }
        return m;
    }

    /**
     * @param file a text file
     * @return its lines
     */
    static List<String> lines(final Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
