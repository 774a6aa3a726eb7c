package dev.nicsim.traces;

/**
 * Receives the decoded transport packets and pause frames of a capture, in capture order, from
 * {@link CaptureDecoder}. Skipped frames are only counted, never delivered.
 *
 * <p>Thread-safety: called on the decoding thread only.
 */
public interface RocePacketHandler {
    /**
     * One decoded packet ({@link RocePacket#KIND_ROCE} or {@link RocePacket#KIND_PAUSE}).
     *
     * @param packet the packet; reused after the call returns, so copy what must outlive it
     */
    void onPacket(RocePacket packet);
}
