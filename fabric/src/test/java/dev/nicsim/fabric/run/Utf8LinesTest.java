package dev.nicsim.fabric.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Utf8Lines#firstMalformedLine}: the line of the first byte that is not UTF-8 (RFC 3629),
 * counted by hand here, including across the 64 KiB chunks the file is decoded in.
 */
class Utf8LinesTest {
    @TempDir
    Path dir;

    private Path file(final byte[]... parts) throws Exception {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (final byte[] p : parts) {
            b.writeBytes(p);
        }
        return Files.write(dir.resolve("f.csv"), b.toByteArray());
    }

    private static byte[] text(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void validTextHasNoMalformedLine() throws Exception {
        assertEquals(-1, Utf8Lines.firstMalformedLine(file(text("a,b\nçé,€\n𝄞\n"))));
        assertEquals(-1, Utf8Lines.firstMalformedLine(file()));
    }

    @Test
    void theLineOfTheFirstBadByte() throws Exception {
        // Latin-1 é (0xE9) on line 3; an overlong '/' (0xC0 0xAF) on line 4 comes after
        assertEquals(3, Utf8Lines.firstMalformedLine(file(text("a\nb\nx"), new byte[] {(byte) 0xE9, '\n', (byte) 0xC0,
            (byte) 0xAF, '\n'})));
        // a UTF-16 surrogate encoded in UTF-8 (CESU), line 1
        assertEquals(1, Utf8Lines.firstMalformedLine(file(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})));
        // a 3-byte sequence cut off by the end of the file, on line 2
        assertEquals(2, Utf8Lines.firstMalformedLine(file(text("a\n€"), new byte[] {(byte) 0xE2, (byte) 0x82})));
    }

    /**
     * "xy" then 70,000 lines of "€\n" (4 bytes each: E2 82 AC 0A): the euro sign of line 16,384
     * starts at byte 2 + 4 x 16,383 = 65,534, so the first 65,536-byte chunk ends inside it and its
     * last byte comes with the next chunk; the file is still valid, and a bad byte after the last
     * line is on line 70,001.
     */
    @Test
    void linesAreCountedAcrossChunks() throws Exception {
        final byte[] body = text("€\n".repeat(70_000));
        assertEquals(-1, Utf8Lines.firstMalformedLine(file(text("xy"), body)));
        assertEquals(70_001, Utf8Lines.firstMalformedLine(file(text("xy"), body, new byte[] {(byte) 0xFF})));
    }
}
