package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link FirmwareLayout} is a hand copy of the firmware side of the ABI; this test reads the
 * firmware's own sources in this repository and checks every constant of the class against them:
 * the {@code #define}s of {@code firmware/include/nicsim_pcc_abi.h} (memory map, limits, ecall
 * numbers, mailbox control offsets, call kinds, table entry sizes), the offsets of the mailbox's
 * event, attribute and result structs ({@code doca_pcc_dev_event_t} in doca_pcc_dev_event.h,
 * {@code doca_pcc_dev_attr_t} and {@code doca_pcc_dev_results_t} in doca_pcc_dev_common.h, laid
 * out here by the C rules for natural alignment, as RV64 GCC lays them out), the sizes of the table
 * entry structs, DOCA's event type codes and TX flag, and the symbol names (the header's
 * {@code extern}s, the runtime's entry points in start.S, the DOCA callbacks' prototypes).
 *
 * <p>A constant added to FirmwareLayout without a row here fails too, so the check stays whole.
 * The sources are part of the repository, so the test never skips.
 */
class FirmwareLayoutAbiTest {
    private static final Path INCLUDE = root().resolve("firmware/include");

    /** FirmwareLayout constant -> the #define of nicsim_pcc_abi.h it copies. */
    private static final Map<String, String> DEFINES = Map.ofEntries(
        Map.entry("ABI_VERSION", "NICSIM_PCC_ABI_VERSION"),
        Map.entry("THREAD_AREA", "NICSIM_PCC_THREADS_BASE"),
        Map.entry("THREAD_SLOT_BYTES", "NICSIM_PCC_THREAD_SLOT_BYTES"),
        Map.entry("MAX_THREADS", "NICSIM_PCC_MAX_THREADS"),
        Map.entry("CONTEXT_BASE", "NICSIM_PCC_CONTEXT_BASE"),
        Map.entry("ECALL_DONE", "NICSIM_ECALL_DONE"),
        Map.entry("ECALL_PRINT", "NICSIM_ECALL_PRINT"),
        Map.entry("ECALL_TRACE", "NICSIM_ECALL_TRACE"),
        Map.entry("ECALL_TRACE_FLUSH", "NICSIM_ECALL_TRACE_FLUSH"),
        Map.entry("ECALL_NIC_COUNTERS", "NICSIM_ECALL_NIC_COUNTERS"),
        Map.entry("CT_CALL", "NICSIM_MB_CALL"),
        Map.entry("CT_THREAD_RANK", "NICSIM_MB_THREAD_RANK"),
        Map.entry("CT_NOW_NS", "NICSIM_MB_NOW_NS"),
        Map.entry("CT_NOW_US", "NICSIM_MB_NOW_US"),
        Map.entry("CT_STATUS", "NICSIM_MB_STATUS"),
        Map.entry("CT_ARG", "NICSIM_MB_ARG"),
        Map.entry("CT_ARG2", "NICSIM_MB_ARG2"),
        Map.entry("CT_OUT_SIZE", "NICSIM_MB_OUT_SIZE"),
        Map.entry("CT_RETURN", "NICSIM_MB_RETURN"),
        Map.entry("CT_NP_DATA", "NICSIM_MB_NP_DATA"),
        Map.entry("CT_NP_L4_OFFSET", "NICSIM_MB_NP_L4_OFFSET"),
        Map.entry("CT_NP_PAYLOAD_OFFSET", "NICSIM_MB_NP_PAYLOAD_OFFSET"),
        Map.entry("CALL_EVENT", "NICSIM_CALL_EVENT"),
        Map.entry("CALL_FLOW_INIT", "NICSIM_CALL_FLOW_INIT"),
        Map.entry("CALL_PORT_INFO", "NICSIM_CALL_PORT_INFO"),
        Map.entry("CALL_HOST_MAILBOX", "NICSIM_CALL_HOST_MAILBOX"),
        Map.entry("CALL_NP_PACKET", "NICSIM_CALL_NP_PACKET"),
        Map.entry("HOST_MAILBOX_BYTES", "NICSIM_PCC_HOST_MAILBOX_BYTES"),
        Map.entry("MAX_ALGOS", "NICSIM_PCC_MAX_ALGOS"),
        Map.entry("MAX_PARAMS", "NICSIM_PCC_MAX_PARAMS"),
        Map.entry("MAX_COUNTERS", "NICSIM_PCC_MAX_COUNTERS"),
        Map.entry("MAX_PORTS", "NICSIM_PCC_MAX_PORTS"),
        Map.entry("MAX_SLOTS", "NICSIM_PCC_MAX_SLOTS"),
        Map.entry("INTERNAL_SLOT", "NICSIM_PCC_DEFAULT_SLOT"),
        Map.entry("ALGO_ROW", "NICSIM_ALGO_ENTRY_BYTES"),
        Map.entry("PARAM_ROW", "NICSIM_PARAM_ENTRY_BYTES"),
        Map.entry("COUNTER_ROW", "NICSIM_COUNTER_ENTRY_BYTES"),
        Map.entry("SLOT_ROW", "NICSIM_SLOT_ENTRY_BYTES"));

