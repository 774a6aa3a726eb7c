package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.Ns3Paths;
import dev.nicsim.fabric.run.DeviceConfigs;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.scenario.ScenarioWriter;
import dev.nicsim.sw.SwitchConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps an HPCC ns-3 configuration ({@link Ns3Config}) with its topology and flow files onto an
 * ordinary nicsim {@link Scenario} ({@code nicsim ns3 import}), written by {@link ScenarioWriter}
 * with every field (those not mapped at nicsim's defaults, from {@link ScenarioLoader}). Every key
 * is either mapped (the scenario field carries a comment naming the key and its value), ignored
 * because it does not change
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
 *   <li>Not from ns-3: the direct CC processor ({@code nic.emulator.enabled: false}: RdmaHw reacts at
 *       once), queue, rate and throughput samples every 1 ms (the reference writes no time series).</li>
 * </ul>
 *
 * <p>Thread-safety: {@link #importConfig} is stateless.
 */
public final class Ns3Import {
    /** nicsim priority of ACKs with {@code ACK_HIGH_PRIO 1} (served by strict priority, like ns-3's queue 0). */
    public static final int HIGH_ACK_PRIORITY = 7;
    /** DSCP of those ACKs. */
    public static final int HIGH_ACK_DSCP = 56;

    /** Interval of the imported scenario's queue, rate and throughput samples, ps (1 ms). */
    static final long SAMPLE_INTERVAL_PS = 1_000_000_000L;
    /** third.cc's {@code DCTCP_RATE_AI} when the configuration gives none, Mb/s. */
    static final long DEFAULT_DCTCP_RATE_AI_MBPS = 1000;

    /**
     * The outcome.
     *
     * @param scenario the scenario (its {@code file} the scenario file to write)
     * @param yaml     its text, as {@link ScenarioWriter} writes it, with a comment per mapped key
     * @param ignored  one line per ignored key: {@code KEY value (line N): reason}
     * @param inputs   the files the import read: the configuration, the topology file and the flow
     *                 file, as found (a command must not write its scenario over any of them)
     */
    public record Result(Scenario scenario, String yaml, List<String> ignored, List<Path> inputs) {
    }

    private final Ns3Keys keys;
    private final ScenarioWriter.Comments comments = new ScenarioWriter.Comments();
    private PccParameterValues params;

    private Ns3Import(final Ns3Config config) {
        this.keys = new Ns3Keys(config);
    }

    /**
     * Imports a configuration.
     *
     * @param configFile   the ns-3 configuration file
     * @param topologyFile the topology file, or null for the config's {@code TOPOLOGY_FILE}
     * @param flowFile     the flow file, or null for the config's {@code FLOW_FILE}
     * @param scenarioFile the scenario to write (paths in it are made relative to its directory)
     * @return the scenario, its text and the ignored keys
     * @throws ScenarioException naming file and line for any key or file that cannot be imported
     */
    public static Result importConfig(final Path configFile, final Path topologyFile, final Path flowFile,
                                      final Path scenarioFile) {
        return importConfig(Ns3Config.read(configFile), topologyFile, flowFile, scenarioFile);
    }

    /**
     * Imports a configuration already read (or parsed from memory with {@link Ns3Config#parse}).
     *
     * @param config       the ns-3 configuration
     * @param topologyFile the topology file, or null for the config's {@code TOPOLOGY_FILE}
     * @param flowFile     the flow file, or null for the config's {@code FLOW_FILE}
     * @param scenarioFile the scenario to write (paths in it are made relative to its directory; not written here)
     * @return the scenario, its text and the ignored keys
     * @throws ScenarioException naming file and line for any key or file that cannot be imported
     */
    public static Result importConfig(final Ns3Config config, final Path topologyFile, final Path flowFile,
                                      final Path scenarioFile) {
        return new Ns3Import(config).run(topologyFile, flowFile, scenarioFile);
    }

    /** A comment at the end of a field's line naming the ns-3 entries it comes from (null entries skipped). */
    private void from(final String field, final Ns3Config.Entry... entries) {
        for (final Ns3Config.Entry e : entries) {
            if (e != null) {
                comments.inline(field, e.text() + " (line " + e.line() + ")");
            }
        }
    }

    /** Sets an algorithm parameter from ns-3 entries (named in the field's comment); a range error names the first entry. */
    private void param(final String name, final double value, final Ns3Config.Entry... entries) {
        try {
            params.set(name, value);
        } catch (final IllegalArgumentException ex) {
            for (final Ns3Config.Entry e : entries) {
                if (e != null) {
                    throw keys.bad(e, ex.getMessage());
                }
            }
            throw ex; // a constant of this importer out of the algorithm's range: a bug here, not bad input
        }
        from("algorithm.params." + name, entries);
    }

    /** Sets an algorithm parameter to a key third.cc needs, a rate in whole Mb/s. */
    private void rateParam(final String name, final String key) {
        final Ns3Config.Entry e = keys.need(key);
        param(name, keys.rateMbps(e), e);
    }

    /** Sets an algorithm parameter to a flag key third.cc needs: 1 or 0. */
    private void flagParam(final String name, final String key) {
        final Ns3Config.Entry e = keys.need(key);
        param(name, keys.flag(e) ? 1 : 0, e);
    }

    private Result run(final Path topologyGiven, final Path flowsGiven, final Path scenarioFile) {
        final Ns3Config.Entry ccMode = keys.need("CC_MODE");
        final int cc = (int) keys.integer(ccMode, 0, 0, 100);
        final String algorithm = switch (cc) {
            case 1 -> "dcqcn";
            case 3 -> "hpcc";
            case 7 -> "timely";
            case 8 -> "dctcp-rate";
            case 10 -> throw keys.bad(ccMode, "10 (HPCC-PINT) is not modelled");
            default -> throw keys.bad(ccMode, "expected 1 (DCQCN), 3 (HPCC), 7 (TIMELY) or 8 (DCTCP), got " + cc);
        };
        final Path topoPath = keys.file("TOPOLOGY_FILE", topologyGiven, "--topology");
        final Path flowPath = keys.file("FLOW_FILE", flowsGiven, "--flows");
        final Ns3Topology topo = Ns3Topology.read(topoPath);
        // as the scenario loader will: never write a scenario that cannot run
        final Scenario.Topology topology = ScenarioLoader.fileTopology(topo);
        final Ns3Flows flows = Ns3Flows.read(flowPath, RoceNic.MAX_MESSAGE_BYTES);
        final int pg = flows.flows().get(0).priorityGroup();
        for (final Ns3Flows.Flow f : flows.flows()) {
            if (f.priorityGroup() != pg) {
                throw new ScenarioException(flowPath + ":" + f.line() + ": priority_group: nicsim runs every flow on one"
                    + " data priority; line " + flows.flows().get(0).line() + " has " + pg + ", this one " + f.priorityGroup());
            }
        }
        final Ns3Config.Entry payload = keys.need("PACKET_PAYLOAD_SIZE");
        final int mtu = (int) keys.integer(payload, 0, 256, 9000);

        // rejected values: things nicsim does not model
        keys.requireValue("ERROR_RATE_PER_LINK", "0", "nicsim models no link errors");
        final Ns3Config.Entry linkDown = keys.opt("LINK_DOWN");
        if (linkDown != null && keys.integer(linkDown, 0, 0, Long.MAX_VALUE) != 0) {
            throw keys.bad(linkDown, "link failures are not modelled; expected 'LINK_DOWN 0 0 0', got '" + linkDown.text() + "'");
        }
        keys.requireValue("L2_BACK_TO_ZERO", "0", "nicsim retransmits go-back-N from the first unacknowledged packet");
        keys.requireValue("RATE_BOUND", "1", "nicsim always paces at the algorithm's rate");
        final Ns3Config.Entry ackInterval = keys.need("L2_ACK_INTERVAL");
        final long ackBytes = keys.integer(ackInterval, 0, 0, Integer.MAX_VALUE);
        if (ackBytes == 0 || ackBytes > mtu) {
            throw keys.bad(ackInterval, "nicsim ACKs every packet or delays ACKs with DCTCP's state machine; only an interval of"
                + " 1.." + mtu + " bytes (an ACK per packet) maps exactly, got " + ackBytes);
        }

        final String fileName = scenarioFile.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        final String name = fileName.matches("[A-Za-z0-9._-]+") ? fileName : "ns3-import";
        comments.header("Imported by `nicsim ns3 import` from " + keys.file() + " (HPCC ns-3 simulator configuration).");
        comments.header("Each mapped field names the ns-3 key it comes from; every other field is nicsim's default, written out;");
        comments.header("keys that do not change results are listed at the end.");
        final Ns3Config.Entry stop = keys.opt("SIMULATOR_STOP_TIME");
        final long stopPs = stop != null ? Math.round(keys.number(stop, 0, 1e-9, 100) * 1e12) : Math.round(ScenarioLoader.DEFAULT_STOP_TIME_US * 1e6);
        from("stop_time_us", stop);
        from("topology.path", keys.opt("TOPOLOGY_FILE"));

        // NIC
        final Scenario.NicSpec nicDefaults = ScenarioLoader.defaultNic();
        final Ns3Config.Entry qcn = keys.opt("ENABLE_QCN");
        final boolean ecn = qcn == null || keys.flag(qcn);
        from("nic.mtu_bytes", payload);
        from("nic.ack_every_packets", ackInterval);
        keys.ignore("L2_CHUNK_SIZE", "with an ACK per packet (L2_ACK_INTERVAL <= PACKET_PAYLOAD_SIZE) chunk boundaries add no ACKs");
        comments.inline("nic.data_priority", "priority_group of every flow in " + flowPath.getFileName());
        final boolean npEnabled;
        final long cnpIntervalNs;
        final int txBurst;
        if (cc == 8) {
            npEnabled = false;
            cnpIntervalNs = nicDefaults.cnpIntervalNs();
            txBurst = 1;
            from("nic.np_enabled", ccMode);
            comments.above("nic.np_enabled", "CC_MODE 8 reads the CNP flag ns-3 sets on the ACK of a CE-marked packet: nicsim's"
                + " ECN echo (ECE) on ACKs; no CNP packets");
            from("nic.tx_burst_packets", ccMode);
            comments.above("nic.tx_burst_packets", "a TX_BURST event per packet: dctcp-rate knows snd_nxt exactly, as"
                + " HandleAckDctcp reads it");
        } else {
            npEnabled = ecn;
            cnpIntervalNs = 0;
            txBurst = nicDefaults.txBurstPackets();
            from("nic.np_enabled", qcn);
            comments.above("nic.cnp_interval_us", "ns-3 sets the CNP flag on the ACK of every CE-marked packet; nicsim sends a"
                + " CNP per CE-marked packet");
        }
        final Ns3Config.Entry ackPrio = keys.opt("ACK_HIGH_PRIO");
        final boolean highAcks = ackPrio != null && keys.flag(ackPrio);
        if (highAcks) {
            from("nic.ack_priority", ackPrio);
        } else {
            comments.above("nic.ack_priority", "ACKs share the data priority"
                + (ackPrio != null ? " (" + ackPrio.text() + ", line " + ackPrio.line() + ")" : ""));
        }
        final Scenario.Emulator ed = nicDefaults.emulator();
        final Scenario.Emulator emulator = new Scenario.Emulator(false, ed.cores(), ed.threadsPerCore(), ed.clockHz(),
            ed.ringCapacity(), ed.contextCacheEntries(), ed.dispatchCycles(), ed.contextHitCycles(), ed.contextMissCycles(),
            ed.writeBackCycles(), ed.coalescing(), ed.highWaterMark(), ed.handlerCycles(), ed.maxInstructionsPerEvent());
        comments.inline("nic.emulator.enabled", "ns-3's RdmaHw reacts to each event at once: the direct processor");
        final Scenario.NicSpec nic = new Scenario.NicSpec(mtu, 1, cnpIntervalNs, npEnabled, nicDefaults.rtoNs(), txBurst, pg,
            nicDefaults.dataDscp(), nicDefaults.cnpPriority(), nicDefaults.cnpDscp(), nicDefaults.initialPsn(), emulator,
            highAcks ? HIGH_ACK_PRIORITY : pg, highAcks ? HIGH_ACK_DSCP : nicDefaults.dataDscp(), nicDefaults.selectiveRepeat(),
            nicDefaults.ackCoalesceBytes(), nicDefaults.srWindowPackets(), nicDefaults.srLossThresholdPackets(),
            nicDefaults.pathPolicy(), nicDefaults.pathEntropies());

        // switch
        final Scenario.SwitchSpec sd = ScenarioLoader.defaultSwitch(nic, topology);
        final Ns3Config.Entry buffer = keys.need("BUFFER_SIZE");
        final long bufferBytes = keys.integer(buffer, 0, 1, 16384) * 1024 * 1024;
        from("switch.buffer_bytes", buffer);
        final Ns3Config.Entry dynPfc = keys.opt("USE_DYNAMIC_PFC_THRESHOLD");
        if (dynPfc != null && !keys.flag(dynPfc)) {
            throw keys.bad(dynPfc, "the reference's static PFC threshold is not modelled; expected 1 (dynamic)");
        }
        from("switch.pfc.enabled", dynPfc);
        comments.inline("switch.pfc.alpha", "ns-3 pfc_a_shift 3 (xoff = free buffer / 8); ns-3 lowers the shift by one per"
            + " doubling of the port rate over the NIC rate, nicsim uses one alpha on every port");
        from("switch.wred.priorities", qcn);
        final Ns3Config.Entry kmin = keys.need("KMIN_MAP");
        final Ns3Config.Entry kmax = keys.need("KMAX_MAP");
        final Ns3Config.Entry pmax = keys.need("PMAX_MAP");
        final List<Scenario.RateWred> byRate = new ArrayList<>();
        for (final long r : topo.linkRates()) {
            final double kminKb = mapValue(kmin, r, topo);
            final double kmaxKb = mapValue(kmax, r, topo);
            final double p = mapValue(pmax, r, topo);
            if (kmaxKb < kminKb) {
                throw keys.bad(kmax, "Kmax " + Ns3Keys.fmt(kmaxKb) + " KB is below Kmin " + Ns3Keys.fmt(kminKb) + " KB at " + r + " bit/s");
            }
            if (p < 0 || p > 1) {
                throw keys.bad(pmax, "expected Pmax in [0, 1], got " + Ns3Keys.fmt(p) + " at " + r + " bit/s");
            }
            byRate.add(new Scenario.RateWred(r, Math.round(kminKb * 1000), Math.round(kmaxKb * 1000), p));
        }
        from("switch.wred.by_rate", kmin, kmax, pmax);
        comments.above("switch.wred.by_rate", "KB = 1000 bytes as SwitchMmu::ConfigEcn; marking on the instantaneous egress queue");
        final Scenario.SwitchSpec sw = new Scenario.SwitchSpec(bufferBytes, true, new int[] {pg}, true, sd.xoffBytes(),
            sd.xonBytes(), 1.0 / 8, sd.xonOffsetBytes(), sd.headroomBytes(), ecn ? new int[] {pg} : new int[0], sd.kminBytes(),
            sd.kmaxBytes(), sd.pmax(), true, sd.notEctDropBytes(), sd.egressDynamic(), sd.queueLimitBytes(), sd.egressAlpha(),
            sd.strictPriorities(), sd.camDepth(), sd.camSamplePackets(), sd.inputOutputQueued(), sd.voqBytes(),
            sd.outputQueueBytes(), sd.camCongestedBytes(), sd.rcm(), List.copyOf(byRate));

        // algorithm
        final PccAlgorithmProvider provider = PccAlgorithms.byName(algorithm);
        params = provider.defaults();
        from("algorithm.name", ccMode);
        final TopologyGraph graph = TopologyGraph.build(topology);
        switch (cc) {
            case 1 -> dcqcn();
            case 3 -> hpcc(new Ns3Paths(graph, mtu));
            case 8 -> dctcpRate();
            default -> timely();
        }
        if (cc != 3) {
            for (final String k : new String[] {"HAS_WIN", "VAR_WIN"}) {
                final Ns3Config.Entry e = keys.opt(k);
                if (e != null && keys.flag(e)) {
                    throw keys.bad(e, "a window with " + algorithm + " is not modelled (nicsim's " + algorithm + " is rate-only);"
                        + " expected 0");
                }
                if (e != null) {
                    keys.ignore(k, "0: no window, as nicsim's " + algorithm);
                }
            }
        }

        // workload and sampling
        final Scenario.Workload workload = ScenarioLoader.fileWorkload(flows, topology, nic, 0);
        from("workload.path", keys.opt("FLOW_FILE"));
        comments.above("sampling.queue_interval_us", "the reference writes no time series; coarse samples keep the run fast");
        final Scenario.Sampling sampling = new Scenario.Sampling(SAMPLE_INTERVAL_PS, SAMPLE_INTERVAL_PS, SAMPLE_INTERVAL_PS, false, false, false);

        final String outputs = "an output file of the reference; nicsim writes fct.txt and its own files into the run's directory";
        keys.ignore("TRACE_FILE", "names the nodes whose packets the reference traces (output only)");
        keys.ignore("TRACE_OUTPUT_FILE", outputs);
        keys.ignore("FCT_OUTPUT_FILE", outputs);
        keys.ignore("PFC_OUTPUT_FILE", outputs);
        keys.ignore("QLEN_MON_FILE", outputs);
        keys.ignore("QLEN_MON_START", "queue-length monitor window (output only)");
        keys.ignore("QLEN_MON_END", "queue-length monitor window (output only)");
        keys.ignore("ENABLE_TRACE", "packet trace on or off (output only)");
        keys.ignore("ERROR_RATE_PER_LINK", "0: no link errors, as nicsim");
        keys.ignore("LINK_DOWN", "0 0 0: no link failure");
        keys.ignore("L2_BACK_TO_ZERO", "0: go-back-N from the first unacknowledged packet, as nicsim");
        keys.ignore("RATE_BOUND", "1: sending paced at the rate, as nicsim");
        keys.ignore("PINT_LOG_BASE", "read only by CC_MODE 10 (HPCC-PINT)");
        keys.ignore("PINT_PROB", "read only by CC_MODE 10 (HPCC-PINT)");
        if (cc != 8) {
            keys.ignore("DCTCP_RATE_AI", "read only by CC_MODE 8 (rate-based DCTCP)");
        }
        for (final String k : new String[] {"ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "CLAMP_TARGET_RATE", "RP_TIMER",
            "EWMA_GAIN", "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI", "MIN_RATE", "U_TARGET", "MI_THRESH", "INT_MULTI",
            "MULTI_RATE", "SAMPLE_FEEDBACK", "FAST_REACT", "HAS_WIN", "GLOBAL_T", "VAR_WIN"}) {
            if (!keys.isRead(k)) {
                keys.ignore(k, "not read by CC_MODE " + cc + " (" + algorithm + ")");
            }
        }
        keys.requireAllRead();
        if (!keys.ignored().isEmpty()) {
            comments.footer("Ignored ns-3 keys (they do not change results):");
            for (final String s : keys.ignored()) {
                comments.footer("  " + s);
            }
        }
        final Scenario scenario = new Scenario(name, scenarioFile, 1, stopPs, topology, sw, nic,
            new Scenario.Algorithm(provider.name(), params, null, null), workload, sampling);
        requireHeadroom(scenario, topo, keys.need("BUFFER_SIZE"));
        requireBuilds(scenario);
        return new Result(scenario, ScenarioWriter.toYaml(scenario, scenarioFile, comments), List.copyOf(keys.ignored()),
            List.of(keys.file(), topoPath, flowPath));
    }

    /**
     * Refuses a link whose PFC headroom fills its switch's buffer, naming its topology line: every
     * lossless port of a switch reserves {@code 2 x delay x rate} plus the frames in flight out of the buffer
     * ({@link SwitchConfig#requiredHeadroomBytes}), so a long delay (ns-3 takes up to 1 s)
     * leaves the buffer no shared part, and {@code nicsim run} could not build the switch. Links are
     * taken in file order, the order the run connects them.
     */
    private void requireHeadroom(final Scenario scenario, final Ns3Topology topo, final Ns3Config.Entry buffer) {
        final SwitchConfig c;
        try {
            c = DeviceConfigs.switchConfig(scenario.switchSpec(), scenario.nic());
        } catch (final IllegalArgumentException e) {
            return; // reported by requireBuilds
        }
        if (c.queueing != SwitchConfig.Queueing.OUTPUT_QUEUED) {
            return; // VOQs and output queues of fixed sizes: no headroom out of a shared buffer
        }
        final long[] reserved = new long[topo.nodes()];
        for (final Ns3Topology.Link l : topo.links()) {
            long perPort = 0;
            for (int g = 0; g < c.pfcEnabled.length; g++) {
                if (c.pfcEnabled[g]) {
                    perPort += c.headroomBytes[g] == SwitchConfig.HEADROOM_AUTO
                        ? SwitchConfig.requiredHeadroomBytes(l.rateBitsPerSec(), l.delayPs(), c.maxFrameBytes)
                        : c.headroomBytes[g];
                }
            }
            for (final int node : new int[] {l.a(), l.b()}) {
                if (!topo.isSwitch(node)) {
                    continue;
                }
                reserved[node] += perPort;
                if (reserved[node] >= c.bufferBytes) {
                    throw new ScenarioException(topo.file() + ":" + l.line() + ": delay: link " + l.a() + "-" + l.b() + " ("
                        + l.delayPs() / Units.PS_PER_NS + " ns at " + l.rateBitsPerSec() / 1e9 + " Gb/s) needs " + perPort
                        + " bytes of PFC headroom on switch node " + node + " (2 x delay x rate plus the frames in flight, per"
                        + " lossless priority), which with the links before it there reaches its " + c.bufferBytes + "-byte buffer"
                        + " (BUFFER_SIZE, " + keys.file() + ":" + buffer.line() + "), so nicsim run could not build the"
                        + " switch; shorten the delay or raise BUFFER_SIZE");
                }
            }
        }
    }

    /**
     * Builds the imported scenario's fabric as {@code nicsim run} does (nothing is written), so an
     * import never writes a scenario the run refuses; the few refusals not traced to one input line
     * above say so.
     */
    private static void requireBuilds(final Scenario scenario) {
        try {
            new Runner(scenario,
                TimeSeriesWriter.unopened(), null);
        } catch (final ScenarioException | IllegalArgumentException e) {
            throw new ScenarioException("the imported scenario would not run: " + e.getMessage());
        }
    }

    /** The value of a {@code *_MAP} entry for one link rate; every rate of the topology must be listed. */
    private double mapValue(final Ns3Config.Entry e, final long rate, final Ns3Topology topo) {
        final int n = (int) keys.integer(e, 0, 1, 64);
        for (int i = 0; i < n; i++) {
            final long r = keys.integer(e, 1 + 2 * i, 1, Long.MAX_VALUE);
            if (r == rate) {
                return keys.number(e, 2 + 2 * i, 0, 1e9);
            }
        }
        throw keys.bad(e, "no entry for " + rate + " bit/s, a link rate of " + topo.file() + " (ns-3 asserts every rate is set)");
    }

    private void dcqcn() {
        final Ns3Config.Entry g = keys.need("EWMA_GAIN");
        param("g", keys.number(g, 0, 1.0 / 65536, 1), g);
        param("initial_alpha", 1);
        comments.above("algorithm.params.initial_alpha", "cnp_received_mlx sets alpha = 1 on the first CNP");
        final Ns3Config.Entry alphaUs = keys.need("ALPHA_RESUME_INTERVAL");
        param("alpha_update_period_ns", Math.round(keys.number(alphaUs, 0, 0.001, 1e6) * Units.NS_PER_US), alphaUs);
        final Ns3Config.Entry decUs = keys.need("RATE_DECREASE_INTERVAL");
        param("rate_reduce_monitor_period_ns", Math.round(keys.number(decUs, 0, 0.001, 1e6) * Units.NS_PER_US), decUs);
        final Ns3Config.Entry timer = keys.need("RP_TIMER");
        param("rpg_time_reset_ns", Math.round(keys.number(timer, 0, 0.001, 1e6) * Units.NS_PER_US), timer);
        param("rpg_byte_reset_bytes", 0);
        comments.inline("algorithm.params.rpg_byte_reset_bytes", "the reference has no byte counter");
        final Ns3Config.Entry fr = keys.need("FAST_RECOVERY_TIMES");
        param("rpg_threshold", keys.integer(fr, 0, 0, 1024), fr);
        rateParam("rpg_ai_rate_mbps", "RATE_AI");
        rateParam("rpg_hai_rate_mbps", "RATE_HAI");
        rateParam("rpg_min_rate_mbps", "MIN_RATE");
        final Ns3Config.Entry clamp = keys.opt("CLAMP_TARGET_RATE");
        param("clamp_tgt_rate", clamp != null && keys.flag(clamp) ? 1 : 0, clamp);
        param("clamp_tgt_rate_after_time_inc", 1);
        comments.inline("algorithm.params.clamp_tgt_rate_after_time_inc",
            "without CLAMP_TARGET_RATE ns-3 clamps Rt when its timer stage is non-zero");
        param("rpg_min_dec_fac", 0);
        param("rate_on_first_cnp", 1);
        param("hai_scaling", 0);
    }

    private void timely() {
        rateParam("rate_ai_mbps", "RATE_AI");
        rateParam("rate_hai_mbps", "RATE_HAI");
        rateParam("min_rate_mbps", "MIN_RATE");
        comments.above("algorithm.params", "alpha, beta, t_low_ns, t_high_ns, min_rtt_ns: rdma-hw.cc defaults (third.cc sets none)");
    }

    private void dctcpRate() {
        final Ns3Config.Entry g = keys.need("EWMA_GAIN");
        param("g", keys.number(g, 0, 0, 1), g);
        final Ns3Config.Entry ai = keys.opt("DCTCP_RATE_AI");
        if (ai != null) {
            param("rate_ai_mbps", keys.rateMbps(ai), ai);
        } else {
            param("rate_ai_mbps", DEFAULT_DCTCP_RATE_AI_MBPS);
            comments.inline("algorithm.params.rate_ai_mbps", "no DCTCP_RATE_AI: third.cc's default 1000Mb/s");
        }
        rateParam("min_rate_mbps", "MIN_RATE");
        param("initial_alpha", 1);
        comments.inline("algorithm.params.initial_alpha", "rdma-queue-pair.cc starts dctcp.m_alpha at 1");
    }

    private void hpcc(final Ns3Paths paths) {
        final Ns3Config.Entry eta = keys.need("U_TARGET");
        param("eta", keys.number(eta, 0, 0.01, 1), eta);
        final Ns3Config.Entry mi = keys.need("MI_THRESH");
        param("max_stage", keys.integer(mi, 0, 0, 1000), mi);
        rateParam("rate_ai_mbps", "RATE_AI");
        rateParam("min_rate_mbps", "MIN_RATE");
        keys.ignore("RATE_HAI", "HPCC has no hyper increase (rdma-hw.cc reads m_rhai only for DCQCN and TIMELY)");
        final Ns3Config.Entry hasWin = keys.need("HAS_WIN");
        final Ns3Config.Entry globalT = keys.need("GLOBAL_T");
        final boolean global = keys.flag(globalT);
        param("has_win", keys.flag(hasWin) ? 1 : 0, hasWin);
        if (global) {
            param("base_rtt_ns", paths.maxRttNs(), globalT);
            comments.above("algorithm.params.base_rtt_ns", "the largest RTT over all host pairs, 2 x delay + payload transmission"
                + " per hop (third.cc CalculateRtt)");
            if (keys.flag(hasWin)) {
                param("window_bytes", paths.maxBdpBytes(), globalT);
            }
        } else {
            param("base_rtt_ns", 0, globalT);
            comments.above("algorithm.params.base_rtt_ns", "0: each flow's own path RTT and BDP");
        }
        flagParam("var_win", "VAR_WIN");
        flagParam("fast_react", "FAST_REACT");
        flagParam("multi_rate", "MULTI_RATE");
        flagParam("sample_feedback", "SAMPLE_FEEDBACK");
        final Ns3Config.Entry intMulti = keys.need("INT_MULTI");
        param("int_multi", keys.integer(intMulti, 0, 1, 1024), intMulti);
    }
}
