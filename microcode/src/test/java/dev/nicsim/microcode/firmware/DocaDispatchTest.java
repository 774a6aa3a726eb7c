package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19 section 2, DOCA's dispatch, on the committed test ELFs {@code firmware/bin/test/doca_*.elf}
 * ({@code firmware/testfw/testfw_doca_dispatch.h}): a DOCA program that never calls
 * {@code doca_pcc_dev_init_algo_slot} still has {@code doca_pcc_dev_user_algo} called for every
 * event (its own per-type call counts equal the events dispatched), the slot it sees is the internal
 * slot 15, and the {@code doca_pcc_dev_default_internal_algo} it hands that slot to is DCQCN with the
 * Mellanox defaults: result and context equal the Java DCQCN handler's with its default parameters on
 * every event of the scripted flow. An endless loop on CNPs is abandoned at the budget and counted,
 * and the other events still run.
 */
class DocaDispatchTest {
    private static final int EVENTS = 5_000;
    /** DOCA event type of each Java type (firmware/ABI.md 4.1): TX 3, ACK 4, NACK 5, CNP 2, RTT 6, TIMER 8. */
    private static final int[] DOCA = {3, 4, 5, 2, 6, 8};

    @Test
    void userAlgoRunsForEveryEventAndItsDefaultIsJavaDcqcn() {
        final FirmwareProvider fw = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_count_calls.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        assertEquals(-1, fw.declarations().algoIndex(), "the test program registers no slot");
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.create(fw.defaults());
        final PccAlgorithmProvider dcqcn = PccAlgorithms.byName("dcqcn");
        final ScriptedFlow j = new ScriptedFlow(dcqcn.create(dcqcn.defaults()));
        final ScriptedFlow f = new ScriptedFlow(a);
        final long[] dispatched = new long[32];
        long decreases = 0;
        for (int i = 0; i < EVENTS; i++) {
            j.next();
            f.next();
            j.run(j.event);
            f.run(f.event);
            dispatched[DOCA[f.event.type()]]++;
            // the flow start differs (Java's initFlow sets rate and window; a DOCA program has no flow
            // init), so compare each event's own result, which the algorithm fills afresh
            final String at = "event " + i + " (" + j.event + ")";
            assertEquals(j.result.toString(), f.result.toString(), at);
            for (int w = 0; w < 12; w++) {
                assertEquals(j.context.get(w), f.context.get(w), at + ": context word " + w);
            }
            if (f.result.rate() != PccResult.RATE_UNCHANGED && f.result.rate() < (1 << 20)) {
                decreases++;
            }
        }
        for (int t = 0; t < 32; t++) {
            assertEquals(dispatched[t], a.symbolLoad("testfw_calls", 8L * t, 8), "calls of DOCA event type " + t);
        }
        // 5,000 events of the scripted mix (8 % CNPs): the default really cuts the rate
        assertTrue(decreases > 0, "DCQCN below line rate after CNPs");
        assertEquals(EVENTS, LongStream.of(dispatched).sum());
        assertEquals(0, fw.faults(), fw.firstFault());
    }

    @Test
    void anEndlessLoopOnCnpIsContainedAndCounted() {
        final FirmwareProvider fw = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_loop_on_cnp.elf"), 10_000);
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1);
        final UnicEmulator e = new UnicEmulator(cfg, fw.processorInstances(fw.defaults()), 0, (qpn, r, ps, cycles) -> { });
        final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);
        e.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        e.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 1000).tx(4096, 4), 1_000_000);
        e.offer(ev.reset(PccEventType.CNP, 0, 7, 1, 2000), 2_000_000);
        e.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 3000), 30_000_000);
        e.offer(ev.reset(PccEventType.CNP, 0, 7, 2, 4000), 40_000_000);
        e.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 5, 5000).tx(4096, 4), 60_000_000);
        e.advance(Long.MAX_VALUE / 4);
        final FirmwareAlgorithm a = (FirmwareAlgorithm) e.algorithm(0);
        // every event reached doca_pcc_dev_user_algo: 2 TX (type 3), 1 ACK (4), 2 CNP (2; counted before the loop)
        assertEquals(2, a.symbolLoad("testfw_calls", 8L * 3, 8));
        assertEquals(1, a.symbolLoad("testfw_calls", 8L * 4, 8));
        assertEquals(2, a.symbolLoad("testfw_calls", 8L * 2, 8));
        assertEquals(2, fw.budgetExceeded());
        assertEquals(0, fw.faults());
        assertEquals(2L, counter(e, "firmware_budget_exceeded"));
        assertTrue(fw.firstFault().startsWith("instruction budget of 10000 exceeded at pc 0x"), fw.firstFault());
        assertTrue(fw.firstFault().endsWith("(CNP event)"), fw.firstFault());
        assertEquals(2, e.handled(PccEventType.TX_BURST));
        assertEquals(1, e.handled(PccEventType.ACK));
    }

    private static long counter(final UnicEmulator e, final String name) {
        final long[] v = {-1};
        e.forEachCounter((n, x) -> {
            if (n.equals(name)) {
                v[0] = x;
            }
        });
        return v[0];
    }
}
