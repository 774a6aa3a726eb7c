package dev.nicsim.microcode.firmware;

import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.nicsim.pcc.PccResult;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Jazzer target (issue 23): any 32 bytes as the results block a firmware handler leaves in its mailbox
 * (firmware/ABI.md 4.3: {@code rate} u32, {@code rtt_req} u32, {@code window_bytes} u64, {@code timer_ns}
 * u32, {@code fast_start_packets} u32, 8 reserved bytes, little-endian; shorter inputs are zero-padded),
 * decoded by {@link FirmwareResults#decode} with no firmware build. Nothing may escape (the decoder has
 * no error), and the result must be what ABI.md 4.3's table says, computed here independently: each
 * field unchanged for its "unchanged" word, otherwise the word read unsigned and clamped to the range
 * the model takes, with the number of clamps returned. {@code mvn test} replays the committed corpus
 * ({@code FirmwareResultsJazzerTestInputs/}); {@code -Pfuzz} fuzzes it (docs/reliability.md).
 */
class FirmwareResultsJazzerTest {
    private static final long U32 = 0xFFFF_FFFFL;

    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyResultsBlockDecodesAsAbiSays(final byte[] block) {
        final ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        b.put(block, 0, Math.min(block.length, 32));
        final long rate = b.getInt(0) & U32;
        final long rttReq = b.getInt(4) & U32;
        final long window = b.getLong(8);
        final long timer = b.getInt(16) & U32;
        final long fastStart = b.getInt(20) & U32;
        final PccResult r = new PccResult().reset();
        final int clamps = FirmwareResults.decode((int) rate, (int) rttReq, window, (int) timer, (int) fastStart, r);

        int expectedClamps = 0;
        // rate: all ones unchanged; 0 -> 1; above 2^20 -> 2^20 (line rate)
        if (rate == U32) {
            assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        } else if (rate == 0) {
            assertEquals(1, r.rate());
            expectedClamps++;
        } else if (rate > 1 << 20) {
            assertEquals(1 << 20, r.rate());
            expectedClamps++;
        } else {
            assertEquals(rate, r.rate());
        }
        assertEquals(rttReq != 0, r.rttProbeRequest());
        // window: all ones unchanged; 2^63 .. 2^64 - 2 -> 2^63 - 1
        if (window == -1L) {
            assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
        } else if (Long.compareUnsigned(window, Long.MAX_VALUE) > 0) {
            assertEquals(Long.MAX_VALUE, r.windowBytes());
            expectedClamps++;
        } else {
            assertEquals(window, r.windowBytes());
        }
        // timer: 0 none; 2^31 .. 2^32 - 1 -> 2^31 - 1 ns
        if (timer == 0) {
            assertEquals(0, r.timerNs());
        } else if (timer > Integer.MAX_VALUE) {
            assertEquals(Integer.MAX_VALUE, r.timerNs());
            expectedClamps++;
        } else {
            assertEquals(timer, r.timerNs());
        }
        // fast start: all ones unchanged; 2^31 .. 2^32 - 2 -> 2^31 - 1
        if (fastStart == U32) {
            assertEquals(PccResult.FAST_START_UNCHANGED, r.fastStartPackets());
        } else if (fastStart > Integer.MAX_VALUE) {
            assertEquals(Integer.MAX_VALUE, r.fastStartPackets());
            expectedClamps++;
        } else {
            assertEquals(fastStart, r.fastStartPackets());
        }
        assertEquals(expectedClamps, clamps);
    }
}
