package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioPrograms;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.microcode.firmware.FirmwareNotificationPoint;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.microcode.firmware.NicPorts;
import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.microcode.trace.RecordingCcProcessor;
import dev.nicsim.nic.NicConfig;
import dev.nicsim.nic.NpProgram;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccIntHop;
import dev.nicsim.pcc.Units;
import dev.nicsim.sim.Counter;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;
import dev.nicsim.sw.SwitchConfig;
import dev.nicsim.sw.WredProfile;

import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Turns a scenario into the devices of one run ({@link Fabric}): the topology graph, one NIC per host and
 * one switch per switch node with the configurations {@link DeviceConfigs} maps, the links between them,
 * the ECMP routes, {@code switch.wred.by_rate}, the partitions of a partitioned run, one CC processor per
 * NIC (a direct processor or a uNIC emulator, optionally recording), the firmware's notification-point
 * program, and the per-host initial-PSN streams. Devices are created in host order, then switch order, so
 * their counters and random streams do not depend on anything else.
 *
 * <p>Thread-safety: one build per instance, on the calling thread.
 */
final class FabricBuilder {
    private final Scenario scenario;
    private final Simulator sim;
    private final CounterRegistry counters;
    private TopologyGraph graph;
    private PacketPool pool;
    private Partitions partitions;
    private RoceNic[] nics;
    private SwitchAsic[] switches;
    private FirmwareAlgorithm[] firmware;
    private final ScenarioPrograms programs;

    private FabricBuilder(final Scenario scenario, final ScenarioPrograms programs, final Simulator sim,
                          final CounterRegistry counters) {
        this.scenario = scenario;
        this.programs = programs;
        this.sim = sim;
        this.counters = counters;
    }

    /**
     * Builds the fabric of a scenario.
     *
     * @param scenario       the scenario
     * @param programs       its programs, {@link ScenarioPrograms#load}ed for this run
     * @param sim            the run's simulator (the global events' in a partitioned run)
     * @param counters       where every device registers its counters
     * @param traceListeners the listener of each host's processor, or null to record nothing
     * @param partitionCount partitions, {@code >= 1}
     * @param threads        threads to run them on, {@code 1 .. partitionCount}
     * @return the devices, wired and routed
     * @throws ScenarioException if a link rate has no HPCC INT code, the switch buffer cannot hold the PFC
     *                           headroom, or the fabric cannot be split into {@code partitionCount} partitions
     */
    static Fabric build(final Scenario scenario, final ScenarioPrograms programs, final Simulator sim, final CounterRegistry counters,
                        final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        return new FabricBuilder(scenario, programs, sim, counters).build(traceListeners, partitionCount, threads);
    }

