package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameter.Kind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parameter and counter tables of the built-in algorithms against values written down by hand
 * from the specifications ({@code ../shared/specs}: 000 LDCP draft, 002 DCTCP draft, 003 RoCE
 * ECN/DCQCN article, and the Mellanox {@code mlxconfig} defaults listed in its README), not read
 * back from the tables; and the table text format, including its errors.
 *
 * <p>Numbers are written as the Java expressions the old hand-coded providers used (e.g.
 * {@code 5.0 / 1024}), so a table cell that parses to another double fails here.
 */
class AlgorithmTableTest {
    private static final double MIN_16_16 = 1.0 / 65536; // smallest positive 16.16 fraction
    private static final double TWO_POW_30 = 1 << 30;

    /** An expected row: name, kind, default, min, max, unit. */
    private record Row(String name, Kind kind, double defaultValue, double min, double max, String unit) {
    }

    private static Row fraction(final String name, final double d, final double min, final double max, final String unit) {
        return new Row(name, Kind.FIXED_16_16, d, min, max, unit);
    }

    private static Row integer(final String name, final double d, final double min, final double max, final String unit) {
        return new Row(name, Kind.INTEGER, d, min, max, unit);
    }

    private static void assertRows(final PccAlgorithmProvider provider, final Row... expected) {
        final List<Row> actual = new ArrayList<>();
        for (final PccParameter p : provider.parameters()) {
            actual.add(new Row(p.name(), p.kind(), p.defaultValue(), p.min(), p.max(), p.unit()));
        }
        assertEquals(List.of(expected), actual, provider.name());
    }

    @Test
    void dcqcnRowsFollowTheMellanoxDefaultsAndTheArticle() {
        assertRows(new DcqcnProvider(),
            // DCE_TCP_G = 1019 of 1024 weights the old alpha: g = 1 - 1019/1024 = 5/1024; the article's
            // g is "between 0 and 1" and a 16.16 gain cannot be below 2^-16
            fraction("g", 5.0 / 1024, MIN_16_16, 1.0, "fraction"),
            fraction("initial_alpha", 1023.0 / 1024, 0.0, 1.0, "fraction"), // INITIAL_ALPHA_VALUE = 1023 of 1024
            integer("alpha_update_period_ns", 1000, 1, TWO_POW_30, "ns"), // DCE_TCP_RTT = 1 us
            integer("rate_reduce_monitor_period_ns", 4000, 1, TWO_POW_30, "ns"), // RATE_REDUCE_MONITOR_PERIOD = 4 us
            // RATE_TO_SET_ON_FIRST_CNP = 0 means "keep line rate": fraction 1 of line rate
            fraction("rate_on_first_cnp", 1.0, MIN_16_16, 1.0, "fraction of line rate"),
            // new_rate = old_rate (1 - alpha/2) (article §7.2): alpha_1024 / 2^gd = alpha/2 needs gd = 11;
            // RPG_GD is a 4-bit knob, 0..15
            integer("rpg_gd", 11, 0, 15, "log2"),
            integer("rpg_min_dec_fac", 50, 0, 100, "%"), // RPG_MIN_DEC_FAC = 50, a percentage
            integer("rpg_min_rate_mbps", 1, 1, 2_000_000, "Mb/s"), // RPG_MIN_RATE = 1
            integer("rpg_time_reset_ns", 300_000, 1, TWO_POW_30, "ns"), // RPG_TIME_RESET = 300 us
            integer("rpg_byte_reset_bytes", 32_767, 0, TWO_POW_30, "bytes"), // RPG_BYTE_RESET = 32767
            integer("rpg_threshold", 1, 0, 1024, "stages"), // RPG_THRESHOLD = 1
            integer("rpg_ai_rate_mbps", 5, 0, 1_000_000, "Mb/s"), // RPG_AI_RATE = 5
            integer("rpg_hai_rate_mbps", 50, 0, 1_000_000, "Mb/s"), // RPG_HAI_RATE = 50
            integer("clamp_tgt_rate", 0, 0, 1, "flag"), // CLAMP_TGT_RATE = 0
            integer("clamp_tgt_rate_after_time_inc", 1, 0, 1, "flag"), // CLAMP_TGT_RATE_AFTER_TIME_INC = 1
            integer("hai_scaling", 0, 0, 1, "flag")); // Mellanox fixed HAI step
        // 16.16 raw defaults: 5/1024 x 65,536 = 320; 1023/1024 x 65,536 = 65,472
        assertEquals(320, new DcqcnProvider().defaults().raw("g"));
        assertEquals(65_472, new DcqcnProvider().defaults().raw("initial_alpha"));
    }

