package dev.nicsim.sim;

/**
 * Scheduling policy of a {@link PartitionedRun}: whether the next window runs every partition on
 * the coordinator thread alone, the workers parked, instead of on all the run's threads. Which
 * thread runs a partition changes no result (within a window the partitions share no mutable
 * state), so a gate changes the run's speed only, never its output.
 *
 * <p>The default policy is {@link CompileTimeGate}; {@link #OPEN} never runs a window alone.
 *
 * <p>Thread-safety: called by the coordinator thread only, between windows.
 */
@FunctionalInterface
public interface JitGate {
    /** The gate that never runs a window alone. */
    JitGate OPEN = () -> false;

    /** The run's first window is about to start; a gate that measures a rate takes its baseline here. */
    default void start() {
    }

    /**
     * Called before every window of a run with worker threads (never on one thread).
     *
     * @return whether the next window runs on the coordinator alone
     */
    boolean runAlone();
}
