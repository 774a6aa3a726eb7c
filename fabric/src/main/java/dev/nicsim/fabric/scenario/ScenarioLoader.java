package dev.nicsim.fabric.scenario;

import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameterValues;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a scenario YAML file, applies {@code --set path=value} overrides, and validates every field
 * into a {@link Scenario}. Unknown, missing and out-of-range fields give a {@link ScenarioException}
 * naming the file, line and field path. Fields, units and defaults are listed in README.md.
 *
 * <p>Thread-safety: stateless.
 */
public final class ScenarioLoader {
    /** Mark name given to nodes created by {@code --set}, so errors name the override. */
    public static final String OVERRIDE_MARK = "--set";
    private static final long PS_PER_NS = 1_000L;
    private static final long PS_PER_US = 1_000_000L;

    private ScenarioLoader() {
    }

    /**
     * Loads a scenario.
     *
     * @param file      the YAML file
     * @param overrides {@code path=value} strings, applied in order (a value may be a YAML list such as {@code [3,4]})
     * @param seed      seed that replaces the file's, or null to keep it
     * @return the validated scenario
     * @throws ScenarioException on any bad input, with a one-line message
     */
    public static Scenario load(final Path file, final List<String> overrides, final Long seed) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new ScenarioException(file + ": no such scenario file");
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
        final Node root = compose(file.toString(), new StringReader(text));
        if (root == null) {
            throw new ScenarioException(file + ":1: the scenario is empty");
        }
        for (final String o : overrides) {
            applyOverride(file.toString(), root, o);
        }
        final YamlFields f = new YamlFields(file.toString(), "", root);
        final Scenario s = build(file, f, seed);
        f.finish();
        return s;
    }

    private static Node compose(final String name, final Reader reader) {
        try {
            final LoaderOptions lo = new LoaderOptions();
            lo.setAllowDuplicateKeys(true); // reported by YamlFields with the field path
            return new Yaml(lo).compose(reader);
        } catch (final MarkedYAMLException e) {
            final Mark m = e.getProblemMark();
            throw new ScenarioException(name + ":" + (m == null ? 1 : m.getLine() + 1) + ": not valid YAML: "
                + String.valueOf(e.getProblem()).replace('\n', ' '));
        } catch (final YAMLException e) {
            throw new ScenarioException(name + ": not valid YAML: " + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
    }

    /**
     * Applies one {@code path=value} override to a composed document.
     *
     * @param file     file name for messages
     * @param root     document root
     * @param override the override text
     * @throws ScenarioException if the text is not {@code path=value} or the path crosses a non-mapping
     */
    static void applyOverride(final String file, final Node root, final String override) {
        final int eq = override.indexOf('=');
        if (eq <= 0) {
            throw new ScenarioException("--set " + override + ": expected path=value, e.g. workload.load=0.3");
        }
        final String path = override.substring(0, eq).trim();
        final String value = override.substring(eq + 1).trim();
        final String[] keys = path.split("\\.");
        final Mark mark = new Mark(OVERRIDE_MARK, 0, 0, 0, new int[0], 0);
        Node valueNode = compose(OVERRIDE_MARK + " " + path, new StringReader(value));
        if (valueNode == null) {
            valueNode = new ScalarNode(Tag.STR, "", mark, mark, DumperOptions.ScalarStyle.PLAIN);
        }
        valueNode = remark(valueNode, mark);
        Node cur = root;
        for (int i = 0; i < keys.length; i++) {
            if (!(cur instanceof MappingNode m)) {
                throw new ScenarioException("--set " + path + ": " + String.join(".", java.util.Arrays.copyOf(keys, i))
                    + " is not a mapping of fields");
            }
            final String key = keys[i];
            NodeTuple found = null;
            int idx = -1;
            for (int j = 0; j < m.getValue().size(); j++) {
                final NodeTuple t = m.getValue().get(j);
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                    found = t;
                    idx = j;
                }
            }
            final boolean last = i == keys.length - 1;
            if (last) {
                final NodeTuple nt = new NodeTuple(new ScalarNode(Tag.STR, key, mark, mark, DumperOptions.ScalarStyle.PLAIN), valueNode);
                if (idx >= 0) {
                    m.getValue().set(idx, nt);
                } else {
                    m.getValue().add(nt);
                }
            } else if (found == null) {
                final MappingNode child = new MappingNode(Tag.MAP, true, new ArrayList<>(), mark, mark, DumperOptions.FlowStyle.BLOCK);
                m.getValue().add(new NodeTuple(new ScalarNode(Tag.STR, key, mark, mark, DumperOptions.ScalarStyle.PLAIN), child));
                cur = child;
            } else {
                cur = found.getValueNode();
            }
        }
    }

    private static Node remark(final Node n, final Mark mark) {
        if (n instanceof ScalarNode s) {
            return new ScalarNode(s.getTag(), s.getValue(), mark, mark, s.getScalarStyle());
        }
        if (n instanceof org.yaml.snakeyaml.nodes.SequenceNode q) {
            final List<Node> items = new ArrayList<>();
            for (final Node c : q.getValue()) {
                items.add(remark(c, mark));
            }
            return new org.yaml.snakeyaml.nodes.SequenceNode(q.getTag(), true, items, mark, mark, q.getFlowStyle());
        }
        if (n instanceof MappingNode mm) {
            final List<NodeTuple> items = new ArrayList<>();
            for (final NodeTuple t : mm.getValue()) {
                items.add(new NodeTuple(remark(t.getKeyNode(), mark), remark(t.getValueNode(), mark)));
            }
            return new MappingNode(mm.getTag(), true, items, mark, mark, mm.getFlowStyle());
        }
        return n;
    }

    private static Scenario build(final Path file, final YamlFields f, final Long seedOverride) {
        final String defaultName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        final String name = f.string("name", defaultName);
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw f.fieldError("name", "expected letters, digits, '.', '_' or '-' only, got '" + name + "'");
        }
        final long fileSeed = f.integer("seed", 1, 0, Long.MAX_VALUE);
        final long seed = seedOverride != null ? seedOverride : fileSeed;
        final long stopPs = Math.round(f.number("stop_time_us", 100_000, 0.001, 100_000_000) * PS_PER_US);

        final Scenario.Topology topology = topology(f.child("topology"));
        final Scenario.NicSpec nic = nic(f.childOrEmpty("nic"));
        final Scenario.SwitchSpec sw = switchSpec(f.childOrEmpty("switch"), nic);
        final Scenario.Algorithm algorithm = algorithm(f.child("algorithm"));
        final Scenario.Workload workload = workload(f.child("workload"), file, topology);
        final YamlFields s = f.childOrEmpty("sampling");
        final Scenario.Sampling sampling = new Scenario.Sampling(
            Math.round(s.number("queue_interval_us", 10, 0.01, 1_000_000) * PS_PER_US),
            Math.round(s.number("rate_interval_us", 10, 0.01, 1_000_000) * PS_PER_US));
        s.finish();
        return new Scenario(name, file, seed, stopPs, topology, sw, nic, algorithm, workload, sampling);
    }

    private static Scenario.Link link(final YamlFields l, final Scenario.Link def) {
        final double gbps = l.number("rate_gbps", def == null ? 100 : def.rateBitsPerSec() / 1e9, 0.001, 1600);
        final double delayNs = l.number("delay_ns", def == null ? 1000 : def.delayPs() / (double) PS_PER_NS, 0, 1e9);
        l.finish();
        return new Scenario.Link(Math.round(gbps * 1e9), Math.round(delayNs * PS_PER_NS));
    }

    private static Scenario.Topology topology(final YamlFields t) {
        final String type = t.oneOf("type", "star", "dumbbell", "leaf_spine", "fat_tree");
        int hosts = 0;
        int perSide = 0;
        int leaves = 0;
        int spines = 0;
        int perLeaf = 0;
        int k = 0;
        switch (type) {
            case "star" -> hosts = (int) t.integer("hosts", 2, 256);
            case "dumbbell" -> perSide = (int) t.integer("hosts_per_side", 1, 256);
            case "leaf_spine" -> {
                leaves = (int) t.integer("leaves", 1, 256);
                spines = (int) t.integer("spines", 1, 256);
                perLeaf = (int) t.integer("hosts_per_leaf", 1, 256);
            }
            default -> {
                k = (int) t.integer("k", 2, 64);
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

    private static Scenario.NicSpec nic(final YamlFields n) {
        final Scenario.NicSpec spec = new Scenario.NicSpec(
            (int) n.integer("mtu_bytes", 1024, 256, 9000),
            (int) n.integer("ack_every_packets", 1, 1, 1024),
            Math.round(n.number("cnp_interval_us", 4, 0, 1_000_000) * 1000),
            n.bool("np_enabled", true),
            Math.round(n.number("rto_us", 1000, 1, 10_000_000) * 1000),
            (int) n.integer("tx_burst_packets", 8, 1, 1024),
            (int) n.integer("data_priority", 3, 0, 7),
            (int) n.integer("data_dscp", 26, 0, 63),
            (int) n.integer("cnp_priority", 6, 0, 7),
            (int) n.integer("cnp_dscp", 48, 0, 63));
        n.finish();
        return spec;
    }

    private static Scenario.SwitchSpec switchSpec(final YamlFields s, final Scenario.NicSpec nic) {
        final long buffer = s.integer("buffer_bytes", 32L << 20, 10_000, 1L << 34);
        final YamlFields p = s.childOrEmpty("pfc");
        final boolean pfcOn = p.bool("enabled", false);
        final int[] pfcPrios = p.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        final boolean dynamic = "dynamic".equals(p.oneOfOr("mode", "dynamic", "static", "dynamic"));
        final long xoff = p.integer("xoff_bytes", 256L * 1024, 1, buffer);
        final long xon = p.integer("xon_bytes", 128L * 1024, 0, buffer);
        if (xon > xoff) {
            throw p.fieldError("xon_bytes", "expected xon_bytes <= xoff_bytes (" + xoff + "), got " + xon);
        }
        final double alpha = p.number("alpha", 1.0 / 8, 1.0 / 1024, 64);
        final long xonOffset = p.integer("xon_offset_bytes", 3072, 0, buffer);
        final long headroom = p.integer("headroom_bytes", -1, 0, buffer);
        p.finish();
        final YamlFields w = s.childOrEmpty("wred");
        final int[] wredPrios = w.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        final long kmin = w.integer("kmin_bytes", 100_000, 0, buffer);
        final long kmax = w.integer("kmax_bytes", 400_000, 0, buffer);
        if (kmax < kmin) {
            throw w.fieldError("kmax_bytes", "expected kmax_bytes >= kmin_bytes (" + kmin + "), got " + kmax);
        }
        final double pmax = w.number("pmax", 0.2, 0, 1);
        final boolean ecn = w.bool("ecn", true);
        final long notEctK = w.integer("not_ect_drop_bytes", kmin, 0, buffer);
        w.finish();
        final YamlFields e = s.childOrEmpty("egress");
        final boolean egressDynamic = "dynamic".equals(e.oneOfOr("mode", "dynamic", "static", "dynamic"));
        final long queueLimit = e.integer("queue_limit_bytes", 1L << 20, 1, buffer);
        final double egressAlpha = e.number("alpha", 1.0, 1.0 / 1024, 64);
        e.finish();
        final int[] strict = s.intList("strict_priorities", new int[] {6, 7}, 0, 7);
        final YamlFields c = s.childOrEmpty("cam");
        final int camDepth = (int) c.integer("depth", 16, 1, 4096);
        final int camSample = (int) c.integer("sample_every_packets", 1, 1, 1_000_000);
        c.finish();
        s.finish();
        return new Scenario.SwitchSpec(buffer, pfcOn, pfcPrios, dynamic, xoff, xon, alpha, xonOffset, headroom, wredPrios,
            kmin, kmax, pmax, ecn, notEctK, egressDynamic, queueLimit, egressAlpha, strict, camDepth, camSample);
    }

    private static Scenario.Algorithm algorithm(final YamlFields a) {
        final String name = a.string("name");
        final PccAlgorithmProvider provider;
        try {
            provider = PccAlgorithms.byName(name);
        } catch (final IllegalArgumentException e) {
            throw a.fieldError("name", e.getMessage());
        }
        final PccParameterValues values = provider.defaults();
        final YamlFields params = a.childOrEmpty("params");
        for (final Map.Entry<String, String> e : params.scalars().entrySet()) {
            final double v;
            try {
                v = Double.parseDouble(e.getValue());
            } catch (final NumberFormatException ex) {
                throw params.fieldError(e.getKey(), "expected a number, got '" + e.getValue() + "'");
            }
            try {
                values.set(e.getKey(), v);
            } catch (final IllegalArgumentException ex) {
                throw params.fieldError(e.getKey(), ex.getMessage());
            }
        }
        a.finish();
        return new Scenario.Algorithm(provider, values);
    }

    private static Scenario.Workload workload(final YamlFields w, final Path scenarioFile, final Scenario.Topology topo) {
        final String type = w.oneOf("type", "incast", "permutation", "poisson");
        final String op = w.oneOfOr("op", "write", "write", "send", "read");
        final long startPs = Math.round(w.number("start_us", 0, 0, 1e9) * PS_PER_US);
        final int hosts = hostCount(topo);
        int senders = 0;
        int receiver = 0;
        long size = 0;
        double load = 0;
        FlowSizeCdf cdf = null;
        int flows = 0;
        switch (type) {
            case "incast" -> {
                senders = (int) w.integer("senders", 1, hosts - 1);
                receiver = (int) w.integer("receiver", hosts - 1, 0, hosts - 1);
                size = w.integer("size_bytes", 1, 1L << 40);
            }
            case "permutation" -> size = w.integer("size_bytes", 1, 1L << 40);
            default -> {
                load = w.number("load", 0.000001, 1.0);
                flows = (int) w.integer("flows", 1, 10_000_000);
                final String cdfName = w.string("cdf");
                // relative paths are taken relative to the scenario file first, then the current directory
                final Path dirOfScenario = scenarioFile.toAbsolutePath().getParent();
                Path p = dirOfScenario.resolve(cdfName);
                if (!Files.exists(p)) {
                    p = Path.of(cdfName);
                }
                if (!Files.exists(p)) {
                    throw w.fieldError("cdf", "no such file '" + cdfName + "' (looked next to the scenario and in the current directory)");
                }
                cdf = FlowSizeCdf.load(p);
            }
        }
        w.finish();
        return new Scenario.Workload(type, op, senders, receiver, size, startPs, load, cdf, flows);
    }

    /**
     * Number of hosts a topology has.
     *
     * @param t topology
     * @return host count
     */
    public static int hostCount(final Scenario.Topology t) {
        return switch (t.type()) {
            case "star" -> t.hosts();
            case "dumbbell" -> 2 * t.hostsPerSide();
            case "leaf_spine" -> t.leaves() * t.hostsPerLeaf();
            default -> t.k() * t.k() * t.k() / 4;
        };
    }
}
