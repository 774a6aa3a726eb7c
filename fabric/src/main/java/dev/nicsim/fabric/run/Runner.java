package dev.nicsim.fabric.run;

import dev.nicsim.fabric.scenario.Scenario;
import dev.nicsim.fabric.scenario.ScenarioPrograms;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.fabric.trace.ChronicleTraceWriter;
import dev.nicsim.fabric.workload.FlowSpec;
import dev.nicsim.fabric.workload.WorkloadGenerator;
import dev.nicsim.microcode.CcProcessor;
import dev.nicsim.microcode.CcResultSink;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.fabric.trace.MailboxLog;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.microcode.firmware.FirmwareNotificationPoint;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.microcode.firmware.NicPorts;
import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.microcode.trace.RecordingCcProcessor;
import dev.nicsim.nic.FlowProgress;
import dev.nicsim.pcc.PccEventType;
import org.HdrHistogram.Histogram;
import dev.nicsim.nic.FlowListener;
import dev.nicsim.nic.MessageOp;
import dev.nicsim.nic.NicConfig;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;
import dev.nicsim.sw.SwitchConfig;
import dev.nicsim.sw.WredProfile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;

/**
 * Builds the fabric of a scenario (NICs, switches, links, ECMP routes, one CC processor per NIC),
 * starts the workload's flows at their times, samples queues and rates, and runs the simulation
 * until every flow has completed or the stop time is reached.
 *
 * <p>Thread-safety: one run per instance, on the calling thread.
 */
public final class Runner implements FlowListener, EventHandler {
    private static final int EV_START_FLOW = 1;
    private static final int EV_SAMPLE_QUEUES = 2;
    private static final int EV_SAMPLE_RATES = 3;
    private static final int EV_MAILBOX = 4;
    private static final int EV_LINK = 5;
    private static final long PROGRESS_STEP_PS = 20_000_000L; // 20 us of simulated time
    /**
     * The system property that makes a partitioned run sample queues, rates and throughput on the
     * coordinator alone ({@code false}; by default the partitions take their shares,
     * {@link PartitionSamples}): the outputs are the same bytes either way.
     */
    public static final String SAMPLE_IN_PARTITIONS_PROPERTY = "nicsim.partition.sampleInPartitions";

    private final Scenario scenario;
    /** The programs this run executes, loaded from the scenario for this run. */
    private final ScenarioPrograms programs;
    /** The run's simulator; in a partitioned run, the global events' ({@link #partitions}). */
    private final Simulator sim = new Simulator();
    private final PacketPool pool;
    /** The partitions of a partitioned run ({@code --partitions N}, N >= 2), or null. */
    private final Partitions partitions;
    /** Time of the last flow completion merged, ps (the end of a partitioned run). */
    private long lastCompletionPs;
    private RunResult.PartitionFigures partitionFigures;
    private final CounterRegistry counters = new CounterRegistry();
    private final TopologyGraph graph;
    private final RoceNic[] nics;
    private final SwitchAsic[] switches;
    private final CcProcessor[] processors;
    private final List<FlowSpec> flows;
    private final long[] fctPs;
    private final long[] idealPs;
    private final int[] baseRttNs;
    /** Per host, the stream its QPs' first PSNs are drawn from ({@code nic.initial_psn: random}); else null. */
    private final SplittableRandom[] psnStreams;
    private final TimeSeriesWriter series;
    private final UnicEmulator[] emulators;
    private final long[][][] lastDepth;
    /**
     * The partitions' own shares of the queue and rate samples ({@code --partitions N}, N >= 2), or
     * null; disabled with {@code -D}{@value #SAMPLE_IN_PARTITIONS_PROPERTY}{@code =false}.
     */
    private final PartitionSamples partitionSamples;
    /**
     * Time of the last global event that changed devices (flow start, mailbox message, link event),
     * ps, or -1: a sample at that same time is taken directly, not from the partitions' rows.
     */
    private long devicesChangedAtPs = -1;
    private final ThroughputSampler throughput;
    /** Flow ids in the order their flows completed (the first {@code completed} entries). */
    private final int[] completionOrder;
    private int completed;
    /** Per host, the firmware instance of its NIC's core 0 (host-side calls go there); null without firmware. */
    private final FirmwareAlgorithm[] firmware;
    /** What the firmware answered the scenario's mailbox messages ({@code mailbox.csv}). */
    private final MailboxLog mailboxLog = new MailboxLog();
    /** Mailbox messages delivered so far (they run in list order, the list being in time order). */
    private int mailboxDelivered;
    /** The account of unfinished flows, after {@link #run}. */
    private StallReport stallReport;
    /** Where the host's calls into firmware are recorded ({@code run --record}), or null. */
    private ChronicleTraceWriter hostCalls;

