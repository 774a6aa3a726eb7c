package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import static dev.nicsim.microcode.algorithms.DctcpAlgorithm.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * DCTCP sender, the DCTCP draft §3.3, g = 1/16 (4,096 in 16.16), alpha starts at 1 (65,536). Path:
 * 100 Gb/s, MTU 1000 B, base RTT 10 us: initial cwnd = BDP = 125,000 B.
 */
class DctcpAlgorithmTest {

    @Test
    void alphaOverObservationWindowsAndOneReductionPerWindow() {
        final Harness h = new Harness(new DctcpProvider());
        PccResult r = h.init(0);
        assertEquals(125_000, r.windowBytes());
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        assertEquals(125_000, h.word(W_CWND_BYTES));
        assertEquals(125_000, h.word(W_SSTHRESH_BYTES)); // start in congestion avoidance
        assertEquals(65_536, h.word(W_ALPHA));
        assertEquals(0xFF_FFFF, h.word(W_WINDOW_END_PSN)); // SND.UNA - 1: the first ACK ends window 1

        h.tx(0, 1_000, 1, 100);
        h.tx(8, 8_000, 8, 900); // PSNs 0..8 sent
        assertEquals(8, h.word(W_LAST_SENT_PSN));
        assertEquals(FLAG_SENT, h.word(W_FLAGS));

        // ACK PSN 0, unmarked: window 1 ends with M = 0/1: alpha = 15/16 x 1 = 61,440; the next
        // window ends at the last PSN sent, 8. Congestion avoidance: 1000 B towards the next MTU.
        r = h.ack(0, 0, false);
        assertEquals(61_440, h.word(W_ALPHA));
        assertEquals(8, h.word(W_WINDOW_END_PSN));
        assertEquals(125_000, r.windowBytes());
        assertEquals(1_000, h.word(W_CA_BYTES));

        // ACK PSN 1..3 with ECE: 3 of 3 marked so far; reaction cwnd = cwnd (1 - alpha/2)
        // = 125,000 - floor(125,000 x 61,440 / 2^17) = 125,000 - floor(58,593.75) = 66,407;
        // ssthresh = 66,407; CWR until PSN 8 is acknowledged
        r = h.ack(1, 3, true);
        assertEquals(66_407, r.windowBytes());
        assertEquals(66_407, h.word(W_SSTHRESH_BYTES));
        assertEquals(FLAG_SENT | FLAG_IN_CWR, h.word(W_FLAGS));
        assertEquals(8, h.word(W_CWR_END_PSN));
        assertEquals(3, h.word(W_ACKED_PACKETS));
        assertEquals(3, h.word(W_MARKED_PACKETS));

        // ACK PSN 4..8 unmarked: window 2 ends with F = 3 marked / 8 acked = 3/8 (24,576):
        // alpha = 15/16 x 61,440/65,536 + 1/16 x 3/8 = 0.87890625 + 0.0234375 = 0.90234375 = 59,136
        // CWR ends (PSN 8 acknowledged); 5,000 B towards the next congestion-avoidance MTU
        r = h.ack(4, 8, false);
        assertEquals(59_136, h.word(W_ALPHA));
        assertEquals(0, h.word(W_ACKED_PACKETS));
        assertEquals(FLAG_SENT, h.word(W_FLAGS));
        assertEquals(66_407, r.windowBytes());
        assertEquals(5_000, h.word(W_CA_BYTES));
        assertEquals(2, h.counter("dctcp_alpha_updates"));

        // more data (to PSN 20); ACK PSN 9 with ECE ends window 3 with F = 1:
        // alpha = 15/16 x 59,136 + 4,096 = 55,440 + 4,096 = 59,536; cwnd = 66,407 -
        // floor(66,407 x 59,536 / 2^17) = 66,407 - 30,163 = 36,244
        h.tx(20, 12_000, 12, 2_000);
        r = h.ack(9, 9, true);
        assertEquals(59_536, h.word(W_ALPHA));
        assertEquals(36_244, r.windowBytes());
        assertEquals(20, h.word(W_CWR_END_PSN));

        // a second ECE in the same window of data does not reduce again
        r = h.ack(10, 10, true);
        assertEquals(36_244, r.windowBytes());
        assertEquals(2, h.counter("dctcp_ecn_reductions"));
    }

    @Test
    void lossHalvesOncePerWindow() {
        final Harness h = new Harness(new DctcpProvider());
        h.init(0);
        h.tx(20, 21_000, 21, 100);
        h.ack(0, 4, false); // window 1 ends, alpha 61,440, window end 20
        // NACK expecting PSN 5 (nothing newly acknowledged): cwnd = max(2 MTU, 125,000 / 2) = 62,500
        PccResult r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 5, 5, 2_000);
        assertEquals(62_500, r.windowBytes());
        assertEquals(62_500, h.word(W_SSTHRESH_BYTES));
        assertEquals(20, h.word(W_CWR_END_PSN));
        // NACK expecting PSN 8 that newly acknowledges PSN 5..7: still in the same window of
        // data (PSN 20 not yet acknowledged), no second halving; 3 packets counted for alpha
        r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 5, 8, 3_000);
        assertEquals(62_500, r.windowBytes());
        assertEquals(3, h.word(W_ACKED_PACKETS));
        // ACK to PSN 20 closes CWR and the alpha window (F = 0): alpha = 15/16 x 61,440 = 57,600
        h.ack(8, 20, false);
        assertEquals(57_600, h.word(W_ALPHA));
        r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 21, 21, 4_000);
        assertEquals(31_250, r.windowBytes());
        assertEquals(2, h.counter("dctcp_loss_reductions"));
        // RNR is not a loss
        r = h.nack(PccEventType.NACK_RNR, 21, 21, 5_000);
        assertEquals(PccResult.WINDOW_UNCHANGED, r.windowBytes());
    }

    @Test
    void slowStartUpToSsthreshThenAppropriateByteCounting() {
        final Harness h = new Harness(new DctcpProvider(), "init_window_bytes", 4_000, "init_ssthresh_bytes", 8_000);
        PccResult r = h.init(0);
        assertEquals(4_000, r.windowBytes());
        // slow start: +3,000 B acked -> 7,000
        r = h.ack(0, 2, false);
        assertEquals(7_000, r.windowBytes());
        // +3,000: 1,000 to reach ssthresh 8,000, the other 2,000 count towards congestion avoidance
        r = h.ack(3, 5, false);
        assertEquals(8_000, r.windowBytes());
        assertEquals(2_000, h.word(W_CA_BYTES));
        // +6,000: 8,000 >= cwnd -> cwnd += MTU = 9,000, counter 0 (MTU x MTU / cwnd per MTU acked)
        r = h.ack(6, 11, false);
        assertEquals(9_000, r.windowBytes());
        assertEquals(0, h.word(W_CA_BYTES));
    }

    @Test
    void windowNeverFallsBelowTwoPackets() {
        final Harness h = new Harness(new DctcpProvider(), "init_window_bytes", 3_000);
        h.init(0);
        h.tx(100, 1_000, 1, 10);
        h.ack(0, 0, false); // window end now 100
        final PccResult r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, 1, 1, 20); // 3,000 / 2 = 1,500 < 2,000
        assertEquals(2_000, r.windowBytes());
    }
}