    /** FirmwareLayout constant -> the mailbox base #define and the struct and field at that offset. */
    private static final Map<String, String[]> STRUCT_OFFSETS = Map.ofEntries(
        Map.entry("EV_TYPE", ev("ev_type")),
        Map.entry("EV_SUBTYPE", ev("ev_subtype")),
        Map.entry("EV_PORT", ev("port_num")),
        Map.entry("EV_FLAGS", ev("flags")),
        Map.entry("EV_FLOW_TAG", ev("be_flow_tag")),
        Map.entry("EV_SN", ev("be_sn")),
        Map.entry("EV_TIMESTAMP", ev("be_timestamp")),
        Map.entry("EV_FIRST_TIMESTAMP", ev("be_first_timestamp")),
        Map.entry("EV_FIRST_SN", ev("be_first_sn")),
        Map.entry("EV_NUM_COALESCED", ev("be_num_coalesced")),
        Map.entry("EV_SENT_32BYTES", ev("be_sent_32bytes")),
        Map.entry("EV_SENT_PKTS", ev("be_sent_pkts")),
        Map.entry("EV_RTT_REQ_SEND", ev("be_rtt_req_send_ts")),
        Map.entry("EV_RTT_REQ_RECV", ev("be_rtt_req_recv_ts")),
        Map.entry("EV_RTT_RESP_SEND", ev("be_rtt_resp_send_ts")),
        Map.entry("EV_SPEC_ATTR", ev("ev_spec_attr")),
        Map.entry("EV_QPN", ev("be_qpn")),
        Map.entry("EV_NICSIM_FLAGS", ev("nicsim_flags")),
        Map.entry("EV_NICSIM_TYPE", ev("nicsim_type")),
        Map.entry("EV_TX_BYTES", ev("be_tx_bytes")),
        Map.entry("EV_TX_PACKETS", ev("be_tx_packets")),
        Map.entry("EV_RESERVED", ev("reserved1")),
        Map.entry("AT_SLOT_OVERLOAD", at("algo_slot")),
        Map.entry("AT_MTU", at("mtu_bytes")),
        Map.entry("AT_LINE_RATE", at("line_rate_bps")),
        Map.entry("AT_BASE_RTT", at("base_rtt_ns")),
        Map.entry("AT_INITIAL_PSN", at("initial_psn")),
        Map.entry("AT_NOW_NS", at("now_ns")),
        Map.entry("RS_RATE", rs("rate")),
        Map.entry("RS_RTT_REQ", rs("rtt_req")),
        Map.entry("RS_WINDOW", rs("window_bytes")),
        Map.entry("RS_TIMER", rs("timer_ns")),
        Map.entry("RS_FAST_START", rs("fast_start_packets")));

    /** FirmwareLayout symbol-name constant -> the file that declares it. */
    private static final Map<String, String> SYMBOLS = Map.ofEntries(
        Map.entry("ABI_VERSION_SYMBOL", "nicsim_pcc_abi.h"),
        Map.entry("PORTS", "nicsim_pcc_abi.h"),
        Map.entry("HOST_REQUEST", "nicsim_pcc_abi.h"),
        Map.entry("HOST_RESPONSE", "nicsim_pcc_abi.h"),
        Map.entry("ALGO_TABLE", "nicsim_pcc_abi.h"),
        Map.entry("PARAM_TABLE", "nicsim_pcc_abi.h"),
        Map.entry("PARAM_VALUES", "nicsim_pcc_abi.h"),
        Map.entry("COUNTER_TABLE", "nicsim_pcc_abi.h"),
        Map.entry("COUNTER_VALUES", "nicsim_pcc_abi.h"),
        Map.entry("SLOT_TABLE", "nicsim_pcc_abi.h"),
        Map.entry("DISABLE_MASK", "nicsim_pcc_abi.h"),
        Map.entry("ENTRY_EVENT", "../runtime/start.S"),
        Map.entry("ENTRY_INIT", "../runtime/start.S"),
        Map.entry("USER_ALGO", "doca_pcc_dev.h"),
        Map.entry("PORT_INFO_HANDLER", "doca_pcc_dev_common.h"),
        Map.entry("MAILBOX_HANDLER", "doca_pcc_dev_services.h"),
        Map.entry("NP_HANDLER", "doca_pcc_np_dev.h"));

