package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 8: every numeric key of a model YAML file has a documented range
 * (docs/riscv-core.md, "Model value ranges") and a check that refuses a value just outside it with one
 * line naming the file and the key, exit 2, through {@code riscv run --model FILE}; the value at
 * each end of the range is accepted. The ranges below are the documented table's, written out here.
 */
class ModelRangesTest {
    /** A model with every key, each at a valid value (the bf3-dpa shape, made small). */
    private static final String VALID = """
        name: full
        cores: 2
        threads: 2
        clock_hz: 1000000000
        latency: {alu: 1, load: 2, load_subword: 2, amo: 2}
        issue: {div: 1}
        branch: {predictor: bht, mispredict_penalty: 3, bht_entries: 128, btb_entries: 40, ras_entries: 2}
        memory:
          l1d: {size_bytes: 1024, ways: 4, line_bytes: 64, latency: 2}
          l1i: {size_bytes: 1024, ways: 4, line_bytes: 64, latency: 1}
          l2: {size_bytes: 8192, ways: 4, line_bytes: 64, latency: 10}
          llc: {size_bytes: 16384, ways: 4, line_bytes: 64, latency: 20}
          dram: {latency: 100}
        misaligned: extra_cycles
        misaligned_extra_cycles: 2
        """;

    /**
     * One key: models with the key just outside its range (each must be refused naming the key)
     * and at the ends of its range (each must run).
     */
    private record Key(String name, List<String> outside, List<String> ends) {
    }

    /** The models of one key: {@code template} with {@code %d} replaced by each value. */
    private static Key key(final String name, final String template, final long[] outside, final long[] ends) {
        return new Key(name, java.util.Arrays.stream(outside).mapToObj(v -> String.format(Locale.ROOT, template, v)).toList(),
            java.util.Arrays.stream(ends).mapToObj(v -> String.format(Locale.ROOT, template, v)).toList());
    }

    /** VALID with one text replaced by {@code replacement} (holding {@code %d}). */
    private static String valid(final String text, final String replacement) {
        assertTrue(VALID.contains(text), text);
        return VALID.replace(text, replacement);
    }

    private static List<Key> keys() {
        final List<Key> k = new ArrayList<>();
        for (final TimingClass c : TimingClass.values()) {
            final String n = c.name().toLowerCase(Locale.ROOT);
            // on a model without memory: with memory, latency.load must equal memory.l1d.latency
            k.add(key("latency." + n, "name: x\nlatency: {" + n + ": %d}\n", new long[] {0, 10001}, new long[] {1, 10000}));
            k.add(key("issue." + n, "name: x\nissue: {" + n + ": %d}\n", new long[] {0, 10001}, new long[] {1, 10000}));
        }
        for (final String p : new String[] {"mispredict_penalty", "taken_penalty", "jump_penalty", "ras_entries"}) {
            k.add(key("branch." + p, "name: x\nbranch: {predictor: bht, bht_entries: 128, btb_entries: 40, " + p + ": %d}\n",
                new long[] {-1, 10001}, new long[] {0, 10000}));
        }
        k.add(key("branch.bht_entries", valid("bht_entries: 128", "bht_entries: %d"), new long[] {0, 10001}, new long[] {1, 10000}));
        k.add(key("branch.btb_entries", valid("btb_entries: 40", "btb_entries: %d"), new long[] {0, 10001}, new long[] {1, 10000}));
        k.add(key("misaligned_extra_cycles", valid("misaligned_extra_cycles: 2", "misaligned_extra_cycles: %d"),
            new long[] {0, 10001}, new long[] {1, 10000}));
        k.add(key("cores", valid("cores: 2", "cores: %d"), new long[] {0, 1025}, new long[] {1, 1024}));
        k.add(key("threads", valid("threads: 2", "threads: %d"), new long[] {0, 65}, new long[] {1, 64}));
        k.add(key("clock_hz", valid("clock_hz: 1000000000", "clock_hz: %d"), new long[] {0, 999_999, 100_000_000_001L},
            new long[] {1_000_000, 100_000_000_000L}));
        for (final String level : new String[] {"l1d", "l1i", "l2", "llc"}) {
            final String line = VALID.lines().filter(l -> l.trim().startsWith(level + ":")).findFirst().orElseThrow().trim();
            final String latency = line.replaceAll(".*latency: (\\d+)}", "$1");
            final String geometry = level + ": {size_bytes: %s, ways: %s, line_bytes: %s, latency: " + latency + "}";
            // smallest: 64 B with 1 way of 8 B lines; largest: 1 GiB with 64 ways of 4 KiB lines (4096 sets)
            k.add(key("memory." + level + ".size_bytes", valid(line, String.format(geometry, "%d", 1, 8)), new long[] {56},
                new long[] {64}));
            k.add(key("memory." + level + ".size_bytes", valid(line, String.format(geometry, "%d", 64, 4096)),
                new long[] {(1L << 30) + 64 * 4096}, new long[] {1L << 30}));
            k.add(key("memory." + level + ".ways", valid(line, String.format(geometry, 1 << 20, "%d", 8)), new long[] {0, 65},
                new long[] {1, 64}));
            k.add(key("memory." + level + ".line_bytes", valid(line, String.format(geometry, 1 << 20, 1, "%d")),
                new long[] {4, 48, 8192}, new long[] {8, 4096}));
            // latency: l1i's is outside the chain l1d <= l2 <= llc <= dram (and l1d's equals latency.load)
            k.add(key("memory." + level + ".latency", valid(line, line.replace("latency: " + latency, "latency: %d")),
                new long[] {0, 100_001}, level.equals("l1i") ? new long[] {1, 100_000} : new long[0]));
        }
        k.add(key("memory.dram.latency", valid("dram: {latency: 100}", "dram: {latency: %d}"), new long[] {0, 100_001},
            new long[] {20, 100_000}));
        return k;
    }

