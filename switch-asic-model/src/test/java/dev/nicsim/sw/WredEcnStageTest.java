package dev.nicsim.sw;

import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RngStreams;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The WRED/ECN stage on its own: decisions at exact depths (the LDCP draft §2.1, §2.3 Eq. (3)),
 * no WRED drop on a lossless priority, and exactly one random draw per decision with
 * {@code 0 < p < 1}. Profile: Kmin 100, Kmax 400, Pmax 0.2, Not-ECT drop at K = 100 bytes.
 */
class WredEcnStageTest {
    private static final int Q = 3;

    private final PacketPool pool = new PacketPool();
    private final WredProfile profile = new WredProfile(100, 400, 0.2, true, 100);

    private Packet packet(final int ecn) {
        return TestDevices.data(pool, 0, 1, 24, ecn, 1000, 5);
    }

    private WredEcnStage stage(final SplittableRandom rng) {
        final WredEcnStage s = new WredEcnStage(8, rng);
        s.setProfile(Q, profile);
        return s;
    }

    @Test
    void deterministicDecisionsAtExactDepths() {
        final WredEcnStage s = stage(RngStreams.stream(1, "t"));
        final Packet ect = packet(Packet.ECN_ECT0);
        final Packet notEct = packet(Packet.ECN_NOT_ECT);
        assertEquals(WredEcnStage.PASS, s.decide(ect, Q, 99, false));     // below Kmin: p = 0
        assertEquals(WredEcnStage.MARK, s.decide(ect, Q, 400, false));    // at Kmax: p = 1
        assertEquals(WredEcnStage.PASS, s.decide(notEct, Q, 99, false));  // q < K
        assertEquals(WredEcnStage.DROP, s.decide(notEct, Q, 100, false)); // q >= K: Eq. (3)
        assertEquals(WredEcnStage.PASS, s.decide(notEct, Q, 1_000, true)); // lossless never drops
        assertEquals(WredEcnStage.MARK, s.decide(ect, Q, 1_000, true));    // ... but marks
        assertEquals(WredEcnStage.PASS, s.decide(ect, 2, 1_000, false));   // queue without a profile
    }

    @Test
    void oneDrawPerProbabilisticDecision() {
        // depth 250: p = (250 - 100) / (400 - 100) x 0.2 = 0.1; each decision consumes one draw of the stream
        final SplittableRandom reference = RngStreams.stream(7, "switch/s/wred");
        final WredEcnStage s = stage(RngStreams.stream(7, "switch/s/wred"));
        final Packet ect = packet(Packet.ECN_ECT0);
        final double p = profile.markProbability(250);
        assertEquals(0.1, p, 1e-12);
        for (int i = 0; i < 200; i++) {
            s.decide(ect, Q, 50, false); // p = 0: no draw
            final int expected = reference.nextDouble() < p ? WredEcnStage.MARK : WredEcnStage.PASS;
            assertEquals(expected, s.decide(ect, Q, 250, false), "decision " + i);
        }
    }

    @Test
    void profileWithoutEcnDropsWithProbability() {
        final WredEcnStage s = new WredEcnStage(8, RngStreams.stream(1, "t"));
        s.setProfile(Q, new WredProfile(100, 400, 0.2, false, WredProfile.NEVER_DROP));
        assertEquals(WredEcnStage.DROP, s.decide(packet(Packet.ECN_ECT0), Q, 400, false)); // p = 1, ECT too
        assertEquals(WredEcnStage.PASS, s.decide(packet(Packet.ECN_ECT0), Q, 400, true));  // lossless
    }
}
