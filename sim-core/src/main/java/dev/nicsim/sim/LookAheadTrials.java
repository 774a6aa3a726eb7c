package dev.nicsim.sim;

/**
 * The {@link Simulator}'s timed look-ahead choice: every {@link Simulator#EPOCH_CYCLE} epochs, the
 * last four are trials (off, on, on, off: a steady drift in the machine's speed cancels out), after
 * which the mode of the next {@code EPOCH_CYCLE - 4} epochs is chosen by a decayed sum of the
 * trials' (off - on) wall times. The choice depends on the machine's timing, never on an event or
 * an output.
 *
 * <p>Thread-safety: owned by one simulator.
 */
final class LookAheadTrials {
    /** Epoch number within the cycle, 0..EPOCH_CYCLE-1. */
    private int epochInCycle;
    private long trialOnNs;
    private long trialOffNs;
    /** Decayed sum of (off - on) trial times, ns: positive while the look-ahead pays. */
    private long gainNs;

    /**
     * An epoch ended.
     *
     * @param on whether the look-ahead ran in it
     * @param ns its wall time inside the event loop, ns
     * @return whether the look-ahead runs in the next epoch
     */
    boolean endEpoch(final boolean on, final long ns) {
        final int trial = epochInCycle - (Simulator.EPOCH_CYCLE - 4); // 0..3 in the trials, negative before
        if (trial >= 0) {
            if (on) {
                trialOnNs += ns;
            } else {
                trialOffNs += ns;
            }
        }
        epochInCycle = (epochInCycle + 1) & (Simulator.EPOCH_CYCLE - 1);
        final int next = epochInCycle - (Simulator.EPOCH_CYCLE - 4);
        if (next == 0 || next == 3) {
            return false;
        } else if (next > 0) {
            return true;
        } else if (epochInCycle == 0) {
            gainNs = gainNs / 2 + (trialOffNs - trialOnNs);
            trialOnNs = 0;
            trialOffNs = 0;
            return gainNs > 0;
        }
        return on;
    }
}