    private static RiscvCommandTest.Result withModel(final Path dir, final String yaml) throws Exception {
        final Path m = dir.resolve("m.yaml");
        Files.writeString(m, yaml);
        return RiscvCommandTest.run("run", RiscvCommandTest.hello(dir, 64).toString(), "--model", m.toString());
    }

    @Test
    void everyNumericKeyIsRefusedOutsideItsRangeNamingTheKey(@TempDir final Path dir) throws Exception {
        assertEquals(7, withModel(dir, VALID).code(), withModel(dir, VALID).err());
        final Path m = dir.resolve("m.yaml");
        int checked = 0;
        for (final Key k : keys()) {
            for (final String yaml : k.outside()) {
                final RiscvCommandTest.Result r = withModel(dir, yaml);
                assertEquals(2, r.code(), k.name() + ": " + yaml + r.err());
                assertTrue(r.err().startsWith("nicsim riscv: " + m + ": " + k.name() + " = "), k.name() + ": " + yaml + r.err());
                assertEquals(1, r.err().lines().count(), r.err());
                checked++;
            }
            for (final String yaml : k.ends()) {
                final RiscvCommandTest.Result r = withModel(dir, yaml);
                assertEquals(7, r.code(), k.name() + ": " + yaml + r.err());
            }
        }
        assertTrue(checked > 80, "checked " + checked);
        assertEquals("nicsim riscv: " + m + ": latency.load = 10001 is out of range [1, 10000]\n",
            withModel(dir, "name: x\nlatency: {load: 10001}\n").err());
        // a value too large for an int is out of range, not "not an integer"
        assertEquals("nicsim riscv: " + m + ": latency.alu = 99999999999 is out of range [1, 10000]\n",
            withModel(dir, "name: x\nlatency: {alu: 99999999999}\n").err());
        assertEquals("nicsim riscv: " + m + ": cores = 99999999999 is out of range (above 2147483647)\n",
            withModel(dir, "name: x\ncores: 99999999999\n").err());
        // clock_hz is a whole number of Hz
        assertEquals("nicsim riscv: " + m + ": clock_hz = '2.5' is not a whole number of Hz (e.g. 1800000000)\n",
            withModel(dir, "name: x\nclock_hz: 2.5\n").err());
    }

    @Test
    void everyKeyIsInTheDocumentedTable() throws Exception {
        Path docs = Path.of("").toAbsolutePath();
        while (!Files.exists(docs.resolve("docs/riscv-core.md"))) {
            docs = docs.getParent();
        }
        final String text = Files.readString(docs.resolve("docs/riscv-core.md"));
        final String table = text.substring(text.indexOf("### Model value ranges"));
        for (final Key k : keys()) {
            final String doc = k.name().replaceAll("^latency\\.\\w+", "latency.CLASS").replaceAll("^issue\\.\\w+", "issue.CLASS")
                .replaceAll("^memory\\.l(1d|1i|2|lc)\\.", "memory.LEVEL.");
            assertTrue(table.contains("`" + doc + "`"), k.name() + " (" + doc + ") is not in docs/riscv-core.md's range table");
        }
    }
}
