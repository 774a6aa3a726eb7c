package dev.nicsim.cli;

import dev.nicsim.testsupport.TestPaths;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every module is built of small classes, one job each (docs/architecture.md "One packet's way
 * through"): no main class of any module is over 600 lines, so no class grows back into the whole
 * device, the whole run or the whole engine. The one exception is the RISC-V hart's interpreter loop
 * ({@code Hart.interpret}), kept whole so C2 compiles it as one method: Hart counts without it.
 */
class ModuleSizeTest {
    private static final int MAX_LINES = 600;
    private static final String[] MODULES = {"pcc-api", "riscv-core", "microcode", "sim-core", "nic-model",
        "switch-asic-model", "scenario", "fabric", "interop", "trace", "cli", "sweep", "benchmarks", "test-support"};

    @Test
    void noMainClassOfAnyModuleIsOver600Lines() throws IOException {
        final List<String> tooLong = new ArrayList<>();
        int files = 0;
        for (final String module : MODULES) {
            final Path dir = TestPaths.root().resolve(module).resolve("src/main/java");
            try (Stream<Path> s = Files.walk(dir)) {
                for (final Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    final List<String> text = Files.readAllLines(f);
                    final long lines = f.endsWith("riscv/Hart.java") ? text.size() - interpreterLoopLines(text) : text.size();
                    if (lines > MAX_LINES) {
                        tooLong.add(TestPaths.root().relativize(f) + ": " + lines + " lines");
                    }
                }
            }
        }
        assertTrue(files > 20, "found only " + files + " source files");
        assertEquals(List.of(), tooLong);
    }

    /**
     * @param hart Hart.java's lines
     * @return the lines of its {@code interpret} method, declaration to closing brace
     */
    static int interpreterLoopLines(final List<String> hart) {
        int start = -1;
        for (int i = 0; i < hart.size(); i++) {
            if (hart.get(i).matches("\\s+(final )?void interpret\\(.*")) {
                start = i;
                break;
            }
        }
        assertTrue(start >= 0, "Hart.java has no interpret method");
        int depth = 0;
        for (int i = start; i < hart.size(); i++) {
            for (final char c : hart.get(i).toCharArray()) {
                if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    return i - start + 1;
                }
            }
        }
        throw new AssertionError("Hart.interpret has no closing brace");
    }

    @Test
    void theInterpreterLoopIsCountedByItsBraces() {
        assertEquals(5, interpreterLoopLines(List.of("class Hart {", "    void interpret(final long n) {",
            "        if (n > 0) {", "            n--;", "        }", "    }", "}")));
    }
}
