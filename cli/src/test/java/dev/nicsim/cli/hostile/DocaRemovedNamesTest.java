package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DOCA 2.x program under the default DOCA 3.3 headers (docs/doca-pcc.md, "Release surface"): the
 * fixed counter IDs {@code DOCA_PCC_DEV_NIC_COUNTER_PORT{0..3}_{RX,TX}_BYTES} exist in the 2.x
 * headers and not in 3.x (fact sheet Addendum A.3, A.12). Such a program must stop with exactly one
 * compiler error that names the release and the flag ({@code DOCA_VERSION=2.9}), and build with
 * that flag. Also runs {@code make -C firmware check-headers}, which holds every
 * {@code tests/doca/*_fails.c} to its one expected error line.
 *
 * <p>Needs {@code make} and {@code riscv64-unknown-elf-gcc}; skipped with one line without them
 * (a failure under {@code -Dnicsim.requireTools=true}).
 */
class DocaRemovedNamesTest {
    /** A 2.x-style RP program: configures and samples the port-0 TX-bytes counter by its fixed ID. */
    private static final String PROGRAM_2X = """
        #include <doca_pcc_dev.h>
        static uint32_t ids[1] = {DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES};
        static uint32_t values[1];
        void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
        {
            doca_pcc_dev_nic_counters_config(ids, 1, values);
            *disable_event_bitmask = 0;
        }
        void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctx, doca_pcc_dev_event_t *event,
                                    const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
        {
            (void)algo_ctx; (void)event; (void)attr;
            doca_pcc_dev_nic_counters_sample();
            results->rate = values[0] ? values[0] : 1;
        }
        """;

    /** GCC 12's message for the unavailable enumerator NICSIM_DOCA_REMOVED declares (doca_version.h). */
    private static final String EXPECTED = "error: 'DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES' is unavailable: fixed counter ID"
        + " removed after DOCA 2.x; build with DOCA_VERSION=2.9, or use DOCA_PCC_DEV_GET_PORT_COUNTER_ID(port, type, 0)";

    @TempDir
    Path dir;

    private record Result(int exit, String log) {
    }

    private static Result make(final String... args) throws IOException, InterruptedException {
        final Path root = TestPaths.root();
        final List<String> cmd = new ArrayList<>(List.of("make", "-s", "-C", root.resolve("firmware").toString()));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true).start();
        final String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "make did not finish: " + cmd);
        return new Result(p.exitValue(), log);
    }

    @Test
    void fixedCounterIdsStopWithOneErrorNamingTheFlagAndBuildUnderDoca29() throws IOException, InterruptedException {
        Hostile.needFirmwareTools();
        final Path src = Files.writeString(dir.resolve("agent_2x.c"), PROGRAM_2X);
        final Path elf = dir.resolve("agent.elf");

        final Result under33 = make("ALGO=" + src, "OUT=" + elf);
        assertNotEquals(0, under33.exit(), under33.log());
        final List<String> errors = under33.log().lines().filter(l -> l.contains("error:") && !l.startsWith("make")).toList();
        assertEquals(1, errors.size(), under33.log());
        final String line = errors.get(0);
        // the Makefile compiles each source from its own directory: the message names the base name
        assertEquals("agent_2x.c:2:1: " + EXPECTED, line);
        assertTrue(Files.notExists(elf), "an ELF was written although the build failed");

        final Result under29 = make("ALGO=" + src, "OUT=" + elf, "DOCA_VERSION=2.9");
        assertEquals(0, under29.exit(), under29.log());
        assertTrue(Files.size(elf) > 0);
    }

    @Test
    void everyFailsProgramStopsWithItsExpectedLine() throws IOException, InterruptedException {
        Hostile.needFirmwareTools();
        final Result r = make("check-headers");
        assertEquals(0, r.exit(), r.log());
        assertTrue(r.log().contains("headers: Addendum A programs build under DOCA 3.3, 3.2, 3.0 and 2.9"), r.log());
    }
}
