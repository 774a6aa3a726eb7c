package dev.nicsim.scenario;

import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.pcc.Units;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code topology} (docs/scenarios.md, "topology"): a generated shape with its host and
 * fabric links, or an HPCC ns-3 topology file. Keys, ranges and defaults are the
 * {@link ScenarioSchema} rows.
 *
 * <p>Thread-safety: stateless.
 */
final class TopologySection {
    private TopologySection() {
    }

    /**
     * Reads the section.
     *
     * @param t            the {@code topology} mapping
     * @param scenarioFile the scenario file (relative paths start there)
     * @return the topology
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.Topology read(final YamlFields t, final Path scenarioFile) {
        final String type = t.choice("type");
        if ("file".equals(type)) {
            final Ns3Topology file = Ns3Topology.read(ScenarioLoader.resolve(t, "path", scenarioFile));
            t.finish();
            return fileTopology(file);
        }
        int hosts = 0;
        int perSide = 0;
        int leaves = 0;
        int spines = 0;
        int perLeaf = 0;
        int k = 0;
        switch (type) {
            case "star" -> hosts = (int) t.integer("hosts");
            case "dumbbell" -> perSide = (int) t.integer("hosts_per_side");
            case "leaf_spine" -> {
                leaves = (int) t.integer("leaves");
                spines = (int) t.integer("spines");
                perLeaf = (int) t.integer("hosts_per_leaf");
            }
            default -> {
                k = (int) t.integer("k");
                if (k % 2 != 0) {
                    throw t.fieldError("k", "expected an even k (a k-ary fat tree has k/2 up and k/2 down ports), got " + k);
                }
            }
        }
        final Scenario.Link host = link(t.childOrEmpty("host_link"), null);
        final Scenario.Link fabric = link(t.childOrEmpty("fabric_link"), host);
        t.finish();
        return new Scenario.Topology(type, hosts, perSide, leaves, spines, perLeaf, k, host, fabric);
    }

    /** A link mapping; the fabric link's defaults are the host link's ({@code def}), the host link's the rows'. */
    private static Scenario.Link link(final YamlFields l, final Scenario.Link def) {
        final long rate = def == null ? l.scaled("rate_gbps") : l.scaled("rate_gbps", Units.gbpsFromBitsPerSec(def.rateBitsPerSec()));
        final long delayPs = def == null ? l.scaled("delay_ns") : l.scaled("delay_ns", Units.nsFromPs(def.delayPs()));
        l.finish();
        return new Scenario.Link(rate, delayPs);
    }

    /**
     * The topology of {@code topology.type: file}: the ns-3 file translated into the generic node
     * and link list ({@link Scenario.Graph}).
     *
     * @param file the HPCC ns-3 topology file, read
     * @return the topology; its host link (for workloads that need one rate) is host 0's link
     * @throws ScenarioException naming the file and line of a link nicsim does not model
     *                           ({@link Ns3Topology#requireModelled()})
     */
    static Scenario.Topology fileTopology(final Ns3Topology file) {
        file.requireModelled();
        final int[] hostOfNode = new int[file.nodes()];
        for (int n = 0; n < hostOfNode.length; n++) {
            hostOfNode[n] = file.hostOf(n);
        }
        final int[] hostNode = new int[file.hosts()];
        for (int h = 0; h < hostNode.length; h++) {
            hostNode[h] = file.hostNode(h);
        }
        final List<Scenario.GraphLink> links = new ArrayList<>(file.links().size());
        // the host link of host 0 stands for "the host link" where a workload needs one rate (Poisson load)
        Scenario.Link host = null;
        for (final Ns3Topology.Link l : file.links()) {
            links.add(new Scenario.GraphLink(l.a(), l.b(), l.rateBitsPerSec(), l.delayPs()));
            if (file.hostOf(l.a()) == 0 || file.hostOf(l.b()) == 0) {
                host = new Scenario.Link(l.rateBitsPerSec(), l.delayPs());
            }
        }
        return new Scenario.Topology("file", file.hosts(), 0, 0, 0, 0, 0, host, host,
            new Scenario.Graph(file.file(), hostOfNode, hostNode, links));
    }

    /**
     * Number of hosts a topology has.
     *
     * @param t topology
     * @return host count
     */
    static int hostCount(final Scenario.Topology t) {
        return switch (t.type()) {
            case "star" -> t.hosts();
            case "dumbbell" -> 2 * t.hostsPerSide();
            case "leaf_spine" -> t.leaves() * t.hostsPerLeaf();
            case "file" -> t.file().hosts();
            default -> t.k() * t.k() * t.k() / 4;
        };
    }
}