    /**
     * Builds the fabric.
     *
     * @param scenario the scenario
     * @param series   where queue and rate samples go
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series) {
        this(scenario, series, null);
    }

    /**
     * Builds the fabric, optionally recording every NIC's CC processor: with a listener factory,
     * host {@code h}'s {@link DirectCcProcessor} is wrapped in a {@link RecordingCcProcessor}
     * reporting to {@code traceListeners.apply(h)} (called once per host, in host order), so every
     * flow start and end, PCC event and result (with its cycles) of the run reaches the listener
     * ({@code nicsim run --record}); the run itself is unchanged.
     *
     * @param scenario       the scenario
     * @param series         where queue and rate samples go
     * @param traceListeners the listener of each host's processor, or null to record nothing
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series,
                  final IntFunction<PccTraceListener> traceListeners) {
        this(scenario, series, traceListeners, 1, 1);
    }

    /**
     * Builds the fabric, split into {@code partitionCount} partitions run in parallel
     * ({@code nicsim run --partitions N}; {@link PartitionPlan}, {@link dev.nicsim.sim.PartitionedRun}).
     * With one partition this is the sequential run, byte-identical to the other constructors'.
     * With more, each partition has its own simulator and packet pool, the links between partitions
     * are cut links, and the runner's own events (flow starts, samplers, mailbox and link events)
     * run on the global simulator at the barriers, after the partitions' events of the same time;
     * the partitions format their own devices' rows of a sample at the window ending at its time
     * ({@link PartitionSamples}, {@link ThroughputSampler#prepare}), the samplers' global events
     * write them out in device order (the same bytes as sampling every device there).
     * The results depend on the partition count, never on {@code threads}. Recording
     * ({@code traceListeners}) and {@link #simulator()} observers need one partition.
     *
     * @param scenario       the scenario
     * @param series         where queue and rate samples go
     * @param traceListeners the listener of each host's processor, or null to record nothing
     * @param partitionCount partitions, {@code >= 1}
     * @param threads        threads to run them on, {@code 1 .. partitionCount}
     * @throws dev.nicsim.fabric.scenario.ScenarioException if the fabric cannot be split that way
     *                                  (fewer access switches than partitions, a zero-delay cut link)
     * @throws IllegalArgumentException if {@code threads} is out of range, or recording is asked with
     *                                  more than one partition
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series,
                  final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        this(scenario, ScenarioPrograms.load(scenario), series, traceListeners, partitionCount, threads);
    }

    /**
     * Builds the sequential fabric running programs loaded by the caller ({@code nicsim firmware
     * profile} enables the provider's profile first).
     *
     * @param scenario the scenario
     * @param programs its programs, {@link ScenarioPrograms#load}ed for this run
     * @param series   where queue and rate samples go
     */
    public Runner(final Scenario scenario, final ScenarioPrograms programs, final TimeSeriesWriter series) {
        this(scenario, programs, series, null, 1, 1);
    }

