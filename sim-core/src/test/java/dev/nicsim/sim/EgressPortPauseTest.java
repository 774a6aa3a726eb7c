package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link EgressPort#pausedMask()} and {@link EgressPort#isPaused(int)} over PFC pauses, resumes and their expiry. */
class EgressPortPauseTest {

    /** A port with nothing to send: only its pause state is looked at. */
    private static final class IdlePort extends EgressPort {
        IdlePort(final Simulator sim) {
            super(sim, 100_000_000_000L, 0);
        }

        int mask() {
            return pausedMask();
        }

        @Override
        protected Packet nextDataPacket() {
            return null;
        }
    }

    private static Packet pfc(final int classEnable, final int priority, final int quanta) {
        final Packet p = new Packet();
        p.kind = Packet.KIND_PFC;
        p.pfcClassEnable = classEnable;
        p.setPfcQuanta(priority, quanta);
        return p;
    }

    @Test
    void maskFollowsEachPriorityUntilItsPauseEndsOrIsResumed() {
        final Simulator sim = new Simulator();
        final IdlePort port = new IdlePort(sim);
        assertEquals(0, port.mask(), "no pause received yet");

        // t = 0: priority 3 paused for 100 quanta = 100 x 512 bits at 100 Gb/s = 51,200 bits / 1e11
        // bits/s = 512 ns = 512,000 ps.
        port.applyPause(pfc(1 << 3, 3, 100));
        assertEquals(1 << 3, port.mask());
        assertTrue(port.isPaused(3));
        assertFalse(port.isPaused(2));

        // t = 100,000 ps: priority 5 paused for 1000 quanta = 5.12 us, until 5,220,000 ps.
        sim.schedule(100_000, (k, a, r) -> port.applyPause(pfc(1 << 5, 5, 1000)), 0, 0, null);
        sim.runUntil(100_000);
        assertEquals((1 << 3) | (1 << 5), port.mask());

        // t = 511,999 ps: priority 3 still paused (ends at 512,000); at 512,000 it is not.
        sim.runUntil(511_999);
        assertEquals((1 << 3) | (1 << 5), port.mask());
        sim.runUntil(512_000);
        assertEquals(1 << 5, port.mask());
        assertFalse(port.isPaused(3));

        // t = 1,000,000 ps: priority 5 resumed early (quanta 0): nothing paused although the latest
        // pause end seen (5,220,000 ps) is still ahead.
        sim.schedule(1_000_000, (k, a, r) -> port.applyPause(pfc(1 << 5, 5, 0)), 0, 0, null);
        sim.runUntil(1_000_000);
        assertEquals(0, port.mask());
        assertFalse(port.isPaused(5));

        // t = 2,000,000 ps: priority 0 paused for 1 quantum = 5,120 ps, until 2,005,120 ps.
        sim.schedule(2_000_000, (k, a, r) -> port.applyPause(pfc(1, 0, 1)), 0, 0, null);
        sim.runUntil(2_000_000);
        assertEquals(1, port.mask());
        sim.runUntil(2_005_119);
        assertEquals(1, port.mask());
        sim.runUntil(6_000_000);
        assertEquals(0, port.mask());
    }
}
