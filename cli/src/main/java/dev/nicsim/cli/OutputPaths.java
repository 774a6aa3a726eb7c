package dev.nicsim.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks the output paths of a command before anything is written, so no command writes outside
 * the outputs it names: an empty path (which would resolve to the current directory, and for a
 * Chronicle trace also to the filesystem root) is refused, and so are outputs that overlap (a
 * {@code --pcap} file that is also one of the run's own files, a trace directory that is the
 * output directory or inside it). Every refusal is an {@link OptionException} (exit 2) naming the
 * option and the path.
 *
 * <p>Thread-safety: stateless.
 */
final class OutputPaths {
    /** Files {@code nicsim run} writes into its output directory. */
    static final List<String> RUN_FILES = List.of("flows.csv", "queues.csv", "rates.csv", "throughput.csv",
        "classes.csv", "counters.csv", "run.json", "fct.txt", "throughput.png",
        "queues.png", "rates.png", "slowdown.png", "mailbox.csv", "tiers.csv", "hot_ports.csv");

    /** Files {@code nicsim replay} writes into its output directory. */
    static final List<String> REPLAY_FILES = List.of("events.csv", "results.csv", "mailbox.csv");
    /**
     * Marker file in an output directory while a command writes it: present after a command
     * failed part-way (its outputs are partial), removed when the command finished.
     */
    static final String PARTIAL_MARKER = "PARTIAL";

    private OutputPaths() {
    }

    /**
     * Starts writing an output directory: creates it, removes the files an earlier run of the
     * command left there (so no stale output survives beside new ones) and writes
     * {@link #PARTIAL_MARKER}, which {@link #finished} removes.
     *
     * @param dir   the output directory
     * @param files the files the command writes there
     * @param what  the command, for the marker's text
     * @throws IOException if the directory cannot be prepared (the caller reports why)
     */
    static void starting(final Path dir, final List<String> files, final String what) throws IOException {
        Files.createDirectories(dir);
        for (final String f : files) {
            Files.deleteIfExists(dir.resolve(f));
        }
        Files.writeString(dir.resolve(PARTIAL_MARKER), "nicsim " + what + " did not finish: the files beside this one"
            + " are partial. It is removed when the command finishes.\n", StandardCharsets.UTF_8);
    }

    /** Prefix of a staging directory's name. */
    static final String STAGING_PREFIX = ".nicsim-partial-";

    /**
     * Makes a staging directory inside an output directory ({@code .nicsim-partial-<random>}: on the
     * same file system, so the outputs move into place by renaming, and needing no more permission
     * than the output directory itself). A command writes its outputs there and {@link #commit}s them
     * when it finished, or {@link #discard}s them when it failed, so the output directory holds
     * either the earlier complete outputs or the new complete ones, never a mix. Only a process
     * killed outright leaves the staging directory behind, which its name says.
     *
     * @param dir the output directory (it exists)
     * @return the new, empty staging directory
     * @throws IOException if it cannot be made
     */
    static Path stage(final Path dir) throws IOException {
        return Files.createTempDirectory(dir, STAGING_PREFIX);
    }

