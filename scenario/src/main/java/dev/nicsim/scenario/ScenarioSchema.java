package dev.nicsim.scenario;

import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.firmware.FirmwareLayout;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.nic.NicConfig;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.Units;
import dev.nicsim.sw.RcmConfig;
import dev.nicsim.sw.SwitchConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.nicsim.scenario.ScenarioField.bool;
import static dev.nicsim.scenario.ScenarioField.doc;
import static dev.nicsim.scenario.ScenarioField.integer;
import static dev.nicsim.scenario.ScenarioField.number;
import static dev.nicsim.scenario.ScenarioField.oneOf;
import static dev.nicsim.scenario.ScenarioField.scaled;

/**
 * Every field a scenario file may hold, one {@link ScenarioField} row each, grouped in the sections
 * docs/scenarios.md shows as tables. The row is the one place a field's key, unit, range, default
 * and meaning are written: {@link YamlFields} reads a field by looking its row up
 * ({@link #row(String)}), {@link ScenarioWriter} writes it under the row's key in the row's unit,
 * and the docs' field tables are {@link #markdown(Section)} of the sections
 * ({@code ScenarioSchemaTest} fails when the page and the rows differ). A default the simulator's
 * configuration also holds is taken from that configuration's {@code DEFAULT_...} constant
 * ({@link NicConfig}, {@link SwitchConfig}, {@link EmulatorConfig}, {@link RcmConfig}), so the two
 * cannot drift; {@link ScenarioField#feeds()} names the configuration field.
 *
 * <p>Thread-safety: immutable.
 */
public final class ScenarioSchema {
    private static final RcmConfig RCM = new RcmConfig();
    private static final double US = Units.PS_PER_US;
    private static final double NS = Units.PS_PER_NS;

    /**
     * One table of docs/scenarios.md.
     *
     * @param id     the table's name, as its {@code <!-- fields: id -->} marker in the page names it
     * @param prefix the path prefix its rows share (shown without it), or empty
     * @param rows   the rows in table order
     */
    public record Section(String id, String prefix, List<ScenarioField> rows) {
        /**
         * Copies the rows.
         */
        public Section {
            rows = List.copyOf(rows);
        }
    }

