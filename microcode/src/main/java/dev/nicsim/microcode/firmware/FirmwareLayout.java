package dev.nicsim.microcode.firmware;

/**
 * The binary contract between the emulator and the firmware runtime, version 1
 * ({@code firmware/ABI.md}): entry symbols, the memory map, the per-thread mailbox (event
 * big-endian as DOCA getters expect, attributes, results, control) and the tables
 * {@code doca_pcc_dev_user_init} fills. Offsets are bytes. The firmware side defines the same
 * numbers in {@code firmware/include/nicsim_pcc_abi.h} (and the mailbox structs in
 * {@code doca_pcc_dev_event.h} and {@code doca_pcc_dev_common.h}); {@code FirmwareLayoutAbiTest}
 * checks every constant here against those sources.
 *
 * <p>Thread-safety: constants only.
 */
public final class FirmwareLayout {
    /** ABI version symbol (u32 in .rodata) and the version this emulator speaks. */
    public static final String ABI_VERSION_SYMBOL = "nicsim_pcc_abi_version";
    /** The ABI version understood. */
    public static final int ABI_VERSION = 1;
    /** Per-event and per-flow entry (a0 = mailbox, a1 = context). */
    public static final String ENTRY_EVENT = "nicsim_pcc_event_entry";
    /** Load-init entry (a0 = thread 0's mailbox, a1 = 0). */
    public static final String ENTRY_INIT = "nicsim_pcc_init_entry";
    /** The user algorithm; an image without it is refused. */
    public static final String USER_ALGO = "doca_pcc_dev_user_algo";

    /** Thread area: slot i (mailbox, then stack) at {@code THREAD_AREA + i * THREAD_SLOT_BYTES}. */
    public static final long THREAD_AREA = 0x0100_0000L;
    /** Bytes per thread slot. */
    public static final long THREAD_SLOT_BYTES = 0x1000;
    /** Hardware-thread slots. */
    public static final int MAX_THREADS = 256;
    /** Context memory base (the emulator's region). */
    public static final long CONTEXT_BASE = 0x4000_0000L;

    /** ecall: call complete. */
    public static final int ECALL_DONE = 0x4E00;
    /** ecall: print (a0 buffer, a1 length). */
    public static final int ECALL_PRINT = 0x4E01;
    /** ecall: trace entry. */
    public static final int ECALL_TRACE = 0x4E02;
    /** ecall: trace flush. */
    public static final int ECALL_TRACE_FLUSH = 0x4E03;
    /** ecall: read NIC counters (a0 ids, a1 count, a2 values); returns 0, or -22 for an unknown id. */
    public static final int ECALL_NIC_COUNTERS = 0x4E04;

    // mailbox: event (big-endian), bytes 0..79
    static final int EV_TYPE = 0;
    static final int EV_SUBTYPE = 1;
    static final int EV_PORT = 2;
    static final int EV_FLAGS = 3;
    /** DOCA's {@code DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT} in the {@link #EV_FLAGS} byte of a TX event. */
    static final int DOCA_TX_FLAG_RTT_REQ_SENT = 4;
    static final int EV_FLOW_TAG = 4;
    static final int EV_SN = 8;
    static final int EV_TIMESTAMP = 12;
    static final int EV_FIRST_TIMESTAMP = 16;
    static final int EV_FIRST_SN = 20;
    static final int EV_NUM_COALESCED = 24;
    static final int EV_SENT_32BYTES = 28;
    static final int EV_SENT_PKTS = 30;
    static final int EV_RTT_REQ_SEND = 32;
    static final int EV_RTT_REQ_RECV = 36;
    static final int EV_RTT_RESP_SEND = 40;
    /** NVIDIA's ev_spec_attr union: roce_tx on TX events, raw data (12 bytes) on RTT events. */
    static final int EV_SPEC_ATTR = 44;
    static final int EV_QPN = 56;
    static final int EV_NICSIM_FLAGS = 60;
    static final int EV_NICSIM_TYPE = 61;
    static final int EV_TX_BYTES = 64;
    static final int EV_TX_PACKETS = 68;
    /** Reserved event bytes 72..79, written 0. */
    static final int EV_RESERVED = 72;
    // attributes, little-endian
    static final int AT_SLOT_OVERLOAD = 80;
    static final int AT_MTU = 84;
    static final int AT_LINE_RATE = 88;
    static final int AT_BASE_RTT = 96;
    static final int AT_INITIAL_PSN = 100;
    static final int AT_NOW_NS = 104;
    // results
    static final int RS_RATE = 112;
    static final int RS_RTT_REQ = 116;
    static final int RS_WINDOW = 120;
    static final int RS_TIMER = 128;
    static final int RS_FAST_START = 132;
    // control
    static final int CT_CALL = 144;
    static final int CT_THREAD_RANK = 148;
    static final int CT_NOW_NS = 152;
    static final int CT_NOW_US = 160;
    static final int CT_STATUS = 168;
    static final int CT_ARG = 176;
    static final int CT_ARG2 = 180;
    static final int CT_OUT_SIZE = 184;
    static final int CT_RETURN = 188;
    static final int CT_NP_DATA = 192;
    /** NP call: offset of the UDP header in the request ({@code NICSIM_MB_NP_L4_OFFSET}). */
    static final int CT_NP_L4_OFFSET = 204;
    /** NP call: offset of the payload in the request ({@code NICSIM_MB_NP_PAYLOAD_OFFSET}). */
    static final int CT_NP_PAYLOAD_OFFSET = 208;
    /** Control {@code call}: an event. */
    static final int CALL_EVENT = 0;
    /** Control {@code call}: a new flow. */
    static final int CALL_FLOW_INIT = 1;
    /** Control {@code call}: {@code doca_pcc_dev_user_port_info_changed(arg)}. */
    static final int CALL_PORT_INFO = 3;
    /** Control {@code call}: {@code doca_pcc_dev_user_mailbox_handle} on the host request buffer. */
    static final int CALL_HOST_MAILBOX = 4;
    /** Control {@code call}: {@code doca_pcc_dev_np_user_packet_handler}. */
    static final int CALL_NP_PACKET = 5;

