package dev.nicsim.fabric.run;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PixelColumns} (M4, Jugel et al., PVLDB 2014) against a brute-force oracle: the kept points
 * are input points in input order, at most 4 per column, and each column keeps its first and last
 * point and a point of its least and of its greatest y.
 */
class PixelColumnsTest {
    private static final int COLUMNS = 1000;

    /** 250,000 points of a seeded random walk with rare spikes, uneven gaps in x, over [0, 5000]. */
    @Test
    void keepsFirstLastMinAndMaxOfEveryColumnAndAtMostFourPointsEach() {
        final Random rnd = new Random(41);
        final int n = 250_000;
        final double[] x = new double[n];
        final double[] y = new double[n];
        double t = 0;
        double v = 50;
        for (int i = 0; i < n; i++) {
            t += rnd.nextInt(5) == 0 ? 0 : rnd.nextDouble() * 0.04; // repeated x too
            v = Math.max(0, v + rnd.nextGaussian());
            x[i] = t;
            // a spike every ~10,000 points; + i x 1e-7 makes every point distinct, so each kept one has one match
            y[i] = (rnd.nextInt(10_000) == 0 ? 1000 + rnd.nextInt(1000) : v) + i * 1e-7;
        }
        final double xMax = x[n - 1];
        final PixelColumns line = new PixelColumns(0, xMax, COLUMNS);
        for (int i = 0; i < n; i++) {
            line.add(x[i], y[i]);
        }
        final double[] kx = line.xs();
        final double[] ky = line.ys();
        assertTrue(kx.length <= 4 * COLUMNS, kx.length + " points");
        assertTrue(kx.length >= 2 * COLUMNS, kx.length + " points: every column has data here, so first and last at least");

        // the kept points are a subsequence of the input: match them in order
        final List<Integer> keptIndex = new ArrayList<>();
        int j = 0;
        for (int k = 0; k < kx.length; k++) {
            while (j < n && !(x[j] == kx[k] && y[j] == ky[k])) {
                j++;
            }
            assertTrue(j < n, "kept point " + k + " (" + kx[k] + ", " + ky[k] + ") is not the next input point");
            keptIndex.add(j++);
        }
        // per column, by brute force over the input
        final int[] first = new int[COLUMNS];
        final int[] last = new int[COLUMNS];
        final double[] min = new double[COLUMNS];
        final double[] max = new double[COLUMNS];
        java.util.Arrays.fill(first, -1);
        java.util.Arrays.fill(min, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < n; i++) {
            final int c = column(x[i], xMax);
            first[c] = first[c] < 0 ? i : first[c];
            last[c] = i;
            min[c] = Math.min(min[c], y[i]);
            max[c] = Math.max(max[c], y[i]);
        }
        final List<List<Integer>> kept = new ArrayList<>();
        for (int c = 0; c < COLUMNS; c++) {
            kept.add(new ArrayList<>());
        }
        for (final int i : keptIndex) {
            kept.get(column(x[i], xMax)).add(i);
        }
        for (int c = 0; c < COLUMNS; c++) {
            final List<Integer> k = kept.get(c);
            if (first[c] < 0) {
                assertEquals(List.of(), k, "column " + c + " has no input");
                continue;
            }
            assertTrue(k.size() <= 4, "column " + c + ": " + k.size());
            assertEquals(first[c], k.get(0), "column " + c + " first");
            assertEquals(last[c], k.get(k.size() - 1), "column " + c + " last");
            assertEquals(min[c], k.stream().mapToDouble(i -> y[i]).min().orElseThrow(), "column " + c + " min");
            assertEquals(max[c], k.stream().mapToDouble(i -> y[i]).max().orElseThrow(), "column " + c + " max");
        }
    }

    /** A column by the definition: floor(x / (xMax / columns)), the last column closed on the right. */
    private static int column(final double x, final double xMax) {
        return (int) Math.min(COLUMNS - 1, Math.floor(x / (xMax / COLUMNS)));
    }

    /** Fewer points than columns: every point is kept, as it was. */
    @Test
    void aShortSeriesIsKeptWhole() {
        final PixelColumns line = new PixelColumns(0, 10, COLUMNS);
        final double[] x = {0, 1, 2.5, 2.5, 7, 10};
        final double[] y = {3, 0, 4, 1, 9, 2};
        for (int i = 0; i < x.length; i++) {
            line.add(x[i], y[i]);
        }
        assertEquals(List.of(0.0, 1.0, 2.5, 2.5, 7.0, 10.0), box(line.xs()));
        assertEquals(List.of(3.0, 0.0, 4.0, 1.0, 9.0, 2.0), box(line.ys()));
    }

    @Test
    void pointsOutOfOrderAreRefused() {
        final PixelColumns line = new PixelColumns(0, 10, COLUMNS);
        line.add(5, 1);
        assertThrows(IllegalArgumentException.class, () -> line.add(4, 1));
        assertThrows(IllegalArgumentException.class, () -> new PixelColumns(1, 0, COLUMNS));
        assertThrows(IllegalArgumentException.class, () -> new PixelColumns(0, 1, 0));
    }

    private static List<Double> box(final double[] a) {
        final List<Double> l = new ArrayList<>();
        for (final double d : a) {
            l.add(d);
        }
        return l;
    }
}
