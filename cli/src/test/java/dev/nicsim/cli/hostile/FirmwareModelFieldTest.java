package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code algorithm.firmware_model} that is not a model: a directory, a missing file, or a file that is
 * not a model YAML. Each is bad input: one line naming the scenario file, the line and the field, and
 * what was expected, exit 2, nothing written (docs/scenarios.md, "algorithm").
 */
class FirmwareModelFieldTest {
    @TempDir
    Path dir;

    private Path scenario(final String model) throws Exception {
        final Path elf = TestPaths.root().resolve("firmware/bin/dcqcn.elf");
        return Hostile.scenario(dir, Hostile.SMALL.replace("  name: dcqcn\n",
            "  firmware: " + elf + "\n  firmware_model: " + model + "\n"));
    }

    private String line(final Path s) {
        final Path out = dir.resolve("out");
        final String l = Hostile.badInput("run", s.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(false, Files.exists(out), "nothing is written");
        return l;
    }

    @Test
    void aDirectoryIsNamedAsOne() throws Exception {
        Files.createDirectory(dir.resolve("adir"));
        final Path s = scenario("adir");
        assertEquals("nicsim: " + s + ":10: algorithm.firmware_model: 'adir' is a directory (expected bf3-dpa, e31, ibex or a"
            + " model YAML file)", line(s));
    }

    @Test
    void aMissingFileSaysWhereItLooked() throws Exception {
        final Path s = scenario("nowhere.yaml");
        assertEquals("nicsim: " + s + ":10: algorithm.firmware_model: no such file 'nowhere.yaml' (looked next to the scenario"
            + " and in the current directory; expected bf3-dpa, e31, ibex or a model YAML file)", line(s));
    }

    @Test
    void anUnreadableModelFileGivesItsReasonInWords() throws Exception {
        final Path bad = Files.write(dir.resolve("bad.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 'x'});
        final Path s = scenario("bad.yaml");
        assertEquals("nicsim: " + s + ":10: algorithm.firmware_model: " + bad + ": cannot read model file: not UTF-8 text"
            + " (a malformed byte sequence) (expected bf3-dpa, e31, ibex or a model YAML file)", line(s));
    }

    @Test
    void aNameNoFileSystemHoldsIsBadInputNotAnInternalError() throws Exception {
        // YAML's "\0" escape puts a NUL character in the name, which no Linux path can hold
        final Path s = scenario("\"bad\\0model.yaml\"");
        assertEquals("nicsim: " + s + ":10: algorithm.firmware_model: 'bad\\0model.yaml' is not a valid path here"
            + " (Nul character not allowed)", line(s));
    }
}
