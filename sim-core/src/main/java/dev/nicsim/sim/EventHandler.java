package dev.nicsim.sim;

/**
 * Receiver of scheduled simulation events. A device implements it once and dispatches on
 * {@code kind}, so scheduling allocates no closure.
 *
 * <p>Called on the simulation thread only.
 */
@FunctionalInterface
public interface EventHandler {
    /**
     * Handles one event at the simulator's current time.
     *
     * @param kind event kind, meaning defined by the handler
     * @param arg  a long argument, meaning defined by the handler
     * @param ref  an object argument (typically a {@link Packet}), or null
     */
    void onEvent(int kind, long arg, Object ref);
}
