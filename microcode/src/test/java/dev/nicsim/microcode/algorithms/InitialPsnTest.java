package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Real NICs start a QP's PSNs anywhere in 0..2^24 - 1 (IBTA vol. 1 §9.7.1) and wrap at 2^24. Every
 * algorithm must give the same results for the same flow whatever its first PSN: here 0, 9,209,053
 * (above 2^23, where a start-at-0 assumption breaks serial comparisons) and 2^24 - 100 (the flow
 * wraps after its 100th packet). The script is one flow of 400 packets on the {@link Harness} path
 * (100 Gb/s, MTU 1000 B, base RTT 10 us, BDP = 125 packets): TX bursts of 16 packets, one ACK per
 * 4 packets (every third one ECE-marked), a go-back-N NACK, CNPs, RTT responses and timers.
 */
class InitialPsnTest {
    private static final int MASK = 0xFF_FFFF;
    private static final int[] STARTS = {0, 9_209_053, (1 << 24) - 100};

    /** Runs the script; returns one line per call: the result fields and the counters at the end. */
    private static List<String> script(final PccAlgorithmProvider provider, final int start) {
        final Harness h = new Harness(provider);
        final List<String> out = new ArrayList<>();
        out.add(line(h.init(0, start)));
        int ts = 1_000;
        int acked = 0;
        for (int sent = 16; sent <= 400; sent += 16) {
            out.add(line(h.tx((start + sent - 1) & MASK, 16 * Harness.MTU, 16, ts += 500)));
            for (; acked + 4 <= sent - 8; acked += 4) {
                final boolean ece = (acked / 4) % 3 == 2;
                out.add(line(h.ack((start + acked) & MASK, (start + acked + 3) & MASK, ece, ts += 100, ts - 10_000)));
            }
            if (sent == 160) {
                // packet `acked` lost: NACK expecting it (nothing newly acknowledged), go-back-N
                out.add(line(h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, (start + acked) & MASK, (start + acked) & MASK,
                    ts += 100)));
                out.add(line(h.cnp(ts += 50)));
            }
            if (sent % 64 == 0) {
                out.add(line(h.rttResponse(ts += 100, ts - 12_000, ts - 7_000, ts - 6_900)));
                out.add(line(h.timer(ts += 100)));
            }
        }
        final StringBuilder counters = new StringBuilder("counters");
        for (int id = 0; id < h.algorithm.counters().size(); id++) {
            counters.append(' ').append(h.algorithm.counters().name(id)).append('=').append(h.algorithm.counters().get(id));
        }
        out.add(counters.toString());
        return out;
    }

    private static String line(final PccResult r) {
        return "rate=" + r.rate() + " window=" + r.windowBytes() + " fastStart=" + r.fastStartPackets()
            + " probe=" + r.rttProbeRequest() + " timer=" + r.timerNs();
    }

    private static void assertSameForEveryStart(final PccAlgorithmProvider provider) {
        final List<String> reference = script(provider, 0);
        for (final int start : STARTS) {
            assertEquals(reference, script(provider, start), provider.name() + " starting at PSN " + start);
        }
    }

    @Test
    void ldcpGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new LdcpProvider());
    }

    @Test
    void dctcpGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new DctcpProvider());
    }

    @Test
    void dcqcnGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new DcqcnProvider());
    }

    @Test
    void ldcpPccGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new LdcpPccProvider());
    }

    @Test
    void timelyGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new TimelyProvider());
    }

    @Test
    void hpccGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new HpccProvider());
    }

    @Test
    void dctcpRateGivesTheSameResultsForEveryFirstPsn() {
        assertSameForEveryStart(new DctcpRateProvider());
    }

    @Test
    void ldcpFastStartEndsAtTheIwthPacketCountedFromTheFirstPsn() {
        // IW = BDP = 125 packets: an ACK of the flow's first 124 packets keeps fast start, the ACK
        // of its 125th ends it (the LDCP draft §3.1 transition 2). At a start of 9,209,053 the old
        // `sn + 1` count ended fast start on the first ACK; at 2^24 - 100 the IW straddles the wrap.
        for (final int start : STARTS) {
            final Harness h = new Harness(new LdcpProvider());
            h.init(0, start);
            assertEquals(PccResult.FAST_START_UNCHANGED, h.ack(start, (start + 123) & MASK, false).fastStartPackets());
            assertEquals(0, h.counter("ldcp_fast_start_exit_iw"), "start " + start);
            assertEquals(0, h.ack((start + 124) & MASK, (start + 124) & MASK, false).fastStartPackets());
            assertEquals(1, h.counter("ldcp_fast_start_exit_iw"), "start " + start);
            assertEquals(125 << 16, h.word(LdcpAlgorithm.W_CW)); // cw = BDP / MTU = 125 packets, nothing beyond
        }
    }

    @Test
    void ldcpLossInFastStartCountsPacketsFromTheFirstPsnWithoutOverflow() {
        // NACK expecting the flow's 41st packet: 40 packets acknowledged -> cw = 40 packets = 2,621,440.
        // With PSNs counted from 0, a start of 9,209,053 gave 9,209,093 << 16, which overflows int.
        for (final int start : STARTS) {
            final Harness h = new Harness(new LdcpProvider());
            h.init(0, start);
            final PccResult r = h.nack(PccEventType.NACK_OUT_OF_SEQUENCE, (start + 40) & MASK, (start + 40) & MASK, 5_000);
            assertEquals(40 << 16, h.word(LdcpAlgorithm.W_CW), "start " + start);
            assertEquals(40 * Harness.MTU, r.windowBytes());
        }
    }

    @Test
    void dctcpFirstAckClosesTheFirstObservationWindow() {
        // WindowEnd starts at firstPsn - 1, so the first ACK (2 packets, ECE) closes the window:
        // M = 2/2 = 1, alpha = (1 - 1/16) x 1 + 1/16 x 1 = 1 (65,536), and the counts reset. A
        // second window then ends at the last PSN sent (firstPsn + 15): an unmarked ACK of 14
        // packets gives M = 0, alpha = 15/16 = 61,440. At 9,209,053 the old WindowEnd of
        // 16,777,215 compared as "after" every PSN and alpha never moved.
        for (final int start : STARTS) {
            final Harness h = new Harness(new DctcpProvider());
            h.init(0, start);
            h.tx((start + 15) & MASK, 16 * Harness.MTU, 16, 100);
            h.ack(start, (start + 1) & MASK, true);
            assertEquals(0, h.word(DctcpAlgorithm.W_ACKED_PACKETS), "start " + start);
            assertEquals(FixedPoint.ONE, h.word(DctcpAlgorithm.W_ALPHA));
            h.ack((start + 2) & MASK, (start + 15) & MASK, false);
            assertEquals(61_440, h.word(DctcpAlgorithm.W_ALPHA), "start " + start);
        }
    }

    @Test
    void theScriptReallyWrapsAndReallyReacts() {
        // guard against a script that could not tell the algorithms apart: its results change
        // over the flow, and a start of 2^24 - 100 puts PSN 0 in the middle of the flow
        final List<String> ldcp = script(new LdcpProvider(), STARTS[2]);
        assertNotEquals(ldcp.get(1), ldcp.get(ldcp.size() - 2));
        assertEquals(0, (STARTS[2] + 100) & MASK);
    }

    @Test
    void anInitialPsnOutside24BitsIsRejected() {
        final Harness h = new Harness(new LdcpProvider());
        assertThrows(IllegalArgumentException.class, () -> h.attributes.initialPsn(1 << 24));
        assertThrows(IllegalArgumentException.class, () -> h.attributes.initialPsn(-1));
    }
}
