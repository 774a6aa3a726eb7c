package dev.nicsim.scenario;

import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.Units;
import dev.nicsim.sim.RoceFraming;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code workload} (docs/scenarios.md, "workload"): incast, permutation, Poisson and hotspot
 * arrivals, an explicit flow list, or an HPCC ns-3 flow file. Keys, ranges and defaults are the
 * {@link ScenarioSchema} rows; a bound that depends on the topology (host ids) is passed here.
 *
 * <p>Thread-safety: stateless.
 */
final class WorkloadSection {
    private WorkloadSection() {
    }

    /**
     * Reads the section.
     *
     * @param w            the {@code workload} mapping
     * @param scenarioFile the scenario file (relative paths start there)
     * @param topo         the topology (host ids, the host link rate of {@code burst_us})
     * @param nic          the NIC settings (MTU of {@code burst_us}; the data priority of file flows)
     * @return the workload
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.Workload read(final YamlFields w, final Path scenarioFile, final Scenario.Topology topo,
                                  final Scenario.NicSpec nic) {
        final String type = w.choice("type");
        final String op = w.choice("op");
        final long startPs = w.scaled("start_us");
        final int hosts = TopologySection.hostCount(topo);
        int senders = 0;
        int receiver = 0;
        long size = 0;
        double load = 0;
        FlowSizeCdf cdf = null;
        int flows = 0;
        double hotFraction = 0;
        double hotHostsFraction = 0;
        List<FlowSpec> list = List.of();
        Ns3Flows file = null;
        switch (type) {
            case "incast" -> {
                senders = (int) w.integerIn("senders", 1, hosts - 1);
                receiver = (int) w.integer("receiver", hosts - 1, 0, hosts - 1);
                size = w.integer("size_bytes");
            }
            case "permutation" -> size = w.integer("size_bytes");
            case "flows" -> list = flowList(w, hosts, startPs, topo, nic);
            case "file" -> {
                file = Ns3Flows.read(ScenarioLoader.resolve(w, "path", scenarioFile), RoceNic.MAX_MESSAGE_BYTES);
                list = fileFlows(file, topo, nic, startPs);
            }
            default -> {
                load = w.number("load");
                flows = (int) w.integer("flows");
                if (w.has("cdf") && w.has("size_bytes")) {
                    throw w.fieldError("size_bytes", "give either cdf (a flow-size CDF file) or size_bytes (one fixed size), not both");
                }
                if (w.has("size_bytes")) {
                    size = w.integer("size_bytes");
                } else {
                    if (!w.has("cdf")) {
                        throw w.fieldError("cdf", "missing required field: give cdf (a flow-size CDF file) or size_bytes (one fixed size)");
                    }
                    cdf = FlowSizeCdf.load(ScenarioLoader.resolve(w, "cdf", scenarioFile));
                }
                if ("hotspot".equals(type)) {
                    hotFraction = w.number("hot_fraction");
                    hotHostsFraction = w.number("hot_hosts_fraction");
                    final int hot = hotHostCount(hotHostsFraction, hosts);
                    if (hot < 2 || hot > hosts - 1) {
                        throw w.fieldError("hot_hosts_fraction", "expected a fraction giving 2.." + (hosts - 1) + " of the " + hosts
                            + " hosts (round(fraction x hosts)), got " + hotHostsFraction + " (" + hot + " hosts)");
                    }
                }
            }
        }
        w.finish();
        return new Scenario.Workload(type, op, senders, receiver, size, startPs, load, cdf, flows, hotFraction, hotHostsFraction,
            list, file);
    }

    /**
     * The flows of an HPCC ns-3 flow file: ns-3 node ids mapped to hosts (through the topology file,
     * or taken as host ids on a generated shape), start = the file's (ns-3-truncated) start plus
     * {@code workload.start_us}, every flow on {@code nic.data_priority}.
     *
     * @param file     the flow file, read
     * @param topo     the topology its node ids refer to
     * @param nic      the NIC settings
     * @param offsetPs added to every flow's start, ps
     * @return the flows, flow id = line order
     * @throws ScenarioException naming the file and line of a flow from a switch or on another priority
     */
    static List<FlowSpec> fileFlows(final Ns3Flows file, final Scenario.Topology topo, final Scenario.NicSpec nic,
                                    final long offsetPs) {
        final int hosts = TopologySection.hostCount(topo);
        final List<FlowSpec> out = new ArrayList<>(file.flows().size());
        for (final Ns3Flows.Flow f : file.flows()) {
            final int src = fileHost(file, f, f.srcNode(), "src", topo, hosts);
            final int dst = fileHost(file, f, f.dstNode(), "dst", topo, hosts);
            if (f.priorityGroup() != nic.dataPriority()) {
                throw new ScenarioException(file.file() + ":" + f.line() + ": priority_group: every flow runs on"
                    + " nic.data_priority (" + nic.dataPriority() + "), got " + f.priorityGroup());
            }
            out.add(new FlowSpec(out.size(), src, dst, f.sizeBytes(), offsetPs + f.startNs() * Units.PS_PER_NS));
        }
        return out;
    }