    @Test
    void dctcpRowsFollowTheDraft() {
        assertRows(new DctcpProvider(),
            // §3.3: g "a real number between 0 and 1"; §4: Windows Server 2012 uses 1/16
            fraction("g", 1.0 / 16, MIN_16_16, 1.0, "fraction"),
            fraction("initial_alpha", 1.0, 0.0, 1.0, "fraction"), // §3.3: DCTCP.Alpha "initialized to 1"
            integer("init_window_bytes", 0, 0, TWO_POW_30, "bytes"), // 0 = path BDP
            integer("init_ssthresh_bytes", 0, 0, TWO_POW_30, "bytes"), // 0 = initial cwnd
            integer("min_window_packets", 2, 1, 1024, "packets"), // RFC 5681 (the draft's ref.): 2 x SMSS
            integer("max_window_bytes", 0, 0, TWO_POW_30, "bytes")); // 0 = 2^30 bytes
        assertEquals(4096, new DctcpProvider().defaults().raw("g")); // 65,536 / 16
    }

    @Test
    void ldcpRowsFollowTheDraft() {
        assertRows(new LdcpProvider(),
            // §2.2 Eq. (1): "0 < alpha, beta <= 1"; 16.16 makes the open bound 2^-16
            fraction("alpha", 1.0, MIN_16_16, 1.0, "packets"),
            fraction("beta", 0.5, MIN_16_16, 1.0, "packets"),
            // §2.2: gamma "typical values ... 1/4, 1/8, 1/16"; the default is the middle one
            fraction("gamma", 1.0 / 8, 1.0 / 1024, 0.5, "packets"),
            fraction("eta", 1.0 / 2, 1.0 / 16, 15.0 / 16, "fraction"), // §2.2: "We choose eta = 1/2"
            integer("iw_bytes", 0, 0, TWO_POW_30, "bytes"), // §2.3: "a large enough IW (e.g., BDP)": 0 = BDP
            fraction("rtt_gain", 1.0 / 8, MIN_16_16, 1.0, "fraction"));
        assertRows(new LdcpPccProvider(),
            fraction("alpha", 1.0, MIN_16_16, 16.0, "packets"), // §3.2: window grows by alpha per RTT response
            fraction("beta", 0.5, MIN_16_16, 16.0, "packets"), // §3.2: decreased by beta upon every CNP
            fraction("min_window", 1.0 / 8, 1.0 / 1024, 1024.0, "packets"), // §2.2 gamma applied to §3.2
            integer("init_window_bytes", 0, 0, TWO_POW_30, "bytes"),
            fraction("rtt_gain", 1.0, MIN_16_16, 1.0, "fraction"),
            integer("probe_timeout_ns", 1_000_000, 0, TWO_POW_30, "ns")); // §3.2: "(or a timeout is experienced)"
    }

    @Test
    void counterNamesAreListedInIdOrder() {
        // the order counters.csv lists them in; the algorithms' C_ constants index these lists
        assertEquals(List.of("dcqcn_cnp_handled", "dcqcn_first_cnp", "dcqcn_rate_decreases",
            "dcqcn_timer_increase_events", "dcqcn_byte_increase_events", "dcqcn_fast_recovery",
            "dcqcn_additive_increase", "dcqcn_hyper_increase"), DcqcnProvider.TABLE.counters());
        assertEquals(List.of("dctcp_alpha_updates", "dctcp_ecn_reductions", "dctcp_loss_reductions",
            "dctcp_acks_marked", "dctcp_stale_acks"), DctcpProvider.TABLE.counters());
        assertEquals(List.of("ldcp_acks_unmarked", "ldcp_acks_marked", "ldcp_acks_below_one",
            "ldcp_fast_start_exit_loss", "ldcp_fast_start_exit_iw", "ldcp_nacks", "ldcp_rtt_samples",
            "ldcp_stale_acks"), LdcpProvider.TABLE.counters());
        assertEquals(List.of("ldcp_pcc_rtt_responses", "ldcp_pcc_stale_responses", "ldcp_pcc_cnps",
            "ldcp_pcc_probe_timeouts"), LdcpPccProvider.TABLE.counters());
    }

    private static List<Long> counters(final Harness h) {
        final List<Long> values = new ArrayList<>();
        for (int i = 0; i < h.algorithm.counters().size(); i++) {
            values.add(h.algorithm.counters().get(i));
        }
        return values;
    }

