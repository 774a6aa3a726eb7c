package dev.nicsim.scenario;

import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scenario holds the firmware's path and each run loads the program again
 * ({@link ScenarioPrograms#load}): an ELF that no longer loads by then fails that run with one line
 * naming the scenario field, as the loader's own check does.
 */
class ScenarioProgramsTest {
    @Test
    void anElfThatNoLongerLoadsIsNamedByItsField(@TempDir final Path dir) throws Exception {
        final Path elf = dir.resolve("dcqcn.elf");
        Files.copy(TestPaths.root().resolve("firmware/bin/dcqcn.elf"), elf);
        final Scenario s = ScenarioLoader.load(TestPaths.root().resolve("scenarios/incast-dcqcn-firmware.yaml"),
            List.of("algorithm.firmware=" + elf), null);
        assertTrue(ScenarioPrograms.load(s).provider().name().contains("dcqcn"), "the ELF loads before it is cut");
        Files.write(elf, new byte[] {0x7f, 'E', 'L', 'F'});
        final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioPrograms.load(s));
        assertTrue(e.getMessage().startsWith("algorithm.firmware: "), e.getMessage());
        assertTrue(e.getMessage().contains("dcqcn.elf"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
