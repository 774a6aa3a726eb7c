package dev.nicsim.riscv;

import dev.nicsim.testsupport.SharedFiles;

/**
 * The cycle models the riscv-tests run under, shared by the conformance, translator and QEMU differential
 * tests (some of which run from the command-line module, where this module's test resources are in a jar).
 */
public final class RiscvTestsModels {
    private RiscvTestsModels() {
    }

    /**
     * The model a test runs under: e31 for most; the Zbb/Zbs tests and {@code ma_data} (which
     * needs misaligned loads and stores performed, and e31 traps them) under
     * {@code e31-zbb-zbs.yaml}, e31's timing with both extensions and misaligned accesses performed.
     */
    static String modelFor(final String test, final String zbModel) {
        return test.contains("uzb") || test.endsWith("-p-ma_data") ? zbModel : "e31";
    }

    /** @return the path of the test model file {@code e31-zbb-zbs.yaml} (a test resource of riscv-core) */
    public static String zbModel() {
        return SharedFiles.root().resolve("riscv-core/src/test/resources/dev/nicsim/riscv/e31-zbb-zbs.yaml").toString();
    }
}
