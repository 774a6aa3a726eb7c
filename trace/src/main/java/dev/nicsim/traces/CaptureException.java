package dev.nicsim.traces;

/**
 * A capture could not be read or decoded: truncated file, wrong magic, unsupported link type, a
 * packet cut by the snap length, garbage in a field, or an I/O error.
 *
 * <p>{@link #getMessage()} is one line meant for a user: the file name, the packet number (the
 * 1-based ordinal of the packet record where the problem is; 0 for the file header), what is wrong
 * and, when known, what was read and skipped before, e.g.
 * {@code "dump.pcap: packet 7: truncated file: packet record needs 1086 bytes, 320 left; 6 packets
 * read: 2 RoCE/IB, 4 skipped (4 non-RoCE EtherType)"}. Callers print the message; the stack trace
 * carries nothing a user needs. Thread-safety: immutable.
 */
public final class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The file (or in-memory capture) name. */
    private final String fileName;
    /** 1-based packet number the problem is at; 0 for the file header. */
    private final long packetNumber;
    /** What is wrong, without the file name and packet number. */
    private final String problem;

    /**
     * Creates an exception.
     *
     * @param fileName     the capture's name (file name or a label for in-memory data)
     * @param packetNumber 1-based number of the packet record at fault; 0 for the file header
     * @param problem      what is wrong, one line, no trailing period
     */
    public CaptureException(final String fileName, final long packetNumber, final String problem) {
        this(fileName, packetNumber, problem, "");
    }

    /**
     * Creates an exception with counts of what was read and skipped before the problem.
     *
     * @param fileName     the capture's name
     * @param packetNumber 1-based number of the packet record at fault; 0 for the file header
     * @param problem      what is wrong, one line
     * @param counts       what was read and skipped before, one line, or empty
     */
    public CaptureException(final String fileName, final long packetNumber, final String problem,
                            final String counts) {
        super(format(fileName, packetNumber, problem, counts));
        this.fileName = fileName;
        this.packetNumber = packetNumber;
        this.problem = problem;
    }

    private static String format(final String fileName, final long packetNumber, final String problem,
                                 final String counts) {
        final String where = packetNumber > 0 ? fileName + ": packet " + packetNumber + ": " : fileName + ": ";
        final String line = counts == null || counts.isEmpty() ? where + problem : where + problem + "; " + counts;
        // one line whatever the parts contain
        return line.replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * A copy of this exception with counts of what was read and skipped attached.
     *
     * @param newCounts counts, one line
     * @return a new exception with the same file, packet number and problem
     */
    public CaptureException withCounts(final String newCounts) {
        return new CaptureException(fileName, packetNumber, problem, newCounts);
    }
}
