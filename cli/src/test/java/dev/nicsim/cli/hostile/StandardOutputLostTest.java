package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.cli.NicsimCommand;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 defect 9, found in the recheck of every command (docs/reliability.md): a command whose
 * standard output cannot be written ({@code nicsim firmware info ELF > /dev/full}, a dump into a full
 * disk) exited 0 with its text lost, because {@code System.out} swallows write errors. Now exit 2 and
 * one line. Standard output here is a stream failing as a full device does (ENOSPC).
 */
class StandardOutputLostTest {
    @Test
    void aLostStandardOutputIsExit2AndOneLine() {
        final Path elf = TestPaths.root().resolve("firmware/bin/dcqcn.elf");
        Assumptions.assumeTrue(Files.exists(elf), "firmware/bin/dcqcn.elf not in this checkout");
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final int code;
        synchronized (dev.nicsim.cli.Cli.class) {
            try {
                System.setOut(new PrintStream(new OutputStream() {
                    @Override
                    public void write(final int b) throws IOException {
                        throw new IOException("No space left on device");
                    }
                }, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
                code = NicsimCommand.execute("firmware", "info", elf.toString());
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
        }
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, code, errBytes.toString(StandardCharsets.UTF_8));
        assertEquals("nicsim: I/O error: standard output: a write failed (no space left on the device, or the reader closed"
            + " it): the output is incomplete" + System.lineSeparator(), errBytes.toString(StandardCharsets.UTF_8));
    }
}
