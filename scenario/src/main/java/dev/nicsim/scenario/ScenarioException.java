package dev.nicsim.scenario;

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
     * @param message {@code file:line: field.path: what was expected, what was found}; line breaks in it
     *                (from a field name or value quoted from the input) are written as {@code \r} and
     *                {@code \n}, so the message stays one line
     */
    public ScenarioException(final String message) {
        super(oneLine(message), null, false, false);
    }

    /**
     * Writes the line breaks of a message that quotes user input as the two characters {@code \r}
     * and {@code \n} (a YAML key can hold line breaks; a message must stay one line).
     *
     * @param message any text, or null
     * @return the text on one line (null stays null)
     */
    public static String oneLine(final String message) {
        if (message == null || message.indexOf('\n') < 0 && message.indexOf('\r') < 0) {
            return message;
        }
        return message.replace("\r", "\\r").replace("\n", "\\n");
    }
}
