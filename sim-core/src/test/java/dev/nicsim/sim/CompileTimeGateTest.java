package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CompileTimeGate}'s decision on a hand-driven clock and compilation counter: checks every
 * 100 ms of wall time; the gate shuts when the compilation time of the last three check periods
 * is at least half their wall time (sums worked by hand in each step).
 */
class CompileTimeGateTest {
    private static final long MS = 1_000_000L;

    private long nowNs;
    private long compiledMs;
    private final CompileTimeGate gate = new CompileTimeGate(() -> compiledMs, () -> nowNs, 100 * MS);

    /** Advances the clock by {@code wallMs} with {@code compileMs} of compilation, then asks the gate. */
    private boolean period(final long wallMs, final long compileMs) {
        nowNs += wallMs * MS;
        compiledMs += compileMs;
        return gate.runAlone();
    }

    @Test
    void shutsWhenTheLastThreePeriodsCompiledForAtLeastHalfTheirWallTime() {
        compiledMs = 7_000; // compilation before the run is not counted: start() takes the baseline
        gate.start();
        assertTrue(period(100, 50), "50 of 100 ms: exactly half");
        assertTrue(period(100, 50), "100 of 200 ms");
        assertFalse(period(100, 49), "149 of 300 ms");
        assertTrue(period(100, 51), "150 of 300 ms (the first period has left the window)");
        assertFalse(period(100, 0), "100 of 300 ms");
        assertFalse(period(100, 0), "51 of 300 ms");
        assertTrue(period(100, 150), "150 of 300 ms: one busy period outweighs two idle ones");
    }

    @Test
    void theAnswerHoldsUntilTheNextCheck() {
        gate.start();
        assertTrue(period(100, 100), "100 of 100 ms");
        assertTrue(period(99, 0), "99 ms after the last check: not read again");
        assertTrue(period(1, 0), "read 100 ms after the last check: 100 of 200 ms");
        assertTrue(period(50, 500), "50 ms after the last check: not read again");
        assertTrue(period(50, 0), "600 of 300 ms");
    }

    @Test
    void aRunWithoutWorkersHasAnOpenGate() {
        assertSame(JitGate.OPEN, CompileTimeGate.forRun(1));
        assertFalse(JitGate.OPEN.runAlone());
    }
}
