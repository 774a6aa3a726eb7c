package dev.nicsim.cli;

import dev.nicsim.testsupport.TestPaths;

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

/**
 * The {@code ./nicsim} launcher checks whether the jar is stale and rebuilds it under an exclusive
 * {@code flock} on {@code target/nicsim-build.lock}, so launches started at once build once. The
 * launcher runs for real under bash from a copy in a temp directory without a jar, with a {@code mvn}
 * on the PATH that records each build (and whether the lock was held while it ran) and writes the
 * jar, and a {@code java} that prints its words. No timing and no polling: each step waits for a
 * line a process prints (the holder's {@code held}, the launcher's {@code flock} saying it is about
 * to wait), with a generous bound only against hanging.
 */
class LauncherLockTest {
    private static final String FAKE_MVN = """
        #!/usr/bin/env bash
        root="$(cd "$(dirname "$0")/.." && pwd)"
        # flock -n -E 200: 200 when another holds the lock, 0 when free, anything else an error
        flock -n -E 200 "$root/target/nicsim-build.lock" true && rc=0 || rc=$?
        case $rc in 200) echo locked ;; 0) echo unlocked ;; *) echo "flock error $rc" ;; esac >> "$root/builds.log"
        mkdir -p "$root/cli/target" && echo jar > "$root/cli/target/nicsim.jar"
        """;

    /** @return the tool's file on the PATH, or null */
    private static Path which(final String tool) {
        for (final String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool);
            }
        }
        return null;
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

    private static BufferedReader lines(final Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Waits for the launcher to end; expects exit 0 and java started on the jar. @return its output */
    private static String ran(final Process p) throws Exception {
        return ran(p, lines(p));
    }

    /** As {@link #ran(Process)}, reading the rest of the output from {@code r}. @return the rest */
    private static String ran(final Process p, final BufferedReader r) throws Exception {
        final StringBuilder b = new StringBuilder();
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            b.append(line).append('\n');
        }
        final String out = b.toString();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "launcher did not end");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("-jar\n") && out.contains("cli/target/nicsim.jar\nrun\nx.yaml"), out);
        return out;
    }

    private static List<String> builds(final Path dir) throws IOException {
        final Path log = dir.resolve("builds.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static void needFlock() {
        Assumptions.assumeTrue(which("flock") != null && Files.isExecutable(Path.of("/bin/bash")),
            "flock (util-linux) or /bin/bash missing: launcher lock not tested");
    }

    /**
     * Two launches are made to meet at the lock: another holder has it while both start, and it lets
     * go only once both launchers said they wait for it. One builds under the lock; the other, let in
     * after it, finds the jar fresh. A launcher that looked at the jar before locking would build twice,
     * whatever the scheduling.
     */
    @Test
    void twoLaunchesStartedAtOnceBothRunAndBuildOnceUnderTheLock(@TempDir final Path tmp) throws Exception {
        needFlock();
        final Path dir = stage(tmp);
        final Process holder = holdTheLock(dir);
        try {
            final Process a = launch(dir, System.getenv("PATH"));
            final Process b = launch(dir, System.getenv("PATH"));
            final BufferedReader ra = lines(a);
            final BufferedReader rb = lines(b);
            assertEquals(WAITING, ra.readLine(), "the first launcher's first words are its wait for the lock");
            assertEquals(WAITING, rb.readLine(), "the second launcher's first words are its wait for the lock");
            holder.getOutputStream().close(); // cat ends, flock lets go
            final String outA = ran(a, ra);
            final String outB = ran(b, rb);
            assertEquals(List.of("locked"), builds(dir), "one build, with the launcher's lock held");
            assertEquals(1, (outA + outB).split("building the cli jar", -1).length - 1, outA + outB);
        } finally {
            holder.destroy();
        }
    }

    /** What the launcher's {@code flock} (a wrapper, {@link #holdTheLock}) says before it waits. */
    private static final String WAITING = "flock: waiting";

    /**
     * Puts a {@code flock} wrapper in the staged {@code bin/} that says {@link #WAITING} on standard
     * error when the launcher calls it to take the lock, then runs the real one; and takes the lock in
     * another process, which holds it until its standard input is closed.
     *
     * @return the holder, once it holds the lock
     */
    private static Process holdTheLock(final Path dir) throws IOException {
        executable(dir.resolve("bin/flock"), "#!/usr/bin/env bash\n[ \"$1\" = 9 ] && echo '" + WAITING + "' >&2\nexec '"
            + which("flock") + "' \"$@\"\n");
        Files.createDirectories(dir.resolve("target"));
        final Process holder = new ProcessBuilder(which("flock").toString(),
            dir.resolve("target/nicsim-build.lock").toString(), "sh", "-c", "echo held; cat >/dev/null").start();
        assertEquals("held", lines(holder).readLine());
        return holder;
    }

    /**
     * Another holder has the lock (a build in progress); a launch started then waits in {@code flock}
     * before looking at the jar. The holder writes the jar and lets go: the launch finds it fresh and
     * runs without building. A launcher that checked before locking would have built. The launcher's
     * {@code flock} is a wrapper that says so on standard error before it runs the real one, so the
     * test writes the jar only once the launcher has reached the lock; the holder keeps it until then,
     * so whatever the scheduling, the launcher looks at the jar after it was written.
     */
    @Test
    void theStalenessCheckWaitsForTheLock(@TempDir final Path tmp) throws Exception {
        needFlock();
        final Path dir = stage(tmp);
        final Process holder = holdTheLock(dir);
        try {
            final Process launcher = launch(dir, System.getenv("PATH"));
            final BufferedReader out = lines(launcher);
            assertEquals(WAITING, out.readLine(), "the launcher's first words are its wait for the lock");
            Files.createDirectories(dir.resolve("cli/target"));
            Files.writeString(dir.resolve("cli/target/nicsim.jar"), "jar");
            holder.getOutputStream().close(); // cat ends, flock lets go
            final String rest = ran(launcher, out);
            assertEquals(List.of(), builds(dir), rest);
        } finally {
            holder.destroy();
        }
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
            + "echo nolock >> \"$root/builds.log\"; mkdir -p \"$root/cli/target\" && echo jar > \"$root/cli/target/nicsim.jar\"\n");
        final String out = ran(launch(dir, tools.toString()));
        assertTrue(out.startsWith("nicsim: flock not found (util-linux): building without the lock; launches started at once"
            + " may build at the same time\nnicsim: building the cli jar"), out);
        assertEquals(List.of("nolock"), builds(dir));
    }
}