    /** The tables, in page order. */
    public static final List<Section> SECTIONS = List.of(
        new Section("top", "", List.of(
            doc("name", "text", "", "letters, digits, `.`, `_`, `-`", "file name without `.yaml`",
                "scenario name; names the default output directory"),
            integer("seed", "", 0, Long.MAX_VALUE, 1,
                "seed of every random stream (one stream per component: workload, each switch's WRED and ECMP, each"
                    + " host's `initial_psn`)"),
            scaled("stop_time_us", "us", US, 0.001, 1e8, 100_000,
                "the run stops here even if flows are unfinished (they are reported with empty `fct_ns`)"),
            doc("topology", "mapping", "", "", ScenarioField.REQUIRED, "below"),
            doc("switch", "mapping", "", "", "all defaults", "below"),
            doc("nic", "mapping", "", "", "all defaults", "below"),
            doc("sampling", "mapping", "", "", "all defaults", "below"),
            doc("algorithm", "mapping", "", "", ScenarioField.REQUIRED, "below"),
            doc("workload", "mapping", "", "", ScenarioField.REQUIRED, "below"),
            doc("firmware", "mapping", "", "", "none",
                "host-side actions on the DOCA PCC firmware: `firmware.mailbox` ([below](#firmware-host-mailbox-messages));"
                    + " the NP program, its host's mailbox message and the probe format ([below](#firmware))"),
            doc("link_events", "list of mappings", "", "", "none",
                "host links going down and up at given times ([below](#link_events-host-link-down-and-up))"))),
        new Section("topology", "topology", List.of(
            oneOf("topology.type", null, "the shape", "star", "dumbbell", "leaf_spine", "fat_tree", "file"),
            doc("topology.path", "path", "", "an existing file", "**required** for `file`",
                "an HPCC ns-3 topology file ([ns3.md](ns3.md)): hosts numbered in ascending ns-3 node id, switch node `n`"
                    + " named `sw<n>`, each link its own rate and delay; a host must have exactly one link, link error rates"
                    + " must be 0. With `file` no other `topology` field is allowed (the file gives every link)"),
            integer("topology.hosts", "hosts", 2, 256, "hosts on the one switch `sw0`").dynamicDefault("**required** for `star`"),
            integer("topology.hosts_per_side", "hosts", 1, 256,
                "hosts on each of switches `left` and `right`, joined by one fabric link")
                .dynamicDefault("**required** for `dumbbell`"),
            integer("topology.leaves", "switches", 1, 256, "leaf switches `leaf<i>`")
                .dynamicDefault("**required** for `leaf_spine`"),
            integer("topology.spines", "switches", 1, 256, "spine switches `spine<j>`; every leaf links to every spine")
                .dynamicDefault("**required** for `leaf_spine`"),
            integer("topology.hosts_per_leaf", "hosts", 1, 256, "hosts on each leaf")
                .dynamicDefault("**required** for `leaf_spine`"),
            integer("topology.k", "ports", 2, 64, "k-ary fat tree: k^3/4 hosts, switches `edge<pod>_<i>`, `agg<pod>_<i>`, `core<i>`")
                .range("even, 2 .. 64").dynamicDefault("**required** for `fat_tree`"),
            scaled("topology.host_link.rate_gbps", "Gb/s", Units.BITS_PER_SEC_PER_GBPS, 0.001, 1600, 100,
                "host-to-switch link rate"),
            scaled("topology.host_link.delay_ns", "ns", NS, 0, 1e9, 1000, "host-to-switch one-way propagation delay"),
            scaled("topology.fabric_link.rate_gbps", "Gb/s", Units.BITS_PER_SEC_PER_GBPS, 0.001, 1600, Double.NaN,
                "switch-to-switch link rate").dynamicDefault("the host link's"),
            scaled("topology.fabric_link.delay_ns", "ns", NS, 0, 1e9, Double.NaN,
                "switch-to-switch one-way propagation delay").dynamicDefault("the host link's"))),
        new Section("switch", "switch", List.of(
            integer("switch.buffer_bytes", "bytes", 10_000, 1L << 34, SwitchConfig.DEFAULT_BUFFER_BYTES,
                "shared buffer of each switch (headroom is reserved out of it)").feeds(SwitchConfig.class, "bufferBytes"),
            ScenarioField.priorities("switch.strict_priorities", SwitchConfig.DEFAULT_STRICT_PRIORITY_MASK,
                "served by strict priority (CNPs go on 6); the rest share by DWRR (9216-byte quanta)")
                .feeds(SwitchConfig.class, "strictPriorityMask"),
            oneOf("switch.queueing", "output_queued",
                "shared-buffer output queueing (the MMU below), or input-and-output queueing (the RCM paper §4.1): a VOQ"
                    + " per (input, output, priority), one output queue per (port, priority), the output serving its VOQs"
                    + " round robin, one packet per input per turn; PFC then works on VOQ occupancy (XOFF when a VOQ of"
                    + " the priority group reaches `voq_bytes` - headroom), and `buffer_bytes` and the `egress` section"
                    + " are not used", "output_queued", "input_output_queued"),
            integer("switch.voq_bytes", "bytes", 1, 1L << 34, SwitchConfig.DEFAULT_VOQ_BYTES,
                "input-output queueing: size of each VOQ (the RCM paper §4.1: 100 KB); must exceed one maximum frame and,"
                    + " with PFC, the headroom (`pfc.headroom_bytes` or sized from each link)")
                .feeds(SwitchConfig.class, "voqBytes"),
            integer("switch.output_queue_bytes", "bytes", 1, 1L << 34, SwitchConfig.DEFAULT_OUTPUT_QUEUE_BYTES,
                "input-output queueing: size of each output queue; at least one maximum frame")
                .feeds(SwitchConfig.class, "outputQueueBytes"),
            integer("switch.queue_limit_bytes", "bytes", 0, 1L << 34, 0,
                "a fixed size for every lossy egress data queue, as uet-htsim's per-port queue (1 BDP there): a packet"
                    + " is admitted (else dropped, or trimmed) iff the queue then holds at most this many bytes and the"
                    + " shared buffer has room; replaces the `egress` limits. 0 = the `egress` limits. Output queueing"
                    + " only").range("0 .. `buffer_bytes`").feeds(SwitchConfig.class, "dataQueueLimitBytes"))),
        new Section("switch.trimming", "switch.trimming", List.of(
            bool("switch.trimming.enabled", false,
                "a lossy data packet that finds its egress data queue full is cut to its header instead of dropped: a"
                    + " fair coin cuts either it or the queue's tail packet (which it then replaces); headers go to a"
                    + " per-port header queue served ahead of every data queue, which drops above twice the data queue's"
                    + " limit ([uet.md](uet.md#trimming)). Output queueing only")
                .feeds(SwitchConfig.class, "trimmingEnabled"),
            integer("switch.trimming.header_bytes", "bytes", 64, 9216, SwitchConfig.DEFAULT_TRIM_HEADER_BYTES,
                "size of a trimmed packet on the wire (uet-htsim: 64)").range("64 .. the largest frame")
                .feeds(SwitchConfig.class, "trimHeaderBytes"))),
        new Section("switch.ecn", "switch.ecn", List.of(
            bool("switch.ecn.at_dequeue", false,
                "decide the CE mark of an ECT packet when it leaves its egress queue, on the depth it leaves behind (the"
                    + " `wred` profile: uet-htsim marks above Kmax and with (q-Kmin)/(Kmax-Kmin) between, i.e. Pmax 1),"
                    + " instead of at arrival on the depth it finds")
                .feeds(SwitchConfig.class, "ecnAtDequeue"))),
        new Section("switch.pfc", "switch.pfc", List.of(
            bool("switch.pfc.enabled", false, "PFC on the lossless priorities"),
            doc("switch.pfc.priorities", "list 0..7", "", "", "`[nic.data_priority]`",
                "lossless priorities (priority group i = priority i)"),
            oneOf("switch.pfc.mode", "dynamic",
                "xoff threshold per ingress port and PG: fixed bytes, or alpha x free shared buffer", "static", "dynamic"),
            integer("switch.pfc.xoff_bytes", "bytes", 1, 1L << 34, SwitchConfig.DEFAULT_XOFF_BYTES, "static xoff threshold")
                .range("1 .. `buffer_bytes`").feeds(SwitchConfig.class, "xoffBytes"),
            integer("switch.pfc.xon_bytes", "bytes", 0, 1L << 34, SwitchConfig.DEFAULT_XON_BYTES, "static xon threshold")
                .range("0 .. `xoff_bytes`").feeds(SwitchConfig.class, "xonBytes"),
            number("switch.pfc.alpha", "factor", 1.0 / 1024, 64, SwitchConfig.DEFAULT_PFC_ALPHA,
                "dynamic xoff = alpha x free shared buffer").feeds(SwitchConfig.class, "pfcAlpha"),
            integer("switch.pfc.xon_offset_bytes", "bytes", 0, 1L << 34, SwitchConfig.DEFAULT_PFC_XON_OFFSET_BYTES,
                "dynamic xon = xoff - offset").range("0 .. `buffer_bytes`").feeds(SwitchConfig.class, "pfcXonOffsetBytes"),
            integer("switch.pfc.headroom_bytes", "bytes", 0, 1L << 34,
                "headroom per ingress port and lossless PG; by default 2 x delay x rate / 8 + 2 x (maximum frame + 20) +"
                    + " (64 + 20) for the PFC frame + one maximum frame (the one that crosses xoff is admitted into headroom)")
                .range("0 .. `buffer_bytes`").dynamicDefault("sized from the link").feeds(SwitchConfig.class, "headroomBytes"))),
        new Section("switch.wred", "switch.wred", List.of(
            doc("switch.wred.priorities", "list 0..7", "", "", "`[nic.data_priority]`",
                "egress queues that run the WRED/ECN profile"),
            integer("switch.wred.kmin_bytes", "bytes", 0, 1L << 34, 100_000, "Kmin").range("0 .. `buffer_bytes`"),
            integer("switch.wred.kmax_bytes", "bytes", 0, 1L << 34, 400_000, "Kmax").range("`kmin_bytes` .. `buffer_bytes`"),
            number("switch.wred.pmax", "probability", 0, 1, 0.2,
                "Pmax. Marking probability on the instantaneous queue q: 0 below Kmin, (q-Kmin)/(Kmax-Kmin) x Pmax up to"
                    + " Kmax, 1 at or above Kmax (the LDCP draft §2.1); Kmin = Kmax with Pmax 1 is DCTCP's step at K"),
            bool("switch.wred.ecn", true, "ECT packets are marked CE; `false` makes it plain WRED (drop instead of mark)"),
            integer("switch.wred.not_ect_drop_bytes", "bytes", 0, 1L << 34, 0,
                "K of the LDCP draft Eq. 3: Not-ECT packets are dropped at or above K, never below (lossy priorities only)")
                .range("0 .. `buffer_bytes`").dynamicDefault("`kmin_bytes`"),
            doc("switch.wred.by_rate", "list of mappings", "", "", "none",
                "a WRED profile per egress link rate (ns-3's KMIN_MAP/KMAX_MAP/PMAX_MAP); overrides"
                    + " `kmin_bytes`/`kmax_bytes`/`pmax` on ports of those rates"),
            scaled("switch.wred.by_rate[i].rate_gbps", "Gb/s", Units.BITS_PER_SEC_PER_GBPS, 0.001, 1600, Double.NaN,
                "the link rate the entry applies to").range("0.001 .. 1600, each rate once"),
            integer("switch.wred.by_rate[i].kmin_bytes", "bytes", 0, 1L << 34, "Kmin").range("0 .. `buffer_bytes`"),
            integer("switch.wred.by_rate[i].kmax_bytes", "bytes", 0, 1L << 34, "Kmax")
                .range("`kmin_bytes` .. `buffer_bytes`"),
            number("switch.wred.by_rate[i].pmax", "probability", 0, 1, Double.NaN, "Pmax"))),
        new Section("switch.egress", "switch.egress", List.of(
            oneOf("switch.egress.mode", "dynamic", "fixed bytes, or alpha x free shared buffer", "static", "dynamic"),
            integer("switch.egress.queue_limit_bytes", "bytes", 1, 1L << 34, SwitchConfig.DEFAULT_QUEUE_LIMIT_BYTES,
                "static limit (buf_max of the LDCP draft §2.1)").range("1 .. `buffer_bytes`")
                .feeds(SwitchConfig.class, "queueLimitBytes"),
            number("switch.egress.alpha", "factor", 1.0 / 1024, 64, SwitchConfig.DEFAULT_EGRESS_ALPHA,
                "dynamic limit factor").feeds(SwitchConfig.class, "egressAlpha"))),
        new Section("switch.cam", "switch.cam", List.of(
            integer("switch.cam.depth", "entries", 1, 4096, SwitchConfig.DEFAULT_CAM_DEPTH,
                "cyclic CAM of sampled flow ids per output queue").feeds(SwitchConfig.class, "camDepth"),
            integer("switch.cam.sample_every_packets", "packets", 1, 1_000_000, SwitchConfig.DEFAULT_CAM_SAMPLE_PERIOD,
                "sample one packet in this many enqueued while the queue is congested")
                .feeds(SwitchConfig.class, "camSamplePeriod"),
            integer("switch.cam.congested_bytes", "bytes", 0, 1L << 34,
                "a queue is congested (the CAM samples) while its depth at a packet's arrival is at least this; `kmin` ="
                    + " the priority's WRED Kmin (never, for a priority without WRED). Input-output queueing: the output"
                    + " queue's depth").type("integer or `kmin`").range("0 .. `buffer_bytes`").dynamicDefault("`kmin`")
                .feeds(SwitchConfig.class, "camCongestedBytes"))),
        new Section("switch.rcm", "switch.rcm", List.of(
            bool("switch.rcm.detection", RCM.detection,
                "congestion region detection (§3.2): congestion points on input and output queues, notifications upstream")
                .feeds(RcmConfig.class, "detection"),
            bool("switch.rcm.flow_recognition", RCM.flowRecognition,
                "congestion flow recognition (§3.3): the CAM names the harmful flows; off = every flow of a congested queue"
                    + " is harmful and notifications carry no flow ID").feeds(RcmConfig.class, "flowRecognition"),
            bool("switch.rcm.regional_control", RCM.regionalControl,
                "regional congestion control (§3.4, Eq. 3-6); needs `detection` and `queueing: input_output_queued`")
                .feeds(RcmConfig.class, "regionalControl"),
            bool("switch.rcm.adaptive_routing", RCM.adaptiveRouting,
                "switch-level adaptive routing (§3.4); needs `detection` and `flow_recognition`")
                .feeds(RcmConfig.class, "adaptiveRouting"),
            doc("switch.rcm.priorities", "list 0..7", "", "not empty; not `notification_priority`", "`[nic.data_priority]`",
                "data priorities RCM watches"),
            number("switch.rcm.w_q", "factor", 0, 1e6, RCM.wq, "`w_q` of Eq. 1, weight of the queue growth (QCN's `w`)")
                .feeds(RcmConfig.class, "wq"),
            integer("switch.rcm.q_eq_bytes", "bytes", 1, 1L << 34, RCM.qEqBytes,
                "`Q_eq` of Eq. 1, equilibrium queue length (20 % of the 100 KB queues)").feeds(RcmConfig.class, "qEqBytes"),
            integer("switch.rcm.fb_bits", "bits", 1, 16, RCM.fbBits,
                "bits of the quantised `F_b` (QCN's 6-bit `Fb`); `F_bmax = Q_eq (1 + 2 w_q)` maps to `2^fb_bits - 1`")
                .feeds(RcmConfig.class, "fbBits"),
            number("switch.rcm.w", "weight", 0, 1, RCM.w, "`w` of Eq. 2, weight of the downstream neighbour's `F_br`")
                .feeds(RcmConfig.class, "w"),
            number("switch.rcm.g_d", "per quantised unit", 0, 1, RCM.gd,
                "`G_d` of Eq. 4-5; 0 = `1 / (2 (2^fb_bits - 1))`, so that `F_bmax x G_d = 1/2` as §3.4 requires;"
                    + " otherwise a cut of at most 100 %").range("0, or up to 1 / (2^fb_bits - 1)").feeds(RcmConfig.class, "gd"),
            integer("switch.rcm.sample_bytes", "bytes", 64, 1L << 34, RCM.sampleBytes,
                "congestion-point sampling interval while not congested (1.2 us at 100 Gb/s); after a sample of degree"
                    + " `F_b` the next comes after `sample_bytes / (1 + floor(8 F_b / 2^fb_bits))`")
                .feeds(RcmConfig.class, "sampleBytes"),
            integer("switch.rcm.notification_priority", "priority", 0, 7, RCM.notificationPriority,
                "priority congestion notifications travel on; made strict in the scheduler whenever RCM is on, whatever"
                    + " `strict_priorities` says").feeds(RcmConfig.class, "notificationPriority"),
            scaled("switch.rcm.notification_lifetime_us", "us", US, 0.001, 1e6, Units.usFromPs(RCM.notificationLifetimePs),
                "how long a received notification keeps the remote congestion flag, its `F_br` and its flow IDs valid")
                .feeds(RcmConfig.class, "notificationLifetimePs"),
            scaled("switch.rcm.window_period_us", "us", US, 0.001, 1e6, Units.usFromPs(RCM.windowPeriodPs),
                "RCC window period `T`; `W` = what the port carries in `T` (25 KB at 100 Gb/s)")
                .feeds(RcmConfig.class, "windowPeriodPs"),
            bool("switch.rcm.compound_window_decrease", RCM.compoundWindowDecrease,
                "Eq. 5 literally, `W_c <- W_c (1 - F_b G_d)` at every congestion event; false = from the first window's"
                    + " estimate `W_c0` each time").feeds(RcmConfig.class, "compoundWindowDecrease"),
            integer("switch.rcm.harmful_min_entries", "entries", 1, 4096, RCM.harmfulMinEntries,
                "CAM entries a flow needs to count as harmful at a root congestion point (1 = \"stored in the CAM\", §3.3)")
                .range("1 .. `cam.depth`").feeds(RcmConfig.class, "harmfulMinEntries"),
            bool("switch.rcm.latch_harmful_set", RCM.latchHarmfulSet,
                "with `flow_recognition` and `regional_control`: freeze an output queue's harmful set (the flows with"
                    + " `harmful_min_entries` in its CAM when its RCC starts controlling) until RCC quits, instead of reading"
                    + " the live CAM at every decision (§3.2 \"it starts congestion control (RCC) to the flows recognized by"
                    + " CFR\"; §3.4 \"Once the congestion state disappears, the window-based congestion control will quit\");"
                    + " root points only").feeds(RcmConfig.class, "latchHarmfulSet"),
            integer("switch.rcm.detour_table_entries", "flows", 1, 1 << 20, RCM.detourTableEntries,
                "SAR's direct-mapped table of detoured flows").range("power of two, 1 .. 2^20")
                .feeds(RcmConfig.class, "detourTableEntries"),
            scaled("switch.rcm.detour_idle_us", "us", US, 0.001, 1e6, Units.usFromPs(RCM.detourIdlePs),
                "a detoured flow keeps its new port while its packets arrive closer than this")
                .feeds(RcmConfig.class, "detourIdlePs"))),
        new Section("nic", "nic", List.of(
            integer("nic.mtu_bytes", "bytes", 256, 9000, NicConfig.DEFAULT_MTU_BYTES, "payload bytes per data packet")
                .feeds(NicConfig.class, "mtuBytes"),
            integer("nic.ack_every_packets", "packets", 1, 1024, NicConfig.DEFAULT_ACK_EVERY_PACKETS,
                "1 = ACK every packet; m = delayed ACK of up to m packets with the DCTCP CE state machine (the DCTCP draft"
                    + " §3.2), 2 us delayed-ACK timeout").feeds(NicConfig.class, "ackEveryPackets"),
            scaled("nic.cnp_interval_us", "us", Units.NS_PER_US, 0, 1e6,
                NicConfig.DEFAULT_CNP_INTERVAL_NS / (double) Units.NS_PER_US,
                "notification point: at most one CNP per QP per interval (mlx5 `min_time_between_cnps`); 0 = a CNP for"
                    + " every CE-marked packet").feeds(NicConfig.class, "cnpIntervalNs"),
            bool("nic.np_enabled", NicConfig.DEFAULT_NP_ENABLED, "notification point (CNP generation) on")
                .feeds(NicConfig.class, "npEnabled"),
            scaled("nic.rto_us", "us", Units.NS_PER_US, 1, 1e7, NicConfig.DEFAULT_RTO_NS / (double) Units.NS_PER_US,
                "retransmission (local ACK) timeout; go-back-N from the oldest unacknowledged PSN")
                .feeds(NicConfig.class, "rtoNs"),
            integer("nic.tx_burst_packets", "packets", 1, 1024, NicConfig.DEFAULT_TX_BURST_PACKETS,
                "a TX_BURST PCC event every this many packets of a QP, and after its last packet")
                .feeds(NicConfig.class, "txBurstPackets"),
            integer("nic.data_priority", "PCP", 0, 7, NicConfig.DEFAULT_DATA_PRIORITY, "priority (PCP) of data packets")
                .feeds(NicConfig.class, "dataPriority"),
            integer("nic.data_dscp", "DSCP", 0, 63, NicConfig.DEFAULT_DATA_DSCP, "DSCP of data packets")
                .feeds(NicConfig.class, "dataDscp"),
            integer("nic.cnp_priority", "PCP", 0, 7, NicConfig.DEFAULT_CNP_PRIORITY, "priority of CNPs (mlx5 CNP_802P_PRIO)")
                .feeds(NicConfig.class, "cnpPriority"),
            integer("nic.cnp_dscp", "DSCP", 0, 63, NicConfig.DEFAULT_CNP_DSCP, "DSCP of CNPs (mlx5 CNP_DSCP)")
                .feeds(NicConfig.class, "cnpDscp"),
            integer("nic.ack_priority", "PCP", 0, 7, NicConfig.DEFAULT_ACK_PRIORITY,
                "priority of ACKs and NAKs (ns-3's ACK_HIGH_PRIO maps to priority 7); when absent, the data priority")
                .feeds(NicConfig.class, "ackPriority"),
            integer("nic.ack_dscp", "DSCP", 0, 63, NicConfig.DEFAULT_ACK_DSCP,
                "DSCP of ACKs and NAKs; when absent, the data DSCP").feeds(NicConfig.class, "ackDscp"),
            integer("nic.initial_psn", "PSN", 0, 0xFF_FFFF, 0, "first PSN of every QP's send queue (below)")
                .type("`random` or integer"),
            oneOf("nic.loss_recovery", "go_back_n",
                "RC data loss recovery: RoCEv2's go-back-N, or selective repeat (an out-of-order receiver with a 64-bit"
                    + " SACK; the requester resends only missing packets: IRN, SIGCOMM 2018; UET as uet-htsim; docs/uet.md"
                    + " \"Selective repeat\")", "go_back_n", "selective_repeat"),
            integer("nic.ack_coalesce_bytes", "bytes", 0, 1 << 30, NicConfig.DEFAULT_ACK_COALESCE_BYTES,
                "0 = `ack_every_packets`; n = UET's ACK every n accepted frame bytes, at once on CE, the first packet or"
                    + " AckReq (uet-htsim: 16384)").feeds(NicConfig.class, "ackCoalesceBytes"),
            integer("nic.sr_window_packets", "packets", 64, 65536, NicConfig.DEFAULT_SR_WINDOW_PACKETS,
                "selective repeat: packets the receiver holds past the expected PSN (further ones are dropped) and the"
                    + " sender's cap on packets outstanding past its oldest unacknowledged one").range("power of two, 64 .. 65536")
                .feeds(NicConfig.class, "srWindowPackets"),
            integer("nic.sr_loss_threshold_packets", "packets", 0, 63, NicConfig.DEFAULT_SR_LOSS_THRESHOLD_PACKETS,
                "selective repeat: resend a packet once this many beyond it are SACKed (RFC 6675 DupThresh); 0 = on NACK"
                    + " and timeout only, as uet-htsim").feeds(NicConfig.class, "srLossThresholdPackets"))),
        new Section("nic.emulator", "nic.emulator", emulatorRows()),
        new Section("nic.path", "nic.path", List.of(
            oneOf("nic.path.policy", NicConfig.PATH_POLICY_NAMES.get(NicConfig.PATH_ECMP),
                "entropy (UDP source port, UET's EV) of each WRITE/SEND data packet: `ecmp` one per QP, so switches keep a"
                    + " flow on one path (RoCEv2); per packet as uet-htsim: `oblivious` round robin, `bitmap` skipping"
                    + " EVs penalised by ECN echoes (+1), NACKs (+4) and timeouts (15), `reps` recycling the EVs of ACKs"
                    + " without ECN, `mixed` those first, else bitmap ([uet.md](uet.md#spraying))",
                NicConfig.PATH_POLICY_NAMES.toArray(new String[0])).feeds(NicConfig.class, "pathPolicy"),
            integer("nic.path.entropies", "EVs", 1, NicConfig.MAX_PATH_ENTROPIES, NicConfig.DEFAULT_PATH_ENTROPIES,
                "EVs per flow for the spraying policies (uet-htsim `-paths`); unused with `ecmp`")
                .range("power of two, 1 .. 16384").feeds(NicConfig.class, "pathEntropies"))),
        new Section("algorithm", "algorithm", List.of(
            doc("algorithm.name", "text", "", "an algorithm on the class path (`./nicsim algorithms`)",
                "**required** unless `firmware`",
                "`ldcp`, `ldcp-pcc`, `dctcp`, `dcqcn`, `timely`, `hpcc`, `dctcp-rate`, or your own; with `firmware` it is"
                    + " documentation only"),
            doc("algorithm.firmware", "path", "", "an existing DOCA PCC firmware ELF", "none",
                "run instruction by instruction on every NIC's RISC-V cores instead of a Java algorithm"
                    + " ([firmware.md](firmware.md)); bad ELFs are rejected with `file:line: algorithm.firmware: why`"),
            doc("algorithm.firmware_model", "text or path", "", "`bf3-dpa`, `e31`, `ibex` or a model YAML file", "`bf3-dpa`",
                "the RISC-V machine model the firmware runs on ([riscv-core.md](riscv-core.md#the-bf3-dpa-model),"
                    + " [firmware.md](firmware.md#machine-model)); only with `firmware`. A file is looked up next to the"
                    + " scenario, then in the current directory; a missing file, a directory or an unreadable file is"
                    + " `file:line: algorithm.firmware_model: why (expected bf3-dpa, e31, ibex or a model YAML file)`, exit 2"),
            doc("algorithm.params.<name>", "number", "per parameter", "the parameter's range",
                "the algorithm's (or firmware's declared) default",
                "algorithm parameters by name, validated against their ranges; unknown names are rejected"))),
        new Section("workload", "workload", List.of(
            oneOf("workload.type", null, "`hotspot` is Poisson with a hot set; `flows` an explicit list; `file` an ns-3 flow file",
                "incast", "permutation", "poisson", "hotspot", "flows", "file"),
            oneOf("workload.op", "write", "RDMA operation of every flow (one RC QP pair per flow)", "write", "send", "read"),
            scaled("workload.start_us", "us", US, 0, 1e9, 0,
                "start of the first flow (`flows` and `file`: added to every entry's start)"),
            integer("workload.senders", "hosts", 1, 255, "hosts 0, 1, ... (skipping the receiver) each send one flow")
                .range("1 .. hosts - 1").dynamicDefault("**required** for `incast`"),
            integer("workload.receiver", "host id", 0, 255, "incast receiver").range("0 .. hosts - 1")
                .dynamicDefault("the last host"),
            integer("workload.size_bytes", "bytes", 1, RoceNic.MAX_MESSAGE_BYTES,
                "bytes per flow (one RDMA message); `poisson`/`hotspot`: one fixed flow size instead of `cdf`")
                .dynamicDefault("**required** for `incast`, `permutation`"),
            number("workload.load", "fraction of host link rate", 0.000001, 1.0, Double.NaN, "offered load, summed over hosts")
                .dynamicDefault("**required** for `poisson`, `hotspot`"),
            integer("workload.flows", "flows", 1, 10_000_000, "number of flows; sources uniform, destinations never the source")
                .dynamicDefault("**required** for `poisson`, `hotspot`"),
            doc("workload.cdf", "path", "", "a CDF file (below)", "`poisson`/`hotspot`: exactly one of `cdf` and `size_bytes`",
                "flow-size distribution"),
            number("workload.hot_fraction", "probability", 0, 1, 0.15,
                "`hotspot`: each flow goes to the hot set with this probability (class `hot`), else to a uniform destination"
                    + " (class `background`) (the RCM paper §4.2)"),
            number("workload.hot_hosts_fraction", "fraction of hosts", 0.000001, 0.999999, 0.125,
                "`hotspot`: the hot set is `round(fraction x hosts)` hosts, drawn uniformly from the seed (stream"
                    + " `workload/hot_set`); a hot flow never goes to its own source")
                .range("0.000001 .. 0.999999, giving 2 .. hosts - 1 hosts"),
            doc("workload.flows", "list of mappings", "", "", "**required** for `flows`",
                "one mapping per flow, flow id = position in the list (below)"),
            doc("workload.path", "path", "", "an existing file", "**required** for `file`",
                "an HPCC ns-3 flow file (`src dst pg dport size start_s` per line; [ns3.md](ns3.md)): flow id = line order;"
                    + " start = ns-3's truncation of the seconds value (`2.000006128` s is 2,000,006,127 ns, as in the"
                    + " reference's output); every flow must be on `nic.data_priority`"))),
        new Section("workload.flows", "workload.flows[i]", List.of(
            integer("workload.flows[i].src", "host id", 0, 255, "requester").range("0 .. hosts - 1"),
            integer("workload.flows[i].dst", "host id", 0, 255, "responder").range("0 .. hosts - 1, not `src`"),
            scaled("workload.flows[i].start_us", "us", US, 0, 1e9, 0, "start time (plus `workload.start_us`)"),
            integer("workload.flows[i].size_bytes", "bytes", 1, RoceNic.MAX_MESSAGE_BYTES, "message size")
                .dynamicDefault("exactly one of `size_bytes` and `burst_us`"),
            scaled("workload.flows[i].burst_us", "us", US, 0.001, 1e6, Double.NaN,
                "a micro-burst: the size is the full-MTU packets the host link serialises back to back in this time, times"
                    + " the MTU (20 us at 100 Gb/s, MTU 1024: 225 packets, 230 400 bytes)")
                .dynamicDefault("exactly one of `size_bytes` and `burst_us`"),
            doc("workload.flows[i].class", "text", "", "letters, digits, `_`, `-`", "`flow`",
                "the flow's class in `classes.csv`, the summary and the chart legend"))),
        new Section("firmware.mailbox", "firmware", List.of(
            doc("firmware.mailbox", "list of mappings", "", "", "none", "host mailbox messages, one mapping each (below)"),
            scaled("firmware.mailbox[i].at_us", "us", US, 0, 1e8, Double.NaN, "delivery time")
                .range("0 .. `stop_time_us`").dynamicDefault("exactly one of `at_us` and `at_ns`"),
            scaled("firmware.mailbox[i].at_ns", "ns", NS, 0, 1e11, Double.NaN, "delivery time")
                .range("0 .. `stop_time_us` x 1000").dynamicDefault("exactly one of `at_us` and `at_ns`"),
            doc("firmware.mailbox[i].hex", "text", "bytes",
                "an optional `0x`, then pairs of hex digits; spaces, tabs, `_` or `:` only between bytes (`1 2 3 4` is"
                    + " refused); 0 .. 1024 bytes", "exactly one of `hex` and `words`",
                "the request bytes in order, e.g. `\"00 00 04 00\"`"),
            doc("firmware.mailbox[i].words", "list of integers", "32-bit words", "each 0 .. 2^32-1, decimal or `0x` hex",
                "exactly one of `hex` and `words`",
                "the request as little-endian 32-bit words (`[0x40000]` = bytes `00 00 04 00`)"),
            doc("firmware.mailbox[i].nic", "integer or `all`", "host id", "0 .. hosts - 1, or `all`", ScenarioField.REQUIRED,
                "the NIC whose firmware receives it, or every NIC (in host order)"),
            integer("firmware.mailbox[i].max_response_bytes", "bytes", 0, FirmwareLayout.HOST_MAILBOX_BYTES,
                FirmwareLayout.HOST_MAILBOX_BYTES,
                "the largest reply the host accepts (`max_response_size`); the callback's `*response_size` is preset to 0"
                    + " and a larger one is cut to this"))),
        new Section("link_events", "", List.of(
            scaled("link_events[i].at_us", "us", US, 0, 1e8, Double.NaN, "when the link changes state")
                .range("0 .. `stop_time_us`").dynamicDefault("exactly one of `at_us` and `at_ns`"),
            scaled("link_events[i].at_ns", "ns", NS, 0, 1e11, Double.NaN, "when the link changes state")
                .range("0 .. `stop_time_us` x 1000").dynamicDefault("exactly one of `at_us` and `at_ns`"),
            integer("link_events[i].host", "host id", 0, 255, "the host whose link (NIC port 0 to its switch) changes")
                .range("0 .. hosts - 1"),
            oneOf("link_events[i].state", null, "the link's state from then on", "down", "up"))),
        new Section("sampling", "sampling", List.of(
            scaled("sampling.queue_interval_us", "us", US, 0.01, 1e6, 10, "interval of `queues.csv` samples"),
            scaled("sampling.rate_interval_us", "us", US, 0.01, 1e6, 10, "interval of `rates.csv` samples"),
            scaled("sampling.throughput_interval_us", "us", US, 0.01, 1e6, 10, "interval of `throughput.csv` samples"),
            bool("sampling.throughput_chart", false, "draw `throughput.png` after the run"),
            bool("sampling.charts", false,
                "draw `throughput.png`, `queues.png`, `rates.png` and `slowdown.png` after the run (see"
                    + " [sweep.md](sweep.md#figures-for-every-run-nicsim-plot-samplingcharts))"),
            oneOf("sampling.counters", "nonzero", "which counters `counters.csv` lists: `nonzero` omits a counter whose"
                + " value is 0 (a counter that never moved is not a row); `all` writes every counter, in the same order",
                "nonzero", "all"))),
        new Section("firmware", "firmware", List.of(
            doc("firmware.np", "path", "", "an existing ELF defining `doca_pcc_dev_np_user_packet_handler`",
                "none (the NICs' hardware RTT responders answer probes)",
                "a DOCA PCC notification-point program: every NIC runs it for each RTT probe request it receives, on its"
                    + " own DPA model (`algorithm.firmware_model` when the algorithm is firmware, else `bf3-dpa`; budget"
                    + " `nic.emulator.max_instructions_per_event`), and its 12 bytes reach the requester's RTT event as raw"
                    + " data ([doca-pcc.md](doca-pcc.md#notification-point-programs-firmwarenp)). Resolved next to the"
                    + " scenario, then in the current directory; an ELF without the NP handler is `file:line: firmware.np:"
                    + " why`, exit 2"),
            doc("firmware.np_mailbox", "text", "bytes", "pairs of hex digits (0 .. 1024 bytes), or `none`",
                "`FE 00 00 00` when `probe.format` is `ifa2` and the NP program defines `doca_pcc_dev_user_mailbox_handle`,"
                    + " else none",
                "the message the NP host application sends each NIC's NP process once, when it starts (before its first"
                    + " probe), with a maximum response of 0 bytes (`doca_pcc_mailbox_send`, fact sheet B.1): NVIDIA's"
                    + " switch-telemetry NP host sends its hop limit 0xFE as a little-endian 32-bit word. Needs `np` and an"
                    + " NP program with the callback (else `file:line: firmware.np_mailbox: why`, exit 2). A non-zero"
                    + " return or an abandoned call counts as failed on the `np firmware` summary line"),
            oneOf("firmware.probe.format", "ccmad",
                "the RTT probe format every reaction point asks for (`doca_pcc_set_ifa2_probe_packet_format`): `ifa2`"
                    + " probes carry an IFA header and metadata header, and every switch inserts a 32-byte per-hop record"
                    + " while the Hop Limit allows ([doca-pcc.md](doca-pcc.md#switch-telemetry-ifa2-probes)). `ccmad`"
                    + " probes are as before", "ccmad", "ifa2"),
            integer("firmware.probe.ifa2_gns", "", 0, 15, NicConfig.DEFAULT_PROBE_IFA2_GNS,
                "the IFA header's GNS (`doca_pcc_rp_set_ifa2_gns`); only with `format: ifa2`")
                .feeds(NicConfig.class, "probeIfa2Gns"),
            integer("firmware.probe.ifa2_hop_limit", "hops", 0, 255, NicConfig.DEFAULT_PROBE_IFA2_HOP_LIMIT,
                "the metadata header's initial Hop Limit (`doca_pcc_rp_set_ifa2_hop_limit`): at most this many switches"
                    + " insert a record; only with `format: ifa2`").feeds(NicConfig.class, "probeIfa2HopLimit"))));

