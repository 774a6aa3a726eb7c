package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
import dev.nicsim.cli.NicsimCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shared by the issue-23 tests: a small scenario and the bad-input contract (exit 2, one line, no stack trace). */
final class Hostile {
    /** 3 hosts on one switch, 2 senders of 5000 B into host 0: a run of a few ms of CPU. */
    static final String SMALL = """
        name: hostile
        seed: 1
        stop_time_us: 100
        topology:
          type: star
          hosts: 3
          host_link: {rate_gbps: 100, delay_ns: 1000}
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 2
          size_bytes: 5000
        """;

    private Hostile() {
    }

    /**
     * Skips the test (fails it under {@code -Dnicsim.requireTools=true}) unless make and
     * riscv64-unknown-elf-gcc are on the PATH.
     */
    static void needFirmwareTools() {
        for (final String tool : new String[] {"make", "riscv64-unknown-elf-gcc"}) {
            boolean found = false;
            for (final String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                found |= !d.isEmpty() && Files.isExecutable(Path.of(d, tool));
            }
            if (!found) {
                final String reason = tool + " not on PATH (Debian packages make, gcc-riscv64-unknown-elf)";
                if (Boolean.getBoolean("nicsim.requireTools")) {
                    org.junit.jupiter.api.Assertions.fail(reason + ", and nicsim.requireTools=true");
                }
                org.junit.jupiter.api.Assumptions.abort(reason + ": firmware build skipped");
            }
        }
    }

    /**
     * The start of a command line that runs a class of the test class path in a child JVM with the
     * JVM flags the tests run with (Agrona and Chronicle need their --add-exports/--add-opens).
     *
     * @param heap      the child's -Xmx, e.g. {@code "64m"}
     * @param mainClass the class to run
     * @return java, flags, class path and class
     */
    static List<String> childJvm(final String heap, final Class<?> mainClass) {
        final List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Dagrona")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-Xmx" + heap, "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        return cmd;
    }

    /**
     * Runs a build tool and expects exit 0.
     *
     * @param dir     working directory
     * @param command the command
     */
    static void exec(final Path dir, final String... command) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        final String log = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "did not finish: " + Arrays.toString(command));
        assertEquals(0, p.exitValue(), Arrays.toString(command) + ": " + log);
    }

    /**
     * Runs the command line and checks the bad-input contract.
     *
     * @param args arguments
     * @return the one line on standard error
     */
    static String badInput(final String... args) {
        final Cli.Outcome o = Cli.run(args);
        assertEquals(NicsimCommand.EXIT_BAD_INPUT, o.exitCode(), Arrays.toString(args) + ": " + o.out() + o.err());
        final List<String> lines = o.errLines();
        assertEquals(1, lines.size(), "stderr: " + o.err());
        final String line = lines.get(0);
        assertTrue(line.startsWith("nicsim: "), line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), line);
        return line;
    }

    /**
     * Runs the command line and expects exit 0.
     *
     * @param args arguments
     * @return the outcome
     */
    static Cli.Outcome ok(final String... args) {
        final Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.exitCode(), Arrays.toString(args) + ": " + o.out() + o.err());
        return o;
    }

    /**
     * @param dir a directory
     * @return the names of its entries, sorted
     */
    static List<String> names(final Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Writes the small scenario.
     *
     * @param dir  where
     * @param text scenario text
     * @return the file
     */
    static Path scenario(final Path dir, final String text) throws IOException {
        return Files.writeString(dir.resolve("s.yaml"), text);
    }
}
