package dev.nicsim.fabric.run;

/**
 * Number formats shared by {@code trace dump}, {@code events.csv}, {@code results.csv} and {@code mailbox.csv}.
 *
 * <p>Thread-safety: stateless.
 */
public final class TraceText {
    private TraceText() {
    }

    /**
     * Picoseconds as nanoseconds, exactly: an integer when the time is a whole number of ns, else
     * with three decimals ({@code 1234567 ps -> "1234.567"}).
     *
     * @param ps time, ps, non-negative
     * @return the text
     */
    public static String ns(final long ps) {
        return appendNs(new StringBuilder(24), ps).toString();
    }

    /**
     * Appends {@link #ns(long)}'s text.
     *
     * @param b  where to append
     * @param ps time, ps
     * @return b
     */
    public static StringBuilder appendNs(final StringBuilder b, final long ps) {
        final long ns = Math.floorDiv(ps, 1_000L);
        final long frac = Math.floorMod(ps, 1_000L);
        b.append(ns);
        if (frac != 0) {
            b.append('.');
            if (frac < 100) {
                b.append('0');
            }
            if (frac < 10) {
                b.append('0');
            }
            b.append(frac);
        }
        return b;
    }

    /**
     * Appends a byte as two lower-case hex digits.
     *
     * @param b where to append
     * @param v value, 0..255
     */
    public static void appendHex2(final StringBuilder b, final int v) {
        b.append(Character.forDigit((v >>> 4) & 0xF, 16)).append(Character.forDigit(v & 0xF, 16));
    }
}