    @Test
    void dcqcnCountersCountTheEventsTheirNamesSay() {
        final Harness h = new Harness(new DcqcnProvider());
        h.init(0);
        h.cnp(0); // first CNP: handled, first
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L, 0L, 0L, 0L), counters(h));
        h.timer(4000); // the decrease boundary, t0 + rate_reduce_monitor_period (4 us)
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L, 0L, 0L, 0L), counters(h));
        // the increase timer runs rpg_time_reset (300 us) after the decrease: stage 0 < F = 1 is
        // fast recovery
        h.timer(4000 + 300_000);
        assertEquals(List.of(1L, 1L, 1L, 1L, 0L, 1L, 0L, 0L), counters(h));
        h.tx(40, 32_767, 33, 4000 + 300_001); // rpg_byte_reset_bytes sent: one byte event, stage 1 = F: additive
        assertEquals(List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 0L), counters(h));
        assertEquals(h.counter("dcqcn_additive_increase"), 1);
    }

    @Test
    void dctcpCountersCountTheEventsTheirNamesSay() {
        final Harness h = new Harness(new DctcpProvider());
        h.init(0);
        // an ECE ACK of PSN 0 closes the first observation window (WindowEnd = PSN before the first)
        // and, outside CWR, cuts cwnd: alpha update, ECN reduction, marked ACK
        h.ack(0, 0, true);
        assertEquals(List.of(1L, 1L, 0L, 1L, 0L), counters(h));
        h.ack(5, 3, false); // firstSn after sn: stale
        assertEquals(List.of(1L, 1L, 0L, 1L, 1L), counters(h));
    }

    @Test
    void ldcpCountersCountTheEventsTheirNamesSay() {
        final Harness h = new Harness(new LdcpProvider());
        h.init(0);
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 0, 10, 100); // loss in fast start: NAK, exit by loss
        assertEquals(List.of(0L, 0L, 0L, 1L, 0L, 1L, 0L, 0L), counters(h));
        h.ack(10, 10, true); // cw = 10 packets after the loss: a marked ACK at cw >= 1
        h.ack(11, 11, false);
        assertEquals(List.of(1L, 1L, 0L, 1L, 0L, 1L, 0L, 0L), counters(h));
        h.rttResponse(20_000, 5_000, 0, 0); // sample 15 us
        h.ack(5, 3, false); // stale
        assertEquals(List.of(1L, 1L, 0L, 1L, 0L, 1L, 1L, 1L), counters(h));
    }

    @Test
    void tableNumbersAreTheJavaExpressionsBitForBit() {
        assertEquals(5.0 / 1024, AlgorithmTable.number("5/1024"));
        assertEquals(1.0 / 65536, AlgorithmTable.number(" 2^-16 "));
        assertEquals(1 << 30, AlgorithmTable.number("2^30"));
        assertEquals(300_000.0, AlgorithmTable.number("300_000"));
        assertEquals(0.95, AlgorithmTable.number("0.95"));
        for (final String bad : new String[] {"", "0x10", "1e3", "2^x", "1/", "five"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AlgorithmTable.number(bad));
            assertTrue(e.getMessage().contains("'" + bad.strip() + "'"), e.getMessage());
        }
    }

    @Test
    void aTableIsReadRowByRowWithWrappedDescriptions() {
        final AlgorithmTable t = AlgorithmTable.of("demo", "a demo (no spec)", """
            name  | kind    | default | min   | max  | unit
            gain  | 16.16   | 1/16    | 2^-16 | 1    | fraction
                first line of the description,
                second line
            limit | integer | 300_000 | 0     | 2^30 | ns
                one line
            """, "demo_events");
        assertEquals(List.of(
            new PccParameter(0, "gain", Kind.FIXED_16_16, 0.0625, 1.0 / 65536, 1.0, "fraction",
                "first line of the description, second line"),
            new PccParameter(1, "limit", Kind.INTEGER, 300_000, 0, 1073741824, "ns", "one line")), t.parameters());
        assertEquals(List.of("demo_events"), t.counters());
    }

    @Test
    void aMalformedTableFailsNamingTheRowAndWhatWasExpected() {
        final String header = "name | kind | default | min | max | unit\n";
        assertMessage("expected the header", () -> AlgorithmTable.of("demo", "d", "name | kind\n"));
        assertMessage("demo parameter table line 2 ('a'): expected 6 columns",
            () -> AlgorithmTable.of("demo", "d", header + "a | integer | 1 | 0 | 2\n  text\n"));
        assertMessage("line 2 ('a'): expected 6 columns 'name | kind | default | min | max | unit' and a"
            + " description line, found 6 columns and no description",
            () -> AlgorithmTable.of("demo", "d", header + "a | integer | 1 | 0 | 2 | ns\n"));
        assertMessage("kind 'float' must be integer or 16.16",
            () -> AlgorithmTable.of("demo", "d", header + "a | float | 1 | 0 | 2 | ns\n  text\n"));
        assertMessage("line 2 ('a'): parameter a: default 3.0 outside [0.0, 2.0]",
            () -> AlgorithmTable.of("demo", "d", header + "a | integer | 3 | 0 | 2 | ns\n  text\n  more\n"));
        assertMessage("'x' is not a number", () -> AlgorithmTable.of("demo", "d", header + "a | integer | x | 0 | 2 | ns\n t\n"));
        assertMessage("line 2: expected a row", () -> AlgorithmTable.of("demo", "d", header + "  text first\n"));
        assertMessage("parameter name repeated: a", () -> AlgorithmTable.of("demo", "d",
            header + "a | integer | 1 | 0 | 2 | ns\n t\na | integer | 1 | 0 | 2 | ns\n t\n"));
        assertMessage("counter 'other_events' must be unique, lower case and start with demo_",
            () -> AlgorithmTable.of("demo", "d", header + "a | integer | 1 | 0 | 2 | ns\n t\n", "other_events"));
        assertMessage("counter 'demo_x' must be unique", () -> AlgorithmTable.of("demo", "d",
            header + "a | integer | 1 | 0 | 2 | ns\n t\n", "demo_x", "demo_x"));
    }

    private static void assertMessage(final String part, final org.junit.jupiter.api.function.Executable call) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertTrue(e.getMessage().startsWith("demo"), e.getMessage()); // names the algorithm first
    }
}
