package dev.nicsim.fabric.scenario;

/**
 * Bad user input (scenario, flow-size distribution, command-line override): carries a one-line
 * message naming the file, line and field path and what was expected. The command line prints the
 * message alone and exits with code 2.
 *
 * <p>Thread-safety: immutable.
 */
public final class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line: {@code file:line: field.path: what was expected, what was found}
     */
    public ScenarioException(final String message) {
        super(message, null, false, false);
    }
}
