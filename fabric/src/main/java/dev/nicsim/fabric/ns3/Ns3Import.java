package dev.nicsim.fabric.ns3;

import dev.nicsim.fabric.scenario.Scenario;
import dev.nicsim.fabric.scenario.ScenarioException;
import dev.nicsim.fabric.topology.TopologyGraph;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Maps an HPCC ns-3 configuration ({@link Ns3Config}) with its topology and flow files onto an
 * ordinary nicsim scenario ({@code nicsim ns3 import}). Every key is either mapped (the scenario
 * field carries a comment naming the key and its value), ignored because it does not change
 * results (output files, monitors; listed at the end of the scenario with the reason), or
 * rejected with {@code file:line: KEY: why} (a value nicsim does not model, e.g. link errors,
 * link failures, go-back-to-zero, CC_MODE 10).
 *
 * <p>Mapping (third.cc / rdma-hw.cc semantics):
 * <ul>
 *   <li>{@code CC_MODE} 1 {@code dcqcn} (the table in {@code DcqcnProvider}), 3 {@code hpcc}, 7
 *       {@code timely}, 8 {@code dctcp-rate} (rdma-hw.cc {@code HandleAckDctcp}: EWMA_GAIN g,
 *       DCTCP_RATE_AI, MIN_RATE; the signal is the ECN echo on ACKs, so the NP sends no CNPs, and a
 *       TX_BURST event per packet gives the algorithm ns-3's exact snd_nxt); 10 (HPCC-PINT) is rejected.</li>
 *   <li>{@code PACKET_PAYLOAD_SIZE} {@code nic.mtu_bytes}; {@code L2_ACK_INTERVAL} 1 (bytes: every
 *       packet) {@code nic.ack_every_packets: 1}; {@code ACK_HIGH_PRIO 1} ACKs on strict priority 7.</li>
 *   <li>{@code BUFFER_SIZE} MB x 2^20 {@code switch.buffer_bytes}; {@code USE_DYNAMIC_PFC_THRESHOLD 1}
 *       PFC with the dynamic threshold, alpha 1/8 ({@code pfc_a_shift} 3); {@code KMIN_MAP},
 *       {@code KMAX_MAP} (KB = 1000 bytes, as {@code SwitchMmu::ConfigEcn}) and {@code PMAX_MAP}
 *       {@code switch.wred.by_rate}; {@code ENABLE_QCN} ECN marking and the notification point.</li>
 *   <li>{@code SIMULATOR_STOP_TIME} s {@code stop_time_us}.</li>
 * </ul>
 *
 * <p>Thread-safety: stateless.
 */
public final class Ns3Import {
    /** nicsim priority of ACKs with {@code ACK_HIGH_PRIO 1} (served by strict priority, like ns-3's queue 0). */
    public static final int HIGH_ACK_PRIORITY = 7;
    /** DSCP of those ACKs. */
    public static final int HIGH_ACK_DSCP = 56;

    /**
     * The outcome: the scenario text and the keys left out.
     *
     * @param yaml    the scenario, YAML with a comment per mapped key
     * @param ignored one line per ignored key: {@code KEY value (line N): reason}
     */
    public record Result(String yaml, List<String> ignored) {
    }

    private final Ns3Config config;
    private final StringBuilder y = new StringBuilder();
    private final List<String> ignored = new ArrayList<>();
    private final java.util.Set<String> used = new java.util.HashSet<>();

    private Ns3Import(final Ns3Config config) {
        this.config = config;
    }

    /**
     * Imports a configuration.
     *
     * @param configFile   the ns-3 configuration file
     * @param topologyFile the topology file, or null for the config's {@code TOPOLOGY_FILE}
     * @param flowFile     the flow file, or null for the config's {@code FLOW_FILE}
     * @param scenarioFile the scenario to write (paths in it are made relative to its directory)
     * @return the scenario text and the ignored keys
     * @throws ScenarioException naming file and line for any key or file that cannot be imported
     */
    public static Result importConfig(final Path configFile, final Path topologyFile, final Path flowFile,
                                      final Path scenarioFile) {
        final Ns3Import im = new Ns3Import(Ns3Config.read(configFile));
        return im.run(topologyFile, flowFile, scenarioFile);
    }

    private Ns3Config.Entry need(final String key) {
        final Ns3Config.Entry e = config.get(key);
        if (e == null) {
            throw new ScenarioException(config.file() + ": missing key " + key + " (third.cc needs it)");
        }
        used.add(key);
        return e;
    }

    private Ns3Config.Entry opt(final String key) {
        final Ns3Config.Entry e = config.get(key);
        if (e != null) {
            used.add(key);
        }
        return e;
    }

    private ScenarioException bad(final Ns3Config.Entry e, final String why) {
        return new ScenarioException(config.file() + ":" + e.line() + ": " + e.key() + ": " + why);
    }

    private double number(final Ns3Config.Entry e, final int i, final double min, final double max) {
        final String t = e.values().get(i);
        try {
            final double v = Double.parseDouble(t);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (final NumberFormatException ex) {
            // below
        }
        throw bad(e, "expected a number in [" + fmt(min) + ", " + fmt(max) + "], got '" + t + "'");
    }

    private long integer(final Ns3Config.Entry e, final int i, final long min, final long max) {
        final double v = number(e, i, min, max);
        if (v != Math.rint(v)) {
            throw bad(e, "expected an integer in [" + min + ", " + max + "], got '" + e.values().get(i) + "'");
        }
        return (long) v;
    }

    private boolean flag(final Ns3Config.Entry e) {
        return integer(e, 0, 0, 1) == 1;
    }

    private long rateMbps(final Ns3Config.Entry e) {
        final long bps = Ns3Lines.parseRate(e.value());
        if (bps <= 0 || bps % 1_000_000 != 0) {
            throw bad(e, "expected a rate in whole Mb/s such as 20Mb/s, got '" + e.value() + "'");
        }
        return bps / 1_000_000;
    }

    private Path file(final String key, final Path given, final String option) {
        final Ns3Config.Entry e = opt(key);
        if (given != null) {
            if (!Files.exists(given)) {
                throw new ScenarioException(given + ": no such file (" + option + ")");
            }
            return given;
        }
        if (e == null) {
            throw new ScenarioException(config.file() + ": no " + key + " key; give " + option + " FILE");
        }
        final Path dir = config.file().toAbsolutePath().getParent();
        for (final Path p : new Path[] {dir.resolve(e.value()), Path.of(e.value()), dir.resolve(Path.of(e.value()).getFileName())}) {
            if (Files.exists(p)) {
                return p;
            }
        }
        throw bad(e, "no such file '" + e.value() + "' (looked next to the configuration and in the current directory);"
            + " give " + option + " FILE");
    }

    private static String relative(final Path scenarioFile, final Path target) {
        final Path dir = scenarioFile.toAbsolutePath().normalize().getParent();
        return dir.relativize(target.toAbsolutePath().normalize()).toString();
    }

    private void line(final int indent, final String text, final Ns3Config.Entry... from) {
        final StringBuilder l = new StringBuilder(" ".repeat(indent)).append(text);
        if (from.length > 0) {
            final StringBuilder c = new StringBuilder();
            for (final Ns3Config.Entry e : from) {
                if (e != null) {
                    c.append(c.length() == 0 ? "" : "; ").append(e.text()).append(" (line ").append(e.line()).append(')');
                }
            }
            if (c.length() > 0) {
                while (l.length() < 44) {
                    l.append(' ');
                }
                l.append(" # ").append(c);
            }
        }
        y.append(l).append('\n');
    }

    private void comment(final int indent, final String text) {
        y.append(" ".repeat(indent)).append("# ").append(text).append('\n');
    }

    private void ignore(final String key, final String reason) {
        final Ns3Config.Entry e = opt(key);
        if (e != null) {
            ignored.add(e.text() + " (line " + e.line() + "): " + reason);
        }
    }

    private void requireValue(final String key, final String value, final String why) {
        final Ns3Config.Entry e = opt(key);
        if (e != null && Double.parseDouble(checkNumber(e)) != Double.parseDouble(value)) {
            throw bad(e, why + "; expected " + value + ", got " + e.value());
        }
    }

    private String checkNumber(final Ns3Config.Entry e) {
        number(e, 0, -1e18, 1e18);
        return e.value();
    }

    private Result run(final Path topologyGiven, final Path flowsGiven, final Path scenarioFile) {
        final Ns3Config.Entry ccMode = need("CC_MODE");
        final int cc = (int) integer(ccMode, 0, 0, 100);
        final String algorithm = switch (cc) {
            case 1 -> "dcqcn";
            case 3 -> "hpcc";
            case 7 -> "timely";
            case 8 -> "dctcp-rate";
            case 10 -> throw bad(ccMode, "10 (HPCC-PINT) is not modelled");
            default -> throw bad(ccMode, "expected 1 (DCQCN), 3 (HPCC), 7 (TIMELY) or 8 (DCTCP), got " + cc);
        };
        final Path topoPath = file("TOPOLOGY_FILE", topologyGiven, "--topology");
        final Path flowPath = file("FLOW_FILE", flowsGiven, "--flows");
        final Ns3Topology topo = Ns3Topology.read(topoPath);
        topo.requireModelled(); // as the scenario loader will: never write a scenario that cannot run
        final Ns3Flows flows = Ns3Flows.read(flowPath, Integer.MAX_VALUE);
        final int pg = flows.flows().get(0).priorityGroup();
        for (final Ns3Flows.Flow f : flows.flows()) {
            if (f.priorityGroup() != pg) {
                throw new ScenarioException(flowPath + ":" + f.line() + ": priority_group: nicsim runs every flow on one"
                    + " data priority; line " + flows.flows().get(0).line() + " has " + pg + ", this one " + f.priorityGroup());
            }
        }
        final Ns3Config.Entry payload = need("PACKET_PAYLOAD_SIZE");
        final int mtu = (int) integer(payload, 0, 256, 9000);

        // rejected values: things nicsim does not model
        requireValue("ERROR_RATE_PER_LINK", "0", "nicsim models no link errors");
        final Ns3Config.Entry linkDown = opt("LINK_DOWN");
        if (linkDown != null && integer(linkDown, 0, 0, Long.MAX_VALUE) != 0) {
            throw bad(linkDown, "link failures are not modelled; expected 'LINK_DOWN 0 0 0', got '" + linkDown.text() + "'");
        }
        requireValue("L2_BACK_TO_ZERO", "0", "nicsim retransmits go-back-N from the first unacknowledged packet");
        requireValue("RATE_BOUND", "1", "nicsim always paces at the algorithm's rate");
        final Ns3Config.Entry ackInterval = need("L2_ACK_INTERVAL");
        final long ackBytes = integer(ackInterval, 0, 0, Integer.MAX_VALUE);
        if (ackBytes == 0 || ackBytes > mtu) {
            throw bad(ackInterval, "nicsim ACKs every packet or delays ACKs with DCTCP's state machine; only an interval of"
                + " 1.." + mtu + " bytes (an ACK per packet) maps exactly, got " + ackBytes);
        }

        final String name = scenarioFile.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        comment(0, "Imported by `nicsim ns3 import` from " + config.file() + " (HPCC ns-3 simulator configuration).");
        comment(0, "Each mapped field names the ns-3 key it comes from; keys that do not change results are listed at the end.");
        line(0, "name: " + (name.matches("[A-Za-z0-9._-]+") ? name : "ns3-import"));
        line(0, "seed: 1");
        final Ns3Config.Entry stop = opt("SIMULATOR_STOP_TIME");
        if (stop != null) {
            line(0, "stop_time_us: " + fmt(number(stop, 0, 1e-9, 100) * 1e6), stop);
        }
        line(0, "topology:");
        line(2, "type: file");
        line(2, "path: " + relative(scenarioFile, topoPath), opt("TOPOLOGY_FILE"));

        // switch
        line(0, "switch:");
        final Ns3Config.Entry buffer = need("BUFFER_SIZE");
        line(2, "buffer_bytes: " + integer(buffer, 0, 1, 16384) * 1024 * 1024, buffer);
        final Ns3Config.Entry dynPfc = opt("USE_DYNAMIC_PFC_THRESHOLD");
        if (dynPfc != null && !flag(dynPfc)) {
            throw bad(dynPfc, "the reference's static PFC threshold is not modelled; expected 1 (dynamic)");
        }
        line(2, "pfc:");
        line(4, "enabled: true", dynPfc);
        line(4, "priorities: [" + pg + "]");
        line(4, "mode: dynamic");
        line(4, "alpha: 0.125");
        comment(4, "ns-3 pfc_a_shift 3 (xoff = free buffer / 8); ns-3 lowers the shift by one per doubling of the port rate"
            + " over the NIC rate, nicsim uses one alpha on every port");
        final Ns3Config.Entry qcn = opt("ENABLE_QCN");
        final boolean ecn = qcn == null || flag(qcn);
        line(2, "wred:");
        line(4, "priorities: [" + (ecn ? String.valueOf(pg) : "") + "]", qcn);
        line(4, "ecn: true");
        final long[] rates = topo.linkRates();
        final Ns3Config.Entry kmin = need("KMIN_MAP");
        final Ns3Config.Entry kmax = need("KMAX_MAP");
        final Ns3Config.Entry pmax = need("PMAX_MAP");
        line(4, "by_rate:", kmin, kmax, pmax);
        comment(4, "KB = 1000 bytes as SwitchMmu::ConfigEcn; marking on the instantaneous egress queue");
        for (final long r : rates) {
            final double kminKb = mapValue(kmin, r, topo);
            final double kmaxKb = mapValue(kmax, r, topo);
            final double p = mapValue(pmax, r, topo);
            if (kmaxKb < kminKb) {
                throw bad(kmax, "Kmax " + fmt(kmaxKb) + " KB is below Kmin " + fmt(kminKb) + " KB at " + r + " bit/s");
            }
            if (p < 0 || p > 1) {
                throw bad(pmax, "expected Pmax in [0, 1], got " + fmt(p) + " at " + r + " bit/s");
            }
            line(6, String.format(Locale.ROOT, "- {rate_gbps: %s, kmin_bytes: %d, kmax_bytes: %d, pmax: %s}",
                fmt(r / 1e9), Math.round(kminKb * 1000), Math.round(kmaxKb * 1000), fmt(p)));
        }

        // NIC
        line(0, "nic:");
        line(2, "mtu_bytes: " + mtu, payload);
        line(2, "ack_every_packets: 1", ackInterval);
        ignore("L2_CHUNK_SIZE", "with an ACK per packet (L2_ACK_INTERVAL <= PACKET_PAYLOAD_SIZE) chunk boundaries add no ACKs");
        line(2, "data_priority: " + pg);
        comment(2, "priority_group of every flow in " + flowPath.getFileName());
        if (cc == 8) {
            line(2, "np_enabled: false", ccMode);
            comment(2, "CC_MODE 8 reads the CNP flag ns-3 sets on the ACK of a CE-marked packet: nicsim's ECN echo (ECE) on"
                + " ACKs; no CNP packets");
            line(2, "tx_burst_packets: 1", ccMode);
            comment(2, "a TX_BURST event per packet: dctcp-rate knows snd_nxt exactly, as HandleAckDctcp reads it");
        } else {
            line(2, "np_enabled: " + ecn, qcn);
            line(2, "cnp_interval_us: 0");
            comment(2, "ns-3 sets the CNP flag on the ACK of every CE-marked packet; nicsim sends a CNP per CE-marked packet");
        }
        final Ns3Config.Entry ackPrio = opt("ACK_HIGH_PRIO");
        if (ackPrio != null && flag(ackPrio)) {
            line(2, "ack_priority: " + HIGH_ACK_PRIORITY, ackPrio);
            line(2, "ack_dscp: " + HIGH_ACK_DSCP);
        } else {
            comment(2, "ACKs share the data priority" + (ackPrio != null ? " (" + ackPrio.text() + ", line " + ackPrio.line() + ")" : ""));
        }
        line(2, "emulator:");
        line(4, "enabled: false");
        comment(4, "ns-3's RdmaHw reacts to each event at once: the direct processor");

        // algorithm
        line(0, "algorithm:");
        line(2, "name: " + algorithm, ccMode);
        line(2, "params:");
        final TopologyGraph graph = TopologyGraph.build(new Scenario.Topology("file", topo.hosts(), 0, 0, 0, 0, 0, null, null,
            topo));
        switch (cc) {
            case 1 -> dcqcn();
            case 3 -> hpcc(new Ns3Paths(graph, mtu));
            case 8 -> dctcpRate();
            default -> timely();
        }
        if (cc != 3) {
            for (final String k : new String[] {"HAS_WIN", "VAR_WIN"}) {
                final Ns3Config.Entry e = opt(k);
                if (e != null && flag(e)) {
                    throw bad(e, "a window with " + algorithm + " is not modelled (nicsim's " + algorithm + " is rate-only);"
                        + " expected 0");
                }
                if (e != null) {
                    ignored.add(e.text() + " (line " + e.line() + "): 0: no window, as nicsim's " + algorithm);
                }
            }
        }

        // workload
        line(0, "workload:");
        line(2, "type: file");
        line(2, "path: " + relative(scenarioFile, flowPath), opt("FLOW_FILE"));
        line(0, "sampling:");
        comment(2, "the reference writes no time series; coarse samples keep the run fast");
        line(2, "queue_interval_us: 1000");
        line(2, "rate_interval_us: 1000");
        line(2, "throughput_interval_us: 1000");

        final String outputs = "an output file of the reference; nicsim writes fct.txt and its own files into the run's directory";
        ignore("TRACE_FILE", "names the nodes whose packets the reference traces (output only)");
        ignore("TRACE_OUTPUT_FILE", outputs);
        ignore("FCT_OUTPUT_FILE", outputs);
        ignore("PFC_OUTPUT_FILE", outputs);
        ignore("QLEN_MON_FILE", outputs);
        ignore("QLEN_MON_START", "queue-length monitor window (output only)");
        ignore("QLEN_MON_END", "queue-length monitor window (output only)");
        ignore("ENABLE_TRACE", "packet trace on or off (output only)");
        ignore("ERROR_RATE_PER_LINK", "0: no link errors, as nicsim");
        ignore("LINK_DOWN", "0 0 0: no link failure");
        ignore("L2_BACK_TO_ZERO", "0: go-back-N from the first unacknowledged packet, as nicsim");
        ignore("RATE_BOUND", "1: sending paced at the rate, as nicsim");
        ignore("PINT_LOG_BASE", "read only by CC_MODE 10 (HPCC-PINT)");
        ignore("PINT_PROB", "read only by CC_MODE 10 (HPCC-PINT)");
        if (cc != 8) {
            ignore("DCTCP_RATE_AI", "read only by CC_MODE 8 (rate-based DCTCP)");
        }
        for (final String k : new String[] {"ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "CLAMP_TARGET_RATE", "RP_TIMER",
            "EWMA_GAIN", "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI", "MIN_RATE", "U_TARGET", "MI_THRESH", "INT_MULTI",
            "MULTI_RATE", "SAMPLE_FEEDBACK", "FAST_REACT", "HAS_WIN", "GLOBAL_T", "VAR_WIN"}) {
            if (!used.contains(k)) {
                ignore(k, "not read by CC_MODE " + cc + " (" + algorithm + ")");
            }
        }
        for (final Ns3Config.Entry e : config.entries()) {
            if (!used.contains(e.key())) {
                throw bad(e, "not mapped by this importer");
            }
        }
        if (!ignored.isEmpty()) {
            y.append('\n');
            comment(0, "Ignored ns-3 keys (they do not change results):");
            for (final String s : ignored) {
                comment(2, s);
            }
        }
        return new Result(y.toString(), List.copyOf(ignored));
    }

    /** The value of a {@code *_MAP} entry for one link rate; every rate of the topology must be listed. */
    private double mapValue(final Ns3Config.Entry e, final long rate, final Ns3Topology topo) {
        final int n = (int) integer(e, 0, 1, 64);
        for (int i = 0; i < n; i++) {
            final long r = integer(e, 1 + 2 * i, 1, Long.MAX_VALUE);
            if (r == rate) {
                return number(e, 2 + 2 * i, 0, 1e9);
            }
        }
        throw bad(e, "no entry for " + rate + " bit/s, a link rate of " + topo.file() + " (ns-3 asserts every rate is set)");
    }

    private void dcqcn() {
        final Ns3Config.Entry g = need("EWMA_GAIN");
        line(4, "g: " + fmt(number(g, 0, 1.0 / 65536, 1)), g);
        line(4, "initial_alpha: 1");
        comment(4, "cnp_received_mlx sets alpha = 1 on the first CNP");
        final Ns3Config.Entry alphaUs = need("ALPHA_RESUME_INTERVAL");
        line(4, "alpha_update_period_ns: " + Math.round(number(alphaUs, 0, 0.001, 1e6) * 1000), alphaUs);
        final Ns3Config.Entry decUs = need("RATE_DECREASE_INTERVAL");
        line(4, "rate_reduce_monitor_period_ns: " + Math.round(number(decUs, 0, 0.001, 1e6) * 1000), decUs);
        final Ns3Config.Entry timer = need("RP_TIMER");
        line(4, "rpg_time_reset_ns: " + Math.round(number(timer, 0, 0.001, 1e6) * 1000), timer);
        line(4, "rpg_byte_reset_bytes: 0");
        comment(4, "the reference has no byte counter");
        final Ns3Config.Entry fr = need("FAST_RECOVERY_TIMES");
        line(4, "rpg_threshold: " + integer(fr, 0, 0, 1024), fr);
        final Ns3Config.Entry ai = need("RATE_AI");
        line(4, "rpg_ai_rate_mbps: " + rateMbps(ai), ai);
        final Ns3Config.Entry hai = need("RATE_HAI");
        line(4, "rpg_hai_rate_mbps: " + rateMbps(hai), hai);
        final Ns3Config.Entry min = need("MIN_RATE");
        line(4, "rpg_min_rate_mbps: " + rateMbps(min), min);
        final Ns3Config.Entry clamp = opt("CLAMP_TARGET_RATE");
        line(4, "clamp_tgt_rate: " + (clamp != null && flag(clamp) ? 1 : 0), clamp);
        line(4, "clamp_tgt_rate_after_time_inc: 1");
        comment(4, "without CLAMP_TARGET_RATE ns-3 clamps Rt when its timer stage is non-zero");
        line(4, "rpg_min_dec_fac: 0");
        line(4, "rate_on_first_cnp: 1");
        line(4, "hai_scaling: 0");
    }

    private void timely() {
        final Ns3Config.Entry ai = need("RATE_AI");
        line(4, "rate_ai_mbps: " + rateMbps(ai), ai);
        final Ns3Config.Entry hai = need("RATE_HAI");
        line(4, "rate_hai_mbps: " + rateMbps(hai), hai);
        final Ns3Config.Entry min = need("MIN_RATE");
        line(4, "min_rate_mbps: " + rateMbps(min), min);
        comment(4, "alpha, beta, t_low_ns, t_high_ns, min_rtt_ns: rdma-hw.cc defaults (third.cc sets none)");
    }

    private void dctcpRate() {
        final Ns3Config.Entry g = need("EWMA_GAIN");
        line(4, "g: " + fmt(number(g, 0, 0, 1)), g);
        final Ns3Config.Entry ai = opt("DCTCP_RATE_AI");
        if (ai != null) {
            line(4, "rate_ai_mbps: " + rateMbps(ai), ai);
        } else {
            line(4, "rate_ai_mbps: 1000");
            comment(4, "no DCTCP_RATE_AI: third.cc's default 1000Mb/s");
        }
        final Ns3Config.Entry min = need("MIN_RATE");
        line(4, "min_rate_mbps: " + rateMbps(min), min);
        line(4, "initial_alpha: 1");
        comment(4, "rdma-queue-pair.cc starts dctcp.m_alpha at 1");
    }

    private void hpcc(final Ns3Paths paths) {
        final Ns3Config.Entry eta = need("U_TARGET");
        line(4, "eta: " + fmt(number(eta, 0, 0.01, 1)), eta);
        final Ns3Config.Entry mi = need("MI_THRESH");
        line(4, "max_stage: " + integer(mi, 0, 0, 1000), mi);
        final Ns3Config.Entry ai = need("RATE_AI");
        line(4, "rate_ai_mbps: " + rateMbps(ai), ai);
        final Ns3Config.Entry min = need("MIN_RATE");
        line(4, "min_rate_mbps: " + rateMbps(min), min);
        ignore("RATE_HAI", "HPCC has no hyper increase (rdma-hw.cc reads m_rhai only for DCQCN and TIMELY)");
        final Ns3Config.Entry hasWin = need("HAS_WIN");
        final Ns3Config.Entry globalT = need("GLOBAL_T");
        final boolean global = flag(globalT);
        line(4, "has_win: " + (flag(hasWin) ? 1 : 0), hasWin);
        if (global) {
            line(4, "base_rtt_ns: " + paths.maxRttNs(), globalT);
            comment(4, "the largest RTT over all host pairs, 2 x delay + payload transmission per hop (third.cc CalculateRtt)");
            if (flag(hasWin)) {
                line(4, "window_bytes: " + paths.maxBdpBytes(), globalT);
            }
        } else {
            line(4, "base_rtt_ns: 0", globalT);
            comment(4, "0: each flow's own path RTT and BDP");
        }
        final Ns3Config.Entry varWin = need("VAR_WIN");
        line(4, "var_win: " + (flag(varWin) ? 1 : 0), varWin);
        final Ns3Config.Entry fast = need("FAST_REACT");
        line(4, "fast_react: " + (flag(fast) ? 1 : 0), fast);
        final Ns3Config.Entry multi = need("MULTI_RATE");
        line(4, "multi_rate: " + (flag(multi) ? 1 : 0), multi);
        final Ns3Config.Entry sample = need("SAMPLE_FEEDBACK");
        line(4, "sample_feedback: " + (flag(sample) ? 1 : 0), sample);
        final Ns3Config.Entry intMulti = need("INT_MULTI");
        line(4, "int_multi: " + integer(intMulti, 0, 1, 1024), intMulti);
    }

    private static String fmt(final double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(12)).stripTrailingZeros().toPlainString();
    }
}