    private Runner(final Scenario scenario, final ScenarioPrograms programs, final TimeSeriesWriter series,
                   final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        if (partitionCount > 1 && traceListeners != null) {
            throw new IllegalArgumentException("recording PCC traces needs --partitions 1");
        }
        if (threads < 1 || threads > Math.max(1, partitionCount)) {
            throw new IllegalArgumentException("threads must be in 1.." + partitionCount + ", got " + threads);
        }
        this.scenario = scenario;
        this.programs = programs;
        this.series = series;
        this.graph = TopologyGraph.build(scenario.topology());
        if (usesInt(scenario)) {
            for (final TopologyGraph.Edge e : graph.edges()) {
                if (dev.nicsim.pcc.PccIntHop.rateCode(e.link().rateBitsPerSec()) < 0) {
                    throw new dev.nicsim.fabric.scenario.ScenarioException("topology: HPCC's INT hop records encode link"
                        + " rates of 10, 25, 40, 50, 100, 200, 400 and 800 Gb/s, got " + e.link().rateBitsPerSec() / 1e9 + " Gb/s");
                }
            }
        }
        final SwitchConfig swConfig = switchConfig(scenario.switchSpec(), scenario.nic());
        final boolean hpccInt = usesInt(scenario);
        swConfig.intEnabled = hpccInt;
        // IFA2 probes (firmware.probe.format: ifa2): switches stamp them; their records need the INT room
        final boolean ifa2 = scenario.probe().ifa2();
        swConfig.ifa2Enabled = ifa2;
        final boolean hopRoom = hpccInt || ifa2;
        // RCM flow IDs only where RCM runs, INT hop records only where HPCC runs or IFA2 probes go
        final PartitionPlan plan = PartitionPlan.of(graph, partitionCount);
        this.pool = new PacketPool(swConfig.rcm.anyEnabled(), hopRoom);
        this.partitions = partitionCount == 1 ? null
            : new Partitions(plan, p -> p == 0 ? pool : new PacketPool(swConfig.rcm.anyEnabled(), hopRoom), threads);
        final int hosts = graph.hosts();
        nics = new RoceNic[hosts];
        processors = new CcProcessor[hosts];
        final NicConfig nicConfig = nicConfig(scenario.nic());
        if (ifa2) {
            nicConfig.probeIfa2HopLimit = scenario.probe().ifa2HopLimit();
            nicConfig.probeIfa2Gns = scenario.probe().ifa2Gns();
        }
        psnStreams = scenario.nic().initialPsn() == Scenario.NicSpec.RANDOM_PSN ? new SplittableRandom[hosts] : null;
        if (hpccInt) {
            nicConfig.intHeaderBytes = INT_HEADER_BYTES;
            nicConfig.intMulti = (int) scenario.algorithm().values().value("int_multi");
        }
        for (int h = 0; h < hosts; h++) {
            nics[h] = new RoceNic(simOf(h), "host" + h, h, nicConfig, counters, poolOf(h));
            if (partitions != null) {
                nics[h].setPartition(plan.partitionOf(h), partitions.releases[plan.partitionOf(h)]);
            }
            if (psnStreams != null) {
                psnStreams[h] = RngStreams.stream(scenario.seed(), "host" + h + "/initial_psn");
            }
        }
        switches = new SwitchAsic[graph.switches()];
        for (int s = 0; s < switches.length; s++) {
            switches[s] = new SwitchAsic(simOf(hosts + s), graph.switchName(s), graph.ports(hosts + s), swConfig, counters,
                poolOf(hosts + s),
                scenario.seed());
            if (ifa2) {
                switches[s].telemetry().setIfa2DeviceId(s); // the switch's index in the topology (docs/doca-pcc.md)
            }
        }
        lastDepth = new long[switches.length][][];
        for (int s = 0; s < switches.length; s++) {
            lastDepth[s] = new long[graph.ports(hosts + s)][8];
        }
        for (final TopologyGraph.Edge e : graph.edges()) {
            attach(e.a(), e.portA(), e.b(), e.portB(), e);
            attach(e.b(), e.portB(), e.a(), e.portA(), e);
        }
        partitionSamples = partitions == null || !sampleInPartitions() ? null
            : new PartitionSamples(switches, nics, lastDepth, plan, hosts);
        if (partitions != null) {
            partitions.cutLinks(graph, (node, port) -> node < hosts ? nics[node].port() : switches[node - hosts].egressPort(port));
        }
        for (int s = 0; s < switches.length; s++) {
            for (int d = 0; d < hosts; d++) {
                switches[s].setRoute(d, graph.ecmpPorts(hosts + s, d));
            }
        }
        applyWredByRate(scenario.switchSpec());
        emulators = new UnicEmulator[hosts];
        firmware = new FirmwareAlgorithm[hosts];
        final EmulatorConfig emulatorConfig = emulatorConfig(scenario.nic().emulator());
        for (int h = 0; h < hosts; h++) {
            final int host = h;
            final java.util.function.Function<CcResultSink, CcProcessor> make = sink -> {
                // one supplier per NIC: firmware instances of one NIC share its memory image; the first
                // (core 0) takes the host side's calls (mailbox messages, port-state changes)
                final java.util.function.Supplier<dev.nicsim.pcc.PccAlgorithm> instances =
                    programs.provider() instanceof FirmwareProvider fw
                        ? firstKept(fw.processorInstances(scenario.algorithm().values(), nicPorts(host)), host)
                        : programs.provider().processorInstances(scenario.algorithm().values());
                if (emulatorConfig == null) {
                    return new DirectCcProcessor(instances.get(), 0, sink);
                }
                emulators[host] = new UnicEmulator(emulatorConfig, instances, 0, sink);
                return emulators[host];
            };
            processors[h] = traceListeners == null ? make.apply(nics[h])
                : new RecordingCcProcessor(traceListeners.apply(h), nics[h], make);
            nics[h].setCcProcessor(processors[h]);
        }
        if (programs.np() != null) {
            for (int h = 0; h < hosts; h++) {
                nics[h].setNpProgram(npProgram(programs.np().forNic(nicPorts(h))));
            }
        }
        flows = WorkloadGenerator.generate(scenario.workload(), hosts, scenario.topology().hostLink().rateBitsPerSec(),
            scenario.seed());
        fctPs = new long[flows.size()];
        completionOrder = new int[flows.size()];
        idealPs = new long[flows.size()];
        baseRttNs = new int[flows.size()];
        for (final FlowSpec f : flows) {
            final var path = graph.path(f.src(), f.dst());
            fctPs[f.flowId()] = -1;
            idealPs[f.flowId()] = IdealFct.idealPs(path, f.sizeBytes(), scenario.nic().mtuBytes());
            final long rttNs = IdealFct.baseRttPs(path, scenario.nic().mtuBytes()) / 1000;
            if (rttNs > Integer.MAX_VALUE) { // the PCC flow attribute base_rtt_ns is 32 bits
                throw new dev.nicsim.fabric.scenario.ScenarioException(scenario.file() + ": topology: flow " + f.flowId()
                    + " (host " + f.src() + " to " + f.dst() + ") has a base RTT of " + rttNs + " ns, more than the "
                    + Integer.MAX_VALUE + " ns a PCC flow attribute holds; shorten the link delays (delay_ns)");
            }
            baseRttNs[f.flowId()] = (int) rttNs;
            sim.schedule(f.startPs(), this, EV_START_FLOW, f.flowId(), null);
        }
        sim.schedule(0, this, EV_SAMPLE_QUEUES, 0, null);
        sim.schedule(0, this, EV_SAMPLE_RATES, 0, null);
        for (int i = 0; i < scenario.mailbox().size(); i++) {
            sim.schedule(scenario.mailbox().get(i).atPs(), this, EV_MAILBOX, i, null);
        }
        for (int i = 0; i < scenario.linkEvents().size(); i++) {
            sim.schedule(scenario.linkEvents().get(i).atPs(), this, EV_LINK, i, null);
        }
        throughput = partitions == null
            ? new ThroughputSampler(sim, series, flows.size(), scenario.sampling().throughputIntervalPs(), List.of(switches))
            : new ThroughputSampler(sim, series, flows.size(), scenario.sampling().throughputIntervalPs(), List.of(switches),
                partitionCount, sw -> plan.partitionOf(hosts + List.of(switches).indexOf(sw)));
    }

    /** @return whether a partitioned run's partitions take their shares of the samples ({@link #SAMPLE_IN_PARTITIONS_PROPERTY}) */
    private static boolean sampleInPartitions() {
        return Boolean.parseBoolean(System.getProperty(SAMPLE_IN_PARTITIONS_PROPERTY, "true"));
    }

    /** The simulator of a node's partition (the run's one simulator when not partitioned). */
    private Simulator simOf(final int node) {
        return partitions == null ? sim : partitions.sims[partitions.plan.partitionOf(node)];
    }

    /** The packet pool of a node's partition. */
    private PacketPool poolOf(final int node) {
        return partitions == null ? pool : partitions.pools[partitions.plan.partitionOf(node)];
    }

    /** Wraps a NIC's firmware instances so that the first one (core 0) is kept in {@link #firmware}. */
    private java.util.function.Supplier<dev.nicsim.pcc.PccAlgorithm> firstKept(
        final java.util.function.Supplier<dev.nicsim.pcc.PccAlgorithm> instances, final int host) {
        return () -> {
            final dev.nicsim.pcc.PccAlgorithm a = instances.get();
            if (firmware[host] == null) {
                firmware[host] = (FirmwareAlgorithm) a;
            }
            return a;
        };
    }

