package dev.nicsim.fabric.acceptance;

import dev.nicsim.fabric.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, "Must show: Scenarios": {@code scenarios/incast-dcqcn-firmware.yaml}, the DCQCN incast
 * with the C port {@code firmware/bin/dcqcn.elf} executing on every NIC's uNIC emulator (16 x 16
 * RV64IMAC harts, E31 timing at 1.8 GHz) instead of the Java handler, meets the same DCQCN
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
