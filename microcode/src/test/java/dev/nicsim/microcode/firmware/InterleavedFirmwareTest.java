package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.riscv.CycleModel;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Firmware on the {@code bf3-dpa} model: handlers on the threads of one core overlap on its one
 * issue slot (riscv.Core), in the saturating profile and in the emulator.
 */
class InterleavedFirmwareTest {
    /** The committed test firmware {@code firmware/bin/test/mem_bound.elf} (8 dependent loads into an 8 MiB table per event). */
    static Path memBound() {
        for (final Path p : new Path[] {Path.of("../firmware/bin/test/mem_bound.elf"), Path.of("firmware/bin/test/mem_bound.elf")}) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new IllegalStateException("firmware/bin/test/mem_bound.elf not found (make -C firmware)");
    }

    private static ExpandableArrayBuffer acks(final int n, final int flows) {
        final ExpandableArrayBuffer mix = new ExpandableArrayBuffer();
        final PccEvent e = new PccEvent();
        final UnsafeBuffer rec = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        e.wrap(rec, 0);
        for (int i = 0; i < n; i++) {
            e.reset(PccEventType.ACK, 0, 1 + i % flows, i, 1000 * i);
            mix.putBytes(i * PccEventLayout.RECORD_LENGTH, rec, 0, PccEventLayout.RECORD_LENGTH);
        }
        return mix;
    }

    /**
     * Issue 19's acceptance: a memory-bound handler on one core. With one thread each event is
     * about 8 DRAM round trips in series (8 x 540 = 4,320 cycles plus its ~100 instructions), and
     * the core idles meanwhile; with 16 threads up to 16 such chains are in flight, so the core
     * handles several times the events per second (at least 2x asked), never issues more than one
     * instruction per cycle, and each handler waits longer (its slots go to the others).
     */
    @Test
    void memoryBoundHandlerScalesWithThreadsAndNeverExceedsOneIpc() {
        final ExpandableArrayBuffer mix = acks(256, 64);
        final FirmwareSaturation.Figures one = FirmwareSaturation.run(FirmwareProvider.load(memBound(), 10_000), mix, 256, 1, 64, 400,
            1_800_000_000L);
        final FirmwareSaturation.Figures sixteen = FirmwareSaturation.run(FirmwareProvider.load(memBound(), 10_000), mix, 256, 16, 256,
            1600, 1_800_000_000L);
        assertTrue(one.latencyPercentile(50) > 8 * 540 * 0.8, "one thread: ~8 DRAM loads in series: " + one.latencyPercentile(50));
        assertTrue(sixteen.eventsPerSec() >= 2 * one.eventsPerSec(),
            "events/s 1 thread " + one.eventsPerSec() + ", 16 threads " + sixteen.eventsPerSec());
        assertTrue(one.ipc() <= 1.0 && sixteen.ipc() <= 1.0, "IPC " + one.ipc() + ", " + sixteen.ipc());
        assertTrue(sixteen.latencyPercentile(50) > one.latencyPercentile(50),
            "latency p50 1 thread " + one.latencyPercentile(50) + ", 16 threads " + sixteen.latencyPercentile(50));
        // the profile saw only the measured events, all ACKs
        assertEquals(1600, sixteen.profile().figures(PccEventType.ACK).events());
    }

    private final List<long[]> got = new ArrayList<>();

    private void sink(final int qpn, final PccResult r, final long effectivePs, final long cycles) {
        got.add(new long[] {qpn, effectivePs, cycles});
    }

    /**
     * In the emulator: two events of different flows arriving together on one core (two threads)
     * overlap: both complete within about one event's time of each other, and the second does
     * not wait for the first to finish (with run-to-completion it would take the sum).
     */
    @Test
    void emulatorOverlapsEventsOnThreadsOfOneCore() {
        final FirmwareProvider p = FirmwareProvider.load(memBound(), 10_000);
        final EmulatorConfig cfg = new EmulatorConfig().cores(1).threadsPerCore(2).clockHz(1_800_000_000L);
        final UnicEmulator e = new UnicEmulator(cfg, p.processorInstances(p.defaults()), 0, this::sink);
        e.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        e.startFlow(9, 0, 100_000_000_000L, 1024, 8000);
        got.clear();
        final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        e.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 1), 1_000_000);
        e.offer(ev.reset(PccEventType.ACK, 0, 9, 5, 1), 1_000_000);
        long t = 1_000_000;
        for (int steps = 0; t != Long.MAX_VALUE; steps++) {
            assertTrue(steps < 10_000, "the emulator keeps asking to come back at " + t);
            final long before = t;
            t = e.advance(t);
            assertTrue(t > before || t == Long.MAX_VALUE, "advance returned " + t + " at " + before + ": no progress");
        }
        assertEquals(2, got.size());
        final long c0 = got.get(0)[2];
        final long c1 = got.get(1)[2];
        // each event alone: ~8 DRAM loads in series, > 3,000 cycles
        assertTrue(c0 > 3000 && c1 > 3000, c0 + " " + c1);
        final long end0 = got.get(0)[1] - 1_000_000;
        final long end1 = got.get(1)[1] - 1_000_000;
        final long sumPs = (long) ((c0 + c1) * (1e12 / 1.8e9));
        assertTrue(Math.max(end0, end1) < 0.75 * sumPs, "overlapped: ends at " + end0 + " and " + end1 + " ps, serial would be " + sumPs);
        assertEquals(2, e.handled(PccEventType.ACK));
    }

    /**
     * e31 (one thread per core) keeps run-to-completion handlers: nothing interleaves. The shipped
     * ELF is built for Zbb/Zbs, which plain e31 refuses at load (FirmwareExtensionsTest), so this
     * uses e31 with both extensions enabled: the same one-thread core.
     */
    @Test
    void e31DoesNotInterleave() {
        final FirmwareProvider p = FirmwareProvider.load(memBound(), 10_000,
            CycleModel.E31.withExtensions(java.util.EnumSet.allOf(dev.nicsim.riscv.Isa.Extension.class)));
        assertTrue(!((FirmwareAlgorithm) p.create(p.defaults())).interleaves());
        assertTrue(((FirmwareAlgorithm) FirmwareProvider.load(memBound(), 10_000).create(p.defaults())).interleaves());
    }
}