    /**
     * Records the host side's calls into firmware (mailbox messages, port-state changes) in a trace
     * as well as the CC processors' calls ({@code nicsim run --record}), each at its time before the
     * firmware runs it, so a replay makes the same calls. Call before {@link #run}.
     *
     * @param trace the trace, or null to record none
     * @throws IllegalStateException if the run is split into partitions (recording needs one)
     */
    public void recordHostCalls(final ChronicleTraceWriter trace) {
        if (partitions != null && trace != null) {
            throw new IllegalStateException("recording needs --partitions 1");
        }
        this.hostCalls = trace;
    }

    /**
     * Delivers mailbox message {@code i} to its NIC or to every NIC ({@code doca_pcc_mailbox_send} played by the
     * host side): each NIC's firmware runs {@code doca_pcc_dev_user_mailbox_handle} now, and the reply goes to
     * {@code mailbox.csv}.
     */
    private void deliverMailbox(final int i) {
        final Scenario.MailboxMessage m = scenario.mailbox().get(i);
        final byte[] request = m.request();
        final int nowNs = (int) (sim.nowPs() / 1000);
        for (int h = 0; h < nics.length; h++) {
            if (m.nic() == Scenario.ALL_NICS || m.nic() == h) {
                final FirmwareAlgorithm fw = firmware[h];
                if (hostCalls != null) {
                    hostCalls.mailbox(h, sim.nowPs(), i, request, m.maxResponseBytes(),
                        scenario.topology().hostLink().rateBitsPerSec());
                }
                mailboxLog.delivered(sim.nowPs(), h, i, m, fw.hostMailbox(request, m.maxResponseBytes(), nowNs,
                    scenario.topology().hostLink().rateBitsPerSec()));
            }
        }
        mailboxDelivered = i + 1;
    }

    /**
     * Link event {@code i}: both directions of the host's link stop (or resume) starting frames, and the
     * firmware on the host's NIC learns the port's new state ({@code doca_pcc_dev_user_port_info_changed}).
     */
    private void linkEvent(final int i) {
        final Scenario.LinkEvent ev = scenario.linkEvents().get(i);
        final int h = ev.host();
        nics[h].port().setLinkUp(ev.up());
        for (final TopologyGraph.Edge e : graph.edges()) {
            if (e.a() == h) {
                switches[e.b() - graph.hosts()].egressPort(e.portB()).setLinkUp(ev.up());
            } else if (e.b() == h) {
                switches[e.a() - graph.hosts()].egressPort(e.portA()).setLinkUp(ev.up());
            }
        }
        if (firmware[h] != null) {
            if (hostCalls != null) {
                hostCalls.portState(h, sim.nowPs(), ev.up(), scenario.topology().hostLink().rateBitsPerSec());
            }
            firmware[h].portStateChanged(ev.up(), (int) (sim.nowPs() / 1000), scenario.topology().hostLink().rateBitsPerSec());
        }
    }

    /**
     * What firmware on host {@code h}'s NIC reads through DOCA's port queries and NIC counters: the
     * host link rate and the NIC's own {@code tx_bytes}/{@code rx_bytes} counters (frames, all traffic);
     * and, for fault records, the host index and the clock of the NIC's partition (the run's simulator
     * when not partitioned; at a barrier every partition's clock is the window's end, the global events' time).
     */
    private NicPorts nicPorts(final int h) {
        final Counter tx = counters.counter(nics[h].name(), "tx_bytes");
        final Counter rx = counters.counter(nics[h].name(), "rx_bytes");
        final long speed = scenario.topology().hostLink().rateBitsPerSec();
        final Simulator clock = simOf(h);
        return new NicPorts() {
            @Override
            public int host() {
                return h;
            }

            @Override
            public long nowPs() {
                return clock.nowPs();
            }

            @Override
            public long speedBitsPerSec(final int port) {
                return speed;
            }

            @Override
            public long txBytes(final int port) {
                return tx.get();
            }

            @Override
            public long rxBytes(final int port) {
                return rx.get();
            }
        };
    }

    /**
     * A NIC's notification-point program ({@code firmware.np}) as the NIC model calls it: the firmware's
     * handler on the probe, its 12 bytes, cycles and time handed back.
     */
    private static dev.nicsim.nic.NpProgram npProgram(final FirmwareNotificationPoint.Nic fw) {
        return probe -> {
            final int o = fw.handle(probe.port, probe.requestSendNs, probe.srcHost, probe.dstHost, probe.udpSrcPort, probe.dscp,
                probe.ecn, probe.nowPs / 1000, probe.ifa2HopLimit, probe.ifa2Gns, probe.ifa2Records, probe.ifa2RecordCount);
            probe.word0 = fw.word0();
            probe.word1 = fw.word1();
            probe.word2 = fw.word2();
            probe.handlerPs = fw.lastPs();
            probe.cycles = fw.lastCycles();
            return switch (o) {
                case FirmwareNotificationPoint.OK -> dev.nicsim.nic.NpProgram.OK;
                case FirmwareNotificationPoint.FAILED -> dev.nicsim.nic.NpProgram.FAILED;
                case FirmwareNotificationPoint.FAULT -> dev.nicsim.nic.NpProgram.FAULT;
                default -> dev.nicsim.nic.NpProgram.BUDGET;
            };
        };
    }

    /**
     * {@code switch.wred.by_rate}: every switch egress port whose link rate is listed gets that
     * entry's Kmin/Kmax/Pmax on the WRED priorities (Not-ECT drop threshold K = the entry's Kmin),
     * as the HPCC ns-3 reference configures each port by its rate.
     */
    private void applyWredByRate(final Scenario.SwitchSpec s) {
        if (s.wredByRate().isEmpty()) {
            return;
        }
        for (final TopologyGraph.Edge e : graph.edges()) {
            for (final int[] end : new int[][] {{e.a(), e.portA()}, {e.b(), e.portB()}}) {
                if (end[0] < graph.hosts()) {
                    continue;
                }
                for (final Scenario.RateWred r : s.wredByRate()) {
                    if (r.rateBitsPerSec() == e.link().rateBitsPerSec()) {
                        for (final int p : s.wredPriorities()) {
                            switches[end[0] - graph.hosts()].setWredProfile(end[1], p,
                                new WredProfile(r.kminBytes(), r.kmaxBytes(), r.pmax(), s.ecn(), r.kminBytes()));
                        }
                    }
                }
            }
        }
    }

