package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import dev.nicsim.riscv.CycleModel;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java side of firmware in the loop on the committed fixture {@code test-algo.elf}
 * ({@code src/test/firmware/test_algo.c}, whose header lists what each event type does): the
 * declared tables, parameters by name, results and context through the mailbox, faults and the
 * instruction budget abandoned and counted, and the emulator charging the measured cycles.
 */
class FirmwareAlgorithmTest {
    static Path fixture(final String name) {
        try {
            return Path.of(FirmwareAlgorithmTest.class.getResource("/firmware/" + name).toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    record Got(int qpn, int rate, long window, int timer, int fastStart, long cycles) {
    }

    private final List<Got> got = new ArrayList<>();
    private final UnsafeBuffer buf = new UnsafeBuffer(new byte[64]);
    private final PccEvent ev = new PccEvent().wrap(buf, 0);

    private void sink(final int qpn, final PccResult r, final long ps, final long cycles) {
        got.add(new Got(qpn, r.rate(), r.windowBytes(), r.timerNs(), r.fastStartPackets(), cycles));
    }

    private static Map<String, Long> counters(final dev.nicsim.pcc.CcProcessor p) {
        final Map<String, Long> m = new LinkedHashMap<>();
        p.forEachCounter(m::put);
        return m;
    }

    @Test
    void declaresItsAlgorithmParameterAndCounter() {
        final FirmwareProvider p = FirmwareProvider.load(fixture("test-algo.elf"), 1000);
        assertEquals("firmware:test-algo.elf", p.name());
        assertEquals(1, p.declarations().algorithms().size());
        assertEquals(0xabc, p.declarations().algorithms().get(0).id());
        assertEquals("start_rate", p.parameters().get(0).name());
        assertEquals(0.5, p.parameters().get(0).defaultValue());
        assertEquals(List.of("events_seen"), p.declarations().counterNames());
    }

    @Test
    void resultsContextFaultsAndBudgetOnTheDirectProcessor() {
        final FirmwareProvider p = FirmwareProvider.load(fixture("test-algo.elf"), 1000);
        final PccParameterValues v = p.defaults().set("start_rate", 0.25); // raw 16384
        final DirectCcProcessor d = new DirectCcProcessor(p.processorInstances(v).get(), 0, this::sink);
        d.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        assertEquals(1 << 19, got.get(0).rate()); // flow start
        d.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 100), 1000);
        assertEquals(new Got(7, (1 << 20) - 1, 1000, 5000, 3, 0), got.get(1)); // word0 = 1
        d.offer(ev.reset(PccEventType.CNP, 0, 7, 1, 200), 2000);
        assertEquals(16384 >> 1, got.get(2).rate()); // word0 = 2
        d.offer(ev.reset(PccEventType.NACK, 2, 7, 1, 300), 3000); // illegal instruction: abandoned
        assertEquals(new Got(7, PccResult.RATE_UNCHANGED, PccResult.WINDOW_UNCHANGED, 0, PccResult.FAST_START_UNCHANGED, 0),
            got.get(3));
        d.offer(ev.reset(PccEventType.RTT_RESPONSE, 0, 7, 1, 400), 4000); // budget: abandoned
        d.offer(ev.reset(PccEventType.TIMER, 0, 7, 1, 500), 5000); // store outside memory: abandoned
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 600), 6000);
        // the three abandoned events left the context as it was: word0 went 2 -> 3
        assertEquals(new Got(7, (1 << 20) - 3, 3000, 5000, 3, 0), got.get(6));
        final Map<String, Long> c = counters(d);
        assertEquals(2L, c.get("firmware_faults"));
        assertEquals(1L, c.get("firmware_budget_exceeded"));
        // the counter lives in firmware memory, which abandoned handlers wrote too (before they trapped)
        assertEquals(6L, c.get("events_seen"));
        assertTrue(p.firstFault().startsWith("illegal instruction at pc 0x"), p.firstFault());
        assertTrue(p.firstFault().contains("(doca_pcc_dev_user_algo+0x"), p.firstFault());
        assertTrue(p.firstFault().endsWith("(NACK event)"), p.firstFault());
        assertEquals(2, p.faults());
        assertEquals(1, p.budgetExceeded());
    }

    @Test
    void emulatorChargesDispatchMeasuredCyclesAndWriteBack() {
        final FirmwareProvider p = FirmwareProvider.load(fixture("test-algo.elf"), 1000, CycleModel.E31); // the e31 path: context-cache costs
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).clockHz(1_000_000_000L);
        final UnicEmulator e = new UnicEmulator(cfg, p.processorInstances(p.defaults()), 0, this::sink);
        e.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        e.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 1), 1_000_000);
        e.advance(Long.MAX_VALUE / 4);
        final FirmwareAlgorithm a = (FirmwareAlgorithm) e.algorithm(0);
        final long c = a.lastHandlerCycles();
        assertTrue(c > 10 && c < 200, "handler cycles " + c);
        // context hit (cached at flow start): one stretch of dispatch 8 + c + write-back 8
        assertEquals(8 + c + 8, got.get(1).cycles());
        assertEquals((1 << 20) - 1, got.get(1).rate());
    }

    /**
     * A NIC's firmware cores share one firmware memory, so free-running agent threads would race
     * on it: the emulator refuses to start, stays stepped, and still handles the event stepped.
     */
    @Test
    void firmwareRefusesFreeRunning() {
        final FirmwareProvider p = FirmwareProvider.load(fixture("test-algo.elf"), 1000);
        final EmulatorConfig cfg = new EmulatorConfig().cores(2).threadsPerCore(1);
        final UnicEmulator e = new UnicEmulator(cfg, p.processorInstances(p.defaults()), 0, this::sink);
        final IllegalStateException x = assertThrows(IllegalStateException.class,
            () -> e.startFreeRunning(1, org.agrona.concurrent.BusySpinIdleStrategy::new));
        assertTrue(x.getMessage().contains("firmware"), x.getMessage());
        // still stepped: the flow start and advance below would throw while free-running
        e.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        e.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 1), 1_000_000);
        e.advance(Long.MAX_VALUE / 4);
        assertEquals(1, e.handled(PccEventType.ACK));
    }

    @Test
    void contextMissStallsTheHandlerAndSplitsItsStretches() {
        final FirmwareProvider p = FirmwareProvider.load(fixture("test-algo.elf"), 1000, CycleModel.E31); // the e31 path: context-cache costs
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(1).contextCacheEntries(0);
        final UnicEmulator e = new UnicEmulator(cfg, p.processorInstances(p.defaults()), 0, this::sink);
        e.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        e.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 1), 1_000_000);
        e.advance(Long.MAX_VALUE / 4);
        final FirmwareAlgorithm a = (FirmwareAlgorithm) e.algorithm(0);
        final long c = a.lastHandlerCycles();
        final long pre = a.lastContextAccessCycle();
        assertTrue(pre >= 0 && pre < c, "first context load at " + pre + " of " + c);
        assertTrue(c >= 120, "a miss stalls the hart: " + c);
        // dispatch + the cycles before the load, the miss wait off the core, then the rest and write-back
        assertEquals(8 + pre + 120 + Math.max(0, c - pre - 120) + 8, got.get(1).cycles());
    }

    @Test
    void badImagesAreOneLineErrors() throws Exception {
        final FirmwareException noAlgo = assertThrows(FirmwareException.class,
            () -> FirmwareProvider.load(fixture("test-no-algo.elf"), 1000));
        assertTrue(noAlgo.getMessage().endsWith("test-no-algo.elf: no doca_pcc_dev_user_algo (not DOCA PCC firmware, or its symbols"
            + " were stripped)"), noAlgo.getMessage());
        final byte[] x86 = Files.readAllBytes(fixture("test-algo.elf"));
        x86[18] = 62; // e_machine = EM_X86_64
        x86[19] = 0;
        final Path f = Files.createTempFile("x86", ".elf");
        Files.write(f, x86);
        final FirmwareException notRiscv = assertThrows(FirmwareException.class, () -> FirmwareProvider.load(f, 1000));
        assertTrue(notRiscv.getMessage().endsWith("not a RISC-V executable (e_machine=62, RISC-V is 243)"), notRiscv.getMessage());
        Files.delete(f);
    }
}
