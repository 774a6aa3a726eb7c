package dev.nicsim.pcc;

/**
 * PCC event types and NACK subtypes, as the one-byte codes stored in the event record
 * ({@link PccEventLayout#TYPE_OFFSET}, {@link PccEventLayout#SUBTYPE_OFFSET}).
 *
 * <p>Codes are dense from 0 so that per-type counters and cost tables can be arrays indexed by
 * type. Thread-safety: constants only.
 */
public final class PccEventType {
    /** End of a transmitted burst: {@link PccEvent#txBytes()} and {@link PccEvent#txPackets()} sent. */
    public static final int TX_BURST = 0;
    /** An ACK arrived: {@link PccEvent#sn()} is the acknowledged PSN; flag {@link PccEventLayout#FLAG_ECE} echoes CE. */
    public static final int ACK = 1;
    /** A NAK arrived; the subtype tells which ({@link #NACK_RNR}, {@link #NACK_OUT_OF_SEQUENCE}, {@link #NACK_DUPLICATE_READ}). */
    public static final int NACK = 2;
    /** A congestion notification packet (BTH opcode 0x81) arrived for this flow. */
    public static final int CNP = 3;
    /** An RTT probe response arrived; the three RTT timestamps are set. */
    public static final int RTT_RESPONSE = 4;
    /** A timer the algorithm armed through {@link PccResult#armTimerNs(int)} expired. */
    public static final int TIMER = 5;
    /** Number of event types; valid codes are {@code 0 .. COUNT-1}. */
    public static final int COUNT = 6;

    /** Subtype for events without one. */
    public static final int SUBTYPE_NONE = 0;
    /** NACK subtype: receiver not ready (AETH syndrome RNR NAK). */
    public static final int NACK_RNR = 1;
    /** NACK subtype: PSN sequence error, the responder saw a gap (AETH NAK code 0). */
    public static final int NACK_OUT_OF_SEQUENCE = 2;
    /** NACK subtype: a duplicate READ request was detected. */
    public static final int NACK_DUPLICATE_READ = 3;

    private static final String[] NAMES = {"TX_BURST", "ACK", "NACK", "CNP", "RTT_RESPONSE", "TIMER"};
    private static final String[] SHORT_NAMES = {"tx", "ack", "nack", "cnp", "rtt", "timer"};

    private PccEventType() {
    }

    /**
     * The upper-case name of an event type.
     *
     * @param type event type code, {@code 0 .. COUNT-1}
     * @return the name, e.g. {@code "ACK"}
     * @throws IllegalArgumentException if {@code type} is not a valid code
     */
    public static String name(final int type) {
        check(type);
        return NAMES[type];
    }

    /**
     * The short lower-case name used in counter names ({@code tx, ack, nack, cnp, rtt, timer}).
     *
     * @param type event type code, {@code 0 .. COUNT-1}
     * @return the short name
     * @throws IllegalArgumentException if {@code type} is not a valid code
     */
    public static String shortName(final int type) {
        check(type);
        return SHORT_NAMES[type];
    }

    private static void check(final int type) {
        if (type < 0 || type >= COUNT) {
            throw new IllegalArgumentException("PCC event type " + type + " is not in 0.." + (COUNT - 1));
        }
    }
}
