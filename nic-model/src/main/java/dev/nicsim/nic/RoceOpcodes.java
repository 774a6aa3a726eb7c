package dev.nicsim.nic;

import dev.nicsim.sim.RoceFraming;

/**
 * BTH opcodes of the RC transport as the NIC model uses them (IBTA Vol. 1 §9.2, Table 38, RC
 * opcodes 0b000_xxxxx; RoCEv2 CNP from IBTA Annex A17 §A17.9.3), plus the two vendor-specific
 * opcodes standing for the PCC RTT probe request and response (IBTA reserves 0xC0-0xFF for
 * manufacturer-specific opcodes).
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class RoceOpcodes {
    /** RC SEND First. */
    public static final int SEND_FIRST = 0x00;
    /** RC SEND Middle. */
    public static final int SEND_MIDDLE = 0x01;
    /** RC SEND Last. */
    public static final int SEND_LAST = 0x02;
    /** RC SEND Only. */
    public static final int SEND_ONLY = 0x04;
    /** RC RDMA WRITE First (carries RETH). */
    public static final int WRITE_FIRST = 0x06;
    /** RC RDMA WRITE Middle. */
    public static final int WRITE_MIDDLE = 0x07;
    /** RC RDMA WRITE Last. */
    public static final int WRITE_LAST = 0x08;
    /** RC RDMA WRITE Only (carries RETH). */
    public static final int WRITE_ONLY = 0x0A;
    /** RC RDMA READ Request (carries RETH). */
    public static final int READ_REQUEST = 0x0C;
    /** RC RDMA READ Response First (carries AETH). */
    public static final int READ_RESPONSE_FIRST = 0x0D;
    /** RC RDMA READ Response Middle. */
    public static final int READ_RESPONSE_MIDDLE = 0x0E;
    /** RC RDMA READ Response Last (carries AETH). */
    public static final int READ_RESPONSE_LAST = 0x0F;
    /** RC RDMA READ Response Only (carries AETH). */
    public static final int READ_RESPONSE_ONLY = 0x10;
    /** RC Acknowledge (carries AETH): ACK or NAK. */
    public static final int ACKNOWLEDGE = 0x11;
    /** RoCEv2 congestion notification packet. */
    public static final int CNP = 0x81;
    /** Vendor-specific: PCC RTT probe request. */
    public static final int RTT_PROBE = 0xC0;
    /** Vendor-specific: PCC RTT probe response. */
    public static final int RTT_RESPONSE = 0xC1;

    private RoceOpcodes() {
    }

    /**
     * Opcode of packet {@code index} of a message of {@code packets} packets.
     *
     * @param op      the operation; for READ the READ RESPONSE opcodes are returned
     * @param index   packet index in the message, {@code 0 .. packets-1}
     * @param packets packets in the message, positive
     * @return the BTH opcode
     */
    public static int dataOpcode(final MessageOp op, final int index, final int packets) {
        final int pos = packets == 1 ? 3 : index == 0 ? 0 : index == packets - 1 ? 2 : 1; // only, first, last, middle
        switch (op) {
            case WRITE:
                return pos == 3 ? WRITE_ONLY : pos == 0 ? WRITE_FIRST : pos == 2 ? WRITE_LAST : WRITE_MIDDLE;
            case SEND:
                return pos == 3 ? SEND_ONLY : pos == 0 ? SEND_FIRST : pos == 2 ? SEND_LAST : SEND_MIDDLE;
            default:
                return pos == 3 ? READ_RESPONSE_ONLY : pos == 0 ? READ_RESPONSE_FIRST
                    : pos == 2 ? READ_RESPONSE_LAST : READ_RESPONSE_MIDDLE;
        }
    }

    /**
     * Extension-header bytes a data packet carries besides BTH: RETH (16) on WRITE FIRST/ONLY,
     * AETH (4) on READ RESPONSE FIRST/LAST/ONLY, none otherwise.
     *
     * @param opcode BTH opcode of a data packet
     * @return extension header bytes, 0, 4 or 16
     */
    public static int extHeaderBytes(final int opcode) {
        switch (opcode) {
            case WRITE_FIRST:
            case WRITE_ONLY:
            case READ_REQUEST:
                return RoceFraming.RETH_BYTES;
            case READ_RESPONSE_FIRST:
            case READ_RESPONSE_LAST:
            case READ_RESPONSE_ONLY:
            case ACKNOWLEDGE:
                return RoceFraming.AETH_BYTES;
            default:
                return 0;
        }
    }

    /**
     * @param opcode BTH opcode
     * @return whether it is a READ RESPONSE opcode (0x0D-0x10)
     */
    public static boolean isReadResponse(final int opcode) {
        return opcode >= READ_RESPONSE_FIRST && opcode <= READ_RESPONSE_ONLY;
    }

    /**
     * @param opcode BTH opcode of a SEND or WRITE data packet
     * @return whether the packet ends its message (LAST or ONLY), which completes a message at the
     *         responder and advances its MSN
     */
    public static boolean endsMessage(final int opcode) {
        return opcode == SEND_LAST || opcode == SEND_ONLY || opcode == WRITE_LAST || opcode == WRITE_ONLY
            || opcode == READ_RESPONSE_LAST || opcode == READ_RESPONSE_ONLY;
    }
}
