package dev.nicsim.riscv;

import dev.nicsim.cli.RiscvCommand;

import dev.nicsim.testsupport.SharedFiles;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The riscv-tests conformance suite ({@code ../shared/peers/riscv-tests/elf}, see its README)
 * through {@link RiscvCommand#run}: every rv32/rv64 ui, um, ua, uc test (on e31) and uzbb, uzbs
 * test (on a model with Zbb and Zbs, {@link #modelFor}) must exit 0 (tohost = 1);
 * the mi tests must too, except those in {@link #MI_NOT_SUPPORTED}, which need privilege modes
 * or features this machine-mode-only core does not have, and must fail (so the list stays true).
 * Skips with a reason when the directory is absent, unless {@code -Dnicsim.requireShared=true}.
 */
class RiscvTestsConformanceTest {
    /** mi tests that need more than machine mode, with the reason (also in docs/riscv-core.md). */
    static final Map<String, String> MI_NOT_SUPPORTED = Map.of(
        "rv32mi-p-pmpaddr", "needs physical memory protection (pmpcfg0/pmpaddr0); this core has no PMP",
        "rv64mi-p-pmpaddr", "needs physical memory protection (pmpcfg0/pmpaddr0); this core has no PMP");

    private static Path elfDir() {
        return SharedFiles.sharedOrSkip("peers/riscv-tests/elf");
    }

    /**
     * The suite is there (in a clone of the project alone it is not: this test is then reported as
     * skipped with the path, and fails under {@code -Dnicsim.requireShared=true}); a factory that
     * aborts before making its tests would not be counted as skipped.
     */
    @Test
    void theSuiteIsPresent() {
        assertTrue(Files.isDirectory(elfDir()));
    }

    @TestFactory
    Stream<DynamicTest> everyTestPasses() throws IOException {
        final Path dir = elfDir();
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("rv(32|64)(ui|um|ua|uc|uzbb|uzbs|mi)-p-.*")).sorted().forEach(files::add);
        }
        final long u = files.stream().filter(p -> p.getFileName().toString().matches("rv(32|64)u[iamc]-p-.*")).count();
        assertEquals(148, u, "user-level test count (rv32/rv64 ui, um, ua, uc)");
        final long zb = files.stream().filter(p -> p.getFileName().toString().matches("rv(32|64)uzb[bs]-p-.*")).count();
        assertEquals(58, zb, "Zbb/Zbs test count (rv32/rv64 uzbb, uzbs)");
        final String zbModel = RiscvTestsModels.zbModel();
        return files.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            final String name = p.getFileName().toString();
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final String model = RiscvTestsModels.modelFor(name, zbModel);
            final int code = RiscvCommand.run(new String[] {"run", p.toString(), "--max-instructions", "1000000", "--model", model},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            if (MI_NOT_SUPPORTED.containsKey(name)) {
                assertTrue(code != 0, name + " is listed as unsupported (" + MI_NOT_SUPPORTED.get(name) + ") but passes: remove it from the list");
            } else {
                assertEquals(0, code, name + " (model " + model + ") failed: " + err.toString(StandardCharsets.UTF_8));
            }
        }));
    }

    /** e31 and ibex have no Zbb: the first Zbb test traps on its first Zbb instruction (exit 5, not a pass). */
    @Test
    void zbbTestsFailOnAModelWithoutZbb() {
        final Path p = elfDir().resolve("rv64uzbb-p-andn");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = RiscvCommand.run(new String[] {"run", p.toString(), "--max-instructions", "1000000", "--model", "ibex"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(code != 0, "rv64uzbb-p-andn passed on ibex, which has no Zbb");
    }
}
