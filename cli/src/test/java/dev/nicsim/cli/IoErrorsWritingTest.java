package dev.nicsim.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 defect 9, found in the recheck (docs/reliability.md): on a full disk {@code run},
 * {@code replay}, {@code compare} and {@code --pcap} said only {@code I/O error: No space left on device}
 * (the JDK's error names no file). The line now names what the command was writing.
 */
class IoErrorsWritingTest {
    @Test
    void aWriteErrorWithoutAPathNamesTheOutputs() {
        try {
            OutputPaths.setWriting(Path.of("out/m"), null, Path.of("c.pcap"));
            assertEquals("I/O error while writing out/m, c.pcap: no space left on device",
                IoErrors.describe(new IOException("No space left on device")));
            OutputPaths.setWriting();
            assertEquals("I/O error: no space left on device", IoErrors.describe(new IOException("No space left on device")));
        } finally {
            OutputPaths.setWriting();
        }
    }
}
