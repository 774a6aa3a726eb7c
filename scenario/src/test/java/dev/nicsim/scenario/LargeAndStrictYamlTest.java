package dev.nicsim.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * YAML inputs larger than SnakeYAML's default 3 Mi code points load ({@link ScenarioLoader#MAX_YAML_CODE_POINTS}),
 * a mailbox request's {@code hex} takes separators between bytes only, and the loader's messages name
 * what the user wrote: every alternative field in "known here", the {@code --set} text, and a
 * mailbox file as a mailbox file.
 */
class LargeAndStrictYamlTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
        name: big
        topology:
          type: star
          hosts: 4
          host_link: {rate_gbps: 100, delay_ns: 1000}
        algorithm:
          name: dcqcn
        workload:
          type: flows
          flows:
        """;

    @Test
    void aScenarioOfSeventyThousandExplicitFlowsLoads() throws IOException {
        final StringBuilder b = new StringBuilder(HEAD);
        final int n = 70_000;
        for (int i = 0; i < n; i++) {
            // 52 characters a line: 70,000 lines are 3.6 M characters, over SnakeYAML's default 3,145,728
            b.append(String.format("    - {src: %d, dst: %d, size_bytes: %07d, start_us: %05d}%n", i % 3 + 1, 0, 1000 + i,
                i % 100_000));
        }
        assertTrue(b.length() > 3_145_728, "the file is " + b.length() + " characters");
        final Path f = Files.writeString(dir.resolve("big.yaml"), b);
        final Scenario s = ScenarioLoader.load(f, List.of(), null);
        assertEquals(n, s.workload().flowList().size());
        assertEquals(1000 + n - 1, s.workload().flowList().get(n - 1).sizeBytes());
    }

    @Test
    void aMailboxFileOfTwoHundredThousandMessagesLoads() throws IOException {
        final StringBuilder b = new StringBuilder("mailbox:\n");
        final int n = 200_000;
        for (int i = 0; i < n; i++) {
            b.append("  - {at_ns: ").append(i).append(", hex: '0a 0b', nic: 0}\n");
        }
        assertTrue(b.length() > 3_145_728, "the file is " + b.length() + " characters");
        final List<Scenario.MailboxMessage> m = ScenarioLoader.mailboxFile(Files.writeString(dir.resolve("m.yaml"), b));
        assertEquals(n, m.size());
        assertEquals("0a0b", m.get(n - 1).requestHex());
        assertEquals((n - 1) * 1000L, m.get(n - 1).atPs());
    }

    private Path mailbox(final String entry) throws IOException {
        return Files.writeString(dir.resolve("m.yaml"), "# messages\nmailbox:\n  - " + entry + "\n");
    }

    private String mailboxError(final String entry) throws IOException {
        final Path f = mailbox(entry);
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.mailboxFile(f)).getMessage();
    }

    @Test
    void hexTakesSeparatorsBetweenBytesOnly() throws IOException {
        for (final String ok : new String[] {"'00 00 04 00'", "'00000400'", "'0000 0400'", "'0x00000400'", "'00:00:04:00'",
            "'00_00_04_00'", "' 00  00\t04 00 '"}) {
            assertEquals("00000400", ScenarioLoader.mailboxFile(mailbox("{at_ns: 5, hex: " + ok + ", nic: 0}")).get(0).requestHex(), ok);
        }
        assertEquals("", ScenarioLoader.mailboxFile(mailbox("{at_ns: 5, hex: '', nic: 0}")).get(0).requestHex());
        for (final String bad : new String[] {"1 2 3 4", "123 4", "0 00 04 00", "000", "00 0g"}) {
            final String m = mailboxError("{at_ns: 5, hex: '" + bad + "', nic: 0}");
            assertEquals(dir.resolve("m.yaml") + ":3: mailbox[0].hex: expected the bytes in order as pairs of hex digits,"
                + " separated by spaces (or _ or :) only between bytes, e.g. '00 00 04 00' or '00000400', got '" + bad + "'", m);
        }
    }

    @Test
    void knownHereListsEveryAlternativeField() throws IOException {
        final String m = mailboxError("{at_us: 5, words: [1], nic: 0, nicc: 1}");
        assertTrue(m.endsWith("mailbox[0].nicc: unknown field; known here: at_us, at_ns, hex, words, nic, max_response_bytes"), m);
    }

    @Test
    void aMailboxFileThatIsAListIsCalledAMailboxFile() throws IOException {
        final Path f = Files.writeString(dir.resolve("m.yaml"), "- {at_ns: 5, hex: '00', nic: 0}\n");
        assertEquals(f + ":1: the mailbox file: expected a mapping, 'mailbox:' and a list of messages, got a list",
            assertThrows(ScenarioException.class, () -> ScenarioLoader.mailboxFile(f)).getMessage());
    }

    @Test
    void aSetValueThatHoldsNoYamlValueIsNamed() throws IOException {
        final Path f = Files.writeString(dir.resolve("s.yaml"), HEAD.replace("type: flows\n  flows:\n",
            "type: incast\n  senders: 2\n  size_bytes: 1000\n"));
        assertEquals("--set name=---: the value '---' holds no YAML value (a document marker or a comment); quote it to give"
            + " it as text, e.g. --set \"name='---'\"",
            assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of("name=---"), null)).getMessage());
    }

    @Test
    void aFileOverTheLimitIsRefusedSayingTheLimit() {
        assertEquals(256 * 1024 * 1024, ScenarioLoader.MAX_YAML_CODE_POINTS);
        final String text = "a".repeat(3 << 20) + "\uD83D\uDE00"; // 3 Mi + 1 code points in 3 Mi + 2 chars
        ScenarioLoader.checkCodePoints("f.yaml", text, (3 << 20) + 1);
        assertEquals("f.yaml: the file holds 3145729 characters, more than the 3145728 a YAML input may hold (3 Mi); split it",
            assertThrows(ScenarioException.class, () -> ScenarioLoader.checkCodePoints("f.yaml", text, 3 << 20)).getMessage());
    }
}
