package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import dev.nicsim.pcc.PccParameterValues;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * One built-in algorithm declared as data: what a control plane lists about it. Each provider holds
 * one table ({@code TABLE}); {@link TableProvider} serves the provider's name, description and
 * parameters from it and {@link TableAlgorithm} allocates the counters and reads the parameter
 * values by name from it, so the plumbing is written once and an algorithm adds only rows.
 *
 * <ul>
 *   <li>{@code parameters}: one {@link PccParameter} per row of the parameter table, ids dense
 *       from 0 in row order; it is what {@code nicsim algorithms} prints and what a scenario's
 *       {@code algorithm.params} are checked against.</li>
 *   <li>{@code counters}: the counter names in id order; counter id {@code i} of an instance is
 *       named {@code counters.get(i)}, the order {@code counters.csv} lists them in. The
 *       algorithm's {@code C_...} id constants index this list.</li>
 * </ul>
 *
 * <h2>Parameter table</h2>
 * A text block: first the header line {@value #HEADER} (columns separated by {@code |}, spaces
 * around them ignored), then per parameter one row line with those six columns followed by one or
 * more description lines (lines without {@code |}, joined with single spaces; the description
 * names the spec section, paper or Mellanox knob it follows). Columns:
 * <ul>
 *   <li>{@code name}: lower case, as used in scenarios;</li>
 *   <li>{@code kind}: {@code integer} ({@link Kind#INTEGER}) or {@code 16.16}
 *       ({@link Kind#FIXED_16_16}, a fraction held as 16.16 fixed point);</li>
 *   <li>{@code default}, {@code min}, {@code max}: user values, range inclusive, written as a
 *       decimal ({@code 0.875}, {@code 300_000}), a quotient of two decimals ({@code 5/1024}, read as
 *       {@code 5.0 / 1024}) or a power of two ({@code 2^30}, {@code 2^-16}); each is the double the
 *       Java expression of the same form gives, bit for bit;</li>
 *   <li>{@code unit}: the unit of the user value ({@code ns}, {@code Mb/s}, {@code fraction}, ...).</li>
 * </ul>
 *
 * @param name        lower-case name used in scenarios ({@code "dcqcn"})
 * @param description one-line description naming the specification the algorithm follows
 * @param parameters  parameter descriptors, ids dense from 0, names unique
 * @param counters    counter names, lower-case with underscores, unique, each starting with the
 *                    algorithm's name ({@code -} read as {@code _}) and an underscore
 */
record AlgorithmTable(String name, String description, List<PccParameter> parameters, List<String> counters) {
    /** The header line every parameter table starts with. */
    static final String HEADER = "name | kind | default | min | max | unit";

    /**
     * Validates the table when the provider class is initialised, so a malformed table fails the
     * first use of the algorithm rather than a run.
     *
     * @throws IllegalArgumentException if the name is not lower case, a parameter id is not dense
     *                                  or a name repeats or a default is out of range, or a counter
     *                                  name is malformed or repeats
     */
    AlgorithmTable {
        if (!name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("algorithm name '" + name + "' must be lower case");
        }
        parameters = List.copyOf(parameters);
        counters = List.copyOf(counters);
        try {
            new PccParameterValues(parameters); // dense ids, unique names
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " parameter table: " + e.getMessage(), e);
        }
        final String prefix = name.replace('-', '_') + "_";
        final HashSet<String> seen = new HashSet<>();
        for (final String c : counters) {
            if (!c.startsWith(prefix) || !c.matches("[a-z0-9_]+") || !seen.add(c)) {
                throw new IllegalArgumentException(name + ": counter '" + c
                    + "' must be unique, lower case and start with " + prefix);
            }
        }
    }

    /**
     * Builds a table from its parameter table text (format in the class comment).
     *
     * @param name            lower-case algorithm name
     * @param description     one-line description naming the specification
     * @param parameterTable  header line, then row and description lines
     * @param counters        counter names in id order
     * @return the table
     * @throws IllegalArgumentException naming the algorithm, the table line and what was expected,
     *                                  if the text is malformed or a row invalid
     */
    static AlgorithmTable of(final String name, final String description, final String parameterTable,
                             final String... counters) {
        final List<PccParameter> rows = new ArrayList<>();
        final String[] lines = parameterTable.strip().split("\n");
        if (!normalise(lines[0]).equals(HEADER)) {
            throw new IllegalArgumentException(name + " parameter table line 1: expected the header '" + HEADER
                + "', found '" + lines[0].strip() + "'");
        }
        String[] row = null;
        int rowLine = 0;
        StringBuilder text = null;
        for (int i = 1; i <= lines.length; i++) {
            final String line = i < lines.length ? lines[i].strip() : null;
            if (line != null && !line.contains("|")) {
                if (row == null || line.isEmpty()) {
                    throw new IllegalArgumentException(name + " parameter table line " + (i + 1)
                        + ": expected a row '" + HEADER + "' or a description line under one, found '" + line + "'");
                }
                text.append(text.length() > 0 ? " " : "").append(line);
                continue;
            }
            if (row != null) {
                rows.add(parameter(name + " parameter table line " + rowLine + " ('" + row[0].strip() + "')",
                    rows.size(), row, text.toString()));
            }
            if (line != null) {
                row = line.split("\\|", -1);
                rowLine = i + 1;
                text = new StringBuilder();
            }
        }
        return new AlgorithmTable(name, description, rows, List.of(counters));
    }

    private static PccParameter parameter(final String where, final int id, final String[] row, final String text) {
        if (row.length != 6 || text.isEmpty()) {
            throw new IllegalArgumentException(where + ": expected 6 columns '" + HEADER
                + "' and a description line, found " + row.length + " columns"
                + (text.isEmpty() ? " and no description" : ""));
        }
        final Kind kind = switch (row[1].strip()) {
            case "integer" -> Kind.INTEGER;
            case "16.16" -> Kind.FIXED_16_16;
            default -> throw new IllegalArgumentException(where + ": kind '" + row[1].strip()
                + "' must be integer or 16.16");
        };
        try {
            return new PccParameter(id, row[0].strip(), kind, number(row[2]), number(row[3]), number(row[4]),
                row[5].strip(), text);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a table number: {@code 300_000}, {@code 0.875}, {@code 5/1024} or {@code 2^-16}.
     *
     * @param cell the cell, spaces around it allowed
     * @return its value, as the Java expression of the same form gives it
     * @throws NumberFormatException (an IllegalArgumentException) naming the cell if it is none of these
     */
    static double number(final String cell) {
        final String s = cell.strip().replace("_", "");
        final int slash = s.indexOf('/');
        if (slash > 0) {
            return decimal(s.substring(0, slash), cell) / decimal(s.substring(slash + 1), cell);
        }
        if (s.matches("2\\^-?[0-9]{1,4}")) {
            return Math.scalb(1.0, Integer.parseInt(s.substring(2)));
        }
        return decimal(s, cell);
    }

    private static double decimal(final String s, final String cell) {
        if (!s.matches("-?[0-9]+(\\.[0-9]+)?")) {
            throw new NumberFormatException("'" + cell.strip() + "' is not a number (300_000, 0.875, 5/1024 or 2^-16)");
        }
        return Double.parseDouble(s);
    }

    private static String normalise(final String line) {
        return line.strip().replaceAll("\\s*\\|\\s*", " | ").replaceAll("\\s+", " ");
    }
}
