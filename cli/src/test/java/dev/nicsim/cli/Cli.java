package dev.nicsim.cli;

import dev.nicsim.testsupport.ConsoleCapture;

import java.util.List;

/**
 * For the acceptance and trace tests: runs the {@code nicsim} command line in-process ({@link NicsimCommand#execute}) with
 * {@code System.out} and {@code System.err} captured.
 *
 * <p>Thread-safety: swaps the process-wide streams; calls are serialised on the class, and tests
 * using it must not run in parallel with tests that print.
 */
public final class Cli {
    private Cli() {
    }

    /**
     * What a command printed and returned.
     *
     * @param exitCode exit code
     * @param out      standard output text
     * @param err      standard error text
     */
    public record Outcome(int exitCode, String out, String err) {
        /** @return standard output as lines (line terminators removed, no empty line after the last) */
        public List<String> outLines() {
            return out.lines().toList();
        }

        /** @return standard error as lines (line terminators removed, no empty line after the last) */
        public List<String> errLines() {
            return err.lines().toList();
        }
    }

    /**
     * Runs the command line.
     *
     * @param args arguments, e.g. {@code "run", "scenarios/incast-dcqcn.yaml", "--no-progress"}
     * @return exit code and captured output
     */
    public static Outcome run(final String... args) {
        final ConsoleCapture.Captured c = ConsoleCapture.run(() -> NicsimCommand.execute(args));
        return new Outcome(c.exitCode(), c.out(), c.err());
    }
}