    private static final Map<String, ScenarioField> BY_PATH = index();

    private static List<ScenarioField> emulatorRows() {
        final List<ScenarioField> rows = new ArrayList<>(List.of(
            bool("nic.emulator.enabled", true,
                "every PCC event goes through the uNIC emulator; `false` runs each event at once with no delay (the ideal"
                    + " direct processor)"),
            integer("nic.emulator.cores", "cores", 1, 1024, EmulatorConfig.DEFAULT_CORES,
                "CC processor cores (BlueField-3: 16); a QP belongs to one core by a hash of its QPN")
                .feeds(EmulatorConfig.class, "cores"),
            integer("nic.emulator.threads_per_core", "threads", 1, 256, EmulatorConfig.DEFAULT_THREADS_PER_CORE,
                "hardware threads per core (BlueField-3: 16)").feeds(EmulatorConfig.class, "threadsPerCore"),
            scaled("nic.emulator.clock_ghz", "GHz", Units.HZ_PER_GHZ, 0.001, 100,
                EmulatorConfig.DEFAULT_CLOCK_HZ / Units.HZ_PER_GHZ, "core clock; with `algorithm.firmware` "
                    + ScenarioField.format(FirmwareProvider.DEFAULT_CLOCK_GHZ) + " GHz (the DPA-like clock)")
                .feeds(EmulatorConfig.class, "clockHz"),
            integer("nic.emulator.ring_capacity", "events", 1, 1 << 20, EmulatorConfig.DEFAULT_RING_CAPACITY,
                "events a core holds waiting (records on the Agrona ring plus its table of waiting events); an event that"
                    + " finds it full is dropped and counted per type").feeds(EmulatorConfig.class, "ringCapacity"),
            integer("nic.emulator.context_cache_entries", "flows", 1, 1 << 20, EmulatorConfig.DEFAULT_CONTEXT_CACHE_ENTRIES,
                "per-core LRU cache of flow contexts").feeds(EmulatorConfig.class, "contextCacheEntries"),
            integer("nic.emulator.dispatch_cycles", "cycles", 0, 1_000_000, EmulatorConfig.DEFAULT_DISPATCH_CYCLES,
                "cost of dispatching an event to a thread").feeds(EmulatorConfig.class, "dispatchCycles"),
            integer("nic.emulator.context_hit_cycles", "cycles", 0, 1_000_000, EmulatorConfig.DEFAULT_CONTEXT_HIT_CYCLES,
                "context fetch on a cache hit").feeds(EmulatorConfig.class, "contextHitCycles"),
            integer("nic.emulator.context_miss_cycles", "cycles", 0, 1_000_000, EmulatorConfig.DEFAULT_CONTEXT_MISS_CYCLES,
                "context fetch on a cache miss (a miss frees the core while it waits, so other threads run)")
                .feeds(EmulatorConfig.class, "contextMissCycles"),
            integer("nic.emulator.write_back_cycles", "cycles", 0, 1_000_000, EmulatorConfig.DEFAULT_WRITE_BACK_CYCLES,
                "result write-back").feeds(EmulatorConfig.class, "writeBackCycles"),
            bool("nic.emulator.coalescing", EmulatorConfig.DEFAULT_COALESCING,
                "an event for a flow that already has one of the same type waiting is merged into it (first timestamp and"
                    + " sequence number kept, count and TX bytes/packets added)").feeds(EmulatorConfig.class, "coalescing"),
            integer("nic.emulator.high_water_mark", "events", -1, 1 << 20, EmulatorConfig.DEFAULT,
                "above it the algorithm sees the overload flag; -1 = 3/4 of the ring").range("-1 .. `ring_capacity`")
                .feeds(EmulatorConfig.class, "overloadHighWaterMark")));
        for (int t = 0; t < PccEventType.COUNT; t++) {
            rows.add(integer("nic.emulator.handler_cycles." + PccEventType.shortName(t), "cycles", -1, 1_000_000,
                EmulatorConfig.DEFAULT, "handler cost of " + PccEventType.shortName(t) + " events; -1 = the algorithm's"
                    + " estimate of its microcode length (`handlerCycles`); unused with `algorithm.firmware` (the measured"
                    + " cycles count)").feeds(EmulatorConfig.class, "handlerCycles"));
        }
        rows.add(integer("nic.emulator.max_instructions_per_event", "instructions", 1, 1_000_000_000,
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT,
            "firmware only: a handler that retires more is abandoned and counted (`firmware_budget_exceeded`)"));
        return rows;
    }


