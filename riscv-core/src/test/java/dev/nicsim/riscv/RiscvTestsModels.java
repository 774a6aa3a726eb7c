package dev.nicsim.riscv;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The cycle models the riscv-tests run under, shared by the conformance and translator tests. */
final class RiscvTestsModels {
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

    /** @return the path of the test model file {@code e31-zbb-zbs.yaml} (a test resource) */
    static String zbModel() {
        try {
            return Path.of(RiscvTestsModels.class.getResource("e31-zbb-zbs.yaml").toURI()).toString();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
