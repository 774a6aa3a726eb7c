package dev.nicsim.traces;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root and the shared captures ({@code ../shared/data/captures}) for tests. */
final class TestPaths {
    private TestPaths() {
    }

    /** @return the repository root (where the parent pom and the {@code nicsim} launcher are) */
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

    /**
     * @param name file name in {@code ../shared/data/captures}
     * @return its path (read in place, never copied into the repository)
     */
    static Path capture(final String name) {
        return root().resolve("../shared/data/captures").resolve(name).normalize();
    }

    /** @return the bytes of a shared capture */
    static byte[] captureBytes(final String name) {
        try {
            return Files.readAllBytes(capture(name));
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
