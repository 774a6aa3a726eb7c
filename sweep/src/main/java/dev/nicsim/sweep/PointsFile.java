package dev.nicsim.sweep;

import dev.nicsim.fabric.run.Causes;
import dev.nicsim.fabric.run.Utf8Lines;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code points.csv}: one row per point and seed, columns {@code point, seed, partitions} (the
 * {@code --partitions N} the point ran with: its results depend on N), one per axis key (named by its
 * path), {@code status, error}, then {@link PointMetrics#COLUMNS}. Rows are appended
 * and flushed as points finish, so an interrupted sweep keeps every finished row; at the end the
 * file is rewritten in (point, seed) order.
 *
 * <p>Thread-safety: {@link #append} is synchronized; the rest is for one thread.
 */
final class PointsFile implements Closeable {
    /** Name of the file. */
    static final String FILE = "points.csv";

    private final SweepSpec spec;
    private final Path file;
    private final int partitions;
    private CSVPrinter printer;

    /**
     * @param spec       the sweep
     * @param dir        its output directory
     * @param partitions the {@code --partitions N} of this sweep's points, 1 or more
     */
    PointsFile(final SweepSpec spec, final Path dir, final int partitions) {
        this.spec = spec;
        this.file = dir.resolve(FILE);
        this.partitions = partitions;
    }

    /** @return the header: point, seed, partitions, axis keys, status, error, metrics */
    static List<String> header(final SweepSpec spec) {
        final List<String> h = new ArrayList<>(List.of("point", "seed", "partitions"));
        h.addAll(spec.axisKeys());
        h.add("status");
        h.add("error");
        h.addAll(PointMetrics.COLUMNS);
        return h;
    }

    /**
     * The rows of an existing {@code points.csv} of this sweep whose status is ok, by (point, seed)
     * ({@code --resume}). A last line cut short by an interrupted write is ignored.
     *
     * @return the kept rows
     * @throws SweepException if the file's columns, a row's axis values or a kept row's
     *                        {@code partitions} are not this sweep's (results depend on N: a resumed
     *                        sweep never mixes two N); if it is not UTF-8 text ({@code FILE:LINE: not
     *                        UTF-8 text ...}, the line of the first malformed byte) or not valid CSV
     * @throws IOException    if it cannot be read
     */
    Map<String, PointRow> readOk() throws IOException {
        final Map<String, PointRow> ok = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return ok;
        }
        final long[] recordLine = {2}; // where the record being read starts (line 1 is the header)
        try {
            return readOk(ok, recordLine);
        } catch (final IOException | UncheckedIOException e) {
            if (Utf8Lines.isDecodingError(e)) {
                throw new SweepException(Utf8Lines.describe(file) + "; give another --out, or drop --resume");
            }
            final Throwable csv = Causes.find(e, CSVException.class);
            if (csv != null) {
                // e.g. a quote that is not closed, then more text: not a file this sweep wrote
                throw new SweepException(file + ":" + recordLine[0] + ": not valid CSV: "
                    + csv.getMessage().replaceFirst("^\\(startline \\d+\\) ", "") + "; give another --out, or drop --resume");
            }
            if (e instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw (IOException) e; // the file system's own error: the command names the file and why
        }
    }

    private Map<String, PointRow> readOk(final Map<String, PointRow> ok, final long[] recordLine) throws IOException {
        final List<String> header = header(spec);
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r)) {
            if (!p.getHeaderNames().equals(header)) {
                throw new SweepException(file + ":1: columns " + p.getHeaderNames() + " are not this sweep's " + header
                    + "; give another --out, or drop --resume");
            }
            final Iterator<CSVRecord> it = p.iterator();
            while (true) {
                final CSVRecord rec;
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    rec = it.next();
                } catch (final UncheckedIOException e) {
                    final Throwable csv = Causes.find(e, CSVException.class);
                    if (csv != null && String.valueOf(csv.getMessage()).contains("EOF reached")) {
                        break; // the last line, cut short inside a quoted value by an interrupted write
                    }
                    throw e;
                }
                final long line = recordLine[0];
                recordLine[0] = p.getCurrentLineNumber() + 1;
                if (rec.size() != header.size()) {
                    continue; // cut short by an interrupted write
                }
                final int point;
                final long seed;
                try {
                    point = Integer.parseInt(rec.get("point"));
                    seed = Long.parseLong(rec.get("seed"));
                } catch (final NumberFormatException e) {
                    throw new SweepException(file + ":" + line + ": point and seed: expected integers");
                }
                if (point < 0 || point >= spec.pointCount() || !spec.seeds().contains(seed)) {
                    continue; // the sweep file no longer has this point or seed
                }
                for (final Map.Entry<String, String> a : spec.axisValues(point).entrySet()) {
                    if (!a.getValue().equals(rec.get(a.getKey()))) {
                        throw new SweepException(file + ":" + line + ": point " + point + " has "
                            + a.getKey() + "=" + rec.get(a.getKey()) + " but the sweep file gives " + a.getValue()
                            + "; give another --out, or drop --resume");
                    }
                }
                if (!PointRow.OK.equals(rec.get("status"))) {
                    continue;
                }
                if (!Integer.toString(partitions).equals(rec.get("partitions"))) {
                    throw new SweepException(file + ":" + line + ": point " + point + " seed " + seed
                        + " ran with --partitions " + rec.get("partitions") + " but this sweep runs --partitions " + partitions
                        + " (results depend on it); give the same --partitions, another --out, or drop --resume");
                }
                final LinkedHashMap<String, String> m = new LinkedHashMap<>();
                for (final String c : PointMetrics.COLUMNS) {
                    m.put(c, rec.get(c));
                }
                ok.put(key(point, seed), new PointRow(point, seed, PointRow.OK, "", m));
            }
        }
        return ok;
    }

    static String key(final int point, final long seed) {
        return point + "/" + seed;
    }

    /**
     * Writes the file anew with these rows (sorted by point, then seed), atomically, and keeps it
     * open for {@link #append}.
     *
     * @param rows rows to write
     * @throws IOException on write failure
     */
    void rewrite(final Collection<PointRow> rows) throws IOException {
        close();
        final Path tmp = file.resolveSibling(FILE + ".tmp");
        try (CSVPrinter p = open(tmp, true)) {
            final List<PointRow> sorted = new ArrayList<>(rows);
            sorted.sort(Comparator.comparingInt(PointRow::point).thenComparingLong(PointRow::seed));
            for (final PointRow r : sorted) {
                p.printRecord(values(r));
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        printer = open(file, false);
    }

    /**
     * Appends one row and flushes it to the file.
     *
     * @param r the row
     * @throws IOException on write failure
     */
    synchronized void append(final PointRow r) throws IOException {
        printer.printRecord(values(r));
        printer.flush();
    }

    /**
     * The row's values in header order.
     *
     * @param r a row
     * @return CSV texts
     */
    List<String> values(final PointRow r) {
        final List<String> v = new ArrayList<>(List.of(Integer.toString(r.point()), Long.toString(r.seed()),
            Integer.toString(partitions)));
        v.addAll(spec.axisValues(r.point()).values());
        v.add(r.status());
        v.add(r.error());
        for (final String c : PointMetrics.COLUMNS) {
            v.add(r.metrics().getOrDefault(c, ""));
        }
        return v;
    }

    private CSVPrinter open(final Path f, final boolean create) throws IOException {
        final BufferedWriter w = create ? Files.newBufferedWriter(f, StandardCharsets.UTF_8)
            : Files.newBufferedWriter(f, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        final CSVFormat.Builder b = CSVFormat.DEFAULT.builder().setRecordSeparator('\n');
        if (create) {
            b.setHeader(header(spec).toArray(new String[0]));
        } else {
            b.setSkipHeaderRecord(true);
        }
        return new CSVPrinter(w, b.get());
    }

    @Override
    public synchronized void close() throws IOException {
        if (printer != null) {
            printer.close(true);
            printer = null;
        }
    }
}
