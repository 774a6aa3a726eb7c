package dev.nicsim.traces;

import dev.nicsim.testsupport.SharedFiles;

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
    private TestPaths() {
    }

    /** @return the repository root (where the parent pom and the {@code nicsim} launcher are) */
    static Path root() {
        return SharedFiles.root();
    }

    /**
     * A file of {@code ../shared} beside the repository, or skip (fail under
     * {@code -Dnicsim.requireShared=true}) when it is absent; see {@link SharedFiles#sharedOrSkip}.
     *
     * @param relativePath path below {@code ../shared}, e.g. {@code data/captures/x.pcap}
     * @return its path (read in place, never copied into the repository)
     */
    static Path sharedOrSkip(final String relativePath) {
        return SharedFiles.sharedOrSkip(relativePath);
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
