package dev.nicsim.fabric;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The {@code ./nicsim} launcher checks whether the jar is stale and rebuilds it under an exclusive
 * {@code flock} on {@code target/nicsim-build.lock}, so launches started at once build once. The
 * launcher runs for real under bash from a copy in a temp directory without a jar, with a {@code mvn}
 * on the PATH that records each build (and whether the lock was held while it ran) and writes the
 * jar, and a {@code java} that prints its words. No timing: each step waits for a state the
 * processes reach (a line printed, a process blocked in {@code flock}), with a generous bound only
 * against hanging.
 */
class LauncherLockTest {
    private static final String FAKE_MVN = """
        #!/usr/bin/env bash
        root="$(cd "$(dirname "$0")/.." && pwd)"
        # flock -n -E 200: 200 when another holds the lock, 0 when free, anything else an error
        flock -n -E 200 "$root/target/nicsim-build.lock" true && rc=0 || rc=$?
        case $rc in 200) echo locked ;; 0) echo unlocked ;; *) echo "flock error $rc" ;; esac >> "$root/builds.log"
        mkdir -p "$root/fabric/target" && echo jar > "$root/fabric/target/nicsim.jar"
        """;

    private static boolean onPath(final String tool) {
        for (final String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void executable(final Path p, final String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A copy of the launcher without a jar, with the fake mvn and java in {@code bin/}. */
    private static Path stage(final Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.copy(TestPaths.root().resolve("nicsim"), dir.resolve("nicsim"));
        executable(dir.resolve("bin/mvn"), FAKE_MVN);
        executable(dir.resolve("bin/java"), "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\n");
        return dir;
    }

    private static Process launch(final Path dir, final String path) throws IOException {
        final ProcessBuilder pb = new ProcessBuilder("/bin/bash", dir.resolve("nicsim").toString(), "run", "x.yaml");
        final Map<String, String> env = pb.environment();
        env.put("PATH", dir.resolve("bin") + ":" + path);
        env.remove("NICSIM_JAVA_OPTS");
        return pb.redirectErrorStream(true).start();
    }

    /** Waits for the launcher to end; expects exit 0 and java started on the jar. @return its output */
    private static String ran(final Process p) throws Exception {
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "launcher did not end");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("-jar\n") && out.contains("fabric/target/nicsim.jar\nrun\nx.yaml"), out);
        return out;
    }

    private static List<String> builds(final Path dir) throws IOException {
        final Path log = dir.resolve("builds.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static void needFlock() {
        Assumptions.assumeTrue(onPath("flock") && Files.isExecutable(Path.of("/bin/bash")),
            "flock (util-linux) or /bin/bash missing: launcher lock not tested");
    }

    @Test
    void twoLaunchesStartedAtOnceBothRunAndBuildOnceUnderTheLock(@TempDir final Path tmp) throws Exception {
        needFlock();
        final Path dir = stage(tmp);
        final Process a = launch(dir, System.getenv("PATH"));
        final Process b = launch(dir, System.getenv("PATH"));
        final String outA = ran(a);
        final String outB = ran(b);
        assertEquals(List.of("locked"), builds(dir), "one build, with the launcher's lock held");
        assertEquals(1, (outA + outB).split("building the fabric jar", -1).length - 1, outA + outB);
    }

    /**
     * Another holder has the lock (a build in progress); a launch started then waits in {@code flock}
     * before looking at the jar. The holder writes the jar and lets go: the launch finds it fresh and
     * runs without building. A launcher that checked before locking would have built.
     */
    @Test
    void theStalenessCheckWaitsForTheLock(@TempDir final Path tmp) throws Exception {
        needFlock();
        final Path dir = stage(tmp);
        Files.createDirectories(dir.resolve("target"));
        final Process holder = new ProcessBuilder("flock", dir.resolve("target/nicsim-build.lock").toString(),
            "sh", "-c", "echo held; cat >/dev/null").start();
        try {
            final BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("held", r.readLine());
            final Process launcher = launch(dir, System.getenv("PATH"));
            waitUntilBlockedInFlock(launcher);
            Files.createDirectories(dir.resolve("fabric/target"));
            Files.writeString(dir.resolve("fabric/target/nicsim.jar"), "jar");
            holder.getOutputStream().close(); // cat ends, flock lets go
            final String out = ran(launcher);
            assertEquals(List.of(), builds(dir), out);
        } finally {
            holder.destroy();
        }
    }

    /** Polls the launcher's child processes until one is {@code flock}; fails if it ends first. */
    private static void waitUntilBlockedInFlock(final Process launcher) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!launcher.isAlive()) {
                fail("the launcher ended without waiting for the lock");
            }
            try (Stream<ProcessHandle> kids = launcher.descendants()) {
                if (kids.anyMatch(h -> h.info().command().map(c -> c.endsWith("/flock")).orElse(false))) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        fail("the launcher never waited in flock");
    }

    /** Without flock on the PATH the launcher says so in one line and builds unlocked. */
    @Test
    void withoutFlockItSaysSoAndBuilds(@TempDir final Path tmp) throws Exception {
        needFlock();
        final Path dir = stage(tmp.resolve("repo"));
        final Path tools = Files.createDirectories(tmp.resolve("tools"));
        for (final String d : new String[] {"/usr/bin", "/bin"}) {
            try (Stream<Path> s = Files.list(Path.of(d))) {
                for (final Path p : (Iterable<Path>) s::iterator) {
                    final Path link = tools.resolve(p.getFileName().toString());
                    if (!p.getFileName().toString().equals("flock") && Files.notExists(link)) {
                        Files.createSymbolicLink(link, p);
                    }
                }
            }
        }
        // the fake mvn itself needs no flock: give it one that only builds
        executable(dir.resolve("bin/mvn"), "#!/usr/bin/env bash\nroot=\"$(cd \"$(dirname \"$0\")/..\" && pwd)\"\n"
            + "echo nolock >> \"$root/builds.log\"; mkdir -p \"$root/fabric/target\" && echo jar > \"$root/fabric/target/nicsim.jar\"\n");
        final String out = ran(launch(dir, tools.toString()));
        assertTrue(out.startsWith("nicsim: flock not found (util-linux): building without the lock; launches started at once"
            + " may build at the same time\nnicsim: building the fabric jar"), out);
        assertEquals(List.of("nolock"), builds(dir));
    }
}
