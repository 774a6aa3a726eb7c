package dev.nicsim.scenario;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Typed, validated access to one YAML mapping of a scenario, tracking the field path and source
 * line so every error names them: {@code scenarios/x.yaml:12: topology.host_link.rate_gbps:
 * expected a number in [0.001, 1600], got 'fast'}. Fields read are remembered;
 * {@link #finish()} rejects any field that was not read (unknown fields).
 *
 * <p>Thread-safety: not thread-safe; used once while loading.
 */
public final class YamlFields {
    private final String file;
    private final String path;
    private final Node node;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final Set<String> read = new LinkedHashSet<>();

    /**
     * Wraps a mapping node.
     *
     * @param file file name for messages
     * @param path field path of this mapping ("" for the root)
     * @param node the node; must be a mapping
     * @throws ScenarioException if the node is not a mapping or has a repeated key
     */
    public YamlFields(final String file, final String path, final Node node) {
        this.file = file;
        this.path = path;
        this.node = node;
        if (!(node instanceof MappingNode m)) {
            throw error(node, path.isEmpty() ? "the scenario" : path, "expected a mapping of fields");
        }
        for (final NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw error(t.getKeyNode(), path, "expected a plain field name");
            }
            if (entries.put(k.getValue(), t) != null) {
                throw error(k, join(k.getValue()), "field given twice");
            }
        }
    }

    /** @return the field path of this mapping */
    public String path() {
        return path;
    }

    /** @return the file name */
    public String file() {
        return file;
    }

    /**
     * @param key field name
     * @return whether the field is present
     */
    public boolean has(final String key) {
        return entries.containsKey(key);
    }

    /**
     * Marks fields as known without reading them: alternatives of which one is given (such as
     * {@code at_us} and {@code at_ns}) are then listed among the known fields when
     * {@link #finish()} reports an unknown one.
     *
     * @param keys field names
     */
    public void known(final String... keys) {
        read.addAll(List.of(keys));
    }

    /**
     * A nested mapping.
     *
     * @param key field name
     * @return the mapping's fields
     * @throws ScenarioException if missing or not a mapping
     */
    public YamlFields child(final String key) {
        final Node v = require(key);
        return new YamlFields(file, join(key), v);
    }

    /**
     * A nested mapping, or an empty one if absent.
     *
     * @param key field name
     * @return the fields, possibly empty
     */
    public YamlFields childOrEmpty(final String key) {
        if (!has(key)) {
            read.add(key);
            final MappingNode empty = new MappingNode(Tag.MAP, true, new ArrayList<>(),
                node.getStartMark(), node.getEndMark(), DumperOptions.FlowStyle.BLOCK);
            return new YamlFields(file, join(key), empty);
        }
        return child(key);
    }

    /**
     * A required string.
     *
     * @param key field name
     * @return the value
     * @throws ScenarioException if missing or not a scalar
     */
    public String string(final String key) {
        return scalar(key, require(key));
    }

    /**
     * An optional string.
     *
     * @param key field name
     * @param def default
     * @return the value or the default
     */
    public String string(final String key, final String def) {
        return has(key) ? string(key) : markRead(key, def);
    }

    /**
     * A required string from a fixed set.
     *
     * @param key     field name
     * @param allowed allowed values
     * @return the value
     * @throws ScenarioException if missing or not allowed
     */
    public String oneOf(final String key, final String... allowed) {
        final String v = string(key);
        for (final String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw error(entries.get(key).getValueNode(), join(key), "expected one of " + String.join(", ", allowed) + ", got '" + v + "'");
    }

    /**
     * An optional string from a fixed set.
     *
     * @param key     field name
     * @param def     default
     * @param allowed allowed values
     * @return the value or the default
     */
    public String oneOfOr(final String key, final String def, final String... allowed) {
        return has(key) ? oneOf(key, allowed) : markRead(key, def);
    }

    /**
     * A required number in a range.
     *
     * @param key field name
     * @param min smallest allowed, inclusive
     * @param max largest allowed, inclusive
     * @return the value
     * @throws ScenarioException if missing, not a number or out of range
     */
    public double number(final String key, final double min, final double max) {
        final Node n = require(key);
        final String s = scalar(key, n);
        final double v;
        try {
            v = Double.parseDouble(s.replace("_", ""));
        } catch (final NumberFormatException e) {
            throw error(n, join(key), "expected a number in [" + fmt(min) + ", " + fmt(max) + "], got '" + s + "'");
        }
        if (!(v >= min && v <= max)) {
            throw error(n, join(key), "expected a number in [" + fmt(min) + ", " + fmt(max) + "], got " + s);
        }
        return v;
    }

    /**
     * An optional number in a range.
     *
     * @param key field name
     * @param def default (not range-checked)
     * @param min smallest allowed, inclusive
     * @param max largest allowed, inclusive
     * @return the value or the default
     */
    public double number(final String key, final double def, final double min, final double max) {
        return has(key) ? number(key, min, max) : markRead(key, def);
    }

    /**
     * A required integer in a range.
     *
     * @param key field name
     * @param min smallest allowed, inclusive
     * @param max largest allowed, inclusive
     * @return the value
     * @throws ScenarioException if missing, not an integer or out of range
     */
    public long integer(final String key, final long min, final long max) {
        final Node n = require(key);
        final String s = scalar(key, n);
        final long v;
        try {
            v = Long.parseLong(s.replace("_", ""));
        } catch (final NumberFormatException e) {
            throw error(n, join(key), "expected an integer in [" + min + ", " + max + "], got '" + s + "'");
        }
        if (v < min || v > max) {
            throw error(n, join(key), "expected an integer in [" + min + ", " + max + "], got " + s);
        }
        return v;
    }

    /**
     * An optional integer in a range.
     *
     * @param key field name
     * @param def default
     * @param min smallest allowed
     * @param max largest allowed
     * @return the value or the default
     */
    public long integer(final String key, final long def, final long min, final long max) {
        return has(key) ? integer(key, min, max) : markRead(key, def);
    }

    /**
     * An optional boolean.
     *
     * @param key field name
     * @param def default
     * @return the value or the default
     * @throws ScenarioException if present and not true/false
     */
    public boolean bool(final String key, final boolean def) {
        if (!has(key)) {
            return markRead(key, def);
        }
        final Node n = require(key);
        final String s = scalar(key, n);
        return switch (s) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw error(n, join(key), "expected true or false, got '" + s + "'");
        };
    }

    /**
     * An optional list of integers in a range.
     *
     * @param key field name
     * @param def default
     * @param min smallest allowed element
     * @param max largest allowed element
     * @return the values
     */
    public int[] intList(final String key, final int[] def, final int min, final int max) {
        if (!has(key)) {
            return markRead(key, def);
        }
        final Node n = require(key);
        if (!(n instanceof SequenceNode seq)) {
            throw error(n, join(key), "expected a list of integers like [3, 4]");
        }
        final int[] out = new int[seq.getValue().size()];
        for (int i = 0; i < out.length; i++) {
            final Node e = seq.getValue().get(i);
            final String s = e instanceof ScalarNode sc ? sc.getValue() : "";
            try {
                out[i] = Integer.parseInt(s);
            } catch (final NumberFormatException ex) {
                throw error(e, join(key) + "[" + i + "]", "expected an integer in [" + min + ", " + max + "], got '" + s + "'");
            }
            if (out[i] < min || out[i] > max) {
                throw error(e, join(key) + "[" + i + "]", "expected an integer in [" + min + ", " + max + "], got " + s);
            }
        }
        return out;
    }

    /**
     * A required list of integers written in decimal or as {@code 0x} hexadecimal (e.g. 32-bit words
     * {@code [0x40000, 7]}); may be empty.
     *
     * @param key field name
     * @param min smallest allowed element
     * @param max largest allowed element
     * @return the values
     * @throws ScenarioException naming the element ({@code key[i]}) that is not such an integer
     */
    public long[] wordList(final String key, final long min, final long max) {
        final Node n = require(key);
        if (!(n instanceof SequenceNode seq)) {
            throw error(n, join(key), "expected a list of integers like [0x40000, 7]");
        }
        final long[] out = new long[seq.getValue().size()];
        for (int i = 0; i < out.length; i++) {
            final Node e = seq.getValue().get(i);
            final String s = e instanceof ScalarNode sc ? sc.getValue().replace("_", "") : "";
            final String what = "expected an integer in [" + min + ", " + max + "] (decimal or 0x hex), got ";
            try {
                out[i] = s.startsWith("0x") || s.startsWith("0X") ? Long.parseLong(s.substring(2), 16) : Long.parseLong(s);
            } catch (final NumberFormatException ex) {
                throw error(e, join(key) + "[" + i + "]", what + "'" + s + "'");
            }
            if (out[i] < min || out[i] > max) {
                throw error(e, join(key) + "[" + i + "]", what + s);
            }
        }
        return out;
    }

    /**
     * An optional list of mappings: empty when the field is absent; otherwise as {@link #mappings}.
     *
     * @param key field name
     * @return the entries' fields, in file order
     * @throws ScenarioException if present and not a non-empty list of mappings
     */
    public List<YamlFields> mappingsOrEmpty(final String key) {
        if (!has(key)) {
            read.add(key);
            return List.of();
        }
        return mappings(key);
    }

    /**
     * A required, non-empty list of mappings (e.g. the entries of a {@code flows} workload); entry
     * {@code i} reports errors as {@code <path>.<key>[i].<field>}.
     *
     * @param key field name
     * @return the entries' fields, in file order
     * @throws ScenarioException if missing, not a list, empty, or an entry is not a mapping
     */
    public List<YamlFields> mappings(final String key) {
        final Node n = require(key);
        if (!(n instanceof SequenceNode seq)) {
            throw error(n, join(key), "expected a list of mappings (one '- field: value' block per entry)");
        }
        if (seq.getValue().isEmpty()) {
            throw error(n, join(key), "expected at least one entry, got an empty list");
        }
        final List<YamlFields> out = new ArrayList<>(seq.getValue().size());
        for (int i = 0; i < seq.getValue().size(); i++) {
            out.add(new YamlFields(file, join(key) + "[" + i + "]", seq.getValue().get(i)));
        }
        return out;
    }

    /**
     * @param key field name
     * @return whether the field is present and a single value (not a list or mapping)
     */
    public boolean isScalar(final String key) {
        final NodeTuple t = entries.get(key);
        return t != null && t.getValueNode() instanceof ScalarNode;
    }

    /**
     * All scalar fields of this mapping as (name, text) in file order, marking them read (for
     * free-form sections such as algorithm parameters).
     *
     * @return name to scalar text
     * @throws ScenarioException if a value is not a scalar
     */
    public Map<String, String> scalars() {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final String k : entries.keySet()) {
            out.put(k, string(k));
        }
        return out;
    }

    /**
     * Source line (1-based) of a field's value, for messages about its meaning.
     *
     * @param key field name
     * @return the line, or the mapping's line if absent
     */
    public int line(final String key) {
        final NodeTuple t = entries.get(key);
        final Mark mark = (t == null ? node : t.getValueNode()).getStartMark();
        return mark == null ? 1 : mark.getLine() + 1;
    }

    /**
     * Builds an error about a field.
     *
     * @param key     field name
     * @param message what was expected
     * @return the exception to throw
     */
    public ScenarioException fieldError(final String key, final String message) {
        final NodeTuple t = entries.get(key);
        return error(t == null ? node : t.getValueNode(), join(key), message);
    }

    /**
     * Rejects fields that were never read.
     *
     * @throws ScenarioException naming the first unknown field and the known ones
     */
    public void finish() {
        for (final Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!read.contains(e.getKey())) {
                final List<String> known = new ArrayList<>(read);
                throw error(e.getValue().getKeyNode(), join(e.getKey()), "unknown field"
                    + (known.isEmpty() ? "" : "; known here: " + String.join(", ", known)));
            }
        }
    }

    // --- fields read through their schema row (ScenarioSchema): key, range and default come from the row

    /**
     * The schema row of a field of this mapping: the path with list indices as {@code [i]}; the
     * entries of a {@code replay --mailbox} file are the rows of {@code firmware.mailbox}.
     *
     * @param key field name
     * @return the row
     * @throws IllegalStateException if the schema declares no such field (a loader defect)
     */
    public ScenarioField row(final String key) {
        final String p = join(key).replaceAll("\\[\\d+\\]", "[i]");
        return ScenarioSchema.row(p.startsWith("mailbox[i].") ? "firmware." + p : p);
    }

    /**
     * An integer field: its row's range, and its row's default when absent (required when the row has none).
     *
     * @param key field name
     * @return the value
     * @throws ScenarioException if missing (and required), not an integer or out of range
     */
    public long integer(final String key) {
        final ScenarioField f = row(key);
        return integerIn(key, (long) f.min(), (long) f.max());
    }

    /**
     * An integer field whose bounds depend on other fields ({@code 0 .. buffer_bytes}): the row's
     * default when absent (required when the row has none).
     *
     * @param key field name
     * @param min smallest allowed
     * @param max largest allowed
     * @return the value
     * @throws ScenarioException if missing (and required), not an integer or out of range
     */
    public long integerIn(final String key, final long min, final long max) {
        final ScenarioField f = row(key);
        return f.hasDefault() ? integer(key, (long) f.defaultValue(), min, max) : integer(key, min, max);
    }

    /**
     * A number field in the file's unit: the row's range, and its default when absent.
     *
     * @param key field name
     * @return the value
     * @throws ScenarioException if missing (and required), not a number or out of range
     */
    public double number(final String key) {
        final ScenarioField f = row(key);
        return f.hasDefault() ? number(key, f.defaultValue(), f.min(), f.max()) : number(key, f.min(), f.max());
    }

    /**
     * A number field converted to the scenario's unit, {@code Math.round(value * row.scale())}
     * ({@code stop_time_us} to ps, {@code rate_gbps} to bits/s, ...).
     *
     * @param key field name
     * @return the value in simulator units
     * @throws ScenarioException if missing (and required), not a number or out of range
     */
    public long scaled(final String key) {
        return Math.round(number(key) * row(key).scale());
    }

    /**
     * As {@link #scaled(String)}, with a default (in the file's unit) that depends on other fields.
     *
     * @param key         field name
     * @param fileDefault default in the file's unit
     * @return the value in simulator units
     * @throws ScenarioException if not a number or out of range
     */
    public long scaled(final String key, final double fileDefault) {
        final ScenarioField f = row(key);
        return Math.round(number(key, fileDefault, f.min(), f.max()) * f.scale());
    }

    /**
     * As {@link #scaled(String)}, with an upper bound (in the file's unit) that depends on other fields.
     *
     * @param key field name
     * @param max largest allowed, in the file's unit
     * @return the value in simulator units
     * @throws ScenarioException if missing, not a number or out of range
     */
    public long scaledUpTo(final String key, final double max) {
        final ScenarioField f = row(key);
        return Math.round(number(key, f.min(), max) * f.scale());
    }

    /**
     * A bool field, its row's default when absent.
     *
     * @param key field name
     * @return the value
     * @throws ScenarioException if present and not true/false
     */
    public boolean bool(final String key) {
        return bool(key, row(key).defaultValue() != 0);
    }

    /**
     * A {@code one of} field: one of its row's words, its row's default when absent (required when the row has none).
     *
     * @param key field name
     * @return the word
     * @throws ScenarioException if missing (and required) or not one of the words
     */
    public String choice(final String key) {
        final ScenarioField f = row(key);
        final String[] words = f.choices().toArray(new String[0]);
        return f.defaultChoice() == null ? oneOf(key, words) : oneOfOr(key, f.defaultChoice(), words);
    }

    private Node require(final String key) {
        read.add(key);
        final NodeTuple t = entries.get(key);
        if (t == null) {
            throw error(node, join(key), "missing required field");
        }
        return t.getValueNode();
    }

    private String scalar(final String key, final Node n) {
        if (!(n instanceof ScalarNode s)) {
            throw error(n, join(key), "expected a single value, got a " + (n instanceof MappingNode ? "mapping" : "list"));
        }
        return s.getValue();
    }

    private <T> T markRead(final String key, final T def) {
        read.add(key);
        return def;
    }

    private String join(final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private ScenarioException error(final Node at, final String field, final String message) {
        final Mark mark = at.getStartMark();
        final String where = mark != null && ScenarioLoader.OVERRIDE_MARK.equals(mark.getName())
            ? "--set " + field : file + ":" + (mark == null ? 1 : mark.getLine() + 1) + ": " + field;
        return new ScenarioException(where + ": " + message);
    }

    private static String fmt(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
