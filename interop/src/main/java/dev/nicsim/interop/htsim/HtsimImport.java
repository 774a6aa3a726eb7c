package dev.nicsim.interop.htsim;

import dev.nicsim.fabric.run.HtsimLines;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.sim.RoceFraming;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps one uet-htsim experiment (a connection matrix, an optional two-tier {@code .topo} and the
 * command-line flags of a validation plan) onto a nicsim scenario ({@code nicsim htsim import}),
 * written as YAML text with a comment on every mapped field naming where its value comes from.
 *
 * <p>Mapping (htsim HEAD 40ccb05, {@code main_uec.cpp}; the facts in docs/uet.md):
 * <ul>
 *   <li>Topology: without {@code -topo}, htsim's three-tier fat tree of K^3/4 = N hosts
 *       ({@code fat_tree}, k = K), every link at {@code -linkspeed} (100 Gb/s) and 1 us, switch
 *       latency 0; with a {@code .topo}, its two-tier leaf-spine ({@code leaf_spine}, {@link HtsimTopology}).</li>
 *   <li>Packets: htsim's 4,150-byte packets carry 4,086 payload bytes under a 64-byte header
 *       ({@code nic.mtu_bytes: 4086}, so a message has as many packets as in htsim). A nicsim data
 *       frame is the payload plus the 66 bytes of RoCEv2 headers ({@link #NICSIM_FRAME_BYTES} = 4,152),
 *       plus 20 bytes of preamble and gap on the wire: 22 bytes (0.5 %) more line time per packet
 *       than htsim's.</li>
 *   <li>Network RTT = 2 x diameter latency + one 4,150-byte and one 64-byte serialisation per
 *       diameter link, truncated to whole ps; BDP = ceil(RTT x rate / 4,150) packets (43 on the
 *       100 Gb/s three-tier tree). Queue = {@code -q} packets, else 1 BDP (5 BDP with
 *       {@code -disable_trim}); ECN Kmin/Kmax = {@code -ecn} packets, else ceil(20 %) / ceil(80 %) of
 *       the BDP, marking with probability rising to 1 at Kmax. Packet counts are turned into bytes
 *       with nicsim's data frame, so the queue holds as many packets as htsim's.</li>
 *   <li>Minimum RTO = 15 us + queue bytes (htsim's, 4,150 per packet) x 6 x 8 / rate
 *       ({@code nic.rto_us}).</li>
 *   <li>Transport and switch fields of the UET model: {@code nic.loss_recovery: selective_repeat},
 *       {@code nic.ack_coalesce_bytes} ({@code -sack_threshold}, 16,384), {@code nic.path.policy}
 *       ({@code -load_balancing_algo}, mixed), {@code nic.path.entropies} ({@code -paths}, 64),
 *       {@code switch.trimming} ({@code -disable_trim}), {@code switch.queue_limit_bytes},
 *       {@code switch.ecn.at_dequeue: true}; ACKs and NACKs on strict priority {@value #ACK_PRIORITY}
 *       ({@code nic.ack_priority}, {@code nic.ack_dscp}), as htsim serves them before data; algorithm {@value #NSCC}, {@value #RCCC} or
 *       {@value #BOTH} by the CC flags; {@code -cwnd} packets x 4,150 B as
 *       {@code algorithm.params.}{@value #CWND_PARAM}.</li>
 *   <li>Workload: one RDMA WRITE per connection, in file order, at its start time; seed
 *       {@code -seed} (13); stop time {@code -end}.</li>
 * </ul>
 * Flags that change the model in a way nicsim cannot follow exactly but closely are imported with a
 * note ({@link Result#notes()}); {@code -sleek} and {@code -failed K} are refused ({@link HtsimFlags}).
 *
 * <p>Thread-safety: stateless.
 */
public final class HtsimImport {
    /** htsim's packet on the wire, bytes ({@code Packet::data_packet_size()}). */
    public static final int HTSIM_PACKET_BYTES = 4150;
    /** htsim's header, bytes: ACKs, NACKs, pulls and trimmed packets are this size. */
    public static final int HTSIM_HEADER_BYTES = 64;
    /** Payload of a full htsim packet, bytes: nicsim's {@code nic.mtu_bytes}. */
    public static final int PAYLOAD_BYTES = HTSIM_PACKET_BYTES - HTSIM_HEADER_BYTES;
    /** A nicsim RoCEv2 data frame of {@link #PAYLOAD_BYTES} (WRITE middle or last), bytes: the unit of packet counts. */
    public static final int NICSIM_FRAME_BYTES = RoceFraming.frameBytes(PAYLOAD_BYTES, 0);
    /** Link latency of htsim's default fat tree, ns ({@code hop_latency}). */
    public static final long FAT_TREE_LINK_NS = 1000;
    /** One-way links across htsim's three-tier fat tree (host, ToR, agg, core, agg, ToR, host). */
    public static final int FAT_TREE_DIAMETER_LINKS = 6;
    /** Algorithm name with NSCC alone. */
    public static final String NSCC = "nscc";
    /** Algorithm name with RCCC alone. */
    public static final String RCCC = "rccc";
    /** Algorithm name with NSCC and RCCC together. */
    public static final String BOTH = "nscc-rccc";
    /** The NSCC parameter that takes {@code -cwnd}, wire bytes (NSCC windows count htsim's 4,150-byte packets). */
    public static final String CWND_PARAM = "initial_window_bytes";
    /**
     * Priority of ACKs and NACKs: one of the scheduler's default strict priorities, above the data's,
     * as htsim's control packets share the trimmed headers' queue, served before the data queue
     * ({@code CompositeQueue}).
     */
    public static final int ACK_PRIORITY = 7;
    /** DSCP of ACKs and NACKs (EF), distinct from the data's (26) and the CNPs' (48). */
    public static final int ACK_DSCP = 46;
    /** Sampling interval of the imported scenario's queue, rate and throughput samples, us. */
    static final int SAMPLE_INTERVAL_US = 100;

    /**
     * The outcome.
     *
     * @param yaml    the scenario text
     * @param notes   one line per approximation a flag or file needed (also in the scenario's header)
     * @param inputs  the files read: the connection matrix and the topology file if any
     * @param figures the derived figures, for tests and the header
     */
    public record Result(String yaml, List<String> notes, List<Path> inputs, Figures figures) {
    }

    /**
     * The figures the mapping derives, as htsim derives them.
     *
     * @param k             fat-tree k, or 0 for a leaf-spine
     * @param rateGbps      the rate of the BDP (htsim's {@code -linkspeed}), Gb/s
     * @param rttPs         network RTT, ps
     * @param bdpPackets    BDP, packets
     * @param queuePackets  queue per egress port, packets
     * @param kminPackets   ECN Kmin, packets
     * @param kmaxPackets   ECN Kmax, packets
     * @param queueBytes    queue, nicsim bytes ({@link #NICSIM_FRAME_BYTES} per packet)
     * @param kminBytes     Kmin, nicsim bytes
     * @param kmaxBytes     Kmax, nicsim bytes
     * @param rtoUs         minimum RTO, us
     */
    public record Figures(int k, double rateGbps, long rttPs, long bdpPackets, long queuePackets, long kminPackets,
                          long kmaxPackets, long queueBytes, long kminBytes, long kmaxBytes, double rtoUs) {
    }

    private HtsimImport() {
    }

    /**
     * Imports an experiment.
     *
     * @param cm           the connection matrix
     * @param topology     the {@code .topo} file, or null (then {@code -topo} of the flags, or the fat tree)
     * @param flags        htsim's flags, one word each
     * @param scenarioFile the scenario to write (names the scenario; not written here)
     * @return the scenario text, its notes and inputs
     * @throws ScenarioException naming file and line, or the flag, for anything that cannot be imported
     */
    public static Result importExperiment(final Path cm, final Path topology, final List<String> flags,
                                          final Path scenarioFile) {
        final HtsimFlags f = HtsimFlags.parse(flags);
        final HtsimMatrix m = HtsimMatrix.read(cm);
        final Path topoFile = topologyFile(cm, topology, f.topo());
        final HtsimTopology topo = topoFile == null ? null : HtsimTopology.read(topoFile);
        final List<String> notes = new ArrayList<>();
        final int k = topo == null ? fatTreeK(m) : 0;
        if (topo != null && topo.nodes() != m.nodes()) {
            throw new ScenarioException(cm + ":1: Nodes: the topology " + topoFile + " has " + topo.nodes() + " nodes, the"
                + " connection matrix " + m.nodes() + " (htsim refuses the mismatch too)");
        }
        final double rateGbps = f.linkspeedMbps() / 1000;
        final int diameter = topo == null ? FAT_TREE_DIAMETER_LINKS : topo.diameterLinks();
        final long latencyNs = topo == null ? FAT_TREE_DIAMETER_LINKS * FAT_TREE_LINK_NS : topo.diameterLatencyNs();
        // htsim: 2 x diameter latency + (data + ack) serialisation per hop, summed as double, stored as whole ps
        final long rttPs = (long) (2.0 * latencyNs * 1000 + HTSIM_PACKET_BYTES * 8 / rateGbps * diameter * 1000
            + HTSIM_HEADER_BYTES * 8 / rateGbps * diameter * 1000);
        final double bytesPerSec = Math.floor(f.linkspeedMbps() * 1e6 / 8);
        final long bdp = (long) Math.ceil(rttPs / 1e12 * bytesPerSec / HTSIM_PACKET_BYTES);
        final long queue = f.queuePackets() > 0 ? f.queuePackets() : bdp * (f.trimming() ? 1 : 5);
        final long kmin = f.ecnMinPackets() >= 0 ? f.ecnMinPackets() : (long) Math.ceil(bdp * 0.2);
        final long kmax = f.ecnMaxPackets() >= 0 ? f.ecnMaxPackets() : (long) Math.ceil(bdp * 0.8);
        if (kmax > queue) {
            throw new ScenarioException((f.ecnMaxPackets() >= 0 ? "-ecn" : "-q") + ": ECN Kmax " + kmax + " packets"
                + " exceeds the queue of " + queue + " packets (htsim asserts ecn_high <= queuesize)");
        }
        // to whole ns, as the scenario's rto_us is written
        final double rtoUs = Math.round((15 + queue * (double) HTSIM_PACKET_BYTES * 6.0 * 8 * 1_000_000
            / (f.linkspeedMbps() * 1e6)) * 1000) / 1000.0;
        final Figures fig = new Figures(k, rateGbps, rttPs, bdp, queue, kmin, kmax, queue * NICSIM_FRAME_BYTES,
            kmin * NICSIM_FRAME_BYTES, kmax * NICSIM_FRAME_BYTES, rtoUs);
        if (f.receiverCc()) {
            notes.add("-receiver_cc" + (f.senderCc() ? "" : "_only") + ": htsim marks no ECN on ToR downlinks when the"
                + " receiver's credit runs; nicsim marks on every switch port");
            if (!f.senderCc() && topo != null && topo.oversubscribed() > 1) {
                notes.add("Oversubscribed " + topo.oversubscribed() + " (" + topoFile + "): htsim's receiver-side"
                    + " oversubscription control (OversubscribedCC) is not modelled; RCCC runs alone");
            }
        }
        if (topo != null && Math.abs(topo.hostRateGbps() - rateGbps) > 1e-9) {
            notes.add("-linkspeed " + fmt(f.linkspeedMbps()) + ": the links run at the topology's rates; as in htsim, the"
                + " RTT, BDP, queues and RTO are sized from -linkspeed");
        }
        return new Result(yaml(cm, flags, f, m, topo, topoFile, fig, notes, scenarioFile), List.copyOf(notes),
            topoFile == null ? List.of(cm) : List.of(cm, topoFile), fig);
    }

    /** The topology file: {@code --topology}, else {@code -topo} (as given, else beside the CM's directory). */
    private static Path topologyFile(final Path cm, final Path given, final String flag) {
        if (flag == null) {
            return given;
        }
        Path p = Path.of(flag);
        if (!p.isAbsolute() && !Files.exists(p)) {
            final Path dir = cm.toAbsolutePath().getParent();
            final Path plan = dir == null ? null : dir.getParent();
            if (plan != null && Files.exists(plan.resolve(flag))) {
                p = plan.resolve(flag);
            }
        }
        if (given != null && !given.toAbsolutePath().normalize().equals(p.toAbsolutePath().normalize())) {
            throw new ScenarioException("-topo " + flag + ": --topology " + given + " names another file; give one of them");
        }
        if (!Files.exists(p)) {
            throw new ScenarioException("-topo " + flag + ": no such topology file (looked in the current directory and in"
                + " the directory above the connection matrix's, as the validation plans lay them out)");
        }
        return p;
    }

    /** k of htsim's three-tier fat tree of N = k^3/4 hosts. */
    private static int fatTreeK(final HtsimMatrix m) {
        for (int k = 2; k <= 64; k += 2) {
            if ((long) k * k * k / 4 == m.nodes()) {
                return k;
            }
        }
        throw new ScenarioException(m.file() + ":1: Nodes: without a topology file htsim builds a three-tier fat tree of"
            + " k^3/4 hosts; expected one of 2, 16, 54, 128, ..., 65536 (k even, 2..64), got " + m.nodes());
    }

    private static String yaml(final Path cm, final List<String> flags, final HtsimFlags f, final HtsimMatrix m,
                               final HtsimTopology topo, final Path topoFile, final Figures fig, final List<String> notes,
                               final Path scenarioFile) {
        final StringBuilder y = new StringBuilder(256 + 48 * m.flows().size());
        final String words = flags.isEmpty() ? "(none)" : String.join(" ", flags);
        y.append("# Imported by `nicsim htsim import` from ").append(cm.getFileName()).append(" (uet-htsim connection matrix)");
        if (topoFile != null) {
            y.append(" and ").append(topoFile.getFileName());
        }
        y.append(".\n# htsim flags: ").append(words).append('\n');
        y.append("# Derived as htsim derives them: network RTT ").append(fmt(fig.rttPs() / 1e6)).append(" us, BDP ")
            .append(fig.bdpPackets()).append(" packets of ").append(HTSIM_PACKET_BYTES).append(" B; packet counts below are")
            .append(" nicsim data frames of ").append(NICSIM_FRAME_BYTES).append(" B (").append(PAYLOAD_BYTES)
            .append(" B payload + 66 B RoCEv2 headers).\n");
        y.append("# Approximation: a nicsim data frame takes 22 B (0.5 %) more line time than htsim's 4150-byte packet")
            .append(" (RoCEv2 headers and the 20-byte preamble and gap against htsim's 64-byte header).\n");
        for (final String n : notes) {
            y.append("# Approximation: ").append(n).append('\n');
        }
        y.append("name: ").append(name(cm)).append('\n');
        y.append("seed: ").append(f.seed()).append(f.seed() == HtsimFlags.DEFAULT_SEED ? "  # htsim's default seed\n"
            : "  # -seed\n");
        if (f.endUs() > 0) {
            y.append("stop_time_us: ").append(f.endUs()).append("  # -end ").append(f.endUs()).append('\n');
        } else {
            y.append("stop_time_us: 100000  # no -end: htsim runs until every connection finishes; nicsim stops then too\n");
        }
        y.append("topology:\n");
        final String rate = fmt(fig.rateGbps());
        if (topo == null) {
            y.append("  type: fat_tree\n  k: ").append(fig.k()).append("  # htsim's three-tier fat tree: k^3/4 = ")
                .append(m.nodes()).append(" hosts (Nodes ").append(m.nodes()).append(")\n");
            y.append("  host_link: {rate_gbps: ").append(rate).append(", delay_ns: ").append(FAT_TREE_LINK_NS).append("}  # ")
                .append(f.linkspeedMbps() == HtsimFlags.DEFAULT_LINKSPEED_MBPS ? "htsim's 100 Gb/s" : "-linkspeed")
                .append(", 1 us per link\n");
            y.append("  fabric_link: {rate_gbps: ").append(rate).append(", delay_ns: ").append(FAT_TREE_LINK_NS)
                .append("}  # switch latency 0\n");
        } else {
            y.append("  type: leaf_spine  # ").append(topoFile.getFileName()).append(": Tiers 2\n");
            y.append("  leaves: ").append(topo.leaves()).append("  # Nodes ").append(topo.nodes()).append(" / Radix_Down ")
                .append(topo.hostsPerLeaf()).append(" of Tier 0\n");
            y.append("  spines: ").append(topo.spines()).append("  # Radix_Up of Tier 0")
                .append(topo.oversubscribed() > 1 ? " (Oversubscribed " + topo.oversubscribed() + ")" : "").append('\n');
            y.append("  hosts_per_leaf: ").append(topo.hostsPerLeaf()).append("  # Radix_Down of Tier 0\n");
            y.append("  host_link: {rate_gbps: ").append(fmt(topo.hostRateGbps())).append(", delay_ns: ")
                .append(topo.hostDelayNs()).append("}  # Tier 0 Downlink_speed_Gbps, Downlink_Latency_ns\n");
            y.append("  fabric_link: {rate_gbps: ").append(fmt(topo.fabricRateGbps())).append(", delay_ns: ")
                .append(topo.fabricDelayNs()).append("}  # Tier 1 Downlink_speed_Gbps, Downlink_Latency_ns\n");
        }
        final String qFrom = f.queuePackets() > 0 ? "-q " + f.queuePackets() : f.trimming() ? "1 BDP" : "5 BDP (-disable_trim)";
        final String kFrom = f.ecnMinPackets() >= 0 ? "-ecn " + f.ecnMinPackets() + " " + f.ecnMaxPackets()
            : "ceil(20 % / 80 % of " + fig.bdpPackets() + ")";
        y.append("switch:\n");
        y.append("  queue_limit_bytes: ").append(fig.queueBytes()).append("  # ").append(fig.queuePackets())
            .append(" packets per egress port (").append(qFrom).append(")\n");
        y.append("  egress: {mode: static, queue_limit_bytes: ").append(fig.queueBytes())
            .append("}  # the same limit for the data queue\n");
        y.append("  wred:\n");
        y.append("    kmin_bytes: ").append(fig.kminBytes()).append("  # ").append(fig.kminPackets()).append(" packets, ")
            .append(kFrom).append('\n');
        y.append("    kmax_bytes: ").append(fig.kmaxBytes()).append("  # ").append(fig.kmaxPackets()).append(" packets\n");
        y.append("    pmax: 1  # htsim marks with probability (q - Kmin) / (Kmax - Kmin), always above Kmax\n");
        y.append("    not_ect_drop_bytes: ").append(fig.queueBytes()).append("  # htsim drops nothing below a full queue\n");
        y.append("  ecn: {at_dequeue: true}  # htsim decides ECN at dequeue\n");
        y.append("  trimming: {enabled: ").append(f.trimming()).append(", header_bytes: ").append(HTSIM_HEADER_BYTES)
            .append("}").append(f.trimming() ? "" : "  # -disable_trim").append('\n');
        y.append("nic:\n");
        y.append("  mtu_bytes: ").append(PAYLOAD_BYTES).append("  # htsim's 4150-byte packet less its 64-byte header\n");
        y.append("  np_enabled: false  # UET echoes ECN on ACKs; no CNPs\n");
        y.append("  ack_priority: ").append(ACK_PRIORITY).append("  # htsim queues ACKs and NACKs with the trimmed headers,")
            .append(" served before data: a strict priority here\n");
        y.append("  ack_dscp: ").append(ACK_DSCP).append("  # a DSCP of their own, mapped to that priority\n");
        y.append("  rto_us: ").append(fmt(fig.rtoUs())).append("  # htsim's minimum RTO: 15 us + queue x 6 / rate\n");
        y.append("  loss_recovery: selective_repeat\n");
        y.append("  sr_loss_threshold_packets: 0  # htsim without SLEEK resends on NACK and timeout only, never on SACK holes\n");
        y.append("  ack_coalesce_bytes: ").append(f.sackThresholdBytes()).append(
            f.sackThresholdBytes() == HtsimFlags.DEFAULT_SACK_THRESHOLD_BYTES ? "  # htsim's default\n" : "  # -sack_threshold\n");
        y.append("  path: {policy: ").append(f.policy()).append(", entropies: ").append(f.paths()).append("}  # ")
            .append("-load_balancing_algo, -paths (htsim's defaults: mixed, 64)\n");
        y.append("  emulator: {enabled: false}  # htsim's CC reacts at once\n");
        y.append("algorithm:\n");
        final String alg = f.senderCc() && f.receiverCc() ? BOTH : f.senderCc() ? NSCC : RCCC;
        y.append("  name: ").append(alg).append("  # ").append(f.senderCc() && f.receiverCc() ? "NSCC and RCCC"
            : f.senderCc() ? "NSCC at the sender" : "RCCC at the receiver").append('\n');
        if (f.cwndPackets() > 0) {
            y.append("  params:\n    ").append(CWND_PARAM).append(": ").append((long) f.cwndPackets() * HTSIM_PACKET_BYTES)
                .append("  # -cwnd ").append(f.cwndPackets()).append(" packets x 4150 B\n");
        }
        y.append("sampling: {queue_interval_us: ").append(SAMPLE_INTERVAL_US).append(", rate_interval_us: ")
            .append(SAMPLE_INTERVAL_US).append(", throughput_interval_us: ").append(SAMPLE_INTERVAL_US).append("}\n");
        y.append("workload:\n  type: flows\n  flows:  # one RDMA WRITE per connection of ").append(cm.getFileName())
            .append(", in file order\n");
        for (final HtsimMatrix.Flow fl : m.flows()) {
            y.append("    - {src: ").append(fl.src()).append(", dst: ").append(fl.dst()).append(", start_us: ")
                .append(fmt(fl.startUs())).append(", size_bytes: ").append(fl.sizeBytes()).append("}\n");
        }
        return y.toString();
    }

    /** The scenario name: {@value HtsimLines#SCENARIO_PREFIX} and the matrix's file name without its extension. */
    static String name(final Path cm) {
        final String stem = cm.getFileName().toString().replaceFirst("\\.(cm|tm)$", "").replaceAll("[^A-Za-z0-9._-]", "_");
        return HtsimLines.SCENARIO_PREFIX + stem;
    }

    /** A number without trailing zeros or exponent. */
    static String fmt(final double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
