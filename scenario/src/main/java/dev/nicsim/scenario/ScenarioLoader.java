package dev.nicsim.scenario;

import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.Ns3Topology;
import dev.nicsim.pcc.Units;
import dev.nicsim.riscv.IoReasons;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
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

/**
 * Reads a scenario YAML file, applies {@code --set path=value} overrides, and validates every field
 * into a {@link Scenario}. Each field is read through its {@link ScenarioSchema} row (key, range,
 * default); the sections are read by {@link TopologySection}, {@link SwitchSection},
 * {@link NicSection}, {@link WorkloadSection}, {@link FirmwareSection} and
 * {@link HostActionSection}. Unknown, missing and out-of-range fields give a
 * {@link ScenarioException} naming the file, line and field path (docs/scenarios.md, "Fields").
 *
 * <p>Thread-safety: stateless.
 */
public final class ScenarioLoader {
    /** Mark name given to nodes created by {@code --set}, so errors name the override. */
    public static final String OVERRIDE_MARK = "--set";
    /** {@code stop_time_us} when a scenario gives none, us: the default of its schema row. */
    public static final double DEFAULT_STOP_TIME_US = ScenarioSchema.row("stop_time_us").defaultValue();
    /**
     * The largest YAML input read (a scenario, a mailbox file, a {@code --set} value), in Unicode
     * code points: 256 Mi (268,435,456), 256 MiB of ASCII text. SnakeYAML's own default, 3 Mi code
     * points, refused scenarios of some 70,000 explicit flows; this limit is set far above any
     * scenario that fits a heap, and a larger file is refused in one line saying so.
     */
    public static final int MAX_YAML_CODE_POINTS = 256 << 20;
    /** Latest time of a mailbox message in a file without a stop time (replay), us. */
    private static final double MAX_TIME_US = 100_000_000;

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
        return parse(file, read(file, "scenario"), overrides, seed);
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
            ScenarioOverrides.apply(root, o);
        }
        final YamlFields f = new YamlFields(file.toString(), "", root);
        final Scenario s = build(file, f, seed);
        f.finish();
        return s;
    }

    private static String read(final Path file, final String what) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new ScenarioException(file + ": no such " + what + " file");
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read: " + IoReasons.why(e));
        }
    }

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

    /**
     * Composes a YAML text into nodes (with their lines), refusing a too long or malformed text in one line.
     *
     * @param name the input's name for messages
     * @param text the text
     * @return the root node, or null for an empty document
     * @throws ScenarioException naming the line of a YAML syntax error
     */
    static Node compose(final String name, final String text) {
        checkCodePoints(name, text, MAX_YAML_CODE_POINTS);
        try {
            final LoaderOptions lo = new LoaderOptions();
            lo.setAllowDuplicateKeys(true); // reported by YamlFields with the field path
            lo.setCodePointLimit(MAX_YAML_CODE_POINTS);
            return new Yaml(lo).compose(new StringReader(text));
        } catch (final YAMLException e) {
            throw new ScenarioException(yamlError(name, e));
        }
    }

    /**
     * The one-line message for a YAML syntax error: {@code NAME:LINE: not valid YAML: PROBLEM} when the
     * parser marked where, else {@code NAME: not valid YAML: MESSAGE} (line breaks folded to spaces).
     *
     * @param name the document's name (a file) for the message
     * @param e    what the parser threw
     * @return the message
     */
    public static String yamlError(final Object name, final YAMLException e) {
        if (e instanceof MarkedYAMLException marked) {
            final Mark m = marked.getProblemMark();
            return name + ":" + (m == null ? 1 : m.getLine() + 1) + ": not valid YAML: "
                + String.valueOf(marked.getProblem()).replace('\n', ' ');
        }
        return name + ": not valid YAML: " + String.valueOf(e.getMessage()).replace('\n', ' ');
    }

    private static Scenario build(final Path file, final YamlFields f, final Long seedOverride) {
        final String defaultName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        final String name = f.string("name", defaultName);
        // the name becomes the directory out/<name>: no separators, and never . or ..
        if (!name.matches("[A-Za-z0-9._-]+") || name.equals(".") || name.equals("..")) {
            throw f.fieldError("name", "expected letters, digits, '.', '_' or '-' only (and not . or ..), got '" + name + "'");
        }
        final long fileSeed = f.integer("seed");
        final long seed = seedOverride != null ? seedOverride : fileSeed;
        final long stopPs = f.scaled("stop_time_us");

        final Scenario.Topology topology = TopologySection.read(f.child("topology"), file);
        final boolean firmware = f.has("algorithm") && f.child("algorithm").has("firmware");
        final Scenario.NicSpec nic = NicSection.read(f.childOrEmpty("nic"), firmware);
        final Scenario.SwitchSpec sw = SwitchSection.read(f.childOrEmpty("switch"), nic, topology);
        final FirmwareSection.Validated algorithm = FirmwareSection.algorithm(f.child("algorithm"), file, nic.emulator());
        final Scenario.Workload workload = WorkloadSection.read(f.child("workload"), file, topology, nic);
        final YamlFields s = f.childOrEmpty("sampling");
        final Scenario.Sampling sampling = new Scenario.Sampling(s.scaled("queue_interval_us"), s.scaled("rate_interval_us"),
            s.scaled("throughput_interval_us"), s.bool("throughput_chart"), s.bool("charts"), "all".equals(s.choice("counters")));
        s.finish();
        // host-side DOCA PCC actions: mailbox messages to the firmware; host link state changes
        final YamlFields fw = f.childOrEmpty("firmware");
        final int hosts = hostCount(topology);
        final List<Scenario.MailboxMessage> mailbox = HostActionSection.mailbox(fw.mappingsOrEmpty("mailbox"), hosts - 1,
            stopPs);
        HostActionSection.requireMailboxHandler(fw, mailbox, algorithm.provider());
        // the notification-point program; reads firmware.np and finishes the firmware block
        final Scenario.Probe probe = FirmwareSection.probe(fw.childOrEmpty("probe"));
        final Scenario.NpFirmware np = FirmwareSection.npFirmware(fw, file, algorithm.provider(), nic.emulator(), probe);
        final List<Scenario.LinkEvent> linkEvents = HostActionSection.linkEvents(f.mappingsOrEmpty("link_events"), hosts,
            stopPs);
        return new Scenario(name, file, seed, stopPs, topology, sw, nic, algorithm.algorithm(), workload, sampling, mailbox,
            linkEvents, np, probe);
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
        final Node root = compose(file.toString(), read(file, "mailbox"));
        if (root == null) {
            throw new ScenarioException(file + ":1: the mailbox file is empty; expected 'mailbox:' and a list of messages");
        }
        if (!(root instanceof MappingNode)) {
            throw new ScenarioException(file + ":" + (root.getStartMark().getLine() + 1) + ": the mailbox file: expected a"
                + " mapping, 'mailbox:' and a list of messages, got a " + (root instanceof SequenceNode
                ? "list" : "single value"));
        }
        final YamlFields f = new YamlFields(file.toString(), "", root);
        final List<Scenario.MailboxMessage> out = HostActionSection.mailbox(f.mappings("mailbox"), Integer.MAX_VALUE,
            Units.psFromUs(MAX_TIME_US));
        f.finish();
        return out;
    }

    /**
     * A path field ({@code topology.path}, {@code workload.path}, {@code workload.cdf}): relative
     * paths are taken relative to the scenario file first, then the current directory.
     *
     * @param f            the section holding the field
     * @param key          the field's key
     * @param scenarioFile the scenario file
     * @return an existing file
     * @throws ScenarioException naming the field when no such file exists
     */
    static Path resolve(final YamlFields f, final String key, final Path scenarioFile) {
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
    static Path nextToScenario(final YamlFields f, final String key, final String name, final Path scenarioFile) {
        try {
            return scenarioFile.toAbsolutePath().getParent().resolve(name);
        } catch (final InvalidPathException e) {
            throw f.fieldError(key, "'" + name.replace("\0", "\\0") + "' is not a valid path here (" + e.getReason() + ")");
        }
    }

    /**
     * Size of a {@code burst_us} flow ({@link WorkloadSection#burstBytes}).
     *
     * @param burstPs        burst duration, ps
     * @param rateBitsPerSec host link rate
     * @param mtuBytes       payload bytes per packet
     * @return message size, bytes
     */
    public static long burstBytes(final long burstPs, final long rateBitsPerSec, final int mtuBytes) {
        return WorkloadSection.burstBytes(burstPs, rateBitsPerSec, mtuBytes);
    }

    /**
     * Number of hosts a topology has.
     *
     * @param t topology
     * @return host count
     */
    public static int hostCount(final Scenario.Topology t) {
        return TopologySection.hostCount(t);
    }

    /**
     * Hosts in a hotspot workload's hot set: {@code round(fraction x hosts)}.
     *
     * @param fraction {@code workload.hot_hosts_fraction}
     * @param hosts    hosts of the topology
     * @return the number of hot hosts
     */
    public static int hotHostCount(final double fraction, final int hosts) {
        return WorkloadSection.hotHostCount(fraction, hosts);
    }

    /**
     * The topology of {@code topology.type: file}.
     *
     * @param file the HPCC ns-3 topology file, read
     * @return the topology; its host link (for workloads that need one rate) is host 0's link
     * @throws ScenarioException naming the file and line of a link nicsim does not model
     */
    public static Scenario.Topology fileTopology(final Ns3Topology file) {
        return TopologySection.fileTopology(file);
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
    public static Scenario.Workload fileWorkload(final Ns3Flows file, final Scenario.Topology topo,
                                                 final Scenario.NicSpec nic, final long startPs) {
        return new Scenario.Workload("file", ScenarioSchema.row("workload.op").defaultChoice(), 0, 0, 0, startPs, 0, null, 0,
            0, 0, WorkloadSection.fileFlows(file, topo, nic, startPs), file);
    }

    /**
     * The NIC settings of a scenario without a {@code nic} section (every field at its row's
     * default), for a Java algorithm.
     *
     * @return the settings
     */
    public static Scenario.NicSpec defaultNic() {
        return NicSection.read(empty("nic"), false);
    }

    /**
     * The switch settings of a scenario without a {@code switch} section: every field at its
     * row's default, the PFC, WRED and RCM priorities the NIC's data priority.
     *
     * @param nic  the NIC settings
     * @param topo the topology
     * @return the settings
     */
    public static Scenario.SwitchSpec defaultSwitch(final Scenario.NicSpec nic, final Scenario.Topology topo) {
        return SwitchSection.read(empty("switch"), nic, topo);
    }

    private static YamlFields empty(final String section) {
        return new YamlFields("(defaults)", "", new MappingNode(Tag.MAP, new ArrayList<>(), DumperOptions.FlowStyle.BLOCK))
            .childOrEmpty(section);
    }
}
