package dev.nicsim.sweep;

import dev.nicsim.testsupport.ConsoleCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 defect 9 for {@code nicsim sweep}: a sweep file that cannot be read says why in words
 * ({@code IoReasons.why}), not the JDK's raw message ({@code Input length = 1}, or the path again
 * followed by {@code Not a directory}). Exit 2, one line. Permission errors cannot be made here (the
 * tests may run as root); {@code IoReasonsTest} in riscv-core maps them.
 */
class SweepIoReasonsTest {
    @TempDir
    Path dir;

    private static String badInput(final String... args) {
        final ConsoleCapture.Captured o = Fixtures.sweepMain(args);
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        return o.err().strip();
    }

    @Test
    void aSweepFileThatIsNotUtf8SaysSo() throws IOException {
        // line 2 holds the bytes FF FE (a UTF-16 byte-order mark, never UTF-8): named with its line
        final Path f = Files.write(dir.resolve("sweep.yaml"), new byte[] {'#', '\n', 'n', 'a', 'm', 'e', ':', ' ', (byte) 0xFF,
            (byte) 0xFE, '\n'});
        assertEquals("nicsim: " + f + ":2: cannot read: not UTF-8 text (a malformed byte sequence)",
            badInput("sweep", f.toString(), "--no-progress"));
    }

    @Test
    void aSweepFileUnderAFileSaysNotADirectory() throws IOException {
        final Path f = Files.writeString(dir.resolve("f"), "x");
        final Path s = f.resolve("sweep.yaml");
        assertEquals("nicsim: " + s + ": cannot read: not a directory", badInput("sweep", s.toString(), "--no-progress"));
    }

    @Test
    void aSweepFileThatIsADirectorySaysSo() {
        assertEquals("nicsim: " + dir + ": cannot read: is a directory", badInput("sweep", dir.toString(), "--no-progress"));
    }
}
