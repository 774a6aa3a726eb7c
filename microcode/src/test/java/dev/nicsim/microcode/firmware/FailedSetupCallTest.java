package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 defect 7, second half: "a failed init_param must not show as a declared parameter". The
 * committed {@code firmware/bin/test/doca_failed_param.elf} ({@code firmware/testfw/doca_failed_param.c})
 * declares parameters 0 (default 10 in [1, 100]), 1 (default 500, max 100: must fail) and 2 (default 7
 * in [7, 9]), counters 0 and 99 (past the 16 the runtime keeps: must fail), and ignores every return
 * value. Expected, from that source and the runtime's rules (firmware/runtime/rt.c, ABI.md section 6):
 * parameters 0 and 2 only, counter 0 only, the runtime's own table row of parameter 1 left free, and
 * two failed set-up calls reported, one line each, with their arguments, and counted.
 */
class FailedSetupCallTest {
    private static final String BAD_PARAM = "doca_pcc_dev_algo_init_param(algo 0, param 1, default 500, max 100, min 1, "
        + "permissions 1) returned DOCA_PCC_DEV_STATUS_FAIL";
    private static final String BAD_COUNTER = "doca_pcc_dev_algo_init_counter(algo 0, counter 99, max 4294967295, "
        + "permissions 1) returned DOCA_PCC_DEV_STATUS_FAIL";

    private static FirmwareProvider load() {
        return FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_failed_param.elf"), 100_000);
    }

    @Test
    void aFailedInitParamIsNotDeclared() {
        final FirmwareDeclarations d = load().declarations();
        final List<PccParameter> ps = d.parameters();
        assertEquals(2, ps.size(), ps.toString());
        assertArrayEquals(new int[] {0, 2}, d.paramIds());
        assertEquals("good_lo", ps.get(0).name());
        assertEquals(10.0, ps.get(0).defaultValue());
        assertEquals(1.0, ps.get(0).min());
        assertEquals(100.0, ps.get(0).max());
        assertEquals("good_hi", ps.get(1).name());
        assertEquals(7.0, ps.get(1).defaultValue());
        assertEquals(List.of("calls"), d.counterNames());
        assertArrayEquals(new int[] {0}, d.counterIds());
    }

    @Test
    void theRuntimeLeavesTheFailedRowFree() {
        final FirmwareProvider fw = load();
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.create(new PccParameterValues(fw.parameters()));
        final long row = FirmwareLayout.PARAM_ROW;
        assertEquals(1, a.symbolLoad(FirmwareLayout.PARAM_TABLE, 0, 4), "param 0 declared");
        assertEquals(0, a.symbolLoad(FirmwareLayout.PARAM_TABLE, row, 4), "param 1 must stay free (declared = 0)");
        assertEquals(0, a.symbolLoad(FirmwareLayout.PARAM_TABLE, row + 8, 4), "param 1's default must not be written");
        assertEquals(1, a.symbolLoad(FirmwareLayout.PARAM_TABLE, 2 * row, 4), "param 2 declared");
    }

    @Test
    void theFailuresAreReportedOneLineEachAndCounted() {
        final FirmwareProvider fw = load();
        assertEquals(List.of(BAD_PARAM, BAD_COUNTER), fw.declarations().failedSetupCalls());
        final var instances = fw.processorInstances(new PccParameterValues(fw.parameters()));
        final PccAlgorithm first = instances.get();
        final PccAlgorithm second = instances.get();
        assertEquals(2, first.counters().get("firmware_setup_calls_failed"));
        assertEquals(0, second.counters().get("firmware_setup_calls_failed"), "counted once per NIC");
        final String summary = fw.summaryLine();
        assertTrue(summary.endsWith("; 2 set-up calls of doca_pcc_dev_user_init failed (not declared), first: " + BAD_PARAM), summary);
        assertFalse(summary.contains("\n"));
    }

    @Test
    void aProgramWhoseSetUpSucceedsReportsNone() {
        final FirmwareProvider fw = FirmwareProvider.load(FirmwareDifferentialTest.elf("dcqcn.elf"), 100_000);
        assertEquals(List.of(), fw.declarations().failedSetupCalls());
        assertFalse(fw.summaryLine().contains("set-up call"), fw.summaryLine());
    }
}
