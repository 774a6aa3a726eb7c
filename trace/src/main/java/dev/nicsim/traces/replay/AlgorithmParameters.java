package dev.nicsim.traces.replay;

import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;

/**
 * Algorithm parameter values as text: {@code name=value} pairs joined by commas, values in user
 * units (fractions as decimals), as a trace header stores them ({@link TraceHeader#parameters})
 * and {@code nicsim replay --set name=value} takes them. Values round-trip exactly: 16.16
 * fractions and integers print as the shortest decimal that parses back to the same raw value.
 *
 * <p>Thread-safety: stateless.
 */
public final class AlgorithmParameters {
    private AlgorithmParameters() {
    }

    /**
     * Formats every parameter, in id order.
     *
     * @param values the values
     * @return e.g. {@code "g=0.0625,min_rate_mbps=1"}; empty for an algorithm without parameters
     */
    public static String format(final PccParameterValues values) {
        final StringBuilder b = new StringBuilder();
        for (final PccParameter p : values.descriptors()) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(p.name()).append('=').append(number(p.fromRaw(values.raw(p.id()))));
        }
        return b.toString();
    }

    /**
     * Applies a list written by {@link #format}.
     *
     * @param values the values to change
     * @param text   {@code name=value} pairs joined by commas; empty changes nothing
     * @throws IllegalArgumentException if a pair is malformed, a name unknown or a value out of range
     */
    public static void apply(final PccParameterValues values, final String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        for (final String pair : text.split(",")) {
            set(values, pair);
        }
    }

    /**
     * Applies one {@code name=value} assignment.
     *
     * @param values     the values to change
     * @param assignment e.g. {@code g=0.0625}
     * @throws IllegalArgumentException if the assignment is malformed, the name unknown or the value
     *                                  not a number or out of range (the message does not repeat
     *                                  the assignment)
     */
    public static void set(final PccParameterValues values, final String assignment) {
        final int eq = assignment.indexOf('=');
        if (eq <= 0 || eq == assignment.length() - 1) {
            throw new IllegalArgumentException("expected name=value");
        }
        final String name = assignment.substring(0, eq).trim();
        final String text = assignment.substring(eq + 1).trim();
        final double v;
        try {
            v = Double.parseDouble(text);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("expected a number, got '" + text + "'");
        }
        values.set(name, v);
    }

    private static String number(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
