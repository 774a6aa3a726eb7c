package dev.nicsim.sweep;

/**
 * Bad input to {@code nicsim sweep}: the sweep file, an axis value, the output directory. The
 * message is one line naming the file (and line) and what was expected; the command prints it
 * and exits 2.
 */
public final class SweepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message where, and what was expected; line breaks in it (from a key or value quoted from the
     *                file) are written as {@code \r} and {@code \n}, so the message stays one line
     */
    public SweepException(final String message) {
        super(dev.nicsim.scenario.ScenarioException.oneLine(message));
    }
}
