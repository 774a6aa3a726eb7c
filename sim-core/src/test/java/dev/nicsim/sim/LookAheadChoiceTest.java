package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel's timed choice of the look-ahead ({@link Simulator#LOOKAHEAD_AUTO}): with a wall clock
 * under the test's control, the look-ahead stays on when its epochs are faster and goes off when they
 * are slower, and on, off or chosen, every event happens at the same time in the same order.
 */
class LookAheadChoiceTest {

    private static final long RATE_BITS_PER_SEC = 100_000_000_000L;
    private static final long PROPAGATION_PS = 1_000_000;
    /** Events of the run: 5 cycles of 32 epochs of 2^16 events, plus change. */
    private static final long EVENTS = 5L * Simulator.EPOCH_CYCLE * Simulator.EPOCH_EVENTS + 1000;

    /** A port that always has a frame to send: back to back, one end of frame and one delivery per frame. */
    private static final class EndlessPort extends EgressPort {
        private final Packet frame = new Packet();

        EndlessPort(final Simulator sim) {
            super(sim, RATE_BITS_PER_SEC, PROPAGATION_PS);
            frame.frameBytes = 1086;
        }

        @Override
        protected Packet nextDataPacket() {
            return frame; // the same object each time: the sink keeps nothing
        }
    }

    /** Counts hints; hashes arrival times in order. */
    private static final class Sink implements NetDevice {
        final Simulator[] sim;
        long touches;
        long arrivals;
        long arrivalHash = 17;

        Sink(final Simulator[] sim) {
            this.sim = sim;
        }

        @Override
        public int touch(final Packet packet, final int inPort) {
            touches++;
            return 0;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            arrivals++;
            arrivalHash = arrivalHash * 31 + sim[0].nowPs() * 8 + inPort;
        }

        @Override
        public String name() {
            return "sink";
        }
    }

    /** What one run gives: arrivals, their hash, hints, epochs and epochs with the look-ahead on. */
    private static long[] run(final int mode, final boolean lookAheadCostsTime) {
        final Simulator[] holder = new Simulator[1];
        final Sink sink = new Sink(holder);
        // a fake wall clock: 10 ns per event; each hint adds 5 ns (look-ahead dearer) or takes 5 ns
        // off (look-ahead pays), so the trials see exactly which mode ran
        final LongSupplier clock = () -> 10 * holder[0].eventsProcessed() + (lookAheadCostsTime ? 5 : -5) * sink.touches;
        final Simulator sim = new Simulator(mode, clock);
        holder[0] = sim;
        final EndlessPort[] ports = new EndlessPort[3];
        for (int l = 0; l < ports.length; l++) {
            ports[l] = new EndlessPort(sim);
            ports[l].connect(sink, l);
            final EgressPort p = ports[l];
            sim.schedule(7_000L * l, (kind, arg, ref) -> p.kick(), 0, 0, null);
        }
        while (sim.eventsProcessed() < EVENTS) {
            sim.runUntil(sim.nowPs() + 50_000_000); // in steps, as the runner drives it
        }
        return new long[] {sim.eventsProcessed(), sink.arrivals, sink.arrivalHash, sink.touches, sim.epochsCompleted(),
            sim.epochsWithLookAhead()};
    }

    @Test
    void choosesTheFasterModeAndChangesNoEvent() {
        final long[] on = run(Simulator.LOOKAHEAD_ON, true);
        final long[] off = run(Simulator.LOOKAHEAD_OFF, true);
        final long[] autoDear = run(Simulator.LOOKAHEAD_AUTO, true);
        final long[] autoPays = run(Simulator.LOOKAHEAD_AUTO, false);

        // same events, same arrival times and order, whatever the look-ahead does
        for (final long[] r : new long[][] {off, autoDear, autoPays}) {
            assertArrayEquals(new long[] {on[0], on[1], on[2]}, new long[] {r[0], r[1], r[2]});
        }
        final long epochs = on[4];
        assertEquals(EVENTS / Simulator.EPOCH_EVENTS, epochs);
        assertEquals(epochs, on[5], "always on");
        assertEquals(0, off[5], "never on");
        assertEquals(0, off[3], "no hint with the look-ahead off");

        // hand-derived epoch counts for 160 epochs (5 cycles of 32), EPOCH_CYCLE = 32:
        // dearer look-ahead: cycle 1 runs its 28 first epochs on (the initial mode) and its trials
        // off, on, on, off; from then on the 28 chosen epochs run off: 28 + 5 x 2 trials on = 38
        assertEquals(28 + 5 * 2, autoDear[5], "epochs with the look-ahead when it costs time");
        // paying look-ahead: every epoch but the two "off" trials of each cycle: 160 - 10 = 150
        assertEquals(epochs - 5 * 2, autoPays[5], "epochs with the look-ahead when it pays");
        // hints follow the epochs: the dearer run hints far less than the always-on run
        assertTrue(autoDear[3] < on[3] * 0.3, "hints " + autoDear[3] + " vs " + on[3]);
    }

    @Test
    void rejectsAnUnknownMode() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Simulator(3, System::nanoTime));
        assertEquals("look-ahead mode must be 0 (auto), 1 (on) or 2 (off), got 3", e.getMessage());
    }
}
