package dev.nicsim.scenario;

import dev.nicsim.nic.NicConfig;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.sw.SwitchConfig;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.comments.CommentLine;
import org.yaml.snakeyaml.comments.CommentType;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a {@link Scenario} as a scenario file, the inverse of {@link ScenarioLoader}: every field
 * the loader reads for the scenario's topology and workload types is written with its value in the
 * file's units (README.md "Scenario files"), so loading the text gives back an equal scenario (same
 * values, the same files; {@code ScenarioWriterTest} checks this for every shipped scenario). The
 * text is emitted by SnakeYAML from a node tree (quoting, flow lists), with optional comments per
 * field.
 *
 * <p>Fields not written: {@code switch.pfc.headroom_bytes} when sized from the link (-1), and a
 * {@code flows} entry's {@code class} when it is the default; a {@code burst_us} flow is written as
 * its {@code size_bytes}. Paths ({@code topology.path}, {@code workload.path}, {@code workload.cdf},
 * {@code algorithm.firmware}) are written relative to the scenario file's directory.
 *
 * <p>Thread-safety: stateless; a {@link Comments} is not thread-safe.
 */
public final class ScenarioWriter {
    /**
     * Comments to write with the fields, keyed by the field's dotted path ({@code switch.pfc.enabled},
     * {@code algorithm.params.g}, as the loader's messages name fields).
     */
    public static final class Comments {
        private final List<String> header = new ArrayList<>();
        private final List<String> footer = new ArrayList<>();
        private final Map<String, List<String>> above = new LinkedHashMap<>();
        private final Map<String, String> inline = new LinkedHashMap<>();

        /**
         * A comment line at the top of the file.
         *
         * @param text the line, without {@code #}
         * @return this
         */
        public Comments header(final String text) {
            header.add(text);
            return this;
        }

        /**
         * A comment line at the end of the file (after one blank line).
         *
         * @param text the line, without {@code #}
         * @return this
         */
        public Comments footer(final String text) {
            footer.add(text);
            return this;
        }

        /**
         * A comment line above a field.
         *
         * @param field dotted field path
         * @param text  the line, without {@code #}
         * @return this
         */
        public Comments above(final String field, final String text) {
            above.computeIfAbsent(field, k -> new ArrayList<>()).add(text);
            return this;
        }

        /**
         * A comment at the end of a field's line; a second one for the same field is joined with {@code "; "}.
         *
         * @param field dotted field path
         * @param text  the comment, without {@code #}
         * @return this
         */
        public Comments inline(final String field, final String text) {
            inline.merge(field, text, (a, b) -> a + "; " + b);
            return this;
        }
    }

    private final Path dir;
    private final Comments comments;
    private final Set<String> placed = new HashSet<>();

    private ScenarioWriter(final Path scenarioFile, final Comments comments) {
        this.dir = scenarioFile.toAbsolutePath().normalize().getParent();
        this.comments = comments;
    }