    /** Constants checked by their own test below. */
    private static final List<String> OTHERS = List.of("DOCA_TYPE", "DOCA_TX_FLAG_RTT_REQ_SENT");

    private static String[] ev(final String field) {
        return new String[] {"NICSIM_MB_EVENT", "doca_pcc_dev_event_t", field};
    }

    private static String[] at(final String field) {
        return new String[] {"NICSIM_MB_ATTR", "doca_pcc_dev_attr_t", field};
    }

    private static String[] rs(final String field) {
        return new String[] {"NICSIM_MB_RESULTS", "doca_pcc_dev_results_t", field};
    }

    @Test
    void everyConstantHasARowHere() throws IllegalAccessException {
        final TreeSet<String> missing = new TreeSet<>(constants().keySet());
        missing.removeAll(DEFINES.keySet());
        missing.removeAll(STRUCT_OFFSETS.keySet());
        missing.removeAll(SYMBOLS.keySet());
        missing.removeAll(OTHERS);
        assertTrue(missing.isEmpty(), "FirmwareLayout constants with no header counterpart in this test: " + missing);
    }

    @Test
    void definesMatchTheAbiHeader() throws IOException, IllegalAccessException {
        final Map<String, Long> defines = defines(read("nicsim_pcc_abi.h"));
        final Map<String, Object> constants = constants();
        for (final Map.Entry<String, String> e : DEFINES.entrySet()) {
            final Long header = defines.get(e.getValue());
            assertTrue(header != null, "nicsim_pcc_abi.h has no #define " + e.getValue());
            assertEquals(header.longValue(), ((Number) constants.get(e.getKey())).longValue(),
                "FirmwareLayout." + e.getKey() + " vs nicsim_pcc_abi.h " + e.getValue());
        }
    }

    @Test
    void mailboxOffsetsMatchTheStructs() throws IOException, IllegalAccessException {
        final Map<String, Long> defines = defines(read("nicsim_pcc_abi.h"));
        final CLayout c = new CLayout();
        c.parse(read("doca_pcc_dev_event.h"));
        c.parse(read("doca_pcc_dev_common.h"));
        final Map<String, Object> constants = constants();
        for (final Map.Entry<String, String[]> e : STRUCT_OFFSETS.entrySet()) {
            final String[] where = e.getValue();
            final long expected = defines.get(where[0]) + c.offset(where[1], where[2]);
            assertEquals(expected, ((Number) constants.get(e.getKey())).longValue(),
                "FirmwareLayout." + e.getKey() + " vs " + where[0] + " + offsetof(" + where[1] + ", " + where[2] + ")");
        }
        // each struct fills its part of the mailbox exactly
        assertEquals(defines.get("NICSIM_MB_ATTR") - defines.get("NICSIM_MB_EVENT"), c.size("doca_pcc_dev_event_t"));
        assertEquals(defines.get("NICSIM_MB_RESULTS") - defines.get("NICSIM_MB_ATTR"), c.size("doca_pcc_dev_attr_t"));
        assertEquals(defines.get("NICSIM_MB_CALL") - defines.get("NICSIM_MB_RESULTS"), c.size("doca_pcc_dev_results_t"));
    }

    @Test
    void tableEntrySizesMatchTheirStructs() throws IOException {
        final String abi = read("nicsim_pcc_abi.h");
        final CLayout c = new CLayout();
        c.parse(abi);
        assertEquals(FirmwareLayout.ALGO_ROW, c.size("nicsim_pcc_algo_entry"));
        assertEquals(FirmwareLayout.PARAM_ROW, c.size("nicsim_pcc_param_entry"));
        assertEquals(FirmwareLayout.COUNTER_ROW, c.size("nicsim_pcc_counter_entry"));
        assertEquals(FirmwareLayout.SLOT_ROW, c.size("nicsim_pcc_slot_entry"));
    }

    @Test
    void symbolsAreDeclaredByTheFirmware() throws IOException, IllegalAccessException {
        final Map<String, Object> constants = constants();
        final Pattern declared = Pattern.compile(
            "(?m)^\\s*(?:extern\\b[^;]*?\\b(\\w+)\\s*(?:\\[[^;]*)?;|\\.globl\\s+(\\w+)|[\\w\\s*]+?\\b(\\w+)\\s*\\()");
        for (final Map.Entry<String, String> e : SYMBOLS.entrySet()) {
            final String name = (String) constants.get(e.getKey());
            final Matcher m = declared.matcher(read(e.getValue()));
            boolean found = false;
            while (m.find() && !found) {
                found = name.equals(m.group(1)) || name.equals(m.group(2)) || name.equals(m.group(3));
            }
            assertTrue(found, "FirmwareLayout." + e.getKey() + " = " + name + " is not declared in " + e.getValue());
        }
    }

