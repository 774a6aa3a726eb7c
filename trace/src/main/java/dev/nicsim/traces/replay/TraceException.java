package dev.nicsim.traces.replay;

/**
 * Bad user input to the trace commands ({@code nicsim run --record/--pcap}, {@code trace},
 * {@code replay}): a missing file, a directory that is not a trace, a trace of a newer format, an
 * unknown algorithm or parameter, a malformed tap point. Carries one line for the user naming the
 * file or option and what was expected; the command line prints it alone and exits with code 2
 * ({@link dev.nicsim.cli.NicsimCommand#EXIT_BAD_INPUT}).
 *
 * <p>Thread-safety: immutable.
 */
public final class TraceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line: what and where, e.g. {@code "out/t: not a nicsim trace directory (no .cq4 file)"}
     */
    public TraceException(final String message) {
        super(message.replace('\n', ' ').replace('\r', ' '), null, false, false);
    }
}