    /** Wire bytes of the INT header on HPCC data packets and ACKs (ns-3 IntHeader NORMAL: 5 x 8 + 2). */
    public static final int INT_HEADER_BYTES = 42;

    /**
     * Whether the run needs HPCC's in-band network telemetry: the algorithm is {@code hpcc} (it reads
     * INT hop records from ACK events). Every other run has no INT header, no hop records and no
     * INT room in its packets.
     *
     * @param scenario the scenario
     * @return true for HPCC
     */
    public static boolean usesInt(final Scenario scenario) {
        return "hpcc".equals(scenario.algorithm().name());
    }

    private NetDevice device(final int node) {
        return node < graph.hosts() ? nics[node] : switches[node - graph.hosts()];
    }

    private void attach(final int from, final int fromPort, final int to, final int toPort, final TopologyGraph.Edge e) {
        final long rate = e.link().rateBitsPerSec();
        final long delay = e.link().delayPs();
        if (from < graph.hosts()) {
            nics[from].connect(rate, delay, device(to), toPort);
        } else {
            try {
                switches[from - graph.hosts()].connectPort(fromPort, rate, delay, device(to), toPort);
            } catch (final IllegalArgumentException ex) {
                // the PFC headroom every port reserves out of the shared buffer: a scenario value, not a model bug
                throw new dev.nicsim.fabric.scenario.ScenarioException(scenario.file() + ": switch.buffer_bytes "
                    + scenario.switchSpec().bufferBytes() + " is too small: " + ex.getMessage() + "; raise switch.buffer_bytes"
                    + (scenario.switchSpec().pfcEnabled() ? " or lower switch.pfc.headroom_bytes" : ""));
            }
        }
    }

    /**
     * Maps the scenario's NIC section to the NIC model's configuration.
     *
     * @param n NIC section
     * @return validated configuration
     */
    static NicConfig nicConfig(final Scenario.NicSpec n) {
        final NicConfig c = new NicConfig();
        c.mtuBytes = n.mtuBytes();
        c.ackEveryPackets = n.ackEveryPackets();
        c.cnpIntervalNs = n.cnpIntervalNs();
        c.npEnabled = n.npEnabled();
        c.rtoNs = n.rtoNs();
        c.txBurstPackets = n.txBurstPackets();
        c.dataPriority = n.dataPriority();
        c.dataDscp = n.dataDscp();
        c.ackPriority = n.ackPriority();
        c.ackDscp = n.ackDscp();
        c.cnpPriority = n.cnpPriority();
        c.cnpDscp = n.cnpDscp();
        c.validate();
        return c;
    }

    /**
     * Maps the scenario's {@code nic.emulator} section to the emulator's configuration.
     *
     * @param e emulator section
     * @return validated configuration, or null when the emulator is disabled (direct processor)
     */
    public static EmulatorConfig emulatorConfig(final Scenario.Emulator e) {
        if (!e.enabled()) {
            return null;
        }
        final EmulatorConfig c = new EmulatorConfig().cores(e.cores()).threadsPerCore(e.threadsPerCore())
            .clockHz(e.clockHz()).ringCapacity(e.ringCapacity()).contextCacheEntries(e.contextCacheEntries())
            .dispatchCycles(e.dispatchCycles()).contextHitCycles(e.contextHitCycles())
            .contextMissCycles(e.contextMissCycles()).writeBackCycles(e.writeBackCycles()).coalescing(e.coalescing())
            .overloadHighWaterMark(e.highWaterMark());
        for (int t = 0; t < e.handlerCycles().length; t++) {
            if (e.handlerCycles()[t] >= 0) {
                c.handlerCycles(t, e.handlerCycles()[t]);
            }
        }
        c.validate();
        return c;
    }

    /**
     * Maps the scenario's switch section to the switch model's configuration. With any RCM
     * mechanism on, the notification priority is added to the strict-priority set (congestion
     * notifications must overtake the data they report on, the RCM paper §3.2), whatever
     * {@code switch.strict_priorities} says.
     *
     * @param s   switch section
     * @param nic NIC section (DSCP to priority map follows the NIC's markings)
     * @return validated configuration
     * @throws IllegalArgumentException if the switch model rejects the mapped values (the scenario
     *                                  loader checks them first, so only for hand-built sections)
     */
    public static SwitchConfig switchConfig(final Scenario.SwitchSpec s, final Scenario.NicSpec nic) {
        final SwitchConfig c = new SwitchConfig();
        c.bufferBytes = s.bufferBytes();
        c.dscpToPriority[nic.dataDscp()] = nic.dataPriority();
        c.dscpToPriority[nic.ackDscp()] = nic.ackPriority();
        c.dscpToPriority[nic.cnpDscp()] = nic.cnpPriority();
        if (s.pfcEnabled()) {
            for (final int p : s.pfcPriorities()) {
                c.pfcEnabled[p] = true;
            }
        }
        c.pfcThresholdMode = s.pfcDynamic() ? SwitchConfig.ThresholdMode.DYNAMIC : SwitchConfig.ThresholdMode.STATIC;
        c.pfcAlpha = s.pfcAlpha();
        c.pfcXonOffsetBytes = s.xonOffsetBytes();
        java.util.Arrays.fill(c.xoffBytes, s.xoffBytes());
        java.util.Arrays.fill(c.xonBytes, s.xonBytes());
        java.util.Arrays.fill(c.headroomBytes, s.headroomBytes() < 0 ? SwitchConfig.HEADROOM_AUTO : s.headroomBytes());
        c.maxFrameBytes = RoceFraming.frameBytes(nic.mtuBytes(), RoceFraming.RETH_BYTES);
        for (final int p : s.wredPriorities()) {
            c.wredProfiles[p] = new WredProfile(s.kminBytes(), s.kmaxBytes(), s.pmax(), s.ecn(), s.notEctDropBytes());
        }
        c.egressThresholdMode = s.egressDynamic() ? SwitchConfig.ThresholdMode.DYNAMIC : SwitchConfig.ThresholdMode.STATIC;
        c.egressAlpha = s.egressAlpha();
        java.util.Arrays.fill(c.queueLimitBytes, s.queueLimitBytes());
        c.strictPriorityMask = 0;
        for (final int p : s.strictPriorities()) {
            c.strictPriorityMask |= 1 << p;
        }
        c.camDepth = s.camDepth();
        c.camSamplePeriod = s.camSamplePackets();
        c.camCongestedBytes = s.camCongestedBytes();
        c.queueing = s.inputOutputQueued() ? SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED : SwitchConfig.Queueing.OUTPUT_QUEUED;
        c.voqBytes = s.voqBytes();
        c.outputQueueBytes = s.outputQueueBytes();
        RcmMapping.apply(s.rcm(), c);
        c.validate();
        return c;
    }

