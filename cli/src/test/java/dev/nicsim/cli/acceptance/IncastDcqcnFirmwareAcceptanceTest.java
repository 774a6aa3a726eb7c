package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, "Must show: Scenarios": {@code scenarios/incast-dcqcn-firmware.yaml}, the DCQCN incast
 * with the C port {@code firmware/bin/dcqcn.elf} (RV64IMAC + Zbb + Zbs) executing on every NIC's uNIC
 * emulator (bf3-dpa: 16 cores x 16 hardware threads at 1.8 GHz) instead of the Java handler, meets the same DCQCN
 * acceptance as {@link IncastDcqcnAcceptanceTest} (inherited tests: every flow done, 0 drops, no
 * retransmission, PFC headroom kept, bottleneck utilisation at least 90 % from 500 us to the end).
 * Uses the committed ELF: no cross compiler needed; skipped with one line if the checkout lacks it.
 */
class IncastDcqcnFirmwareAcceptanceTest extends IncastDcqcnAcceptanceTest {
    private static final int SENDERS = 16;

    @Override
    Path scenarioFile() {
        final Path elf = TestPaths.root().resolve("firmware/bin/dcqcn.elf");
        Assumptions.assumeTrue(Files.exists(elf), "firmware/bin/dcqcn.elf not in this checkout");
        return Acceptance.shipped("incast-dcqcn-firmware.yaml");
    }

    /**
     * The shipped ELF is built for Zbb/Zbs: on e31, which traps them, the run is refused before it
     * starts, with one line naming the field, the missing extensions and the way out (exit 2).
     */
    @Test
    void e31RefusesTheZbbElfWithOneLine() {
        final Cli.Outcome o = Cli.run("run", scenarioFile().toString(), "--no-progress", "--set", "algorithm.firmware_model=e31");
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("firmware") && o.err().contains("model e31 does not execute zbb, zbs")
            && o.err().contains("make -C firmware FW_MARCH=rv64imac"), o.err());
    }

    /**
     * The firmware, not a Java handler, reacted: every sender's NIC ran firmware instructions and
     * handled CNPs in the C port's own counter, and no call trapped or ran over the budget.
     */
    @Test
    void theFirmwareRanOnEverySenderWithoutFaults() {
        for (int h = 0; h < SENDERS; h++) {
            final String cc = "host" + h + "/cc";
            assertTrue(counters().value(cc, "firmware_instructions") > 0, cc + " ran no firmware");
            assertTrue(counters().value(cc, "dcqcn_cnp_handled") > 0, cc + " handled no CNP in the firmware");
            assertEquals(0, counters().value(cc, "firmware_faults"), cc);
            assertEquals(0, counters().value(cc, "firmware_budget_exceeded"), cc);
        }
    }
}
