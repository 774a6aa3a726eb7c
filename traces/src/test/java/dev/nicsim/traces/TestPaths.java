package dev.nicsim.traces;

import org.junit.jupiter.api.Assertions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the repository root and the real captures beside it ({@code ../shared/data/captures},
 * which a clone of the project alone does not have) for tests.
 *
 * <p>A test that needs a real capture asks {@link #sharedCapture(String)}: when the file is absent
 * the test is aborted (reported as skipped) with one line naming the path, unless the system
 * property {@code nicsim.requireShared} is {@code true} (set by CI, which has {@code ../shared}),
 * in which case it fails with the same line. Every reader code path is also covered by the
 * project's own fixtures ({@link Fixtures}), which need no shared file.
 */
final class TestPaths {
    /** System property that turns a missing shared file from a skip into a failure. */
    static final String REQUIRE_SHARED = "nicsim.requireShared";

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
     * A file of {@code ../shared} beside the repository, or skip (fail under
     * {@code -Dnicsim.requireShared=true}) when it is absent.
     *
     * @param relativePath path below {@code ../shared}, e.g. {@code data/captures/x.pcap}
     * @return its path (read in place, never copied into the repository)
     */
    static Path sharedOrSkip(final String relativePath) {
        final Path p = root().resolve("../shared").resolve(relativePath).normalize();
        if (!Files.isRegularFile(p)) {
            final String line = "needs ../shared/" + relativePath + " (absent in a clone of the project alone)";
            if (Boolean.getBoolean(REQUIRE_SHARED)) {
                Assertions.fail(line + "; -D" + REQUIRE_SHARED + "=true requires it");
            }
            org.junit.jupiter.api.Assumptions.abort(line);
        }
        return p;
    }

    /**
     * @param name file name in {@code ../shared/data/captures}
     * @return its path; skips (or fails, see {@link #sharedOrSkip}) when absent
     */
    static Path sharedCapture(final String name) {
        return sharedOrSkip("data/captures/" + name);
    }

    /**
     * @param name file name in {@code ../shared/data/captures}
     * @return its bytes; skips (or fails) when absent
     */
    static byte[] sharedCaptureBytes(final String name) {
        try {
            return Files.readAllBytes(sharedCapture(name));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