    @Test
    void docaEventTypesAndTxFlagMatchTheEventHeader() throws IOException {
        final String event = read("doca_pcc_dev_event.h");
        final Map<String, Long> enums = enumConstants(event);
        final Map<String, Long> nicsim = defines(read("nicsim_pcc.h"));
        final long[] expected = new long[PccEventType.COUNT];
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_TX_BURST")] = enums.get("DOCA_PCC_DEV_EVNT_ROCE_TX");
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_ACK")] = enums.get("DOCA_PCC_DEV_EVNT_ROCE_ACK");
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_NACK")] = enums.get("DOCA_PCC_DEV_EVNT_ROCE_NACK");
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_CNP")] = enums.get("DOCA_PCC_DEV_EVNT_ROCE_CNP");
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_RTT_RESPONSE")] = enums.get("DOCA_PCC_DEV_EVNT_RTT");
        expected[(int) (long) nicsim.get("NICSIM_PCC_TYPE_TIMER")] = nicsim.get("NICSIM_PCC_EVNT_TIMER");
        assertEquals(PccEventType.COUNT, FirmwareLayout.DOCA_TYPE.length);
        for (int t = 0; t < PccEventType.COUNT; t++) {
            assertEquals(expected[t], FirmwareLayout.DOCA_TYPE[t], "FirmwareLayout.DOCA_TYPE[" + PccEventType.shortName(t) + "]");
        }
        assertEquals(enums.get("DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT").longValue(), FirmwareLayout.DOCA_TX_FLAG_RTT_REQ_SENT);
    }

    /** The parser itself, on a struct whose layout is worked out by hand from the C rules. */
    @Test
    void layoutFollowsNaturalAlignment() {
        final CLayout c = new CLayout();
        c.parse("""
            typedef struct { uint8_t a; uint32_t b : 4; uint32_t c : 28; uint16_t d; uint64_t e;
                union { struct { uint8_t raw[12]; uint32_t q; }; uint8_t all[16]; }; uint8_t z; } t;
            """);
        // a at 0; the bit-fields share one u32 at 4; d at 8; e at 16; union at 24 (q at 36); z at 40; size 48
        assertEquals(4, c.offset("t", "b"));
        assertEquals(4, c.offset("t", "c"));
        assertEquals(8, c.offset("t", "d"));
        assertEquals(16, c.offset("t", "e"));
        assertEquals(24, c.offset("t", "raw"));
        assertEquals(36, c.offset("t", "q"));
        assertEquals(40, c.offset("t", "z"));
        assertEquals(48, c.size("t"));
    }

