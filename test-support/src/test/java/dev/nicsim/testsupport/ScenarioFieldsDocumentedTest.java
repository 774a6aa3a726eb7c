package dev.nicsim.testsupport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every field name {@code ScenarioLoader} reads appears in {@code docs/scenarios.md} (issue 18:
 * "scenarios.md: every field"), so a field added to the loader without its documentation fails
 * here. The loader is read as text: each key passed to a {@code YamlFields} accessor
 * ({@code integer}, {@code number}, {@code bool}, {@code string}, {@code oneOf}, {@code oneOfOr},
 * {@code intList}, {@code wordList}, {@code mappings}, {@code mappingsOrEmpty}, {@code child}, {@code childOrEmpty}, {@code has},
 * {@code isScalar}) as a string literal. A key counts as documented when the page names it in
 * code style, alone or as a part of a dotted path ({@code `k`}, {@code `host_link.rate_gbps`},
 * {@code `by_rate[i].pmax`}). The per-event-type keys of {@code nic.emulator.handler_cycles}
 * come from {@code PccEventType.shortName} and are not literals; the page lists them by hand.
 */
class ScenarioFieldsDocumentedTest {

    private static final Pattern KEY = Pattern.compile(
        "\\.(?:integer|number|bool|string|oneOf|oneOfOr|intList|wordList|mappings|mappingsOrEmpty|child|childOrEmpty|has|isScalar)\\(\\s*\"([A-Za-z_][A-Za-z0-9_]*)\"");

    @Test
    void everyFieldTheLoaderReadsIsInDocsScenarios() throws IOException {
        final Path root = SharedFiles.root();
        final String loader = Files.readString(
            root.resolve("scenario/src/main/java/dev/nicsim/scenario/ScenarioLoader.java"), StandardCharsets.UTF_8);
        final String page = Files.readString(root.resolve("docs/scenarios.md"), StandardCharsets.UTF_8);
        final Set<String> keys = keys(loader);
        // the loader reads about a hundred distinct keys; far fewer means the pattern no longer finds them
        assertTrue(keys.size() > 90, "only " + keys.size() + " keys found in ScenarioLoader.java: " + keys);
        final List<String> missing = new ArrayList<>();
        for (final String k : keys) {
            if (!documented(page, k)) {
                missing.add(k);
            }
        }
        assertTrue(missing.isEmpty(), "fields ScenarioLoader reads that docs/scenarios.md does not name: " + missing);
    }

    @Test
    void findsKeysAndTheirDocumentation() {
        final Set<String> keys = keys("""
            final long buffer = s.integer("buffer_bytes", 32L << 20, 10_000, 1L << 34);
            final YamlFields p = s.childOrEmpty("pfc");
            if (w.has("cdf") && w.isScalar("x")) { w.oneOfOr("mode", "dynamic", "static", "dynamic"); }
            throw w.fieldError("size_bytes", "not a read");
            """);
        // fieldError reports a key, it does not read one; oneOfOr's later literals are values
        assertEquals(Set.of("buffer_bytes", "pfc", "cdf", "x", "mode"), keys);
        final String page = "```sh\n./nicsim run x.yaml\n```\n"
            + "| `switch.pfc` | ignored | `host_link.rate_gbps` | `by_rate[i].kmin_bytes`, `kmax_bytes` | `k` |";
        assertTrue(documented(page, "pfc"));
        assertTrue(documented(page, "rate_gbps"));
        assertTrue(documented(page, "kmin_bytes"));
        assertTrue(documented(page, "kmax_bytes"));
        assertTrue(documented(page, "k"));
        assertTrue(!documented(page, "rate"), "a prefix of a name is not the name");
        assertTrue(!documented(page, "bytes"), "a suffix of a name is not the name");
        assertTrue(!documented(page, "ignored"), "a name outside code style does not count");
    }

    static Set<String> keys(final String source) {
        final Set<String> out = new TreeSet<>();
        final Matcher m = KEY.matcher(source);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The key inside a one-line code span (fence lines ignored), delimited by the span's backticks, {@code .}, {@code [}/{@code ]} or {@code {}. */
    static boolean documented(final String page, final String key) {
        // fence lines (```) would pair their backticks with the spans around them
        final Matcher span = Pattern.compile("`([^`\n]+)`").matcher(page.replaceAll("(?m)^\\s*```.*$", ""));
        final Pattern part = Pattern.compile("(?:^|[.\\]{])" + Pattern.quote(key) + "(?:$|[.\\[}])");
        while (span.find()) {
            if (part.matcher(span.group(1)).find()) {
                return true;
            }
        }
        return false;
    }
}
