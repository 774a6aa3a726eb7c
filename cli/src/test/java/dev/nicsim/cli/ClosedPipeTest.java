package dev.nicsim.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reader that closes standard output early ({@code nicsim algorithms | head -1}) ends the command
 * quietly, exit 0 ({@link StandardOutput}); a full device still gives exit 2 and one line.
 */
class ClosedPipeTest {
    /** A stream failing as a write to a pipe whose reader is gone (EPIPE) or a full device (ENOSPC) does. */
    private static final class Failing extends OutputStream {
        final String why;
        int writes;

        Failing(final String why) {
            this.why = why;
        }

        @Override
        public void write(final int b) throws IOException {
            writes++;
            throw new IOException(why);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException {
            writes++;
            throw new IOException(why);
        }
    }

    /** Runs a command line with standard output over {@code out} (not a pipe) and returns its code and standard error. */
    private static Object[] execute(final OutputStream out, final String... args) {
        return execute(out, false, args);
    }

    /** As {@link #execute(OutputStream, String...)}, with {@code out} taken as a pipe or not. */
    private static Object[] execute(final OutputStream out, final boolean pipe, final String... args) {
        final PrintStream saved = System.out;
        final PrintStream savedErr = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        synchronized (dev.nicsim.cli.Cli.class) {
            try {
                System.setOut(StandardOutput.printStream(out, pipe));
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                return new Object[] {NicsimCommand.execute(args), err.toString(StandardCharsets.UTF_8)};
            } finally {
                System.setOut(saved);
                System.setErr(savedErr);
            }
        }
    }

    @Test
    void aClosedPipeEndsQuietlyAndLaterWritesAreDropped() {
        final Failing pipe = new Failing("Broken pipe");
        final Object[] r = execute(pipe, "algorithms");
        assertEquals(0, r[0]);
        assertEquals("", r[1]);
        assertEquals(1, pipe.writes, "writes after the reader left still reached the pipe");
    }

    /**
     * Under a localised {@code LC_MESSAGES} the C library words EPIPE in the user's language (glibc's
     * German: "Datenübergabe unterbrochen (broken pipe)"), so the text cannot decide: on a pipe any write
     * failure is the reader gone; the same failure on a file is still exit 2.
     */
    @Test
    void aClosedPipeInAnotherLanguageEndsQuietlyToo() {
        final Failing pipe = new Failing("Datenübergabe unterbrochen (broken pipe)");
        final Object[] r = execute(pipe, true, "algorithms");
        assertEquals(0, r[0]);
        assertEquals("", r[1]);
        assertEquals(1, pipe.writes, "writes after the reader left still reached the pipe");
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, execute(new Failing("Datenübergabe unterbrochen (broken pipe)"), "algorithms")[0]);
    }

    @Test
    void aFullDeviceIsStillExit2() {
        final Object[] r = execute(new Failing("No space left on device"), "algorithms");
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, r[0]);
        assertTrue(((String) r[1]).startsWith("nicsim: I/O error: standard output: a write failed"), (String) r[1]);
    }

    @Test
    void theBytesAreThoseOfTheJdksStandardOutput() {
        final ByteArrayOutputStream guarded = new ByteArrayOutputStream();
        final Object[] r = execute(guarded, "algorithms");
        assertEquals(0, r[0]);
        final ByteArrayOutputStream plain = new ByteArrayOutputStream();
        final PrintStream saved = System.out;
        synchronized (dev.nicsim.cli.Cli.class) {
            try {
                System.setOut(new PrintStream(plain, true));
                assertEquals(0, NicsimCommand.execute("algorithms"));
            } finally {
                System.setOut(saved);
            }
        }
        assertTrue(plain.size() > 100, "algorithms printed " + plain.size() + " bytes");
        assertEquals(plain.toString(), guarded.toString());
    }

    /** The real thing: a child JVM whose standard output pipe is closed before it writes. */
    @Test
    void aChildWhosePipeIsClosedExitsZeroWithNothingOnStandardError() throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Dagrona")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-Xmx128m", "-cp", System.getProperty("java.class.path"), NicsimCommand.class.getName(),
            "algorithms"));
        final Process p = new ProcessBuilder(cmd).start();
        p.getInputStream().close(); // the reader leaves before the JVM has started: every write meets a closed pipe
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, p.exitValue(), err);
        assertEquals("", err);
    }
}
