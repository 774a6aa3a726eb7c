package dev.nicsim.microcode.firmware;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link FirmwareFaultLog}: hand-made faults arriving out of order (from one thread, and from two
 * threads racing) leave the earliest by (simulated time, host index) as the first fault, ties on
 * both kept in arrival order; the counts are exact; the text and the summary are as the class
 * comment gives them.
 */
class FirmwareFaultLogTest {
    private static final String TRAP = "illegal instruction at pc 0x11176 (doca_pcc_dev_user_algo+0xc)";

    @Test
    void theEarliestByTimeThenHostIsKeptWhateverTheArrivalOrder() {
        final FirmwareFaultLog log = new FirmwareFaultLog(100);
        assertNull(log.firstFault());
        assertEquals("0 faults, 0 over the budget of 100 instructions", log.summary());
        log.trap(5_000_000, 3, TRAP, "CNP event");                                          // kept, then beaten on time
        log.budget(2_000_000, 7, 0x1117e, "doca_pcc_dev_user_algo+0x14", "NACK event");     // kept, then beaten on host
        log.trap(2_000_000, 1, TRAP, "CNP event");                                          // the earliest
        log.budget(2_000_000, 1, 0x1117e, "doca_pcc_dev_user_algo+0x14", "CNP event");      // same key, later: not kept
        log.trap(2_000_000, 2, TRAP, "CNP event");                                          // same time, higher host
        log.trap(9_000_000, 0, TRAP, "CNP event");                                          // lowest host, later
        assertEquals(4, log.faults());
        assertEquals(2, log.budgetExceeded());
        assertEquals(2_000_000, log.firstTimePs());
        assertEquals(1, log.firstHost());
        // 2,000,000 ps = 2 us, six decimals
        assertEquals(TRAP + " (CNP event) on host1 at 2.000000 us", log.firstFault());
        assertEquals("4 faults, 2 over the budget of 100 instructions; first: " + TRAP + " (CNP event) on host1 at 2.000000 us",
            log.summary());
    }

    @Test
    void aBudgetFaultTextNamesTheBudgetPcSymbolCallHostAndExactTime() {
        final FirmwareFaultLog log = new FirmwareFaultLog(100_000);
        log.budget(1_234_567_890_123L, 12, 0x1117e, "doca_pcc_dev_user_algo+0x14", "CNP event");
        log.budget(5, 12, 0x1117e, "doca_pcc_dev_user_algo+0x14", "flow start");
        // 1,234,567,890,123 ps would be 1234567.890123 us; 5 ps is 0.000005 us and earlier
        assertEquals("instruction budget of 100000 exceeded at pc 0x1117e (doca_pcc_dev_user_algo+0x14) (flow start)"
            + " on host12 at 0.000005 us", log.firstFault());
        final FirmwareFaultLog late = new FirmwareFaultLog(100_000);
        late.trap(1_234_567_890_123L, 0, TRAP, "CNP event");
        assertEquals(TRAP + " (CNP event) on host0 at 1234567.890123 us", late.firstFault());
    }

    @Test
    void withoutNicOrClockTheFirstRecordedIsKeptAndTheTextHasNoPlace() {
        final FirmwareFaultLog log = new FirmwareFaultLog(10);
        log.trap(FirmwareFaultLog.NO_TIME, FirmwareFaultLog.NO_HOST, TRAP, "NACK event");
        log.budget(FirmwareFaultLog.NO_TIME, FirmwareFaultLog.NO_HOST, 0x10, "x+0x0", "CNP event");
        assertEquals(TRAP + " (NACK event)", log.firstFault());
        assertEquals("1 faults, 1 over the budget of 10 instructions; first: " + TRAP + " (NACK event)", log.summary());
    }

    /**
     * Two threads, as two partitions of one window: host 5's thread records times 100 us down to 1 us
     * (descending, the earliest last), host 2's thread times 1 us up to 100 us (the earliest first),
     * started together through a barrier. Whatever the interleaving, the first fault is host 2 at 1 us
     * (a tie on time with host 5, broken by the host index) and the counts are 200 and 100.
     */
    @Test
    void twoThreadsRecordingOutOfOrderAgreeOnTheEarliest() throws Exception {
        for (int round = 0; round < 20; round++) {
            final FirmwareFaultLog log = new FirmwareFaultLog(100);
            final CyclicBarrier start = new CyclicBarrier(2);
            final List<Throwable> failures = new ArrayList<>();
            final Thread high = new Thread(() -> {
                await(start);
                for (int i = 100; i >= 1; i--) {
                    log.trap(i * 1_000_000L, 5, TRAP, "CNP event");
                    log.budget(i * 1_000_000L, 5, 0x20, "y+0x4", "ACK event");
                }
            });
            final Thread low = new Thread(() -> {
                await(start);
                for (int i = 1; i <= 100; i++) {
                    log.trap(i * 1_000_000L, 2, TRAP, "RTT event");
                }
            });
            high.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            low.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            high.start();
            low.start();
            high.join();
            low.join();
            assertEquals(List.of(), failures);
            assertEquals(200, log.faults());
            assertEquals(100, log.budgetExceeded());
            assertEquals(TRAP + " (RTT event) on host2 at 1.000000 us", log.firstFault(), "round " + round);
        }
    }

    private static void await(final CyclicBarrier b) {
        try {
            b.await();
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
