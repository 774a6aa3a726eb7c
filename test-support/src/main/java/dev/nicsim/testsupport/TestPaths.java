package dev.nicsim.testsupport;

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
    public static final String REQUIRE_SHARED = SharedFiles.REQUIRE_SHARED;

    private TestPaths() {
    }

    /** @return the repository root (where the parent pom is); see {@link SharedFiles#root()} */
    public static Path root() {
        return SharedFiles.root();
    }

    /**
     * A file or directory of {@code ../shared} beside the repository, or skip (fail under
     * {@code -Dnicsim.requireShared=true}) when it is absent; see {@link SharedFiles#sharedOrSkip}.
     *
     * @param relativePath path below {@code ../shared}, e.g. {@code data/captures/x.pcap}
     * @return its path (read in place, never copied into the repository)
     */
    public static Path sharedOrSkip(final String relativePath) {
        return SharedFiles.sharedOrSkip(relativePath);
    }

    /**
     * A built firmware ELF of the checkout, or skip the test (one line naming the path) when it is
     * absent (a checkout without {@code firmware/bin}).
     *
     * @param relativePath path below {@code firmware/bin}, e.g. {@code test/doca_port_state.elf}
     * @return its path
     */
    public static Path firmwareOrSkip(final String relativePath) {
        final Path p = root().resolve("firmware/bin").resolve(relativePath);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/" + relativePath + " not in this checkout");
        return p;
    }
}
