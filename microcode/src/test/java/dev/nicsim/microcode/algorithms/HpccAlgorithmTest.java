package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccIntHop;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.HpccAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * HPCC's window/rate update over a two-hop INT sequence (a 100 Gb/s hop, then a 400 Gb/s hop), with
 * numbers derived by hand from HPCC Algorithm 1 as ns-3's {@code UpdateRateHp} computes it. Line
 * rate 100 Gb/s, W = 125,000 bytes, T = 10 us, eta = 0.95 (62,259 / 65,536 = 0.9499969...),
 * max_stage 5, AI 50 Mb/s, INT_MULTI 1 (bytes in 128-byte units, queues in 80-byte units).
 */
class HpccAlgorithmTest {
    private static final long LINE = 100_000_000_000L;
    private static final int C100 = PccIntHop.rateCode(100_000_000_000L);
    private static final int C400 = PccIntHop.rateCode(400_000_000_000L);

    private final PccContext context = new PccContext().wrap(new UnsafeBuffer(new byte[4 * CONTEXT_WORDS]), 0, CONTEXT_WORDS);
    private final PccEvent event = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    private final PccAttributes attributes = new PccAttributes().set(LINE, 0, false, 1000, 10_000);
    private final PccResult result = new PccResult();

    private PccAlgorithm create(final Object... nameValue) {
        final HpccProvider p = new HpccProvider();
        final PccParameterValues v = p.defaults().set("window_bytes", 125_000).set("base_rtt_ns", 10_000)
            .set("rate_ai_mbps", 50);
        for (int i = 0; i < nameValue.length; i += 2) {
            v.set((String) nameValue[i], ((Number) nameValue[i + 1]).doubleValue());
        }
        final PccAlgorithm a = p.create(v);
        context.clear();
        result.reset();
        a.initFlow(context, 0, attributes, result);
        return a;
    }

