package dev.nicsim.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * Runs a command line in-process with {@code System.out} and {@code System.err} captured (the
 * fabric and sweep command-line tests).
 *
 * <p>Thread-safety: swaps the process-wide streams; calls are serialised on the class, and tests
 * using it must not run in parallel with tests that print.
 */
public final class ConsoleCapture {
    private ConsoleCapture() {
    }

    /**
     * What a command printed and returned.
     *
     * @param exitCode exit code
     * @param out      standard output text (UTF-8)
     * @param err      standard error text (UTF-8)
     */
    public record Captured(int exitCode, String out, String err) {
    }

    /**
     * Runs a command with both streams captured, then restores them.
     *
     * @param command returns the exit code, e.g. {@code () -> NicsimCommand.execute(args)}
     * @return exit code and output
     */
    public static synchronized Captured run(final IntSupplier command) {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            code = command.getAsInt();
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Captured(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
