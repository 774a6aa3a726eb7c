package dev.nicsim.traces.replay;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 23 defect 9, found in the recheck (docs/reliability.md): {@code run --record} and
 * {@code trace import --to} on a full file system made Chronicle fault on its first mapped write, and
 * the JVM printed an {@code InternalError} stack trace (exit 1). A trace now checks the free space it
 * needs to start (metadata 64 KiB, cycle file 1 MiB block plus its index) and refuses in one line.
 * The free space is given, not measured, here; the real full disk was checked by hand (a 64 KiB tmpfs).
 */
class TraceSpaceTest {
    @Test
    void aTraceNeedsRoomToStart() {
        final Path dir = Path.of("t");
        assertEquals(1_638_400L, TraceQueues.MIN_TRACE_BYTES);
        final TraceException e = assertThrows(TraceException.class, () -> TraceQueues.checkSpace(dir, 4096));
        assertEquals("t: cannot write the trace directory: no space left on device (4096 bytes free; a trace needs at least"
            + " 1638400 bytes to start)", e.getMessage());
        TraceQueues.checkSpace(dir, TraceQueues.MIN_TRACE_BYTES); // exactly enough
        assertThrows(TraceException.class, () -> TraceQueues.checkSpace(dir, TraceQueues.MIN_TRACE_BYTES - 1));
    }
}
