package dev.nicsim.riscv;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root and {@code ../shared} for tests. */
final class TestPaths {
    private TestPaths() {
    }

    /** @return the repository root (where the parent pom is) */
    static Path root() {
        final String prop = System.getProperty("nicsim.root");
        if (prop != null && Files.exists(Path.of(prop, "pom.xml"))) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("nicsim"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the repository root from " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** @return {@code ../shared} beside the repository */
    static Path shared() {
        return root().resolve("../shared").normalize();
    }
}
