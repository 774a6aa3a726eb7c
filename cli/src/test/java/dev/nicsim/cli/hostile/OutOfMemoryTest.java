package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.cli.NicsimCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 5: a run that exhausts the heap ends with one line saying how much heap it had
 * and how to give more, exit 6, and no stack trace. The run happens in a child JVM with a 64 MB
 * heap: websearch with 3,000,000 flows (the recipe, scaled to a smaller heap). Before the
 * fix the JVM printed {@code java.lang.OutOfMemoryError} with its stack trace and exited 1.
 */
class OutOfMemoryTest {
    @TempDir
    Path dir;

    @Test
    void runningOutOfHeapIsOneLineAndExit6() throws IOException, InterruptedException {
        final Path scenario = TestPaths.root().resolve("scenarios/websearch-leafspine-dcqcn.yaml");
        final List<String> cmd = Hostile.childJvm("64m", NicsimCommand.class);
        cmd.addAll(List.of("run", scenario.toString(), "--no-progress", "--out", dir.resolve("o").toString(), "--set",
            "workload.flows=3000000"));
        final Process p = new ProcessBuilder(cmd)
            .directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(NicsimCommand.EXIT_OUT_OF_MEMORY, p.exitValue(), err);
        final List<String> lines = err.lines().filter(l -> !l.startsWith("nicsim: warning:")).toList();
        assertEquals(1, lines.size(), err);
        assertTrue(lines.get(0).startsWith("nicsim: out of memory: the command needed more than the "), err);
        assertTrue(lines.get(0).contains("NICSIM_JAVA_OPTS=-Xmx"), err);
        assertFalse(err.contains("\tat ") || err.contains("OutOfMemoryError"), err);
    }
}
