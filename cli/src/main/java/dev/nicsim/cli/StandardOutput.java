package dev.nicsim.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standard output that ends quietly when its reader goes away ({@code nicsim algorithms | head -1}):
 * the JVM ignores SIGPIPE, so a write to a pipe whose reader closed fails with EPIPE ("Broken pipe")
 * instead of ending the process as it ends a C program. This stream takes that failure as the
 * reader's choice to stop reading: it drops that write and every later one (no further system
 * calls) and reports no error, so the command finishes its own work (a run still writes all its
 * files) and exits 0. Exit 0 rather than the shell's 141 (128 + SIGPIPE), because whether a write
 * comes after the reader closed depends only on timing: with {@code set -o pipefail},
 * {@code nicsim algorithms | grep -q dcqcn} would fail or pass from run to run. Any other write
 * error (a full disk, {@code > /dev/full}) passes through, and
 * {@link NicsimCommand#checkStandardOutput} reports it (exit 2).
 *
 * <p>Which failure is EPIPE: Java gives no errno, only the C library's text for it, which is
 * translated under a localised {@code LC_MESSAGES} (the JVM adopts the user's locale), e.g.
 * "Datenübergabe unterbrochen (broken pipe)". So when standard output is a pipe (Linux:
 * {@code /proc/self/fd/1} names {@code pipe:[...]}), every write failure counts as the reader gone:
 * a pipe has no space to run out of, and EPIPE is the error a write to one gives; elsewhere the
 * English text {@code Broken pipe} decides.
 *
 * <p>The print stream is made as the JDK makes {@code System.out} (a 128-byte buffer, flushed at
 * every line, the {@code sun.stdout.encoding} charset when set, else the default charset), so the
 * bytes written are the same. Thread-safety: as {@link PrintStream}.
 */
final class StandardOutput extends OutputStream {
    /** strerror(EPIPE) on Linux and the BSDs: the text the JDK puts in the exception. */
    private static final String BROKEN_PIPE = "Broken pipe";

    /** Where Linux shows what file descriptor 1 is open on. */
    private static final Path STDOUT_LINK = Path.of("/proc/self/fd/1");

    private final OutputStream out;
    private final boolean pipe;
    private volatile boolean readerGone;

    /**
     * @param out  where the bytes go (standard output's file descriptor)
     * @param pipe whether {@code out} is a pipe: then any write failure is taken as the reader gone
     */
    StandardOutput(final OutputStream out, final boolean pipe) {
        this.out = out;
        this.pipe = pipe;
    }

    /**
     * A print stream over {@code out} that ends quietly on a closed pipe, made as the JDK makes
     * {@code System.out}.
     *
     * @param out  where the bytes go
     * @param pipe whether {@code out} is a pipe (any write failure then means the reader left)
     * @return the print stream
     */
    static PrintStream printStream(final OutputStream out, final boolean pipe) {
        final String enc = System.getProperty("sun.stdout.encoding");
        Charset cs = Charset.defaultCharset();
        if (enc != null) {
            try {
                cs = Charset.forName(enc);
            } catch (final IllegalArgumentException e) { // unknown or unsupported: the JDK falls back alike
                cs = Charset.defaultCharset();
            }
        }
        return new PrintStream(new BufferedOutputStream(new StandardOutput(out, pipe), 128), true, cs);
    }

    /** Replaces {@code System.out} by a print stream over file descriptor 1 that ends quietly on a closed pipe. */
    static void install() {
        System.setOut(printStream(new FileOutputStream(FileDescriptor.out), standardOutputIsPipe()));
    }

    /** @return whether file descriptor 1 is a pipe (Linux {@code /proc}; false where it cannot tell) */
    private static boolean standardOutputIsPipe() {
        try {
            return Files.readSymbolicLink(STDOUT_LINK).toString().startsWith("pipe:");
        } catch (final IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** @return whether a write found the reader gone (every write since was dropped) */
    boolean readerGone() {
        return readerGone;
    }

    @Override
    public void write(final int b) throws IOException {
        if (readerGone) {
            return;
        }
        try {
            out.write(b);
        } catch (final IOException e) {
            gone(e);
        }
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        if (readerGone) {
            return;
        }
        try {
            out.write(b, off, len);
        } catch (final IOException e) {
            gone(e);
        }
    }

    @Override
    public void flush() throws IOException {
        if (readerGone) {
            return;
        }
        try {
            out.flush();
        } catch (final IOException e) {
            gone(e);
        }
    }

    /** Takes a broken pipe (any failure of a pipe) as the reader's end; rethrows any other error. */
    private void gone(final IOException e) throws IOException {
        if (!pipe && (e.getMessage() == null || !e.getMessage().contains(BROKEN_PIPE))) {
            throw e;
        }
        readerGone = true;
    }
}
