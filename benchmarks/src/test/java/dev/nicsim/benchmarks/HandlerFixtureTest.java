package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What one op of the DCQCN handler benchmarks includes, checked on the algorithm's own counters
 * over one round of each pool (256 ops).
 *
 * <p>With {@link HandlerFixture.Timers#ARMED} a TIMER comes only at the deadline the handler armed,
 * and every event re-arms it for the earliest running deadline (decrease boundary if a decrease is
 * pending, increase timer if increasing), so, by the arming rule alone:
 * <ul>
 *   <li>every TIMER op finds that deadline due and runs it: rate decreases plus timer increases
 *       are exactly 256;</li>
 *   <li>no TX or CNP op finds a deadline due (a due one fired as a TIMER before the event): no
 *       rate decrease and no timer increase in those rounds.</li>
 * </ul>
 * With the scripted flow's random timers the TX round does find decreases due (41 of 256, the
 * figure docs/performance.md gives for the earlier fixture).
 */
class HandlerFixtureTest {

    private static long[] round(final HandlerFixture f, final int type) {
        final PccCounters c = f.algorithm().counters();
        final long[] before = new long[c.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = c.get(i);
        }
        f.runRound(type);
        final long[] delta = new long[c.size()];
        for (int i = 0; i < delta.length; i++) {
            delta[i] = c.get(i) - before[i];
        }
        return delta;
    }

    @Test
    void armedTimersPutEveryDueDeadlineInTheTimerOp() {
        final HandlerFixture f = new HandlerFixture("dcqcn", HandlerFixture.Timers.ARMED);
        final PccCounters c = f.algorithm().counters();
        final int decreases = indexOf(c, "dcqcn_rate_decreases");
        final int timerIncreases = indexOf(c, "dcqcn_timer_increase_events");
        final long[] timer = round(f, PccEventType.TIMER);
        assertEquals(HandlerFixture.POOL, timer[decreases] + timer[timerIncreases], "TIMER ops running a deadline");
        assertTrue(timer[decreases] > 0);
        for (final int type : new int[] {PccEventType.TX_BURST, PccEventType.CNP}) {
            final long[] d = round(f, type);
            assertEquals(0, d[decreases], PccEventType.name(type) + " ops finding a decrease due");
            assertEquals(0, d[timerIncreases], PccEventType.name(type) + " ops finding the increase timer due");
        }
        assertEquals(HandlerFixture.POOL, round(f, PccEventType.CNP)[indexOf(c, "dcqcn_cnp_handled")]);
    }

    @Test
    void scriptedTimersLeaveDecreasesDueInTxOps() {
        final HandlerFixture f = new HandlerFixture("dcqcn");
        final long[] tx = round(f, PccEventType.TX_BURST);
        assertEquals(41, tx[indexOf(f.algorithm().counters(), "dcqcn_rate_decreases")]);
    }

    private static int indexOf(final PccCounters c, final String name) {
        for (int i = 0; i < c.size(); i++) {
            if (c.name(i).equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no counter " + name);
    }
}
