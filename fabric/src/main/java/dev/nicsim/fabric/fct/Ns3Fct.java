package dev.nicsim.fabric.fct;

import dev.nicsim.fabric.run.FlowRecord;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.sim.RoceFraming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a run's {@code fct.txt} ({@link FctFile}): one per completed flow in completion
 * order. Node ids are the ns-3 node ids of a {@code topology.type: file} run (else the host ids);
 * ports are the flow file's destination port and {@code third.cc}'s source port (10000 + the
 * earlier flows of the pair) for a {@code workload.type: file} run, else 10000 + the earlier
 * flows of the pair and destination port 100 (what the reference's traffic generator writes);
 * {@code standalone_fct} is the reference's formula ({@link Ns3Paths#standaloneFctNs}) with
 * nicsim's wire bytes per packet beyond the payload (RoCEv2 headers, FCS, preamble and
 * inter-frame gap: 86 bytes, against ns-3's 48), so that each simulator's slowdown is against
 * its own packets.
 *
 * <p>Thread-safety: stateless.
 */
public final class Ns3Fct {
    /** Destination port written for flows that do not come from an ns-3 flow file. */
    public static final int DEFAULT_DST_PORT = 100;

    private Ns3Fct() {
    }

    /**
     * Wire bytes per data packet beyond the payload, as nicsim serialises a WRITE MIDDLE packet.
     *
     * @param mtuBytes payload bytes per packet
     * @return bytes
     */
    public static int headerBytes(final int mtuBytes) {
        return RoceFraming.frameBytes(mtuBytes, 0) - mtuBytes + RoceFraming.PREAMBLE_IFG_BYTES;
    }

    /**
     * Builds the rows.
     *
     * @param scenario the run's scenario
     * @param graph    its fabric
     * @param records  outcome per flow, by flow id
     * @param order    completed flow ids in completion order
     * @return the rows in completion order
     */
    public static List<FctFile.Row> rows(final Scenario scenario, final TopologyGraph graph, final List<FlowRecord> records,
                                         final int[] order) {
        final Scenario.Graph topo = scenario.topology().file();
        final Ns3Flows file = scenario.workload().file();
        final int mtu = scenario.nic().mtuBytes();
        final Ns3Paths paths = new Ns3Paths(graph, mtu);
        final int header = headerBytes(mtu);
        final int[] srcPort = new int[records.size()];
        final int[] dstPort = new int[records.size()];
        final Map<Long, Integer> next = new HashMap<>();
        for (final FlowRecord r : records) {
            if (file != null) {
                srcPort[r.flowId()] = file.flows().get(r.flowId()).srcPort();
                dstPort[r.flowId()] = file.flows().get(r.flowId()).dstPort();
            } else {
                srcPort[r.flowId()] = next.merge(((long) r.src() << 32) | r.dst(), 1, Integer::sum) - 1
                    + Ns3Flows.FIRST_SOURCE_PORT;
                dstPort[r.flowId()] = DEFAULT_DST_PORT;
            }
        }
        final List<FctFile.Row> out = new ArrayList<>(order.length);
        for (final int id : order) {
            final FlowRecord r = records.get(id);
            final int srcNode = topo != null ? topo.hostNode(r.src()) : r.src();
            final int dstNode = topo != null ? topo.hostNode(r.dst()) : r.dst();
            out.add(new FctFile.Row(FctFile.nodeIp(srcNode), FctFile.nodeIp(dstNode), srcPort[id] & 0xFFFF, dstPort[id],
                r.sizeBytes(), r.startNs(), r.fctNs(), paths.standaloneFctNs(r.src(), r.dst(), r.sizeBytes(), header), 0));
        }
        return out;
    }
}
