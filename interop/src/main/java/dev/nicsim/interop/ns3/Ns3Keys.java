package dev.nicsim.interop.ns3;

import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.Ns3Lines;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys of one ns-3 configuration as {@link Ns3Import} reads them: each value checked for its
 * type and range as it is read, every key read remembered (so a key no mapping reads is refused at
 * the end, {@link #requireAllRead()}), and the keys ignored because they do not change results kept
 * with their reason. Every refusal is a {@link ScenarioException} of the form
 * {@code config-file:line: KEY: why}.
 *
 * <p>Thread-safety: not thread-safe; one import.
 */
final class Ns3Keys {
    private final Ns3Config config;
    private final Set<String> read = new HashSet<>();
    private final List<String> ignored = new ArrayList<>();

    Ns3Keys(final Ns3Config config) {
        this.config = config;
    }

    /** @return the configuration file */
    Path file() {
        return config.file();
    }

    /**
     * A key third.cc needs.
     *
     * @throws ScenarioException naming the file when the key is missing
     */
    Ns3Config.Entry need(final String key) {
        final Ns3Config.Entry e = config.get(key);
        if (e == null) {
            throw new ScenarioException(config.file() + ": missing key " + key + " (third.cc needs it)");
        }
        read.add(key);
        return e;
    }

    /** @return the key's entry, or null when the configuration does not give it */
    Ns3Config.Entry opt(final String key) {
        final Ns3Config.Entry e = config.get(key);
        if (e != null) {
            read.add(key);
        }
        return e;
    }

    /** @return whether the key has been read */
    boolean isRead(final String key) {
        return read.contains(key);
    }

    /** @return the refusal of entry e: {@code file:line: KEY: why} */
    ScenarioException bad(final Ns3Config.Entry e, final String why) {
        return new ScenarioException(config.file() + ":" + e.line() + ": " + e.key() + ": " + why);
    }

    /**
     * @return value i of e as a number in [min, max]
     * @throws ScenarioException when it is not a number or out of range
     */
    double number(final Ns3Config.Entry e, final int i, final double min, final double max) {
        final String t = e.values().get(i);
        try {
            final double v = Double.parseDouble(t);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (final NumberFormatException ex) {
            // below
        }
        throw bad(e, "expected a number in [" + fmt(min) + ", " + fmt(max) + "], got '" + t + "'");
    }

    /**
     * @return value i of e as an integer in [min, max]
     * @throws ScenarioException when it is not an integer or out of range
     */
    long integer(final Ns3Config.Entry e, final int i, final long min, final long max) {
        final double v = number(e, i, min, max);
        if (v != Math.rint(v)) {
            throw bad(e, "expected an integer in [" + min + ", " + max + "], got '" + e.values().get(i) + "'");
        }
        return (long) v;
    }

    /**
     * @return e's value as a flag, 0 or 1
     * @throws ScenarioException for any other value
     */
    boolean flag(final Ns3Config.Entry e) {
        return integer(e, 0, 0, 1) == 1;
    }

    /**
     * @return e's value as a rate in whole Mb/s (ns-3 {@code DataRate} text, e.g. {@code 20Mb/s})
     * @throws ScenarioException when it is not a positive whole number of Mb/s
     */
    long rateMbps(final Ns3Config.Entry e) {
        final long bps = Ns3Lines.parseRate(e.value());
        if (bps <= 0 || bps % 1_000_000 != 0) {
            throw bad(e, "expected a rate in whole Mb/s such as 20Mb/s, got '" + e.value() + "'");
        }
        return bps / 1_000_000;
    }

    /**
     * An input file: the one given on the command line, else the key's value looked up next to the
     * configuration, in the current directory, then by its file name next to the configuration.
     *
     * @param key    the configuration key naming the file
     * @param given  the file given with the option, or null
     * @param option the command-line option, for messages
     * @return an existing file
     * @throws ScenarioException when no such file exists
     */
    Path file(final String key, final Path given, final String option) {
        final Ns3Config.Entry e = opt(key);
        if (given != null) {
            if (!Files.exists(given)) {
                throw new ScenarioException(given + ": no such file (" + option + ")");
            }
            return given;
        }
        if (e == null) {
            throw new ScenarioException(config.file() + ": no " + key + " key; give " + option + " FILE");
        }
        final Path dir = config.file().toAbsolutePath().getParent();
        for (final Path p : new Path[] {dir.resolve(e.value()), Path.of(e.value()), dir.resolve(Path.of(e.value()).getFileName())}) {
            if (Files.exists(p)) {
                return p;
            }
        }
        throw bad(e, "no such file '" + e.value() + "' (looked next to the configuration and in the current directory);"
            + " give " + option + " FILE");
    }

    /** Marks the key read and, when the configuration gives it, lists it as ignored: {@code KEY value (line N): reason}. */
    void ignore(final String key, final String reason) {
        final Ns3Config.Entry e = opt(key);
        if (e != null) {
            ignored.add(e.text() + " (line " + e.line() + "): " + reason);
        }
    }

    /** @return the ignored keys so far, one line each, in the order ignored (a live view) */
    List<String> ignored() {
        return ignored;
    }

    /**
     * Refuses a numeric key whose value differs from the only one nicsim models.
     *
     * @throws ScenarioException naming the key's line, the expected value and why
     */
    void requireValue(final String key, final String value, final String why) {
        final Ns3Config.Entry e = opt(key);
        if (e != null && number(e, 0, -1e18, 1e18) != Double.parseDouble(value)) {
            throw bad(e, why + "; expected " + value + ", got " + e.value());
        }
    }

    /**
     * Refuses the first key, in file order, that no mapping has read.
     *
     * @throws ScenarioException {@code file:line: KEY: not mapped by this importer}
     */
    void requireAllRead() {
        for (final Ns3Config.Entry e : config.entries()) {
            if (!read.contains(e.key())) {
                throw bad(e, "not mapped by this importer");
            }
        }
    }

    /** @return v as an integer when whole, else with 12 significant digits */
    static String fmt(final double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(new MathContext(12)).stripTrailingZeros().toPlainString();
    }
}
