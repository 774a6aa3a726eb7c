package dev.nicsim.interop.ns3;

import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.ScenarioException;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An HPCC ns-3 configuration file ({@code simulation/mix/config.txt} format, read by
 * {@code third.cc}): one {@code KEY value...} per line. Every key {@code third.cc} reads is known
 * with its number of values: one for most, three for {@code LINK_DOWN} ({@code time src dst}),
 * and {@code N} then {@code N} pairs {@code rate value} for {@code KMAX_MAP}, {@code KMIN_MAP} and
 * {@code PMAX_MAP}. An unknown key, a repeated key or a wrong number of values is rejected with
 * {@code file:line}. Values are checked by the importer ({@link Ns3Import}), which knows what
 * each means.
 *
 * <p>Thread-safety: immutable.
 */
public final class Ns3Config {
    /**
     * One key line.
     *
     * @param key    the key
     * @param values its values (tokens after the key)
     * @param line   1-based line in the file
     */
    public record Entry(String key, List<String> values, int line) {
        /** @return the first value */
        public String value() {
            return values.get(0);
        }

        /** @return the line's text, {@code KEY value...} */
        public String text() {
            return key + " " + String.join(" ", values);
        }
    }

    /** Keys with one value, as {@code third.cc} reads them. */
    static final List<String> SINGLE_KEYS = List.of(
        "ENABLE_QCN", "USE_DYNAMIC_PFC_THRESHOLD", "PACKET_PAYLOAD_SIZE", "TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE",
        "TRACE_OUTPUT_FILE", "FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE", "SIMULATOR_STOP_TIME", "CC_MODE",
        "ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "CLAMP_TARGET_RATE", "RP_TIMER", "EWMA_GAIN",
        "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI", "MIN_RATE", "DCTCP_RATE_AI", "ERROR_RATE_PER_LINK",
        "L2_CHUNK_SIZE", "L2_ACK_INTERVAL", "L2_BACK_TO_ZERO", "HAS_WIN", "GLOBAL_T", "VAR_WIN", "FAST_REACT",
        "U_TARGET", "MI_THRESH", "INT_MULTI", "MULTI_RATE", "SAMPLE_FEEDBACK", "PINT_LOG_BASE", "PINT_PROB",
        "RATE_BOUND", "ACK_HIGH_PRIO", "ENABLE_TRACE", "BUFFER_SIZE", "QLEN_MON_FILE", "QLEN_MON_START",
        "QLEN_MON_END");
    /** Keys whose value is {@code N} followed by {@code N} pairs {@code rate value}. */
    static final List<String> MAP_KEYS = List.of("KMAX_MAP", "KMIN_MAP", "PMAX_MAP");
    /** {@code LINK_DOWN time_us src dst}. */
    static final String LINK_DOWN = "LINK_DOWN";

    private final Path file;
    private final Map<String, Entry> entries;

    private Ns3Config(final Path file, final Map<String, Entry> entries) {
        this.file = file;
        this.entries = Collections.unmodifiableMap(entries);
    }

    /**
     * Reads a configuration file.
     *
     * @param file the file
     * @return its entries
     * @throws ScenarioException naming file and line for a missing file, an unknown or repeated key
     *                           or a wrong number of values
     */
    public static Ns3Config read(final Path file) {
        return parse(file, Ns3Lines.read(file, "ns-3 configuration file"));
    }

    /**
     * Parses configuration text already in memory (tests).
     *
     * @param file name used in messages
     * @param text the file's text
     * @return its entries
     * @throws ScenarioException as {@link #read}
     */
    public static Ns3Config parse(final Path file, final String text) {
        return parse(file, Ns3Lines.parse(file.toString(), text));
    }

    private static Ns3Config parse(final Path file, final Ns3Lines in) {
        final Map<String, Entry> out = new LinkedHashMap<>();
        for (final Ns3Lines.Line l : in.lines()) {
            final String key = l.tokens()[0];
            final int values = l.tokens().length - 1;
            if (SINGLE_KEYS.contains(key)) {
                in.expectTokens(l, 2, key + " value");
            } else if (MAP_KEYS.contains(key)) {
                if (values < 1) {
                    throw in.error(l.number(), key + ": expected 'N rate_1 value_1 ... rate_N value_N', got no values");
                }
                final long n = in.integer(l, 1, key + " N", 1, 64);
                if (values != 1 + 2 * n) {
                    throw in.error(l.number(), key + ": expected N = " + n + " pairs 'rate value' after N (" + (1 + 2 * n)
                        + " values), got " + values + " values");
                }
            } else if (LINK_DOWN.equals(key)) {
                in.expectTokens(l, 4, "LINK_DOWN time_us src dst");
            } else {
                throw in.error(l.number(), "unknown key '" + key + "' (not one the HPCC ns-3 simulator's third.cc reads)");
            }
            if (out.containsKey(key)) {
                throw in.error(l.number(), key + ": repeated (first on line " + out.get(key).line() + ")");
            }
            out.put(key, new Entry(key, List.of(l.tokens()).subList(1, l.tokens().length), l.number()));
        }
        return new Ns3Config(file, out);
    }

    /** @return the file it was read from */
    public Path file() {
        return file;
    }

    /**
     * @param key a key
     * @return its entry, or null if the file does not set it
     */
    public Entry get(final String key) {
        return entries.get(key);
    }

    /** @return every entry, in file order */
    public Iterable<Entry> entries() {
        return entries.values();
    }
}
