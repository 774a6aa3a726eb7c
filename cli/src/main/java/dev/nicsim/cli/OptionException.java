package dev.nicsim.cli;

/**
 * A command-line option whose value cannot be used (an empty or overlapping output path, ...);
 * {@link NicsimCommand} prints the message as one line and exits 2.
 *
 * <p>Thread-safety: immutable.
 */
public final class OptionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line naming the option, the value and what was expected
     */
    public OptionException(final String message) {
        super(message);
    }
}
