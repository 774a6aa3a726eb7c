package dev.nicsim.traces.replay;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A buffered writer of ASCII text to a file that allocates nothing per call (a {@link
 * java.io.BufferedWriter} over a charset encoder allocates on every flush): characters are
 * narrowed to bytes into a 64 KiB buffer written out whole. For CSV rows of numbers and names.
 *
 * <p>Errors: I/O failures throw {@link IOException}. Thread-safety: not thread-safe.
 */
final class AsciiFileWriter implements Closeable {
    private static final int BUFFER_BYTES = 1 << 16;

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER_BYTES];
    private int n;

    /**
     * Creates (or replaces) a file.
     *
     * @param file the file
     * @throws IOException if it cannot be created
     */
    AsciiFileWriter(final Path file) throws IOException {
        this.out = Files.newOutputStream(file);
    }

    /**
     * Appends text; characters above 0x7F are written as {@code '?'}.
     *
     * @param s the text
     * @throws IOException if flushing the buffer fails
     */
    void append(final CharSequence s) throws IOException {
        final int len = s.length();
        for (int i = 0; i < len; i++) {
            if (n == buf.length) {
                drain();
            }
            final char c = s.charAt(i);
            buf[n++] = c < 0x80 ? (byte) c : (byte) '?';
        }
    }

    private void drain() throws IOException {
        out.write(buf, 0, n);
        n = 0;
    }

    /**
     * Writes the buffered bytes to the file.
     *
     * @throws IOException on failure
     */
    void flush() throws IOException {
        drain();
        out.flush();
    }

    /** Flushes and closes the file. */
    @Override
    public void close() throws IOException {
        try {
            drain();
        } finally {
            out.close();
        }
    }
}
