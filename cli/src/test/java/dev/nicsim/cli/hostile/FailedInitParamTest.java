package dev.nicsim.cli.hostile;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 defect 7, second half, through {@code nicsim firmware info}: the committed
 * {@code firmware/bin/test/doca_failed_param.elf} ({@code firmware/testfw/doca_failed_param.c}) calls
 * {@code doca_pcc_dev_algo_init_param} for parameter 1 with default 500 above max 100 (and declares counter
 * 99, past the 16 the runtime keeps), ignoring both failures. The parameter list shows parameters 0 and 2
 * only, and the failures are listed, one line each, and counted.
 */
class FailedInitParamTest {
    @Test
    void firmwareInfoListsOnlyTheDeclaredParametersAndTheFailedCalls() {
        final Path elf = TestPaths.root().resolve("firmware/bin/test/doca_failed_param.elf");
        Assumptions.assumeTrue(Files.exists(elf), "firmware/bin/test/doca_failed_param.elf not in this checkout");
        final Cli.Outcome o = Cli.run("firmware", "info", elf.toString());
        assertEquals(0, o.exitCode(), o.err());
        final List<String> lines = o.out().lines().toList();
        final int params = lines.indexOf("parameters:");
        final int counters = lines.indexOf("counters:");
        assertTrue(params >= 0 && counters == params + 3, o.out());
        assertTrue(lines.get(params + 1).trim().startsWith("good_lo"), o.out());
        assertTrue(lines.get(params + 1).contains("id 0  ") && lines.get(params + 1).contains("range [1, 100]"), o.out());
        assertTrue(lines.get(params + 2).trim().startsWith("good_hi"), o.out());
        assertTrue(lines.get(params + 2).contains("id 2  "), o.out());
        assertFalse(o.out().contains("bad_default"), "the failed parameter is listed as declared:\n" + o.out());
        assertEquals("  calls                        id 0", lines.get(counters + 1), o.out());
        assertTrue(lines.contains("  [0] id 0xf1 v1.0 \"test firmware: a failed init_param ignored\": 3 parameters, 1 counters"
            + " (port 0 slot 0: runs)"), o.out());
        final int failed = lines.indexOf("failed set-up calls: 2 (returned DOCA_PCC_DEV_STATUS_FAIL in doca_pcc_dev_user_init;"
            + " nothing of them is declared)");
        assertTrue(failed >= 0, o.out());
        assertEquals(List.of(
            "  doca_pcc_dev_algo_init_param(algo 0, param 1, default 500, max 100, min 1, permissions 1) returned"
                + " DOCA_PCC_DEV_STATUS_FAIL",
            "  doca_pcc_dev_algo_init_counter(algo 0, counter 99, max 4294967295, permissions 1) returned DOCA_PCC_DEV_STATUS_FAIL"),
            lines.subList(failed + 1, lines.size()));
    }

    @Test
    void aShippedFirmwareReportsNoFailedCall() {
        final Path elf = TestPaths.root().resolve("firmware/bin/dcqcn.elf");
        Assumptions.assumeTrue(Files.exists(elf), "firmware/bin/dcqcn.elf not in this checkout");
        final Cli.Outcome o = Cli.run("firmware", "info", elf.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().endsWith("failed set-up calls: none" + System.lineSeparator()), o.out());
    }
}
