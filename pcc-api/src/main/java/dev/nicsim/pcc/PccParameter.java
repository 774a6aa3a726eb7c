package dev.nicsim.pcc;

/**
 * Descriptor of one algorithm parameter, as a control plane lists it: id, name, kind, default,
 * range, unit and description. Values are held raw: integers as they are, fractions as 16.16
 * fixed point ({@link Kind#FIXED_16_16}).
 *
 * @param id           dense index of the parameter within its algorithm, from 0
 * @param name         lower-case name used in scenarios ({@code alpha}, {@code min_rate_mbps})
 * @param kind         how the raw value is to be read
 * @param defaultValue default, in user units (a fraction for FIXED_16_16)
 * @param min          smallest allowed value, user units, inclusive
 * @param max          largest allowed value, user units, inclusive
 * @param unit         unit of the user value ({@code "fraction"}, {@code "ns"}, {@code "bytes"}, ...)
 * @param description  one-line description naming the spec section it follows
 */
public record PccParameter(int id, String name, Kind kind, double defaultValue, double min, double max,
                           String unit, String description) {

    /** How a parameter's raw long value is interpreted. */
    public enum Kind {
        /** An integer in the given unit; raw value = user value. */
        INTEGER,
        /** A fraction; raw value = round(user value x 65536). */
        FIXED_16_16
    }

    /**
     * Validates the descriptor.
     *
     * @throws IllegalArgumentException if the default is outside [min, max] or the name is blank
     */
    public PccParameter {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("parameter " + id + " has no name");
        }
        if (!(min <= defaultValue && defaultValue <= max)) {
            throw new IllegalArgumentException("parameter " + name + ": default " + defaultValue
                + " outside [" + min + ", " + max + "]");
        }
    }

    /**
     * Converts a user value to the raw value an algorithm reads, validating the range.
     *
     * @param value user value
     * @return raw value (16.16 for FIXED_16_16)
     * @throws IllegalArgumentException if the value is outside [min, max], not finite, or not an
     *                                  integer for an INTEGER parameter; the message names the parameter
     */
    public long toRaw(final double value) {
        if (!Double.isFinite(value) || value < min || value > max) {
            throw new IllegalArgumentException("parameter '" + name + "' = " + value + " is out of range ["
                + fmt(min) + ", " + fmt(max) + "] " + unit);
        }
        if (kind == Kind.INTEGER) {
            if (value != Math.rint(value)) {
                throw new IllegalArgumentException("parameter '" + name + "' = " + value + " must be an integer (" + unit + ")");
            }
            return (long) value;
        }
        return Math.round(value * FixedPoint.ONE);
    }

    /**
     * Converts a raw value back to user units.
     *
     * @param raw raw value
     * @return user value
     */
    public double fromRaw(final long raw) {
        return kind == Kind.INTEGER ? raw : raw / (double) FixedPoint.ONE;
    }

    /** @return the default as a raw value */
    public long defaultRaw() {
        return toRaw(defaultValue);
    }

    private static String fmt(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
