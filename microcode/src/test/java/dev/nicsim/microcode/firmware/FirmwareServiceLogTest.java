package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FirmwareServiceLog}: the earliest use by (simulated time, host) whatever order NICs report it in,
 * one warning per service at its first record, per-NIC counts summed; and, through the committed
 * {@code doca_rp_tx_sampler.elf} (which samples port 0's TX bytes from its handler), that NIC counters
 * read without a NIC (as in replay) are reported while the same reads with a NIC are not.
 */
class FirmwareServiceLogTest {
    @Test
    void theEarliestUseByTimeThenHostIsKeptWhateverTheOrderAndTheWarningIsPrintedOnce() {
        final List<String> notices = new ArrayList<>();
        final FirmwareServiceLog log = new FirmwareServiceLog("x.elf");
        log.notices(notices::add);
        assertNull(log.summaryLine());
        final long[] nic3 = log.register();
        final long[] nic1 = log.register();
        nic3[FirmwareServiceLog.TRACE] = 5;
        log.first(FirmwareServiceLog.TRACE, 2_000_000, 3, "returning to b+0x4");
        nic1[FirmwareServiceLog.TRACE] = 2;
        log.first(FirmwareServiceLog.TRACE, 2_000_000, 1, "returning to a+0x8"); // same time, lower host: earlier
        log.first(FirmwareServiceLog.TRACE, 2_500_000, 0, "returning to c+0x0"); // later: not kept
        assertEquals(List.of("nicsim: warning: firmware x.elf: doca_pcc_dev_trace_5 returning to b+0x4 on host3 at 2.000000 us:"
            + " trace records are not modelled: dropped (counted in the run summary)"), notices);
        assertEquals(7, log.uses(FirmwareServiceLog.TRACE));
        assertEquals("firmware services   x.elf: doca_pcc_dev_trace_5 x 7 (trace records are not modelled: dropped), first:"
            + " returning to a+0x8 on host1 at 2.000000 us", log.summaryLine());
    }

    @Test
    void nicCountersReadWithoutANicAreReportedAndWithOneAreNot() {
        final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);
        final PccContext context = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
        final PccAttributes attributes = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 8000);
        final PccResult result = new PccResult();

        final FirmwareProvider alone = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_rp_tx_sampler.elf"), 100_000);
        final List<String> notices = new ArrayList<>();
        alone.services().notices(notices::add);
        final FirmwareAlgorithm a = (FirmwareAlgorithm) alone.create(alone.defaults());
        a.initFlow(context, 0, attributes, result);
        for (int t = 1; t <= 3; t++) { // one sample per 10 us: three samples
            result.reset();
            a.onEvent(context, ev.reset(PccEventType.TX_BURST, 0, 7, 1, t * 20_000), attributes, result);
        }
        assertEquals(3, alone.services().uses(FirmwareServiceLog.NIC_COUNTERS_NO_NIC));
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).startsWith("nicsim: warning: firmware doca_rp_tx_sampler.elf: doca_pcc_dev_nic_counters_sample"
            + " returning to "), notices.get(0));
        assertTrue(notices.get(0).endsWith(": no simulated NIC behind the firmware here: the counters read 0 (counted in the run"
            + " summary)"), notices.get(0));

        final FirmwareProvider withNic = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_rp_tx_sampler.elf"), 100_000);
        final NicPorts nic = new NicPorts() {
            @Override
            public long speedBitsPerSec(final int port) {
                return 100_000_000_000L;
            }

            @Override
            public long txBytes(final int port) {
                return 1000;
            }

            @Override
            public long rxBytes(final int port) {
                return 0;
            }
        };
        final FirmwareAlgorithm b = (FirmwareAlgorithm) withNic.processorInstances(withNic.defaults(), nic).get();
        context.clear();
        result.reset();
        b.initFlow(context, 0, attributes, result);
        result.reset();
        b.onEvent(context, ev.reset(PccEventType.TX_BURST, 0, 7, 1, 20_000), attributes, result);
        assertNull(withNic.services().summaryLine());
    }
}