    private Fabric build(final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        graph = TopologyGraph.build(scenario.topology());
        if (DeviceConfigs.usesInt(scenario)) {
            for (final TopologyGraph.Edge e : graph.edges()) {
                if (PccIntHop.rateCode(e.link().rateBitsPerSec()) < 0) {
                    throw new ScenarioException("topology: HPCC's INT hop records encode link"
                        + " rates of 10, 25, 40, 50, 100, 200, 400 and 800 Gb/s, got " + e.link().rateBitsPerSec() / 1e9 + " Gb/s");
                }
            }
        }
        final SwitchConfig swConfig = DeviceConfigs.switchConfig(scenario.switchSpec(), scenario.nic());
        final boolean hpccInt = DeviceConfigs.usesInt(scenario);
        swConfig.intEnabled = hpccInt;
        // IFA2 probes (firmware.probe.format: ifa2): switches stamp them; their records need the INT room
        final boolean ifa2 = scenario.probe().ifa2();
        swConfig.ifa2Enabled = ifa2;
        final boolean hopRoom = hpccInt || ifa2;
        // RCM flow IDs only where RCM runs, INT hop records only where HPCC runs or IFA2 probes go
        final PartitionPlan plan = PartitionPlan.of(graph, partitionCount);
        pool = new PacketPool(swConfig.rcm.anyEnabled(), hopRoom);
        partitions = partitionCount == 1 ? null
            : new Partitions(plan, p -> p == 0 ? pool : new PacketPool(swConfig.rcm.anyEnabled(), hopRoom), threads);
        final int hosts = graph.hosts();
        nics = new RoceNic[hosts];
        final CcProcessor[] processors = new CcProcessor[hosts];
        final NicConfig nicConfig = DeviceConfigs.nicConfig(scenario.nic());
        nicConfig.pathSeed = RngStreams.mix(scenario.seed() ^ 0x7061_7468L); // the spraying policies' QP streams ("path")
        if (ifa2) {
            nicConfig.probeIfa2HopLimit = scenario.probe().ifa2HopLimit();
            nicConfig.probeIfa2Gns = scenario.probe().ifa2Gns();
        }
        final SplittableRandom[] psnStreams =
            scenario.nic().initialPsn() == Scenario.NicSpec.RANDOM_PSN ? new SplittableRandom[hosts] : null;
        if (hpccInt) {
            nicConfig.intHeaderBytes = DeviceConfigs.INT_HEADER_BYTES;
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
        final long[][][] lastDepth = new long[switches.length][][];
        for (int s = 0; s < switches.length; s++) {
            lastDepth[s] = new long[graph.ports(hosts + s)][8];
        }
        for (final TopologyGraph.Edge e : graph.edges()) {
            attach(e.a(), e.portA(), e.b(), e.portB(), e);
            attach(e.b(), e.portB(), e.a(), e.portA(), e);
        }
        final PartitionSamples partitionSamples = partitions == null || !sampleInPartitions() ? null
            : new PartitionSamples(switches, nics, lastDepth, plan, hosts, partitions.sims);
        if (partitions != null) {
            partitions.cutLinks(graph, (node, port) -> node < hosts ? nics[node].port() : switches[node - hosts].egressPort(port));
        }
        for (int s = 0; s < switches.length; s++) {
            // one call per run of consecutive hosts with the same group, not one per host (docs/architecture.md)
            graph.routeRuns(hosts + s, switches[s]::setRoutes);
        }
        applyWredByRate(scenario.switchSpec());
        final UnicEmulator[] emulators = new UnicEmulator[hosts];
        firmware = new FirmwareAlgorithm[hosts];
        final EmulatorConfig emulatorConfig = DeviceConfigs.emulatorConfig(scenario.nic().emulator());
        for (int h = 0; h < hosts; h++) {
            final int host = h;
            final Function<CcResultSink, CcProcessor> make = sink -> {
                // one supplier per NIC: firmware instances of one NIC share its memory image; the first
                // (core 0) takes the host side's calls (mailbox messages, port-state changes)
                final Supplier<PccAlgorithm> instances =
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
        return new Fabric(graph, plan, partitions, nics, switches, emulators, firmware, lastDepth, partitionSamples,
            psnStreams);
    }

    /** @return whether a partitioned run's partitions take their shares of the samples ({@link Runner#SAMPLE_IN_PARTITIONS_PROPERTY}) */
    private static boolean sampleInPartitions() {
        return Boolean.parseBoolean(System.getProperty(Runner.SAMPLE_IN_PARTITIONS_PROPERTY, "true"));
    }

    private Simulator simOf(final int node) {
        return partitions == null ? sim : partitions.sims[partitions.plan.partitionOf(node)];
    }

    private PacketPool poolOf(final int node) {
        return partitions == null ? pool : partitions.pools[partitions.plan.partitionOf(node)];
    }

    /** Wraps a NIC's firmware instances so that the first one (core 0) is kept as the host's firmware. */
    private Supplier<PccAlgorithm> firstKept(final Supplier<PccAlgorithm> instances, final int host) {
        return () -> {
            final PccAlgorithm a = instances.get();
            if (firmware[host] == null) {
                firmware[host] = (FirmwareAlgorithm) a;
            }
            return a;
        };
    }

    /**
     * What firmware on host {@code h}'s NIC reads through DOCA's port queries and NIC counters: the
     * host link rate and the NIC's own {@code tx_bytes}/{@code rx_bytes} counters (frames, all traffic);
     * and, for fault records, the host index and the clock of the NIC's partition (the run's simulator
     * when not partitioned; at a barrier every partition's clock is the window's end, the global events' time).
     */
    private NicPorts nicPorts(final int h) {
        final Counter tx = counters.find(nics[h].name(), "tx_bytes");
        final Counter rx = counters.find(nics[h].name(), "rx_bytes");
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
    private static NpProgram npProgram(final FirmwareNotificationPoint.Nic fw) {
        return probe -> {
            final int o = fw.handle(probe.port, probe.requestSendNs, probe.srcHost, probe.dstHost, probe.udpSrcPort, probe.dscp,
                probe.ecn, probe.nowPs / Units.PS_PER_NS, probe.ifa2HopLimit, probe.ifa2Gns, probe.ifa2Records,
                probe.ifa2RecordCount);
            probe.word0 = fw.word0();
            probe.word1 = fw.word1();
            probe.word2 = fw.word2();
            probe.handlerPs = fw.lastPs();
            probe.cycles = fw.lastCycles();
            return switch (o) {
                case FirmwareNotificationPoint.OK -> NpProgram.OK;
                case FirmwareNotificationPoint.FAILED -> NpProgram.FAILED;
                case FirmwareNotificationPoint.FAULT -> NpProgram.FAULT;
                default -> NpProgram.BUDGET;
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
                throw new ScenarioException(scenario.file() + ": switch.buffer_bytes "
                    + scenario.switchSpec().bufferBytes() + " is too small: " + ex.getMessage() + "; raise switch.buffer_bytes"
                    + (scenario.switchSpec().pfcEnabled() ? " or lower switch.pfc.headroom_bytes" : ""));
            }
        }
    }
}
