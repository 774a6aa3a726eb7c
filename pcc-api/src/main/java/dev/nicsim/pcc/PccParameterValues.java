package dev.nicsim.pcc;

import java.util.Arrays;
import java.util.List;

/**
 * The values of one algorithm's parameters for one scenario: defaults from the descriptors, then
 * overrides by name, each validated against its range.
 *
 * <p>Thread-safety: mutable while a scenario is being configured; read-only (safe to share) once
 * handed to {@link PccAlgorithmProvider#create}.
 */
public final class PccParameterValues {
    private final List<PccParameter> descriptors;
    private final long[] raw;

    /**
     * Creates values holding every parameter's default.
     *
     * @param descriptors the algorithm's parameters, ids dense from 0 in list order
     * @throws IllegalArgumentException if ids are not dense or names repeat
     */
    public PccParameterValues(final List<PccParameter> descriptors) {
        this.descriptors = List.copyOf(descriptors);
        this.raw = new long[descriptors.size()];
        for (int i = 0; i < descriptors.size(); i++) {
            final PccParameter p = descriptors.get(i);
            if (p.id() != i) {
                throw new IllegalArgumentException("parameter " + p.name() + " has id " + p.id() + ", expected " + i);
            }
            for (int j = 0; j < i; j++) {
                if (descriptors.get(j).name().equals(p.name())) {
                    throw new IllegalArgumentException("parameter name repeated: " + p.name());
                }
            }
            raw[i] = p.defaultRaw();
        }
    }

    /** @return the descriptors, in id order */
    public List<PccParameter> descriptors() {
        return descriptors;
    }

    /**
     * Finds a descriptor by name.
     *
     * @param name parameter name
     * @return the descriptor
     * @throws IllegalArgumentException if there is no such parameter; the message lists the known ones
     */
    public PccParameter descriptor(final String name) {
        for (final PccParameter p : descriptors) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown parameter '" + name + "'; known: "
            + String.join(", ", descriptors.stream().map(PccParameter::name).toList()));
    }

    /**
     * Sets a parameter from a user value.
     *
     * @param name  parameter name
     * @param value user value (a fraction for FIXED_16_16)
     * @return this
     * @throws IllegalArgumentException if the name is unknown or the value out of range
     */
    public PccParameterValues set(final String name, final double value) {
        final PccParameter p = descriptor(name);
        raw[p.id()] = p.toRaw(value);
        return this;
    }

    /**
     * @param id parameter id
     * @return the raw value (16.16 for FIXED_16_16)
     */
    public long raw(final int id) {
        return raw[id];
    }

    /**
     * The raw value of a parameter named as in its descriptor, for code that reads its parameters
     * once (at creation) by name rather than by id.
     *
     * @param name parameter name
     * @return the raw value (16.16 for FIXED_16_16)
     * @throws IllegalArgumentException if there is no such parameter; the message lists the known ones
     */
    public long raw(final String name) {
        return raw[descriptor(name).id()];
    }

    /**
     * @param id parameter id
     * @return the raw value as an int (for 16.16 fractions and small integers)
     */
    public int rawInt(final int id) {
        return (int) raw[id];
    }

    /**
     * @param name parameter name
     * @return the value in user units
     * @throws IllegalArgumentException if the name is unknown
     */
    public double value(final String name) {
        final PccParameter p = descriptor(name);
        return p.fromRaw(raw[p.id()]);
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("{");
        for (final PccParameter p : descriptors) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(p.name()).append('=').append(p.fromRaw(raw[p.id()]));
        }
        return sb.append('}').toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof PccParameterValues v && v.descriptors.equals(descriptors) && Arrays.equals(v.raw, raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }
}
