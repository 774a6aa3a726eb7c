package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.DctcpRateAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rate-based DCTCP of HPCC ns-3 ({@code rdma-hw.cc HandleAckDctcp}, CC_MODE 8) step by step, with
 * the defaults g = 1/16 (4,096 in 16.16), DCTCP_RATE_AI 1,000 Mb/s = 1,000,000 kb/s, MIN_RATE 100 Mb/s,
 * alpha starting at 1 (65,536). Line rate 100 Gb/s = 100,000,000 kb/s, MTU 1000 B. A rate result is
 * the fraction of line rate floor(kbps x 1000 x 2^20 / 10^11).
 */
class DctcpRateAlgorithmTest {
    private static final int LINE_KBPS = 100_000_000;

    @Test
    void alphaOverAWindowOneCutPerWindowAndAdditiveIncrease() {
        final Harness h = new Harness(new DctcpRateProvider());
        PccResult r = h.init(0);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(PccResult.WINDOW_UNLIMITED, r.windowBytes());
        assertEquals(LINE_KBPS, h.word(W_RATE_KBPS));
        assertEquals(65_536, h.word(W_ALPHA));

        h.tx(9, 10_000, 10, 100); // PSNs 0..9 sent: snd_nxt = 10
        // first ACK: first batch, batch = snd_nxt / mtu + 1 = 11, update PSN = 10; AI already at line rate
        r = h.ack(0, 0, false);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(11, h.word(W_BATCH_PACKETS));
        assertEquals(10, h.word(W_UPDATE_PSN));
        assertEquals(1, h.counter("dctcp_rate_increases"));
        assertEquals(0, h.counter("dctcp_rate_alpha_updates"));

        // ECE, not in CWR: rate x (1 - 1/2) = 50,000,000 kb/s (fraction 524,288); CWR until PSN 10 is acknowledged
        r = h.ack(1, 1, true);
        assertEquals(50_000_000, h.word(W_RATE_KBPS));
        assertEquals(524_288, r.rate());
        assertEquals(10, h.word(W_HIGH_PSN));
        // a second ECE in the same window: counted, no second cut
        r = h.ack(2, 2, true);
        assertEquals(PccResult.RATE_UNCHANGED, r.rate());
        assertEquals(1, h.counter("dctcp_rate_cuts"));
        h.ack(3, 8, false);
        h.tx(19, 10_000, 10, 200); // snd_nxt = 20
        h.ack(9, 9, false); // 9 < update PSN 10: same batch; 9 < high PSN 10: still CWR
        assertEquals(2, h.word(W_ECN_COUNT));
        assertEquals(50_000_000, h.word(W_RATE_KBPS));

        // ACK of PSN 10 with ECE: ecn_count 3, new batch: frac = floor(3 x 2^16 / 11) = 17,873;
        // alpha = (61,440 x 65,536 + 4,096 x 17,873) >> 16 = 62,557 (ns-3: 15/16 + 3/176 = 0.95455);
        // batch = snd_nxt - ack = 20 - 11 = 9 packets + 1 = 10; CWR ends (10 >= 10) and the ECE cuts again:
        // 50,000,000 - floor(50,000,000 x 62,557 / 2^17) = 26,136,399 kb/s (ns-3 26,136,364); fraction 274,060
        r = h.ack(10, 10, true);
        assertEquals(62_557, h.word(W_ALPHA));
        assertEquals(0, h.word(W_ECN_COUNT));
        assertEquals(10, h.word(W_BATCH_PACKETS));
        assertEquals(20, h.word(W_UPDATE_PSN));
        assertEquals(26_136_399, h.word(W_RATE_KBPS));
        assertEquals(274_060, r.rate());
        assertEquals(20, h.word(W_HIGH_PSN));
        assertEquals(2, h.counter("dctcp_rate_cuts"));
        assertEquals(1, h.counter("dctcp_rate_alpha_updates"));

        h.ack(11, 19, false);
        h.tx(29, 10_000, 10, 300);
        // unmarked window: alpha = 61,440 x 62,557 >> 16 = 58,647 (ns-3 0.89489); CWR ends; AI:
        // 26,136,399 + 1,000,000 = 27,136,399 kb/s, fraction 284,545
        r = h.ack(20, 20, false);
        assertEquals(58_647, h.word(W_ALPHA));
        assertEquals(27_136_399, h.word(W_RATE_KBPS));
        assertEquals(284_545, r.rate());
        assertEquals(2, h.counter("dctcp_rate_increases"));
        // within the batch no further increase
        assertEquals(PccResult.RATE_UNCHANGED, h.ack(21, 25, false).rate());
        assertEquals(3, h.counter("dctcp_rate_acks_marked"));
    }