    /**
     * Moves a finished command's outputs from its staging directory into the output directory:
     * first removes the files an earlier run left there ({@code files}, so no stale output survives
     * beside the new ones; other files stay) and a {@link #PARTIAL_MARKER} an earlier failed command
     * left, then renames every staged file into place and removes the staging directory.
     *
     * @param stage the staging directory ({@link #stage})
     * @param dir   the output directory
     * @param files the files the command writes
     * @throws IOException if a file cannot be removed or moved
     */
    static void commit(final Path stage, final Path dir, final List<String> files) throws IOException {
        Files.createDirectories(dir);
        for (final String f : files) {
            Files.deleteIfExists(dir.resolve(f));
        }
        Files.deleteIfExists(dir.resolve(PARTIAL_MARKER)); // an earlier failed command's: the directory is whole now
        final List<Path> staged;
        try (Stream<Path> s = Files.list(stage)) {
            staged = s.sorted().toList();
        }
        for (final Path p : staged) {
            Files.move(p, dir.resolve(p.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.delete(stage);
    }

    /**
     * Removes a staging directory and what it holds (a failed command's partial outputs); errors are
     * ignored, as the command is already failing with its own.
     *
     * @param stage the staging directory, or null
     */
    static void discard(final Path stage) {
        if (stage == null || !Files.isDirectory(stage)) {
            return;
        }
        try (Stream<Path> s = Files.list(stage)) {
            for (final Path p : (Iterable<Path>) s::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(stage);
        } catch (final IOException | RuntimeException e) {
            // best effort: the command reports its own failure
        }
    }

    /**
     * Marks an output directory complete (removes {@link #PARTIAL_MARKER}).
     *
     * @param dir the output directory
     * @throws IOException if the marker cannot be removed
     */
    static void finished(final Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(PARTIAL_MARKER));
    }

    /**
     * Refuses an empty path given to an option.
     *
     * @param option the option, e.g. {@code --out}
     * @param path   the path given, or null when the option was not given
     * @return path
     * @throws OptionException if the path is empty
     */
    static Path nonEmpty(final String option, final Path path) {
        if (path != null && path.toString().isBlank()) {
            throw new OptionException(option + ": the path is empty; give a file or directory name");
        }
        return path;
    }

    /**
     * @param p a path
     * @return its absolute, normalised form, for comparisons
     */
    static Path full(final Path p) {
        return p.toAbsolutePath().normalize();
    }

    /**
     * Refuses a trace directory that is the output directory or lies inside it or around it (a
     * trace directory holds trace files only, and the output directory is the run's).
     *
     * @param traceOption the trace option, e.g. {@code --record}
     * @param trace       the trace directory, or null
     * @param out         the output directory
     * @throws OptionException naming both when they overlap
     */
    static void traceApart(final String traceOption, final Path trace, final Path out) {
        if (trace == null) {
            return;
        }
        final Path t = full(trace);
        final Path o = full(out);
        if (t.startsWith(o) || o.startsWith(t)) {
            throw new OptionException(traceOption + " " + trace + ": the trace directory must lie outside the output"
                + " directory " + out + " (and not hold it)");
        }
    }

    /**
     * Refuses a file output that another output of the same command would overwrite or hide.
     *
     * @param option   the file's option, e.g. {@code --pcap}
     * @param file     the file, or null
     * @param out      the output directory
     * @param outFiles the files the command writes into {@code out}
     * @param trace    a trace directory the command writes, or null
     * @throws OptionException naming the clash
     */
    static void fileApart(final String option, final Path file, final Path out, final List<String> outFiles,
                          final Path trace) {
        if (file == null) {
            return;
        }
        final Path f = full(file);
        final Path o = full(out);
        if (f.equals(o) || o.startsWith(f)) {
            throw new OptionException(option + " " + file + ": is the output directory " + out + " (or holds it)");
        }
        if (f.getParent() != null && f.getParent().equals(o) && outFiles.contains(f.getFileName().toString())) {
            throw new OptionException(option + " " + file + ": the command writes its own " + f.getFileName() + " there;"
                + " give another file");
        }
        if (trace != null && f.startsWith(full(trace))) {
            throw new OptionException(option + " " + file + ": lies inside the trace directory " + trace);
        }
    }

    /**
     * Refuses an output file that is one of the command's input files (the same path, or the same
     * file through a link), which writing would overwrite before or while it is read, or that
     * lies beneath an input file (a path through a file, which cannot be created).
     *
     * @param option the output's option, e.g. {@code --to}
     * @param output the output file
     * @param input  a file the command reads
     * @throws OptionException naming the option, the output and the input
     */
    static void notAnInput(final String option, final Path output, final Path input) {
        boolean same = full(output).equals(full(input));
        if (!same && Files.exists(output) && Files.exists(input)) {
            try {
                same = Files.isSameFile(output, input);
            } catch (final IOException e) {
                same = false; // cannot tell: the paths differ, and writing reports any error
            }
        }
        if (same) {
            throw new OptionException(option + " " + output + ": is an input of this command (" + input
                + "); writing it would overwrite it; give another file");
        }
        if (full(output).startsWith(full(input)) && Files.isRegularFile(input)) {
            throw new OptionException(option + " " + output + ": lies beneath the input file " + input
                + ", which is not a directory; give another file");
        }
    }

    /** What the running command writes, for messages about write errors that name no file. */
    private static volatile List<Path> writing = List.of();

    /**
     * Records what the running command writes (its output directory, trace, capture), so that a
     * write error the JDK reports without a path ("No space left on device") can name them
     * ({@link IoErrors#describe}). {@link NicsimCommand#execute} clears it before each command.
     *
     * @param targets the outputs; nulls are left out
     */
    static void setWriting(final Path... targets) {
        final List<Path> l = new ArrayList<>();
        for (final Path t : targets) {
            if (t != null) {
                l.add(t);
            }
        }
        writing = List.copyOf(l);
    }

    /** @return what the running command writes, in the order given; empty before it writes */
    static List<Path> writing() {
        return writing;
    }
}