    /** Optional callback: port state changed. */
    public static final String PORT_INFO_HANDLER = "doca_pcc_dev_user_port_info_changed";
    /** Optional callback: host mailbox message. */
    public static final String MAILBOX_HANDLER = "doca_pcc_dev_user_mailbox_handle";
    /** NP program entry: probe request. */
    public static final String NP_HANDLER = "doca_pcc_dev_np_user_packet_handler";
    /** Port state the emulator writes: u32 mask, u32 speed (Gb/s) per port. */
    static final String PORTS = "nicsim_pcc_ports";
    /** Host mailbox request and response buffers, {@link #HOST_MAILBOX_BYTES} each. */
    static final String HOST_REQUEST = "nicsim_pcc_host_request";
    static final String HOST_RESPONSE = "nicsim_pcc_host_response";
    /** Bytes of each host mailbox buffer. */
    public static final int HOST_MAILBOX_BYTES = 1024;

    /** Algorithms table. */
    public static final String ALGO_TABLE = "nicsim_pcc_algos";
    /** Parameter descriptors. */
    public static final String PARAM_TABLE = "nicsim_pcc_param_table";
    /** Parameter values [port][slot][id]. */
    public static final String PARAM_VALUES = "nicsim_pcc_params";
    /** Counter descriptors. */
    public static final String COUNTER_TABLE = "nicsim_pcc_counter_table";
    /** Counter values [thread][port][slot][id]. */
    public static final String COUNTER_VALUES = "nicsim_pcc_counters";
    /** Port/slot table. */
    public static final String SLOT_TABLE = "nicsim_pcc_slots";
    /** Disabled-event bitmask. */
    public static final String DISABLE_MASK = "nicsim_pcc_disabled_events";
    static final int MAX_ALGOS = 8;
    static final int MAX_PARAMS = 48;
    static final int MAX_COUNTERS = 16;
    static final int MAX_PORTS = 4;
    static final int MAX_SLOTS = 8;
    /**
     * {@code attr->algo_slot} of events when the firmware enabled no slot: DOCA's
     * {@code DOCA_PCC_DEV_ALGO_SLOT_INTERNAL}, the built-in algorithm's slot.
     */
    static final int INTERNAL_SLOT = 15;
    static final int ALGO_ROW = 48;
    static final int PARAM_ROW = 64;
    static final int COUNTER_ROW = 48;
    static final int SLOT_ROW = 8;

    /** DOCA event type codes, indexed by Java type (TX_BURST, ACK, NACK, CNP, RTT_RESPONSE, TIMER). */
    static final int[] DOCA_TYPE = {3, 4, 5, 2, 6, 8};

    private FirmwareLayout() {
    }
}
