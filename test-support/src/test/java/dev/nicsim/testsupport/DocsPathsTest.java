package dev.nicsim.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every documentation path the repository cites exists (issue 18: "Every {@code docs/...} path
 * cited anywhere (code, docs, README) exists; a test checks this").
 *
 * <ul>
 *   <li>In every source and documentation file of the repository (Java, C, headers, assembler,
 *       Markdown, YAML, shell scripts, Makefiles, {@code pom.xml}, extension-less {@code #!}
 *       scripts such as {@code .ci/run}), each {@code docs/<path>} citation must name an existing
 *       file or directory below the repository root.</li>
 *   <li>In every Markdown file, each relative link {@code [text](path)} must resolve from the
 *       file's directory, and a {@code #anchor} into a Markdown file (or the same file) must match
 *       one of its headings, slugged as GitHub does.</li>
 * </ul>
 * Build output ({@code target/}), run output ({@code out/}) and hidden directories other than
 * {@code .ci} are not scanned; code blocks and inline code spans of Markdown are not taken as
 * links (they are still scanned for {@code docs/} citations). Needs nothing of {@code ../shared}.
 */
class DocsPathsTest {

    /** {@code docs/...} not preceded by a path character (so {@code x/docs/y} is not ours); no trailing dot. */
    private static final Pattern DOCS_CITATION = Pattern.compile("(?<![A-Za-z0-9_./-])docs/([A-Za-z0-9_./-]*[A-Za-z0-9_/-])");
    /** {@code [text](target)} or {@code [text](target "title")}. */
    private static final Pattern MD_LINK = Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Set<String> EXTENSIONS = Set.of("java", "c", "h", "S", "md", "yaml", "yml", "sh", "mk");
    private static final Set<String> NAMES = Set.of("Makefile", "pom.xml");
    private static final Set<String> SKIPPED_DIRS = Set.of("target", "out", "node_modules");

    @Test
    void everyCitedDocsPathAndMarkdownLinkOfTheRepositoryExists() throws IOException {
        final Path root = SharedFiles.root();
        final List<Path> files = scannedFiles(root);
        // the scan must see the files the issue names, or it proves nothing
        assertTrue(files.contains(root.resolve("README.md")), "README.md not scanned");
        assertTrue(files.contains(root.resolve("scenario/src/main/java/dev/nicsim/scenario/ScenarioLoader.java")),
            "ScenarioLoader.java not scanned");
        assertTrue(files.contains(root.resolve(".ci/run")), ".ci/run not scanned");
        final List<String> problems = problems(root, files);
        assertTrue(problems.isEmpty(), problems.size() + " missing documentation path(s):\n" + String.join("\n", problems));
    }

    /**
     * The checker on a repository made by hand: each broken citation and link is reported with its
     * file and line, and nothing else is (a missing link target that is itself a docs path is
     * reported twice on its line, as a citation and as a link).
     */
    /** "docs/", kept apart from the names below so that this file cites no missing path itself. */
    private static final String D = "docs/";

    @Test
    void reportsEachMissingPathAndAnchorWithFileAndLine(@TempDir final Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve(D + "topic.md"), String.join("\n",
            "# Topic",
            "## Shipped `switch.rcm` fields (the RCM paper)",
            "```",
            "# not a heading",
            "```",
            "## Topic",
            "See [back](../README.md#the-two-commands) and [self](#topic-1), [bad](#not-a-heading).",
            ""));
        Files.writeString(root.resolve("README.md"), String.join("\n",
            "# nicsim",
            "## The two commands",
            "Read " + D + "topic.md, then " + D + "missing.md.",                       // line 3: missing file
            "[ok](" + D + "topic.md#shipped-switchrcm-fields-the-rcm-paper) [gone](" + D + "gone.md)", // line 4: missing link target
            "`[code](not/a/link.md)` and [web](https://example.org/x) and [a](" + D + "topic.md#nope)", // line 5: missing anchor
            "```",
            "[fenced](also/not/a/link.md)",
            "```",
            ""));
        Files.writeString(root.resolve("src/A.java"), String.join("\n",
            "/** Format in {@code " + D + "topic.md}; see ../shared/peers/x/" + D + "absent.md (not ours). */",
            "// the DPA clock (" + D + "firmware-in-the-loop.md).",               // line 2: missing file
            ""));
        final List<String> problems = problems(root, scannedFiles(root));
        assertEquals(List.of(
            "README.md:3: " + D + "missing.md does not exist",
            "README.md:4: " + D + "gone.md does not exist",
            "README.md:4: link " + D + "gone.md: " + D + "gone.md does not exist",
            "README.md:5: link " + D + "topic.md#nope: no heading 'nope' in " + D + "topic.md",
            D + "topic.md:7: link #not-a-heading: no heading 'not-a-heading' in " + D + "topic.md",
            "src/A.java:2: " + D + "firmware-in-the-loop.md does not exist"), problems);
    }

    @Test
    void slugsHeadingsAsGitHubDoes() {
        // GitHub: lower case, drop everything but letters, digits, spaces, '-' and '_', spaces to '-'
        assertEquals("risc-v-core-riscv-core", slug("RISC-V core (`riscv-core`)"));
        assertEquals("switchrcm", slug("`switch.rcm`"));
        assertEquals("the-papers-experiments-measured", slug("The paper's experiments, measured"));
        assertEquals("2026-11-24-stage-split-layout-classes-nicinitial_psn",
            slug("2026-11-24: stage split, layout classes, `nic.initial_psn`"));
    }

    /** The files scanned below {@code root}, sorted. */
    static List<Path> scannedFiles(final Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> !skipped(root, p))
                .filter(Files::isRegularFile)
                .filter(DocsPathsTest::scanned)
                .sorted()
                .toList();
        }
    }

    private static boolean skipped(final Path root, final Path p) {
        final Path rel = root.relativize(p);
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            final String dir = rel.getName(i).toString();
            if (SKIPPED_DIRS.contains(dir) || dir.startsWith(".") && !dir.equals(".ci")) {
                return true;
            }
        }
        return false;
    }

    private static boolean scanned(final Path p) {
        final String name = p.getFileName().toString();
        if (NAMES.contains(name)) {
            return true;
        }
        final int dot = name.lastIndexOf('.');
        if (dot > 0) {
            return EXTENSIONS.contains(name.substring(dot + 1));
        }
        try {
            return Files.size(p) > 2 && Files.readString(p, StandardCharsets.UTF_8).startsWith("#!");
        } catch (final MalformedInputException e) {
            return false; // binary
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line per problem, {@code file:line: what}, in file order. */
    static List<String> problems(final Path root, final List<Path> files) throws IOException {
        final List<String> out = new ArrayList<>();
        final Map<Path, Set<String>> anchors = new HashMap<>();
        for (final Path file : files) {
            final String rel = root.relativize(file).toString().replace('\\', '/');
            final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            final boolean markdown = rel.endsWith(".md");
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                final String line = lines.get(i);
                final String where = rel + ":" + (i + 1) + ": ";
                final Matcher m = DOCS_CITATION.matcher(line);
                while (m.find()) {
                    if (!Files.exists(root.resolve("docs").resolve(m.group(1)))) {
                        out.add(where + "docs/" + m.group(1) + " does not exist");
                    }
                }
                if (!markdown) {
                    continue;
                }
                if (line.trim().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                final Matcher l = MD_LINK.matcher(line.replaceAll("`[^`]*`", ""));
                while (l.find()) {
                    final String problem = linkProblem(root, file, l.group(1), anchors);
                    if (problem != null) {
                        out.add(where + "link " + l.group(1) + ": " + problem);
                    }
                }
            }
        }
        return out;
    }

    /** Why a Markdown link target of {@code file} does not resolve, or null if it does. */
    private static String linkProblem(final Path root, final Path file, final String target, final Map<Path, Set<String>> anchors)
        throws IOException {
        if (SCHEME.matcher(target).find()) {
            return null; // http:, https:, mailto:
        }
        final int hash = target.indexOf('#');
        final String pathPart = URLDecoder.decode(hash >= 0 ? target.substring(0, hash) : target, StandardCharsets.UTF_8);
        final String anchor = hash >= 0 ? target.substring(hash + 1) : "";
        final Path resolved = pathPart.isEmpty() ? file : file.getParent().resolve(pathPart).normalize();
        final String shown = root.relativize(resolved).toString().replace('\\', '/');
        if (!Files.exists(resolved)) {
            return shown + " does not exist";
        }
        if (anchor.isEmpty() || !resolved.toString().endsWith(".md")) {
            return null;
        }
        final Set<String> known = anchors.computeIfAbsent(resolved, DocsPathsTest::headingAnchors);
        return known.contains(anchor) ? null : "no heading '" + anchor + "' in " + shown;
    }

    /** The anchors GitHub gives the headings of a Markdown file (outside code blocks), duplicates numbered. */
    private static Set<String> headingAnchors(final Path md) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(md, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final Set<String> out = new LinkedHashSet<>();
        final Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (final String line : lines) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            final Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) {
                continue;
            }
            final String base = slug(h.group(2));
            final int n = seen.merge(base, 1, Integer::sum) - 1;
            out.add(n == 0 ? base : base + "-" + n);
        }
        return out;
    }

    /** GitHub's heading anchor: lower case, letters/digits/spaces/'-'/'_' kept, each space a '-'. */
    static String slug(final String heading) {
        final StringBuilder b = new StringBuilder();
        for (final char c : heading.toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.append(c);
            } else if (c == ' ') {
                b.append('-');
            }
        }
        return b.toString();
    }
}
