package dev.nicsim.fabric.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where a text file stops being UTF-8: the 1-based line of its first malformed byte sequence, for
 * one-line errors that name the file and line ({@code Files.newBufferedReader} and the CSV parser
 * above it report only {@code MalformedInputException: Input length = 1}, and read ahead, so their
 * position is not the line's). The file is decoded again from its start with the JDK's UTF-8
 * decoder (RFC 3629: overlong forms, surrogates and bytes above U+10FFFF are malformed); a line
 * ends at each byte 0x0A, which never occurs inside a multi-byte sequence.
 *
 * <p>Thread-safety: stateless.
 */
public final class Utf8Lines {
    private static final int CHUNK_BYTES = 1 << 16;

    private Utf8Lines() {
    }

    /**
     * @param e an error from reading a text file, possibly wrapped (the CSV parser's iterator throws
     *          {@link UncheckedIOException})
     * @return true when it (or its cause) is a decoding error: the file is not UTF-8 text
     */
    public static boolean isDecodingError(final Throwable e) {
        return Causes.find(e, CharacterCodingException.class) != null;
    }

    /**
     * The line of the first byte that is not part of valid UTF-8 text.
     *
     * @param file a file
     * @return its 1-based line, or -1 when the whole file is valid UTF-8 (a sequence cut off by the
     *         end of the file is malformed, on the last line)
     * @throws IOException if the file cannot be read
     */
    public static long firstMalformedLine(final Path file) throws IOException {
        final CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.allocate(CHUNK_BYTES);
        final CharBuffer out = CharBuffer.allocate(CHUNK_BYTES);
        long line = 1;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (true) {
                final boolean eof = ch.read(in) < 0;
                in.flip();
                while (true) {
                    final int start = in.position();
                    final CoderResult r = dec.decode(in, out, eof);
                    for (int i = start; i < in.position(); i++) {
                        if (in.get(i) == '\n') {
                            line++;
                        }
                    }
                    out.clear();
                    if (r.isError()) {
                        return line;
                    }
                    if (r.isUnderflow()) {
                        break;
                    }
                }
                if (eof) {
                    return -1;
                }
                in.compact();
            }
        }
    }

    /**
     * A one-line description of a file that is not UTF-8 text: {@code FILE:LINE: not UTF-8 text (a
     * malformed byte sequence)}, or without the line when the file cannot be read again.
     *
     * @param file the file
     * @return the text
     */
    public static String describe(final Path file) {
        long line;
        try {
            line = firstMalformedLine(file);
        } catch (final IOException | RuntimeException e) {
            line = -1;
        }
        return file + (line > 0 ? ":" + line : "") + ": not UTF-8 text (a malformed byte sequence)";
    }
}