    private static int fileHost(final Ns3Flows file, final Ns3Flows.Flow f, final int node, final String field,
                                final Scenario.Topology topo, final int hosts) {
        final int host = topo.file() != null ? topo.file().hostOf(node) : node < hosts ? node : -1;
        if (host < 0) {
            throw new ScenarioException(file.file() + ":" + f.line() + ": " + field + ": expected a host node id"
                + (topo.file() != null ? " of " + topo.file().file() + " (" + node + (node < topo.file().nodes()
                ? " is a switch)" : " is not a node)") : " in 0.." + (hosts - 1) + ", got " + node));
        }
        return host;
    }

    /**
     * Hosts in a hotspot workload's hot set: {@code round(fraction x hosts)}.
     *
     * @param fraction {@code workload.hot_hosts_fraction}
     * @param hosts    hosts of the topology
     * @return the number of hot hosts
     */
    static int hotHostCount(final double fraction, final int hosts) {
        return (int) Math.round(fraction * hosts);
    }

    /**
     * The entries of a {@code flows} workload: {@code src}, {@code dst}, {@code start_us} (plus
     * {@code workload.start_us}), {@code size_bytes} or {@code burst_us}, {@code class}.
     */
    private static List<FlowSpec> flowList(final YamlFields w, final int hosts, final long offsetPs,
                                           final Scenario.Topology topo, final Scenario.NicSpec nic) {
        final List<YamlFields> entries = w.mappings("flows");
        final List<FlowSpec> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            final YamlFields e = entries.get(i);
            final int src = (int) e.integerIn("src", 0, hosts - 1);
            final int dst = (int) e.integerIn("dst", 0, hosts - 1);
            if (dst == src) {
                throw e.fieldError("dst", "expected a host other than src (" + src + "), got " + dst);
            }
            final long startPs = offsetPs + e.scaled("start_us");
            final long size;
            if (e.has("size_bytes") && e.has("burst_us")) {
                throw e.fieldError("burst_us", "give either size_bytes or burst_us, not both");
            }
            if (e.has("burst_us")) {
                size = burstBytes(e.scaled("burst_us"), topo.hostLink().rateBitsPerSec(), nic.mtuBytes());
            } else {
                if (!e.has("size_bytes")) {
                    throw e.fieldError("size_bytes", "missing required field: give size_bytes or burst_us");
                }
                size = e.integer("size_bytes");
            }
            final String cls = e.string("class", FlowSpec.DEFAULT_CLASS);
            if (!cls.matches("[A-Za-z0-9_-]+")) {
                throw e.fieldError("class", "expected letters, digits, '_' or '-' only, got '" + cls + "'");
            }
            e.finish();
            out.add(new FlowSpec(i, src, dst, size, startPs, cls));
        }
        return out;
    }

    /**
     * Size of a {@code burst_us} flow: the full-MTU data packets (WRITE MIDDLE frames,
     * {@code frameBytes(mtu, 0)}) a host link serialises back to back in the burst time, times the
     * MTU; at least one packet. Example: 20 us at 100 Gb/s with a 4096-byte MTU: a frame of 4096 +
     * 66 bytes plus 20 of preamble and gap takes 334.56 ns, so 59 packets, 241 664 bytes.
     *
     * @param burstPs        burst duration, ps
     * @param rateBitsPerSec host link rate
     * @param mtuBytes       payload bytes per packet
     * @return message size, bytes
     */
    static long burstBytes(final long burstPs, final long rateBitsPerSec, final int mtuBytes) {
        final long perPacketPs = RoceFraming.serializationPs(RoceFraming.frameBytes(mtuBytes, 0), rateBitsPerSec);
        return Math.max(1, burstPs / perPacketPs) * mtuBytes;
    }
}
