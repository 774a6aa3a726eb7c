package dev.nicsim.fabric.run;

import java.util.Arrays;

/**
 * Reduces a line series to what a chart of a given width in pixels can show: M4 aggregation
 * (Jugel, Jerzak, Hackenbroich, Markl, "M4: A Visualization-Oriented Time Series Data
 * Aggregation", PVLDB 7(10), 2014). The x range is cut into {@code columns} equal columns; of the
 * points in each column only the first, the last, and the one of least and of greatest y are kept
 * (the first of each on ties), in their original order. A line drawn through the kept points
 * covers the same pixels as one through all points when each column is at most one pixel wide, so
 * peaks and dips survive; a series keeps at most 4 points per column.
 *
 * <p>Points are given in ascending x ({@link #add}); x outside {@code [xMin, xMax]} falls in the
 * first or last column. Memory is the kept points only. Thread-safety: one series per instance,
 * one thread.
 */
final class PixelColumns {
    /** Most points kept per column: first, least y, greatest y, last. */
    static final int POINTS_PER_COLUMN = 4;

    private final double xMin;
    private final double columnWidth;
    private final int columns;
    private double[] xs = new double[64];
    private double[] ys = new double[64];
    private int size;
    private long count;
    private double lastX = Double.NEGATIVE_INFINITY;

    // the open column: its number, and the input index, x and y of its first, min, max and last points
    private int column = -1;
    private final long[] idx = new long[POINTS_PER_COLUMN];
    private final double[] px = new double[POINTS_PER_COLUMN];
    private final double[] py = new double[POINTS_PER_COLUMN];

    /**
     * @param xMin    left edge of the first column (the chart's smallest x)
     * @param xMax    right edge of the last column (the chart's largest x), {@code >= xMin}
     * @param columns number of columns, at least 1 (the chart's width in pixels)
     * @throws IllegalArgumentException if {@code columns < 1}, {@code xMax < xMin} or either is not finite
     */
    PixelColumns(final double xMin, final double xMax, final int columns) {
        if (columns < 1 || !(xMax >= xMin) || !Double.isFinite(xMin) || !Double.isFinite(xMax)) {
            throw new IllegalArgumentException("columns " + columns + ", x range [" + xMin + ", " + xMax + "]");
        }
        this.xMin = xMin;
        this.columns = columns;
        this.columnWidth = (xMax - xMin) / columns;
    }

    /**
     * Adds the next point of the series.
     *
     * @param x its x, not less than the previous point's
     * @param y its y
     * @throws IllegalArgumentException if x is less than the previous x, or NaN
     */
    void add(final double x, final double y) {
        if (!(x >= lastX)) {
            throw new IllegalArgumentException("x " + x + " after " + lastX + ": points must come in ascending x");
        }
        lastX = x;
        final int c = columnOf(x);
        final long i = count++;
        if (c != column) {
            flush();
            column = c;
            for (int k = 0; k < POINTS_PER_COLUMN; k++) {
                set(k, i, x, y);
            }
            return;
        }
        if (y < py[1]) {
            set(1, i, x, y);
        }
        if (y > py[2]) {
            set(2, i, x, y);
        }
        set(3, i, x, y);
    }

    /** @return the kept x values, in order (the series so far, with its open column) */
    double[] xs() {
        flush();
        return Arrays.copyOf(xs, size);
    }

    /** @return the kept y values, in the order of {@link #xs} */
    double[] ys() {
        flush();
        return Arrays.copyOf(ys, size);
    }

    /**
     * The column a value of x falls in.
     *
     * @param x a value
     * @return {@code floor((x - xMin) / width)}, clamped to {@code [0, columns - 1]}
     */
    int columnOf(final double x) {
        if (columnWidth == 0) {
            return 0;
        }
        final double c = Math.floor((x - xMin) / columnWidth);
        return c < 0 ? 0 : c >= columns ? columns - 1 : (int) c;
    }

    private void set(final int k, final long i, final double x, final double y) {
        idx[k] = i;
        px[k] = x;
        py[k] = y;
    }

    /** Appends the open column's kept points in input order, each once. */
    private void flush() {
        if (column < 0) {
            return;
        }
        final Integer[] order = {0, 1, 2, 3};
        Arrays.sort(order, (a, b) -> Long.compare(idx[a], idx[b]));
        long previous = -1;
        for (final int k : order) {
            if (idx[k] != previous) {
                append(px[k], py[k]);
                previous = idx[k];
            }
        }
        column = -1;
    }

    private void append(final double x, final double y) {
        if (size == xs.length) {
            xs = Arrays.copyOf(xs, 2 * size);
            ys = Arrays.copyOf(ys, 2 * size);
        }
        xs[size] = x;
        ys[size] = y;
        size++;
    }
}
