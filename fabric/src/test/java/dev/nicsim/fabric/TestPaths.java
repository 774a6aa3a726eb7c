package dev.nicsim.fabric;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the repository root and the files of {@code ../shared} beside it (real captures and
 * published workloads, which a clone of the project alone does not have) for tests.
 *
 * <p>A test that needs a shared file asks {@link #sharedOrSkip(String)}: when the file is absent
 * the test is aborted (reported as skipped) with one line naming the path, unless the system
 * property {@code nicsim.requireShared} is {@code true} (set by CI, which has {@code ../shared}),
 * in which case it fails with the same line.
 */
public final class TestPaths {
    /** System property that turns a missing shared file from a skip into a failure. */
    public static final String REQUIRE_SHARED = "nicsim.requireShared";

    private TestPaths() {
    }

    /** @return the repository root (where the parent pom is) */
    public static Path root() {
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
     * A file or directory of {@code ../shared} beside the repository, or skip (fail under
     * {@code -Dnicsim.requireShared=true}) when it is absent.
     *
     * @param relativePath path below {@code ../shared}, e.g. {@code data/captures/x.pcap}
     * @return its path (read in place, never copied into the repository)
     */
    public static Path sharedOrSkip(final String relativePath) {
        final Path p = root().resolve("../shared").resolve(relativePath).normalize();
        if (!Files.exists(p)) {
            final String line = "needs ../shared/" + relativePath + " (absent in a clone of the project alone)";
            if (Boolean.getBoolean(REQUIRE_SHARED)) {
                Assertions.fail(line + "; -D" + REQUIRE_SHARED + "=true requires it");
            }
            Assumptions.abort(line);
        }
        return p;
    }
}