    @Test
    void firstBatchCountsBytesAsNs3ShortLastPacketNotCounted() {
        // a 4,500-byte message: PSNs 0..4, the last one 500 bytes; ns-3 snd_nxt / mtu + 1 = 4 + 1 = 5
        final Harness h = new Harness(new DctcpRateProvider());
        h.init(0);
        h.tx(4, 4_500, 5, 100);
        h.ack(0, 0, false);
        assertEquals(5, h.word(W_BATCH_PACKETS));
        assertEquals(5, h.word(W_UPDATE_PSN));
    }

    @Test
    void nackSetsSndNxtBackAndRunsTheAckSteps() {
        final Harness h = new Harness(new DctcpRateProvider());
        h.init(0);
        h.tx(9, 10_000, 10, 100);
        h.ack(0, 0, false); // update PSN 10, batch 11
        h.tx(19, 10_000, 10, 200);
        // NACK expecting PSN 12: snd_nxt = 12, acknowledged up to 11 >= 10: new batch, frac 0:
        // alpha = 61,440 x 65,536 >> 16 = 61,440; batch = 12 - 12 + 1 = 1; update PSN 12
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 1, 12, 300);
        assertEquals(12, h.word(W_NEXT_PSN));
        assertEquals(61_440, h.word(W_ALPHA));
        assertEquals(1, h.word(W_BATCH_PACKETS));
        assertEquals(12, h.word(W_UPDATE_PSN));
        // a NACK that acknowledges nothing beyond the update PSN changes no batch
        h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 12, 12, 400);
        assertEquals(1, h.counter("dctcp_rate_alpha_updates"));
    }

    @Test
    void cutIsClampedAtMinRateAndCnpEventsAreIgnored() {
        final Harness h = new Harness(new DctcpRateProvider(), "min_rate_mbps", 60_000);
        h.init(0);
        h.tx(9, 10_000, 10, 100);
        assertEquals(PccResult.RATE_UNCHANGED, h.cnp(150).rate());
        // alpha 1: 100 Gb/s x 1/2 = 50 Gb/s < 60 Gb/s floor
        h.ack(0, 0, true);
        assertEquals(60_000_000, h.word(W_RATE_KBPS));
        assertEquals(1, h.counter("dctcp_rate_min_rate_clamps"));
    }

    @Test
    void registeredWithNs3DefaultsAndDocumentedSources() {
        final DctcpRateProvider p = new DctcpRateProvider();
        assertInstanceOf(DctcpRateProvider.class, PccAlgorithms.byName("dctcp-rate"));
        assertEquals(1.0 / 16, p.defaults().value("g")); // rdma-hw.cc EwmaGain
        assertEquals(1000.0, p.defaults().value("rate_ai_mbps")); // DctcpRateAI 1000Mb/s
        assertEquals(100.0, p.defaults().value("min_rate_mbps")); // MinRate 100Mb/s
        assertEquals(1.0, p.defaults().value("initial_alpha"));
        for (int i = 0; i < p.parameters().size(); i++) {
            assertEquals(i, p.parameters().get(i).id());
            final String d = p.parameters().get(i).description();
            assertTrue(d.matches(".*(draft|paper|article|RFC) .*") || d.matches(".*\\([A-Z_]+\\).*"), d);
        }
        assertTrue(p.description().matches(".*(draft|paper|article|RFC) .*"));
        assertTrue(p.create(p.defaults()).contextWords() <= 12);
    }
}
