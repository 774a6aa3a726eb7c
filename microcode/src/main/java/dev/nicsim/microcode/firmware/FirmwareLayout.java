package dev.nicsim.microcode.firmware;

/**
 * The binary contract between the emulator and the firmware runtime ({@code firmware/ABI.md}):
 * entry symbols, the mailbox an event call reads and writes, and the tables
 * {@code doca_pcc_dev_user_init} fills. Offsets are bytes; all fields little-endian.
 *
 * <h2>Mailbox ({@link #MAILBOX}, {@link #MAILBOX_BYTES} bytes)</h2>
 * <pre>
 *   0  event record, 64 bytes, as {@link dev.nicsim.pcc.PccEventLayout} (Java type codes)
 *  64  u64 line rate, bits/s          72  u32 MTU, bytes            76  u32 base RTT, ns
 *  80  u32 initial PSN (flow start)    84  u32 flags (bit 0: overloaded)
 *  88  u32 algorithm slot              92  u32 hardware thread rank
 *  96  u64 address of the flow's 48-byte context
 * 104  u32 now, ns (flow start)
 * 112  i32 result rate (-1 unchanged)  116 u32 result RTT probe request
 * 120  i64 result window bytes (-1 unchanged, 0 unlimited)
 * 128  i32 result timer ns (0 none)    132 i32 result fast-start packets (-1 unchanged)
 * </pre>
 *
 * <h2>Tables</h2>
 * {@link #ALGO_TABLE}: 8 rows of {@link #ALGO_ROW} bytes {declared, algo_id, major, minor,
 * param_num, counter_num, u64 desc_addr, desc_size, pad}; {@link #PARAM_TABLE}: 8 x
 * {@link #MAX_PARAMS} rows of {@link #PARAM_ROW} bytes {declared, default, max, min, permissions,
 * desc_size, u64 desc_addr}; {@link #PARAM_VALUES}: 8 x {@link #MAX_PARAMS} u32;
 * {@link #COUNTER_TABLE}: 8 x {@link #MAX_COUNTERS} rows of {@link #COUNTER_ROW} bytes {declared,
 * max, permissions, desc_size, u64 desc_addr}; {@link #COUNTER_VALUES}: 8 x {@link #MAX_COUNTERS}
 * u32; {@link #SLOT_TABLE}: 4 ports x 8 slots u32 (algorithm index + 1 when enabled, else 0);
 * {@link #DISABLE_MASK}: u32, bit {@code 1 << DOCA type} = events of that type not delivered.
 *
 * <p>Thread-safety: constants only.
 */
public final class FirmwareLayout {
    /** Entry that runs {@code doca_pcc_dev_user_init} once at load. */
    public static final String ENTRY_INIT = "nicsim_entry_init";
    /** Entry that runs {@code doca_pcc_dev_user_algo} for the mailbox's event. */
    public static final String ENTRY_EVENT = "nicsim_entry_event";
    /** Entry that runs a port's flow initialisation ({@code nicsim_user_flow_init}, if defined). */
    public static final String ENTRY_FLOW_START = "nicsim_entry_flow_start";
    /** The user algorithm every event reaches; an image without it is refused. */
    public static final String USER_ALGO = "doca_pcc_dev_user_algo";
    /** Top of the stack the entries run on (optional; else the end of the RAM after the image). */
    public static final String STACK_TOP = "__stack_top";

    /** Mailbox symbol. */
    public static final String MAILBOX = "nicsim_mailbox";
    /** Mailbox size, bytes. */
    public static final int MAILBOX_BYTES = 192;
    /** Offset of the event record. */
    public static final int MB_EVENT = 0;
    /** Offset of the line rate. */
    public static final int MB_LINE_RATE = 64;
    /** Offset of the MTU. */
    public static final int MB_MTU = 72;
    /** Offset of the base RTT. */
    public static final int MB_BASE_RTT = 76;
    /** Offset of the initial PSN. */
    public static final int MB_INITIAL_PSN = 80;
    /** Offset of the flags. */
    public static final int MB_FLAGS = 84;
    /** Flag bit: the event queue is above its high-water mark. */
    public static final int FLAG_OVERLOADED = 1;
    /** Offset of the algorithm slot. */
    public static final int MB_SLOT = 88;
    /** Offset of the hardware thread rank. */
    public static final int MB_THREAD = 92;
    /** Offset of the context address. */
    public static final int MB_CONTEXT = 96;
    /** Offset of now (ns). */
    public static final int MB_NOW = 104;
    /** Offset of the result rate. */
    public static final int MB_RATE = 112;
    /** Offset of the result RTT probe request. */
    public static final int MB_RTT_REQ = 116;
    /** Offset of the result window. */
    public static final int MB_WINDOW = 120;
    /** Offset of the result timer. */
    public static final int MB_TIMER = 128;
    /** Offset of the result fast-start budget. */
    public static final int MB_FAST_START = 132;

    /** Algorithms table symbol. */
    public static final String ALGO_TABLE = "nicsim_algo_table";
    /** Parameter descriptor table symbol. */
    public static final String PARAM_TABLE = "nicsim_param_table";
    /** Parameter values symbol. */
    public static final String PARAM_VALUES = "nicsim_param_values";
    /** Counter descriptor table symbol. */
    public static final String COUNTER_TABLE = "nicsim_counter_table";
    /** Counter values symbol. */
    public static final String COUNTER_VALUES = "nicsim_counter_values";
    /** Port/slot table symbol. */
    public static final String SLOT_TABLE = "nicsim_slot_table";
    /** Disabled-event bitmask symbol. */
    public static final String DISABLE_MASK = "nicsim_disable_mask";
    /** Algorithms. */
    public static final int MAX_ALGOS = 8;
    /** Parameters per algorithm. */
    public static final int MAX_PARAMS = 0x2C;
    /** Counters per algorithm. */
    public static final int MAX_COUNTERS = 0x3F;
    /** Ports. */
    public static final int MAX_PORTS = 4;
    /** Slots per port. */
    public static final int MAX_SLOTS = 8;
    /** Bytes per algorithm row. */
    public static final int ALGO_ROW = 40;
    /** Bytes per parameter row. */
    public static final int PARAM_ROW = 32;
    /** Bytes per counter row. */
    public static final int COUNTER_ROW = 24;

    /** DOCA event type codes, indexed by Java type (TX_BURST, ACK, NACK, CNP, RTT_RESPONSE, TIMER). */
    static final int[] DOCA_TYPE = {3, 4, 5, 2, 6, 7};

    private FirmwareLayout() {
    }
}
