package dev.nicsim.pcc;

/**
 * Layout of one PCC event record, 64 bytes, little-endian, as it sits in an event ring or trace.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+---------------+---------------+
 *  |     type      |    subtype    |     port      |     flags     |  0
 *  +---------------+---------------+---------------+---------------+
 *  |              flow id (QPN, low 24 bits used)                  |  4
 *  +---------------------------------------------------------------+
 *  |              sequence number (PSN, 24 bits used)              |  8
 *  +---------------------------------------------------------------+
 *  |              timestamp, ns (32-bit, wraps)                    | 12
 *  +---------------------------------------------------------------+
 *  |              first timestamp, ns (coalesced events)           | 16
 *  +---------------------------------------------------------------+
 *  |              first sequence number (coalesced events)         | 20
 *  +---------------------------------------------------------------+
 *  |              number coalesced (1 = not coalesced)             | 24
 *  +---------------------------------------------------------------+
 *  |              TX bytes (TX_BURST)                              | 28
 *  +---------------------------------------------------------------+
 *  |              TX packets (TX_BURST)                            | 32
 *  +---------------------------------------------------------------+
 *  |              RTT request send timestamp, ns                   | 36
 *  +---------------------------------------------------------------+
 *  |              RTT request receive timestamp, ns                | 40
 *  +---------------------------------------------------------------+
 *  |              RTT response send timestamp, ns                  | 44
 *  +---------------------------------------------------------------+
 *  |              reserved (zero)                                  | 48..63
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>For an RTT_RESPONSE, the three RTT words are also the response's 12 bytes of raw data
 * ({@link PccEvent#rttRawByte}, DOCA's {@code doca_pcc_dev_get_rtt_raw_data}): the hardware
 * responder's timestamps, or what a notification-point program wrote, read big-endian.
 *
 * <p>For an ACK, the RTT request-send field carries the transmit timestamp of the acknowledged
 * packet echoed by the responder (as a timestamp option would), so window algorithms can measure
 * RTT without probes; zero when unknown. A NACK carries the transmit timestamp its NAK echoes in the
 * same field (the trimmed packet's, when the receiver echoes it), zero when it echoes none.
 *
 * <h2>INT on ACK events (HPCC)</h2>
 * An ACK with {@link #FLAG_INT} carries the in-band telemetry the acknowledged data packet
 * collected, echoed by the responder: the hop count (0..{@link #INT_MAX_HOPS}) in flag bits 4..6
 * ({@link #FLAG_INT_HOPS_MASK}) and up to five {@link PccIntHop} records of 51 bits in the 32 bytes
 * an ACK does not otherwise use: the TX bytes/packets field (28..35) and the RTT receive/response
 * fields and the reserved bytes (40..63), read as four little-endian longs at
 * {@link #INT_WORD_OFFSETS} forming one 256-bit string; hop {@code i} (0 = first switch after the
 * sender) is bits {@code 51 i .. 51 i + 50}. The record stays 64 bytes. Thread-safety: constants only.
 */
public final class PccEventLayout {
    /** Offset of the one-byte event type ({@link PccEventType}). */
    public static final int TYPE_OFFSET = 0;
    /** Offset of the one-byte subtype (NACK subtypes in {@link PccEventType}). */
    public static final int SUBTYPE_OFFSET = 1;
    /** Offset of the one-byte NIC port number. */
    public static final int PORT_OFFSET = 2;
    /** Offset of the one-byte flags ({@link #FLAG_ECE}, {@link #FLAG_FIRST_IN_FLOW}). */
    public static final int FLAGS_OFFSET = 3;
    /** Offset of the 32-bit flow id; the low 24 bits are the requester QPN. */
    public static final int FLOW_ID_OFFSET = 4;
    /** Offset of the 32-bit sequence number (PSN for ACK/NACK, last PSN sent for TX_BURST). */
    public static final int SN_OFFSET = 8;
    /** Offset of the 32-bit wrapping nanosecond timestamp of the (last) event. */
    public static final int TIMESTAMP_OFFSET = 12;
    /** Offset of the timestamp of the first event merged into a coalesced event. */
    public static final int FIRST_TIMESTAMP_OFFSET = 16;
    /** Offset of the sequence number of the first event merged into a coalesced event. */
    public static final int FIRST_SN_OFFSET = 20;
    /** Offset of the number of events merged into this one (1 when not coalesced). */
    public static final int NUM_COALESCED_OFFSET = 24;
    /** Offset of the bytes sent in a TX burst. */
    public static final int TX_BYTES_OFFSET = 28;
    /** Offset of the packets sent in a TX burst. */
    public static final int TX_PACKETS_OFFSET = 32;
    /** Offset of the RTT request send timestamp (ns, wraps). */
    public static final int RTT_REQUEST_SEND_OFFSET = 36;
    /** Offset of the RTT request receive timestamp at the responder (ns, wraps). */
    public static final int RTT_REQUEST_RECEIVE_OFFSET = 40;
    /** Offset of the RTT response send timestamp at the responder (ns, wraps). */
    public static final int RTT_RESPONSE_SEND_OFFSET = 44;
    /**
     * Bytes of an RTT_RESPONSE event's raw data (DOCA's {@code doca_pcc_dev_get_rtt_raw_data_size}): the
     * three RTT words at {@link #RTT_REQUEST_SEND_OFFSET}, each read big-endian ({@link PccEvent#rttRawByte}).
     */
    public static final int RTT_RAW_DATA_BYTES = 12;
    /** Length of one record in bytes; records are aligned to this length in rings. */
    public static final int RECORD_LENGTH = 64;

    /** Flag: the ACK echoes a CE mark (ECN-Echo). */
    public static final int FLAG_ECE = 0x01;
    /** Flag: the first event the flow produced (the flow has just started). */
    public static final int FLAG_FIRST_IN_FLOW = 0x02;
    /** Flag: the CNP carried the BECN bit. */
    public static final int FLAG_BECN = 0x04;
    /** Flag: the ACK carries INT hop records (HPCC). */
    public static final int FLAG_INT = 0x08;
    /** Flag bits holding the INT hop count. */
    public static final int FLAG_INT_HOPS_MASK = 0x70;
    /** Shift of the INT hop count in the flags. */
    public static final int FLAG_INT_HOPS_SHIFT = 4;
    /** Most INT hops an ACK carries (the HPCC ns-3 {@code IntHeader::maxHop}). */
    public static final int INT_MAX_HOPS = 5;
    /** Offsets of the four longs holding the INT hop records of an ACK. */
    public static final int[] INT_WORD_OFFSETS = {28, 40, 48, 56};

    /**
     * Flag of a TX_BURST event: the NIC has sent an RTT probe for the flow since the flow's previous TX_BURST
     * event (DOCA's {@code DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT}, fact sheet A.7 step 3: after a result with
     * {@code rtt_req = 1} "a later TX event carries" it). Set on the first TX_BURST event after each probe
     * only; firmware sees it as DOCA flag 4 in the event's flag byte (firmware/ABI.md section 4.1). Bit 7,
     * free on every event type (0x04 is {@link #FLAG_BECN} on CNPs).
     */
    public static final int FLAG_RTT_REQ_SENT = 0x80;

    /** Mask of the 24 bits of a QPN or PSN. */
    public static final int MASK_24 = 0xFF_FFFF;

    private PccEventLayout() {
    }
}
