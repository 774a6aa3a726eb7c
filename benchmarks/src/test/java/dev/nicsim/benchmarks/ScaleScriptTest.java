package dev.nicsim.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/scale.sh} without a simulation: {@code src/test/sh/scale_test.sh} checks that
 * every bad argument is refused with one line and exit 2 before anything is made, and that the
 * figures the script prints (events per data packet, wall per data packet, RSS bytes per host, flows
 * per k, medians, failure reasons) come out of a run's {@code run.json} and GNU time report as
 * worked out by hand in that file.
 */
class ScaleScriptTest {

    @Test
    void argumentChecksAndFigureExtractionHoldTheirHandWorkedNumbers() throws IOException, InterruptedException {
        final Path bash = Path.of("/bin/bash");
        Assumptions.assumeTrue(Files.isExecutable(bash), "/bin/bash missing: scale.sh not tested");
        final Path test = Path.of("src/test/sh/scale_test.sh").toAbsolutePath();
        final Process p = new ProcessBuilder(bash.toString(), test.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "scale_test.sh did not end: " + out);
        assertFalse(out.contains("FAIL "), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("ok fig-bytes-per-host") && out.contains("ok odd-k"), out);
    }
}
