package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A QP belongs to one core: its events never run on another. */
class QpOwnershipTest {

    /**
     * The hash by hand, 16 cores: h = qpn x 0x9E3779B1 mod 2^32 (0x9E3779B1 = 2,654,435,761),
     * core = floor(h x 16 / 2^32) = floor(h / 268,435,456).
     * qpn 0: h = 0 -> core 0. qpn 1: h = 2,654,435,761 -> 9.89 -> core 9.
     * qpn 2: h = 5,308,871,522 - 4,294,967,296 = 1,013,904,226 -> 3.78 -> core 3.
     * qpn 2^24 + 1: the QPN's low 24 bits are 1 -> core 9.
     */
    @Test
    void coreOfQpnByHand() {
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig(), () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0,
            (q, r, t, c) -> { });
        assertEquals(0, emu.coreOf(0));
        assertEquals(9, emu.coreOf(1));
        assertEquals(3, emu.coreOf(2));
        assertEquals(9, emu.coreOf((1 << 24) + 1));
    }

    /**
     * 1,024 consecutive QPNs over 16 cores: the points i x phi mod 1 of Fibonacci hashing fall
     * evenly into the 16 intervals (three-gap theorem; the discrepancy of the golden-ratio sequence
     * is O(log N)), so each core gets 64 +- a few.
     */
    @Test
    void consecutiveQpnsSpreadEvenly() {
        final UnicEmulator emu = new UnicEmulator(new EmulatorConfig(), () -> new RecordingAlgorithm(1, 1, 1, 1, 1, 1), 0,
            (q, r, t, c) -> { });
        final int[] perCore = new int[16];
        for (int q = 1; q <= 1024; q++) {
            perCore[emu.coreOf(q)]++;
        }
        for (int c = 0; c < 16; c++) {
            assertTrue(perCore[c] >= 60 && perCore[c] <= 68, "core " + c + " got " + perCore[c]);
        }
    }

    /**
     * 4 cores x 2 threads, 48 flows (strided and high QPNs), 6,000 events of all types in bursts:
     * every handled event ran on the algorithm instance of core coreOf(qpn) (instances are made as
     * cores are first used, mapped to cores by {@link UnicEmulator#algorithm}), every flow on one
     * core only, and per flow and type the events came in order (each handled event's first sn
     * follows the previous one's sn).
     */
    @Test
    void aQpsEventsNeverRunOnTwoCores() {
        final List<RecordingAlgorithm.Seen> seen = new ArrayList<>();
        final int[] made = {0};
        final Stepper s = new Stepper();
        final EmulatorConfig cfg = new EmulatorConfig().cores(4).threadsPerCore(2).contextCacheEntries(4)
            .ringCapacity(32);
        final UnicEmulator emu = new UnicEmulator(cfg,
            () -> new RecordingAlgorithm(made[0]++, seen, 30, 80, 40, 60, 50, 70), 0, s);
        s.processor = emu;
        final int[] qpns = new int[48];
        for (int i = 0; i < qpns.length; i++) {
            qpns[i] = i < 40 ? 16 * i + 3 : 0xFFFF00 + i;
            emu.startFlow(qpns[i], 0, 100_000_000_000L, 1000, 10_000);
        }
        final int[][] nextSn = new int[qpns.length][PccEventType.COUNT];
        long lcg = 42;
        long t = 0;
        for (int i = 0; i < 6_000; i++) {
            lcg = lcg * 6364136223846793005L + 1442695040888963407L;
            final int f = (int) ((lcg >>> 33) % qpns.length);
            final int type = (int) ((lcg >>> 20) % PccEventType.COUNT);
            t += ((lcg >>> 45) & 7) == 0 ? 2_000 : 10; // bursts with gaps
            final int sn = ++nextSn[f][type];
            s.event.reset(type, 0, qpns[f], sn, (int) (t / 1000));
            s.firstSn(sn);
            s.offer(t);
        }
        s.finish();

        // cores are made on first use, so instance numbers follow first use: map them to cores
        final int[] coreOfInstance = new int[4];
        for (int c = 0; c < 4; c++) {
            coreOfInstance[((RecordingAlgorithm) emu.algorithm(c)).instance] = c;
        }
        final Map<Integer, Integer> coreOfFlow = new HashMap<>();
        final Map<Long, Integer> lastSn = new HashMap<>();
        final int[] perInstance = new int[4];
        for (final RecordingAlgorithm.Seen e : seen) {
            final int core = coreOfInstance[e.instance()];
            assertEquals(emu.coreOf(e.qpn()), core, "qpn " + e.qpn());
            final Integer before = coreOfFlow.putIfAbsent(e.qpn(), core);
            assertTrue(before == null || before == core);
            final long key = ((long) e.qpn() << 8) | e.type();
            final Integer prev = lastSn.put(key, e.sn());
            assertTrue(prev == null || e.firstSn() > prev, "order of qpn " + e.qpn());
            perInstance[core]++;
        }
        for (int c = 0; c < 4; c++) {
            assertTrue(perInstance[c] > 0, "core " + c + " ran nothing");
            assertEquals(perInstance[c], emu.coreHandled(c));
        }
        long offered = 0;
        for (int type = 0; type < PccEventType.COUNT; type++) {
            offered += emu.handled(type) + emu.coalesced(type) + emu.dropped(type);
        }
        assertEquals(6_000, offered); // nothing lost without a count
    }
}
