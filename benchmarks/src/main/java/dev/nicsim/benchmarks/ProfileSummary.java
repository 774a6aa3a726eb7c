package dev.nicsim.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a nicsim run's time goes, from a CPU profile in collapsed-stack form (one line per distinct
 * stack: frames root first, separated by {@code ;}, a space, the sample count), the form
 * async-profiler writes with its {@code collapsed} option and {@code benchmarks/profile.sh}
 * records. Prints the split the performance notes use (docs/performance.md, "Where the time
 * goes"):
 * <ul>
 *   <li>by thread role: the event loop (stacks through {@code Simulator.runUntil}, sequential or
 *       a partition's), a partitioned run's window work outside the loop (stacks through
 *       {@code PartitionedRun} or {@code WindowScheduler} but not {@code runUntil}: waiting for
 *       the window's other partitions, cut-link hand-over), the JIT compiler threads
 *       ({@code CompileBroker}), GC and VM operations, and the rest (start-up, scenario loading,
 *       reports);</li>
 *   <li>inside the event loop, by the event being handled: the handler frame right under
 *       {@code runUntil}, with a port's event ({@code EgressPort.onEvent}) split by what it called
 *       (a delivery into a switch or a NIC, the next frame's start, the wire FIFO's next delivery)
 *       and the kernel's own work (pop, look-ahead, bucket scan) counted as "kernel";</li>
 *   <li>the hottest methods by self samples (the stack's last frame).</li>
 * </ul>
 * Frame names may carry async-profiler's type suffixes ({@code _[j]}, {@code _[i]}, {@code _[k]},
 * {@code _[0]}); they are stripped. Output is deterministic for a given file: equal counts are
 * ordered by name.
 *
 * <p>Thread-safety: instances are not thread-safe; {@link #main} is.
 */
public final class ProfileSummary {

    /** The kernel's run loop: a stack through it is event-loop time. */
    static final String RUN_LOOP = "dev/nicsim/sim/Simulator.runUntil";
    private static final String PORT_EVENT = "dev/nicsim/sim/EgressPort.onEvent";
    /** A partitioned run's window protocol and its scheduler (the workers' loop, the claims, the barrier wait). */
    private static final String PARTITIONED_RUN = "dev/nicsim/sim/PartitionedRun";
    private static final String WINDOW_SCHEDULER = "dev/nicsim/sim/WindowScheduler";

    /** Row names of the thread-role split, in print order. */
    static final String EVENT_LOOP = "event loop (Simulator.runUntil)";
    static final String WINDOWS = "partition windows outside the loop (waits, hand-over)";
    static final String JIT = "JIT compiler threads";
    static final String GC_VM = "GC and VM operations";
    static final String OTHER = "start-up, scenario loading, reports, other";

    private long totalSamples;
    private final Map<String, Long> byRole = new HashMap<>();
    private final Map<String, Long> byEvent = new HashMap<>();
    private final Map<String, Long> bySelf = new HashMap<>();

    /**
     * Adds one collapsed-stack line.
     *
     * @param line   frames separated by {@code ;}, a space, a positive sample count
     * @param lineNo 1-based line number, for the error message
     * @throws IllegalArgumentException if the line has no count or the count is not a positive integer
     */
    void add(final String line, final int lineNo) {
        final int sp = line.lastIndexOf(' ');
        final long n;
        try {
            if (sp <= 0) {
                throw new NumberFormatException();
            }
            n = Long.parseLong(line.substring(sp + 1).trim());
            if (n <= 0) {
                throw new NumberFormatException();
            }
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("line " + lineNo
                + ": expected 'frame;frame;... COUNT' with a positive integer COUNT");
        }
        final String[] frames = line.substring(0, sp).split(";");
        for (int i = 0; i < frames.length; i++) {
            frames[i] = strip(frames[i]);
        }
        totalSamples += n;
        bySelf.merge(frames[frames.length - 1], n, Long::sum);
        int loop = -1;
        for (int i = 0; i < frames.length; i++) {
            if (frames[i].equals(RUN_LOOP)) {
                loop = i;
                break;
            }
        }
        if (loop >= 0) {
            byRole.merge(EVENT_LOOP, n, Long::sum);
            byEvent.merge(eventOf(frames, loop), n, Long::sum);
        } else {
            byRole.merge(roleOf(frames), n, Long::sum);
        }
    }

    private static String strip(final String frame) {
        final int n = frame.length();
        if (n > 4 && frame.charAt(n - 1) == ']' && frame.charAt(n - 4) == '_' && frame.charAt(n - 3) == '[') {
            return frame.substring(0, n - 4);
        }
        return frame;
    }

    private static String roleOf(final String[] frames) {
        for (final String f : frames) {
            if (f.startsWith("CompileBroker::") || f.startsWith("C2Compiler::") || f.startsWith("Compiler::")) {
                return JIT;
            }
        }
        for (final String f : frames) {
            if (f.startsWith("VMThread::") || f.startsWith("GCTaskThread") || f.startsWith("WorkerThread::")
                || f.startsWith("ConcurrentGCThread::") || f.contains("GC::") || f.startsWith("SafepointSynchronize::")) {
                return GC_VM;
            }
        }
        for (final String f : frames) {
            if (f.startsWith(PARTITIONED_RUN) || f.startsWith(WINDOW_SCHEDULER)) {
                return WINDOWS;
            }
        }
        return OTHER;
    }

    /** The event a loop stack was handling: the frame under {@code runUntil}, ports split by callee. */
    private static String eventOf(final String[] frames, final int loop) {
        if (loop + 1 >= frames.length) {
            return "kernel (run loop itself: pop, dispatch)";
        }
        final String handler = frames[loop + 1];
        if (handler.startsWith("dev/nicsim/sim/Simulator.")) {
            return "kernel (" + shortName(handler) + ")";
        }
        if (!handler.equals(PORT_EVENT)) {
            return "event: " + shortName(handler);
        }
        final String callee = loop + 2 < frames.length ? frames[loop + 2] : "";
        if (callee.endsWith(".receive")) {
            return "link delivery into " + shortName(callee);
        }
        if (callee.equals("dev/nicsim/sim/EgressPort.kick")) {
            return "end of frame / pause end -> next frame (EgressPort.kick)";
        }
        return "link delivery: wire FIFO head and next delivery's schedule (EgressPort.onEvent)";
    }

    private static String shortName(final String frame) {
        final int slash = frame.lastIndexOf('/');
        return slash >= 0 ? frame.substring(slash + 1) : frame;
    }

    /**
     * Prints the split.
     *
     * @param out     where to print
     * @param topSelf how many hottest methods to list, 0 or more
     */
    void print(final PrintStream out, final int topSelf) {
        out.printf(Locale.ROOT, "%,d samples%n", totalSamples);
        out.println("by thread role:");
        for (final String role : new String[] {EVENT_LOOP, WINDOWS, JIT, GC_VM, OTHER}) {
            row(out, "  ", role, byRole.getOrDefault(role, 0L));
        }
        out.println("inside the event loop, by event handled (share of all samples):");
        for (final Map.Entry<String, Long> e : sorted(byEvent)) {
            row(out, "  ", e.getKey(), e.getValue());
        }
        out.println("hottest methods, self samples:");
        final List<Map.Entry<String, Long>> self = sorted(bySelf);
        for (int i = 0; i < Math.min(topSelf, self.size()); i++) {
            row(out, "  ", self.get(i).getKey().replace('/', '.'), self.get(i).getValue());
        }
    }

    private void row(final PrintStream out, final String indent, final String name, final long n) {
        out.printf(Locale.ROOT, "%s%-78s %9d %6.1f %%%n", indent, name, n,
            totalSamples == 0 ? 0.0 : 100.0 * n / totalSamples);
    }

    private static List<Map.Entry<String, Long>> sorted(final Map<String, Long> m) {
        final List<Map.Entry<String, Long>> l = new ArrayList<>(m.entrySet());
        l.sort((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey())
            : Long.compare(b.getValue(), a.getValue()));
        return l;
    }

    /** @return samples read so far */
    long totalSamples() {
        return totalSamples;
    }

    /**
     * @param key a row name ({@link #EVENT_LOOP}, {@link #WINDOWS}, {@link #JIT}, {@link #GC_VM},
     *            {@link #OTHER}) or
     *            an event row as printed
     * @return samples counted under it, 0 if none
     */
    long samples(final String key) {
        return byRole.containsKey(key) ? byRole.get(key) : byEvent.getOrDefault(key, 0L);
    }

    /** @return self samples of a frame (slashes as in the file), 0 if none */
    long selfSamples(final String frame) {
        return bySelf.getOrDefault(frame, 0L);
    }

    /**
     * Reads a collapsed-stack file.
     *
     * @param file the file
     * @return the summary
     * @throws IllegalArgumentException naming the file and line, if a line is malformed or the file
     *                                  has no samples
     * @throws UncheckedIOException     if the file cannot be read
     */
    static ProfileSummary read(final Path file) {
        final ProfileSummary s = new ProfileSummary();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int lineNo = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    s.add(line, lineNo);
                } catch (final IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ": " + e.getMessage());
                }
            }
        } catch (final NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (final IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        if (s.totalSamples == 0) {
            throw new IllegalArgumentException(file + ": no samples (expected async-profiler collapsed stacks)");
        }
        return s;
    }

    /**
     * {@code java -cp benchmarks.jar dev.nicsim.benchmarks.ProfileSummary FILE [TOP]}: prints the
     * split of FILE (collapsed stacks) and its TOP (default 25) hottest methods. Exits 2 with a
     * one-line message on bad arguments or a malformed file.
     *
     * @param args FILE and optionally TOP
     */
    public static void main(final String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: ProfileSummary FILE.collapsed [TOP]");
            System.exit(2);
        }
        int top = 25;
        try {
            if (args.length == 2) {
                top = Integer.parseInt(args[1]);
                if (top < 0) {
                    throw new NumberFormatException();
                }
            }
            read(Path.of(args[0])).print(System.out, top);
        } catch (final NumberFormatException e) {
            System.err.println("ProfileSummary: TOP must be a non-negative integer, got '" + args[1] + "'");
            System.exit(2);
        } catch (final IllegalArgumentException | UncheckedIOException e) {
            System.err.println("ProfileSummary: " + e.getMessage());
            System.exit(2);
        }
    }
}
