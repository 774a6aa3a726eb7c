package dev.nicsim.cli;

import dev.nicsim.testsupport.TestPaths;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 7: the JVM flags of the {@code ./nicsim} launcher (its {@code JVM_FLAGS=( ... )} bash
 * array) equal the {@code nicsim.jvmArgs} property of the parent {@code pom.xml} (used by
 * surefire), token by token and in order, so the two never drift; so do the flags JMH gives its
 * forked JVMs ({@code jvmArgsAppend} of {@code benchmarks/.../NicsimBenchmark.java}).
 */
class FabricBuildTest {

    /** The words of the launcher's {@code JVM_FLAGS=(} ... {@code )} array, comments removed. */
    static List<String> launcherFlags(final Path launcher) throws Exception {
        final List<String> lines = Files.readAllLines(launcher);
        final List<String> flags = new ArrayList<>();
        int i = 0;
        while (i < lines.size() && !lines.get(i).trim().equals("JVM_FLAGS=(")) {
            i++;
        }
        assertTrue(i < lines.size(), "no 'JVM_FLAGS=(' line in " + launcher);
        for (i++; i < lines.size(); i++) {
            String line = lines.get(i);
            final int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            if (line.trim().equals(")")) {
                return flags;
            }
            for (final String w : line.trim().split("\\s+")) {
                if (!w.isEmpty()) {
                    assertTrue(!w.contains("\"") && !w.contains("'") && !w.contains("$"),
                        "quoted or expanded word in JVM_FLAGS, compare it by hand: " + w);
                    flags.add(w);
                }
            }
        }
        throw new AssertionError("JVM_FLAGS array in " + launcher + " is not closed by ')'");
    }

    /** The whitespace-separated words of {@code project/properties/nicsim.jvmArgs}. */
    static List<String> pomFlags(final Path pom) throws Exception {
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        final NodeList props = doc.getDocumentElement().getElementsByTagName("properties");
        for (int i = 0; i < props.getLength(); i++) {
            final Element p = (Element) props.item(i);
            if (p.getParentNode() == doc.getDocumentElement()) {
                final NodeList v = p.getElementsByTagName("nicsim.jvmArgs");
                assertEquals(1, v.getLength(), "nicsim.jvmArgs in " + pom);
                return Arrays.asList(v.item(0).getTextContent().trim().split("\\s+"));
            }
        }
        throw new AssertionError("no <properties> in " + pom);
    }

    /** The string literals of the {@code jvmArgsAppend = { ... }} of a Java source file, in order. */
    static List<String> benchmarkForkFlags(final Path source) throws Exception {
        final String text = Files.readString(source);
        final int start = text.indexOf("jvmArgsAppend = {");
        assertTrue(start >= 0, "no 'jvmArgsAppend = {' in " + source);
        final int end = text.indexOf('}', start);
        final Matcher m = Pattern.compile("\"([^\"]*)\"").matcher(text.substring(start, end));
        final List<String> flags = new ArrayList<>();
        while (m.find()) {
            flags.add(m.group(1));
        }
        return flags;
    }

    @Test
    void benchmarkForkFlagsEqualPomJvmArgs() throws Exception {
        final Path root = TestPaths.root();
        final List<String> jmh = benchmarkForkFlags(
            root.resolve("benchmarks/src/main/java/dev/nicsim/benchmarks/NicsimBenchmark.java"));
        assertEquals(pomFlags(root.resolve("pom.xml")), jmh);
    }

    @Test
    void launcherJvmFlagsEqualPomJvmArgs() throws Exception {
        final Path root = TestPaths.root();
        final List<String> launcher = launcherFlags(root.resolve("nicsim"));
        final List<String> pom = pomFlags(root.resolve("pom.xml"));
        // the list is not trivially empty: Agrona and Chronicle need the module opens
        assertTrue(launcher.contains("--add-opens") && launcher.contains("java.base/jdk.internal.misc=ALL-UNNAMED"), launcher.toString());
        assertEquals(pom, launcher);
    }

    @Test
    void aDriftIsDetected(@TempDir final Path dir) throws Exception {
        // the launcher with its last flag dropped no longer matches the pom
        final Path root = TestPaths.root();
        final String text = Files.readString(root.resolve("nicsim"));
        final Path drifted = dir.resolve("nicsim");
        Files.writeString(drifted, text.replace("  -Dagrona.disable.bounds.checks=false\n", ""));
        final List<String> pom = pomFlags(root.resolve("pom.xml"));
        final List<String> launcher = launcherFlags(drifted);
        assertEquals(pom.size() - 1, launcher.size());
        assertNotEquals(pom, launcher);
    }
}
