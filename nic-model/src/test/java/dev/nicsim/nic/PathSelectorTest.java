package dev.nicsim.nic;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The path policies of {@link PathSelector} against sequences derived by hand from uet-htsim's rules
 * (docs/uet.md, "Spraying"): the XOR-shuffled round robin, the bitmap's skips and their decay, REPS's
 * ring of good EVs and its freeze, mixed's FIFO.
 */
class PathSelectorTest {
    private static final int QP_PORT = 0xC000 | 0x1234;

    private final long[] cells = new long[64];

    private PathSelector selector(final int policy, final int entropies) {
        final PathSelector s = new PathSelector(policy, entropies, cells);
        s.start(QP_PORT, 42);
        return s;
    }

    private static int[] indexes(final PathSelector s, final int n) {
        final int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            final int port = s.nextPort();
            assertTrue(port >= 0xC000 && port <= 0xFFFF, "a RoCEv2 source port: " + port);
            out[i] = s.index(port);
        }
        return out;
    }

    @Test
    void portsMapToIndexesAndBack() {
        final PathSelector s = selector(NicConfig.PATH_OBLIVIOUS, 64);
        assertEquals(QP_PORT, s.port(0), "EV 0 is the QP's own port");
        final Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 64; i++) {
            assertEquals(i, s.index(s.port(i)));
            ports.add(s.port(i));
        }
        assertEquals(64, ports.size());
        assertEquals(-1, s.index(QP_PORT ^ 64), "an index beyond the EVs");
        assertEquals(-1, s.index(0x1234), "not a 0xC000.. port");
        assertThrows(IllegalArgumentException.class, () -> new PathSelector(NicConfig.PATH_OBLIVIOUS, 48, cells));
        assertThrows(IllegalArgumentException.class, () -> new PathSelector(NicConfig.PATH_ECMP, 64, cells));
    }

    @Test
    void obliviousCyclesAreXorShufflesOfEveryEv() {
        final PathSelector s = selector(NicConfig.PATH_OBLIVIOUS, 8);
        final Set<Integer> xors = new HashSet<>();
        for (int cycle = 0; cycle < 20; cycle++) {
            final int[] c = indexes(s, 8);
            for (int j = 0; j < 8; j++) {
                assertEquals(j, c[j] ^ c[0], "slot j of a cycle is j XOR x (cycle " + cycle + ")");
            }
            xors.add(c[0]);
        }
        // x is drawn per cycle: 20 draws from 8 values all equal with probability 8^-19
        assertTrue(xors.size() > 1, "the order changes between cycles");
        assertEquals(160, cells[NicCounters.PATH_EV_ROUND_ROBIN]);
        // feedback does not change oblivious's sequence: a twin with the same seed, fed penalties, agrees
        final long[] other = new long[64];
        final PathSelector a = new PathSelector(NicConfig.PATH_OBLIVIOUS, 8, other);
        final PathSelector b = new PathSelector(NicConfig.PATH_OBLIVIOUS, 8, other);
        a.start(QP_PORT, 7);
        b.start(QP_PORT, 7);
        for (int i = 0; i < 50; i++) {
            b.onFeedback(b.port(i & 7), PathSelector.NACK, 0);
            b.onTimeout(0);
            assertEquals(a.nextPort(), b.nextPort());
        }
    }

    @Test
    void bitmapSkipsAnEcnPenalisedEvOnceThenUsesItAgain() {
        final PathSelector s = selector(NicConfig.PATH_BITMAP, 4);
        indexes(s, 4); // one whole cycle: the next call starts a new one
        s.onFeedback(s.port(2), PathSelector.ECN, 0);
        assertEquals(1, s.penalty(2));
        // the cycle's 4 slots minus the skipped EV 2 give 3 packets
        final int[] next = indexes(s, 3);
        assertEquals(Set.of(0, 1, 3), Set.of(next[0], next[1], next[2]));
        // the next four packets are a whole cycle again, EV 2 included (when EV 2 was the cycle's last slot, the
        // first of these four calls skipped it)
        final int[] after = indexes(s, 4);
        assertEquals(Set.of(0, 1, 2, 3), Set.of(after[0], after[1], after[2], after[3]));
        assertEquals(1, cells[NicCounters.PATH_EV_PENALISED_SKIPS]);
        assertEquals(0, s.penalty(2), "the skip took the penalty off");
        assertEquals(1, cells[NicCounters.PATH_EV_PENALTIES]);
    }

    @Test
    void bitmapNackKeepsAnEvOutForFourCycles() {
        final PathSelector s = selector(NicConfig.PATH_BITMAP, 4);
        indexes(s, 4);
        s.onFeedback(s.port(1), PathSelector.NACK, 0);
        assertEquals(4, s.penalty(1));
        // a NACK adds 4: each of the next four cycles meets EV 1 once, takes 1 off and skips it
        for (int cycle = 0; cycle < 4; cycle++) {
            final int[] c = indexes(s, 3);
            assertEquals(Set.of(0, 2, 3), Set.of(c[0], c[1], c[2]), "cycle " + cycle);
        }
        final int[] back = indexes(s, 4);
        assertEquals(Set.of(0, 1, 2, 3), Set.of(back[0], back[1], back[2], back[3]));
        assertEquals(4, cells[NicCounters.PATH_EV_PENALISED_SKIPS]);
        assertEquals(0, s.penalty(1));
    }

    @Test
    void bitmapPenaltiesAddUpToFifteenAndATimeoutHitsEvZero() {
        final PathSelector s = selector(NicConfig.PATH_BITMAP, 16);
        for (int i = 0; i < 20; i++) {
            s.onFeedback(s.port(3), PathSelector.ECN, 0);
        }
        assertEquals(15, s.penalty(3), "capped at 15");
        s.onFeedback(s.port(5), PathSelector.GOOD, 0);
        assertEquals(0, s.penalty(5), "a good ACK adds nothing");
        s.onTimeout(0);
        assertEquals(15, s.penalty(0), "uet-htsim's UNKNOWN_EV: index 0");
        s.onFeedback(0x1234, PathSelector.NACK, 0); // not one of the QP's EVs: ignored
        assertEquals(21, cells[NicCounters.PATH_EV_PENALTIES]);
    }

    @Test
    void bitmapWithEveryEvPenalisedSendsAfterOneRound() {
        final PathSelector s = selector(NicConfig.PATH_BITMAP, 4);
        for (int i = 0; i < 4; i++) {
            s.onFeedback(s.port(i), PathSelector.NACK, 0);
        }
        final int e = s.index(s.nextPort());
        // the first EV met lost 1; the call gave up after meeting n + 1 penalised EVs
        int total = 0;
        for (int i = 0; i < 4; i++) {
            total += s.penalty(i);
        }
        assertEquals(15, total);
        assertTrue(e >= 0 && e < 4);
        assertEquals(4, cells[NicCounters.PATH_EV_PENALISED_SKIPS]);
    }

    @Test
    void repsRecyclesGoodEvsOldestFirstAndDropsEcnOnes() {
        final PathSelector s = selector(NicConfig.PATH_REPS, 64);
        s.onFeedback(s.port(10), PathSelector.GOOD, 0);
        s.onFeedback(s.port(20), PathSelector.ECN, 0);
        s.onFeedback(s.port(30), PathSelector.GOOD, 0);
        s.onFeedback(s.port(40), PathSelector.NACK, 0);
        assertEquals(10, s.index(s.nextPort()));
        assertEquals(30, s.index(s.nextPort()));
        assertEquals(2, cells[NicCounters.PATH_EV_RECYCLED]);
        s.nextPort(); // none left: random
        assertEquals(1, cells[NicCounters.PATH_EV_RANDOM]);
    }

    @Test
    void repsRingHoldsTheLastEightGoodEvs() {
        final PathSelector s = selector(NicConfig.PATH_REPS, 64);
        for (int i = 0; i < 10; i++) {
            s.onFeedback(s.port(i), PathSelector.GOOD, 0);
        }
        // EVs 0 and 1 were overwritten by 8 and 9
        assertEquals(2, s.index(s.nextPort()));
        final int[] rest = indexes(s, 7);
        assertEquals(3, rest[0]);
        assertEquals(9, rest[6]);
        assertEquals(8, cells[NicCounters.PATH_EV_RECYCLED]);
        assertEquals(0, cells[NicCounters.PATH_EV_RANDOM]);
    }

    @Test
    void repsFreezesForTenMillisecondsAfterATimeoutThenExplores() {
        final PathSelector s = selector(NicConfig.PATH_REPS, 64);
        s.onFeedback(s.port(5), PathSelector.GOOD, 0);
        s.onFeedback(s.port(6), PathSelector.GOOD, 0);
        s.onTimeout(1_000);
        assertTrue(s.frozen());
        assertEquals(1, cells[NicCounters.PATH_REPS_FREEZES]);
        // frozen: the cached EVs over and over, used or not
        assertEquals(5, s.index(s.nextPort()));
        assertEquals(6, s.index(s.nextPort()));
        assertEquals(5, s.index(s.nextPort()));
        assertEquals(6, s.index(s.nextPort()));
        s.onTimeout(2_000); // already frozen: no second freeze
        assertEquals(1, cells[NicCounters.PATH_REPS_FREEZES]);
        s.onFeedback(s.port(7), PathSelector.GOOD, 1_000 + PathSelector.REPS_FREEZE_PS);
        assertTrue(s.frozen(), "not after exactly 10 ms");
        // the first feedback after the 10 ms: thaw, clear the ring, then cache this ACK's EV
        s.onFeedback(s.port(9), PathSelector.GOOD, 1_001 + PathSelector.REPS_FREEZE_PS);
        assertFalse(s.frozen());
        final long random = cells[NicCounters.PATH_EV_RANDOM];
        indexes(s, PathSelector.REPS_EXPLORE_PACKETS);
        assertEquals(random + 16, cells[NicCounters.PATH_EV_RANDOM], "16 packets explore");
        assertEquals(9, s.index(s.nextPort()), "then the ring, cleared at the thaw");
        s.onTimeout(5_000 + PathSelector.REPS_FREEZE_PS);
        assertTrue(s.frozen(), "freezes again once exploring is over");
    }

    @Test
    void mixedTakesGoodEvsFromItsFifoElseTheBitmap() {
        final PathSelector s = selector(NicConfig.PATH_MIXED, 4);
        for (int i = 0; i < 40; i++) {
            s.onFeedback(s.port(i & 3), i % 5 == 0 ? PathSelector.ECN : PathSelector.GOOD, 0);
        }
        // 32 good EVs wait in the FIFO (past its first size of 16), in arrival order
        for (int i = 0; i < 40; i++) {
            if (i % 5 != 0) {
                assertEquals(i & 3, s.index(s.nextPort()), "FIFO entry of ACK " + i);
            }
        }
        assertEquals(32, cells[NicCounters.PATH_EV_RECYCLED]);
        // the 8 ECN echoes penalised EVs 0 (i = 0, 20), 1 (5, 25), 2 (10, 30), 3 (15, 35) twice each
        for (int i = 0; i < 4; i++) {
            assertEquals(2, s.penalty(i));
        }
        final int e = s.index(s.nextPort());
        assertEquals(1, cells[NicCounters.PATH_EV_ROUND_ROBIN], "the FIFO is empty: the bitmap chose");
        assertNotEquals(-1, e);
    }

    @Test
    void startForgetsThePreviousFlow() {
        final PathSelector s = selector(NicConfig.PATH_MIXED, 4);
        s.onFeedback(s.port(2), PathSelector.NACK, 0);
        s.onFeedback(s.port(3), PathSelector.GOOD, 0);
        s.start(QP_PORT, 42);
        assertEquals(0, s.penalty(2));
        s.nextPort();
        assertEquals(0, cells[NicCounters.PATH_EV_RECYCLED]);
        final PathSelector r = selector(NicConfig.PATH_REPS, 4);
        r.onFeedback(r.port(1), PathSelector.GOOD, 0);
        r.onTimeout(0);
        r.start(QP_PORT, 1);
        assertFalse(r.frozen());
    }
}
