package dev.nicsim.sweep;

import dev.nicsim.fabric.run.Utf8Lines;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.riscv.IoReasons;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sweep file: the scenario, its axes (cartesian product), zip groups (keys that vary together,
 * index by index), fixed overrides and seeds, read from YAML with {@code file:line} errors.
 *
 * <pre>
 * name: dcqcn-g-vs-load            # optional, default the file name
 * scenario: ../scenarios/x.yaml    # relative to the sweep file
 * set:  {workload.flows: 300}      # optional: --set overrides of every point
 * axes: {workload.load: [0.3, 0.5], algorithm.name: [dcqcn, hpcc]}
 * zip:  [{switch.wred.kmin_bytes: [1, 2], switch.wred.kmax_bytes: [3, 4]}]
 * seeds: [1, 2]
 * </pre>
 *
 * <p>Each key is a scenario path as {@code nicsim run --set} takes it; each value is passed as the
 * text after {@code =}. The dimensions of the product are the axes in file order, then the zip
 * groups in file order; points are numbered from 0 with the first dimension varying slowest.
 * {@link #validate} loads the scenario once with the fixed overrides and once more for every value
 * of every axis on its own, so a path that does not exist or a value its field rejects is reported
 * before anything runs; a combination of valid values that the fabric cannot build (e.g. HPCC on a
 * link rate its INT records cannot encode) only fails its own points.
 *
 * <p>Thread-safety: immutable after {@link #load}.
 */
public final class SweepSpec {
    /**
     * Most runs (points x seeds) a sweep may have, checked when the file is read (before any
     * scenario is loaded or Spark started). The driver holds every run's task and result row in
     * memory and submits every run as a Spark job, so a product of millions exhausts the heap before
     * the first point finishes; at a tenth of a second a point (the smallest scenarios) this limit
     * is already hours of work.
     */
    public static final int MAX_RUNS = 100_000;

    /**
     * One dimension of the product: an axis (one key) or a zip group (several keys).
     *
     * @param keys   scenario paths, in file order
     * @param values {@code values.get(i).get(k)} is the text of key {@code k} at index {@code i}
     * @param lines  the 1-based line of each index's first value, for messages
     */
    public record Dimension(List<String> keys, List<List<String>> values, List<Integer> lines) {
        /** @return the dimension's name: its keys joined by {@code +} */
        public String name() {
            return String.join("+", keys);
        }

        /**
         * @param index value index
         * @return the label of one index: the values joined by {@code /}
         */
        public String label(final int index) {
            return String.join("/", values.get(index));
        }

        /** @return the number of values */
        public int size() {
            return values.size();
        }
    }

    private final Path file;
    private final String name;
    private final Path scenario;
    private final List<String> fixed;
    private final List<Dimension> dimensions;
    private final List<Long> seeds;

    private SweepSpec(final Path file, final String name, final Path scenario, final List<String> fixed,
                      final List<Dimension> dimensions, final List<Long> seeds) {
        this.file = file;
        this.name = name;
        this.scenario = scenario;
        this.fixed = fixed;
        this.dimensions = dimensions;
        this.seeds = seeds;
    }

    /**
     * Reads and checks the structure of a sweep file (not yet the values: see {@link #validate}).
     *
     * @param file the sweep YAML file
     * @return the sweep
     * @throws SweepException with {@code file:line: ...} on any structural error; {@code file: cannot
     *         read: REASON} (from {@code IoReasons.why}) when the file cannot be read, {@code file:line:
     *         cannot read: not UTF-8 text ...} (the line of the first malformed byte) when it is not UTF-8
     */
    public static SweepSpec load(final Path file) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new SweepException(file + ": no such sweep file");
        } catch (final CharacterCodingException e) {
            long line;
            try {
                line = Utf8Lines.firstMalformedLine(file);
            } catch (final IOException again) {
                line = -1;
            }
            throw new SweepException(file + (line > 0 ? ":" + line : "") + ": cannot read: " + IoReasons.why(e));
        } catch (final IOException e) {
            // why in words (not a directory, is a directory, permission denied, not UTF-8), not the JDK's raw text
            throw new SweepException(file + ": cannot read: " + IoReasons.why(e));
        }
        return parse(file, text);
    }

    /**
     * Checks the structure of a sweep file whose text is already in memory (what {@link #load} does
     * after reading the file). The scenario it names is looked for relative to {@code file}.
     *
     * @param file the sweep file's path (names it in messages; not read)
     * @param text the YAML text
     * @return the sweep
     * @throws SweepException with {@code file:line: ...} on any structural error, or when the sweep has
     *         more than {@link #MAX_RUNS} runs (naming the {@code seeds} list, or the axis or zip group that passes it)
     */
    public static SweepSpec parse(final Path file, final String text) {
        final Node root;
        try {
            final LoaderOptions lo = new LoaderOptions();
            lo.setAllowDuplicateKeys(true); // reported below with the line
            root = new Yaml(lo).compose(new StringReader(text));
        } catch (final YAMLException e) {
            throw new SweepException(ScenarioLoader.yamlError(file, e));
        }
        if (!(root instanceof MappingNode top)) {
            throw new SweepException(file + ":1: expected a mapping with scenario, axes and seeds");
        }
        final Map<String, NodeTuple> fields = fields(file, top, Set.of("name", "scenario", "set", "axes", "zip", "seeds"));
        final String defaultName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        final String name = fields.containsKey("name") ? scalar(file, fields.get("name").getValueNode(), "name") : defaultName;
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new SweepException((fields.containsKey("name") ? at(file, fields.get("name").getValueNode())
                : file + ":1: (no name:, so the file name) ") + "name: expected letters, digits, '.', '_' or '-'"
                + " only, got '" + name + "'");
        }
        if (!fields.containsKey("scenario")) {
            throw new SweepException(file + ":1: scenario: missing; expected the scenario file, relative to the sweep file");
        }
        final Node scenarioNode = fields.get("scenario").getValueNode();
        final Path base = file.toAbsolutePath().getParent();
        final Path scenario = base.resolve(scalar(file, scenarioNode, "scenario")).normalize();
        if (!Files.isRegularFile(scenario)) {
            throw new SweepException(at(file, scenarioNode) + "scenario: no such file " + scenario);
        }
        final Set<String> seen = new HashSet<>();
        final List<String> fixed = new ArrayList<>();
        if (fields.containsKey("set")) {
            final MappingNode set = mapping(file, fields.get("set").getValueNode(), "set");
            for (final Map.Entry<String, NodeTuple> e : fields(file, set, null).entrySet()) {
                checkKey(file, e.getValue(), e.getKey(), seen);
                fixed.add(e.getKey() + "=" + valueText(file, e.getValue().getValueNode(), "set." + e.getKey()));
            }
        }
        final List<Dimension> dims = new ArrayList<>();
        if (fields.containsKey("axes")) {
            final MappingNode axes = mapping(file, fields.get("axes").getValueNode(), "axes");
            for (final Map.Entry<String, NodeTuple> e : fields(file, axes, null).entrySet()) {
                checkKey(file, e.getValue(), e.getKey(), seen);
                dims.add(dimension(file, List.of(e.getValue()), "axes"));
            }
        }
        if (fields.containsKey("zip")) {
            final Node zip = fields.get("zip").getValueNode();
            if (!(zip instanceof SequenceNode groups)) {
                throw new SweepException(at(file, zip) + "zip: expected a list of mappings {path: [values], path: [values]}");
            }
            for (final Node g : groups.getValue()) {
                final MappingNode group = mapping(file, g, "zip");
                final List<NodeTuple> tuples = new ArrayList<>();
                for (final Map.Entry<String, NodeTuple> e : fields(file, group, null).entrySet()) {
                    checkKey(file, e.getValue(), e.getKey(), seen);
                    tuples.add(e.getValue());
                }
                if (tuples.isEmpty()) {
                    throw new SweepException(at(file, g) + "zip: expected at least one path in each group");
                }
                dims.add(dimension(file, tuples, "zip"));
            }
        }
        if (!fields.containsKey("seeds")) {
            throw new SweepException(file + ":1: seeds: missing; expected a list of seeds, e.g. [1, 2]");
        }
        final List<Long> seeds = new ArrayList<>();
        final Node seedsNode = fields.get("seeds").getValueNode();
        if (!(seedsNode instanceof SequenceNode sq) || sq.getValue().isEmpty()) {
            throw new SweepException(at(file, seedsNode) + "seeds: expected a non-empty list of integers, e.g. [1, 2]");
        }
        if (sq.getValue().size() > MAX_RUNS) {
            throw new SweepException(at(file, seedsNode) + "seeds: " + sq.getValue().size() + " seeds are more than " + MAX_RUNS
                + " runs (points x seeds), the limit of a sweep; expected fewer seeds, or several sweeps");
        }
        final Set<Long> distinctSeeds = new HashSet<>();
        for (final Node s : sq.getValue()) {
            final String t = scalar(file, s, "seeds");
            final long v;
            try {
                v = Long.parseLong(t);
            } catch (final NumberFormatException ex) {
                throw new SweepException(at(file, s) + "seeds: expected an integer >= 0, got '" + t + "'");
            }
            if (v < 0 || !distinctSeeds.add(v)) {
                throw new SweepException(at(file, s) + "seeds: expected distinct integers >= 0, got " + t
                    + (v < 0 ? "" : " twice"));
            }
            seeds.add(v);
        }
        // the driver keeps every run's task and row in memory, and points are numbered with an int
        long runs = seeds.size();
        for (final Dimension d : dims) {
            runs *= d.size(); // at most MAX_RUNS x (2^31 - 1): no overflow
            if (runs > MAX_RUNS) {
                throw new SweepException(file + ":" + d.lines().get(0) + ": " + (d.keys().size() == 1 ? "axis " : "zip ")
                    + d.name() + ": the sweep reaches " + runs + " runs (points x seeds) here, more than " + MAX_RUNS
                    + ", the limit of a sweep; expected fewer axes, values or seeds, or several sweeps");
            }
        }
        return new SweepSpec(file, name, scenario, List.copyOf(fixed), List.copyOf(dims), List.copyOf(seeds));
    }

    /**
     * Checks every path and value against the scenario before any run: the scenario with the fixed
     * overrides, then with each value of each axis alone (zip groups: each index's values together).
     *
     * @throws SweepException naming the file, line, axis and value, with the scenario loader's reason
     */
    public void validate() {
        try {
            ScenarioLoader.load(scenario, fixed, null);
        } catch (final ScenarioException e) {
            throw new SweepException(file + ": scenario " + scenario.getFileName() + " with the set overrides: " + e.getMessage());
        }
        for (final Dimension d : dimensions) {
            for (int i = 0; i < d.size(); i++) {
                final List<String> overrides = new ArrayList<>(fixed);
                overrides.addAll(overrides(d, i));
                try {
                    ScenarioLoader.load(scenario, overrides, null);
                } catch (final ScenarioException e) {
                    throw new SweepException(file + ":" + d.lines().get(i) + ": axis " + d.name() + " value " + d.label(i)
                        + ": " + e.getMessage());
                }
            }
        }
    }

    /**
     * The {@code path=value} overrides of one index of a dimension.
     *
     * @param d     the dimension
     * @param index value index
     * @return one override per key
     */
    static List<String> overrides(final Dimension d, final int index) {
        final List<String> o = new ArrayList<>();
        for (int k = 0; k < d.keys().size(); k++) {
            o.add(d.keys().get(k) + "=" + d.values().get(index).get(k));
        }
        return o;
    }

    /** @return the number of points (product of the dimension sizes; 1 without dimensions) */
    public int pointCount() {
        int n = 1;
        for (final Dimension d : dimensions) {
            n = Math.multiplyExact(n, d.size());
        }
        return n;
    }

    /**
     * The value index of each dimension at a point (first dimension slowest).
     *
     * @param point point number, {@code 0 .. pointCount()-1}
     * @return one index per dimension
     */
    public int[] indices(final int point) {
        final int[] idx = new int[dimensions.size()];
        int rest = point;
        for (int d = dimensions.size() - 1; d >= 0; d--) {
            idx[d] = rest % dimensions.get(d).size();
            rest /= dimensions.get(d).size();
        }
        return idx;
    }

    /**
     * Every {@code --set} of a point: the fixed overrides, then each key of each dimension.
     *
     * @param point point number
     * @return {@code path=value} strings
     */
    public List<String> overrides(final int point) {
        final List<String> o = new ArrayList<>(fixed);
        final int[] idx = indices(point);
        for (int d = 0; d < dimensions.size(); d++) {
            o.addAll(overrides(dimensions.get(d), idx[d]));
        }
        return o;
    }

    /**
     * The axis columns of a point: each key of each dimension and its value text, in order.
     *
     * @param point point number
     * @return key to value text
     */
    public LinkedHashMap<String, String> axisValues(final int point) {
        final LinkedHashMap<String, String> m = new LinkedHashMap<>();
        final int[] idx = indices(point);
        for (int d = 0; d < dimensions.size(); d++) {
            final Dimension dim = dimensions.get(d);
            for (int k = 0; k < dim.keys().size(); k++) {
                m.put(dim.keys().get(k), dim.values().get(idx[d]).get(k));
            }
        }
        return m;
    }

    /** @return every axis key, in column order */
    public List<String> axisKeys() {
        final List<String> keys = new ArrayList<>();
        for (final Dimension d : dimensions) {
            keys.addAll(d.keys());
        }
        return keys;
    }

    /** @return the sweep file */
    public Path file() {
        return file;
    }

    /** @return the sweep's name */
    public String name() {
        return name;
    }

    /** @return the scenario file, absolute */
    public Path scenario() {
        return scenario;
    }

    /** @return the dimensions, axes then zip groups */
    public List<Dimension> dimensions() {
        return dimensions;
    }

    /** @return the seeds, in file order */
    public List<Long> seeds() {
        return seeds;
    }

    private static Dimension dimension(final Path file, final List<NodeTuple> tuples, final String section) {
        final List<String> keys = new ArrayList<>();
        final List<List<String>> columns = new ArrayList<>();
        final List<Integer> lines = new ArrayList<>();
        int n = -1;
        for (final NodeTuple t : tuples) {
            final String key = ((ScalarNode) t.getKeyNode()).getValue();
            final Node v = t.getValueNode();
            if (!(v instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw new SweepException(at(file, v) + section + "." + key + ": expected a non-empty list of values, e.g. [0.3, 0.5]");
            }
            if (n >= 0 && seq.getValue().size() != n) {
                throw new SweepException(at(file, v) + "zip." + key + ": expected " + n + " values, as many as "
                    + keys.get(0) + " has, got " + seq.getValue().size());
            }
            n = seq.getValue().size();
            final List<String> col = new ArrayList<>();
            final Set<String> distinct = new HashSet<>();
            for (final Node item : seq.getValue()) {
                final String text = valueText(file, item, section + "." + key);
                if (tuples.size() == 1 && !distinct.add(text)) {
                    throw new SweepException(at(file, item) + section + "." + key + ": value " + text + " appears twice");
                }
                col.add(text);
                if (keys.isEmpty()) {
                    lines.add(item.getStartMark().getLine() + 1);
                }
            }
            keys.add(key);
            columns.add(col);
        }
        final List<List<String>> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final List<String> row = new ArrayList<>();
            for (final List<String> col : columns) {
                row.add(col.get(i));
            }
            values.add(List.copyOf(row));
        }
        return new Dimension(List.copyOf(keys), List.copyOf(values), List.copyOf(lines));
    }

    /** A value as {@code --set} text: a scalar as written, or a flow list of scalars {@code [a, b]}. */
    private static String valueText(final Path file, final Node n, final String field) {
        if (n instanceof ScalarNode s) {
            if (s.getValue().contains("\n")) {
                throw new SweepException(at(file, n) + field + ": expected a value without line breaks, got '"
                    + s.getValue().replace('\n', ' ') + "'");
            }
            return s.getValue();
        }
        if (n instanceof SequenceNode q) {
            final List<String> items = new ArrayList<>();
            for (final Node c : q.getValue()) {
                items.add(scalar(file, c, field));
            }
            return "[" + String.join(", ", items) + "]";
        }
        throw new SweepException(at(file, n) + field + ": expected a value or a list of values, got a mapping");
    }

    private static void checkKey(final Path file, final NodeTuple t, final String key, final Set<String> seen) {
        if (!key.matches("[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*")) {
            throw new SweepException(at(file, t.getKeyNode()) + key + ": expected a scenario path such as workload.load");
        }
        if (!seen.add(key)) {
            throw new SweepException(at(file, t.getKeyNode()) + key + ": appears twice in set, axes and zip");
        }
    }

    private static Map<String, NodeTuple> fields(final Path file, final MappingNode m, final Set<String> allowed) {
        final Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (final NodeTuple t : m.getValue()) {
            final String key = scalar(file, t.getKeyNode(), "key");
            if (allowed != null && !allowed.contains(key)) {
                throw new SweepException(at(file, t.getKeyNode()) + key + ": unknown field; known: name, scenario, set, axes,"
                    + " zip, seeds");
            }
            if (out.put(key, t) != null) {
                throw new SweepException(at(file, t.getKeyNode()) + key + ": appears twice");
            }
        }
        return out;
    }

    private static MappingNode mapping(final Path file, final Node n, final String field) {
        if (n instanceof MappingNode m) {
            return m;
        }
        throw new SweepException(at(file, n) + field + ": expected a mapping of scenario paths to values");
    }

    private static String scalar(final Path file, final Node n, final String field) {
        if (n instanceof ScalarNode s) {
            return s.getValue();
        }
        throw new SweepException(at(file, n) + field + ": expected a single value");
    }

    private static String at(final Path file, final Node n) {
        return file + ":" + (n.getStartMark().getLine() + 1) + ": ";
    }
}
