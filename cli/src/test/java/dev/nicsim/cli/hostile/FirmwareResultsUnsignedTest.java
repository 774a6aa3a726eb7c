package dev.nicsim.cli.hostile;

import dev.nicsim.testsupport.TestPaths;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23, defect 3: the firmware's 32- and 64-bit results are unsigned (firmware/ABI.md 4.3).
 * {@code hostile/wide_results.c} (built here with the project's {@code make user} target) writes
 * values with the top bit set; they must be clamped as documented and counted in
 * {@code firmware_results_clamped}. Before the fix the rate 0xFFFFFFF0 read as -16 and was clamped
 * to the floor rate 1, and the window, timer and fast-start values were dropped.
 */
class FirmwareResultsUnsignedTest {
    @TempDir
    Path dir;

    private Path build() throws IOException, InterruptedException {
        Hostile.needFirmwareTools();
        final Path root = TestPaths.root();
        final Path src = dir.resolve("wide_results.c");
        try (var in = FirmwareResultsUnsignedTest.class.getResourceAsStream("/hostile/wide_results.c")) {
            Files.copy(in, src);
        }
        final Path elf = dir.resolve("wide_results.elf");
        Hostile.exec(root, "make", "-s", "-C", root.resolve("firmware").toString(), "ALGO=" + src,
            "INCLUDES=-I" + root.resolve("firmware/testfw"), "OUT=" + elf);
        return elf;
    }

    @Test
    void resultsWithTheTopBitSetAreClampedAndCounted() throws IOException, InterruptedException {
        final FirmwareProvider provider = FirmwareProvider.load(build(), 10_000);
        final List<PccResult> got = new ArrayList<>();
        final DirectCcProcessor d = new DirectCcProcessor(provider.processorInstances(provider.defaults()).get(), 0,
            (qpn, r, ps, cycles) -> got.add(new PccResult().copyFrom(r)));
        final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);
        d.startFlow(7, 0, 100_000_000_000L, 1024, 8000);
        d.offer(ev.reset(PccEventType.ACK, 0, 7, 1, 100), 1000);
        // 0xFFFFFFF0 = 4294967280 > 1 << 20: line rate, not the floor rate 1
        assertEquals(1 << 20, got.get(got.size() - 1).rate());
        d.offer(ev.reset(PccEventType.CNP, 0, 7, 1, 200), 2000);
        // 2^63 does not fit a Java long: the largest window, Long.MAX_VALUE = 2^63 - 1
        assertEquals(Long.MAX_VALUE, got.get(got.size() - 1).windowBytes());
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 300).tx(1024, 1), 3000);
        // 2^31 and 2^31 + 1 do not fit a Java int: 2^31 - 1
        assertEquals(Integer.MAX_VALUE, got.get(got.size() - 1).timerNs());
        assertEquals(Integer.MAX_VALUE, got.get(got.size() - 1).fastStartPackets());
        final Map<String, Long> counters = new LinkedHashMap<>();
        d.forEachCounter(counters::put);
        assertEquals(4L, counters.get("firmware_results_clamped"), counters.toString()); // rate, window, timer, fast start
    }
}