    /** ACK at tsNs echoing a packet sent at echoNs, with hops {time, txBytes, qlenBytes} at 100 then 400 Gb/s. */
    private PccResult ack(final PccAlgorithm a, final int tsNs, final int echoNs, final long[] hop0, final long[] hop1) {
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 7, 0, tsNs).rtt(echoNs, 0, 0);
        event.intHops(2);
        event.intHop(0, PccIntHop.pack(C100, hop0[0], hop0[1], hop0[2], 1));
        event.intHop(1, PccIntHop.pack(C400, hop1[0], hop1[1], hop1[2], 1));
        result.reset();
        a.onEvent(context, event, attributes, result);
        return result;
    }

    @Test
    void fullUpdateThenFastReactionOverTwoHops() {
        final PccAlgorithm a = create();
        assertEquals(125_000, result.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, result.rate());

        // ACK 1: hops only stored (first RTT)
        PccResult r = ack(a, 10_000, 1_000, new long[] {5_000, 1_000_000, 40_000}, new long[] {5_500, 4_000_000, 80_000});
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());

        // ACK 2, a full update (sent at 11 us >= last update at 10 us), tau = 10 us at both hops:
        //   hop 0: 128,000 bytes in 10 us = 102.4 Gb/s / 100 Gb/s = 1.024; min(48,000, 40,000) x 100G / (100G x 125,000)
        //          = 0.32 -> u0 = 1.344
        //   hop 1: 384,000 bytes in 10 us = 307.2 Gb/s / 400 Gb/s = 0.768; 80,000 x 100G / (400G x 125,000) = 0.16
        //          -> u1 = 0.928
        //   U = 1.344 (hop 0), dt = 10 us = T: u = U = 1.344; k = 1.344 / 0.9499969 = 1.41474 >= 1:
        //   rate = 100 Gb/s / 1.41474 + 50 Mb/s = 70,684,296,744 + 50,000,000 = 70,734,296,744 b/s; stage 0
        r = ack(a, 12_000, 11_000, new long[] {15_000, 1_128_000, 48_000}, new long[] {15_500, 4_384_000, 80_000});
        assertEquals(1.344, readDouble(context, W_U), 1e-12);
        assertEquals(70_734_296_744L, readLong(context, W_RC_BPS));
        assertEquals(70_734_296_744L, readLong(context, W_RATE_BPS));
        assertEquals(0, context.get(W_STAGE));
        assertEquals(741_702, r.rate()); // floor(70,734,296,744 x 2^20 / 10^11)
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes()); // var_win 0: W stays

        // ACK 3, a fast reaction (sent at 11.5 us, before the update at 12 us), tau = 1 us:
        //   hop 0: 12,800 bytes in 1 us = 1.024; min(40,000, 48,000) -> 0.32; u0 = 1.344
        //   hop 1: 51,200 bytes in 1 us = 409.6 / 400 = 1.024; 0.16; u1 = 1.184
        //   u = (1.344 x 9 us + 1.344 x 1 us) / 10 us = 1.344; rate = Rc / k + AI
        //   = 70,734,296,744 / 1.41474 + 50,000,000 = 50,048,040,210 b/s, applied but Rc not committed
        r = ack(a, 12_500, 11_500, new long[] {16_000, 1_140_800, 40_000}, new long[] {16_500, 4_435_200, 80_000});
        assertEquals(50_048_040_210L, readLong(context, W_RATE_BPS));
        assertEquals(70_734_296_744L, readLong(context, W_RC_BPS));
        assertEquals(524_791, r.rate());
        assertEquals(1, a.counters().get("hpcc_fast_reactions"));
        assertEquals(2, a.counters().get("hpcc_full_updates"));
    }

    @Test
    void varWinScalesTheWindowWithTheRateAndAdditiveStagesCount() {
        final PccAlgorithm a = create("var_win", 1, "max_stage", 5);
        ack(a, 10_000, 1_000, new long[] {5_000, 0, 0}, new long[] {5_500, 0, 0});
        // hop 0 at 51.2 Gb/s (64,000 bytes in 10 us) = 0.512, hop 1 idle, no queues: u = 0.512, k = 0.539 < 1 and
        // stage 0 < 5: additive, rate = min(line, 100G + 50M) = line; window = 125,000 x line / line
        PccResult r = ack(a, 20_000, 11_000, new long[] {15_000, 64_000, 0}, new long[] {15_500, 0, 0});
        assertEquals(1, context.get(W_STAGE));
        assertEquals(LINE, readLong(context, W_RC_BPS));
        assertEquals(125_000, r.windowBytes());
        assertEquals(1, a.counters().get("hpcc_additive"));
    }

    @Test
    void multiRateKeepsARatePerHopAndAppliesTheLowest() {
        final PccAlgorithm a = create("multi_rate", 1);
        ack(a, 10_000, 1_000, new long[] {5_000, 1_000_000, 40_000}, new long[] {5_500, 4_000_000, 80_000});
        // ACK 2 as in fullUpdateThenFastReactionOverTwoHops, each hop on its own (tau = T = 10 us, so each hop's
        // EWMA is its sample): hop 0 u = 1.344, k = 1.41474 >= 1: multiplicative, R0 = 70,734,296,744 b/s, stage 0;
        // hop 1 u = 0.928, k = 0.97685 < 1 and stage 0 < 5: additive, R1 = min(line, 100G + 50M) = line, stage 1.
        // The lowest, R0, applies; the single-rate words (Rc, stage) are not touched.
        PccResult r = ack(a, 12_000, 11_000, new long[] {15_000, 1_128_000, 48_000}, new long[] {15_500, 4_384_000, 80_000});
        assertEquals(1.344, readDouble(context, W_HOP_U), 1e-12);
        assertEquals(0.928, readDouble(context, W_HOP_U + 2), 1e-12);
        assertEquals(70_734_296_744L, readLong(context, W_HOP_RC_BPS));
        assertEquals(LINE, readLong(context, W_HOP_RC_BPS + 2));
        assertEquals(0, context.get(W_HOP_STAGE));
        assertEquals(1, context.get(W_HOP_STAGE + 1));
        assertEquals(70_734_296_744L, readLong(context, W_RATE_BPS));
        assertEquals(LINE, readLong(context, W_RC_BPS));
        assertEquals(0, context.get(W_STAGE));
        assertEquals(741_702, r.rate());
        // ACK 3, a fast reaction, tau = 1 us: hop 0 EWMA (1.344 x 9 + 1.344 x 1) / 10 = 1.344, R0 = 70,734,296,744 / 1.41474
        // + 50M = 50,048,040,210; hop 1 sample 409.6 / 400 + 0.16 = 1.184, EWMA (0.928 x 9 + 1.184) / 10 = 0.9536,
        // k = 1.00379 >= 1: R1 = 100G / 1.00379 + 50M = 99,672,163,196. Lowest: R0; the per-hop Rc are not committed.
        r = ack(a, 12_500, 11_500, new long[] {16_000, 1_140_800, 40_000}, new long[] {16_500, 4_435_200, 80_000});
        assertEquals(0.9536, readDouble(context, W_HOP_U + 2), 1e-12);
        assertEquals(50_048_040_210L, readLong(context, W_RATE_BPS));
        assertEquals(70_734_296_744L, readLong(context, W_HOP_RC_BPS));
        assertEquals(LINE, readLong(context, W_HOP_RC_BPS + 2));
        assertEquals(1, context.get(W_HOP_STAGE + 1));
        assertEquals(524_791, r.rate());
    }

    @Test
    void sampleFeedbackSkipsHopsWithAnEmptyQueueInFastReactions() {
        final PccAlgorithm a = create("multi_rate", 1, "sample_feedback", 1);
        ack(a, 10_000, 1_000, new long[] {5_000, 1_000_000, 40_000}, new long[] {5_500, 4_000_000, 80_000});
        ack(a, 12_000, 11_000, new long[] {15_000, 1_128_000, 48_000}, new long[] {15_500, 4_384_000, 80_000});
        // ACK 3 as above but hop 0 reports an empty queue: hop 0 is skipped (its EWMA stays 1.344 and its stored record
        // stays ACK 2's), so the rate is min(R0 = 70,734,296,744 committed, R1 = 99,672,163,196) = R0
        final PccResult r = ack(a, 12_500, 11_500, new long[] {16_000, 1_140_800, 0}, new long[] {16_500, 4_435_200, 80_000});
        assertEquals(1.344, readDouble(context, W_HOP_U), 1e-12);
        assertEquals(PccIntHop.pack(C100, 15_000, 1_128_000, 48_000, 1), readLong(context, W_HOPS));
        assertEquals(0.9536, readDouble(context, W_HOP_U + 2), 1e-12);
        assertEquals(70_734_296_744L, readLong(context, W_RATE_BPS));
        assertEquals(741_702, r.rate());
    }

    @Test
    void intHopRecordsRoundTripThroughTheEventRecord() {
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 7, 0, 0).intHops(5);
        final long[] hops = new long[5];
        for (int i = 0; i < 5; i++) {
            hops[i] = PccIntHop.pack(i % 5, 1_000_003L * (i + 1), 7_777_777L * (i + 1), 80L * 100 * (i + 1), 1);
            event.intHop(i, hops[i]);
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(hops[i], event.intHop(i), "hop " + i);
        }
        assertEquals(5, event.intHops());
        assertEquals(16_000, PccIntHop.qlenBytes(hops[1], 1)); // 200 units of 80 bytes
        // time wraps at 2^20 ns: 1,000,003 x 2 mod 2^20 = 951,430
        assertEquals(951_430, PccIntHop.timeNs(hops[1]));
    }

    /** A double from two context words, low word first (HpccAlgorithm's context layout). */
    private static double readDouble(final PccContext c, final int w) {
        return Double.longBitsToDouble((c.get(w) & 0xFFFF_FFFFL) | (long) c.get(w + 1) << 32);
    }
}
