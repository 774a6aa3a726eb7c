package dev.nicsim.cli.hostile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 defect 9, from the recheck of every command (the table in docs/reliability.md): the
 * errors that named a file but not why. Permission errors cannot be made here (the tests may run as
 * root, which reads any file); {@code IoReasonsTest} (riscv-core) maps them, and the table says how
 * they were checked by hand as an unprivileged user.
 */
class IoReasonsCliTest {
    @TempDir
    Path dir;

    @Test
    void aScenarioThatIsNotUtf8SaysSo() throws IOException {
        final Path f = Files.write(dir.resolve("bad.yaml"), new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xFF, (byte) 0xFE, '\n'});
        assertEquals("nicsim: " + f + ": cannot read: not UTF-8 text (a malformed byte sequence)",
            Hostile.badInput("run", f.toString(), "--no-progress", "--out", dir.resolve("o").toString()));
    }

    @Test
    void anElfThatIsADirectorySaysSo() {
        assertEquals("nicsim: " + dir + ": cannot read: is a directory", Hostile.badInput("firmware", "info", dir.toString()));
    }

    @Test
    void plotOnAFileSaysItIsNotADirectory() throws IOException {
        final Path f = Files.writeString(dir.resolve("f"), "x");
        assertEquals("nicsim: " + f + ": not a directory (a run directory was expected)", Hostile.badInput("plot", f.toString()));
    }

    @Test
    void aPcapPathUnderAFileSaysWhy() throws IOException {
        final Path f = Files.writeString(dir.resolve("f"), "x");
        final Path s = Hostile.scenario(dir, Hostile.SMALL);
        final String line = Hostile.badInput("run", s.toString(), "--no-progress", "--out", dir.resolve("o").toString(), "--pcap",
            f.resolve("c.pcap").toString());
        assertEquals("nicsim: " + f.resolve("c.pcap") + ": cannot write the pcap file: " + f + " exists and is not a directory", line);
    }
}
