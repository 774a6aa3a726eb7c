package dev.nicsim.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Issue 23, defect 5: the warning {@code nicsim run} prints before the simulation when the flows
 * and the model already fill three quarters of the heap (so a run heading for the out-of-memory
 * exit 6 says so before spending its time). Figures by hand: a 1024 MiB heap warns from
 * 768 MiB = 805306368 bytes in use; the MiB in the message are whole (bytes >> 20).
 */
class HeapWarningTest {
    private static final long MIB = 1L << 20;

    @Test
    void warnsFromThreeQuartersOfTheHeap() {
        assertNull(RunCommand.heapWarning(3_000_000, 768 * MIB - 1, 1024 * MIB));
        assertEquals("nicsim: warning: the 3000000 flows and the model already take 768 MiB of the 1024 MiB heap; the run"
            + " will likely run out of memory (give more with NICSIM_JAVA_OPTS=-Xmx...)",
            RunCommand.heapWarning(3_000_000, 768 * MIB, 1024 * MIB));
        // a 256 MB heap (the recipe): 255.9 MiB usable as Runtime reports it, 191.9 MiB the threshold
        final long max = 256 * MIB - 64 * 1024;
        assertNull(RunCommand.heapWarning(1_000, max / 4 * 3 - 1, max));
        assertEquals("nicsim: warning: the 1000 flows and the model already take 250 MiB of the 255 MiB heap; the run will"
            + " likely run out of memory (give more with NICSIM_JAVA_OPTS=-Xmx...)", RunCommand.heapWarning(1_000, 250 * MIB, max));
        assertNull(RunCommand.heapWarning(1, 0, 64 * MIB));
    }
}