    private ScenarioSchema() {
    }

    private static Map<String, ScenarioField> index() {
        final Map<String, ScenarioField> out = new LinkedHashMap<>();
        for (final Section s : SECTIONS) {
            for (final ScenarioField f : s.rows()) {
                out.putIfAbsent(f.path(), f); // workload.flows: the poisson count first, the flows list second
            }
        }
        return out;
    }

    /**
     * The row of a field.
     *
     * @param path the dotted path, list indices written {@code [i]}
     * @return the row
     * @throws IllegalStateException if the schema has no such row (a loader or writer naming a field
     *                               the schema does not declare)
     */
    public static ScenarioField row(final String path) {
        final ScenarioField f = BY_PATH.get(path);
        if (f == null) {
            throw new IllegalStateException("the scenario schema has no row for " + path);
        }
        return f;
    }

    /** @return every row, in page order */
    public static List<ScenarioField> rows() {
        return new ArrayList<>(BY_PATH.values());
    }

    /**
     * A section as the Markdown table docs/scenarios.md shows: a header, then one line per row.
     *
     * @param s the section
     * @return the table, lines ending in {@code \n}
     */
    public static String markdown(final Section s) {
        final StringBuilder b = new StringBuilder("| field | type | unit | range | default | meaning |\n"
            + "|---|---|---|---|---|---|\n");
        for (final ScenarioField f : s.rows()) {
            final String name = s.prefix().isEmpty() ? f.path() : f.path().substring(s.prefix().length() + 1);
            b.append("| `").append(name).append("` |");
            for (final String cell : new String[] {f.type(), f.unit(), f.range(), f.defaultText(), f.meaning()}) {
                b.append(cell.isEmpty() ? " |" : " " + cell + " |");
            }
            b.append('\n');
        }
        return b.toString();
    }
}