    // ------------------------------------------------------------------------------------------

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("firmware/include/nicsim_pcc_abi.h"))) {
            p = p.getParent();
        }
        if (p == null) {
            fail("firmware/include/nicsim_pcc_abi.h not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    private static String read(final String file) throws IOException {
        return Files.readString(INCLUDE.resolve(file));
    }

    /** @return every static final field of FirmwareLayout, by name */
    private static Map<String, Object> constants() throws IllegalAccessException {
        final Map<String, Object> m = new LinkedHashMap<>();
        for (final Field f : FirmwareLayout.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()) && !f.isSynthetic()) {
                f.setAccessible(true);
                m.put(f.getName(), f.get(null));
            }
        }
        return m;
    }

    /** @return the numeric #defines of a header (decimal or hex, C integer suffixes dropped) */
    static Map<String, Long> defines(final String source) {
        final Map<String, Long> m = new HashMap<>();
        final Matcher d = Pattern.compile("(?m)^#define\\s+(\\w+)\\s+(0[xX][0-9a-fA-F]+|\\d+)[uUlL]*\\b").matcher(source);
        while (d.find()) {
            m.put(d.group(1), number(d.group(2)));
        }
        return m;
    }

    private static long number(final String literal) {
        return literal.startsWith("0x") || literal.startsWith("0X") ? Long.parseUnsignedLong(literal.substring(2), 16)
            : Long.parseLong(literal);
    }

    private static Map<String, Long> enumConstants(final String source) {
        final Map<String, Long> m = new HashMap<>();
        final Matcher d = Pattern.compile("\\b(DOCA_\\w+)\\s*=\\s*(0[xX][0-9a-fA-F]+|\\d+)").matcher(source);
        while (d.find()) {
            m.put(d.group(1), Long.decode(d.group(2)));
        }
        return m;
    }

    /**
     * Struct layout by the C rules for natural alignment (the RISC-V psABI's): fixed-width
     * integer types of their own size and alignment, arrays, nested and anonymous structs and
     * unions, typedefs of them, and bit-fields packed into units of their declared type. Enough
     * for the ABI headers, not C in general.
     */
    static final class CLayout {
        private record Layout(long size, long align, Map<String, Long> offsets) {
        }

        private final Map<String, Layout> types = new HashMap<>();
        /** Numeric #defines of the sources parsed so far (array sizes may name them). */
        private final Map<String, Long> defines = new HashMap<>();
        private List<String> tokens;
        private int at;

        CLayout() {
            for (final int n : new int[] {1, 2, 4, 8}) {
                types.put("uint" + 8 * n + "_t", new Layout(n, n, Map.of()));
                types.put("int" + 8 * n + "_t", new Layout(n, n, Map.of()));
            }
        }

        long offset(final String type, final String field) {
            final Long o = types.get(type).offsets().get(field);
            if (o == null) {
                fail(type + " has no field " + field);
            }
            return o;
        }

        long size(final String type) {
            return types.get(type).size();
        }

        /** Takes every {@code typedef struct/union {...} name;} and {@code struct name {...};} of a source. */
        void parse(final String source) {
            defines.putAll(defines(source));
            final String code = source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
                .replaceAll("(?m)^\\s*#.*$", " ");
            tokens = new ArrayList<>();
            final Matcher t = Pattern.compile("\\w+|[{}\\[\\];:,()*=]").matcher(code);
            while (t.find()) {
                tokens.add(t.group());
            }
            at = 0;
            while (at < tokens.size()) {
                if (is(0, "typedef") && (is(1, "struct") || is(1, "union")) && is(2, "{")) {
                    final boolean union = is(1, "union");
                    at += 3;
                    final Layout l = body(union);
                    types.put(tokens.get(at), l);
                    at++;
                } else if (is(0, "struct") && at + 2 < tokens.size() && is(2, "{")) {
                    final String name = tokens.get(at + 1);
                    at += 3;
                    types.put(name, body(false));
                } else {
                    at++;
                }
            }
        }

        private boolean is(final int ahead, final String token) {
            return at + ahead < tokens.size() && tokens.get(at + ahead).equals(token);
        }

        /** Parses members up to the closing brace (consumed). */
        private Layout body(final boolean union) {
            final Map<String, Long> offsets = new HashMap<>();
            long size = 0;
            long align = 1;
            long unitOffset = -1;
            long unitBits = 0;
            long unitSize = 0;
            while (!is(0, "}")) {
                final Layout type;
                if ((is(0, "struct") || is(0, "union")) && is(1, "{")) {
                    final boolean inner = is(0, "union");
                    at += 2;
                    type = body(inner);
                } else {
                    if (is(0, "struct") || is(0, "union")) {
                        at++;
                    }
                    type = types.get(tokens.get(at));
                    if (type == null) {
                        fail("unknown type " + tokens.get(at));
                    }
                    at++;
                }
                String name = null;
                long count = 1;
                long bits = -1;
                if (!is(0, ";")) {
                    name = tokens.get(at++);
                    if (is(0, "[")) {
                        final String n = tokens.get(at + 1);
                        count = defines.containsKey(n) ? defines.get(n) : number(n);
                        at += 3;
                    } else if (is(0, ":")) {
                        bits = number(tokens.get(at + 1));
                        at += 2;
                    }
                }
                at++; // ;
                align = Math.max(align, type.align());
                final long offset;
                if (bits >= 0 && !union && unitOffset >= 0 && unitSize == type.size() && unitBits + bits <= 8 * unitSize) {
                    offset = unitOffset;
                    unitBits += bits;
                } else {
                    offset = union ? 0 : (size + type.align() - 1) / type.align() * type.align();
                    size = Math.max(size, offset + type.size() * count);
                    unitOffset = bits >= 0 ? offset : -1;
                    unitBits = Math.max(0, bits);
                    unitSize = type.size();
                }
                if (name == null) { // anonymous struct or union: its members are ours
                    for (final Map.Entry<String, Long> e : type.offsets().entrySet()) {
                        offsets.put(e.getKey(), offset + e.getValue());
                    }
                } else {
                    offsets.put(name, offset);
                }
            }
            at++; // }
            return new Layout((size + align - 1) / align * align, align, offsets);
        }
    }
}
