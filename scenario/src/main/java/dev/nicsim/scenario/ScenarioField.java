package dev.nicsim.scenario;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One row of the scenario schema ({@link ScenarioSchema}): a field's dotted path, type, unit,
 * range, default and meaning, and the simulator configuration field it feeds. The loader reads the
 * field through the row ({@link YamlFields#integer(ScenarioField)} and the like: key, range and
 * default), {@link ScenarioWriter} writes it under the row's key in the row's unit, and the field
 * tables of docs/scenarios.md are {@link ScenarioSchema#markdown} of the rows.
 *
 * <p>Numbers are held in the file's unit (the one the key names: {@code _us}, {@code _ns},
 * {@code _gbps}, {@code _ghz}, bytes, ...); {@link #scale} converts them to the unit the
 * {@link Scenario} holds ({@code Math.round(fileValue * scale)}: ps for {@code _us} times, ns for
 * the NIC's timers, bits/s for rates, Hz for clocks; 1 when the units agree). A row whose range or
 * default depends on other fields ({@code 0 .. buffer_bytes}, {@code [nic.data_priority]}) has
 * {@code NaN} there and states it in {@link #range} or {@link #defaultText}; the loader passes the
 * computed bound.
 *
 * @param path        dotted path as error messages name it; list entries as {@code [i]}
 *                    ({@code workload.flows[i].src})
 * @param type        the value's type as docs/scenarios.md names it ({@code integer}, {@code number},
 *                    {@code bool}, {@code one of}, {@code text}, {@code path}, ...)
 * @param unit        the file's unit, or empty
 * @param range       the accepted values as the docs state them
 * @param defaultText the default as the docs state it ({@code **required**} when there is none)
 * @param meaning     what the field does and the source it follows
 * @param min         smallest accepted value in the file's unit, inclusive; {@code NaN} if not numeric or dynamic
 * @param max         largest accepted value in the file's unit, inclusive; {@code NaN} if not numeric or dynamic
 * @param defaultValue default in the file's unit (bool: 1 or 0); {@code NaN} when required or dynamic
 * @param scale       simulator units per file unit
 * @param choices     the accepted words of a {@code one of} field, else empty
 * @param feeds       the configuration field the value ends in ({@code NicConfig.mtuBytes}), or empty
 * @param feedsClass  the class holding {@code feeds}, or null
 */
public record ScenarioField(String path, String type, String unit, String range, String defaultText, String meaning,
                            double min, double max, double defaultValue, double scale, List<String> choices,
                            String feeds, Class<?> feedsClass) {
    /** {@link #defaultText} of a field without a default. */
    public static final String REQUIRED = "**required**";

    /**
     * Checks the row.
     *
     * @throws IllegalArgumentException if the path is empty or a numeric default lies outside its range
     */
    public ScenarioField {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a scenario field needs a path");
        }
        choices = List.copyOf(choices);
        if (!Double.isNaN(defaultValue) && !Double.isNaN(min) && !(defaultValue >= min && defaultValue <= max)) {
            throw new IllegalArgumentException(path + ": default " + defaultValue + " outside [" + min + ", " + max + "]");
        }
    }

    /**
     * An integer field with a default.
     *
     * @param path    dotted path
     * @param unit    unit
     * @param min     smallest value
     * @param max     largest value
     * @param def     default
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField integer(final String path, final String unit, final long min, final long max, final long def,
                                 final String meaning) {
        return new ScenarioField(path, "integer", unit, span(min, max), format(def), meaning, min, max, def, 1, List.of(),
            "", null);
    }

    /**
     * A required integer field.
     *
     * @param path    dotted path
     * @param unit    unit
     * @param min     smallest value
     * @param max     largest value
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField integer(final String path, final String unit, final long min, final long max, final String meaning) {
        return new ScenarioField(path, "integer", unit, span(min, max), REQUIRED, meaning, min, max, Double.NaN, 1,
            List.of(), "", null);
    }

    /**
     * A number field with a default, held in the scenario in the file's unit.
     *
     * @param path    dotted path
     * @param unit    unit
     * @param min     smallest value
     * @param max     largest value
     * @param def     default
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField number(final String path, final String unit, final double min, final double max, final double def,
                                final String meaning) {
        return scaled(path, unit, 1, min, max, def, meaning);
    }

    /**
     * A number field with a default, held in the scenario as {@code Math.round(value * scale)}.
     *
     * @param path    dotted path
     * @param unit    unit
     * @param scale   simulator units per file unit
     * @param min     smallest value
     * @param max     largest value
     * @param def     default ({@code NaN}: required)
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField scaled(final String path, final String unit, final double scale, final double min, final double max,
                                final double def, final String meaning) {
        return new ScenarioField(path, "number", unit, span(min, max), Double.isNaN(def) ? REQUIRED : format(def), meaning,
            min, max, def, scale, List.of(), "", null);
    }

    /**
     * A bool field.
     *
     * @param path    dotted path
     * @param def     default
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField bool(final String path, final boolean def, final String meaning) {
        return new ScenarioField(path, "bool", "", "", Boolean.toString(def), meaning, Double.NaN, Double.NaN,
            def ? 1 : 0, 1, List.of(), "", null);
    }

    /**
     * A list of priorities 0..7 whose default is a bit mask (bit i = priority i), as the switch
     * configuration holds it.
     *
     * @param path    dotted path
     * @param mask    the default priorities as a mask
     * @param meaning meaning
     * @return the row
     */
    static ScenarioField priorities(final String path, final int mask, final String meaning) {
        return new ScenarioField(path, "list 0..7", "", "", "`" + Arrays.toString(priorities(mask)) + "`", meaning,
            Double.NaN, Double.NaN, mask, 1, List.of(), "", null);
    }

    /**
     * The priorities of a mask.
     *
     * @param mask bit i = priority i, 0..255
     * @return the priorities in ascending order
     */
    static int[] priorities(final int mask) {
        return IntStream.range(0, 8).filter(p -> (mask >> p & 1) != 0).toArray();
    }

    /**
     * A field whose value is one of a few words.
     *
     * @param path    dotted path
     * @param def     the default word, or null when required
     * @param meaning meaning
     * @param choices the accepted words
     * @return the row
     */
    static ScenarioField oneOf(final String path, final String def, final String meaning, final String... choices) {
        final StringBuilder range = new StringBuilder();
        for (final String c : choices) {
            range.append(range.length() == 0 ? "" : ", ").append('`').append(c).append('`');
        }
        return new ScenarioField(path, "one of", "", range.toString(), def == null ? REQUIRED : "`" + def + "`", meaning,
            Double.NaN, Double.NaN, Double.NaN, 1, List.of(choices), "", null);
    }

    /**
     * A field the loader reads by hand (a mapping, a list, a path, a field whose range or default
     * depends on others): the row documents it.
     *
     * @param path        dotted path
     * @param type        type as the docs name it
     * @param unit        unit
     * @param range       range as the docs state it
     * @param defaultText default as the docs state it
     * @param meaning     meaning
     * @return the row
     */
    static ScenarioField doc(final String path, final String type, final String unit, final String range,
                             final String defaultText, final String meaning) {
        return new ScenarioField(path, type, unit, range, defaultText, meaning, Double.NaN, Double.NaN, Double.NaN, 1,
            List.of(), "", null);
    }

    /**
     * This row with a range stated in words (its upper bound depends on other fields); the numeric
     * bounds are kept as the outermost the loader may pass.
     *
     * @param text the range as the docs state it
     * @return the row
     */
    ScenarioField range(final String text) {
        return new ScenarioField(path, type, unit, text, defaultText, meaning, min, max, defaultValue, scale, choices, feeds,
            feedsClass);
    }

    /**
     * This row with a default that depends on other fields, stated in words.
     *
     * @param text the default as the docs state it
     * @return the row, without a numeric default
     */
    ScenarioField dynamicDefault(final String text) {
        return new ScenarioField(path, type, unit, range, text, meaning, min, max, Double.NaN, scale, choices, feeds,
            feedsClass);
    }

    /**
     * This row with the type column reworded (e.g. {@code integer or `kmin`}).
     *
     * @param text the type as the docs state it
     * @return the row
     */
    ScenarioField type(final String text) {
        return new ScenarioField(path, text, unit, range, defaultText, meaning, min, max, defaultValue, scale, choices, feeds,
            feedsClass);
    }

    /**
     * This row naming the configuration field it feeds.
     *
     * @param owner the configuration class
     * @param field its field (or record component, or fluent setter) name
     * @return the row
     */
    ScenarioField feeds(final Class<?> owner, final String field) {
        return new ScenarioField(path, type, unit, range, defaultText, meaning, min, max, defaultValue, scale, choices,
            owner.getSimpleName() + "." + field, owner);
    }

    /** @return the last part of the path, the key in its mapping */
    public String key() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    /** @return whether the field has a numeric default (absent means that value) */
    public boolean hasDefault() {
        return !Double.isNaN(defaultValue);
    }

    /** @return the default in simulator units, {@code Math.round(defaultValue * scale)} */
    public long defaultScaled() {
        return Math.round(defaultValue * scale);
    }

    /** @return the default word of a {@code one of} field, or null when required */
    public String defaultChoice() {
        return REQUIRED.equals(defaultText) ? null : defaultText.replace("`", "");
    }

    /**
     * A range for the docs: {@code min .. max}, large powers as {@code 2^k} or {@code 10^k}.
     *
     * @param min smallest value
     * @param max largest value
     * @return the text
     */
    static String span(final double min, final double max) {
        return power(min) + " .. " + power(max);
    }

    private static String power(final double v) {
        if (v == Long.MAX_VALUE) {
            return "2^63-1";
        }
        if (v == Math.rint(v) && v >= 1e6) {
            final long l = (long) v;
            if (Long.bitCount(l) == 1) {
                return "2^" + Long.numberOfTrailingZeros(l);
            }
            final int exp = (int) Math.round(Math.log10(v));
            if (Math.pow(10, exp) == v) {
                return "10^" + exp;
            }
        }
        if (v > 0 && v < 1 && 1 / v == Math.rint(1 / v) && Long.bitCount((long) (1 / v)) == 1 && 1 / v >= 1024) {
            return "1/" + (long) (1 / v);
        }
        return format(v);
    }

    /**
     * A number as the docs and the writer show it: an integer without a decimal point, else the
     * shortest decimal that reads back as the same double, never in exponent form.
     *
     * @param v a finite value
     * @return the text
     */
    static String format(final double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
