package dev.nicsim.riscv.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nicsim.riscv.diff.CrossToolchain.Arch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firmware/include/dpaintrin.h} (the DPA toolchain's counter and fence intrinsics) with the
 * small program {@code src/test/c/dpa/counters.c}, built for rv64imac and run under the e31 model:
 * {@code __dpa_thread_inst_ret()} advances by exactly 4 over three nops and itself, and two
 * back-to-back {@code __dpa_thread_cycles()} read one cycle apart (derivation in the program's
 * comment); the fences compile and execute. Skips when the cross compiler is absent (fails under
 * {@code -Dnicsim.requireTools=true}).
 */
class DpaIntrinsicsTest {
    @Test
    void countersAndFences(@TempDir Path dir) throws Exception {
        Optional<String> missing = CrossToolchain.missingTool();
        if (missing.isPresent()) {
            if (Boolean.getBoolean("nicsim.requireTools")) {
                fail(missing.get() + " not on PATH, and nicsim.requireTools=true");
            }
            assumeTrue(false, missing.get() + " not on PATH: dpaintrin.h test skipped");
        }
        Path include = CrossToolchain.sourceDir().resolve("../../../../firmware/include").normalize();
        assertTrue(Files.isRegularFile(include.resolve("dpaintrin.h")), include + "/dpaintrin.h");
        Path elf = dir.resolve("counters.elf");
        CrossToolchain.buildC(Arch.RV64IMAC, CrossToolchain.sourceDir().resolve("dpa").resolve("counters.c"), elf,
                List.of("-I" + include));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CrossToolchain.Outcome o = QemuDifferentialTest.runNicsim(elf, "e31", err);
        assertEquals(0, o.exitStatus(), err.toString(StandardCharsets.UTF_8));
        assertEquals("inst_ret_delta=4\ncycles_delta=1\n", new String(o.stdout(), StandardCharsets.UTF_8));
    }
}
