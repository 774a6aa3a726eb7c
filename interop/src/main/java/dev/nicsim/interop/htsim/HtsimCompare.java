package dev.nicsim.interop.htsim;

import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.run.HtsimLines;
import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.ScenarioException;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A nicsim run beside one experiment of uet-htsim's validation output ({@code nicsim htsim compare}):
 * tail FCT (the last finish), the FCT spread's minimum (the first finish), both in us, and the
 * packet counts New, Rtx, ACKs, NACKs and Pulls, each with nicsim's relative difference to htsim's.
 * The run's figures are {@link HtsimLines} of its {@code flows.csv} and {@code counters.csv}.
 *
 * <p>The validation output ({@code validate_outputs/*.out}, what htsim's {@code validate.py} prints)
 * holds per experiment an {@code Experiment: NAME} line, the {@code Running ...} command line,
 * {@code [PASS]}/{@code [FAIL] Tail FCT X us ...}, {@code FCT Spread MIN -> MAX ratio R} and
 * {@code Summary: New: N Rtx: N ... ACKs: N NACKs: N Pulls: N ...}.
 *
 * <p>Thread-safety: stateless.
 */
public final class HtsimCompare {
    /** The counts compared, in order, as htsim's summary names them. */
    public static final List<String> COUNTS = List.of("New", "Rtx", "ACKs", "NACKs", "Pulls");

    /**
     * One experiment of a validation output.
     *
     * @param name        its name (the {@code Experiment:} line, trimmed)
     * @param line        1-based line of the {@code Experiment:} line
     * @param command     the htsim command line run, or empty
     * @param minUs       the FCT spread's first value, us
     * @param tailUs      the FCT spread's last value (the tail FCT), us
     * @param counts      the summary's counts by name ({@link #COUNTS} at least)
     */
    public record Experiment(String name, int line, String command, double minUs, double tailUs, Map<String, Long> counts) {
    }

    private HtsimCompare() {
    }

    /**
     * Reads every experiment of a validation output.
     *
     * @param file the {@code .out} file
     * @return its experiments in file order
     * @throws ScenarioException {@code file:line: ...} for a missing file, an experiment without its
     *                           spread or summary line, or a malformed number
     */
    public static List<Experiment> readOutput(final Path file) {
        final Ns3Lines lines = Ns3Lines.read(file, "validation output");
        final List<Experiment> out = new ArrayList<>();
        String name = null;
        int at = 0;
        String command = "";
        double min = Double.NaN;
        double tail = Double.NaN;
        for (final Ns3Lines.Line l : lines.lines()) {
            final String[] t = l.tokens();
            if (t[0].equals("Experiment:")) {
                if (name != null) {
                    throw lines.error(l.number(), "experiment '" + name + "' (line " + at + ") has no 'Summary: New: ...' line");
                }
                name = String.join(" ", java.util.Arrays.copyOfRange(t, 1, t.length));
                at = l.number();
                command = "";
                min = Double.NaN;
                tail = Double.NaN;
            } else if (name != null && t[0].equals("Running")) {
                command = String.join(" ", java.util.Arrays.copyOfRange(t, 1, t.length));
            } else if (name != null && t.length >= 5 && t[0].equals("FCT") && t[1].equals("Spread") && t[3].equals("->")) {
                min = lines.number(l, 2, "FCT Spread MIN (us)", 0, 1e12);
                tail = lines.number(l, 4, "FCT Spread MAX (us)", 0, 1e12);
            } else if (name != null && t[0].equals("Summary:")) {
                if (Double.isNaN(tail)) {
                    throw lines.error(l.number(), "experiment '" + name + "' (line " + at + ") has no 'FCT Spread MIN -> MAX'"
                        + " line before its summary");
                }
                final Map<String, Long> counts = new HashMap<>();
                for (int i = 1; i + 1 < t.length; i += 2) {
                    if (!t[i].endsWith(":")) {
                        throw lines.error(l.number(), "expected 'NAME: COUNT' pairs after 'Summary:', got '" + t[i] + "'");
                    }
                    counts.put(t[i].substring(0, t[i].length() - 1), lines.integer(l, i + 1, t[i], 0, Long.MAX_VALUE));
                }
                for (final String c : COUNTS) {
                    if (!counts.containsKey(c)) {
                        throw lines.error(l.number(), "expected '" + c + ": N' in the summary, found none");
                    }
                }
                out.add(new Experiment(name, at, command, min, tail, Map.copyOf(counts)));
                name = null;
            }
        }
        if (name != null) {
            throw lines.error(at, "experiment '" + name + "' has no 'Summary: New: ...' line");
        }
        if (out.isEmpty()) {
            throw new ScenarioException(file + ": no experiment ('Experiment: NAME' ... 'Summary: New: ...') found");
        }
        return out;
    }

    /**
     * Chooses one experiment: by name (or 1-based number) when given, else the only one, else the only
     * one whose command runs the run's connection matrix (the scenario name after {@code htsim-}).
     *
     * @param file        the validation output (for messages)
     * @param experiments its experiments
     * @param wanted      {@code --experiment}, or null
     * @param scenario    the run's scenario name, or null
     * @return the experiment
     * @throws ScenarioException naming the candidates when the choice is not unique
     */
    public static Experiment choose(final Path file, final List<Experiment> experiments, final String wanted,
                                    final String scenario) {
        final List<Experiment> hits = new ArrayList<>();
        if (wanted != null) {
            for (int i = 0; i < experiments.size(); i++) {
                final Experiment e = experiments.get(i);
                if (e.name().equals(wanted.trim()) || wanted.trim().equals(Integer.toString(i + 1))) {
                    hits.add(e);
                }
            }
        } else if (experiments.size() == 1) {
            hits.add(experiments.get(0));
        } else if (scenario != null && scenario.startsWith(HtsimLines.SCENARIO_PREFIX)) {
            final String stem = scenario.substring(HtsimLines.SCENARIO_PREFIX.length());
            for (final Experiment e : experiments) {
                if (e.command().matches(".*-tm \\S*?\\b" + java.util.regex.Pattern.quote(stem) + "\\.(cm|tm)\\b.*")) {
                    hits.add(e);
                }
            }
        }
        if (hits.size() == 1) {
            return hits.get(0);
        }
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < experiments.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(i + 1).append(" '").append(experiments.get(i).name()).append('\'');
        }
        throw new ScenarioException("--experiment: " + file + " holds " + experiments.size() + " experiments; "
            + (wanted != null ? "none is '" + wanted + "'" : hits.isEmpty() ? "none runs the run's connection matrix"
            : hits.size() + " run the run's connection matrix") + "; name one by name or number: " + b);
    }

    /**
     * A run's figures from its output directory.
     *
     * @param runDir the directory of a {@code nicsim run} ({@code flows.csv}, {@code counters.csv})
     * @return the figures
     * @throws ScenarioException {@code file:line: ...} for a missing or malformed file
     */
    public static HtsimLines runFigures(final Path runDir) {
        final List<FlowRecord> flows = new ArrayList<>();
        final Path flowsCsv = runDir.resolve("flows.csv");
        final List<String[]> rows = csv(flowsCsv, "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown");
        for (int i = 0; i < rows.size(); i++) {
            final String[] r = rows.get(i);
            final long start = number(flowsCsv, i + 2, r[4], "start_ns");
            final long fct = r[5].isEmpty() ? -1 : number(flowsCsv, i + 2, r[5], "fct_ns");
            flows.add(new FlowRecord(i, 0, 0, 0, start, fct, 1));
        }
        final Path countersCsv = runDir.resolve("counters.csv");
        // rows of host counters by name; only the counters the figures read are parsed (others, such as an
        // algorithm's signed byte sums, may hold any integer)
        final Map<String, List<Integer>> hostRows = new HashMap<>();
        final List<String[]> cs = csv(countersCsv, "component,counter,value");
        for (int i = 0; i < cs.size(); i++) {
            if (cs.get(i)[0].startsWith(HtsimLines.HOSTS)) {
                hostRows.computeIfAbsent(cs.get(i)[1], k -> new ArrayList<>()).add(i);
            }
        }
        return HtsimLines.of(flows, c -> {
            long sum = 0;
            for (final int i : hostRows.getOrDefault(c, List.of())) {
                sum += number(countersCsv, i + 2, cs.get(i)[2], "value");
            }
            return sum;
        });
    }

    /**
     * The scenario name a run's {@code run.json} records.
     *
     * @param runDir the run's directory
     * @return the name, or null when {@code run.json} is absent or names none
     */
    public static String scenarioName(final Path runDir) {
        try {
            final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"scenario\"\\s*:\\s*\"([^\"]*)\"")
                .matcher(Files.readString(runDir.resolve("run.json")));
            return m.find() ? m.group(1) : null;
        } catch (final java.io.IOException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /** The data rows of a CSV file with the given header, split at commas. */
    private static List<String[]> csv(final Path file, final String header) {
        final List<String> text;
        try {
            text = Files.readAllLines(file);
        } catch (final java.nio.file.NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file (expected the output directory of nicsim run)");
        } catch (final java.io.IOException e) {
            throw new ScenarioException(file + ": cannot be read: " + e.getMessage());
        } catch (final java.io.UncheckedIOException e) {
            throw new ScenarioException(file + ": cannot be read: " + e.getMessage());
        }
        if (text.isEmpty() || !text.get(0).equals(header)) {
            throw new ScenarioException(file + ":1: expected the header '" + header + "'");
        }
        final int fields = header.split(",").length;
        final List<String[]> rows = new ArrayList<>();
        for (int i = 1; i < text.size(); i++) {
            final String[] r = text.get(i).split(",", -1);
            if (r.length != fields) {
                throw new ScenarioException(file + ":" + (i + 1) + ": expected " + fields + " comma-separated fields, got "
                    + r.length);
            }
            rows.add(r);
        }
        return rows;
    }

    private static long number(final Path file, final int line, final String text, final String what) {
        try {
            final long v = Long.parseLong(text);
            if (v >= 0) {
                return v;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new ScenarioException(file + ":" + line + ": " + what + ": expected a non-negative integer, got '" + text + "'");
    }

    /**
     * Prints the two side by side.
     *
     * @param out    where to print
     * @param file   the validation output
     * @param e      htsim's experiment
     * @param run    nicsim's figures
     */
    public static void print(final PrintStream out, final Path file, final Experiment e, final HtsimLines run) {
        out.println("experiment     " + e.name() + " (" + file.getFileName() + ":" + e.line() + ")");
        if (!e.command().isEmpty()) {
            out.println("htsim command  " + e.command());
        }
        out.printf(Locale.ROOT, "flows finished %d / %d%n", run.finished(), run.flows());
        out.printf(Locale.ROOT, "%-14s %12s %12s %9s%n", "figure", "nicsim", "htsim", "diff");
        row(out, "tail FCT (us)", run.lastFinishUs(), e.tailUs(), true);
        row(out, "min FCT (us)", run.firstFinishUs(), e.minUs(), true);
        final long[] ours = {run.newPackets(), run.rtxPackets(), run.acks(), run.nacks(), run.pulls()};
        for (int i = 0; i < COUNTS.size(); i++) {
            row(out, COUNTS.get(i), ours[i], e.counts().get(COUNTS.get(i)), false);
        }
    }

    /** One row: nicsim, htsim and (nicsim - htsim) / htsim in percent ("-" when both are 0, "n/a" when only htsim's is). */
    private static void row(final PrintStream out, final String what, final double ours, final double theirs,
                            final boolean us) {
        final String a = Double.isNaN(ours) ? "-" : us ? String.format(Locale.ROOT, "%.3f", ours) : Long.toString((long) ours);
        final String b = us ? String.format(Locale.ROOT, "%.3f", theirs) : Long.toString((long) theirs);
        out.printf(Locale.ROOT, "%-14s %12s %12s %9s%n", what, a, b, relative(ours, theirs));
    }

    /**
     * The relative difference as printed.
     *
     * @param ours   nicsim's value (NaN when it has none)
     * @param theirs htsim's value
     * @return e.g. {@code +1.23 %}, {@code -} when both are 0 or ours is missing, {@code n/a} when only htsim's is 0
     */
    public static String relative(final double ours, final double theirs) {
        if (Double.isNaN(ours) || ours == 0 && theirs == 0) {
            return "-";
        }
        if (theirs == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%+.2f %%", 100 * (ours - theirs) / theirs);
    }
}