    /** The first PSN of a QP that host {@code src} sets up now: fixed, or the next draw of its stream. */
    private int initialPsn(final int src) {
        return psnStreams == null ? scenario.nic().initialPsn() : psnStreams[src].nextInt(1 << 24);
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        switch (kind) {
            case EV_START_FLOW -> {
                devicesChangedAtPs = sim.nowPs();
                final FlowSpec f = flows.get((int) arg);
                final int qpn = f.flowId() + 1;
                nics[f.src()].startFlow(f.flowId(), qpn, nics[f.dst()], qpn, op(scenario.workload().op()), f.sizeBytes(),
                    baseRttNs[f.flowId()], initialPsn(f.src()),
                    partitions == null ? this : partitions.completions[partitions.plan.partitionOf(f.src())]);
            }
            case EV_SAMPLE_QUEUES -> {
                if (completed < flows.size()) {
                    final long now = sim.nowPs();
                    if (partitionSamples == null || devicesChangedAtPs == now || !partitionSamples.writeQueues(now, series)) {
                        sampleQueues();
                    }
                    sim.scheduleIn(scenario.sampling().queueIntervalPs(), this, EV_SAMPLE_QUEUES, 0, null);
                    if (partitionSamples != null) {
                        partitionSamples.queueSampleAtPs = now + scenario.sampling().queueIntervalPs();
                    }
                }
            }
            case EV_SAMPLE_RATES -> {
                if (completed < flows.size()) {
                    final long now = sim.nowPs();
                    if (partitionSamples == null || devicesChangedAtPs == now || !partitionSamples.writeRates(now, series)) {
                        sampleRates();
                    }
                    sim.scheduleIn(scenario.sampling().rateIntervalPs(), this, EV_SAMPLE_RATES, 0, null);
                    if (partitionSamples != null) {
                        partitionSamples.rateSampleAtPs = now + scenario.sampling().rateIntervalPs();
                    }
                }
            }
            case EV_MAILBOX -> {
                devicesChangedAtPs = sim.nowPs();
                deliverMailbox((int) arg);
            }
            case EV_LINK -> {
                devicesChangedAtPs = sim.nowPs();
                linkEvent((int) arg);
            }
            default -> throw new IllegalStateException("unknown runner event " + kind);
        }
    }

    private static MessageOp op(final String op) {
        return switch (op) {
            case "send" -> MessageOp.SEND;
            case "read" -> MessageOp.READ;
            default -> MessageOp.WRITE;
        };
    }

    private void sampleQueues() {
        final long nowNs = sim.nowPs() / 1000;
        for (int i = 0; i < switches.length; i++) {
            PartitionSamples.sampleSwitch(switches[i], nowNs, lastDepth[i], lastDepth[i], series::queue);
        }
    }

    private void sampleRates() {
        final long nowNs = sim.nowPs() / 1000;
        for (final RoceNic n : nics) {
            n.forEachActiveQp((qpn, rate, window) -> series.rate(nowNs, qpn, rate, window));
        }
    }

    @Override
    public void onFlowComplete(final int flowId, final long completionPs) {
        if (fctPs[flowId] < 0) {
            fctPs[flowId] = completionPs - flows.get(flowId).startPs();
            lastCompletionPs = completionPs;
            completionOrder[completed] = flowId;
            completed++;
            if (completed == flows.size()) {
                sim.stop();
            }
        }
    }

