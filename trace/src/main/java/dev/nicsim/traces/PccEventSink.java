package dev.nicsim.traces;

import dev.nicsim.pcc.PccEvent;

/**
 * Receives derived PCC events in time order (non-decreasing {@code timePs}), e.g. to record them
 * to a trace, print them, or offer them to a CC processor.
 *
 * <p>Thread-safety: called on the deriving thread only.
 */
public interface PccEventSink {
    /**
     * One event.
     *
     * @param event  the event record ({@link dev.nicsim.pcc.PccEventLayout}); a flyweight over a reused
     *               buffer, valid only during the call: copy it ({@link PccEvent#copyFrom}) to keep it
     * @param timePs when the event happened, picoseconds since the capture's first packet
     *               (its 32-bit nanosecond timestamp is {@code (int) (timePs / Units.PS_PER_NS)})
     */
    void onEvent(PccEvent event, long timePs);
}
