package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccResult;

/**
 * Decodes the results block a firmware handler leaves in its mailbox (firmware/ABI.md 4.3, bytes
 * 112..143, {@code doca_pcc_dev_results_t}) into a {@link PccResult}: a pure function of the five
 * result words, so it is tested and fuzzed without a firmware build.
 *
 * <p>Every word is read unsigned. All ones ({@code rate}, {@code window_bytes},
 * {@code fast_start_packets}) or zero ({@code rtt_req}, {@code timer_ns}) means "unchanged" and leaves
 * the result as it was. Any other value outside the range the model takes is clamped, never dropped
 * or read as negative (ABI.md 4.3's table):
 * <ul>
 *   <li>{@code rate} u32, a 20-bit fraction of line rate: 0 becomes 1, above {@code 1 << 20} becomes
 *       {@code 1 << 20} (line rate);</li>
 *   <li>{@code rtt_req} u32: any non-zero value requests an RTT probe (never a clamp);</li>
 *   <li>{@code window_bytes} u64: 2^63 .. 2^64 - 2 becomes 2^63 - 1 bytes;</li>
 *   <li>{@code timer_ns} u32: 2^31 .. 2^32 - 1 becomes 2^31 - 1 ns;</li>
 *   <li>{@code fast_start_packets} u32: 2^31 .. 2^32 - 2 becomes 2^31 - 1 packets.</li>
 * </ul>
 * Thread-safety: stateless; the result passed in is written by the calling thread only.
 */
public final class FirmwareResults {
    /** The largest rate the model takes: line rate as a 20-bit fraction. */
    public static final int MAX_RATE = 1 << 20;

    private FirmwareResults() {
    }

    /**
     * Applies one results block to a result.
     *
     * @param rateWord          {@code rate}, u32 bits
     * @param rttRequestWord    {@code rtt_req}, u32 bits
     * @param windowBytesWord   {@code window_bytes}, u64 bits
     * @param timerNsWord       {@code timer_ns}, u32 bits
     * @param fastStartWord     {@code fast_start_packets}, u32 bits
     * @param result            the result to update (fields the block leaves unchanged are not touched)
     * @return the number of fields clamped, 0..4 (the caller counts them in {@code firmware_results_clamped})
     */
    public static int decode(final int rateWord, final int rttRequestWord, final long windowBytesWord,
                             final int timerNsWord, final int fastStartWord, final PccResult result) {
        int clamps = 0;
        final long rate = rateWord & 0xFFFF_FFFFL;
        if (rate != 0xFFFF_FFFFL) {
            if (rate < 1 || rate > MAX_RATE) {
                clamps++;
            }
            result.rate((int) Math.min(Math.max(rate, 1), MAX_RATE));
        }
        if (rttRequestWord != 0) {
            result.requestRttProbe();
        }
        if (windowBytesWord != -1L) {
            if (windowBytesWord < 0) { // 2^63 .. 2^64 - 2 bytes: the largest window a long holds
                clamps++;
            }
            result.windowBytes(windowBytesWord < 0 ? Long.MAX_VALUE : windowBytesWord);
        }
        final long timer = timerNsWord & 0xFFFF_FFFFL;
        if (timer != 0) {
            if (timer > Integer.MAX_VALUE) {
                clamps++;
            }
            result.armTimerNs((int) Math.min(timer, Integer.MAX_VALUE));
        }
        final long fastStart = fastStartWord & 0xFFFF_FFFFL;
        if (fastStart != 0xFFFF_FFFFL) {
            if (fastStart > Integer.MAX_VALUE) {
                clamps++;
            }
            result.fastStartPackets((int) Math.min(fastStart, Integer.MAX_VALUE));
        }
        return clamps;
    }
}