    /**
     * Runs the simulation to completion or the stop time.
     *
     * @param progress called with the number of completed flows every 20 us of simulated time
     * @return the outcome
     * @throws IOException if writing samples fails
     */
    public RunResult run(final LongConsumer progress) throws IOException {
        final long t0 = System.nanoTime();
        final long stop = scenario.stopTimePs();
        final long endPs;
        if (partitions == null) {
            while (completed < flows.size() && sim.nowPs() < stop && sim.pending() > 0) {
                sim.runUntil(Math.min(stop, sim.nowPs() + PROGRESS_STEP_PS));
                progress.accept(completed);
                series.checkError();
            }
            endPs = sim.nowPs();
        } else {
            endPs = runPartitioned(stop, progress);
        }
        final long wall = System.nanoTime() - t0;
        for (int i = mailboxDelivered; i < scenario.mailbox().size(); i++) {
            final Scenario.MailboxMessage m = scenario.mailbox().get(i);
            for (int h = 0; h < nics.length; h++) {
                if (m.nic() == Scenario.ALL_NICS || m.nic() == h) {
                    mailboxLog.notDelivered(m.atPs(), h, i, m);
                }
            }
        }
        mailboxDelivered = scenario.mailbox().size();
        throughput.finish(endPs);
        for (int h = 0; h < nics.length; h++) {
            nics[h].publishProcessorCounters();
        }
        final List<FlowRecord> records = new ArrayList<>(flows.size());
        for (final FlowSpec f : flows) {
            final long fct = fctPs[f.flowId()];
            records.add(new FlowRecord(f.flowId(), f.src(), f.dst(), f.sizeBytes(), f.startPs() / 1000,
                fct < 0 ? -1 : fct / 1000, Math.max(1, idealPs[f.flowId()] / 1000)));
        }
        final List<RunResult.SwitchFigures> sw = new ArrayList<>();
        for (final SwitchAsic s : switches) {
            sw.add(new RunResult.SwitchFigures(s.name(), s.peakQueueBytes(), s.totalCeMarked(), s.totalDrops(),
                s.totalPauseFramesSent()));
        }
        long dataPackets = 0;
        for (final RoceNic n : nics) {
            dataPackets += n.dataPacketsSent();
        }
        long epochs = sim.epochsCompleted();
        long lookAheadEpochs = sim.epochsWithLookAhead();
        long events = sim.eventsProcessed();
        if (partitions != null) {
            events += partitions.partitionEvents();
            for (final Simulator s : partitions.sims) {
                epochs += s.epochsCompleted();
                lookAheadEpochs += s.epochsWithLookAhead();
            }
        }
        stallReport = stallReport(endPs);
        return new RunResult(scenario.name(), scenario.seed(), records, endPs, wall, events, dataPackets,
            sw, counters.sum("host", "np_cnp_sent"), counters.sum("host", "roce_adp_retrans"),
            counters.sum("host", "local_ack_timeout_err"), emulatorFigures(), epochs, lookAheadEpochs, partitionFigures);
    }

    /** The account of the flows still unfinished at {@code endPs} ({@link StallReport}). */
    private StallReport stallReport(final long endPs) {
        final List<FlowProgress> unfinished = new ArrayList<>();
        final List<Long> rates = new ArrayList<>();
        for (final RoceNic n : nics) {
            for (final FlowProgress f : n.unfinishedFlows()) {
                unfinished.add(f);
                rates.add(n.lineRateBitsPerSec());
            }
        }
        final long[] lineRates = rates.stream().mapToLong(Long::longValue).toArray();
        final String algorithm = programs.provider() instanceof FirmwareProvider fp
            ? "firmware " + fp.image().path().getFileName() : "algorithm " + programs.provider().name();
        final StallReport.Context c;
        if (programs.np() != null) {
            final FirmwareNotificationPoint np = programs.np();
            c = new StallReport.Context(algorithm, String.valueOf(np.image().path().getFileName()), np.calls(), np.faults(),
                np.budgetExceeded(), np.failed(), fwFaults(), fwBudget());
        } else {
            c = new StallReport.Context(algorithm, null, 0, 0, 0, 0, fwFaults(), fwBudget());
        }
        final int notStarted = flows.size() - completed - unfinished.size();
        return StallReport.of(unfinished, lineRates, notStarted, flows.size(), endPs, scenario.stopTimePs(),
            completed < flows.size() && endPs < scenario.stopTimePs(), c);
    }

    private long fwFaults() {
        return programs.provider() instanceof FirmwareProvider fp ? fp.faults() : 0;
    }

    private long fwBudget() {
        return programs.provider() instanceof FirmwareProvider fp ? fp.budgetExceeded() : 0;
    }

    /**
     * The lines the run summary ends with when flows did not finish: stalled flows (no byte
     * acknowledged for {@link StallReport#NO_PROGRESS_PS}) with what their congestion control last
     * did, or the unfinished flows still progressing and why the run ended.
     *
     * @return the report; empty lines when every flow completed
     * @throws IllegalStateException before {@link #run}
     */
    public StallReport stallReport() {
        if (stallReport == null) {
            throw new IllegalStateException("the run has not run yet");
        }
        return stallReport;
    }

    /**
     * The partitioned run's loop ({@link dev.nicsim.sim.PartitionedRun}): at every barrier the
     * deferred QP releases and the completions are merged; the run ends after the barrier at which
     * every flow has completed, at the last completion's time. Events of other partitions after that
     * time but inside that last window (less than one look-ahead) have run, so counters may include
     * them.
     *
     * @return the run's end time, ps
     */
    private long runPartitioned(final long stop, final LongConsumer progress) throws IOException {
        final IOException[] writeError = new IOException[1];
        final long[] nextProgressPs = {PROGRESS_STEP_PS};
        final long end;
        final dev.nicsim.sim.PartitionedRun pr = partitions.start(sim);
        if (partitionSamples != null) {
            final PartitionSamples samples = partitionSamples;
            final ThroughputSampler tput = throughput;
            pr.onWindowEnd((p, endPs) -> {
                samples.prepare(p, endPs);
                tput.prepare(p, endPs);
            });
        }
        try (pr) {
            end = pr.run(stop, e -> {
                partitions.merge(this);
                if (completed == flows.size()) {
                    return true;
                }
                if (e >= nextProgressPs[0]) {
                    nextProgressPs[0] = e + PROGRESS_STEP_PS;
                    progress.accept(completed);
                    try {
                        series.checkError();
                    } catch (final IOException ex) {
                        writeError[0] = ex;
                        return true;
                    }
                }
                return false;
            });
        }
        if (writeError[0] != null) {
            throw writeError[0];
        }
        progress.accept(completed);
        partitionFigures = new RunResult.PartitionFigures(partitions.plan.partitions(), pr.threads(),
            partitions.plan.hostsPerPartition(), partitions.cutLinkCount(), pr.lookAheadPs(), pr.windows());
        if (completed == flows.size()) {
            return lastCompletionPs;
        }
        return hasEvents() ? stop : end; // stopped at the stop time, or ran out of events
    }

