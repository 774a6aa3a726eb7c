package dev.nicsim.scenario;

import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.riscv.IoReasons;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The non-blank lines of an ns-3 text file split into whitespace-separated tokens, each with its
 * 1-based line number, and the value parsers the three readers share (integers, decimals, ns-3
 * {@code DataRate} and {@code Time} strings). Every parse error is a {@link ScenarioException}
 * {@code file:line: what: expected ..., got '...'}.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class Ns3Lines {
    /** A line break, as {@code String.split("\r?\n")} took it. */
    private static final Pattern LINE_BREAK = Pattern.compile("\r?\n");
    /** The token separator, as {@code String.split("\\s+")} took it. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /**
     * One non-blank line.
     *
     * @param number 1-based line number in the file
     * @param tokens its whitespace-separated tokens, at least one
     */
    public record Line(int number, String[] tokens) {
    }

    private final String name;
    private final List<Line> lines;

    private Ns3Lines(final String name, final List<Line> lines) {
        this.name = name;
        this.lines = lines;
    }

    /**
     * Reads a file.
     *
     * @param file the file
     * @param what what the file is, for the missing-file message (e.g. {@code "topology file"})
     * @return its non-blank lines
     * @throws ScenarioException if the file does not exist or cannot be read
     */
    public static Ns3Lines read(final Path file, final String what) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new ScenarioException(file + ": no such " + what);
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read " + what + ": " + IoReasons.why(e));
        }
        return parse(file.toString(), text);
    }

    /**
     * Splits text already in memory.
     *
     * @param name file name for messages
     * @param text the file's text
     * @return its non-blank lines
     */
    public static Ns3Lines parse(final String name, final String text) {
        // compiled once: String.split with these patterns compiled them again for every line (a
        // 3,160-flow file spent most of its 65 ms of parsing there)
        final List<Line> out = new ArrayList<>();
        final String[] raw = LINE_BREAK.split(text, -1);
        for (int i = 0; i < raw.length; i++) {
            final String t = raw[i].trim();
            if (!t.isEmpty()) {
                out.add(new Line(i + 1, WHITESPACE.split(t)));
            }
        }
        return new Ns3Lines(name, out);
    }

    /** @return the file name used in messages */
    public String name() {
        return name;
    }

    /** @return the non-blank lines in file order */
    public List<Line> lines() {
        return lines;
    }

    /**
     * An error at a line.
     *
     * @param line    1-based line number
     * @param message what was expected and found
     * @return the exception to throw
     */
    public ScenarioException error(final int line, final String message) {
        return new ScenarioException(name + ":" + line + ": " + message);
    }

    /**
     * Checks a line's token count.
     *
     * @param l        the line
     * @param expected tokens expected
     * @param form     the expected form, e.g. {@code "src dst rate delay error_rate"}
     * @throws ScenarioException if the count differs
     */
    public void expectTokens(final Line l, final int expected, final String form) {
        if (l.tokens().length != expected) {
            throw error(l.number(), "expected '" + form + "' (" + expected + " fields), got " + l.tokens().length
                + " field" + (l.tokens().length == 1 ? "" : "s") + ": '" + String.join(" ", l.tokens()) + "'");
        }
    }

    /**
     * Parses a non-negative integer.
     *
     * @param l    the line
     * @param i    token index
     * @param what the field's name
     * @param min  smallest accepted
     * @param max  largest accepted
     * @return the value
     * @throws ScenarioException if it is not an integer in range
     */
    public long integer(final Line l, final int i, final String what, final long min, final long max) {
        final String t = l.tokens()[i];
        final long v;
        try {
            v = Long.parseLong(t);
        } catch (final NumberFormatException e) {
            throw error(l.number(), what + ": expected an integer in [" + min + ", " + max + "], got '" + t + "'");
        }
        if (v < min || v > max) {
            throw error(l.number(), what + ": expected an integer in [" + min + ", " + max + "], got " + v);
        }
        return v;
    }

    /**
     * Parses a finite decimal number.
     *
     * @param l    the line
     * @param i    token index
     * @param what the field's name
     * @param min  smallest accepted
     * @param max  largest accepted
     * @return the value
     * @throws ScenarioException if it is not a number in range
     */
    public double number(final Line l, final int i, final String what, final double min, final double max) {
        final String t = l.tokens()[i];
        final double v;
        try {
            v = Double.parseDouble(t);
        } catch (final NumberFormatException e) {
            throw error(l.number(), what + ": expected a number in [" + num(min) + ", " + num(max) + "], got '" + t + "'");
        }
        if (!(v >= min && v <= max)) {
            throw error(l.number(), what + ": expected a number in [" + num(min) + ", " + num(max) + "], got " + t);
        }
        return v;
    }

    /**
     * Parses an ns-3 {@code DataRate} string: a number and a unit {@code bps}, {@code kbps}, {@code Mbps},
     * {@code Gbps} (also {@code b/s}, {@code kb/s}, {@code Kb/s}, {@code Mb/s}, {@code Gb/s}, and bytes per
     * second {@code Bps}, {@code KBps}, {@code MBps}, {@code GBps}), as ns-3's {@code DataRate::DoParse}
     * accepts them (SI multiples of 1000).
     *
     * @param l    the line
     * @param i    token index
     * @param what the field's name
     * @return the rate, bits/s, positive
     * @throws ScenarioException if the string is not a rate
     */
    public long rate(final Line l, final int i, final String what) {
        final String t = l.tokens()[i];
        final long v = parseRate(t);
        if (v <= 0) {
            throw error(l.number(), what + ": expected a rate such as 100Gbps or 20Mb/s, got '" + t + "'");
        }
        return v;
    }

    /**
     * Parses an ns-3 {@code DataRate} string.
     *
     * @param t the text, e.g. {@code 100Gbps}, {@code 20Mb/s}
     * @return bits/s, or -1 if it is not a positive rate below 2^63 bits/s
     */
    public static long parseRate(final String t) {
        final String[][] units = {
            {"Gbps", "1e9"}, {"Gb/s", "1e9"}, {"Mbps", "1e6"}, {"Mb/s", "1e6"}, {"kbps", "1e3"}, {"Kbps", "1e3"},
            {"kb/s", "1e3"}, {"Kb/s", "1e3"}, {"bps", "1"}, {"b/s", "1"},
            {"GBps", "8e9"}, {"MBps", "8e6"}, {"KBps", "8e3"}, {"kBps", "8e3"}, {"Bps", "8"}};
        for (final String[] u : units) {
            if (t.endsWith(u[0]) && t.length() > u[0].length()) {
                try {
                    final double v = Double.parseDouble(t.substring(0, t.length() - u[0].length()))
                        * Double.parseDouble(u[1]);
                    return v > 0 && v < 9e18 ? Math.round(v) : -1;
                } catch (final NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /**
     * Parses an ns-3 {@code Time} string: a number and a unit {@code s}, {@code ms}, {@code us},
     * {@code ns}, {@code ps} (a bare number is seconds, as ns-3 reads it).
     *
     * @param l    the line
     * @param i    token index
     * @param what the field's name
     * @return the time, ps, non-negative
     * @throws ScenarioException if the string is not a time
     */
    public long time(final Line l, final int i, final String what) {
        final String t = l.tokens()[i];
        final long v = parseTimePs(t);
        if (v < 0) {
            throw error(l.number(), what + ": expected a time such as 1000ns or 0.001ms, got '" + t + "'");
        }
        return v;
    }

    /**
     * Parses an ns-3 {@code Time} string.
     *
     * @param t the text
     * @return ps, or -1 if it is not a non-negative time below about 100 days
     */
    public static long parseTimePs(final String t) {
        final String[][] units = {{"ps", "1"}, {"ns", "1e3"}, {"us", "1e6"}, {"ms", "1e9"}, {"s", "1e12"}};
        String number = t;
        double scale = 1e12;
        for (final String[] u : units) {
            if (t.endsWith(u[0])) {
                number = t.substring(0, t.length() - u[0].length());
                scale = Double.parseDouble(u[1]);
                break;
            }
        }
        try {
            final double v = Double.parseDouble(number) * scale;
            return v >= 0 && v < 9e18 ? Math.round(v) : -1;
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private static String num(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
