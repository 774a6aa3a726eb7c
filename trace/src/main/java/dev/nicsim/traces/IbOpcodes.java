package dev.nicsim.traces;

import java.util.Arrays;

/**
 * BTH opcodes (IBTA Vol. 1 §9.2.1 Table 38 "OpCode field"; 0x81 CNP from Annex A17 §A17.9.2):
 * transport service in the top 3 bits (RC 0x00, UC 0x20, RD 0x40, UD 0x60, CNP 0x80, XRC 0xA0,
 * 0xC0-0xFF manufacturer specific), operation in the low 5 bits; which extension headers follow the
 * BTH (§9.3, in packet order RDETH, DETH, XRCETH, RETH / AtomicETH, AETH, AtomicAckETH, ImmDt /
 * IETH) and whether the requester or the responder sends it.
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class IbOpcodes {
    /** RC RDMA WRITE Only (RETH). */
    public static final int RC_RDMA_WRITE_ONLY = 0x0A;
    /** RC RDMA READ Request (RETH). */
    public static final int RC_RDMA_READ_REQUEST = 0x0C;
    /** RC RDMA READ Response First (AETH). */
    public static final int RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    /** RC RDMA READ Response Middle. */
    public static final int RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    /** RC RDMA READ Response Last (AETH). */
    public static final int RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    /** RC RDMA READ Response Only (AETH). */
    public static final int RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    /** RC Acknowledge (AETH). */
    public static final int RC_ACKNOWLEDGE = 0x11;
    /** RC ATOMIC Acknowledge (AETH, AtomicAckETH). */
    public static final int RC_ATOMIC_ACKNOWLEDGE = 0x12;
    /** UD SEND Only (DETH). */
    public static final int UD_SEND_ONLY = 0x64;
    /** RoCEv2 Congestion Notification Packet (16 reserved bytes, no extension header). */
    public static final int CNP = 0x81;

    /** Extension header flag: RDMA extended transport header, 16 bytes. */
    public static final int RETH = 1;
    /** Extension header flag: ACK extended transport header, 4 bytes. */
    public static final int AETH = 1 << 1;
    /** Extension header flag: immediate data, 4 bytes. */
    public static final int IMM = 1 << 2;
    /** Extension header flag: invalidate extended transport header, 4 bytes. */
    public static final int IETH = 1 << 3;
    /** Extension header flag: datagram extended transport header (Q_Key, source QP), 8 bytes. */
    public static final int DETH = 1 << 4;
    /** Extension header flag: XRC extended transport header, 4 bytes. */
    public static final int XRCETH = 1 << 5;
    /** Extension header flag: atomic extended transport header, 28 bytes. */
    public static final int ATOMIC_ETH = 1 << 6;
    /** Extension header flag: atomic acknowledge extended transport header, 8 bytes. */
    public static final int ATOMIC_ACK_ETH = 1 << 7;
    /** Extension header flag: FLUSH extended transport header, 4 bytes (IBTA 1.5). */
    public static final int FETH = 1 << 8;
    /** Extension header flags in packet order after the BTH (ImmDt and IETH exclude each other). */
    private static final int[] HEADER_ORDER = {DETH, XRCETH, FETH, RETH, ATOMIC_ETH, AETH, ATOMIC_ACK_ETH, IMM, IETH};
    /** Bytes of each header of {@link #HEADER_ORDER}. */
    private static final int[] HEADER_BYTES = {8, 4, 4, 16, 28, 4, 8, 4, 4};
    /** Layout marker: the opcode is reserved, RD, or manufacturer specific; extension headers unknown. */
    public static final int UNKNOWN = -1;

    /** Service code (top 3 bits of the opcode): Reliable Connection. */
    public static final int SERVICE_RC = 0x00;
    /** Service code: Unreliable Connection. */
    public static final int SERVICE_UC = 0x20;
    /** Service code: Reliable Datagram. */
    public static final int SERVICE_RD = 0x40;
    /** Service code: Unreliable Datagram. */
    public static final int SERVICE_UD = 0x60;
    /** Service code: CNP. */
    public static final int SERVICE_CNP = 0x80;
    /** Service code: Extended Reliable Connection. */
    public static final int SERVICE_XRC = 0xA0;

    private static final int[] LAYOUT = new int[256];
    private static final String[] NAMES = new String[256];
    private static final String[] RC_OPS = {
        "SEND First", "SEND Middle", "SEND Last", "SEND Last with Immediate", "SEND Only",
        "SEND Only with Immediate", "RDMA WRITE First", "RDMA WRITE Middle", "RDMA WRITE Last",
        "RDMA WRITE Last with Immediate", "RDMA WRITE Only", "RDMA WRITE Only with Immediate",
        "RDMA READ Request", "RDMA READ Response First", "RDMA READ Response Middle",
        "RDMA READ Response Last", "RDMA READ Response Only", "Acknowledge", "ATOMIC Acknowledge",
        "CmpSwap", "FetchAdd", null, "SEND Last with Invalidate", "SEND Only with Invalidate",
        "FLUSH", "ATOMIC WRITE"};
    private static final int[] RC_LAYOUT = {
        0, 0, 0, IMM, 0, IMM, RETH, 0, 0, IMM, RETH, RETH | IMM, RETH, AETH, 0, AETH, AETH, AETH,
        AETH | ATOMIC_ACK_ETH, ATOMIC_ETH, ATOMIC_ETH, UNKNOWN, IETH, IETH, FETH | RETH, RETH};

    static {
        Arrays.fill(LAYOUT, UNKNOWN);
        for (int op = 0; op < RC_OPS.length; op++) {
            if (RC_OPS[op] == null) {
                continue;
            }
            LAYOUT[SERVICE_RC | op] = RC_LAYOUT[op];
            NAMES[SERVICE_RC | op] = "RC " + RC_OPS[op];
            final boolean response = op >= 13 && op <= 18;
            LAYOUT[SERVICE_XRC | op] = response ? RC_LAYOUT[op] : RC_LAYOUT[op] | XRCETH;
            NAMES[SERVICE_XRC | op] = "XRC " + RC_OPS[op];
            if (op <= 11) {
                LAYOUT[SERVICE_UC | op] = RC_LAYOUT[op];
                NAMES[SERVICE_UC | op] = "UC " + RC_OPS[op];
            }
            if (op <= 20) {
                NAMES[SERVICE_RD | op] = "RD " + RC_OPS[op]; // layout left UNKNOWN: RD is not deployed
            }
        }
        LAYOUT[SERVICE_UD | 4] = DETH;
        NAMES[SERVICE_UD | 4] = "UD SEND Only";
        LAYOUT[SERVICE_UD | 5] = DETH | IMM;
        NAMES[SERVICE_UD | 5] = "UD SEND Only with Immediate";
        LAYOUT[CNP] = 0;
        NAMES[CNP] = "CNP";
    }

    private IbOpcodes() {
    }

    /**
     * The extension headers that follow the BTH for an opcode.
     *
     * @param opcode BTH opcode, 0..255
     * @return OR of {@link #RETH}, {@link #AETH}, ... or {@link #UNKNOWN}
     */
    public static int layout(final int opcode) {
        return LAYOUT[opcode & 0xFF];
    }

    /**
     * Bytes of the extension headers in a layout.
     *
     * @param layout a value from {@link #layout(int)}, not {@link #UNKNOWN}
     * @return bytes between the end of the BTH and the payload
     */
    public static int extensionBytes(final int layout) {
        return headerBytesBefore(layout, HEADER_ORDER.length);
    }

    /**
     * Where an extension header starts, counted from the end of the BTH: the bytes of the headers
     * of the layout that come before it in packet order (DETH, XRCETH, FETH, RETH, AtomicETH, AETH,
     * AtomicAckETH, ImmDt / IETH).
     *
     * @param layout a value from {@link #layout(int)}, not {@link #UNKNOWN}
     * @param header one flag: {@link #DETH}, {@link #RETH}, {@link #AETH}, {@link #IMM} or {@link #IETH} ...
     * @return byte offset of the header after the BTH (whether or not the layout holds it)
     * @throws IllegalArgumentException if {@code header} is not one extension header flag
     */
    public static int offset(final int layout, final int header) {
        for (int i = 0; i < HEADER_ORDER.length; i++) {
            if (HEADER_ORDER[i] == header) {
                return headerBytesBefore(layout, i);
            }
        }
        throw new IllegalArgumentException("not an extension header flag: " + header);
    }

    private static int headerBytesBefore(final int layout, final int end) {
        int n = 0;
        for (int i = 0; i < end; i++) {
            if ((layout & HEADER_ORDER[i]) != 0) {
                n += HEADER_BYTES[i];
            }
        }
        return n;
    }

    /**
     * Whether the opcode is sent by a requester of a connected service (RC, UC, RD, XRC): SEND,
     * RDMA WRITE, RDMA READ Request, atomics, FLUSH. These make up a requester's TX bursts.
     *
     * @param opcode BTH opcode, 0..255
     * @return true for a defined connected-service request opcode
     */
    public static boolean isConnectedRequest(final int opcode) {
        final int service = opcode & 0xE0;
        final int op = opcode & 0x1F;
        if (service == SERVICE_UC) {
            return op <= 11;
        }
        if (service == SERVICE_RC || service == SERVICE_XRC || service == SERVICE_RD) {
            return op <= 25 && op != 21 && (op < 13 || op > 18);
        }
        return false;
    }

    /**
     * Whether the opcode is sent by a responder (RDMA READ Response First/Middle/Last/Only,
     * Acknowledge, ATOMIC Acknowledge of RC, RD or XRC).
     *
     * @param opcode BTH opcode, 0..255
     * @return true for a response opcode
     */
    public static boolean isResponse(final int opcode) {
        final int service = opcode & 0xE0;
        final int op = opcode & 0x1F;
        return (service == SERVICE_RC || service == SERVICE_XRC || service == SERVICE_RD) && op >= 13 && op <= 18;
    }

    /**
     * The opcode's name.
     *
     * @param opcode BTH opcode, 0..255
     * @return e.g. {@code "RC RDMA WRITE Only"}, {@code "CNP"}, or {@code "opcode 0xNN"} when reserved
     *         or manufacturer specific
     */
    public static String name(final int opcode) {
        final String n = NAMES[opcode & 0xFF];
        return n != null ? n : String.format("opcode 0x%02x", opcode & 0xFF);
    }
}
