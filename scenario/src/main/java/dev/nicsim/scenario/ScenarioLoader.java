package dev.nicsim.scenario;

import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sw.RcmConfig;
import dev.nicsim.sw.SwitchConfig;
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
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a scenario YAML file, applies {@code --set path=value} overrides, and validates every field
 * into a {@link Scenario}. Unknown, missing and out-of-range fields give a {@link ScenarioException}
 * naming the file, line and field path. Fields, units, ranges and defaults are listed in docs/scenarios.md.
 *
 * <p>Thread-safety: stateless.
 */
public final class ScenarioLoader {
    /** Mark name given to nodes created by {@code --set}, so errors name the override. */
    public static final String OVERRIDE_MARK = "--set";
    /** {@code stop_time_us} when a scenario gives none, us. */
    public static final double DEFAULT_STOP_TIME_US = 100_000;
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
            throw new ScenarioException(file + ": cannot read: " + dev.nicsim.riscv.IoReasons.why(e));
        }
        return parse(file, text, overrides, seed);
    }

    /**
     * Loads a scenario whose text is already in memory (what {@link #load} does after reading the
     * file). The file's path still names it in messages, gives the default name, and is where files
     * the scenario names ({@code topology.path}, {@code algorithm.firmware}, ...) are looked for.
     *
     * @param file      the scenario's path (not read)
     * @param text      the YAML text
     * @param overrides {@code path=value} strings, applied in order
     * @param seed      seed that replaces the file's, or null to keep it
     * @return the validated scenario
     * @throws ScenarioException on any bad input, with a one-line message
     */
    public static Scenario parse(final Path file, final String text, final List<String> overrides, final Long seed) {
        final Node root = compose(file.toString(), text);
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

    /**
     * The largest YAML input read (a scenario, a mailbox file, a {@code --set} value), in Unicode
     * code points: 256 Mi (268,435,456), 256 MiB of ASCII text. SnakeYAML's own default, 3 Mi code
     * points, refused scenarios of some 70,000 explicit flows; this limit is set far above any
     * scenario that fits a heap, and a larger file is refused in one line saying so.
     */
    public static final int MAX_YAML_CODE_POINTS = 256 << 20;

    /**
     * Refuses a YAML text of more than {@code limit} code points, in one line naming the limit.
     *
     * @param name  the input's name for the message
     * @param text  the text
     * @param limit the most code points taken
     * @throws ScenarioException if the text is longer
     */
    static void checkCodePoints(final String name, final String text, final int limit) {
        if (text.length() > limit && text.codePointCount(0, text.length()) > limit) {
            throw new ScenarioException(name + ": the file holds " + text.codePointCount(0, text.length())
                + " characters, more than the " + limit + " a YAML input may hold (" + (limit >> 20) + " Mi); split it");
        }
    }

    private static Node compose(final String name, final String text) {
        checkCodePoints(name, text, MAX_YAML_CODE_POINTS);
        try {
            final LoaderOptions lo = new LoaderOptions();
            lo.setAllowDuplicateKeys(true); // reported by YamlFields with the field path
            lo.setCodePointLimit(MAX_YAML_CODE_POINTS);
            return new Yaml(lo).compose(new StringReader(text));
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
        final String[] keys = path.split("\\.", -1);
        for (final String k : keys) {
            if (k.isBlank()) { // ".", "..", "a..b", "a.": never a field (it was ignored silently)
                throw new ScenarioException("--set " + override + ": the path '" + path + "' has an empty field name;"
                    + " expected dotted field names, e.g. workload.load=0.3");
            }
        }
        final Mark mark = new Mark(OVERRIDE_MARK, 0, 0, 0, new int[0], 0);
        Node valueNode = compose(OVERRIDE_MARK + " " + path, value);
        final boolean noValue = valueNode == null || valueNode instanceof ScalarNode sc && sc.getValue().isEmpty()
            && sc.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
        if (noValue && !value.isBlank()) { // '---', '...', '# x': markers and comments, no value
            throw new ScenarioException("--set " + override + ": the value '" + value + "' holds no YAML value (a document"
                + " marker or a comment); quote it to give it as text, e.g. --set \"" + path + "='" + value.replace("'", "''")
                + "'\"");
        }
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
        if (n instanceof SequenceNode q) {
            final List<Node> items = new ArrayList<>();
            for (final Node c : q.getValue()) {
                items.add(remark(c, mark));
            }
            return new SequenceNode(q.getTag(), true, items, mark, mark, q.getFlowStyle());
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
        // the name becomes the directory out/<name>: no separators, and never . or ..
        if (!name.matches("[A-Za-z0-9._-]+") || name.equals(".") || name.equals("..")) {
            throw f.fieldError("name", "expected letters, digits, '.', '_' or '-' only (and not . or ..), got '" + name + "'");
        }
        final long fileSeed = f.integer("seed", 1, 0, Long.MAX_VALUE);
        final long seed = seedOverride != null ? seedOverride : fileSeed;
        final long stopPs = Math.round(f.number("stop_time_us", DEFAULT_STOP_TIME_US, 0.001, 100_000_000) * PS_PER_US);

        final Scenario.Topology topology = topology(f.child("topology"), file);
        final boolean firmware = f.has("algorithm") && f.child("algorithm").has("firmware");
        final Scenario.NicSpec nic = nic(f.childOrEmpty("nic"), firmware);
        final Scenario.SwitchSpec sw = switchSpec(f.childOrEmpty("switch"), nic, topology);
        final Scenario.Algorithm algorithm = algorithm(f.child("algorithm"), file, nic.emulator());
        final Scenario.Workload workload = workload(f.child("workload"), file, topology, nic);
        final YamlFields s = f.childOrEmpty("sampling");
        final Scenario.Sampling sampling = new Scenario.Sampling(
            Math.round(s.number("queue_interval_us", 10, 0.01, 1_000_000) * PS_PER_US),
            Math.round(s.number("rate_interval_us", 10, 0.01, 1_000_000) * PS_PER_US),
            Math.round(s.number("throughput_interval_us", 10, 0.01, 1_000_000) * PS_PER_US),
            s.bool("throughput_chart", false), s.bool("charts", false));
        s.finish();
        // host-side DOCA PCC actions (issue 22): mailbox messages to the firmware; host link state changes
        final YamlFields fw = f.childOrEmpty("firmware");
        final List<Scenario.MailboxMessage> mailbox = mailbox(fw.mappingsOrEmpty("mailbox"), hostCount(topology) - 1,
            stopPs);
        requireMailboxHandler(fw, mailbox, algorithm);
        // the notification-point program (issue 22 item 5); reads firmware.np and finishes the firmware block
        final Scenario.Probe probe = probe(fw.childOrEmpty("probe"));
        final Scenario.NpFirmware np = npFirmware(fw, file, algorithm, nic.emulator(), probe);
        final List<Scenario.LinkEvent> linkEvents = linkEvents(f.mappingsOrEmpty("link_events"), hostCount(topology), stopPs);
        return new Scenario(name, file, seed, stopPs, topology, sw, nic, algorithm, workload, sampling, mailbox, linkEvents,
            np, probe);
    }

    /**
     * Reads a file of host mailbox messages ({@code nicsim replay --firmware ELF --mailbox FILE}): a YAML
     * mapping whose one field {@code mailbox} lists entries as a scenario's {@code firmware.mailbox}
     * does (docs/scenarios.md), {@code nic} naming a source (NIC) of the replay.
     *
     * @param file the file
     * @return the messages in time order (file order among equal times)
     * @throws ScenarioException one line naming the file, line and field of any bad input
     */
    public static List<Scenario.MailboxMessage> mailboxFile(final Path file) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new ScenarioException(file + ": no such mailbox file");
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read: " + dev.nicsim.riscv.IoReasons.why(e));
        }
        final Node root = compose(file.toString(), text);
        if (root == null) {
            throw new ScenarioException(file + ":1: the mailbox file is empty; expected 'mailbox:' and a list of messages");
        }
        if (!(root instanceof MappingNode)) {
            throw new ScenarioException(file + ":" + (root.getStartMark().getLine() + 1) + ": the mailbox file: expected a"
                + " mapping, 'mailbox:' and a list of messages, got a " + (root instanceof SequenceNode
                ? "list" : "single value"));
        }
        final YamlFields f = new YamlFields(file.toString(), "", root);
        final List<Scenario.MailboxMessage> out = mailbox(f.mappings("mailbox"), Integer.MAX_VALUE,
            Math.round(MAX_TIME_US * PS_PER_US));
        f.finish();
        return out;
    }

    /** Latest time of a mailbox message or link event in a file without a stop time (replay), us. */
    private static final double MAX_TIME_US = 100_000_000;

    /** A time field given either as {@code at_us} or as {@code at_ns} (exactly one), as ps, at most {@code maxPs}. */
    private static long atPs(final YamlFields e, final long maxPs) {
        e.known("at_us", "at_ns");
        if (e.has("at_us") == e.has("at_ns")) {
            throw e.fieldError(e.has("at_us") ? "at_ns" : "at_us", "give exactly one of at_us and at_ns");
        }
        final double maxUs = maxPs / (double) PS_PER_US;
        final long ps = e.has("at_us") ? Math.round(e.number("at_us", 0, maxUs) * PS_PER_US)
            : Math.round(e.number("at_ns", 0, maxUs * 1000) * PS_PER_NS);
        return Math.min(ps, maxPs);
    }

    /**
     * {@code firmware.mailbox} entries: {@code at_us}/{@code at_ns}, {@code hex} or {@code words} (32-bit
     * little-endian), {@code nic} (host id or {@code all}), {@code max_response_bytes}; sorted by time, stable.
     */
    private static List<Scenario.MailboxMessage> mailbox(final List<YamlFields> entries, final int maxNic, final long maxPs) {
        final int limit = dev.nicsim.microcode.firmware.FirmwareLayout.HOST_MAILBOX_BYTES;
        final List<Scenario.MailboxMessage> out = new ArrayList<>(entries.size());
        for (final YamlFields e : entries) {
            final long at = atPs(e, maxPs);
            e.known("hex", "words");
            if (e.has("hex") == e.has("words")) {
                throw e.fieldError(e.has("hex") ? "words" : "hex", "give exactly one of hex (the bytes in order) and words"
                    + " (little-endian 32-bit words)");
            }
            final String hex;
            if (e.has("hex")) {
                hex = hexBytes(e);
            } else {
                final StringBuilder b = new StringBuilder();
                for (final long w : e.wordList("words", 0, 0xFFFF_FFFFL)) {
                    for (int i = 0; i < 4; i++) {
                        b.append(String.format(Locale.ROOT, "%02x", w >>> (8 * i) & 0xFF));
                    }
                }
                hex = b.toString();
            }
            if (hex.length() / 2 > limit) {
                throw e.fieldError(e.has("hex") ? "hex" : "words", "a request holds at most " + limit
                    + " bytes (the host mailbox buffer, docs/doca-pcc.md), got " + hex.length() / 2);
            }
            final String target = e.string("nic");
            final int nic;
            if ("all".equals(target)) {
                nic = Scenario.ALL_NICS;
            } else {
                final long n = e.integer("nic", 0, maxNic);
                nic = (int) n;
            }
            final int maxResponse = (int) e.integer("max_response_bytes", limit, 0, limit);
            e.finish();
            out.add(new Scenario.MailboxMessage(at, hex, nic, maxResponse));
        }
        out.sort(java.util.Comparator.comparingLong(Scenario.MailboxMessage::atPs));
        return List.copyOf(out);
    }

    /**
     * A mailbox request's {@code hex} field as lower-case hex digits: an optional {@code 0x}, then the
     * bytes in order as pairs of hex digits; spaces, tabs, {@code _} and {@code :} may stand between
     * bytes only (not inside one), so every group between separators holds an even number of digits.
     */
    private static String hexBytes(final YamlFields e) {
        final String given = e.string("hex");
        String text = given.strip();
        if (text.startsWith("0x") || text.startsWith("0X")) {
            text = text.substring(2);
        }
        if (!text.isEmpty() && !text.matches("(?:[0-9a-fA-F]{2})+(?:[\\s_:]+(?:[0-9a-fA-F]{2})+)*")) {
            throw e.fieldError("hex", "expected the bytes in order as pairs of hex digits, separated by spaces (or _ or :)"
                + " only between bytes, e.g. '00 00 04 00' or '00000400', got '" + given + "'");
        }
        return text.replaceAll("[\\s_:]", "").toLowerCase(Locale.ROOT);
    }

    /** Messages need firmware that defines the mailbox callback: one line at load instead of a silent no-op. */
    private static void requireMailboxHandler(final YamlFields fw, final List<Scenario.MailboxMessage> mailbox,
                                              final Scenario.Algorithm algorithm) {
        if (mailbox.isEmpty()) {
            return;
        }
        if (!(algorithm.provider() instanceof FirmwareProvider fp)) {
            throw fw.fieldError("mailbox", "messages go to a DOCA PCC firmware's doca_pcc_dev_user_mailbox_handle, but this"
                + " scenario runs the Java algorithm '" + algorithm.provider().name() + "'; give algorithm.firmware");
        }
        if (!fp.image().hasMailboxHandler()) {
            throw fw.fieldError("mailbox", fp.image().path() + " defines no doca_pcc_dev_user_mailbox_handle, so nothing would"
                + " receive these " + mailbox.size() + " messages; define it in the program or drop firmware.mailbox");
        }
    }

    /**
     * {@code link_events} entries: {@code at_us}/{@code at_ns}, {@code host}, {@code state} ({@code down}/{@code up});
     * per host the states must alternate starting with {@code down}, at distinct times.
     */
    private static List<Scenario.LinkEvent> linkEvents(final List<YamlFields> entries, final int hosts, final long maxPs) {
        final List<Scenario.LinkEvent> out = new ArrayList<>(entries.size());
        final List<YamlFields> where = new ArrayList<>(entries.size());
        for (final YamlFields e : entries) {
            final long at = atPs(e, maxPs);
            final int host = (int) e.integer("host", 0, hosts - 1);
            final boolean up = "up".equals(e.oneOf("state", "down", "up"));
            e.finish();
            out.add(new Scenario.LinkEvent(at, host, up));
            where.add(e);
        }
        final Integer[] order = new Integer[out.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingLong(i -> out.get(i).atPs()));
        final java.util.Map<Integer, Scenario.LinkEvent> last = new java.util.HashMap<>();
        final List<Scenario.LinkEvent> sorted = new ArrayList<>(out.size());
        for (final int i : order) {
            final Scenario.LinkEvent ev = out.get(i);
            final Scenario.LinkEvent before = last.get(ev.host());
            final boolean wasUp = before == null || before.up();
            if (before != null && before.atPs() == ev.atPs()) {
                throw where.get(i).fieldError("host", "host " + ev.host() + " already has a link event at this time");
            }
            if (wasUp == ev.up()) {
                throw where.get(i).fieldError("state", "host " + ev.host() + "'s link is already " + (ev.up() ? "up" : "down")
                    + " then (links start up; down and up must alternate)");
            }
            last.put(ev.host(), ev);
            sorted.add(ev);
        }
        return List.copyOf(sorted);
    }

    private static Scenario.Link link(final YamlFields l, final Scenario.Link def) {
        final double gbps = l.number("rate_gbps", def == null ? 100 : def.rateBitsPerSec() / 1e9, 0.001, 1600);
        final double delayNs = l.number("delay_ns", def == null ? 1000 : def.delayPs() / (double) PS_PER_NS, 0, 1e9);
        l.finish();
        return new Scenario.Link(Math.round(gbps * 1e9), Math.round(delayNs * PS_PER_NS));
    }

    /**
     * A path field ({@code topology.path}, {@code workload.path}, {@code workload.cdf}): relative
     * paths are taken relative to the scenario file first, then the current directory.
     */
    private static Path resolve(final YamlFields f, final String key, final Path scenarioFile) {
        final String name = f.string(key);
        Path p = nextToScenario(f, key, name, scenarioFile);
        if (!Files.exists(p)) {
            p = Path.of(name);
        }
        if (!Files.exists(p)) {
            throw f.fieldError(key, "no such file '" + name + "' (looked next to the scenario and in the current directory)");
        }
        return p;
    }

    /**
     * The file a path field names, taken relative to the scenario file's directory (an absolute name
     * stays as it is). A name no file system can hold (a NUL character, say) is bad input, not an
     * internal error.
     *
     * @param f            the section holding the field
     * @param key          the field's key, for the error
     * @param name         the field's value
     * @param scenarioFile the scenario file
     * @return the path next to the scenario; existence is not checked
     * @throws ScenarioException one line naming the field when {@code name} is not a valid path here
     */
    private static Path nextToScenario(final YamlFields f, final String key, final String name, final Path scenarioFile) {
        try {
            return scenarioFile.toAbsolutePath().getParent().resolve(name);
        } catch (final InvalidPathException e) {
            throw f.fieldError(key, "'" + name.replace("\0", "\\0") + "' is not a valid path here (" + e.getReason() + ")");
        }
    }

    private static Scenario.Topology topology(final YamlFields t, final Path scenarioFile) {
        final String type = t.oneOf("type", "star", "dumbbell", "leaf_spine", "fat_tree", "file");
        if ("file".equals(type)) {
            final dev.nicsim.scenario.Ns3Topology file = dev.nicsim.scenario.Ns3Topology.read(resolve(t, "path", scenarioFile));
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

    /**
     * The topology of {@code topology.type: file}.
     *
     * @param file the HPCC ns-3 topology file, read
     * @return the topology; its host link (for workloads that need one rate) is host 0's link
     * @throws ScenarioException naming the file and line of a link nicsim does not model
     *                           ({@link dev.nicsim.scenario.Ns3Topology#requireModelled()})
     */
    public static Scenario.Topology fileTopology(final dev.nicsim.scenario.Ns3Topology file) {
        file.requireModelled();
        // the host link of host 0 stands for "the host link" where a workload needs one rate (Poisson load)
        Scenario.Link host = null;
        for (final dev.nicsim.scenario.Ns3Topology.Link l : file.links()) {
            if (file.hostOf(l.a()) == 0 || file.hostOf(l.b()) == 0) {
                host = new Scenario.Link(l.rateBitsPerSec(), l.delayPs());
            }
        }
        return new Scenario.Topology("file", file.hosts(), 0, 0, 0, 0, 0, host, host, file);
    }

    /**
     * The workload of {@code workload.type: file} with the default {@code op} ({@code write}).
     *
     * @param file    the HPCC ns-3 flow file, read
     * @param topo    the topology its node ids refer to
     * @param nic     the NIC settings (every flow must be on {@code nic.data_priority})
     * @param startPs {@code workload.start_us}, ps, added to every flow's start
     * @return the workload
     * @throws ScenarioException naming the file and line of a flow from a switch or on another priority
     */
    public static Scenario.Workload fileWorkload(final dev.nicsim.scenario.Ns3Flows file, final Scenario.Topology topo,
                                                 final Scenario.NicSpec nic, final long startPs) {
        return new Scenario.Workload("file", "write", 0, 0, 0, startPs, 0, null, 0, 0, 0, fileFlows(file, topo, nic, startPs),
            file);
    }

    /**
     * The NIC settings of a scenario without a {@code nic} section (every field at its default,
     * as README.md "Scenario files" lists them), for a Java algorithm.
     *
     * @return the settings
     */
    public static Scenario.NicSpec defaultNic() {
        return nic(empty("nic"), false);
    }

    /**
     * The switch settings of a scenario without a {@code switch} section: every field at its
     * default, the PFC, WRED and RCM priorities the NIC's data priority.
     *
     * @param nic  the NIC settings
     * @param topo the topology
     * @return the settings
     */
    public static Scenario.SwitchSpec defaultSwitch(final Scenario.NicSpec nic, final Scenario.Topology topo) {
        return switchSpec(empty("switch"), nic, topo);
    }

    private static YamlFields empty(final String section) {
        return new YamlFields("(defaults)", "", new MappingNode(Tag.MAP, new ArrayList<>(), DumperOptions.FlowStyle.BLOCK))
            .childOrEmpty(section);
    }

    private static Scenario.NicSpec nic(final YamlFields n, final boolean firmware) {
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
            (int) n.integer("cnp_dscp", 48, 0, 63),
            initialPsn(n),
            emulator(n.childOrEmpty("emulator"), firmware),
            (int) n.integer("ack_priority", n.has("data_priority") ? n.integer("data_priority", 0, 7) : 3, 0, 7),
            (int) n.integer("ack_dscp", n.has("data_dscp") ? n.integer("data_dscp", 0, 63) : 26, 0, 63));
        if (spec.dataDscp() == spec.cnpDscp() && spec.dataPriority() != spec.cnpPriority()) {
            throw n.fieldError("cnp_dscp", "switches map DSCP to priority, so CNPs on the data DSCP " + spec.dataDscp()
                + " must also use the data priority " + spec.dataPriority() + ", got cnp_priority " + spec.cnpPriority());
        }
        if (spec.ackDscp() == spec.dataDscp() && spec.ackPriority() != spec.dataPriority()) {
            throw n.fieldError(n.has("ack_dscp") ? "ack_dscp" : "ack_priority", "switches map DSCP to priority, so ACKs on the data DSCP "
                + spec.dataDscp() + " must also use the data priority " + spec.dataPriority() + ", got ack_priority "
                + spec.ackPriority() + " (give ack_dscp too)");
        }
        if (spec.ackDscp() == spec.cnpDscp() && spec.ackPriority() != spec.cnpPriority()) {
            throw n.fieldError("ack_dscp", "ACKs on the CNP DSCP " + spec.cnpDscp() + " must use the CNP priority "
                + spec.cnpPriority() + ", got ack_priority " + spec.ackPriority());
        }
        n.finish();
        return spec;
    }

    /** {@code nic.initial_psn}: {@code random} ({@link Scenario.NicSpec#RANDOM_PSN}) or a PSN 0..2^24 - 1; default 0. */
    private static int initialPsn(final YamlFields n) {
        if (!n.has("initial_psn")) {
            return (int) n.integer("initial_psn", 0, 0, 0);
        }
        final String v = n.string("initial_psn");
        if ("random".equals(v)) {
            return Scenario.NicSpec.RANDOM_PSN;
        }
        try {
            final long psn = Long.parseLong(v.replace("_", ""));
            if (psn >= 0 && psn <= 0xFF_FFFF) {
                return (int) psn;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw n.fieldError("initial_psn", "expected random or an integer in [0, 16777215], got '" + v + "'");
    }

    private static Scenario.Emulator emulator(final YamlFields e, final boolean firmware) {
        final boolean enabled = e.bool("enabled", true);
        final int cores = (int) e.integer("cores", 16, 1, 1024);
        final int threads = (int) e.integer("threads_per_core", 16, 1, 256);
        // firmware runs on the RISC-V cores: the DPA-like default clock (docs/firmware.md)
        final long clockHz = Math.round(e.number("clock_ghz", firmware ? FirmwareProvider.DEFAULT_CLOCK_GHZ : 1.0, 0.001, 100) * 1e9);
        final long maxInstructions = e.integer("max_instructions_per_event", FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT,
            1, 1_000_000_000);
        final int ring = (int) e.integer("ring_capacity", 256, 1, 1 << 20);
        final int cache = (int) e.integer("context_cache_entries", 256, 1, 1 << 20);
        final int dispatch = (int) e.integer("dispatch_cycles", 8, 0, 1_000_000);
        final int hit = (int) e.integer("context_hit_cycles", 4, 0, 1_000_000);
        final int miss = (int) e.integer("context_miss_cycles", 120, 0, 1_000_000);
        final int writeBack = (int) e.integer("write_back_cycles", 8, 0, 1_000_000);
        final boolean coalescing = e.bool("coalescing", true);
        final int highWater = (int) e.integer("high_water_mark", -1, -1, 1 << 20);
        if (highWater > ring) {
            throw e.fieldError("high_water_mark", "expected at most ring_capacity (" + ring + "), got " + highWater);
        }
        final YamlFields h = e.childOrEmpty("handler_cycles");
        final int[] handler = new int[dev.nicsim.pcc.PccEventType.COUNT];
        for (int t = 0; t < handler.length; t++) {
            handler[t] = (int) h.integer(dev.nicsim.pcc.PccEventType.shortName(t), -1, -1, 1_000_000);
        }
        h.finish();
        e.finish();
        return new Scenario.Emulator(enabled, cores, threads, clockHz, ring, cache, dispatch, hit, miss, writeBack,
            coalescing, highWater, handler, maxInstructions);
    }

    private static Scenario.SwitchSpec switchSpec(final YamlFields s, final Scenario.NicSpec nic,
                                                  final Scenario.Topology topo) {
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
        final List<Scenario.RateWred> byRate = new ArrayList<>();
        if (w.has("by_rate")) {
            for (final YamlFields r : w.mappings("by_rate")) {
                final long rate = Math.round(r.number("rate_gbps", 0.001, 1600) * 1e9);
                final long rkmin = r.integer("kmin_bytes", 0, buffer);
                final long rkmax = r.integer("kmax_bytes", 0, buffer);
                if (rkmax < rkmin) {
                    throw r.fieldError("kmax_bytes", "expected kmax_bytes >= kmin_bytes (" + rkmin + "), got " + rkmax);
                }
                final double rpmax = r.number("pmax", 0, 1);
                for (final Scenario.RateWred x : byRate) {
                    if (x.rateBitsPerSec() == rate) {
                        throw r.fieldError("rate_gbps", "rate " + rate / 1e9 + " Gb/s is listed twice");
                    }
                }
                r.finish();
                byRate.add(new Scenario.RateWred(rate, rkmin, rkmax, rpmax));
            }
        }
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
        final long camCongested = c.isScalar("congested_bytes") && "kmin".equals(c.string("congested_bytes"))
            ? SwitchConfig.CAM_THRESHOLD_KMIN : c.integer("congested_bytes", SwitchConfig.CAM_THRESHOLD_KMIN, 0, buffer);
        c.finish();

        // queueing architecture (the RCM paper §4.1)
        final boolean ioq = "input_output_queued".equals(
            s.oneOfOr("queueing", "output_queued", "output_queued", "input_output_queued"));
        final long voq = s.integer("voq_bytes", 100_000, 1, 1L << 34);
        final long oq = s.integer("output_queue_bytes", 100_000, 1, 1L << 34);
        if (ioq) {
            final int maxFrame = RoceFraming.frameBytes(nic.mtuBytes(), RoceFraming.RETH_BYTES);
            if (oq < maxFrame) {
                throw s.fieldError("output_queue_bytes", "expected at least one maximum frame (" + maxFrame
                    + " bytes at nic.mtu_bytes " + nic.mtuBytes() + "), got " + oq);
            }
            // the PFC headroom is the top of each VOQ: XOFF at voq_bytes - headroom
            long need = maxFrame;
            String why = "one maximum frame";
            if (pfcOn) {
                for (final Scenario.Link l : new Scenario.Link[] {topo.hostLink(), topo.fabricLink()}) {
                    final long h = headroom >= 0 ? headroom
                        : SwitchConfig.requiredHeadroomBytes(l.rateBitsPerSec(), l.delayPs(), maxFrame);
                    if (h + 1 > need) {
                        need = h + 1;
                        why = "the PFC headroom (" + h + " bytes" + (headroom >= 0 ? ", switch.pfc.headroom_bytes"
                            : " for " + l.rateBitsPerSec() / 1e9 + " Gb/s, " + l.delayPs() / 1000 + " ns links") + ")";
                    }
                }
            }
            if (voq < need) {
                throw s.fieldError("voq_bytes", "expected more than " + why + ", got " + voq);
            }
        }
        final Scenario.Rcm rcm = rcm(s.childOrEmpty("rcm"), nic, ioq, camDepth);
        s.finish();
        return new Scenario.SwitchSpec(buffer, pfcOn, pfcPrios, dynamic, xoff, xon, alpha, xonOffset, headroom, wredPrios,
            kmin, kmax, pmax, ecn, notEctK, egressDynamic, queueLimit, egressAlpha, strict, camDepth, camSample, ioq, voq, oq,
            camCongested, rcm, List.copyOf(byRate));
    }

    /**
     * {@code switch.rcm} (the RCM paper §3): every field of the switch model's {@code RcmConfig}, with
     * its default, range and the cross-field rules of {@code RcmConfig.validate}, reported with the
     * field's path.
     */
    private static Scenario.Rcm rcm(final YamlFields r, final Scenario.NicSpec nic, final boolean ioq, final int camDepth) {
        final RcmConfig d = new RcmConfig();
        final boolean detection = r.bool("detection", d.detection);
        final boolean cfr = r.bool("flow_recognition", d.flowRecognition);
        final boolean rcc = r.bool("regional_control", d.regionalControl);
        final boolean sar = r.bool("adaptive_routing", d.adaptiveRouting);
        final boolean prioritiesGiven = r.has("priorities");
        final int[] prios = r.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        if (prios.length == 0) {
            throw r.fieldError("priorities", "expected at least one priority, got []");
        }
        final double wq = r.number("w_q", d.wq, 0, 1_000_000);
        final long qEq = r.integer("q_eq_bytes", d.qEqBytes, 1, 1L << 34);
        final int fbBits = (int) r.integer("fb_bits", d.fbBits, 1, 16);
        final double w = r.number("w", d.w, 0, 1);
        final double gd = r.number("g_d", d.gd, 0, 1);
        final int fbMax = (1 << fbBits) - 1;
        if (gd != RcmConfig.GD_AUTO && gd * fbMax > 1.0) {
            throw r.fieldError("g_d", "expected 0 (auto: 1 / (2 x " + fbMax + ")) or a value with (2^fb_bits - 1) x g_d <= 1, i.e. <= "
                + (1.0 / fbMax) + ", got " + gd);
        }
        final long sample = r.integer("sample_bytes", d.sampleBytes, 64, 1L << 34);
        final int notif = (int) r.integer("notification_priority", d.notificationPriority, 0, 7);
        for (final int p : prios) {
            if (p == notif) {
                throw r.fieldError(prioritiesGiven ? "priorities" : "notification_priority",
                    "notification_priority (" + notif + ") must not be one of the watched priorities "
                        + java.util.Arrays.toString(prios) + " (notifications need a priority of their own)");
            }
        }
        final long lifetimePs = Math.round(r.number("notification_lifetime_us", d.notificationLifetimePs / 1e6, 0.001, 1e6)
            * PS_PER_US);
        final long windowPs = Math.round(r.number("window_period_us", d.windowPeriodPs / 1e6, 0.001, 1e6) * PS_PER_US);
        final boolean compound = r.bool("compound_window_decrease", d.compoundWindowDecrease);
        final int harmfulMin = (int) r.integer("harmful_min_entries", d.harmfulMinEntries, 1, camDepth);
        final boolean latchHarmful = r.bool("latch_harmful_set", d.latchHarmfulSet);
        final int detourEntries = (int) r.integer("detour_table_entries", d.detourTableEntries, 1, 1 << 20);
        if (Integer.bitCount(detourEntries) != 1) {
            throw r.fieldError("detour_table_entries", "expected a power of two in [1, 1048576], got " + detourEntries);
        }
        final long detourIdlePs = Math.round(r.number("detour_idle_us", d.detourIdlePs / 1e6, 0.001, 1e6) * PS_PER_US);
        if (rcc && !detection) {
            throw r.fieldError("regional_control", "needs switch.rcm.detection: true (RCC reacts to detected congestion)");
        }
        if (rcc && !ioq) {
            throw r.fieldError("regional_control", "needs switch.queueing: input_output_queued (held packets wait in their VOQs)");
        }
        if (sar && !(detection && cfr)) {
            throw r.fieldError("adaptive_routing",
                "needs switch.rcm.detection and switch.rcm.flow_recognition: true (SAR moves flows that miss the CAM)");
        }
        r.finish();
        return new Scenario.Rcm(detection, cfr, rcc, sar, prios, wq, qEq, fbBits, w, gd, sample, notif, lifetimePs, windowPs,
            compound, harmfulMin, latchHarmful, detourEntries, detourIdlePs);
    }

    private static Scenario.Algorithm algorithm(final YamlFields a, final Path scenarioFile, final Scenario.Emulator emulator) {
        final PccAlgorithmProvider provider;
        Path firmwarePath = null;
        if (a.has("firmware")) {
            // a firmware image replaces the named Java algorithm; the name, if given, is documentation
            a.string("name", "");
            final String elf = a.string("firmware");
            Path p = nextToScenario(a, "firmware", elf, scenarioFile);
            if (!Files.exists(p)) {
                p = Path.of(elf);
            }
            if (!Files.exists(p)) {
                throw a.fieldError("firmware", "no such file '" + elf + "' (looked next to the scenario and in the current directory)");
            }
            // the cores' machine model: bf3-dpa (the default), e31, ibex or a YAML file next to the scenario
            final String modelName = a.string("firmware_model", CycleModel.BF3_DPA);
            final CycleModel model = firmwareModel(a, scenarioFile, modelName);
            try {
                provider = FirmwareProvider.load(p, emulator.maxInstructionsPerEvent(), model);
            } catch (final FirmwareException e) {
                throw a.fieldError("firmware", e.getMessage());
            }
            firmwarePath = p;
        } else {
            final String name = a.string("name");
            try {
                provider = PccAlgorithms.byName(name);
            } catch (final IllegalArgumentException e) {
                throw a.fieldError("name", e.getMessage());
            }
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
        return new Scenario.Algorithm(provider, values, firmwarePath);
    }

    /**
     * {@code firmware.np}: the notification-point program of the receiving NICs, resolved as
     * {@code algorithm.firmware} is (next to the scenario, then the current directory), on the
     * algorithm's firmware model ({@code bf3-dpa} for a Java algorithm), with the emulator's budget.
     */
    private static Scenario.NpFirmware npFirmware(final YamlFields fw, final Path scenarioFile, final Scenario.Algorithm algorithm,
                                                  final Scenario.Emulator emulator, final Scenario.Probe probe) {
        if (!fw.has("np")) {
            if (fw.has("np_mailbox")) {
                throw fw.fieldError("np_mailbox", "the NP host's mailbox message goes to a notification-point program;"
                    + " give firmware.np");
            }
            fw.finish();
            return null;
        }
        final String elf = fw.string("np");
        Path p = nextToScenario(fw, "np", elf, scenarioFile);
        if (!Files.exists(p)) {
            p = Path.of(elf);
        }
        if (!Files.exists(p)) {
            throw fw.fieldError("np", "no such file '" + elf + "' (looked next to the scenario and in the current directory)");
        }
        final CycleModel model = algorithm.provider() instanceof FirmwareProvider rp ? rp.model()
            : CycleModel.bf3Dpa();
        final dev.nicsim.microcode.firmware.FirmwareNotificationPoint program;
        try {
            program = dev.nicsim.microcode.firmware.FirmwareNotificationPoint.load(p, emulator.maxInstructionsPerEvent(), model);
        } catch (final FirmwareException e) {
            throw fw.fieldError("np", e.getMessage());
        }
        final String mailboxHex = npMailbox(fw, program, probe);
        if (mailboxHex != null) {
            program.hostMailbox(java.util.HexFormat.of().parseHex(mailboxHex));
        }
        fw.finish();
        return new Scenario.NpFirmware(p, program, mailboxHex);
    }

    /**
     * {@code firmware.probe}: {@code format} ({@code ccmad} or {@code ifa2}), {@code ifa2_gns} (0..15, default 15)
     * and {@code ifa2_hop_limit} (0..255, default 254), the RP host's {@code doca_pcc_set_ifa2_probe_packet_format},
     * {@code doca_pcc_rp_set_ifa2_gns} and {@code doca_pcc_rp_set_ifa2_hop_limit} with DOCA's defaults (Addendum B.1).
     */
    private static Scenario.Probe probe(final YamlFields p) {
        final boolean ifa2 = "ifa2".equals(p.oneOfOr("format", "ccmad", "ccmad", "ifa2"));
        if (!ifa2) {
            for (final String k : new String[] {"ifa2_gns", "ifa2_hop_limit"}) {
                if (p.has(k)) {
                    throw p.fieldError(k, "only with format: ifa2 (CCMAD probes carry no IFA header)");
                }
            }
            p.finish();
            return Scenario.Probe.CCMAD;
        }
        final int gns = (int) p.integer("ifa2_gns", 0xF, 0, 15);
        final int hopLimit = (int) p.integer("ifa2_hop_limit", 0xFE, 0, 255);
        p.finish();
        return new Scenario.Probe(true, gns, hopLimit);
    }

    /**
     * {@code firmware.np_mailbox}: the bytes the NP host application sends each NP process after start (hex, or
     * {@code none}); by default, with IFA2 probes and an NP program that defines the mailbox callback, the 4 bytes
     * {@code FE 00 00 00} NVIDIA's NP host sends (its hop limit 0xFE as a little-endian {@code uint32_t}, Addendum B.1).
     *
     * @return lower-case hex, or null for no message
     */
    private static String npMailbox(final YamlFields fw, final dev.nicsim.microcode.firmware.FirmwareNotificationPoint program,
                                    final Scenario.Probe probe) {
        final boolean handler = program.image().hasMailboxHandler();
        if (!fw.has("np_mailbox")) {
            return probe.ifa2() && handler ? "fe000000" : null;
        }
        final String text = fw.string("np_mailbox").trim();
        if ("none".equals(text)) {
            return null;
        }
        final String digits = text.replaceAll("[\\s_:]", "").toLowerCase(java.util.Locale.ROOT);
        final String hex = digits.startsWith("0x") ? digits.substring(2) : digits;
        if (!hex.matches("[0-9a-f]*") || hex.length() % 2 != 0) {
            throw fw.fieldError("np_mailbox", "expected the bytes as pairs of hex digits (spaces allowed), e.g. 'FE 00 00 00',"
                + " or 'none', got '" + text + "'");
        }
        final int limit = dev.nicsim.microcode.firmware.FirmwareLayout.HOST_MAILBOX_BYTES;
        if (hex.length() / 2 > limit) {
            throw fw.fieldError("np_mailbox", "a request holds at most " + limit + " bytes, got " + hex.length() / 2);
        }
        if (!handler) {
            throw fw.fieldError("np_mailbox", program.image().path() + " defines no doca_pcc_dev_user_mailbox_handle, so nothing"
                + " would receive the message; define it in the program or drop firmware.np_mailbox");
        }
        return hex;
    }

    private static Scenario.Workload workload(final YamlFields w, final Path scenarioFile, final Scenario.Topology topo,
                                              final Scenario.NicSpec nic) {
        final String type = w.oneOf("type", "incast", "permutation", "poisson", "hotspot", "flows", "file");
        final String op = w.oneOfOr("op", "write", "write", "send", "read");
        final long startPs = Math.round(w.number("start_us", 0, 0, 1e9) * PS_PER_US);
        final int hosts = hostCount(topo);
        int senders = 0;
        int receiver = 0;
        long size = 0;
        double load = 0;
        FlowSizeCdf cdf = null;
        int flows = 0;
        double hotFraction = 0;
        double hotHostsFraction = 0;
        List<FlowSpec> list = List.of();
        dev.nicsim.scenario.Ns3Flows file = null;
        switch (type) {
            case "incast" -> {
                senders = (int) w.integer("senders", 1, hosts - 1);
                receiver = (int) w.integer("receiver", hosts - 1, 0, hosts - 1);
                size = w.integer("size_bytes", 1, dev.nicsim.nic.RoceNic.MAX_MESSAGE_BYTES);
            }
            case "permutation" -> size = w.integer("size_bytes", 1, dev.nicsim.nic.RoceNic.MAX_MESSAGE_BYTES);
            case "flows" -> list = flowList(w, hosts, startPs, topo, nic);
            case "file" -> {
                file = dev.nicsim.scenario.Ns3Flows.read(resolve(w, "path", scenarioFile), dev.nicsim.nic.RoceNic.MAX_MESSAGE_BYTES);
                list = fileFlows(file, topo, nic, startPs);
            }
            default -> {
                load = w.number("load", 0.000001, 1.0);
                flows = (int) w.integer("flows", 1, 10_000_000);
                if (w.has("cdf") && w.has("size_bytes")) {
                    throw w.fieldError("size_bytes", "give either cdf (a flow-size CDF file) or size_bytes (one fixed size), not both");
                }
                if (w.has("size_bytes")) {
                    size = w.integer("size_bytes", 1, dev.nicsim.nic.RoceNic.MAX_MESSAGE_BYTES);
                } else {
                    if (!w.has("cdf")) {
                        throw w.fieldError("cdf", "missing required field: give cdf (a flow-size CDF file) or size_bytes (one fixed size)");
                    }
                    cdf = FlowSizeCdf.load(resolve(w, "cdf", scenarioFile));
                }
                if ("hotspot".equals(type)) {
                    hotFraction = w.number("hot_fraction", 0.15, 0, 1);
                    hotHostsFraction = w.number("hot_hosts_fraction", 0.125, 0.000001, 0.999999);
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
     */
    private static List<FlowSpec> fileFlows(final dev.nicsim.scenario.Ns3Flows file, final Scenario.Topology topo,
                                            final Scenario.NicSpec nic, final long offsetPs) {
        final int hosts = hostCount(topo);
        final List<FlowSpec> out = new ArrayList<>(file.flows().size());
        for (final dev.nicsim.scenario.Ns3Flows.Flow f : file.flows()) {
            final int src = fileHost(file, f, f.srcNode(), "src", topo, hosts);
            final int dst = fileHost(file, f, f.dstNode(), "dst", topo, hosts);
            if (f.priorityGroup() != nic.dataPriority()) {
                throw new ScenarioException(file.file() + ":" + f.line() + ": priority_group: every flow runs on"
                    + " nic.data_priority (" + nic.dataPriority() + "), got " + f.priorityGroup());
            }
            out.add(new FlowSpec(out.size(), src, dst, f.sizeBytes(), offsetPs + f.startNs() * PS_PER_NS));
        }
        return out;
    }

    private static int fileHost(final dev.nicsim.scenario.Ns3Flows file, final dev.nicsim.scenario.Ns3Flows.Flow f,
                                final int node, final String field, final Scenario.Topology topo, final int hosts) {
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
    public static int hotHostCount(final double fraction, final int hosts) {
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
            final int src = (int) e.integer("src", 0, hosts - 1);
            final int dst = (int) e.integer("dst", 0, hosts - 1);
            if (dst == src) {
                throw e.fieldError("dst", "expected a host other than src (" + src + "), got " + dst);
            }
            final long startPs = offsetPs + Math.round(e.number("start_us", 0, 0, 1e9) * PS_PER_US);
            final long size;
            if (e.has("size_bytes") && e.has("burst_us")) {
                throw e.fieldError("burst_us", "give either size_bytes or burst_us, not both");
            }
            if (e.has("burst_us")) {
                size = burstBytes(Math.round(e.number("burst_us", 0.001, 1e6) * PS_PER_US), topo.hostLink().rateBitsPerSec(),
                    nic.mtuBytes());
            } else {
                if (!e.has("size_bytes")) {
                    throw e.fieldError("size_bytes", "missing required field: give size_bytes or burst_us");
                }
                size = e.integer("size_bytes", 1, dev.nicsim.nic.RoceNic.MAX_MESSAGE_BYTES);
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
    public static long burstBytes(final long burstPs, final long rateBitsPerSec, final int mtuBytes) {
        final long perPacketPs = RoceFraming.serializationPs(RoceFraming.frameBytes(mtuBytes, 0), rateBitsPerSec);
        return Math.max(1, burstPs / perPacketPs) * mtuBytes;
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
            case "file" -> t.file().hosts();
            default -> t.k() * t.k() * t.k() / 4;
        };
    }

    private static final String FIRMWARE_MODELS = "expected bf3-dpa, e31, ibex or a model YAML file";

    /**
     * Resolves {@code algorithm.firmware_model}: a model YAML file next to the scenario, else a built-in
     * name ({@code bf3-dpa}, {@code e31}, {@code ibex}, any case), else a model YAML file in the current
     * directory (docs/scenarios.md, "algorithm").
     *
     * @throws ScenarioException one line naming the field: no such file, a directory, or the file's own error
     */
    private static CycleModel firmwareModel(final YamlFields a, final Path scenarioFile, final String modelName) {
        Path mp = nextToScenario(a, "firmware_model", modelName, scenarioFile);
        if (!Files.isRegularFile(mp)) {
            for (final String builtIn : new String[] {CycleModel.BF3_DPA, "e31", "ibex"}) {
                if (builtIn.equalsIgnoreCase(modelName)) {
                    return CycleModel.byName(modelName);
                }
            }
            if (!Files.exists(mp)) {
                mp = Path.of(modelName);
            }
        }
        if (!Files.exists(mp)) {
            throw a.fieldError("firmware_model", "no such file '" + modelName
                + "' (looked next to the scenario and in the current directory; " + FIRMWARE_MODELS + ")");
        }
        if (Files.isDirectory(mp)) {
            throw a.fieldError("firmware_model", "'" + modelName + "' is a directory (" + FIRMWARE_MODELS + ")");
        }
        try {
            return CycleModel.load(mp);
        } catch (final IllegalArgumentException e) {
            throw a.fieldError("firmware_model", e.getMessage() + " (" + FIRMWARE_MODELS + ")");
        }
    }
}
