package dev.nicsim.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository root and the files of {@code ../shared} beside it (real captures, published
 * workloads, the HPCC ns-3 reference runs, riscv-tests), which the project's CI machines have and a
 * clone of the project alone does not (docs/architecture.md "Tests and shared data").
 *
 * <p>A test that needs a shared file asks {@link #sharedOrSkip(String)}: when the file is absent the
 * test is aborted (reported as skipped, and listed by {@link SkipReport}) with one line naming the
 * path, unless the system property {@value #REQUIRE_SHARED} is {@code true} (set by CI), in which
 * case it fails with the same line.
 *
 * <p>Thread-safety: stateless.
 */
public final class SharedFiles {
    /** System property that turns a missing shared file from a skip into a failure. */
    public static final String REQUIRE_SHARED = "nicsim.requireShared";

    private SharedFiles() {
    }

    /**
     * The repository root: the {@code nicsim.root} system property (surefire sets it) when it names a
     * directory with a {@code pom.xml}, else the nearest ancestor of the working directory holding
     * the {@code nicsim} launcher.
     *
     * @return the root, absolute and normalised
     * @throws IllegalStateException if no root is found
     */
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
     * A file or directory of {@code ../shared}, or skip the calling test (fail it under
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
