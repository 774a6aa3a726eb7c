package dev.nicsim.scenario;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Applies {@code --set path=value} overrides to a composed scenario document before it is
 * validated, so an override is checked by the same schema rows, with the same messages, as the
 * field in the file; its nodes carry the mark {@link ScenarioLoader#OVERRIDE_MARK}, so errors name
 * the override ({@code --set nic.mtu_bytes: expected ...}).
 *
 * <p>Thread-safety: stateless.
 */
final class ScenarioOverrides {
    private ScenarioOverrides() {
    }

    /**
     * Applies one {@code path=value} override to a composed document; a path through a missing
     * mapping creates it.
     *
     * @param root     document root
     * @param override the override text
     * @throws ScenarioException if the text is not {@code path=value}, the path has an empty field
     *                           name, the value holds no YAML value, or the path crosses a non-mapping
     */
    static void apply(final Node root, final String override) {
        final int eq = override.indexOf('=');
        if (eq <= 0) {
            throw new ScenarioException("--set " + override + ": expected path=value, e.g. workload.load=0.3");
        }
        final String path = override.substring(0, eq).trim();
        final String value = override.substring(eq + 1).trim();
        final String[] keys = path.split("\\.", -1);
        for (final String k : keys) {
            if (k.isBlank()) { // ".", "..", "a..b", "a.": never a field
                throw new ScenarioException("--set " + override + ": the path '" + path + "' has an empty field name;"
                    + " expected dotted field names, e.g. workload.load=0.3");
            }
        }
        final Mark mark = new Mark(ScenarioLoader.OVERRIDE_MARK, 0, 0, 0, new int[0], 0);
        Node valueNode = ScenarioLoader.compose(ScenarioLoader.OVERRIDE_MARK + " " + path, value);
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
                throw new ScenarioException("--set " + path + ": " + String.join(".", Arrays.copyOf(keys, i))
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
            if (i == keys.length - 1) {
                final NodeTuple nt = new NodeTuple(keyNode(key, mark), valueNode);
                if (idx >= 0) {
                    m.getValue().set(idx, nt);
                } else {
                    m.getValue().add(nt);
                }
            } else if (found == null) {
                final MappingNode child = new MappingNode(Tag.MAP, true, new ArrayList<>(), mark, mark, DumperOptions.FlowStyle.BLOCK);
                m.getValue().add(new NodeTuple(keyNode(key, mark), child));
                cur = child;
            } else {
                cur = found.getValueNode();
            }
        }
    }

    private static ScalarNode keyNode(final String key, final Mark mark) {
        return new ScalarNode(Tag.STR, key, mark, mark, DumperOptions.ScalarStyle.PLAIN);
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
}
