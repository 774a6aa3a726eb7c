package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.nicsim.cli.hostile.Hostile.badInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 2: a trace cut short or with zeroed records is refused (exit 2, naming the
 * trace and the last good record) by {@code trace dump}, {@code replay} and {@code replay --verify}.
 * Before the fix {@code dump} printed half the events plus an invented one, and {@code --verify}
 * compared against the remains. Also: {@code --lenient} keeps the whole packets before a capture's
 * cut last record.
 */
class CutTraceTest {
    @TempDir
    Path dir;

    /** Records the small scenario's trace; returns its directory. */
    private Path record() throws IOException {
        final Path s = Hostile.scenario(dir, Hostile.SMALL);
        final Path t = dir.resolve("t");
        Hostile.ok("run", s.toString(), "--no-progress", "--out", dir.resolve("o").toString(), "--record", t.toString());
        return t;
    }

    /** A copy of the trace with its cycle file passed through {@code damage(file, usedBytes)}. */
    private Path damaged(final Path t, final String name, final Damage damage) throws IOException {
        final Path c = Files.createDirectory(dir.resolve(name));
        Path cycle = null;
        for (final String f : Hostile.names(t)) {
            Files.copy(t.resolve(f), c.resolve(f));
            if (f.endsWith(".cq4")) {
                cycle = c.resolve(f);
            }
        }
        final byte[] all = Files.readAllBytes(cycle);
        int used = all.length;
        while (used > 0 && all[used - 1] == 0) {
            used--; // Chronicle pre-allocates the file: the records end at the last non-zero byte
        }
        damage.apply(cycle, used);
        return c;
    }

    private interface Damage {
        void apply(Path cycleFile, int usedBytes) throws IOException;
    }

    private void refusedEverywhere(final Path cut, final String why) {
        final String dump = badInput("trace", "dump", cut.toString());
        assertTrue(dump.startsWith("nicsim: " + cut + ": "), dump);
        assertTrue(dump.contains(why), dump);
        assertEquals(dump, badInput("replay", cut.toString(), "--algorithm", "dcqcn", "--out", dir.resolve("r").toString()));
        assertEquals(dump, badInput("replay", cut.toString(), "--algorithm", "dcqcn", "--verify", "--out",
            dir.resolve("r").toString()));
    }

    @Test
    void aTraceCutInHalfIsRefused() throws IOException {
        final Path t = record();
        assertEquals(0, Cli.run("trace", "dump", t.toString()).exitCode());
        final Path cut = damaged(t, "cut", (f, used) -> {
            try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
                r.setLength(used / 2);
            }
        });
        // Chronicle maps the file: a cut one is refused by its size before anything reads past its end
        refusedEverywhere(cut, "the trace is cut short: 19700101F.cq4 is " + Files.size(cut.resolve("19700101F.cq4"))
            + " bytes, not a whole Chronicle Queue file");
    }

    @Test
    void aTraceWithItsSecondHalfZeroedIsRefused() throws IOException {
        final Path t = record();
        final Path zeroed = damaged(t, "zeroed", (f, used) -> {
            final byte[] b = Files.readAllBytes(f);
            Arrays.fill(b, used / 2, used, (byte) 0);
            Files.write(f, b);
        });
        // Chronicle's index lies in the zeroed half: not even the header can be found
        refusedEverywhere(zeroed, "cut or zeroed");
    }

    @Test
    void aTraceWithItsLastRecordsZeroedNamesTheLastGoodRecord() throws IOException {
        final Path t = record();
        final Path zeroed = damaged(t, "tail", (f, used) -> {
            final byte[] b = Files.readAllBytes(f);
            Arrays.fill(b, used - 200, used, (byte) 0); // about the last 2 records and the end record
            Files.write(f, b);
        });
        refusedEverywhere(zeroed, "last good record #");
    }

    @Test
    void aCorruptMetadataFileIsRefusedAtOnce() throws IOException {
        // defect 9: garbage over metadata.cq4t's header was refused only after Chronicle's ~11 s wait
        final Path t = record();
        final Path bad = damaged(t, "badmeta", (f, used) -> { });
        final byte[] meta = Files.readAllBytes(bad.resolve("metadata.cq4t"));
        Arrays.fill(meta, 4, 64, (byte) 0x5A);
        Files.write(bad.resolve("metadata.cq4t"), meta);
        final long start = System.nanoTime();
        final String line = badInput("trace", "dump", bad.toString());
        assertTrue(line.contains("metadata.cq4t does not start with Chronicle Queue's header"), line);
        // a hang guard, not a speed figure: Chronicle's wait for a header was 11 s
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "took " + (System.nanoTime() - start) / 1e9 + " s");
    }

    @Test
    void aTraceWhoseRunFailedIsNotWhole() throws IOException {
        // a trace the writer never finished (the run threw) reads as cut: no end record
        final Path t = record();
        final Path unfinished = damaged(t, "unfinished", (f, used) -> {
            final byte[] b = Files.readAllBytes(f);
            // the end record is the last entry: 4-byte Chronicle header + "end" + 12 bytes; zero its body
            Arrays.fill(b, used - 12, used, (byte) 0);
            Files.write(f, b);
        });
        final String line = badInput("trace", "dump", unfinished.toString());
        assertTrue(line.contains("last good record #"), line);
    }
}