    /** @return whether any partition or the global simulator still has an event */
    private boolean hasEvents() {
        if (sim.pending() > 0 || partitions.framesInFlight() > 0) {
            return true;
        }
        for (final Simulator s : partitions.sims) {
            if (s.pending() > 0) {
                return true;
            }
        }
        return false;
    }

    private RunResult.EmulatorFigures emulatorFigures() {
        long handled = 0;
        long coalesced = 0;
        final long[] dropped = new long[PccEventType.COUNT];
        double utilSum = 0;
        double maxCore = 0;
        int n = 0;
        final Histogram ns = new Histogram(2);
        final Histogram cycles = new Histogram(2);
        for (final UnicEmulator e : emulators) {
            if (e == null) {
                continue;
            }
            n++;
            for (int t = 0; t < PccEventType.COUNT; t++) {
                handled += e.handled(t);
                coalesced += e.coalesced(t);
                dropped[t] += e.dropped(t);
            }
            final long elapsed = Math.max(1, e.elapsedCycles());
            long busy = 0;
            for (int c = 0; c < e.cores(); c++) {
                busy += e.busyCycles(c);
                maxCore = Math.max(maxCore, e.busyCycles(c) / (double) elapsed);
            }
            utilSum += busy / ((double) elapsed * e.cores());
            ns.add(e.latencyNsHistogram());
            cycles.add(e.latencyCyclesHistogram());
        }
        if (n == 0) {
            return null;
        }
        return new RunResult.EmulatorFigures(handled, coalesced, dropped, utilSum / n, maxCore,
            ns.getValueAtPercentile(50), ns.getValueAtPercentile(99), cycles.getValueAtPercentile(50),
            cycles.getValueAtPercentile(99));
    }

    /**
     * Per-flow delivered payload bytes, as counted for {@code throughput.csv}.
     *
     * @return the run's throughput sampler
     */
    public ThroughputSampler throughput() {
        return throughput;
    }

    /**
     * The scenario's mailbox messages and the firmware's replies ({@code mailbox.csv}); complete after {@link #run}.
     *
     * @return the log (header only when the scenario has no messages)
     */
    public MailboxLog mailboxLog() {
        return mailboxLog;
    }

    /**
     * The firmware instance of a host's NIC that takes the host side's calls (core 0), for observers and
     * tests that read a program's globals ({@link FirmwareAlgorithm#symbolLoad}); callers must not call it.
     *
     * @param host host id, {@code 0 .. hostCount()-1}
     * @return the instance, or null when the run has no firmware
     */
    public FirmwareAlgorithm firmware(final int host) {
        return firmware[host];
    }

    /** @return every counter of the run (after {@link #run}) */
    public CounterRegistry counters() {
        return counters;
    }

    /**
     * The flows that completed, in completion order (flows completing at the same time in the order
     * the simulator delivered their last ACKs), as the HPCC ns-3 reference writes {@code fct.txt}.
     *
     * @return a new array of flow ids
     */
    public int[] completionOrder() {
        return java.util.Arrays.copyOf(completionOrder, completed);
    }

    /** @return the fabric's graph (hosts, switches, links, routes) */
    public TopologyGraph graph() {
        return graph;
    }

    /** @return number of flows in the workload */
    public int flowCount() {
        return flows.size();
    }

    /**
     * The simulator driving this run, for observers (acceptance tests): between construction and
     * {@link #run} an observer may schedule its own events on it to read switch or NIC state over
     * simulated time (e.g. an egress port's {@code txBytes()} every microsecond). An observer must
     * only read state; events that only read do not change the run's outcome, because events at
     * the same time keep their scheduling order. Not for production code paths.
     *
     * @return the run's simulator (time in ps)
     */
    public Simulator simulator() {
        if (partitions != null) {
            throw new IllegalStateException("simulator observers need --partitions 1 (this run has "
                + partitions.plan.partitions() + " partitions)");
        }
        return sim;
    }

    /** @return the programs this run executes (the algorithm's provider, the notification-point program) */
    public ScenarioPrograms programs() {
        return programs;
    }

    /** @return number of hosts (NICs), host ids {@code 0 .. hostCount()-1} */
    public int hostCount() {
        return nics.length;
    }

    /**
     * A host's NIC, for observers (e.g. a packet capture on its port, {@code nicsim run --pcap});
     * callers must not change its state.
     *
     * @param host host id, {@code 0 .. hostCount()-1}
     * @return the live NIC
     * @throws IllegalArgumentException if the host id is out of range
     */
    public RoceNic nic(final int host) {
        if (host < 0 || host >= nics.length) {
            throw new IllegalArgumentException("host: expected 0.." + (nics.length - 1) + ", got " + host);
        }
        return nics[host];
    }

    /**
     * The workload's flows, by flow id (a flow is one message; its size is the RETH DMA length a
     * packet capture writes on WRITE FIRST/ONLY packets).
     *
     * @return an unmodifiable list, index = flow id
     */
    public List<FlowSpec> flows() {
        return java.util.Collections.unmodifiableList(flows);
    }

    /**
     * The fabric's switches in topology order (index {@code s} is switch {@code s} of
     * {@link TopologyGraph}, e.g. {@code sw0} of a star, {@code left}/{@code right} of a dumbbell),
     * for observers that read queue depths, egress-port statistics and per-queue counters.
     *
     * @return an unmodifiable list of the live switch objects; callers must not change their state
     */
    public List<SwitchAsic> switches() {
        return List.of(switches);
    }
}
