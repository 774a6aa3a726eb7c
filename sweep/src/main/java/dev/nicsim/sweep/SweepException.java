package dev.nicsim.sweep;

/**
 * Bad input to {@code nicsim sweep}: the sweep file, an axis value, the output directory. The
 * message is one line naming the file (and line) and what was expected; the command prints it
 * and exits 2.
 */
public final class SweepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line: where, and what was expected
     */
    public SweepException(final String message) {
        super(message);
    }
}