    /**
     * The scenario as YAML text.
     *
     * @param s            the scenario
     * @param scenarioFile where the text will be written (paths are made relative to its directory)
     * @param comments     comments to place, or null for none
     * @return the text, UTF-8 safe, ending in a newline
     * @throws IllegalArgumentException if a comment names a field that is not written (a caller's
     *                                  mistake: a comment would otherwise be lost silently)
     */
    public static String toYaml(final Scenario s, final Path scenarioFile, final Comments comments) {
        final ScenarioWriter w = new ScenarioWriter(scenarioFile, comments == null ? new Comments() : comments);
        final MappingNode root = w.scenario(s);
        final Set<String> missing = new HashSet<>(w.comments.above.keySet());
        missing.addAll(w.comments.inline.keySet());
        missing.removeAll(w.placed);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("comments for fields that are not written: " + new TreeSet<>(missing));
        }
        if (!w.comments.header.isEmpty()) {
            final Node first = root.getValue().get(0).getKeyNode();
            final List<CommentLine> top = lines(w.comments.header, CommentType.BLOCK);
            if (first.getBlockComments() != null) {
                top.addAll(first.getBlockComments());
            }
            first.setBlockComments(top);
        }
        if (!w.comments.footer.isEmpty()) {
            final List<CommentLine> end = new ArrayList<>();
            end.add(new CommentLine(null, null, "", CommentType.BLANK_LINE));
            end.addAll(lines(w.comments.footer, CommentType.BLOCK));
            root.setEndComments(end);
        }
        final DumperOptions o = new DumperOptions();
        o.setProcessComments(true);
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setIndent(2);
        o.setIndicatorIndent(2);
        o.setIndentWithIndicator(true);
        o.setWidth(1000);
        o.setLineBreak(DumperOptions.LineBreak.UNIX);
        final StringWriter out = new StringWriter();
        new Yaml(o).serialize(root, out);
        return out.toString();
    }

    private static List<CommentLine> lines(final List<String> texts, final CommentType type) {
        final List<CommentLine> out = new ArrayList<>();
        for (final String t : texts) {
            out.add(new CommentLine(null, null, " " + t, type));
        }
        return out;
    }

    // --- the scenario, field by field as ScenarioLoader reads it

    private MappingNode scenario(final Scenario s) {
        final Fields f = new Fields("");
        f.str("name", s.name());
        f.integer("seed", s.seed());
        f.scaled("stop_time_us", s.stopTimePs());
        f.map("topology", topology(s.topology()));
        f.map("switch", switchSpec(s.switchSpec()));
        f.map("nic", nic(s.nic()));
        f.map("algorithm", algorithm(s.algorithm()));
        f.map("workload", workload(s.workload()));
        final Fields smp = new Fields("sampling");
        smp.scaled("queue_interval_us", s.sampling().queueIntervalPs());
        smp.scaled("rate_interval_us", s.sampling().rateIntervalPs());
        smp.scaled("throughput_interval_us", s.sampling().throughputIntervalPs());
        smp.bool("throughput_chart", s.sampling().throughputChart());
        smp.bool("charts", s.sampling().charts());
        if (s.sampling().allCounters()) { // written when not the default, so files written before the field are unchanged
            smp.str("counters", "all");
        }
        f.map("sampling", smp);
        if (!s.mailbox().isEmpty() || s.npFirmware() != null || s.probe().ifa2()) {
            final Fields fw = new Fields("firmware");
            if (s.npFirmware() != null) {
                fw.str("np", relative(s.npFirmware().elf()));
                // "none" when there is no message: with IFA2 probes the default would send FE 00 00 00
                fw.str("np_mailbox", s.npFirmware().mailboxHex() != null ? s.npFirmware().mailboxHex() : "none");
            }
            if (s.probe().ifa2()) {
                final Fields pr = new Fields("firmware.probe");
                pr.str("format", "ifa2");
                pr.integer("ifa2_gns", s.probe().ifa2Gns());
                pr.integer("ifa2_hop_limit", s.probe().ifa2HopLimit());
                fw.map("probe", pr);
            }
            final List<Node> items = new ArrayList<>();
            for (final Scenario.MailboxMessage m : s.mailbox()) {
                final Fields e = new Fields("firmware.mailbox[i]");
                e.scaled("at_ns", m.atPs());
                e.str("hex", m.requestHex());
                if (m.nic() == Scenario.ALL_NICS) {
                    e.str("nic", "all");
                } else {
                    e.integer("nic", m.nic());
                }
                e.integer("max_response_bytes", m.maxResponseBytes());
                items.add(e.flowNode());
            }
            if (!items.isEmpty()) {
                fw.put("mailbox", new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK));
            }
            f.map("firmware", fw);
        }
        if (!s.linkEvents().isEmpty()) {
            final List<Node> items = new ArrayList<>();
            for (final Scenario.LinkEvent l : s.linkEvents()) {
                final Fields e = new Fields("link_events[i]");
                e.scaled("at_ns", l.atPs());
                e.integer("host", l.host());
                e.str("state", l.up() ? "up" : "down");
                items.add(e.flowNode());
            }
            f.put("link_events", new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK));
        }
        return f.node();
    }

    private Fields topology(final Scenario.Topology t) {
        final Fields f = new Fields("topology");
        f.str("type", t.type());
        switch (t.type()) {
            case "file" -> {
                f.str("path", relative(t.file().file()));
                return f; // the links are the file's
            }
            case "star" -> f.integer("hosts", t.hosts());
            case "dumbbell" -> f.integer("hosts_per_side", t.hostsPerSide());
            case "leaf_spine" -> {
                f.integer("leaves", t.leaves());
                f.integer("spines", t.spines());
                f.integer("hosts_per_leaf", t.hostsPerLeaf());
            }
            default -> f.integer("k", t.k());
        }
        f.map("host_link", link("topology.host_link", t.hostLink()));
        f.map("fabric_link", link("topology.fabric_link", t.fabricLink()));
        return f;
    }

    private Fields link(final String path, final Scenario.Link l) {
        final Fields f = new Fields(path);
        f.scaled("rate_gbps", l.rateBitsPerSec());
        f.scaled("delay_ns", l.delayPs());
        return f;
    }

    private Fields switchSpec(final Scenario.SwitchSpec s) {
        final Fields f = new Fields("switch");
        f.integer("buffer_bytes", s.bufferBytes());
        final Fields p = new Fields("switch.pfc");
        p.bool("enabled", s.pfcEnabled());
        p.ints("priorities", s.pfcPriorities());
        p.str("mode", s.pfcDynamic() ? "dynamic" : "static");
        p.integer("xoff_bytes", s.xoffBytes());
        p.integer("xon_bytes", s.xonBytes());
        p.number("alpha", s.pfcAlpha());
        p.integer("xon_offset_bytes", s.xonOffsetBytes());
        if (s.headroomBytes() >= 0) {
            p.integer("headroom_bytes", s.headroomBytes());
        }
        f.map("pfc", p);
        final Fields w = new Fields("switch.wred");
        w.ints("priorities", s.wredPriorities());
        w.integer("kmin_bytes", s.kminBytes());
        w.integer("kmax_bytes", s.kmaxBytes());
        w.number("pmax", s.pmax());
        w.bool("ecn", s.ecn());
        w.integer("not_ect_drop_bytes", s.notEctDropBytes());
        if (!s.wredByRate().isEmpty()) {
            final List<Node> items = new ArrayList<>();
            for (final Scenario.RateWred r : s.wredByRate()) {
                final Fields e = new Fields("switch.wred.by_rate[i]");
                e.scaled("rate_gbps", r.rateBitsPerSec());
                e.integer("kmin_bytes", r.kminBytes());
                e.integer("kmax_bytes", r.kmaxBytes());
                e.number("pmax", r.pmax());
                items.add(e.flowNode());
            }
            w.put("by_rate", new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK));
        }
        f.map("wred", w);
        final Fields e = new Fields("switch.egress");
        e.str("mode", s.egressDynamic() ? "dynamic" : "static");
        e.integer("queue_limit_bytes", s.queueLimitBytes());
        e.number("alpha", s.egressAlpha());
        f.map("egress", e);
        f.ints("strict_priorities", s.strictPriorities());
        final Fields c = new Fields("switch.cam");
        c.integer("depth", s.camDepth());
        c.integer("sample_every_packets", s.camSamplePackets());
        if (s.camCongestedBytes() == SwitchConfig.CAM_THRESHOLD_KMIN) {
            c.str("congested_bytes", "kmin");
        } else {
            c.integer("congested_bytes", s.camCongestedBytes());
        }
        f.map("cam", c);
        f.str("queueing", s.inputOutputQueued() ? "input_output_queued" : "output_queued");
        f.integer("voq_bytes", s.voqBytes());
        f.integer("output_queue_bytes", s.outputQueueBytes());
        final Scenario.UetEgress u = s.uet();
        if (!u.isOff()) { // written only when one is set, so files written before these fields stay as they were
            f.integer("queue_limit_bytes", u.queueLimitBytes());
            final Fields t = new Fields("switch.trimming");
            t.bool("enabled", u.trimming());
            t.integer("header_bytes", u.trimHeaderBytes());
            f.map("trimming", t);
            final Fields n = new Fields("switch.ecn");
            n.bool("at_dequeue", u.ecnAtDequeue());
            f.map("ecn", n);
        }
        final Scenario.Rcm r = s.rcm();
        final Fields m = new Fields("switch.rcm");
        m.bool("detection", r.detection());
        m.bool("flow_recognition", r.flowRecognition());
        m.bool("regional_control", r.regionalControl());
        m.bool("adaptive_routing", r.adaptiveRouting());
        m.ints("priorities", r.priorities());
        m.number("w_q", r.wq());
        m.integer("q_eq_bytes", r.qEqBytes());
        m.integer("fb_bits", r.fbBits());
        m.number("w", r.w());
        m.number("g_d", r.gd());
        m.integer("sample_bytes", r.sampleBytes());
        m.integer("notification_priority", r.notificationPriority());
        m.scaled("notification_lifetime_us", r.notificationLifetimePs());
        m.scaled("window_period_us", r.windowPeriodPs());
        m.bool("compound_window_decrease", r.compoundWindowDecrease());
        m.integer("harmful_min_entries", r.harmfulMinEntries());
        m.bool("latch_harmful_set", r.latchHarmfulSet());
        m.integer("detour_table_entries", r.detourTableEntries());
        m.scaled("detour_idle_us", r.detourIdlePs());
        f.map("rcm", m);
        return f;
    }

    private Fields nic(final Scenario.NicSpec n) {
        final Fields f = new Fields("nic");
        f.integer("mtu_bytes", n.mtuBytes());
        f.integer("ack_every_packets", n.ackEveryPackets());
        f.scaled("cnp_interval_us", n.cnpIntervalNs());
        f.bool("np_enabled", n.npEnabled());
        f.scaled("rto_us", n.rtoNs());
        f.integer("tx_burst_packets", n.txBurstPackets());
        f.integer("data_priority", n.dataPriority());
        f.integer("data_dscp", n.dataDscp());
        f.integer("cnp_priority", n.cnpPriority());
        f.integer("cnp_dscp", n.cnpDscp());
        if (n.initialPsn() == Scenario.NicSpec.RANDOM_PSN) {
            f.str("initial_psn", "random");
        } else {
            f.integer("initial_psn", n.initialPsn());
        }
        f.integer("ack_priority", n.ackPriority());
        f.integer("ack_dscp", n.ackDscp());
        // loss-recovery fields only when set, so scenarios written before them stay as they were
        if (n.selectiveRepeat()) {
            f.str("loss_recovery", "selective_repeat");
        }
        if (n.ackCoalesceBytes() != NicConfig.DEFAULT_ACK_COALESCE_BYTES) {
            f.integer("ack_coalesce_bytes", n.ackCoalesceBytes());
        }
        if (n.srWindowPackets() != NicConfig.DEFAULT_SR_WINDOW_PACKETS) {
            f.integer("sr_window_packets", n.srWindowPackets());
        }
        if (n.srLossThresholdPackets() != NicConfig.DEFAULT_SR_LOSS_THRESHOLD_PACKETS) {
            f.integer("sr_loss_threshold_packets", n.srLossThresholdPackets());
        }
        if (n.pathPolicy() != NicConfig.PATH_ECMP || n.pathEntropies() != NicConfig.DEFAULT_PATH_ENTROPIES) {
            // written only away from the defaults, so files written before spraying stay as they were
            final Fields p = new Fields("nic.path");
            p.str("policy", NicConfig.PATH_POLICY_NAMES.get(n.pathPolicy()));
            p.integer("entropies", n.pathEntropies());
            f.map("path", p);
        }
        final Scenario.Emulator e = n.emulator();
        final Fields m = new Fields("nic.emulator");
        m.bool("enabled", e.enabled());
        m.integer("cores", e.cores());
        m.integer("threads_per_core", e.threadsPerCore());
        m.scaled("clock_ghz", e.clockHz());
        m.integer("max_instructions_per_event", e.maxInstructionsPerEvent());
        m.integer("ring_capacity", e.ringCapacity());
        m.integer("context_cache_entries", e.contextCacheEntries());
        m.integer("dispatch_cycles", e.dispatchCycles());
        m.integer("context_hit_cycles", e.contextHitCycles());
        m.integer("context_miss_cycles", e.contextMissCycles());
        m.integer("write_back_cycles", e.writeBackCycles());
        m.bool("coalescing", e.coalescing());
        m.integer("high_water_mark", e.highWaterMark());
        final Fields h = new Fields("nic.emulator.handler_cycles");
        for (int t = 0; t < e.handlerCycles().length; t++) {
            h.integer(PccEventType.shortName(t), e.handlerCycles()[t]);
        }
        m.map("handler_cycles", h);
        f.map("emulator", m);
        return f;
    }

    private Fields algorithm(final Scenario.Algorithm a) {
        final Fields f = new Fields("algorithm");
        f.str("name", a.name());
        if (a.firmware() != null) {
            f.str("firmware", relative(a.firmware()));
        }
        final Fields p = new Fields("algorithm.params");
        for (final PccParameter d : a.values().descriptors()) {
            p.number(d.name(), a.values().value(d.name()));
        }
        f.map("params", p);
        return f;
    }

    private Fields workload(final Scenario.Workload w) {
        final Fields f = new Fields("workload");
        f.str("type", w.type());
        f.str("op", w.op());
        f.scaled("start_us", w.startPs());
        switch (w.type()) {
            case "incast" -> {
                f.integer("senders", w.senders());
                f.integer("receiver", w.receiver());
                f.integer("size_bytes", w.sizeBytes());
            }
            case "permutation" -> f.integer("size_bytes", w.sizeBytes());
            case "file" -> f.str("path", relative(w.file().file()));
            case "flows" -> {
                final List<Node> items = new ArrayList<>();
                for (final FlowSpec s : w.flowList()) {
                    final Fields e = new Fields("workload.flows[i]");
                    e.integer("src", s.src());
                    e.integer("dst", s.dst());
                    e.scaled("start_us", s.startPs() - w.startPs());
                    e.integer("size_bytes", s.sizeBytes());
                    if (!FlowSpec.DEFAULT_CLASS.equals(s.flowClass())) {
                        e.str("class", s.flowClass());
                    }
                    items.add(e.flowNode());
                }
                f.put("flows", new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK));
            }
            default -> {
                f.number("load", w.load());
                f.integer("flows", w.flows());
                if (w.cdf() != null) {
                    f.str("cdf", relative(Path.of(w.cdf().source())));
                } else {
                    f.integer("size_bytes", w.sizeBytes());
                }
                if ("hotspot".equals(w.type())) {
                    f.number("hot_fraction", w.hotFraction());
                    f.number("hot_hosts_fraction", w.hotHostsFraction());
                }
            }
        }
        return f;
    }

    private String relative(final Path target) {
        return dir.relativize(target.toAbsolutePath().normalize()).toString();
    }

    /** The fields of one mapping, in order, with the comments of their paths attached. */
    private final class Fields {
        private final String path;
        private final List<NodeTuple> tuples = new ArrayList<>();

        Fields(final String path) {
            this.path = path;
        }

        void put(final String key, final Node value) {
            final String field = path.isEmpty() ? key : path + "." + key;
            if (!(value instanceof MappingNode) && !path.equals("algorithm.params")) {
                ScenarioSchema.row(field); // every value written is a schema row
            }
            final ScalarNode k = scalar(Tag.STR, key);
            final List<String> a = comments.above.get(field);
            if (a != null) {
                k.setBlockComments(lines(a, CommentType.BLOCK));
                placed.add(field);
            }
            final String i = comments.inline.get(field);
            if (i != null) {
                (value instanceof ScalarNode || (value instanceof SequenceNode q && q.getFlowStyle() == DumperOptions.FlowStyle.FLOW)
                    ? value : k).setInLineComments(lines(List.of(i), CommentType.IN_LINE));
                placed.add(field);
            }
            tuples.add(new NodeTuple(k, value));
        }

        void str(final String key, final String v) {
            put(key, scalar(Tag.STR, v));
        }

        void integer(final String key, final long v) {
            put(key, scalar(Tag.INT, Long.toString(v)));
        }

        void number(final String key, final double v) {
            put(key, scalar(v == Math.rint(v) ? Tag.INT : Tag.FLOAT, ScenarioField.format(v)));
        }

        /** A number held in simulator units, written in the row's file unit ({@code value / row.scale()}). */
        void scaled(final String key, final long simValue) {
            number(key, simValue / ScenarioSchema.row(path.isEmpty() ? key : path + "." + key).scale());
        }

        void bool(final String key, final boolean v) {
            put(key, scalar(Tag.BOOL, Boolean.toString(v)));
        }

        void ints(final String key, final int[] v) {
            final List<Node> items = new ArrayList<>();
            for (final int x : v) {
                items.add(scalar(Tag.INT, Integer.toString(x)));
            }
            put(key, new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.FLOW));
        }

        void map(final String key, final Fields child) {
            put(key, child.node());
        }

        MappingNode node() {
            return new MappingNode(Tag.MAP, tuples, DumperOptions.FlowStyle.BLOCK);
        }

        MappingNode flowNode() {
            return new MappingNode(Tag.MAP, tuples, DumperOptions.FlowStyle.FLOW);
        }
    }

    private static ScalarNode scalar(final Tag tag, final String value) {
        return new ScalarNode(tag, value, null, null, DumperOptions.ScalarStyle.PLAIN);
    }
}
